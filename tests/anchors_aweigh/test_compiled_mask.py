"""The compiled Anchors Aweigh! legal-action mask (``ViewBuilder.mask_into`` in
envs/anchors_aweigh/_cview.c) against the Python one (``python_legal_actions_mask``): the
same bytes for every seat, acting or not, over random games of every player count and
variant of tests/support/obs_reference.py, sampled states and states loaded from JSON; the
``_acting`` cache read and filled as current_players() does; the binding (PLUNDER_PURE_PYTHON,
pickling, the batch); junk in every field it reads and a wrong ``out`` are errors, never a
crash."""

from __future__ import annotations

import json

import numpy as np
import pytest

cview = pytest.importorskip("plunder.envs.anchors_aweigh._cview")

from plunder.envs.anchors_aweigh.engine import (  # noqa: E402
    NUM_ACTIONS, PHASES, AnchorsAweighGame, view_params,
)
from plunder.envs.core.batch import GameBatch, observe_into  # noqa: E402
from plunder.envs.core.compiled import PURE_PYTHON_VAR  # noqa: E402
from tests.anchors_aweigh.helpers import (  # noqa: E402
    fuzz_states, junk_items, play_steps, random_states, switched_game, variants,
)
from tests.support.compiled import (  # noqa: E402
    BAD_FIELD_VALUES, memory_growth, uses_compiled_mask,
)

ENV_ID = "anchors_aweigh_v0"
#: states compared per player count (shared by its variants), each for every seat
STATES_PER_COUNT = 1500
#: what the Python mask reads: its own fields, current_players()'s and their cache
MASK_FIELDS = ("phase", "ships", "stor", "hand", "pile_up", "pile_down", "supply",
               "parrots", "current", "encounter", "pending", "cargo_queue", "_acting")
ERRORS = (TypeError, ValueError, IndexError)


def _builder(game):
    """The compiled view builder of ``game`` (also in a PLUNDER_PURE_PYTHON=1 run)."""
    return cview.ViewBuilder(*view_params(game))


def _compare(builder, state, where):
    """Every seat's compiled mask (and two that are no seat) of a copy of ``state`` against
    the Python mask of another copy, and the ``_acting`` each leaves."""
    n = state.game.num_players
    c, py = state.clone(), state.clone()
    assert c.__dict__.get("_acting") is None
    for p in range(-1, n + 1):
        out = np.full(NUM_ACTIONS, 7, np.int8)
        builder.mask_into(c, p, out)
        want = py.python_legal_actions_mask(p)
        assert out.tobytes() == want.tobytes(), (
            f"{where} seat {p}: {np.flatnonzero(out).tolist()} vs "
            f"{np.flatnonzero(want).tolist()}")
    assert c._acting == py._acting == state.current_players()
    assert c.__dict__.get("_pub") is None           # the mask builds no public part


def _compare_random_play(n, count):
    phases = set()
    compared = 0
    offered = variants(n)
    for v, opts in enumerate(offered):
        game = AnchorsAweighGame(n, **opts)
        builder = _builder(game)
        rng = np.random.default_rng(2000 * n + v + count)
        for s, past in random_states(game, rng, count // len(offered)):
            phases.add(s.phase)
            where = f"{n}p {opts} turn {s.turns} phase {PHASES[s.phase]}"
            _compare(builder, s, where)
            compared += 1
            if past is not None:
                _compare(builder, past, f"{where} older state")
            if rng.random() < 0.05:                 # a state drawn from a player's view
                sampled = game.sample_state(s.python_view(int(rng.integers(n))), rng)
                _compare(builder, sampled, f"{where} sampled")
            if rng.random() < 0.05:                 # a state loaded from JSON
                loaded = game.state_from_dict(json.loads(s.to_json()))
                _compare(builder, loaded, f"{where} loaded")
    assert compared >= count - len(offered)
    assert phases == set(range(len(PHASES))), phases       # every phase, at every count


def test_the_fields_it_reads_are_those_of_the_python_mask():
    assert sorted(cview.MASK_FIELDS) == sorted(MASK_FIELDS)
    assert set(cview.MASK_FIELDS) <= set(cview.STATE_FIELDS)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_compiled_mask_is_the_python_mask(n):
    _compare_random_play(n, STATES_PER_COUNT)


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4])
def test_compiled_mask_is_the_python_mask_long(n):
    _compare_random_play(n, 20 * STATES_PER_COUNT)


