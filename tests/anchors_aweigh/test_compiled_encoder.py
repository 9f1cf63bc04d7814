"""The compiled Anchors Aweigh! encoder (envs/anchors_aweigh/_cencode.c) against the Python
one (observation.encode): the same float32 vector, bit for bit, on views edited beyond
what random play reaches and through the public-part cache; clear errors on a malformed
view or output buffer. Random play of every player count and variant, encode_into, the
PLUNDER_PURE_PYTHON switch and pickling: the shared suite
(tests/core/test_compiled_equivalence.py)."""

from __future__ import annotations

import numpy as np
import pytest

cencode = pytest.importorskip("plunder.envs.anchors_aweigh._cencode")
if not hasattr(cencode, "Encoder"):          # the empty skeleton module
    pytest.skip("the compiled encoder is not built", allow_module_level=True)

from plunder.envs.anchors_aweigh.engine import PHASES, AnchorsAweighGame  # noqa: E402
from plunder.envs.anchors_aweigh.view import (  # noqa: E402
    AnchorsAweighView, BelowDeck, PublicView,
)
from tests.support.compiled import compiled_game, python_game  # noqa: E402
from tests.anchors_aweigh.helpers import random_states, variants  # noqa: E402

ENV_ID = "anchors_aweigh_v0"


def _python_game(monkeypatch, n, **opts):
    """A game that encodes with the Python encoder."""
    game = python_game(monkeypatch, AnchorsAweighGame, n, **opts)
    assert game._cencoder is None
    return game


def _compiled_game(monkeypatch, n, **opts):
    game = compiled_game(monkeypatch, AnchorsAweighGame, n, **opts)
    assert game._cencoder is not None
    return game


def _differs(game, a, b) -> str:
    """The layout fields where two vectors differ (for the failure message)."""
    bad = np.flatnonzero(a.view(np.uint32) != b.view(np.uint32))
    names = sorted({name for name in game.layout.names()
                    for i in bad if i in range(*game.layout.slice(name).indices(len(a)))})
    return f"fields {names}, positions {bad[:10].tolist()}"


def _assert_same(game, a, b, where):
    assert a.dtype == b.dtype == np.float32 and a.shape == b.shape, where
    assert a.tobytes() == b.tobytes(), f"{where}: {_differs(game, a, b)}"


def test_field_names_match_the_view_types():
    assert cencode.VIEW_FIELDS == AnchorsAweighView._fields
    assert cencode.PUBLIC_FIELDS == PublicView._fields
    assert cencode.BELOW_FIELDS == BelowDeck._fields
    assert set(cencode.LAYOUT_FIELDS) == set(AnchorsAweighGame(2).layout.names())


def _edited(view, rng):
    """``view`` with its counts redrawn at random within what the rules allow and beyond
    what random play reaches (long queues, many returns, big piles and purses)."""
    n = view.pub.num_players
    draw = lambda hi, k: tuple(int(x) for x in rng.integers(0, hi + 1, k))  # noqa: E731
    below = tuple(b._replace(looks=draw(2, 20), unknown=int(rng.integers(0, 4)),
                             cargo=draw(3, 4)) for b in view.pub.below)
    pub = view.pub._replace(
        queue=draw(3, int(rng.integers(0, 14))), coins=draw(150, n), chests=draw(20, n),
        parrots=draw(3, n), returns=draw(40, n), pile_up=draw(12, 20),
        pile_down=int(rng.integers(0, 100)), supply=draw(16, 4), backs_left=draw(13, 9),
        chest_supply=int(rng.integers(0, 19)), parrot_supply=int(rng.integers(0, 4)),
        cargo_queue=tuple((int(rng.integers(n)), int(rng.integers(5)))
                          for _ in range(int(rng.integers(0, 9)))),
        below=below)
    return view._replace(pub=pub)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_compiled_matches_python_on_edited_views(n, monkeypatch):
    py = _python_game(monkeypatch, n)
    c = _compiled_game(monkeypatch, n)
    rng = np.random.default_rng(77 + n)
    for s, _ in random_states(c, rng, 300):
        for p in range(n):
            view = _edited(s.view(p), rng)
            _assert_same(c, c.encode(view), py.encode(view), f"{n}p edited view {view}")


