"""Rollouts played inside the self-play vec envs (``collect``) and SelfPlayPPO's use of them."""

from __future__ import annotations

import numpy as np
import pytest
import torch as th
from conftest import TINY, run_cli, set_args, TOY_CONFIG

from plunder.envs import game_class
from plunder.training.selfplay.selfplay_env import (MlpActor, OpponentPool, ParallelSelfPlayVecEnv,
                                           SelfPlayVecEnv)


def _actor(d, a, seed=0, hidden=16):
    rng = np.random.default_rng(seed)
    return MlpActor([(rng.normal(size=(d, hidden)), rng.normal(size=hidden))], "tanh",
                    (rng.normal(size=(hidden, a)), rng.normal(size=a)))


def _vec(env_id, n_players, n_envs, seed=0, snapshots=2):
    game = game_class(env_id)(n_players)
    pool = OpponentPool(env_id, n_players, weights={"snapshots": 2.0, "random": 1.0,
                                                    "heuristic": 1.0})
    vec = SelfPlayVecEnv(env_id, n_players, n_envs, pool, seed=seed)
    for k in range(snapshots):
        vec.add_snapshot(_actor(game.layout.size, game.num_actions, seed=10 + k), k)
    vec.reset()
    return vec, game


def _check_rollout(data, steps, n, game):
    """Shapes, legality, rewards only at ends, and one ``ended`` entry per done."""
    assert data["obs"].shape == (steps, n, game.layout.size)
    assert data["masks"].shape == (steps, n, game.num_actions)
    for k in ("actions", "log_probs", "rewards", "dones"):
        assert data[k].shape == (steps, n)
    picked = np.take_along_axis(data["masks"], data["actions"][..., None], 2)[..., 0]
    assert picked.all(), "every recorded learner action is legal under its recorded mask"
    assert np.all(data["log_probs"] <= 0) and np.isfinite(data["log_probs"]).all()
    assert not data["rewards"][~data["dones"]].any()
    assert sorted((t, i) for t, i, _ in data["ended"]) == \
        [tuple(x) for x in np.argwhere(data["dones"]).tolist()]
    for t, i, info in data["ended"]:
        assert data["rewards"][t, i] == info["episode"]["r"]
        assert info["terminal_observation"].shape == (game.layout.size,)
    assert data["last_obs"].shape == (n, game.layout.size)


def test_collect_on_the_toy_game_counts_every_learner_decision(toy):
    """Toy, 2 players: the learner decides exactly 12 times per game (6 simultaneous picks
    and 2 naming steps in each of its 3 leading rounds), so every game ends 12 recorded
    steps after the previous one — on every table, whatever the others do."""
    vec, game = _vec(toy, 2, 5)
    actor = _actor(game.layout.size, game.num_actions, seed=3)
    data = vec.collect(actor, 60)
    _check_rollout(data, 60, 5, game)
    for i in range(5):
        ends = np.flatnonzero(data["dones"][:, i])
        assert ends.tolist() == list(range(11, 60, 12))
    assert all(info["episode"]["l"] == 12 for _, _, info in data["ended"])
    # the tables wait at their next learner decision: the next rollout goes on from there
    more = vec.collect(actor, 12)
    assert more["dones"][-1].all() and not more["dones"][:-1].any()


@pytest.mark.parametrize("n_players", [2, 4])
def test_collect_scallywags_is_legal_and_repeatable(n_players):
    game = game_class("scallywags_v0")(n_players)
    actor = _actor(game.layout.size, game.num_actions, seed=3)
    runs = []
    for _ in range(2):
        vec, game = _vec("scallywags_v0", n_players, 6, seed=7)
        runs.append(vec.collect(actor, 80))
        _check_rollout(runs[-1], 80, 6, game)
        # the step API still works from where the rollout stopped
        masks = vec.action_masks()
        assert masks.any(axis=1).all()
        vec.step(np.array([np.flatnonzero(m)[0] for m in masks]))
    assert runs[0]["dones"].sum() > 0
    for k in ("obs", "masks", "actions", "log_probs", "rewards", "dones"):
        np.testing.assert_array_equal(runs[0][k], runs[1][k])


def test_collect_log_probs_are_the_actors():
    vec, game = _vec("scallywags_v0", 3, 4)
    actor = _actor(game.layout.size, game.num_actions, seed=3)
    data = vec.collect(actor, 30)
    obs = data["obs"].reshape(120, -1)
    masks = data["masks"].reshape(120, -1)
    p = actor.probs(obs, masks)[np.arange(120), data["actions"].reshape(-1)]
    # float32 probabilities: a log-probability near 0 is good to about 1e-7 absolute
    np.testing.assert_allclose(np.log(p), data["log_probs"].reshape(-1), rtol=1e-5, atol=1e-6)


