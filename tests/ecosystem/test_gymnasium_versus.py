"""``gymnasium.make("plunder/<game>-v0")``: one learner seat against bots, as a
single-agent Gymnasium env (plunder.policies.versus), on the core install."""

from __future__ import annotations

import pickle
import subprocess
import sys

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import plunder.envs  # noqa: F401  (registers plunder/<game>-v0 with Gymnasium)
from plunder.envs import ENV_IDS, game_class, pettingzoo_id
from plunder.envs.core import IllegalActionError, InvalidArgumentError
from plunder.policies.versus import VersusBotsEnv

from .doc_examples import run_doc_example


def _random_steps(env, steps: int, seed: int = 0) -> list[dict]:
    """Masked random learner moves for ``steps`` steps; the final infos of ended games."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    ended = []
    for _ in range(steps):
        mask = env.unwrapped.action_masks()
        assert mask.dtype == bool and mask.any()
        assert np.array_equal(mask, info["action_mask"])
        _, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            assert -1.0 <= reward <= 1.0
            ended.append(info)
            _, info = env.reset()
    return ended


def test_every_game_is_registered_with_gymnasium():
    ids = {pettingzoo_id(e) for e in ENV_IDS}
    assert ids <= set(gymnasium.registry)
    assert gymnasium.spec("plunder/scallywags-v0").entry_point == \
        "plunder.policies.versus:VersusBotsEnv"


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_masked_random_learner_plays_hundreds_of_steps_with_no_illegal_ending(env_id):
    players = 3 if game_class(env_id).max_players >= 3 else 2
    env = gymnasium.make(pettingzoo_id(env_id), num_players=players,
                         opponents=["heuristic"] + ["random"] * (players - 2))
    ended = _random_steps(env, 300)
    assert ended, "300 learner steps finished no game"
    for info in ended:
        assert "illegal_action" not in info and "illegal_action_by" not in info
        assert info["seats"].count("learner") == 1
        assert not info["action_mask"].any()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_gymnasium_env_checker_passes(env_id):
    check_env(gymnasium.make(pettingzoo_id(env_id)).unwrapped, skip_render_check=True)


def test_same_seed_same_games_and_seat_drawn_per_game():
    env = gymnasium.make("plunder/scallywags-v0", num_players=4, opponents="random")
    a, info_a = env.reset(seed=7)
    b, info_b = env.reset(seed=7)
    assert np.array_equal(a, b) and info_a["learner_seat"] == info_b["learner_seat"]
    seats = {env.reset(seed=s)[1]["learner_seat"] for s in range(12)}
    assert len(seats) > 1
    fixed = gymnasium.make("plunder/scallywags-v0", num_players=4, learner_seat=2)
    assert {fixed.reset(seed=s)[1]["learner_seat"] for s in range(5)} == {2}


@pytest.mark.parametrize("network", [False, True], ids=["scripted", "network-bot"])
def test_pickled_mid_game_env_plays_on_exactly_like_the_original(network):
    if network:
        pytest.importorskip("onnxruntime")
    env = VersusBotsEnv("shipshape_v0", num_players=4,
                        opponents=["heuristic", "pretrained" if network else "random", "random"])
    env.reset(seed=3)
    rng = np.random.default_rng(1)
    for _ in range(20):
        if any(env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))[2:4]):
            env.reset()
    copy = pickle.loads(pickle.dumps(env))
    for _ in range(60):
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        one, two = env.step(action), copy.step(action)
        assert np.array_equal(one[0], two[0]) and one[1:4] == two[1:4]
        assert np.array_equal(env.action_masks(), copy.action_masks())
        if one[2] or one[3]:
            assert np.array_equal(env.reset(seed=5)[0], copy.reset(seed=5)[0])


def test_async_vector_env_runs_it_in_worker_processes():
    vec = gymnasium.make_vec("plunder/scallywags-v0", num_envs=2, vectorization_mode="async",
                             num_players=2, opponents="heuristic")
    try:
        obs, infos = vec.reset(seed=0)
        rng = np.random.default_rng(0)
        done = np.zeros(2, bool)
        games = 0
        for _ in range(200):
            masks = infos["action_mask"]
            assert masks.shape == (2, vec.single_action_space.n)
            # a game that just ended has an empty mask; the next step resets it (the
            # action is ignored: Gymnasium's default next-step autoreset)
            assert np.array_equal(masks.any(axis=1), ~done)
            actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0
                                for m in masks])
            obs, rewards, terms, truncs, infos = vec.step(actions)
            done = terms | truncs
            games += int(done.sum())
            assert "illegal_action" not in infos
        assert games > 0
    finally:
        vec.close()


def test_needs_neither_torch_nor_stable_baselines3():
    pytest.importorskip("onnxruntime")
    code = ("import sys, gymnasium, numpy as np\n"
            "import plunder.envs\n"
            "env = gymnasium.make('plunder/all_hands_crew-v0', num_players=4,"
            " opponents=['pretrained', 'level:casual', 'random'])\n"
            "obs, info = env.reset(seed=0)\n"
            "env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))\n"
            "bad = [m for m in ('torch', 'stable_baselines3', 'sb3_contrib') if m in sys.modules]\n"
            "assert not bad, bad\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_bad_input_gets_clear_errors():
    with pytest.raises(InvalidArgumentError, match="opponent specs"):
        VersusBotsEnv("scallywags_v0", num_players=4, opponents=["random", "heuristic"])
    with pytest.raises(InvalidArgumentError):
        VersusBotsEnv("scallywags_v0", opponents="grandmaster")
    with pytest.raises(InvalidArgumentError, match="learner_seat"):
        VersusBotsEnv("scallywags_v0", num_players=2, learner_seat=2)
    with pytest.raises(InvalidArgumentError, match="bot spec"):
        VersusBotsEnv("scallywags_v0", opponents=3)


def test_illegal_learner_action_ends_the_game_or_raises():
    env = VersusBotsEnv("scallywags_v0", num_players=2)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] == illegal and not env.action_masks().any()
    with pytest.raises(InvalidArgumentError, match="reset"):
        env.step(0)
    strict = VersusBotsEnv("scallywags_v0", num_players=2, illegal_reward=None)
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(int(np.flatnonzero(~strict.action_masks())[0]))


def test_maskable_ppo_trains_on_it():
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    env = gymnasium.make("plunder/scallywags-v0", num_players=2, opponents="random")
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [16]})
    model.learn(128)


def test_doc_example_runs():
    run_doc_example("gymnasium")
