"""The memoising Scallywags encoder gives exactly what a fresh encoder gives, in any order.

``game.encode`` keeps each observer's last vector and rewrites only what changed; a new
``Encoder`` has nothing to reuse and builds every block. The two must agree bit for bit
whatever was encoded before: other seats, older or cloned states, other games, the same
view twice. And a returned vector is the caller's: later calls never write into it.
"""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs.core import compiled
from plunder.envs.scallywags import observation
from plunder.envs.scallywags.engine import ScallywagsGame


@pytest.fixture(autouse=True)
def python_encoder(monkeypatch):
    """These tests are about the Python encoder's memos: the games built here use it even
    where the compiled encoder is built (test_compiled_encoder.py compares the two)."""
    monkeypatch.setenv(compiled.PURE_PYTHON_VAR, "1")


_FRESH: dict[int, observation.Encoder] = {}


def fresh(game, view):
    """The vector of ``view`` from an encoder with no memory (its tables are kept)."""
    enc = _FRESH.get(game.num_players)
    if enc is None:
        enc = _FRESH[game.num_players] = observation.Encoder(game)
    enc.memos.clear()
    enc.step_blocks.clear()
    return enc.encode(view)


def random_play(game, seed, max_steps=400):
    """The states of one random game, in order (clones)."""
    s = game.new_initial_state(np.random.default_rng(seed))
    rng = np.random.default_rng(seed + 1)
    states = []
    while not s.is_terminal() and len(states) < max_steps:
        states.append(s.clone())
        p = s.current_players()[0]
        s.apply_action(int(rng.choice(np.flatnonzero(s.legal_actions_mask(p)))))
    states.append(s)
    return states


@pytest.mark.parametrize("n", [2, 4, 6])
def test_memoised_vectors_match_fresh_ones_in_any_order(n):
    game = ScallywagsGame(n)
    rng = np.random.default_rng(n)
    states = random_play(game, 0) + random_play(game, 1)
    # in play order, then the same states shuffled (older after newer, games mixed)
    order = list(range(len(states))) + [int(i) for i in rng.permutation(len(states))]
    held = []
    for i in order:
        p = int(rng.integers(n))
        view = states[i].view(p)
        obs = game.encode(view)
        np.testing.assert_array_equal(obs, fresh(game, view))
        np.testing.assert_array_equal(game.encode(view), obs)      # the same view again
        held.append((obs, obs.copy()))
    for obs, copy in held:
        np.testing.assert_array_equal(obs, copy)                  # never written into later


def test_a_caller_writing_into_its_vector_does_not_change_later_ones():
    game = ScallywagsGame(3)
    state = random_play(game, 2)[10]
    obs = game.encode(state.view(0))
    expected = obs.copy()
    obs[:] = 5.0
    np.testing.assert_array_equal(game.encode(state.view(0)), expected)


def test_every_seat_of_every_state_of_several_games_through_one_encoder():
    game = ScallywagsGame(5)
    for seed in range(3):
        for state in random_play(game, 10 + seed)[::3]:
            for p in (4, 0, 2, 1, 3):
                view = state.view(p)
                np.testing.assert_array_equal(game.encode(view), fresh(game, view))


def test_a_game_pickles_and_copies_with_its_encoder():
    import copy
    import pickle
    game = ScallywagsGame(4)
    states = random_play(game, 3)
    for s in states[:20]:
        game.encode(s.view(1))                                     # fill the memos
    for twin in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        for s in states[20:40]:
            np.testing.assert_array_equal(twin.encode(s.view(1)), game.encode(s.view(1)))


def test_a_failed_encode_leaves_no_half_written_vector_behind():
    game = ScallywagsGame(2)
    view = random_play(game, 4)[5].view(0)
    game.encode(view)
    # coin 0 moves (its row is rewritten), then coin 39 names a seat that does not exist
    owner = (0 if view.coin_owner[0] != 0 else 1,) + view.coin_owner[1:-1] + (9,)
    with pytest.raises(IndexError):
        game.encode(view._replace(coin_owner=owner))
    np.testing.assert_array_equal(game.encode(view), fresh(game, view))