def _view(game):
    s = game.new_game(np.random.default_rng(2))
    for _ in range(40):
        s.apply_joint({p: int(np.flatnonzero(s.legal_actions_mask(p))[-1])
                       for p in s.current_players()})
    return s.view(0)


@pytest.mark.parametrize("change", [
    lambda v: v._replace(player="0"),
    lambda v: v._replace(player=7),
    lambda v: v._replace(own_ship=v.own_ship[:-1]),
    lambda v: v._replace(own_ship=(99,) + v.own_ship[1:]),
    lambda v: v._replace(own_ship=[0] * 14),
    lambda v: v._replace(own_storage=None),
    lambda v: v._replace(own_hand=1.5),
    lambda v: v._replace(own_secret=(False,) * 3),
    lambda v: v._replace(pub=None),
    lambda v: v._replace(pub=tuple(v.pub)[:-1]),
    lambda v: v._replace(pub=v.pub._replace(num_players=5)),
    lambda v: v._replace(pub=v.pub._replace(phase=8)),
    lambda v: v._replace(pub=v.pub._replace(round="1")),
    lambda v: v._replace(pub=v.pub._replace(acting=[0])),
    lambda v: v._replace(pub=v.pub._replace(acting=(9,))),
    lambda v: v._replace(pub=v.pub._replace(captain=4)),
    lambda v: v._replace(pub=v.pub._replace(above=v.pub.above[:1])),
    lambda v: v._replace(pub=v.pub._replace(above=((30,) * 8,) * 2)),
    lambda v: v._replace(pub=v.pub._replace(above_storage=(((5,),) * 8,) * 2)),
    lambda v: v._replace(pub=v.pub._replace(below=(None, None))),
    lambda v: v._replace(pub=v.pub._replace(below=(v.pub.below[0][:2],) * 2)),
    lambda v: v._replace(pub=v.pub._replace(
        below=(v.pub.below[0]._replace(unknown=40),) * 2)),
    lambda v: v._replace(pub=v.pub._replace(hands=(0, 27))),
    lambda v: v._replace(pub=v.pub._replace(coins=(1.0, 2.0))),
    lambda v: v._replace(pub=v.pub._replace(pile_up=(0,) * 19)),
    lambda v: v._replace(pub=v.pub._replace(supply=(1, 2, 3))),
    lambda v: v._replace(pub=v.pub._replace(fronts=tuple(range(14)))),
    lambda v: v._replace(pub=v.pub._replace(fronts=(52,))),
    lambda v: v._replace(pub=v.pub._replace(fronts=[1, 2])),
    lambda v: v._replace(pub=v.pub._replace(backs_left=(1,) * 8)),
    lambda v: v._replace(pub=v.pub._replace(queue=(4,))),
    lambda v: v._replace(pub=v.pub._replace(current=52)),
    lambda v: v._replace(pub=v.pub._replace(current_back=9)),
    lambda v: v._replace(pub=v.pub._replace(used=(60,))),
    lambda v: v._replace(pub=v.pub._replace(used=(-1,))),
    lambda v: v._replace(pub=v.pub._replace(encounter=(1,))),
    lambda v: v._replace(pub=v.pub._replace(outcome=(0, 6))),
    lambda v: v._replace(pub=v.pub._replace(cargo_queue=((0,),))),
    lambda v: v._replace(pub=v.pub._replace(cargo_queue=((0, 5),))),
    lambda v: v._replace(pub=v.pub._replace(unit_colour=4)),
    lambda v: v._replace(pub=v.pub._replace(full=(True,))),
    lambda v: v._replace(pub=v.pub._replace(returns=(0, None))),
], ids=lambda f: "")
def test_a_malformed_view_is_a_clear_error(change, monkeypatch):
    game = _compiled_game(monkeypatch, 2)
    view = _view(game)
    game.encode(view)                            # the unchanged view encodes
    with pytest.raises((TypeError, ValueError)):
        game.encode(change(view))


