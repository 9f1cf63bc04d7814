"""Helpers for the compiled-code tests (tests/test_compiled.py and each game's
tests/<game>/test_compiled_encoder.py and test_compiled_view.py)."""

from __future__ import annotations

import tracemalloc

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


def uses_compiled_view(game) -> bool:
    """Whether ``game`` builds views through its compiled view builder: ``view_of`` is then
    the C method itself, bound on the instance (``Game.bind_compiled``)."""
    return type(game.__dict__.get("view_of")).__name__ == "builtin_function_or_method"


def uses_compiled_mask(game) -> bool:
    """Whether ``game`` writes masks through its compiled view builder's ``mask_into``, bound
    on the instance (``Game.bind_compiled``)."""
    return type(game.__dict__.get("mask_into")).__name__ == "builtin_function_or_method"


def same_view(a, b) -> bool:
    """Strict equality of two views: the same types all the way down (a bool is not an int,
    a list is not a tuple, a namedtuple is its own class) and equal values."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same_view(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_view(a[k], b[k]) for k in a)
    if isinstance(a, (set, frozenset)):
        return a == b and all(type(x) is type(next(y for y in b if y == x)) for x in a)
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    if isinstance(a, float):
        return a.hex() == b.hex()
    return a == b


def view_difference(a, b, where: str = "view") -> str:
    """Where two views first differ (for assertion messages), or "" when ``same_view``."""
    if type(a) is not type(b):
        return f"{where}: {type(a).__name__} {a!r} vs {type(b).__name__} {b!r}"
    if isinstance(a, (tuple, list)):
        if len(a) != len(b):
            return f"{where}: length {len(a)} vs {len(b)}: {a!r} vs {b!r}"
        names = getattr(a, "_fields", None)
        for i, (x, y) in enumerate(zip(a, b)):
            d = view_difference(x, y, f"{where}.{names[i]}" if names else f"{where}[{i}]")
            if d:
                return d
        return ""
    return "" if same_view(a, b) else f"{where}: {a!r} vs {b!r}"


#: junk for a state's fields: wrong types, lengths and ranges (the compiled views' fuzz)
BAD_FIELD_VALUES = [None, -5, 10**30, 3.5, "x", (), [], [None] * 3, [[]] * 8,
                    [-1] * 40, [10**30] * 8, list(range(200)), {"a": 1}]


def memory_growth(run, warm: int, count: int) -> int:
    """Bytes still allocated after ``run(count)`` that were not before it: ``run(warm)``
    first (caches and free lists fill), then ``run(warm // 2)`` while traced, then the
    measured ``run(count)``. A C function that leaks grows with ``count``."""
    run(warm)
    tracemalloc.start()
    try:
        run(warm // 2)
        before = tracemalloc.get_traced_memory()[0]
        run(count)
        return tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
