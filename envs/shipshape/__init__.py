"""ShipShape: bid with crew cards for crates, stack three on your hold, score what shows."""

from plunder.envs.core.spec import GameSpec, lazy_attributes

SPEC = GameSpec(
    name="shipshape",
    package=__name__,
    game="plunder.envs.shipshape.engine:ShipShapeGame",
    env_module="plunder.envs.shipshape_v0",
    title="ShipShape",
    description="Bid with crew cards for crates and stack them on your hold.",
    min_players=2,
    max_players=6,
    simultaneous=True,
    compiled=("encoder",),
    heuristic="plunder.policies.shipshape_heuristic:ShipShapeHeuristic",
    planner="plunder.policies.shipshape_planner:ShipShapePlanner",
    board="plunder.envs.shipshape.render:board",
    prompt="plunder.envs.shipshape.guide:decision_prompt",
    move_label="plunder.envs.shipshape.guide:move_label",
    rules="rules.md",
)

__getattr__ = lazy_attributes(__name__, {"ShipShapeGame": "engine",
                                         "ShipShapeState": "engine",
                                         "ShipShapeView": "view"})

__all__ = ["SPEC", "ShipShapeGame", "ShipShapeState", "ShipShapeView"]
