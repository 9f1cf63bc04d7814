"""plunder.envs.wrappers.mask_in_info: the action mask in the info dictionary (the form
AgileRL reads), checked with PettingZoo's own tests and masked random play (AgileRL
itself is not installed here: it pins its own PettingZoo)."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo.test import api_test, parallel_api_test

from plunder.envs import ENV_IDS, game_class, make, make_parallel
from plunder.envs.core import InvalidArgumentError
from plunder.envs.wrappers import mask_in_info, masks_as_lists

from .doc_examples import run_doc_example

SIMULTANEOUS_IDS = [e for e in ENV_IDS if game_class(e).simultaneous]


def _players(env_id: str) -> int:
    return 3 if game_class(env_id).max_players >= 3 else 2


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_aec_form_passes_pettingzoo_api_test(env_id):
    env = mask_in_info(make(env_id, num_players=_players(env_id)))
    api_test(env, num_cycles=60)
    env.reset(seed=0)
    assert isinstance(env.observation_space(env.agent_selection), spaces.Box)


@pytest.mark.parametrize("env_id", SIMULTANEOUS_IDS)
def test_parallel_form_passes_pettingzoo_parallel_api_test(env_id):
    parallel_api_test(mask_in_info(make_parallel(env_id, num_players=_players(env_id))),
                      num_cycles=60)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_aec_masked_random_play_ends_no_game_on_an_illegal_move(env_id):
    env = mask_in_info(make(env_id, num_players=_players(env_id)))
    rng = np.random.default_rng(0)
    steps = games = 0
    seed = 0
    while steps < 300:
        env.reset(seed=seed)
        seed += 1
        for agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            assert observation.shape == env.observation_space(agent).shape
            mask = info["action_mask"]
            assert mask.dtype == np.int8
            assert np.array_equal(mask, env.unwrapped.observe(agent)["action_mask"])
            assert np.array_equal(env.infos[agent]["action_mask"], mask)
            if termination or truncation:
                assert "illegal_action_by" not in info
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
        games += 1
    assert games >= 1


@pytest.mark.parametrize("env_id", SIMULTANEOUS_IDS)
def test_parallel_masked_random_play_ends_no_game_on_an_illegal_move(env_id):
    env = mask_in_info(make_parallel(env_id, num_players=_players(env_id)))
    rng = np.random.default_rng(0)
    steps = games = 0
    while steps < 300:
        observations, infos = env.reset(seed=games)
        while env.agents:
            assert set(infos) >= set(observations)
            actions = {a: int(rng.choice(np.flatnonzero(info["action_mask"])))
                       for a, info in infos.items() if info["action_mask"].any()}
            assert actions
            observations, rewards, terms, truncs, infos = env.step(actions)
            steps += 1
            for info in infos.values():
                assert "illegal_action_by" not in info
        games += 1


def test_masks_as_lists_gives_the_form_agilerls_ippo_check_takes():
    env = mask_in_info(make_parallel("shipshape_v0", num_players=3))
    _, infos = env.reset(seed=0)
    masks = [info["action_mask"] for info in infos.values()]
    with pytest.raises(ValueError, match="ambiguous"):
        None in masks  # noqa: B015 - AgileRL 2.58's IPPO does this with the masks
    listed = masks_as_lists(infos)
    lists = [info["action_mask"] for info in listed.values()]
    assert None not in lists
    assert np.array_equal(np.array(lists), np.array(masks))
    stacked = {"a": {"action_mask": np.stack(masks)}, "b": "not a dict"}
    assert masks_as_lists(stacked)["a"]["action_mask"] == np.stack(masks).tolist()
    assert masks_as_lists(stacked)["b"] == "not a dict"


def test_bad_input_is_refused():
    with pytest.raises(InvalidArgumentError, match="AEC or parallel"):
        mask_in_info(object())


def test_doc_example_runs():
    run_doc_example("mask-in-info")
