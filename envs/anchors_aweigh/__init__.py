"""Anchors Aweigh!: engine, view, observation and rendering (env: ``anchors_aweigh_v0``)."""

from .engine import AnchorsAweighGame, AnchorsAweighState

__all__ = ["AnchorsAweighGame", "AnchorsAweighState"]
