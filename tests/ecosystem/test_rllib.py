"""RLlib (new API stack): its env pre-check passes on plunder's envs, and PPO with RLlib's
action-masking module trains every game for a couple of small iterations, never ending a
game by an illegal move (plunder.training.selfplay.rllib_ppo and the docs' examples).

ray[rllib] pins its own gymnasium, so CI runs this file in a virtualenv of its own
(.venv-rllib, the 'rllib' extra); elsewhere it skips."""

from __future__ import annotations

import pettingzoo
import pytest

pytest.importorskip("ray.rllib", reason="RLlib is in the 'rllib' extra (own virtualenv)")
pytest.importorskip("torch")

import ray  # noqa: E402
from ray.rllib.env.wrappers.pettingzoo_env import (  # noqa: E402
    ParallelPettingZooEnv, PettingZooEnv,
)
from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

from plunder.envs import ENV_IDS, game_class, pettingzoo_id  # noqa: E402
from plunder.envs.core import InvalidArgumentError, UnknownEnvError  # noqa: E402
from plunder.training.selfplay import rllib_ppo  # noqa: E402

from .doc_examples import run_doc_example  # noqa: E402

SIMULTANEOUS_IDS = [e for e in ENV_IDS if game_class(e).simultaneous]
#: small enough for CI's two cores: two iterations of 128 env steps, one epoch
SMALL = {"train_batch_size": 128, "minibatch_size": 64, "num_epochs": 1, "hidden": (32,)}


