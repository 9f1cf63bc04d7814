"""Helpers for the compiled-encoder tests (tests/test_compiled.py and each game's
tests/<game>/test_compiled_encoder.py)."""

from __future__ import annotations

import numpy as np

from plunder.envs.core.compiled import PURE_PYTHON_VAR


def uses_compiled(game) -> bool:
    """Whether ``game`` encodes through its compiled module: its ``encode_into`` is then
    the C method itself, bound by the game on the instance."""
    return type(game.encode_into).__name__ == "builtin_function_or_method"


def same_bytes(a: np.ndarray, b: np.ndarray) -> bool:
    """Two observation vectors are the same float32 bytes."""
    return (a.dtype == b.dtype == np.float32 and a.shape == b.shape
            and a.tobytes() == b.tobytes())


def python_game(monkeypatch, cls, n, **opts):
    """A game of ``cls`` built with the Python encoder (``PLUNDER_PURE_PYTHON=1``)."""
    with monkeypatch.context() as m:
        m.setenv(PURE_PYTHON_VAR, "1")
        game = cls(n, **opts)
    assert not uses_compiled(game)
    return game


def compiled_game(monkeypatch, cls, n, **opts):
    """A game of ``cls`` built with its compiled encoder (also in a test run under
    ``PLUNDER_PURE_PYTHON=1``)."""
    monkeypatch.delenv(PURE_PYTHON_VAR, raising=False)
    game = cls(n, **opts)
    assert uses_compiled(game)
    return game
