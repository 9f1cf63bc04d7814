"""Scallywags: grab, steal and swap hidden coins with action cards (2-6 players)."""

from plunder.envs.core.spec import GameSpec, lazy_attributes

SPEC = GameSpec(
    name="scallywags",
    package=__name__,
    game="plunder.envs.scallywags.engine:ScallywagsGame",
    env_module="plunder.envs.scallywags_v0",
    title="Scallywags",
    description="Grab, steal and swap hidden coins with action cards.",
    min_players=2,
    max_players=6,
    compiled=("encoder", "engine"),
    heuristic="plunder.policies.scallywags_heuristic:ScallywagsHeuristic",
    board="plunder.envs.scallywags.render:board",
    prompt="plunder.envs.scallywags.guide:decision_prompt",
    move_label="plunder.envs.scallywags.guide:move_label",
    rules="rules.md",
)

__getattr__ = lazy_attributes(__name__, {"ScallywagsGame": "engine",
                                         "ScallywagsState": "engine",
                                         "ScallywagsView": "view"})

__all__ = ["SPEC", "ScallywagsGame", "ScallywagsState", "ScallywagsView"]
