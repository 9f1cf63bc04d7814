"""The compiled Scallywags encoder (envs/scallywags/_cencode.c) writes what the Python one
writes, bit for bit, and rejects malformed views and outputs with a clear error.

The Python encoder (observation.py) is the reference: every comparison encodes the same
view with a game built under ``PLUNDER_PURE_PYTHON=1`` and with a game built with the
compiled encoder on, over random games of every player count and variant.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

pytest.importorskip("plunder.envs.scallywags._cencode")

from plunder.envs import game_class                               # noqa: E402
from plunder.envs.core import compiled                             # noqa: E402
from plunder.envs.scallywags import _cencode                       # noqa: E402
from plunder.envs.scallywags.components import BLOW, YO_HO         # noqa: E402
from plunder.envs.scallywags.engine import PHASES, ScallywagsGame  # noqa: E402
from plunder.envs.scallywags.view import ScallywagsView            # noqa: E402
from tests.support.compiled import (                          # noqa: E402
    compiled_game, python_game, same_bytes, uses_compiled,
)
from tests.support.obs_reference import VARIANTS                           # noqa: E402

ENV_ID = "scallywags_v0"
STATES = 5000            # states per player count and variant (every seat's view of each)



@pytest.fixture(autouse=True)
def compiled_on(monkeypatch):
    """Games built here use the compiled encoder unless a test switches it off, also in a
    run under PLUNDER_PURE_PYTHON=1."""
    monkeypatch.delenv(compiled.PURE_PYTHON_VAR, raising=False)


@pytest.fixture
def games(monkeypatch):
    """``make(n, **opts)`` -> (Python game, compiled game)."""
    def make(n, **opts):
        return (python_game(monkeypatch, game_class(ENV_ID), n, **opts),
                compiled_game(monkeypatch, game_class(ENV_ID), n, **opts))
    return make



def test_field_names_match_the_view_and_the_layout():
    assert _cencode.VIEW_FIELDS == ScallywagsView._fields
    # every layout field is written by the C code, each once
    for n in range(2, 7):
        names = ScallywagsGame(n).layout.names()
        assert sorted(_cencode.LAYOUT_FIELDS) == sorted(names)


@pytest.mark.parametrize("n", range(ScallywagsGame.min_players, ScallywagsGame.max_players + 1))
@pytest.mark.parametrize("opts", VARIANTS[ENV_ID], ids=str)
def test_compiled_and_python_vectors_are_bit_identical(games, n, opts):
    py, c = games(n, **opts)
    rng = np.random.default_rng(1000 + n)
    seen_phases, pending, states, old = set(), set(), 0, []
    while states < STATES:
        s = c.new_game(rng)
        while True:
            states += 1
            seen_phases.add(s.phase)
            pending.add((s.card, len(s.chosen)))
            for p in rng.permutation(n).tolist():
                view = s.view(p)
                assert same_bytes(py.encode(view), c.encode(view)), (states, p, view)
            if old and rng.random() < 0.1:                # an older state's view
                past = old[int(rng.integers(len(old)))]
                view = past.view(int(rng.integers(n)))
                assert same_bytes(py.encode(view), c.encode(view)), (states, view)
            if rng.random() < 0.05:
                old.append(s.clone())
            if s.is_terminal() or states >= STATES:
                break
            s.apply_joint({p: int(rng.choice(np.flatnonzero(s.legal_actions_mask(p))))
                           for p in s.current_players()})
    # every phase, and the cards whose targets mix coins and seats part-way
    assert seen_phases == set(PHASES)
    assert {(BLOW, 3), (YO_HO, 1)} <= pending


def _random_view(game, rng) -> ScallywagsView:
    """A view with every field drawn at random within its range (not a reachable state:
    coins anywhere, any slots, values, knowers, counts, phase and targets)."""
    n, nc, comp = game.num_players, game.num_coins, game.components
    face_up = tuple(bool(x) for x in rng.random(nc) < 0.5)
    values = tuple(int(rng.choice(comp.distinct_values)) if up or rng.random() < 0.4 else -1
                   for up in face_up)
    if rng.random() < 0.1:
        values = tuple(int(v) for v in rng.permutation(comp.coin_values))    # all seen
    card = int(rng.integers(-1, 9))
    steps = int(rng.integers(0, 5))
    coin_steps = {BLOW: 2, YO_HO: 1}.get(card, steps)      # then seats
    chosen = tuple(int(rng.integers(nc)) if i < coin_steps else int(rng.integers(n))
                   for i in range(steps))
    return ScallywagsView(
        player=int(rng.integers(n)), num_players=n, take_limit=game.take_limit,
        coin_values=values, face_up=face_up,
        coin_owner=tuple(int(x) for x in rng.integers(-1, n, nc)),
        coin_slot=tuple(int(x) for x in rng.integers(0, game.take_limit + 1, nc)),
        knowers=tuple(int(x) for x in rng.integers(0, 1 << n, nc)),
        hand=tuple(int(x) for x in rng.integers(0, 4, 9)),
        hand_sizes=tuple(int(x) for x in rng.integers(0, 4, n)),
        discard=tuple(int(x) for x in rng.integers(0, 7, 9)),
        reshuffled=tuple(int(x) for x in rng.integers(0, 7, 9)),
        draw_size=int(rng.integers(0, 55)), actor=int(rng.integers(n)),
        phase=PHASES[int(rng.integers(3))], card=card, chosen=chosen, block_queue=(),
        acting=tuple(int(x) for x in rng.choice(n, int(rng.integers(0, 2)), replace=False)),
        turns=int(rng.choice([0, 1, 7, 399, 400, 401, 1000, 10**9])))


@pytest.mark.parametrize("n", range(2, 7))
def test_random_views_are_bit_identical(games, n):
    py, c = games(n)
    rng = np.random.default_rng(77 + n)
    for _ in range(400):
        view = _random_view(c, rng)
        assert same_bytes(py.encode(view), c.encode(view)), view


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "python"])
def test_encode_into_writes_what_encode_returns(pure, monkeypatch):
    if pure:
        monkeypatch.setenv(compiled.PURE_PYTHON_VAR, "1")
    game = ScallywagsGame(4)
    assert uses_compiled(game) != pure
    rng = np.random.default_rng(5)
    s = game.new_game(rng)
    rows = np.full((3, game.layout.size), 7.0, np.float32)
    for _ in range(60):
        for p in range(4):
            view = s.view(p)
            out = np.full(game.layout.size, 3.0, np.float32)
            assert game.encode_into(view, out) is None
            assert same_bytes(out, game.encode(view))
            game.encode_into(view, rows[1])
            assert rows[1].tobytes() == game.encode(view).tobytes()
        p = s.current_players()[0]
        s.apply_action(int(rng.choice(np.flatnonzero(s.legal_actions_mask(p)))))
    assert (rows[0] == 7.0).all() and (rows[2] == 7.0).all()


def _view():
    game = ScallywagsGame(3)
    rng = np.random.default_rng(7)
    s = game.new_game(rng)
    for _ in range(25):
        p = s.current_players()[0]
        s.apply_action(int(rng.choice(np.flatnonzero(s.legal_actions_mask(p)))))
    return game, s.view(s.current_players()[0])


@pytest.mark.parametrize("change", [
    dict(coin_values=None), dict(face_up=[True] * 40), dict(hand=(1.5,) + (0,) * 8),
    dict(phase=1), dict(turns="3"), dict(acting=[0]), dict(player=0.0),
    dict(coin_owner=(-1,) * 39), dict(knowers=(0,) * 41), dict(hand=(0,) * 8),
    dict(hand_sizes=(3, 3)), dict(discard=(0,) * 10), dict(reshuffled=()),
    dict(coin_owner=(3,) + (-1,) * 39), dict(coin_owner=(-2,) + (-1,) * 39),
    dict(coin_slot=(9,) + (0,) * 39), dict(coin_values=(2,) + (-1,) * 39),
    dict(coin_values=(1000,) + (-1,) * 39), dict(face_up=(2,) * 40),
    dict(knowers=(8,) * 40), dict(num_players=7), dict(num_players=0), dict(player=3),
    dict(take_limit=0), dict(actor=-1), dict(acting=(5,)), dict(phase="dance"),
    dict(card=9), dict(card=-2), dict(card=BLOW, chosen=(0, 40)),
    dict(card=BLOW, chosen=(0, 1, 2, 3)), dict(card=0, chosen=(-1,)),
    # ints of more than one digit take the checked path: too big, or just out of range
    dict(turns=2**70), dict(coin_slot=(2**70,) + (0,) * 39),
    dict(coin_owner=(-2**40,) + (-1,) * 39), dict(knowers=(2**33,) * 40),
    dict(hand=(2**64,) + (0,) * 8), dict(num_players=2**40),
], ids=str)
def test_a_malformed_view_raises_a_clear_error(change):
    game, view = _view()
    assert uses_compiled(game)
    out = np.zeros(game.layout.size, np.float32)
    with pytest.raises((TypeError, ValueError)):
        game.encode_into(view._replace(**change), out)
    with pytest.raises((TypeError, ValueError)):
        game.encode(view._replace(**change))
    assert same_bytes(game.encode(view), game.encode(view))      # still fine afterwards


def test_ints_of_any_kind_and_equal_strs_encode_as_plain_ones():
    """The encoder reads small plain ints and bools directly: numpy ints, int subclasses
    and a phase str equal to (but not the same object as) the game's read the same."""
    class Int(int):
        pass

    game, view = _view()
    expected = game.encode(view)
    as_numpy = {f: (tuple(np.int64(x) for x in v) if isinstance(v, tuple) else
                    v if isinstance(v, str) else np.int64(v))
                for f, v in view._asdict().items()}
    as_subclass = {f: (tuple(Int(x) for x in v) if isinstance(v, tuple) else
                       v if isinstance(v, str) else Int(v))
                   for f, v in view._asdict().items()}
    for twin in (view._replace(**as_numpy), view._replace(**as_subclass),
                 view._replace(phase="".join(list(view.phase)))):
        assert same_bytes(game.encode(twin), expected), twin


