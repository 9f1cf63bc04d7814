"""All Hands on Deck (crew combinations): engine, components and observation encoder."""

from plunder.envs.core.spec import GameSpec, SearchDefaults, lazy_attributes

SPEC = GameSpec(
    name="all_hands_crew",
    package=__name__,
    game="plunder.envs.all_hands_crew.engine:AllHandsCrewGame",
    env_module="plunder.envs.all_hands_crew_v0",
    title="All Hands on Deck (crew)",
    description="Collect pirates in a face-down crew pile and lay out scoring combinations.",
    min_players=2,
    max_players=6,
    simultaneous=True,
    compiled=("encoder", "view"),
    heuristic="plunder.policies.all_hands_crew_heuristic:AllHandsCrewHeuristic",
    # its critic predicts results poorly: rollouts to the end, two candidates, a wider
    # margin, and worlds sampled with what the seat remembers (plunder.policies.netsearch)
    search=SearchDefaults(horizon=None, confidence=2.0, top_k=2, belief="memory"),
    beliefs={"returns": "plunder.policies.all_hands_crew_belief:returns_belief",
             "memory": "plunder.policies.all_hands_crew_belief:CrewMemory"},
    board="plunder.envs.all_hands_crew.render:board",
    prompt="plunder.envs.all_hands_crew.guide:decision_prompt",
    move_label="plunder.envs.all_hands_crew.guide:move_label",
    rules="rules.md",
    test_variants=({}, {"open_stock": True}),
)

__getattr__ = lazy_attributes(__name__, {"AllHandsCrewGame": "engine",
                                         "AllHandsCrewState": "engine",
                                         "AllHandsCrewView": "view"})

__all__ = ["SPEC", "AllHandsCrewGame", "AllHandsCrewState", "AllHandsCrewView"]