def test_a_wrong_view_or_output_is_a_clear_error(monkeypatch):
    game = _compiled_game(monkeypatch, 2)
    view = _view(game)
    size = game.layout.size
    for bad in (None, 3, list(view), tuple(view)[:-1]):
        with pytest.raises(TypeError):
            game.encode(bad)
    for out in (np.zeros(size, np.float64), np.zeros(size - 1, np.float32),
                np.zeros(size + 1, np.float32), np.zeros((size, 2), np.float32)[:, 0],
                b"\0" * (4 * size)):
        with pytest.raises((TypeError, ValueError, BufferError)):
            game.encode_into(view, out)
    with pytest.raises(TypeError):
        game.encode_into(view)
    # an encoder of another player count refuses this game's views
    with pytest.raises(ValueError):
        _compiled_game(monkeypatch, 3).encode(view)


# -- the public-part cache ------------------------------------------------------------------
# The seats deciding together get views sharing ONE public part object; the encoder keeps
# the last public pass and reuses it for the same object (_cencode.c, "The cache"). A
# "fresh" pub (an equal copy, a new object) is always a miss: the full encode.

def _fresh(view):
    """``view`` with an equal copy of its public part (the encoder cannot reuse a pass)."""
    return view._replace(pub=PublicView(*view.pub))


def _full_encode(game, view):
    """The full encode of ``view``: both passes, no cached public part."""
    return game.encode(_fresh(view))


def _loading_state(game, rng, deciders):
    """A state whose loading phase asks at least ``deciders`` seats at once."""
    s = game.new_game(rng)
    while not (s.phase == PHASES.index("loading") and len(s.current_players()) >= deciders):
        if s.is_terminal():
            s = game.new_game(rng)
        s.apply_joint({p: int(rng.choice(np.flatnonzero(s.legal_actions_mask(p))))
                       for p in s.current_players()})
    return s


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_cache_gives_the_full_encode_for_every_seat_and_order(n, monkeypatch):
    """Shared-public states of every count and variant: each seat in shuffled orders,
    repeated, alternating between two states, and one pub with the private parts of
    other states' views: the same bytes as a full encode (and as the Python encoder)."""
    hits = 0
    for v, opts in enumerate(variants(n)):
        c = _compiled_game(monkeypatch, n, **opts)        # encodes with its cache
        ref = _compiled_game(monkeypatch, n, **opts)      # full encodes only
        py = _python_game(monkeypatch, n, **opts)
        enc = c._cencoder
        rng = np.random.default_rng(500 + 10 * n + v)
        prev, others = None, []
        for i, (s, past) in enumerate(random_states(c, rng, 300)):
            views = [s.view(p) for p in range(n)]
            assert all(w.pub is views[0].pub for w in views)      # one shared object
            want = [_full_encode(ref, w) for w in views]
            before = enc.cache_hits
            order = rng.permutation(n).tolist() * 2 + rng.permutation(n).tolist()
            for p in order:
                _assert_same(c, c.encode(views[p]), want[p], f"{n}p {opts} seat {p}")
            assert enc.cache_hits - before == len(order) - 1
            if i % 10 == 0:
                for p in range(n):
                    _assert_same(c, want[p], py.encode(views[p]), f"{n}p {opts} python")
            # alternate between this state and the previous one, seats interleaved
            if prev is not None:
                for p in rng.permutation(n).tolist():
                    for w, expect in ((views[p], want[p]), (prev[0][p], prev[1][p])):
                        _assert_same(c, c.encode(w), expect, f"{n}p {opts} alternating")
            prev = (views, want)
            # the same pub object under the private parts of other (older) views
            if past is not None:
                others = [past.view(p) for p in range(n)]
            for w in others:
                grafted = w._replace(pub=views[0].pub)
                _assert_same(c, c.encode(grafted), _full_encode(ref, grafted),
                             f"{n}p {opts} grafted seat {w.player}")
        hits += enc.cache_hits
    assert hits > 0


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_cache_on_edited_public_parts(n, monkeypatch):
    """Redrawn public counts (beyond what play reaches), one edited pub shared by every
    seat's view, seats in random order."""
    c = _compiled_game(monkeypatch, n)
    ref = _compiled_game(monkeypatch, n)
    rng = np.random.default_rng(88 + n)
    for s, _ in random_states(c, rng, 200):
        pub = _edited(s.view(0), rng).pub
        views = [s.view(p)._replace(pub=pub) for p in range(n)]
        for p in rng.permutation(n).tolist() + rng.permutation(n).tolist():
            _assert_same(c, c.encode(views[p]), _full_encode(ref, views[p]),
                         f"{n}p edited seat {p}")


