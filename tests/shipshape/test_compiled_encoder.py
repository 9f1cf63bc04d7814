"""ShipShape's compiled encoder (``_engine.Encoder``, envs/shipshape/_engine.c: the compiled
engine's encoder fed any view) writes the Python encoder's vector bit for bit, reads the
view's fields by the names it declares, rejects a malformed view or output buffer with a
clear error, and is switched off by PLUNDER_PURE_PYTHON (the game then uses the Python
encoder and builds no compiled object). Random play of every player count and variant,
``encode_into`` and pickling: the shared suite (tests/core/test_compiled_equivalence.py).
"""

from __future__ import annotations

import dataclasses
import pickle

import numpy as np
import pytest

from plunder.envs.shipshape.engine import ShipShapeGame
from plunder.envs.shipshape.view import PublicTable, ShipShapeView
from tests.support.compiled import compiled_game, python_game, same_bytes, uses_compiled

engine_module = pytest.importorskip("plunder.envs.shipshape._engine")

COUNTS = range(ShipShapeGame.min_players, ShipShapeGame.max_players + 1)


def _pure_game(monkeypatch, n, opts):
    game = python_game(monkeypatch, ShipShapeGame, n, **opts)
    assert not uses_compiled(game)
    return game


def _compiled_game(monkeypatch, n, opts=None):
    game = compiled_game(monkeypatch, ShipShapeGame, n, **(opts or {}))
    assert uses_compiled(game)
    return game


def _random_step(state, rng):
    state.apply_joint({p: int(rng.choice(np.flatnonzero(state.legal_actions_mask(p))))
                       for p in state.current_players()})


def _a_view(game, seed=0, steps=7, want="place"):
    """A view along a random game, after ``steps`` decisions, of a seat deciding ``want``
    if there is one (the placing phase has every field in use)."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(np.random.default_rng(seed))
    for _ in range(steps):
        _random_step(state, rng)
    for p in range(game.num_seats):
        if state.decision(p) == want:
            return state.view(p)
    return state.view(0)


def test_field_names_are_the_views():
    assert engine_module.VIEW_FIELDS == tuple(f.name for f in dataclasses.fields(ShipShapeView))
    assert engine_module.TABLE_FIELDS == tuple(f.name for f in dataclasses.fields(PublicTable)
                                         if f.name != "derived")
    six = set(ShipShapeGame(6).layout.names())
    assert set(engine_module.LAYOUT_FIELDS) == six, "the C code writes every layout field"
    for n in COUNTS:
        names = set(ShipShapeGame(n).layout.names())
        assert names <= six and six - names <= {"other_stack", "other_stack_present"}


def test_pure_python_switch(monkeypatch):
    monkeypatch.setenv("PLUNDER_PURE_PYTHON", "1")
    game = ShipShapeGame(4)
    assert not uses_compiled(game) and "encode_into" not in vars(game)
    view = _a_view(game)
    obs = game.encode(view)
    assert obs.dtype == np.float32 and obs.shape == (game.layout.size,)
    assert "_obs_tables" in game.__dict__ and view.table.derived      # the Python encoder
    monkeypatch.setenv("PLUNDER_PURE_PYTHON", "0")
    assert uses_compiled(pickle.loads(pickle.dumps(game)))             # rebuilt on unpickle


def test_compiled_builds_no_python_cache(monkeypatch):
    game = _compiled_game(monkeypatch, 5)
    view = _a_view(game)
    game.encode(view)
    game.encode_into(view, np.empty(game.layout.size, np.float32))
    assert "_obs_tables" not in game.__dict__ and view.table.derived == {}


# -- the last table's cache ------------------------------------------------------------

def _fresh_copy(view):
    """``view`` with an equal table that is a new object (the encoder never saw it)."""
    return _with_table(view)


@pytest.mark.parametrize("n", list(COUNTS))
def test_cached_table_encodes_as_a_new_one(monkeypatch, n):
    """The encoder keeps what every seat shares of the last table; a seat's view of that
    same table object (the hit path) is what a new, equal table gives (the miss path) and
    what the Python encoder gives: seats in any order, states alternating, a view encoded
    twice in a row, older states coming back."""
    fast = _compiled_game(monkeypatch, n)
    pure = _pure_game(monkeypatch, n, {})
    rng = np.random.default_rng(77 + n)
    states = [fast.new_initial_state(np.random.default_rng(seed)) for seed in range(3)]
    hits = 0
    for _ in range(60):
        i = int(rng.integers(len(states)))
        state = states[i]
        if state.is_terminal():
            states[i] = state = fast.new_initial_state(np.random.default_rng(int(
                rng.integers(2**31))))
        seats = rng.permutation(fast.num_seats).tolist()
        seats += seats[:int(rng.integers(fast.num_seats))]      # some seats twice
        table = state.public_table()
        got = [fast.encode(state.view(p)) for p in seats]      # one table: hits
        hits += len(seats) - 1
        again = fast.encode(state.view(seats[-1]))             # the same view again
        assert same_bytes(again, got[-1])
        for p, obs in zip(seats, got):
            view = state.view(p)
            assert view.table is table
            assert same_bytes(obs, fast.encode(_fresh_copy(view))), f"{n}p seat {p}"
            assert same_bytes(obs, pure.encode(view)), f"{n}p seat {p}: Python"
        if rng.random() < 0.3:                 # another table's seat in between
            other = states[int(rng.integers(len(states)))]
            p = int(rng.integers(fast.num_seats))
            assert same_bytes(fast.encode(other.view(p)), pure.encode(other.view(p)))
        if not state.is_terminal():
            _random_step(state, rng)
    assert hits > 100


def test_cache_holds_the_last_table_only(monkeypatch):
    """The encoder holds a strong reference to the last table it read (so no other object
    can take its address) and lets it go for the next table and with the encoder."""
    import gc
    import weakref

    game = _compiled_game(monkeypatch, 4)
    first, second = _a_view(game, seed=1), _a_view(game, seed=2)
    want = game.encode(_fresh_copy(first))
    gc.collect()
    first_table = weakref.ref(first.table)
    assert same_bytes(game.encode(first), want)
    del first
    gc.collect()
    assert first_table() is not None              # the last table, kept by the encoder
    assert same_bytes(game.encode(ShipShapeView(*_view_fields(game, first_table()))), want)
    game.encode(second)
    gc.collect()
    assert first_table() is None                  # the next table replaced it
    second_table = weakref.ref(second.table)
    del second
    gc.collect()
    assert second_table() is not None
    del game
    gc.collect()
    assert second_table() is None                 # released with the encoder


def _view_fields(game, table):
    """(player, decision, table) of the seat placing a crate on ``table``."""
    seat = next(x[0] for grp in table.placing for x in grp)
    return seat, "place", table


def test_a_bad_view_of_the_cached_table_raises(placing):
    """The seat's own checks still run on a hit; a failed read caches nothing."""
    game, view = placing
    t = view.table
    out = np.empty(game.layout.size, np.float32)
    game.encode_into(view, out)
    want = out.copy()
    for bad in (ShipShapeView(game.num_seats, view.decision, t),
                ShipShapeView("0", view.decision, t), ShipShapeView(view.player, None, t)):
        with pytest.raises((TypeError, ValueError)):
            game.encode_into(bad, out)
    broken = _with_table(view, stacks=(None,))
    for _ in range(2):                            # raises every time, never cached
        with pytest.raises(TypeError):
            game.encode_into(broken, out)
    game.encode_into(view, out)
    assert same_bytes(out, want)


