"""The compiled Anchors Aweigh! view builder (envs/anchors_aweigh/_cview.c) against the Python
view (AnchorsAweighState.python_view and the public part ``_public``): strictly the same
view object (same types all the way down) over random games of every player count and
variant of tests/support/obs_reference.py, sampled states and states loaded from JSON; the public
part cached in ``_pub`` as Python caches it; the binding (PLUNDER_PURE_PYTHON, pickling);
junk in every field it reads is an error or a view, never a crash."""

from __future__ import annotations

import json

import numpy as np
import pytest

cview = pytest.importorskip("plunder.envs.anchors_aweigh._cview")

from plunder.envs.anchors_aweigh.engine import (  # noqa: E402
    PHASES, AnchorsAweighGame, AnchorsAweighState, view_params,
)
from plunder.envs.anchors_aweigh.view import (  # noqa: E402
    AnchorsAweighView, BelowDeck, PublicView,
)
from tests.support.compiled import (  # noqa: E402
    BAD_FIELD_VALUES, memory_growth, same_view, uses_compiled_view,
    view_difference,
)
from tests.anchors_aweigh.helpers import (  # noqa: E402
    fuzz_states, junk_items, play_steps, random_states, switched_game, variants,
)

ENV_ID = "anchors_aweigh_v0"
#: states compared per player count (shared by its variants), each seen by every seat
STATES_PER_COUNT = 1500
#: the state caches the view reads and fills
CACHES = ("_pub", "_acting")


def _builder(game):
    """The compiled view builder of ``game`` (also in a PLUNDER_PURE_PYTHON=1 run)."""
    return cview.ViewBuilder(*view_params(game))


def _compare(builder, state, seats, where):
    """Every seat's compiled view of a copy of ``state`` (its public part built in C on the
    first, reused after) against the Python view of another copy."""
    c, py = state.clone(), state.clone()
    assert c.__dict__.get("_pub") is None
    for p in seats:
        got, want = builder.view(c, p), py.python_view(p)
        assert same_view(got, want), f"{where} seat {p}: {view_difference(got, want)}"
        assert c._pub is got.pub                   # kept where _public() finds it
    assert c._public() is c._pub
    assert same_view(c._pub, py._public()), view_difference(c._pub, py._public())
    assert same_view(c._acting, py._acting) and c._acting == state.current_players()