def test_a_view_of_the_wrong_shape_raises_a_clear_error():
    game, view = _view()
    out = np.zeros(game.layout.size, np.float32)
    for bad in (list(view), tuple(view)[:-1], tuple(view) + (0,), None, 3, {"player": 0}):
        with pytest.raises(TypeError):
            game.encode_into(bad, out)
    game.encode_into(tuple(view), out)                       # a plain tuple is fine
    assert same_bytes(out, game.encode(view))



def test_the_switch_gives_the_python_encoder(monkeypatch):
    monkeypatch.setenv(compiled.PURE_PYTHON_VAR, "1")
    game = ScallywagsGame(3)
    assert not uses_compiled(game)
    game.encode(game.new_game(np.random.default_rng(0)).view(0))
    assert "_encoder" in game.__dict__          # the memoising Python encoder, built on use
    monkeypatch.delenv(compiled.PURE_PYTHON_VAR)
    game = ScallywagsGame(3)
    assert uses_compiled(game)
    game.encode(game.new_game(np.random.default_rng(0)).view(0))
    assert "_encoder" not in game.__dict__                   # its caches are never built


def test_a_pickled_or_copied_compiled_game_encodes_identically():
    game = ScallywagsGame(4)
    rng = np.random.default_rng(9)
    s = game.new_game(rng)
    views = []
    while not s.is_terminal():
        views += [s.view(p) for p in range(4)]
        p = s.current_players()[0]
        s.apply_action(int(rng.choice(np.flatnonzero(s.legal_actions_mask(p)))))
    for twin in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert uses_compiled(twin)
        for view in views:
            assert same_bytes(twin.encode(view), game.encode(view))


