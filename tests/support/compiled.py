"""Helpers for the compiled-code tests (tests/test_compiled.py, tests/core/ and each game's
compiled-code tests): the comparisons of ``plunder.envs.core.testing``, games built with
the compiled code on or off through pytest's ``monkeypatch``, and the fixtures
``compiled_on`` and ``games`` (registered for the whole suite by tests/conftest.py)."""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs import game_class
from plunder.envs.core.compiled import PURE_PYTHON_VAR
from plunder.envs.core.testing import (  # noqa: F401 - re-exported for the tests
    BAD_FIELD_VALUES, memory_growth, same_bytes, same_view, uses_compiled,
    uses_compiled_mask, uses_compiled_view, view_difference,
)


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


@pytest.fixture
def compiled_on(monkeypatch):
    """Games built in the test use the compiled code unless it switches it off, also in a
    run under ``PLUNDER_PURE_PYTHON=1`` (a module turns it on for all its tests with
    ``pytestmark = pytest.mark.usefixtures("compiled_on")``)."""
    monkeypatch.delenv(PURE_PYTHON_VAR, raising=False)


@pytest.fixture
def games(request, monkeypatch):
    """``make(n, **opts)`` -> (Python game, compiled game) of the test module's ``ENV_ID``."""
    cls = game_class(request.module.ENV_ID)

    def make(n, **opts):
        return (python_game(monkeypatch, cls, n, **opts),
                compiled_game(monkeypatch, cls, n, **opts))
    return make


def assert_view_shape_checked(game, view):
    """``game``'s compiled ``encode_into`` refuses with a TypeError what is not a view of
    the right length (a list, a tuple a field short or long, None, a number, a dict) and
    encodes the plain tuple of the namedtuple ``view`` as ``view`` itself."""
    out = np.zeros(game.layout.size, np.float32)
    for bad in (list(view), tuple(view)[:-1], tuple(view) + (0,), None, 3, {"player": 0}):
        with pytest.raises(TypeError):
            game.encode_into(bad, out)
    game.encode_into(tuple(view), out)                       # a plain tuple is fine
    assert same_bytes(out, game.encode(view))


def assert_view_refused(game, view):
    """``game``'s compiled encoder refuses the malformed ``view`` with a TypeError or
    ValueError, through ``encode_into`` and ``encode`` alike."""
    out = np.zeros(game.layout.size, np.float32)
    with pytest.raises((TypeError, ValueError)):
        game.encode_into(view, out)
    with pytest.raises((TypeError, ValueError)):
        game.encode(view)
