"""The env form of All Hands On Deck (battles): pickling (bad actions:
tests/test_env_interop.py)."""

from __future__ import annotations

import pickle

import numpy as np

from plunder.envs import make


def test_pickled_mid_game_env_continues_identically_without_the_encoder_memo():
    env = make("all_hands_battle_v0", num_players=3)
    env.reset(seed=4)
    rng = np.random.default_rng(4)

    def step(e, r):
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(r.choice(np.flatnonzero(obs["action_mask"]))))

    for _ in range(200):
        step(env, rng)
    game = env.unwrapped.game
    if type(game.encode_into).__name__ == "builtin_function_or_method":
        assert "_obs_tables" not in game.__dict__       # the compiled encoder: no memo
    else:
        assert game._obs_tables[4]                      # the encoder memoised blocks
    twin = pickle.loads(pickle.dumps(env))
    assert "_obs_tables" not in twin.unwrapped.game.__dict__
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
