"""The compiled Scallywags view builder (envs/scallywags/_cview.c) returns what
``ScallywagsState.python_view`` returns, strictly (same types all the way down), and
rejects malformed states with a clear error, never a crash.

The Python view is the reference. Random play of every player count and variant, sampled
and reloaded states, the switch and pickling: the shared suite
(tests/core/test_compiled_equivalence.py); here, the fields it reads and junk in each.
"""

from __future__ import annotations

import copy
import sys

import numpy as np
import pytest

pytest.importorskip("plunder.envs.scallywags._cview")

from plunder.envs.core.testing import random_states                     # noqa: E402
from plunder.envs.scallywags import _cview                              # noqa: E402
from plunder.envs.scallywags.engine import (                            # noqa: E402
    ScallywagsGame, ScallywagsState, view_params,
)
from plunder.envs.scallywags.view import ScallywagsView                 # noqa: E402
from tests.support.compiled import (                                   # noqa: E402
    BAD_FIELD_VALUES, same_view, uses_compiled_view, view_difference,
)

ENV_ID = "scallywags_v0"
ERRORS = (TypeError, ValueError, IndexError, KeyError)


pytestmark = pytest.mark.usefixtures("compiled_on")   # also under PLUNDER_PURE_PYTHON=1


def assert_same_views(state, where=""):
    """Every seat's compiled view of ``state`` is strictly the Python one."""
    assert uses_compiled_view(state.game)
    for p in range(state.game.num_players):
        c, py = state.view(p), state.python_view(p)
        assert same_view(c, py), f"{where} seat {p}: {view_difference(c, py)}"


def test_field_names_match_the_view_and_the_state():
    assert _cview.VIEW_FIELDS == ScallywagsView._fields
    # the state fields the C view reads: attributes of every state (the saved fields and
    # the derived tables python_view reads instead of recomputing them)
    s = ScallywagsGame(3).new_game(np.random.default_rng(0))
    derived = {"seen", "where", "slot", "finished"}
    assert set(_cview.STATE_FIELDS) <= set(ScallywagsState.FIELDS) | derived
    assert all(hasattr(s, name) for name in _cview.STATE_FIELDS)
    # never the coin values themselves, nor the draw pile's cards (hidden): python_view
    # reads only the player's row of `seen` and the pile's length
    assert "values" not in _cview.STATE_FIELDS


def test_a_player_is_passed_on_as_given():
    game = ScallywagsGame(4)
    s = game.new_game(np.random.default_rng(3))
    for player in (np.int64(2), True, 3):
        c, py = s.view(player), s.python_view(player)
        assert same_view(c, py) and c.player is player


def _states_of_every_phase():
    """Real states: each phase at 2 and 4 players, and a finished game."""
    out = []
    for n in (2, 4):
        found = {}
        game = ScallywagsGame(n)
        for s in random_states(game, np.random.default_rng(40 + n), 3000):
            key = "finished" if s.is_terminal() else s.phase
            if key not in found:
                found[key] = s.clone()
            if len(found) == 4:
                break
        assert len(found) == 4
        out += found.values()
    return out


def _fuzzed(state):
    """(description, state) with one field the view reads, or one item of it, replaced
    by each junk value."""
    for name in _cview.STATE_FIELDS:
        value = getattr(state, name)
        spots = [()]
        if isinstance(value, list) and value:
            for i in {0, len(value) - 1}:
                spots.append((i,))
                if isinstance(value[i], list) and value[i]:
                    spots += [(i, j) for j in {0, len(value[i]) - 1}]
        for spot in spots:
            for bad in BAD_FIELD_VALUES:
                t = state.clone()
                if not spot:
                    setattr(t, name, copy.deepcopy(bad))
                else:
                    field = copy.deepcopy(value)
                    inner = field
                    for i in spot[:-1]:
                        inner = inner[i]
                    inner[spot[-1]] = copy.deepcopy(bad)
                    setattr(t, name, field)
                yield f"{name}{list(spot)} = {bad!r:.40}", t


def test_junk_in_any_field_raises_or_returns_never_crashes():
    builds = errors = 0
    for s in _states_of_every_phase():
        n = s.game.num_players
        view_of = s.game.view_of
        for what, t in _fuzzed(s):
            for p in range(n):
                try:
                    view = view_of(t, p)
                except ERRORS as exc:
                    assert str(exc), what
                    errors += 1
                else:
                    assert type(view) is ScallywagsView, what
                    builds += 1
    assert errors > 1000 and builds


def test_bad_arguments_raise_a_clear_error():
    game = ScallywagsGame(3)
    s = game.new_game(np.random.default_rng(0))
    for player in (3, -1, 10**30):
        with pytest.raises(ValueError, match="player"):
            game.view_of(s, player)
    for player in (1.0, "0", None):
        with pytest.raises(TypeError):
            game.view_of(s, player)
    with pytest.raises(TypeError):
        game.view_of(s.python_view(0), 0)                  # not a state
    with pytest.raises(TypeError):
        game.view_of(s)


def test_the_constructor_checks_its_constants():
    game = ScallywagsGame(2)
    params = list(view_params(game))
    _cview.ViewBuilder(*params)
    Short = type("Short", (tuple,), {"_fields": ScallywagsView._fields[:-1]})
    for bad in ({0: tuple}, {0: Short}, {0: ScallywagsState}, {1: 3}, {2: 2.0},
                {2: 0}, {2: 17}, {3: 0}, {4: 0}, {5: 0}, {5: 65}, {7: -5}, {8: -1},
                {9: ("choose", 2)}, {10: "dance"}):
        args = list(params)
        for i, value in bad.items():
            args[i] = value
        with pytest.raises((TypeError, ValueError)):
            _cview.ViewBuilder(*args)
    blank = _cview.ViewBuilder.__new__(_cview.ViewBuilder)    # never initialised
    with pytest.raises(ValueError):
        blank.view(game.new_game(np.random.default_rng(0)), 0)


def test_no_references_leak():
    """Views built, and views refused, leave no objects behind."""
    states = _states_of_every_phase()
    bad = states[0].clone()
    bad.hands = [[0] * 9, [0] * 8 + [None]]
    views = [(s.game.view_of, s, p) for s in states + [bad]
             for p in range(s.game.num_players)]

    def run(times):
        for _ in range(times):
            for view_of, s, p in views:
                try:
                    view_of(s, p)
                except ERRORS:
                    pass

    run(200)
    before = sys.getallocatedblocks()
    run(2000)
    assert sys.getallocatedblocks() - before < 50
