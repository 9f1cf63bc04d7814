"""The compiled All Hands On Deck (battles) view builder (envs/all_hands_battle/_cview.c)
returns what ``AllHandsBattleState.python_view`` returns, strictly (same types all the way
down), reads the same state fields, and raises a clear error on a malformed state.

``python_view`` is the reference. Uniform random play of every player count and variant,
the switch and pickling: the shared suite (tests/core/test_compiled_equivalence.py); here,
play biased to launch ships and let Spies look (rare in uniform play; with sampled and
reloaded states), finished games, the fields it reads and junk in each.
"""

from __future__ import annotations

import copy
import os
import sys
import tracemalloc

import numpy as np
import pytest

pytest.importorskip("plunder.envs.all_hands_battle._cview")

from plunder.envs.all_hands_battle import _cview                           # noqa: E402
from plunder.envs.all_hands_battle.engine import (                         # noqa: E402
    DECISIONS, AllHandsBattleGame, AllHandsBattleState, view_params,
)
from plunder.envs.all_hands_battle.view import AllHandsBattleView, ShipView  # noqa: E402
from tests.support.compiled import (                                      # noqa: E402
    BAD_FIELD_VALUES, same_view, uses_compiled_view, view_difference,
)
from tests.support.obs_reference import VARIANTS                                   # noqa: E402

ENV_ID = "all_hands_battle_v0"
COUNTS = range(AllHandsBattleGame.min_players, AllHandsBattleGame.max_players + 1)
STATES = 1200            # states per player count and variant (every seat's view of each)
ERRORS = (TypeError, ValueError, IndexError, KeyError)


pytestmark = pytest.mark.usefixtures("compiled_on")   # also under PLUNDER_PURE_PYTHON=1


def _builder(game):
    return _cview.ViewBuilder(*view_params(game))


def _check(builder, state, player, where=""):
    """The compiled view of ``state`` is strictly the Python one."""
    a, b = builder.view(state, player), state.python_view(player)
    assert same_view(a, b), f"{where} player {player}: {view_difference(a, b)}"
    return a


def _step(state, rng):
    """A random legal move, biased to launch ships and to let Spies look, which random
    play rarely does (so battles and Spy looks come often)."""
    A = state.game.actions
    joint = {}
    for p in state.current_players():
        legal = np.flatnonzero(state.legal_actions_mask(p))
        spy = legal[(legal >= A.spy) & (legal < A.pass_battle)]
        launch = legal[(legal >= A.master) & (legal < A.crew)]
        if len(spy) and rng.random() < 0.5:
            legal = spy
        elif len(launch) and rng.random() < 0.8:
            legal = launch
        joint[p] = int(rng.choice(legal))
    state.apply_joint(joint)


class _Recorder:
    """A state stand-in that records the attributes read from it."""

    def __init__(self, state):
        object.__setattr__(self, "_state", state)
        object.__setattr__(self, "read", set())

    def __getattr__(self, name):
        self.read.add(name)
        return getattr(self._state, name)


def test_field_names_match_the_views():
    assert _cview.VIEW_FIELDS == AllHandsBattleView._fields
    assert _cview.SHIP_FIELDS == ShipView._fields
    assert set(_cview.STATE_FIELDS) <= set(AllHandsBattleState.FIELDS)
    # the C code reads them from the instance dict: no class attribute (a property) of the
    # state may have these names
    assert not [f for f in _cview.STATE_FIELDS if hasattr(AllHandsBattleState, f)]


def test_it_reads_the_fields_the_python_view_reads():
    """Exactly the state attributes python_view reads (it also reads ``game``, for the
    player count the builder is given)."""
    game = AllHandsBattleGame(3)
    rng = np.random.default_rng(3)
    s = game.new_game(rng)
    for _ in range(120):
        _step(s, rng)
    py, c = _Recorder(s), _Recorder(s)
    for p in range(3):
        a = AllHandsBattleState.python_view(py, p)
        assert same_view(_builder(game).view(c, p), a)
    assert py.read - {"game"} == c.read == set(_cview.STATE_FIELDS)


