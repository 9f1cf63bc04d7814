"""The compiled observation encoder (envs/all_hands_crew/_cencode.c) writes exactly the
Python encoder's vectors (observation.py), checks every view field it reads, and the game
switches between the two with PLUNDER_PURE_PYTHON and across pickling."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

cencode = pytest.importorskip("plunder.envs.all_hands_crew._cencode")

from plunder.envs.all_hands_crew.components import NUM_KINDS  # noqa: E402
from plunder.envs.all_hands_crew.observation import PHASE_INDEX  # noqa: E402
from plunder.envs.all_hands_crew.view import AllHandsCrewView  # noqa: E402
from plunder.envs.all_hands_crew_v0 import Game  # noqa: E402
from plunder.envs.core.compiled import PURE_PYTHON_VAR  # noqa: E402
from tests.support.compiled import compiled_game, python_game, same_bytes  # noqa: E402
from tests.support.obs_reference import VARIANTS  # noqa: E402

STATES = 2000        # states per player count and variant (every seat's view of each)


@pytest.fixture
def pair(monkeypatch):
    """``make(n, **opts)`` -> (Python-encoder game, compiled-encoder game)."""
    def make(n, **opts):
        python = python_game(monkeypatch, Game, n, **opts)
        fast = compiled_game(monkeypatch, Game, n, **opts)
        assert "encode" not in vars(python) and "encode" in vars(fast)
        return python, fast
    return make


def _play(game, rng, states):
    """States of random games until ``states`` were seen (terminal ones included). Half
    the games hoard: they mostly pass instead of laying out, so crews grow large (the
    partition solver of my_crew_value gets big crews, the final layout many cards)."""
    out = []
    while len(out) < states:
        s = game.new_game(rng)
        hoard = rng.random() < 0.5
        out.append(s)
        while not s.is_terminal() and len(out) < states:
            joint = {}
            for p in s.current_players():
                legal = np.flatnonzero(s.legal_actions_mask(p))
                if hoard and s.phase == "lay" and legal[-1] == game.actions.pass_turn \
                        and rng.random() < 0.85:
                    joint[p] = game.actions.pass_turn
                else:
                    joint[p] = int(rng.choice(legal))
            s.apply_joint(joint)
            out.append(s.clone())
    return out


def test_field_names_match_the_view_and_the_layout():
    assert cencode.VIEW_FIELDS == AllHandsCrewView._fields
    assert cencode.LAYOUT_FIELDS == tuple(f.name for f in Game(3).layout.fields)


CASES = [(n, opts) for n in range(Game.min_players, Game.max_players + 1)
         for opts in VARIANTS["all_hands_crew_v0"]]


@pytest.mark.parametrize("n,opts", CASES, ids=lambda x: str(x))
def test_compiled_matches_python_bit_for_bit(n, opts, pair):
    python, fast = pair(n, **opts)
    rng = np.random.default_rng(1000 * n + len(opts))
    states = _play(fast, rng, STATES)
    phases = set()
    for i, s in enumerate(states):
        phases.add(s.phase)
        for p in rng.permutation(n).tolist():
            v = s.view(p)
            assert same_bytes(fast.encode(v), python.encode(v)), (n, opts, i, p, s.phase)
        if i and rng.random() < 0.1:              # now and then a view of an older state
            old = states[int(rng.integers(i))]
            v = old.view(int(rng.integers(n)))
            assert same_bytes(fast.encode(v), python.encode(v)), (n, opts, i, "old")
    assert phases == set(PHASE_INDEX), phases - set(PHASE_INDEX)


@pytest.mark.parametrize("n", [2, 6])
def test_crew_values_of_large_crews_match(n, pair):
    """my_crew_value over random crews far larger than random play builds, then two huge
    ones (the second fills the compiled solver's memo, which is emptied and refilled),
    then the first crews again (answered from a refilled memo)."""
    python, fast = pair(n)
    rng = np.random.default_rng(n)
    view = python.new_game(rng).view(0)
    crews = [tuple(int(rng.integers(0, min(c, 5) + 1)) if rng.random() < 0.6 else 0
                   for c in python.copies) for _ in range(120)]
    huge = [tuple(python.copies[:6]) + (0, 0, 0), (5,) * 6 + (min(5, python.copies[6]),) * 3]
    for crew in crews + huge + crews[:20]:
        v = view._replace(my_crew=crew)
        assert same_bytes(fast.encode(v), python.encode(v)), crew


def test_encode_into_writes_what_encode_returns(pair):
    python, fast = pair(4, open_stock=True)
    rng = np.random.default_rng(5)
    size = fast.layout.size
    for s in _play(fast, rng, 300)[::7]:
        for game in (python, fast):
            v = s.view(int(rng.integers(4)))
            want = game.encode(v)
            out = np.full(size, 9.0, np.float32)
            assert game.encode_into(v, out) is None
            assert out.tobytes() == want.tobytes()
            rows = np.full((3, size), 7.0, np.float32)
            game.encode_into(v, rows[1])
            assert rows[1].tobytes() == want.tobytes()
            assert (rows[0] == 7.0).all() and (rows[2] == 7.0).all()


def _bad_views(v: AllHandsCrewView):
    """Views with one field wrong: (what, view)."""
    n = v.num_players
    yield "player not an int", v._replace(player="0")
    yield "player out of range", v._replace(player=n)
    yield "phase unknown", v._replace(phase="dance")
    yield "phase not a str", v._replace(phase=3)
    yield "pending unknown", v._replace(pending="kiss")
    yield "acting not a tuple", v._replace(acting=[0])
    yield "acting seat out of range", v._replace(acting=(n,))
    yield "round a float", v._replace(round=1.5)
    yield "start out of range", v._replace(start=-1)
    yield "pile_masks too short", v._replace(pile_masks=v.pile_masks[:-1])
    yield "pile_masks item not an int", v._replace(
        pile_masks=(("x",) + v.pile_masks[0][1:],) + v.pile_masks[1:])
    yield "pile_seen position out of the pile", v._replace(
        pile_seen=(((len(v.pile_masks[0]), 0),),) + v.pile_seen[1:])
    yield "pile_seen kind out of range", v._replace(
        pile_seen=(((0, NUM_KINDS),),) + v.pile_seen[1:])
    yield "pile_seen entry not a pair", v._replace(pile_seen=((0,),) + v.pile_seen[1:])
    yield "stock of too many cards", v._replace(
        stock=(((0, 0),) * 100,) + v.stock[1:])
    yield "stock source out of range", v._replace(stock=(((0, n),),) + v.stock[1:])
    yield "stock kind out of range", v._replace(stock=(((-2, 0),),) + v.stock[1:])
    yield "my_hired not a tuple", v._replace(my_hired=None)
    yield "my_crew too short", v._replace(my_crew=v.my_crew[:-1])
    yield "my_crew count too large", v._replace(my_crew=(99,) + v.my_crew[1:])
    yield "my_crew negative", v._replace(my_crew=(-1,) + v.my_crew[1:])
    yield "crew_sizes too long", v._replace(crew_sizes=v.crew_sizes + (0,))
    yield "crew_known row too short", v._replace(crew_known=((0,),) * n)
    yield "crew_maybe_gone not ints", v._replace(crew_maybe_gone=(None,) * n)
    yield "known_about_me not a tuple", v._replace(known_about_me=0)
    yield "laid combination out of range", v._replace(laid=((10 ** 6,),) + v.laid[1:])
    yield "final combination negative", v._replace(final=((-1,),) + v.final[1:])
    yield "final_left row too long", v._replace(final_left=((0,) * 10,) * n)
    yield "curses a float", v._replace(curses=(0.5,) * n)
    yield "next_short too short", v._replace(next_short=())
    yield "too few fields", tuple(v)[:-1]
    yield "a list", list(v)
    yield "not a sequence", 5


def test_wrong_views_and_outputs_raise_clear_errors(pair):
    _, fast = pair(3)
    rng = np.random.default_rng(2)
    s = _play(fast, rng, 40)[-1]
    v = s.view(0)
    size = fast.layout.size
    assert fast.encode(v).shape == (size,)
    for what, bad in _bad_views(v):
        with pytest.raises((TypeError, ValueError)):
            fast.encode(bad)
        out = np.full(size, 3.0, np.float32)
        with pytest.raises((TypeError, ValueError)):
            fast.encode_into(bad, out)
    for out in (np.zeros(size, np.float64), np.zeros(size + 1, np.float32),
                np.zeros(size - 1, np.float32), np.zeros((2, size), np.float32)[:, 0],
                np.zeros(size, np.float32).reshape(1, size)[:, ::2], b"\0" * (4 * size),
                [0.0] * size, None):
        with pytest.raises((TypeError, ValueError, BufferError)):
            fast.encode_into(v, out)
    # a good call after the errors still works
    assert same_bytes(fast.encode(v), fast.encode(v))


def test_error_names_the_field(pair):
    _, fast = pair(2)
    v = fast.new_game(np.random.default_rng(0)).view(1)
    with pytest.raises(TypeError, match="crew_sizes"):
        fast.encode(v._replace(crew_sizes=(1,)))
    with pytest.raises(ValueError, match="laid"):
        fast.encode(v._replace(laid=((999,), ())))
    with pytest.raises(ValueError, match="phase"):
        fast.encode(v._replace(phase="nap"))


def test_pure_python_switch_uses_the_python_encoder(monkeypatch):
    monkeypatch.setenv(PURE_PYTHON_VAR, "1")
    game = Game(3)
    assert "encode" not in vars(game) and "encode_into" not in vars(game)
    monkeypatch.delenv(PURE_PYTHON_VAR)
    game = Game(3)
    assert "encode" in vars(game)
    assert type(game.encode_into).__name__ == "builtin_function_or_method"


def test_pickled_game_encodes_identically(pair, monkeypatch):
    python, fast = pair(5, open_stock=True)
    rng = np.random.default_rng(9)
    states = _play(fast, rng, 200)
    copy = pickle.loads(pickle.dumps(fast))
    assert "encode" in vars(copy)
    assert type(copy.encode_into).__name__ == "builtin_function_or_method"
    for s in states[::5]:
        v = s.view(int(rng.integers(5)))
        assert same_bytes(copy.encode(v), fast.encode(v))
        assert same_bytes(copy.encode(v), python.encode(v))
    # a compiled game loaded where compiled encoders are off uses the Python encoder
    monkeypatch.setenv(PURE_PYTHON_VAR, "1")
    plain = pickle.loads(pickle.dumps(fast))
    assert "encode" not in vars(plain)
    v = states[-1].view(2)
    assert same_bytes(plain.encode(v), fast.encode(v))
    # and a Python-encoder game loaded with compiled encoders on uses the compiled one
    monkeypatch.delenv(PURE_PYTHON_VAR)
    back = pickle.loads(pickle.dumps(python))
    assert "encode" in vars(back) and same_bytes(back.encode(v), python.encode(v))
