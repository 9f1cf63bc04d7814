"""Bots for every plunder game: random, heuristic, and exported (ONNX) trained policies."""

from .base import HEURISTICS, Policy, RandomPolicy, heuristic_class, make_bot

__all__ = ["HEURISTICS", "Policy", "RandomPolicy", "heuristic_class", "make_bot"]
