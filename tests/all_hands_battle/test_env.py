"""The env form of All Hands On Deck (battles): pickling (bad actions:
tests/test_env_interop.py)."""

from __future__ import annotations

import pickle

import numpy as np

from plunder.envs import make


def test_pickled_mid_game_env_continues_identically():
    env = make("all_hands_battle_v0", num_players=3)
    env.reset(seed=4)
    rng = np.random.default_rng(4)

    def step(e, r):
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(r.choice(np.flatnonzero(obs["action_mask"]))))

    for _ in range(200):
        step(env, rng)
    twin = pickle.loads(pickle.dumps(env))
    rng_a, rng_b = np.random.default_rng(1), np.random.default_rng(1)
    for _ in range(300):
        if not env.agents:
            break
        assert twin.agent_selection == env.agent_selection
        for a in env.possible_agents:
            np.testing.assert_array_equal(twin.observe(a)["observation"],
                                          env.observe(a)["observation"])
        step(env, rng_a)
        step(twin, rng_b)
    assert twin.unwrapped.game_state.to_json() == env.unwrapped.game_state.to_json()
