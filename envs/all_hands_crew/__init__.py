"""All Hands on Deck (crew combinations): collect crew cards and lay out combinations (2-6 players)."""

from .engine import AllHandsCrewGame, AllHandsCrewState
from .view import AllHandsCrewView

__all__ = ["AllHandsCrewGame", "AllHandsCrewState", "AllHandsCrewView"]
