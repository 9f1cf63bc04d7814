"""All Hands On Deck (naval battles): build three ships, launch them, fight at sea (2-5 players)."""

from plunder.envs.core.spec import GameSpec, lazy_attributes

SPEC = GameSpec(
    name="all_hands_battle",
    package=__name__,
    game="plunder.envs.all_hands_battle.engine:AllHandsBattleGame",
    env_module="plunder.envs.all_hands_battle_v0",
    title="All Hands On Deck (battle)",
    description="Build three ships from your hand, launch them and fight naval battles.",
    min_players=2,
    max_players=5,
    compiled=("encoder", "view"),
    heuristic="plunder.policies.all_hands_battle_heuristic:AllHandsBattleHeuristic",
    board="plunder.envs.all_hands_battle.render:board",
    prompt="plunder.envs.all_hands_battle.guide:decision_prompt",
    move_label="plunder.envs.all_hands_battle.guide:move_label",
    rules="rules.md",
    test_variants=({}, {"prize_crew": True, "alternate_aargh": True}),
)

__getattr__ = lazy_attributes(__name__, {"AllHandsBattleGame": "engine",
                                         "AllHandsBattleState": "engine",
                                         "AllHandsBattleView": "view", "ShipView": "view"})

__all__ = ["SPEC", "AllHandsBattleGame", "AllHandsBattleState", "AllHandsBattleView",
           "ShipView"]
