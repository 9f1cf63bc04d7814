"""Anchors Aweigh!: engine, view, observation and rendering (env: ``anchors_aweigh_v0``)."""

from plunder.envs.core.spec import GameSpec, SearchDefaults, lazy_attributes

SPEC = GameSpec(
    name="anchors_aweigh",
    package=__name__,
    game="plunder.envs.anchors_aweigh.engine:AnchorsAweighGame",
    env_module="plunder.envs.anchors_aweigh_v0",
    title="Anchors Aweigh!",
    description="Race to load your ship, then sail through the adventures at sea.",
    min_players=2,
    max_players=4,
    simultaneous=True,
    compiled=("encoder", "view", "mask", "engine"),
    heuristic="plunder.policies.anchors_aweigh_heuristic:AnchorsAweighHeuristic",
    planner="plunder.policies.anchors_aweigh_planner:AnchorsAweighPlanner",
    # its networks' critics favour the moves they would play: searched far ahead, and
    # overridden only for a large gain (plunder.policies.netsearch)
    search=SearchDefaults(horizon=24, min_gain=0.2),
    board="plunder.envs.anchors_aweigh.render:board",
    prompt="plunder.envs.anchors_aweigh.guide:decision_prompt",
    move_label="plunder.envs.anchors_aweigh.guide:move_label",
    rules="rules.md",
    test_variants=({}, {"perfect_recall": True}, {"rough_seas": True},
                   {"meddlesome_monkey": (1,)}),
)

__getattr__ = lazy_attributes(__name__, {"AnchorsAweighGame": "engine",
                                         "AnchorsAweighState": "engine",
                                         "AnchorsAweighView": "view"})

__all__ = ["SPEC", "AnchorsAweighGame", "AnchorsAweighState", "AnchorsAweighView"]