def test_parallel_collect_joins_workers_in_env_order():
    env_id, n = "scallywags_v0", 2
    game = game_class(env_id)(n)
    kw = dict(env_id=env_id, num_players=n, weights={"snapshots": 1.0, "random": 1.0})
    actor = _actor(game.layout.size, game.num_actions, seed=3)
    results = []
    for _ in range(2):
        vec = ParallelSelfPlayVecEnv(env_id, n, 5, OpponentPool(**kw), kw, workers=2, seed=0)
        try:
            vec.add_snapshot(_actor(game.layout.size, game.num_actions), 0)
            vec.reset()
            vec.collect_async(actor, 40)
            with pytest.raises(RuntimeError, match="collecting"):
                vec.add_snapshot(actor, 1)
            with pytest.raises(RuntimeError, match="collecting"):
                vec.collect_async(actor, 40)
            data = vec.collect_wait()
            with pytest.raises(RuntimeError, match="no rollout"):
                vec.collect_wait()
            _check_rollout(data, 40, 5, game)
            assert vec.action_masks().shape == (5, game.num_actions)
            results.append(data)
            vec.collect_async(actor, 8)  # left in flight: close() must still stop cleanly
        finally:
            vec.close()
    for k in ("obs", "actions", "rewards", "dones"):
        np.testing.assert_array_equal(results[0][k], results[1][k])


