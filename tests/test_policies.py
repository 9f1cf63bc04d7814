"""Bots of every game: legal moves only, clear errors, reproducible with a seed."""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs import ENV_IDS, game_class, make
from plunder.envs.core import InvalidArgumentError
from plunder.policies import HEURISTICS, RandomPolicy, choose_action, make_bot


def play_game(env_id, n, specs, seed, max_steps=20_000):
    env = make(env_id, num_players=n, raw=True)
    env.reset(seed=seed)
    bots = [make_bot(s, env_id, n, seed=seed + i) for i, s in enumerate(specs)]
    steps = 0
    info = {}
    for agent in env.agent_iter(max_steps):
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = choose_action(bots[env.agent_name_mapping[agent]], env, agent, obs)
        assert obs["action_mask"][action] == 1, f"{specs} chose an illegal action"
        env.step(action)
        steps += 1
    return info, steps


def test_every_game_has_a_heuristic():
    assert set(HEURISTICS) == set(ENV_IDS)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_heuristic_plays_legal_moves_to_the_end(env_id):
    n = game_class(env_id).min_players
    info, _ = play_game(env_id, n, ["heuristic"] * n, seed=1)
    assert "scores" in info


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_search_bot_chooses_legal_moves(env_id):
    n = game_class(env_id).min_players
    env = make(env_id, num_players=n, raw=True)
    env.reset(seed=2)
    bot = make_bot("search:1", env_id, n, seed=0)
    bot.max_rollout_steps = 200
    for _ in range(3):
        agent = env.agent_selection
        obs = env.observe(agent)
        action = choose_action(bot, env, agent, obs)
        assert obs["action_mask"][action] == 1
        env.step(action)


def test_search_bot_refuses_an_observation_without_view():
    bot = make_bot("search", "scallywags_v0", 2)
    with pytest.raises(TypeError, match="view"):
        bot.act(np.zeros(3), np.ones(3))


def test_bots_are_reproducible_with_a_seed():
    a, _ = play_game("scallywags_v0", 3, ["heuristic", "random", "random"], seed=5)
    b, _ = play_game("scallywags_v0", 3, ["heuristic", "random", "random"], seed=5)
    assert a["scores"] == b["scores"]


def test_random_policy_refuses_an_empty_mask():
    with pytest.raises(InvalidArgumentError, match="all-zero"):
        RandomPolicy(seed=0).act(np.zeros(3), np.zeros(4, np.int8))


def test_unknown_bot_spec_is_a_clear_error():
    with pytest.raises(InvalidArgumentError, match="unknown bot"):
        make_bot("genius", "scallywags_v0", 2)
    with pytest.raises(InvalidArgumentError, match="path"):
        make_bot("trained", "scallywags_v0", 2)
    with pytest.raises(InvalidArgumentError, match="sampled:PATH"):
        make_bot("sampled", "scallywags_v0", 2)


def test_set_state_continues_from_a_saved_position():
    env = make("scallywags_v0", num_players=2, raw=True)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(5):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    saved = env.game_state.to_json()
    other = make("scallywags_v0", num_players=2, raw=True)
    other.reset(seed=99)
    other.set_state(other.game.state_from_json(saved))
    assert other.agent_selection == env.agent_selection
    np.testing.assert_array_equal(other.observe(other.agent_selection)["observation"],
                                  env.observe(env.agent_selection)["observation"])
    with pytest.raises(InvalidArgumentError, match="another game"):
        make("scallywags_v0", num_players=3, raw=True).set_state(env.game_state)