def test_a_cached_acting_tuple_is_used_as_it_is():
    game = AnchorsAweighGame(3)
    builder = _builder(game)
    s = game.new_game(np.random.default_rng(3))
    out = np.empty(NUM_ACTIONS, np.int8)
    assert s.current_players() == (0, 1, 2)
    s._acting = (1,)                               # what the mask believes
    builder.mask_into(s, 0, out)
    assert not out.any()
    builder.mask_into(s, 1, out)
    assert out.tobytes() == s.python_legal_actions_mask(1).tobytes() and out.any()
    assert s._acting == (1,)
    s._acting = None                               # cleared: computed and kept, as Python
    builder.mask_into(s, 0, out)
    assert out.any() and s._acting == (0, 1, 2)


def test_players_and_outs_are_checked():
    game = AnchorsAweighGame(2)
    builder = _builder(game)
    s = game.new_game(np.random.default_rng(0))
    out = np.full(NUM_ACTIONS, 7, np.int8)
    for player in (2, -1, 10**30, -10**30):        # no seat: not acting, as in Python
        builder.mask_into(s, player, out)
        assert not out.any()
    for player in ("0", 0.0, None):
        with pytest.raises(TypeError):
            builder.mask_into(s, player, out)
    for state in (None, 3, object()):
        with pytest.raises(TypeError):
            builder.mask_into(state, 0, out)
    with pytest.raises(TypeError):
        builder.mask_into(s, 0)
    read_only = np.zeros(NUM_ACTIONS, np.int8)
    read_only.flags.writeable = False
    for bad in (np.zeros(NUM_ACTIONS - 1, np.int8), np.zeros(NUM_ACTIONS + 1, np.int8),
                np.zeros(NUM_ACTIONS, np.int16), np.zeros(NUM_ACTIONS, np.float32),
                np.zeros(2 * NUM_ACTIONS, np.int8)[::2], read_only, bytes(NUM_ACTIONS),
                [0] * NUM_ACTIONS, None):
        with pytest.raises((TypeError, ValueError, BufferError)):
            builder.mask_into(s, 0, bad)
    rows = np.zeros((3, NUM_ACTIONS), np.int8)     # a row of a batch array is fine
    builder.mask_into(s, 1, rows[1])
    assert rows[1].tobytes() == s.python_legal_actions_mask(1).tobytes()
    assert not rows[0].any() and not rows[2].any()
    buf = bytearray(NUM_ACTIONS)                   # any writable buffer of 193 bytes
    builder.mask_into(s, 1, buf)
    assert bytes(buf) == rows[1].tobytes()


def test_the_constructor_checks_the_mask_tables():
    params = list(view_params(AnchorsAweighGame(2)))
    cards = len(params[4])
    changes = [(14, params[14][:-1]), (15, params[15][:-1]), (16, -1),
               (15, ((10,),) + params[15][1:])]
    for k, value in changes:
        bad = list(params)
        bad[k] = value
        with pytest.raises((TypeError, ValueError)):
            cview.ViewBuilder(*bad)
    assert len(params[14]) == len(params[15]) == cards


# -- the binding ----------------------------------------------------------------------------

def _masks_of(game, state):
    """Every seat's mask through the batch's observe_into (game.mask_into)."""
    n = game.num_players
    obs = np.empty((n, game.layout.size), np.float32)
    masks = np.full((n, NUM_ACTIONS), 7, np.int8)
    observe_into([(game, state, p) for p in range(n)], obs, masks)
    return masks


