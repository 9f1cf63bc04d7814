"""ShipShape: bid with crew cards for crates, stack three on your hold, score what shows."""

from .engine import ShipShapeGame, ShipShapeState
from .view import ShipShapeView

__all__ = ["ShipShapeGame", "ShipShapeState", "ShipShapeView"]
