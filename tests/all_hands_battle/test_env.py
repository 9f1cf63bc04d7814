"""The env form of All Hands On Deck (battles): bad actions, pickling."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from plunder.envs import make
from plunder.envs.all_hands_battle_v0 import raw_env
from plunder.envs.core.errors import IllegalActionError


@pytest.mark.parametrize("action", [3.0, np.float32(3.0), "3", None, [3]])
def test_non_integer_action_is_reported_not_converted(action):
    env = raw_env(num_players=3)
    env.reset(seed=0)
    state = env.unwrapped.game_state.to_json()
    with pytest.raises(IllegalActionError) as info:
        env.step(action)
    message = str(info.value)
    assert f"illegal action {action!r} for player" in message
    assert "legal actions: [" in message and "(discard " in message
    assert env.unwrapped.game_state.to_json() == state       # nothing happened
    with pytest.raises(IllegalActionError, match="illegal action 3.0"):
        env.unwrapped.game_state.apply_action(3.0)


def test_pickled_mid_game_env_continues_identically_without_the_encoder_memo():
    env = make("all_hands_battle_v0", num_players=3)
    env.reset(seed=4)
    rng = np.random.default_rng(4)

    def step(e, r):
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(r.choice(np.flatnonzero(obs["action_mask"]))))

    for _ in range(200):
        step(env, rng)
    assert env.unwrapped.game._obs_tables[4]            # the encoder memoised blocks
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