def test_a_game_uses_the_compiled_mask_unless_switched_off(monkeypatch):
    game = switched_game(monkeypatch, False)
    assert uses_compiled_mask(game)
    assert game.mask_into.__self__ is game.view_of.__self__      # one builder for both
    s = play_steps(game, 1, 30)
    for p in range(2):
        want = s.clone().python_legal_actions_mask(p)
        assert s.legal_actions_mask(p).tobytes() == want.tobytes()
        assert s.legal_actions_mask(p).dtype == np.int8
    assert _masks_of(game, s).tobytes() == np.stack(
        [s.python_legal_actions_mask(p) for p in range(2)]).tobytes()
    py = switched_game(monkeypatch, True)
    assert not uses_compiled_mask(py) and "mask_into" not in py.__dict__
    s = play_steps(py, 1, 30)
    for p in range(2):
        assert s.legal_actions_mask(p).tobytes() == s.python_legal_actions_mask(p).tobytes()
    assert _masks_of(py, s).tobytes() == np.stack(
        [s.python_legal_actions_mask(p) for p in range(2)]).tobytes()


# a pickled game binds the mask again: tests/anchors_aweigh/test_compiled_view.py (with the
# view builder it belongs to)


def test_a_batch_in_pure_python_mode_steps_as_before(monkeypatch):
    monkeypatch.setenv(PURE_PYTHON_VAR, "1")
    pure = GameBatch(AnchorsAweighGame, 3, 4, seed=5)
    monkeypatch.delenv(PURE_PYTHON_VAR)
    fast = GameBatch(AnchorsAweighGame, 3, 4, seed=5)
    assert not uses_compiled_mask(pure.game) and uses_compiled_mask(fast.game)
    rng = np.random.default_rng(0)
    for _ in range(200):
        a, b = pure.decisions(), fast.decisions()
        for x, y in zip(a, b):
            assert x.tobytes() == y.tobytes()
        masks = a[3]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks], np.int64)
        pure.step(actions)
        fast.step(actions)


# -- junk in the fields -------------------------------------------------------------------

def _try(builder, s, raised, name, *errors):
    """Every seat's mask of ``s``: a mask or an error (``out`` then left as it was)."""
    for p in range(s.game.num_players):
        out = np.full(NUM_ACTIONS, 7, np.int8)
        try:
            builder.mask_into(s, p, out)
        except (*ERRORS, *errors):
            assert (out == 7).all()
            raised.add(name)
        else:
            assert set(np.unique(out)) <= {0, 1}


def test_junk_in_any_field_is_an_error_or_a_mask():
    raised = set()
    for state in fuzz_states():
        builder = _builder(state.game)
        state.current_players()                    # _acting set, so junk in it is read
        for name in cview.MASK_FIELDS:
            s = state.clone()
            s.__dict__.pop(name, None)             # a missing field: AttributeError
            _try(builder, s, set(), name, AttributeError)
            for bad in BAD_FIELD_VALUES:
                for cached in (False, True):      # who acts computed, or read as cached
                    s = state.clone()
                    if cached:
                        s._acting = state._acting
                    setattr(s, name, bad)
                    _try(builder, s, raised, name)
            for s in junk_items(state, name, BAD_FIELD_VALUES):
                _try(builder, s, raised, name)
    assert raised == set(MASK_FIELDS), set(MASK_FIELDS) - raised


def test_writing_masks_does_not_leak():
    game = AnchorsAweighGame(4, rough_seas=True)
    builder = _builder(game)
    states = [play_steps(game, seed, 25 * seed) for seed in range(1, 5)]
    out = np.empty(NUM_ACTIONS, np.int8)

    def write(count):
        for k in range(count):
            s = states[k % 4]
            s._acting = None
            builder.mask_into(s, k % 4, out)

    grown = memory_growth(write, 2000, 20000)
    assert grown < 20000, grown