def test_the_batch_path_hits_the_cache(monkeypatch):
    """GameBatch asks every decider of a table from one state: all but the first hit."""
    from plunder.envs.core.batch import GameBatch
    ref = _compiled_game(monkeypatch, 4)
    # the games in Python, encoded by the compiled encoder (the engine's batch has no cache)
    batch = GameBatch(AnchorsAweighGame, 4, 4, seed=3, compiled=False)
    rng = np.random.default_rng(3)
    asked = 0
    for _ in range(200):
        tables, seats, obs, masks = batch.decisions()
        for k, (t, p) in enumerate(zip(tables.tolist(), seats.tolist())):
            view = batch.states[t].view(p)
            _assert_same(ref, obs[k], _full_encode(ref, view), "batch row")
        asked += len(tables) - len(set(tables.tolist()))
        batch.step((rng.random(masks.shape) * masks).argmax(1))
    hits = sum(g._cencoder.cache_hits for g in batch.games)
    assert asked > 0 and hits >= asked


def test_four_seats_from_one_loading_state_hit_three_times(monkeypatch):
    game = _compiled_game(monkeypatch, 4)
    s = _loading_state(game, np.random.default_rng(4), 4)
    enc = game._cencoder
    hits, misses = enc.cache_hits, enc.cache_misses
    for p in (2, 0, 3, 1):
        game.encode(s.view(p))
    assert (enc.cache_hits - hits, enc.cache_misses - misses) == (3, 1)


class _Index:
    """An int-like object (read through __index__) whose value may change, or that calls
    ``hook`` when read."""

    def __init__(self, value, hook=None):
        self.value, self.hook = value, hook

    def __index__(self):
        if self.hook is not None:
            hook, self.hook = self.hook, None
            hook()
        return self.value


def test_a_pub_read_through_index_is_not_cached(monkeypatch):
    """Only ints and tuples cannot change: a pub holding another int-like object is
    encoded afresh every time, so a changed value shows."""
    game = _compiled_game(monkeypatch, 2)
    ref = _compiled_game(monkeypatch, 2)
    view = _view(game)
    enc = game._cencoder
    down = _Index(view.pub.pile_down)
    shared = view._replace(pub=view.pub._replace(pile_down=down))
    plain = view._replace(pub=view.pub._replace(pile_down=view.pub.pile_down))
    _assert_same(game, game.encode(shared), ref.encode(plain), "index pub")
    down.value += 7
    hits = enc.cache_hits
    _assert_same(game, game.encode(shared),
                 ref.encode(plain._replace(pub=plain.pub._replace(pile_down=down.value))),
                 "index pub, changed")
    assert enc.cache_hits == hits
    # numpy ints are read through __index__ too: encoded right, never cached
    np_pub = view.pub._replace(coins=tuple(np.int64(x) for x in view.pub.coins))
    for _ in range(2):
        _assert_same(game, game.encode(view._replace(pub=np_pub)), ref.encode(view),
                     "numpy ints")
    assert enc.cache_hits == hits