# -- malformed views and buffers: clear errors, never a crash ---------------------------

def _with_table(view, **fields):
    table = view.table
    values = {f.name: getattr(table, f.name) for f in dataclasses.fields(PublicTable)
              if f.name != "derived"}
    values.update(fields)
    return ShipShapeView(view.player, view.decision, PublicTable.make(**values))


@pytest.fixture
def placing(monkeypatch):
    """(compiled game, a view of a seat placing a crate)."""
    game = _compiled_game(monkeypatch, 4)
    view = _a_view(game, seed=3, steps=1)
    assert view.decision == "place"
    return game, view


def test_bad_views_raise(placing):
    game, view = placing
    t = view.table
    S = game.num_seats
    bad = [
        # wrong types
        (TypeError, ShipShapeView("0", view.decision, t)),
        (TypeError, ShipShapeView(view.player, None, t)),
        (TypeError, ShipShapeView(view.player, view.decision, None)),
        (TypeError, _with_table(view, voyage=1.5)),
        (TypeError, _with_table(view, hands=list(t.hands))),
        (TypeError, _with_table(view, coins=tuple(str(c) for c in t.coins))),
        (TypeError, _with_table(view, stacks=(None,))),
        (TypeError, _with_table(view, bids=t.bids + ((0, 0, 1, 0, "3"),))),
        # wrong lengths
        (TypeError, _with_table(view, hands=t.hands[:-1])),
        (TypeError, _with_table(view, visible=t.visible[:1] + ((0,) * 8,) + t.visible[2:])),
        (TypeError, _with_table(view, placing=(t.placing[0] + ((view.player, 1),),))),
        (TypeError, _with_table(view, stacks=(((1, 0, 0),),))),
        (TypeError, _with_table(view, bids=((0, 0, 1),))),
        (TypeError, _with_table(view, hold_history=((1,) * (S + 1),))),
        (ValueError, _with_table(view, hold_history=())),
        (ValueError, _with_table(view, stacks=(((1, 0),) * (game.stack_size + 1),))),
        # indices out of range
        (ValueError, ShipShapeView(S, view.decision, t)),
        (ValueError, ShipShapeView(-1, view.decision, t)),
        (ValueError, _with_table(view, hands=((11,),) + t.hands[1:])),
        (ValueError, _with_table(view, hands=((0,),) + t.hands[1:])),
        (ValueError, _with_table(view, visible=((11,) * 9,) + t.visible[1:])),
        (ValueError, _with_table(view, visible=((-1,) * 9,) + t.visible[1:])),
        (ValueError, _with_table(view, stacks=(((0, 0),),))),
        (ValueError, _with_table(view, stacks=(((len(game.components.crates) + 1, 0),),))),
        (ValueError, _with_table(view, stacks=(((1, 8),),))),
        (ValueError, _with_table(view, placing=(((view.player, 1, -1),),))),
        (ValueError, _with_table(view, placing=(((S, 1, 0),),))),
        (ValueError, _with_table(view, need=((S,),))),
        (ValueError, _with_table(view, voyage=-1)),
        (ValueError, _with_table(view, bids=((t.voyage, t.turn, 3, 0, 5),))),
        (ValueError, _with_table(view, bids=((t.voyage, t.turn, 1, S, 5),))),
    ]
    out = np.empty(game.layout.size, np.float32)
    for error, v in bad:
        with pytest.raises(error):
            game.encode(v)
        with pytest.raises(error):
            game.encode_into(v, out)


