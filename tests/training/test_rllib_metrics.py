"""``rllib_ppo.game_metrics`` reads RLlib's result dicts; no Ray needed (the module imports
Ray only inside its functions), so this runs in the main suite."""

from __future__ import annotations

import math

import pytest

from plunder.training.selfplay.rllib_ppo import game_metrics


def _result(**runners):
    return {"env_runners": {"num_env_steps_sampled_lifetime": 256,
                            "num_episodes_lifetime": 3.0, **runners},
            "learners": {"shared": {"num_module_steps_trained_lifetime": 512}}}


def test_counts_of_an_iteration_with_finished_games():
    m = game_metrics(_result(num_episodes=2, illegal_action_endings=1, truncated_games=0,
                             episode_len_mean=128.5))
    assert m == {"env_steps": 256, "games": 3.0, "games_ended": 2,
                 "illegal_action_endings": 1, "truncated_games": 0,
                 "mean_game_length": 128.5, "trained_steps": 512}


def test_an_iteration_without_a_finished_game_counts_zero():
    """RLlib reduces the unlogged per-game counts to NaN; that iteration ended no game."""
    m = game_metrics(_result(num_episodes=math.nan, illegal_action_endings=math.nan,
                             truncated_games=math.nan, episode_len_mean=math.nan))
    assert (m["games_ended"], m["illegal_action_endings"], m["truncated_games"]) == (0, 0, 0)
    assert math.isnan(m["mean_game_length"])


def test_a_missing_count_after_finished_games_raises():
    """Games ended but the callback logged nothing: not read as "no illegal endings"."""
    with pytest.raises(RuntimeError, match="illegal_action_endings.*callback"):
        game_metrics(_result(num_episodes=2, illegal_action_endings=math.nan,
                             truncated_games=0))
    with pytest.raises(RuntimeError, match="truncated_games"):
        game_metrics(_result(num_episodes=1, illegal_action_endings=0))