def test_selfplay_ppo_fills_the_buffer_like_maskable_ppo(toy):
    """Values and log-probs in the buffer are the torch policy's on the recorded steps, and
    the sampled actions' numpy log-probs agree with torch's."""
    from plunder.training.selfplay.config import load_config
    from plunder.training.selfplay.train import _make_model, make_pool, make_vec_env

    cfg = load_config(toy, path=TOY_CONFIG, overrides=TINY)
    pool = make_pool(cfg)
    vec = make_vec_env(cfg, pool, 0)
    model = _make_model(cfg, vec, None)
    model._setup_learn(512, callback=None)
    from stable_baselines3.common.callbacks import BaseCallback

    class Count(BaseCallback):
        calls = 0

        def _on_step(self):
            Count.calls += 1
            return True

    cb = Count()
    cb.init_callback(model)
    assert model.collect_rollouts(vec, cb, model.rollout_buffer, cfg.ppo.n_steps)
    buf = model.rollout_buffer
    assert Count.calls == cfg.ppo.n_steps and model.num_timesteps == cfg.ppo.n_steps * 4
    obs = th.as_tensor(buf.observations.reshape(-1, buf.observations.shape[-1]))
    with th.no_grad():
        v, lp, _ = model.policy.evaluate_actions(
            obs, th.as_tensor(buf.actions.reshape(-1)),
            action_masks=buf.action_masks.reshape(len(obs), -1))
    np.testing.assert_allclose(buf.values.reshape(-1), v.numpy().ravel(), rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(buf.log_probs.reshape(-1), lp.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.slow                   # a whole training run: in CI's full run
def test_async_rollouts_train_repeatably_and_resume(tmp_path):
    """Scallywags (the toy game is not registered in worker processes), 2 workers."""
    from plunder.policies.onnx_policy import OnnxPolicy
    from plunder.training.selfplay.train import latest_checkpoint

    extra = ["vec_workers=2", "async_rollouts=true", "eval.final_games=4",
             "policy.kind=mlp"]
    probs = []
    for name in ("a", "b"):
        run = tmp_path / name
        res = run_cli(["train", "scallywags", "--steps", "2048",
                       "--run-dir", str(run), *set_args(TINY + extra)])
        assert res.exit_code == 0, res.output
        bot = OnnxPolicy(run / "bot.onnx", env_id="scallywags_v0", num_players=2)
        rng = np.random.default_rng(0)
        obs = rng.random((64, bot.meta["obs_size"]), dtype=np.float32)
        probs.append(bot.probs(obs, np.ones((64, bot.meta["num_actions"]), np.int8)))
    np.testing.assert_array_equal(probs[0], probs[1])
    res = run_cli(["train", "scallywags", "--steps", "3072", "--resume",
                   "--run-dir", str(tmp_path / "a"), *set_args(TINY + extra)])
    assert res.exit_code == 0, res.output
    assert latest_checkpoint(tmp_path / "a").meta["steps"] == 3072


def test_async_rollouts_correct_for_the_policy_lag():
    """The second rollout is played by the policy before the first update: the buffer holds
    the current (proximal) policy's log-probs, and advantages weighted by
    min(1, pi_now / pi_played)."""
    from stable_baselines3.common.callbacks import BaseCallback

    from plunder.training.selfplay.actors import actor_from_policy
    from plunder.training.selfplay.config import load_config
    from plunder.training.selfplay.train import _make_model, make_pool, make_vec_env

    cfg = load_config("scallywags", overrides=TINY + ["vec_workers=2", "async_rollouts=true",
                                                      "policy.kind=mlp"])
    pool = make_pool(cfg)
    vec = make_vec_env(cfg, pool, 0)
    try:
        model = _make_model(cfg, vec, None)
        model._setup_learn(10 * 512, callback=None)

        class Nothing(BaseCallback):
            def _on_step(self):
                return True

        cb = Nothing()
        cb.init_callback(model)
        buf = model.rollout_buffer
        assert model.collect_rollouts(vec, cb, buf, cfg.ppo.n_steps)
        assert vec.collecting  # the next rollout is already being played
        np.testing.assert_allclose(buf.advantages, buf.returns - buf.values, atol=1e-5)
        played = actor_from_policy(model.policy)
        with th.no_grad():  # stands in for a PPO update
            for p in model.policy.parameters():
                p.add_(th.randn_like(p) * 0.05)
        assert model.collect_rollouts(vec, cb, buf, cfg.ppo.n_steps)
        obs = buf.observations.reshape(-1, buf.observations.shape[-1])
        acts = buf.actions.reshape(-1).astype(np.int64)
        masks = buf.action_masks.reshape(len(obs), -1)
        with th.no_grad():
            _, lp_now, _ = model.policy.evaluate_actions(th.as_tensor(obs), th.as_tensor(acts),
                                                         action_masks=masks)
        lp_now = lp_now.numpy()
        np.testing.assert_allclose(buf.log_probs.reshape(-1), lp_now, rtol=1e-5, atol=1e-5)
        lp_played = np.log(played.probs(obs, masks)[np.arange(len(obs)), acts])
        weight = np.minimum(1.0, np.exp(lp_now - lp_played))
        assert weight.min() < 0.99  # the perturbation made a lag worth correcting
        np.testing.assert_allclose(buf.advantages.reshape(-1),
                                   (buf.returns - buf.values).reshape(-1) * weight,
                                   rtol=1e-4, atol=1e-5)
    finally:
        vec.close()


@pytest.mark.parametrize("truncation_reward", [None, -1.0])
def test_truncation_reward_replaces_the_standing_and_the_bootstrap(truncation_reward):
    """Games cut off by the turn limit pay ``ppo.truncation_reward`` when it is set, and
    their standing reward plus the discounted value of where they stopped otherwise."""
    from stable_baselines3.common.callbacks import BaseCallback

    from plunder.training.selfplay.config import load_config
    from plunder.training.selfplay.train import _make_model, make_pool, make_vec_env

    extra = ["vec_workers=1", "async_rollouts=false", "policy.kind=mlp", "max_turns=6",
             f"ppo.truncation_reward={'null' if truncation_reward is None else truncation_reward}"]
    cfg = load_config("scallywags", overrides=TINY + extra)
    vec = make_vec_env(cfg, make_pool(cfg), 0)
    model = _make_model(cfg, vec, None)
    model._setup_learn(512, callback=None)
    seen = {}
    collect = vec.collect

    def spy(actor, n_steps):
        data = collect(actor, n_steps)
        seen.update(data, standing=data["rewards"].copy())
        return data
    vec.collect = spy

    class Nothing(BaseCallback):
        def _on_step(self):
            return True
    cb = Nothing()
    cb.init_callback(model)
    assert model.collect_rollouts(vec, cb, model.rollout_buffer, cfg.ppo.n_steps)
    cut = [(t, i, info) for t, i, info in seen["ended"] if info["TimeLimit.truncated"]]
    assert cut, "max_turns=6 cuts games off"
    stored = model.rollout_buffer.rewards
    for t, i, info in cut:
        if truncation_reward is None:
            value = model._values(info["terminal_observation"][None])[0]
            assert stored[t, i] == pytest.approx(seen["standing"][t, i] + model.gamma * value,
                                                 abs=1e-5)
        else:
            assert stored[t, i] == truncation_reward
    # games that ended by the rules keep their reward
    for t, i, info in seen["ended"]:
        if not info["TimeLimit.truncated"]:
            assert stored[t, i] == seen["standing"][t, i]