@pytest.fixture(scope="module")
def local_ray():
    """One local Ray for the module (starting Ray takes seconds)."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


# -- RLlib's env pre-check -----------------------------------------------------------------
@pytest.mark.parametrize("kwargs", [{}, {"wait_action": True, "observation_key": "observations"}],
                         ids=["plain", "wait-action"])
@pytest.mark.parametrize("env_id", SIMULTANEOUS_IDS)
def test_precheck_passes_on_parallel_envs(env_id, kwargs):
    """The check steps one unmasked random action: the penalty ends the game if illegal."""
    for players in (2, 4):
        env = pettingzoo.make("parallel", pettingzoo_id(env_id), num_players=players, **kwargs)
        check_multiagent_environments(ParallelPettingZooEnv(env))


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_precheck_passes_on_aec_envs(env_id):
    env = pettingzoo.make("aec", pettingzoo_id(env_id), num_players=3,
                          observation_key="observations")
    check_multiagent_environments(PettingZooEnv(env))


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_env_creator_forms(env_id):
    env = rllib_ppo.make_rllib_env({"game": env_id.rsplit("_v", 1)[0], "num_players": 3})
    assert isinstance(env, PettingZooEnv)
    obs, _ = env.reset(seed=0)
    (agent_obs,) = obs.values()                       # AEC: only the acting agent
    assert set(agent_obs) == {"observations", "action_mask"} and agent_obs["action_mask"].any()
    if env_id in SIMULTANEOUS_IDS:
        par = rllib_ppo.make_rllib_env({"game": env_id, "form": "parallel", "num_players": 3})
        obs, _ = par.reset(seed=0)
        assert len(obs) == 3 and all(o["action_mask"].any() for o in obs.values())
    else:
        with pytest.raises(InvalidArgumentError, match="turn-based"):
            rllib_ppo.make_rllib_env({"game": env_id, "form": "parallel"})


def test_env_creator_errors():
    with pytest.raises(UnknownEnvError, match="treasure"):
        rllib_ppo.make_rllib_env({"game": "treasure"})
    with pytest.raises(InvalidArgumentError, match="form"):
        rllib_ppo.make_rllib_env({"game": "shipshape", "form": "vector"})


# -- PPO with action masking ---------------------------------------------------------------
def _assert_trained(history, batch, min_games=0):
    """Each iteration sampled ``batch`` env steps, at least ``min_games`` games ended and
    none by an illegal move, the per-iteration game counts add up to the lifetime one, PPO
    updated."""
    assert [h["env_steps"] for h in history] == [batch * (i + 1) for i in range(len(history))]
    assert history[-1]["games"] >= min_games
    assert sum(h["games_ended"] for h in history) == history[-1]["games"]
    assert all(h["illegal_action_endings"] == 0 for h in history)   # the module masks
    assert history[-1]["trained_steps"] > 0


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_ppo_trains_every_game_aec(local_ray, env_id):
    config = rllib_ppo.build_config(env_id, num_players=3, seed=0, **SMALL)
    _assert_trained(rllib_ppo.train(config, iterations=2, log=lambda _: None), 128)


# An iteration of 128 env steps can finish no 3-player Anchors Aweigh! game (about 120-140
# steps each); RLlib then reports the per-game counts as NaN, which this test once read as
# an illegal ending (game_metrics now counts such an iteration as 0 games, 0 endings).
@pytest.mark.parametrize("env_id", SIMULTANEOUS_IDS)
def test_ppo_trains_simultaneous_games_parallel(local_ray, env_id):
    config = rllib_ppo.build_config(env_id, num_players=3, form="parallel", seed=0, **SMALL)
    # a 3-player game here takes 18-240 env steps, fewer than the 256 sampled: games end,
    # so "no illegal ending" is not vacuous
    _assert_trained(rllib_ppo.train(config, iterations=2, log=lambda _: None), 128,
                    min_games=1)


def test_metrics_count_illegal_endings_of_an_unmasked_policy(local_ray):
    """Without the masking module (RLlib's default PPO module on the flattened
    observation) games end by illegal moves, and the metric says so: it can fail."""
    from ray.rllib.connectors.env_to_module import FlattenObservations
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    config = rllib_ppo.build_config("shipshape", seed=0, **SMALL)
    config.rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
        rllib_ppo.POLICY_ID: RLModuleSpec(model_config={"fcnet_hiddens": [32]})}))
    config.env_runners(env_to_module_connector=lambda env, spaces=None, device=None:
                       FlattenObservations(multi_agent=True))
    history = rllib_ppo.train(config, iterations=1, log=lambda _: None)
    assert history[0]["illegal_action_endings"] > 0


def test_cli_trains_saves_and_the_checkpoint_plays(local_ray, tmp_path, capsys):
    history = rllib_ppo.main(["--game", "scallywags", "--iterations", "2",
                              "--train-batch-size", "128", "--minibatch-size", "64",
                              "--num-epochs", "1", "--hidden", "32",
                              "--checkpoint", str(tmp_path / "ckpt")])
    _assert_trained(history, 128)
    out = capsys.readouterr().out
    assert "iteration 2/2" in out and "checkpoint saved" in out
    bot = rllib_ppo.RLlibPolicy.from_checkpoint(tmp_path / "ckpt")
    env = pettingzoo.make("aec", "plunder/scallywags-v0", num_players=2)
    env.reset(seed=3)
    for agent in env.agent_iter(400):
        obs, _, term, trunc, _ = env.last()
        action = None if term or trunc else bot.act(obs["observation"], obs["action_mask"])
        assert action is None or obs["action_mask"][action]
        env.step(action)
    with pytest.raises(FileNotFoundError):
        rllib_ppo.RLlibPolicy.from_checkpoint(tmp_path)


@pytest.mark.parametrize("argv,message", [
    (["--game", "scallywags", "--hidden", "a,b"], "--hidden"),
    (["--game", "scallywags", "--iterations", "0"], "--iterations"),
    (["--game", "scallywags", "--form", "vector"], "--form"),
])
def test_cli_rejects_bad_arguments(argv, message, capsys):
    with pytest.raises(SystemExit):
        rllib_ppo.main(argv)
    assert message in capsys.readouterr().err


def test_remote_env_runner_makes_the_envs_in_its_own_process(local_ray):
    """On a cluster the envs are made in env-runner processes, which must register the
    games themselves (the creator imports plunder.envs)."""
    config = rllib_ppo.build_config("all_hands_crew", num_players=3, form="parallel",
                                    num_env_runners=1, seed=0, **SMALL)
    _assert_trained(rllib_ppo.train(config, iterations=2, log=lambda _: None), 128)


# -- the docs' examples ----------------------------------------------------------------------
def test_doc_example_rllib_plain(local_ray):
    namespace = run_doc_example("rllib-plain")
    assert namespace["result"]["env_runners"]["num_env_steps_sampled_lifetime"] == 256


def test_doc_example_rllib(tmp_path, monkeypatch):
    """Last in the file: the example starts and shuts down Ray itself."""
    monkeypatch.chdir(tmp_path)             # the example saves to runs/rllib-scallywags
    if ray.is_initialized():
        ray.shutdown()
    namespace = run_doc_example("rllib")
    _assert_trained(namespace["history"], 256)
    assert (tmp_path / "runs" / "rllib-scallywags").is_dir()
    assert namespace["env"].agents == []    # the trained bot played a whole game
