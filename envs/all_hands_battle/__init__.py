"""All Hands On Deck (naval battles): build three ships, launch them, fight at sea (2-5 players)."""

from .engine import AllHandsBattleGame, AllHandsBattleState
from .view import AllHandsBattleView, ShipView

__all__ = ["AllHandsBattleGame", "AllHandsBattleState", "AllHandsBattleView", "ShipView"]