def test_a_game_pickled_with_the_python_encoder_unpickles_compiled(monkeypatch):
    monkeypatch.setenv(compiled.PURE_PYTHON_VAR, "1")
    game = ScallywagsGame(2)
    view = game.new_game(np.random.default_rng(0)).view(0)
    expected = game.encode(view)
    data = pickle.dumps(game)
    monkeypatch.delenv(compiled.PURE_PYTHON_VAR)
    twin = pickle.loads(data)
    assert uses_compiled(twin) and "_encoder" not in twin.__dict__
    assert same_bytes(twin.encode(view), expected)


def test_the_constructor_checks_its_constants():
    from plunder.envs.scallywags import observation
    game = ScallywagsGame(2)
    params = list(observation.compiled_params(game, _cencode))
    _cencode.Encoder(*params)
    slices = list(params[1])
    slices[0] = (slices[0][0], slices[0][1] + 1)             # a field of the wrong length
    for bad in ({1: tuple(slices)}, {0: params[0] - 1}, {3: 99}, {5: (3, 1)}, {10: (1.0,)},
                {11: (1.0,)}, {6: 0}, {6: 10**6},
                {12: ("choose", 2)}):
        args = list(params)
        for i, value in bad.items():
            args[i] = value
        with pytest.raises((TypeError, ValueError)):
            _cencode.Encoder(*args)
    blank = _cencode.Encoder.__new__(_cencode.Encoder)       # never initialised
    with pytest.raises(ValueError):
        blank.encode_into(_view()[1], np.zeros(game.layout.size, np.float32))