def test_a_bid_with_fewer_crates_than_bidders_is_refused(monkeypatch):
    """The bid outlook needs one crate per bidder (the rules always leave one): a table
    without them is an error in both encoders, not a shorter outlook."""
    for game in (_compiled_game(monkeypatch, 4), python_game(monkeypatch, ShipShapeGame, 4)):
        view = _a_view(game, steps=0, want="bid")
        assert view.decision == "bid" and len(view.table.need[0]) == 4
        short = _with_table(view, stacks=(view.table.stacks[0][:2],))
        with pytest.raises(ValueError, match="crates"):
            game.encode(short)


def test_non_views_raise(placing):
    game, view = placing
    out = np.empty(game.layout.size, np.float32)
    for v in (None, 3, (view.player, view.decision, view.table), view.table):
        with pytest.raises(TypeError):
            game.encode_into(v, out)
    with pytest.raises(TypeError):
        game.encode_into(view)


def test_bad_outputs_raise(placing):
    game, view = placing
    size = game.layout.size
    for out in (np.empty(size, np.float64), np.empty(size - 1, np.float32),
                np.empty(size + 1, np.float32), np.empty(2 * size, np.float32)[::2],
                np.empty(size, np.int32), bytearray(4 * size)):
        with pytest.raises((TypeError, ValueError)):
            game.encode_into(view, out)
    frozen = np.empty(size, np.float32)
    frozen.setflags(write=False)
    with pytest.raises((TypeError, ValueError, BufferError)):
        game.encode_into(view, frozen)
    with pytest.raises(TypeError):
        game.encode_into(view, [0.0] * size)


def test_fuzzed_tables_raise_or_encode(placing):
    """Any field, or an item deep inside one, replaced by junk: a TypeError, a ValueError
    or a vector, never a crash, and nothing written outside ``out``."""
    game, view = placing
    rng = np.random.default_rng(5)
    junk = [None, -1, 0, 3, 99, 2**70, -2**70, 1.0, True, "x", (), ((),), ((-1,),),
            ((1, 2, 3),), ((0,) * 9,) * 9, (((1, 0),),) * 3, (((0, 1, 0),),) * 3,
            ((0, 0, 1, 0, 1),) * 2, np.int64(2), [1, 2]]
    size = game.layout.size
    batch = np.full((3, size), 7.0, np.float32)
    names = [f.name for f in dataclasses.fields(PublicTable) if f.name != "derived"]

    def spoil(value):
        """``value`` with junk at a random place (itself, or an item of a tuple)."""
        if isinstance(value, tuple) and value and rng.random() < 0.7:
            i = int(rng.integers(len(value)))
            return value[:i] + (spoil(value[i]),) + value[i + 1:]
        return junk[int(rng.integers(len(junk)))]

    for _ in range(2000):
        fields = {name: spoil(getattr(view.table, name))
                  for name in rng.choice(names, size=int(rng.integers(1, 4)), replace=False)}
        v = _with_table(view, **fields)
        if rng.random() < 0.2:
            v = ShipShapeView(spoil(v.player), spoil(v.decision), v.table)
        try:
            game.encode_into(v, batch[1])
        except (TypeError, ValueError):
            pass
        assert (batch[0] == 7.0).all() and (batch[2] == 7.0).all()
