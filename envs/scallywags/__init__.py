"""Scallywags: grab, steal and swap hidden coins with action cards (2-6 players)."""

from .engine import ScallywagsGame, ScallywagsState
from .view import ScallywagsView

__all__ = ["ScallywagsGame", "ScallywagsState", "ScallywagsView"]