def test_a_reentrant_call_leaves_the_cache_right(monkeypatch):
    """An __index__ that encodes other views with the same encoder, during the public pass
    of a miss and during a hit: every result is the full encode, and the cache still
    serves the right public part afterwards."""
    game = _compiled_game(monkeypatch, 3)
    ref = _compiled_game(monkeypatch, 3)
    rng = np.random.default_rng(6)
    a = _loading_state(game, rng, 2)
    va = [a.view(p) for p in range(3)]
    # b: another public part, unlike a's in everything the observer's pass reads of it
    b = next(s.clone() for s, _ in random_states(game, rng, 5000)
             if s.phase == PHASES.index("encounter or flee"))
    pub_b = _edited(b.view(0), rng).pub._replace(
        hands=tuple((h + 5) % 20 for h in b.view(0).pub.hands))
    vb = [b.view(p)._replace(pub=pub_b) for p in range(3)]
    inner = []

    def nested():                               # a miss (b), a hit or miss (a), another b
        for w in (vb[0], va[1], vb[2]):
            inner.append((game.encode(w), _full_encode(ref, w)))

    # 1. during a miss's public pass (an __index__ in pub: not cached itself)
    hooked = va[0]._replace(pub=va[0].pub._replace(round=_Index(va[0].pub.round, nested)))
    _assert_same(game, game.encode(hooked), _full_encode(ref, va[0]), "outer miss")
    hits = game._cencoder.cache_hits
    game.encode(hooked)                         # was not cached (read through __index__)
    assert game._cencoder.cache_hits == hits
    # 2. during a hit's observer pass (an __index__ in the view's own hand)
    game.encode(va[1])                          # a's pub is cached
    hits = game._cencoder.cache_hits
    hooked = va[2]._replace(own_hand=_Index(va[2].own_hand, nested))
    _assert_same(game, game.encode(hooked), _full_encode(ref, va[2]), "outer hit")
    assert game._cencoder.cache_hits > hits
    assert len(inner) == 6
    for got, want in inner:
        _assert_same(game, got, want, "nested")
    for p in (0, 1, 2):                         # the cache is still a's, and right
        _assert_same(game, game.encode(va[p]), _full_encode(ref, va[p]), "after")
        _assert_same(game, game.encode(vb[p]), _full_encode(ref, vb[p]), "after, b")


def test_an_error_keeps_the_cache_right(monkeypatch):
    """A view whose own part is wrong, on the cached pub: an error, then the right bytes."""
    game = _compiled_game(monkeypatch, 2)
    ref = _compiled_game(monkeypatch, 2)
    view = _view(game)
    game.encode(view)
    for bad in (view._replace(own_ship=(99,) * 14), view._replace(own_hand=1.5),
                view._replace(own_secret=(True,) * 3), view._replace(player=5)):
        with pytest.raises((TypeError, ValueError)):
            game.encode(bad)
        _assert_same(game, game.encode(view), _full_encode(ref, view), "after an error")
    with pytest.raises(ValueError):                 # a wrong pub: nothing cached
        game.encode(view._replace(pub=view.pub._replace(phase=8)))
    _assert_same(game, game.encode(view), _full_encode(ref, view), "after a wrong pub")


def test_the_cache_holds_one_reference_and_lets_go(monkeypatch):
    import sys
    game = _compiled_game(monkeypatch, 2)
    view = _view(game)
    pub = view.pub
    count = sys.getrefcount(pub)
    game.encode(view)
    assert sys.getrefcount(pub) == count + 1          # held while cached
    game.encode(_fresh(view))
    assert sys.getrefcount(pub) == count              # released for the next pub
    game.encode(view)
    del game
    import gc
    gc.collect()
    assert sys.getrefcount(pub) == count              # released with the encoder


def test_a_cycle_through_the_cached_pub_is_collected(monkeypatch):
    """The encoder is a GC type: a pub that refers back to it (through a field the encoder
    does not read) does not leak."""
    import gc
    import weakref

    class Holder:
        pass

    game = _compiled_game(monkeypatch, 2)
    view = _view(game)
    holder = Holder()
    holder.game = game                              # holder -> game -> encoder
    view = view._replace(pub=view.pub._replace(turns=holder))   # pub -> holder
    game.encode(view)
    game.encode(view)
    assert game._cencoder.cache_hits >= 1           # cached: encoder -> pub
    gone = weakref.ref(holder)
    del game, view, holder
    gc.collect()
    assert gone() is None