def test_field_names_match_the_view_types():
    assert cview.VIEW_FIELDS == AnchorsAweighView._fields
    assert cview.PUBLIC_FIELDS == PublicView._fields
    assert cview.BELOW_FIELDS == BelowDeck._fields
    # the state fields it reads: those of to_dict() (the Python view reads them all; of
    # pile_down only its length) and the two caches
    assert sorted(cview.STATE_FIELDS) == sorted(AnchorsAweighState.FIELDS + CACHES)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_compiled_view_is_the_python_view(n):
    offered = variants(n)
    phases = set()
    compared = 0
    for v, opts in enumerate(offered):
        game = AnchorsAweighGame(n, **opts)
        builder = _builder(game)
        rng = np.random.default_rng(1000 * n + v)
        for s, past in random_states(game, rng, STATES_PER_COUNT // len(offered)):
            phases.add(s.phase)
            where = f"{n}p {opts} turn {s.turns} phase {PHASES[s.phase]}"
            _compare(builder, s, rng.permutation(n).tolist(), where)
            compared += n
            if past is not None:
                _compare(builder, past, [int(rng.integers(n))], f"{where} older state")
                compared += 1
            if rng.random() < 0.05:                 # a state drawn from a player's view
                sampled = game.sample_state(s.python_view(int(rng.integers(n))), rng)
                _compare(builder, sampled, range(n), f"{where} sampled")
                compared += n
            if rng.random() < 0.05:                 # a state loaded from JSON
                loaded = game.state_from_dict(json.loads(s.to_json()))
                _compare(builder, loaded, range(n), f"{where} loaded")
                compared += n
    assert compared >= STATES_PER_COUNT * n
    assert phases == set(range(len(PHASES))), phases       # every phase, at every count


def test_a_cached_public_part_is_reused_as_it_is():
    game = AnchorsAweighGame(3)
    builder = _builder(game)
    s = game.new_game(np.random.default_rng(3))
    pub = s._public()                              # built by Python
    view = builder.view(s, 1)
    assert view.pub is pub and same_view(view, s.python_view(1))
    s.touch()                                      # cleared: built again, in C
    view = builder.view(s, 2)
    assert view.pub is not pub and s._pub is view.pub and s._public() is view.pub
    assert same_view(view.pub, pub)
    del s.__dict__["_pub"]                         # absent (a state not yet stepped)
    assert builder.view(s, 0).pub is s._pub


def test_a_view_of_a_missing_seat_or_a_non_state_is_a_clear_error():
    game = AnchorsAweighGame(2)
    builder = _builder(game)
    s = game.new_game(np.random.default_rng(0))
    for player in (2, -1, 10**30):
        with pytest.raises(IndexError):
            builder.view(s, player)
    for player in ("0", 0.0, None):
        with pytest.raises(TypeError):
            builder.view(s, player)
    for state in (None, 3, object()):
        with pytest.raises(TypeError):
            builder.view(state, 0)
    with pytest.raises(TypeError):
        builder.view(s)
    # a builder of another player count refuses this game's states
    with pytest.raises(ValueError):
        _builder(AnchorsAweighGame(3)).view(s, 0)


def test_the_constructor_checks_what_it_is_given():
    params = list(view_params(AnchorsAweighGame(2)))
    changes = {0: params[0][:-1], 2: params[2][:-1], 3: (25,) * 84, 6: (False,),
               8: PublicView, 9: tuple, 10: AnchorsAweighView, 11: ()}
    for k, value in changes.items():
        bad = list(params)
        bad[k] = value
        with pytest.raises((TypeError, ValueError)):
            cview.ViewBuilder(*bad)


# -- the binding ----------------------------------------------------------------------------

def test_a_game_uses_the_compiled_view_unless_switched_off(monkeypatch):
    game = switched_game(monkeypatch, False)
    assert uses_compiled_view(game)
    s = play_steps(game, 1, 30)
    view = s.view(0)
    assert s._pub is view.pub
    assert same_view(view, s.clone().python_view(0))
    py = switched_game(monkeypatch, True)
    assert not uses_compiled_view(py) and "view_of" not in py.__dict__
    s = play_steps(py, 1, 30)
    assert same_view(s.view(1), s.python_view(1))


# -- junk in the fields -------------------------------------------------------------------

def _try(builder, s, *errors):
    for p in range(s.game.num_players):
        try:
            builder.view(s, p)
        except (TypeError, ValueError, IndexError, KeyError, *errors):
            pass


def test_junk_in_any_field_is_an_error_or_a_view():
    for state in fuzz_states():
        builder = _builder(state.game)
        for name in cview.STATE_FIELDS:
            s = state.clone()
            del s.__dict__[name]                   # a missing field: AttributeError
            _try(builder, s, AttributeError)
            for bad in BAD_FIELD_VALUES:
                s = state.clone()
                setattr(s, name, bad)
                _try(builder, s)
            for s in junk_items(state, name, BAD_FIELD_VALUES):
                _try(builder, s)


def test_building_views_does_not_leak():
    game = AnchorsAweighGame(4)
    builder = _builder(game)
    states = [play_steps(game, seed, 25 * seed) for seed in range(1, 5)]

    def build(count):
        for k in range(count):
            s = states[k % 4]
            s._pub = s._acting = None
            builder.view(s, k % 4)

    grown = memory_growth(build, 2000, 20000)
    assert grown < 20000, grown
