"""Every game's encoder caches never change an observation: a game object that has
encoded other games, every seat in shuffled order and older states gives, for each view,
the vector that a fresh game object gives for the same state reloaded from JSON (nothing
shared with the warm one: no cached public table, no encoder memo).

The stored digests of tests/test_obs_reference.py pin the observations to the reference
commit; this test pins every cache to a cold encoder, with the orders mixed harder (two
games interleaved on one game object, old states between new ones). Scallywags' own
encoder test (tests/scallywags/test_encoder.py) also checks its per-observer memos.
"""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs import game_class
from tests.support.obs_reference import case_key, cases

STEPS = 300          # decisions per case (two games on one game object)
CHECK_EVERY = 0.05   # share of encodings compared with a cold game object


def _cold(env_id, n, opts, state, seat):
    """``seat``'s observation of ``state`` from a new game object and a reloaded state."""
    game = game_class(env_id)(n, **opts)
    return game.encode(game.state_from_json(state.to_json()).view(seat))


@pytest.mark.parametrize("env_id,n,opts", cases(), ids=lambda x: str(x))
def test_warm_encoder_matches_a_cold_one(env_id, n, opts):
    game = game_class(env_id)(n, **opts)
    rng = np.random.default_rng(sum(map(ord, case_key(env_id, n, opts))))
    states = [game.new_game(rng) for _ in range(2)]
    old, checked = [], 0
    for step in range(STEPS):
        i = int(rng.integers(2))
        s = states[i]
        for p in rng.permutation(n).tolist():
            obs = game.encode(s.view(p))
            if rng.random() < CHECK_EVERY:
                assert np.array_equal(obs, _cold(env_id, n, opts, s, p)), \
                    f"step {step}, seat {p}: the warm encoder's vector differs"
                checked += 1
        if old and rng.random() < 0.1:           # an older state, then back to the others
            past = old[int(rng.integers(len(old)))]
            p = int(rng.integers(n))
            assert np.array_equal(game.encode(past.view(p)), _cold(env_id, n, opts, past, p)), \
                f"step {step}: an older state's vector differs"
            checked += 1
        if rng.random() < 0.05:
            old.append(s.clone())
        s.apply_joint({p: int(rng.choice(np.flatnonzero(s.legal_actions_mask(p))))
                       for p in s.current_players()})
        if s.is_terminal():
            states[i] = game.new_game(rng)
    assert checked >= 20