@pytest.mark.parametrize("n", COUNTS)
@pytest.mark.parametrize("opts", VARIANTS[ENV_ID], ids=str)
def test_views_in_play_biased_to_battles_and_spy_looks_are_identical(n, opts):
    game = AllHandsBattleGame(n, **opts)
    assert uses_compiled_view(game)
    builder = _builder(game)
    rng = np.random.default_rng(3000 + n)
    seen, states, sampled, loaded, looks, spied_crews = set(), 0, 0, 0, 0, 0
    while states < STATES:
        s = game.new_game(rng)
        while True:
            states += 1
            seen.add((s.phase, s.decision))
            for p in range(n):
                _check(builder, s, p, f"state {states}")
                assert same_view(s.view(p), s.python_view(p))    # through the game
            if s.decision == "aim":                  # a Spy look (rare in random play)
                t = s.clone()
                A, p = game.actions, s.actor
                legal = np.flatnonzero(t.legal_actions_mask(p))
                spy = legal[(legal >= A.spy) & (legal < A.pass_battle)]
                if len(spy):
                    t.apply_action(int(rng.choice(spy)))
                    looks += 1
                    for q in range(n):
                        _check(builder, t, q, f"a Spy look after state {states}")
            ships = [(q, j) for q in range(n) for j in range(len(s.ships[q]))]
            if s.phase == "battle" and ships and rng.random() < 0.3:
                t = s.clone()                        # more looks: each seat at a ship
                for p in range(n):
                    q, j = ships[int(rng.integers(len(ships)))]
                    if q != p:
                        t.spied.append([p, q, j])
                looks += bool(t.spied)
                for q in range(n):
                    v = _check(builder, t, q, f"with looks added to state {states}")
                    spied_crews += sum(sv.spied and sv.crew is not None and q != r
                                       for r, fleet in enumerate(v.ships) for sv in fleet)
            if rng.random() < 0.03:                  # a state sampled from a seat's view
                p = int(rng.integers(n))
                t = game.sample_state(s.view(p), rng)
                sampled += 1
                for q in range(n):
                    _check(builder, t, q, f"sampled from state {states}")
                assert same_view(t.view(p), s.view(p))
            if rng.random() < 0.02:                  # a state reloaded from JSON
                t = game.state_from_json(s.to_json())
                loaded += 1
                for q in range(n):
                    _check(builder, t, q, f"reloaded state {states}")
            if s.is_terminal() or states >= STATES:
                break
            _step(s, rng)
    assert {ph for ph, _ in seen} >= {"recruit", "battle"}
    assert {d for _, d in seen} >= set(DECISIONS) - {"over"}
    assert sampled > 5 and loaded > 3 and looks > 10 and spied_crews > 10


@pytest.mark.parametrize("n", COUNTS)
def test_finished_games_are_identical(n):
    """The views of finished games (phase and decision "over"), with a short target."""
    game = AllHandsBattleGame(n, target_score=60, prize_crew=n % 2 == 1)
    builder = _builder(game)
    rng = np.random.default_rng(n)
    for _ in range(2):
        s = game.new_game(rng)
        while not s.is_terminal():
            _step(s, rng)
        for p in range(n):
            assert s.view(p).phase == "over"
            _check(builder, s, p, "finished")


def test_the_seat_may_be_any_int_like():
    game = AllHandsBattleGame(3)
    s = game.new_game(np.random.default_rng(1))
    for p in (np.int64(1), True, np.int32(2)):
        a, b = s.view(p), s.python_view(p)
        assert same_view(a, b) and type(a.player) is type(p), view_difference(a, b)
    for bad in (3, 10**30, 1.0, None, "0", (0,)):
        with pytest.raises((TypeError, ValueError, IndexError)):
            s.view(bad)
    with pytest.raises(IndexError):
        s.view(-1)


def test_bad_constants_raise_a_clear_error():
    game = AllHandsBattleGame(2)
    params = view_params(game)
    Fake = __import__("collections").namedtuple("Fake", ShipView._fields[::-1])
    for i, bad in ((0, 0), (0, "2"), (0, 1.0), (1, ShipView), (1, tuple), (1, dict),
                   (2, AllHandsBattleView), (2, Fake), (2, None)):
        with pytest.raises((TypeError, ValueError, AttributeError)):
            _cview.ViewBuilder(*params[:i], bad, *params[i + 1:])
    with pytest.raises(TypeError):
        _cview.ViewBuilder(*params[:2])
    with pytest.raises(TypeError):
        _builder(game).view(game.new_game(np.random.default_rng(0)))


