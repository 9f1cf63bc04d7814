"""The compiled Scallywags encoder (``_engine.Encoder``, envs/scallywags/_engine.c: the
compiled engine's observation writer fed any view) writes what the Python one writes, bit
for bit, and rejects malformed views and outputs with a clear error.

The Python encoder (observation.py) is the reference. Random play of every player count
and variant, ``encode_into``, the switch and pickling: the shared suite
(tests/core/test_compiled_equivalence.py); here, views with every field drawn at random
and the malformed views and constants this encoder must refuse.
"""

from __future__ import annotations

import numpy as np
import pytest

_engine = pytest.importorskip("plunder.envs.scallywags._engine")

from plunder.envs.scallywags.components import BLOW, YO_HO         # noqa: E402
from plunder.envs.scallywags.engine import PHASES, ScallywagsGame  # noqa: E402
from plunder.envs.scallywags.view import ScallywagsView            # noqa: E402
from tests.support.compiled import (                          # noqa: E402
    assert_view_refused, assert_view_shape_checked, same_bytes, uses_compiled,
)

ENV_ID = "scallywags_v0"


pytestmark = pytest.mark.usefixtures("compiled_on")   # also under PLUNDER_PURE_PYTHON=1


def test_field_names_match_the_view_and_the_layout():
    assert _engine.VIEW_FIELDS == ScallywagsView._fields
    # every layout field is written by the C code, each once
    for n in range(2, 7):
        names = ScallywagsGame(n).layout.names()
        assert sorted(_engine.LAYOUT_FIELDS) == sorted(names)


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
    assert_view_refused(game, view._replace(**change))
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
    assert_view_shape_checked(*_view())


def test_the_constructor_checks_its_constants():
    from plunder.envs.scallywags import observation
    game = ScallywagsGame(2)
    params = list(observation.compiled_params(game, _engine))
    _engine.Encoder(*params)
    slices = list(params[1])
    slices[0] = (slices[0][0], slices[0][1] + 1)             # a field of the wrong length
    for bad in ({1: tuple(slices)}, {0: params[0] - 1}, {3: 99}, {5: (3, 1)}, {10: (1.0,)},
                {11: (1.0,)}, {6: 0}, {6: 10**6},
                {12: ("choose", 2)}):
        args = list(params)
        for i, value in bad.items():
            args[i] = value
        with pytest.raises((TypeError, ValueError)):
            _engine.Encoder(*args)
    blank = _engine.Encoder.__new__(_engine.Encoder)         # never initialised
    with pytest.raises(ValueError):
        blank.encode_into(_view()[1], np.zeros(game.layout.size, np.float32))


def test_the_game_encodes_with_the_engines_encoder():
    """The engine module holds the game's only compiled encoder (no view twin): a Python
    state's view encodes as the engine's own state of the same game does."""
    from plunder.envs.core import compiled
    assert compiled.load("scallywags") is _engine
    assert compiled.load("scallywags", "view") is None
    for n in (2, 5):
        game = ScallywagsGame(n)
        engine = _engine.Engine(*game.compiled_engine_params(_engine))
        rng = np.random.default_rng(n)
        s = game.new_game(rng)
        for _ in range(60):
            if s.is_terminal():
                break
            twin = engine.from_dict(s.to_dict())
            out = np.empty(game.layout.size, np.float32)
            for p in range(n):
                twin.encode_into(p, out)
                assert same_bytes(game.encode(s.view(p)), out)
            p = s.current_players()[0]
            s.apply_action(int(rng.choice(np.flatnonzero(s.legal_actions_mask(p)))))
