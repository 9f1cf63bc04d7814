"""Bots for every plunder game: random, heuristic, search, and exported (ONNX) trained policies."""

from .base import HEURISTICS, Policy, RandomPolicy, choose_action, heuristic_class, make_bot
from .search import SearchPolicy

__all__ = ["HEURISTICS", "Policy", "RandomPolicy", "SearchPolicy", "choose_action",
           "heuristic_class", "make_bot"]