def _fuzz_states():
    """Real states with something in every field the view reads: ships launched, claims
    and reserved cards while recruiting, Spy looks and revealed crews in battle."""
    out = []
    for n, seed in ((3, 0), (4, 1), (2, 2)):
        game = AllHandsBattleGame(n, prize_crew=n == 4)
        rng = np.random.default_rng(seed)
        s = game.new_game(rng)
        wanted = [lambda t: t.launch_crew and any(t.known_with),
                  lambda t: t.decision == "claim" and any(t.ships),
                  lambda t: t.spied and any(sh[4] for f in t.ships for sh in f)]
        for steps in range(20000):
            if not wanted:
                break
            if wanted[0](s):
                out.append(s.clone())
                wanted.pop(0)
            _step(s, rng)
            if s.is_terminal():
                s = game.new_game(rng)
    return out


def _corruptions(state):
    """(description, state copy with one field or item replaced by junk) for every field
    the view reads, its items, and the items of ships and Spy looks."""
    def put(path, bad):
        t = state.clone()
        obj = t
        for key in path[:-1]:
            obj = getattr(obj, key) if isinstance(key, str) else obj[key]
        last = path[-1]
        if isinstance(last, str):
            setattr(obj, last, copy.deepcopy(bad))
        else:
            obj[last] = copy.deepcopy(bad)
        return t

    paths = []
    for name in _cview.STATE_FIELDS:
        paths.append((name,))
        value = getattr(state, name)
        if isinstance(value, list) and value:
            paths += [(name, 0), (name, len(value) - 1)]
    for q, fleet in enumerate(state.ships):
        for j, ship in enumerate(fleet):
            paths += [("ships", q, j)] + [("ships", q, j, k) for k in range(5)]
    for i in range(len(state.spied)):
        paths += [("spied", i, k) for k in range(3)]
    for path in paths:
        for bad in BAD_FIELD_VALUES:
            yield f"{path} = {bad!r:.40}", put(path, bad)


def test_a_malformed_state_raises_or_returns_never_crashes():
    states = _fuzz_states()
    assert len(states) == 9
    raised = returned = 0
    for state in states:
        builder = _builder(state.game)
        for what, bad in _corruptions(state):
            for p in range(state.game.num_players):
                try:
                    builder.view(bad, p)
                    returned += 1
                except ERRORS:
                    raised += 1
                except Exception as e:                               # pragma: no cover
                    pytest.fail(f"{what}: {type(e).__name__}: {e}")
        for p in range(state.game.num_players):                      # still fine after
            _check(builder, state, p, "after the fuzz")
    assert raised > 1000 and returned > 1000


def test_errors_name_the_field():
    game = AllHandsBattleGame(3)
    rng = np.random.default_rng(4)
    s = game.new_game(rng)
    while not (s.spied and any(s.ships)):
        _step(s, rng)
        if s.is_terminal():
            s = game.new_game(rng)
    q = next(q for q, f in enumerate(s.ships) if f)
    cases = [("totals", 5, "totals"), ("hands", None, "hands"), ("deck", 3, "deck"),
             ("known_with", [[0], 5], "known_with[1]"), ("ships", [[]] * 2 + [5], "ships[2]"),
             ("spied", [[0, 1]], "spied[0]"), ("spied", [[1.5, 0, 0]], "spied"),
             ("launch_crew", None, "launch_crew"), ("hands", [[1], 2, [3]], "hands[1]")]
    for field, bad, name in cases:
        t = s.clone()
        setattr(t, field, bad)
        with pytest.raises(ERRORS, match=name.replace("[", r"\[").replace("]", r"\]")):
            t.view(0)
    t = s.clone()
    t.ships[q][0] = t.ships[q][0][:4]
    with pytest.raises(ValueError, match=rf"ships\[{q}\]\[0\]: expected 5 items"):
        t.view(0)


@pytest.mark.skipif(os.environ.get("PLUNDER_SKIP_SLOW") == "1", reason="slow")
def test_building_views_does_not_leak():
    game = AllHandsBattleGame(4)
    rng = np.random.default_rng(8)
    s = game.new_game(rng)
    states = []
    for _ in range(400):
        states.append(s.clone())
        _step(s, rng)
        if s.is_terminal():
            s = game.new_game(rng)
    view = _builder(game).view
    counts = [sys.getrefcount(x) for x in (AllHandsBattleView, ShipView, states[-1].hands[0],
                                           states[-1].spied, states[-1].phase)]

    def build():
        for t in states:
            for p in range(4):
                view(t, p)

    tracemalloc.start()
    try:
        build()                               # fills the free lists while traced
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(5):
            build()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 10_000, f"{grown} bytes kept after 8,000 views"
    assert counts == [sys.getrefcount(x) for x in (
        AllHandsBattleView, ShipView, states[-1].hands[0], states[-1].spied, states[-1].phase)]
