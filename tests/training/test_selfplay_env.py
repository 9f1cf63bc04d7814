"""The learner-vs-pool environments."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check
from stable_baselines3.common.env_checker import check_env as sb3_check

from plunder.envs import ENV_IDS, game_class, make
from plunder.envs.core import InvalidArgumentError
from plunder.training.evaluation import play_game
from plunder.training.selfplay.selfplay_env import (MlpActor, OpponentPool, SelfPlayEnv,
                                           SelfPlayVecEnv)


def _actor(d, a, seed=0, hidden=16):
    rng = np.random.default_rng(seed)
    return MlpActor([(rng.normal(size=(d, hidden)), rng.normal(size=hidden))], "tanh",
                    (rng.normal(size=(hidden, a)), rng.normal(size=a)))


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_env_checkers_pass(env_id):
    cls = game_class(env_id)
    for n in sorted({cls.min_players, min(cls.max_players, 4)}):
        env = SelfPlayEnv(env_id, n, opponents={"random": 1.0, "heuristic": 1.0}, seed=0)
        gym_check(env, skip_render_check=True)
        sb3_check(env, warn=True)


def test_env_checkers_pass_on_simultaneous_toy(toy):
    for n in (2, 3, 4):
        env = SelfPlayEnv(toy, n, opponents={"random": 1.0, "heuristic": 1.0}, seed=0)
        gym_check(env, skip_render_check=True)
        sb3_check(env, warn=True)


def test_learner_acts_whenever_asked_toy(toy):
    """2 players, 6 rounds: 6 simultaneous picks + 2 naming steps in its 3 leading rounds."""
    env = SelfPlayEnv(toy, 2, opponents=["random"], seed=1)
    rng = np.random.default_rng(0)
    for _ in range(20):
        env.reset()
        done, steps = False, 0
        while not done:
            mask = env.action_masks()
            assert mask.any()
            _, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
            done = term or trunc
        assert steps == 12 == info["episode"]["l"]
        assert r in (-1.0, 0.0, 1.0) and not env.action_masks().any()


def test_every_seat_is_drawn_and_rewards_are_rank_rewards():
    env = SelfPlayEnv("scallywags_v0", 3, opponents=["random"], seed=3)
    rng = np.random.default_rng(0)
    seats = set()
    for _ in range(30):
        _, info = env.reset()
        seats.add(info["learner_seat"])
        done = False
        while not done:
            a = int(rng.choice(np.flatnonzero(env.action_masks())))
            _, r, term, trunc, info = env.step(a)
            done = term or trunc
            if not done:
                assert r == 0.0          # rank rewards come at the end of the game only
        assert r in (-1.0, -0.5, 0.0, 0.5, 1.0)
        assert info["seats"][info["learner_seat"]] == "learner"
    assert seats == {0, 1, 2}


def test_vec_env_batches_snapshots_and_stays_legal():
    env_id, n = "scallywags_v0", 4
    game = game_class(env_id)(n)
    pool = OpponentPool(env_id, n, weights={"snapshots": 1.0, "random": 0.5})
    pool.add_snapshot(_actor(game.layout.size, game.num_actions, 1), 0)
    pool.add_snapshot(_actor(game.layout.size, game.num_actions, 2), 1)
    vec = SelfPlayVecEnv(env_id, n, 6, pool, seed=0)
    calls = []
    for snap in pool.snapshots:
        orig = snap.act_batch
        snap.act_batch = lambda o, m, r, orig=orig: calls.append(len(o)) or orig(o, m, r)
    obs = vec.reset()
    assert obs.shape == (6, game.layout.size)
    rng = np.random.default_rng(0)
    done_games = 0
    for _ in range(400):
        masks = vec.action_masks()
        assert masks.shape == (6, game.num_actions) and masks.any(axis=1).all()
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rew, dones, infos = vec.step(acts)
        for d, info in zip(dones, infos):
            if d:
                done_games += 1
                assert "terminal_observation" in info and "episode" in info
    assert done_games > 0 and max(calls) > 1   # several seats answered per forward pass


def test_mlp_actor_samples_only_legal_actions():
    actor = _actor(5, 7)
    rng = np.random.default_rng(0)
    obs = rng.normal(size=(500, 5))
    masks = rng.random((500, 7)) < 0.3
    masks[np.arange(500), rng.integers(0, 7, 500)] = True
    for greedy in (False, True):
        acts = actor.act_batch(obs, masks, rng, greedy)
        assert masks[np.arange(500), acts].all()
    pool = OpponentPool("scallywags_v0", 2)
    pool.add_snapshot(actor, 5)
    pool2 = OpponentPool("scallywags_v0", 2)
    pool2.load_state_dict(pool.state_dict())
    assert pool2.snapshots[0].step == 5
    np.testing.assert_array_equal(pool2.snapshots[0].actor.logits(obs), actor.logits(obs))


def test_pool_pickles_with_its_bot_factories():
    import pickle

    pool = OpponentPool("scallywags_v0", 2, weights={"random": 1.0, "heuristic": 1.0})
    copy = pickle.loads(pickle.dumps(pool))
    env = make("scallywags_v0", num_players=2)
    env.reset(seed=0)
    observation = env.observe(env.agent_selection)
    for kind in ("random", "heuristic"):
        bot, twin = pool.members[kind][0].make(4), copy.members[kind][0].make(4)
        assert type(bot) is type(twin)
        assert bot.act(observation["observation"], observation["action_mask"]) == \
            twin.act(observation["observation"], observation["action_mask"])


def test_pool_sampling_weights_and_recency():
    pool = OpponentPool("scallywags_v0", 2, weights={"random": 1.0, "snapshots": 3.0},
                        recency=0.5)
    rng = np.random.default_rng(0)
    assert {pool.sample(rng).kind for _ in range(50)} == {"random"}   # no snapshot yet
    for k in range(3):
        pool.add_snapshot(_actor(962, 65, k), k)
    names = [pool.sample(rng).name for _ in range(4000)]
    share = names.count("random") / len(names)
    assert 0.2 < share < 0.3
    newest, oldest = names.count("snapshot@2"), names.count("snapshot@0")
    assert 3 < newest / oldest < 5.5      # recency 0.5: weights 1, 0.5, 0.25


def _opponent_tables(whole_table, games=300):
    """Per game, the kinds sitting in the three other seats of a 4-player table."""
    env = SelfPlayEnv("scallywags_v0", 4, opponents={"random": 1.0, "heuristic": 1.0},
                      seed=5, whole_table=whole_table)
    tables = []
    for _ in range(games):
        _, info = env.reset()
        tables.append(tuple(s for s in info["seats"] if s != "learner"))
    return tables


def test_whole_table_draws_one_opponent_for_every_other_seat():
    whole = _opponent_tables(1.0)
    assert all(len(set(t)) == 1 for t in whole)
    assert {t[0] for t in whole} == {"random", "heuristic"}
    mixed = _opponent_tables(0.0)
    assert 0.6 < sum(len(set(t)) > 1 for t in mixed) / len(mixed) < 0.9   # 1 - 2 / 8
    half = _opponent_tables(0.5)
    assert 0.3 < sum(len(set(t)) > 1 for t in half) / len(half) < 0.5
    with pytest.raises(InvalidArgumentError, match="whole_table is a probability"):
        OpponentPool("scallywags_v0", 4, weights={"random": 1.0}, whole_table=1.5)


def test_engine_play_matches_the_aec_env_seeding():
    """``play_game`` deals the same game as the AEC env's reset(seed)."""
    env_id = "scallywags_v0"
    game = game_class(env_id)(2)
    env = make(env_id, raw=True, num_players=2)
    env.reset(seed=123)
    seen = []

    class Spy:
        def reset(self):
            pass

        def act(self, obs, mask):
            seen.append(obs.copy())
            return int(np.flatnonzero(mask)[0])

    play_game(game, [Spy(), Spy()], 123, 1)
    first = env.observe(env.agent_selection)["observation"]
    np.testing.assert_array_equal(seen[0], first)


def test_illegal_action_ends_the_game_with_a_penalty_or_raises():
    from plunder.envs.core import IllegalActionError

    env = SelfPlayEnv("scallywags_v0", 2, opponents=["random"], seed=0)
    env.reset()
    bad = int(np.flatnonzero(~env.action_masks())[0])
    _, r, term, trunc, info = env.step(bad)
    assert (r, term, trunc, info["illegal_action"]) == (-1.0, True, False, bad)
    env = SelfPlayEnv("scallywags_v0", 2, opponents=["random"], seed=0,
                      illegal_action="raise")
    env.reset()
    with pytest.raises(IllegalActionError, match="illegal action"):
        env.step(bad)


def test_parallel_vec_env_matches_shapes_and_takes_snapshots():
    from plunder.training.selfplay.selfplay_env import ParallelSelfPlayVecEnv

    env_id, n = "scallywags_v0", 2
    game = game_class(env_id)(n)
    kw = dict(env_id=env_id, num_players=n, weights={"snapshots": 1.0, "random": 1.0})
    pool = OpponentPool(**kw)
    vec = ParallelSelfPlayVecEnv(env_id, n, 5, pool, kw, workers=2, seed=0)
    try:
        vec.add_snapshot(_actor(game.layout.size, game.num_actions), 0)
        assert len(pool.snapshots) == 1
        obs = vec.reset()
        assert obs.shape == (5, game.layout.size)
        rng = np.random.default_rng(0)
        ended = 0
        for _ in range(60):
            masks = np.stack(vec.env_method("action_masks"))
            acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            obs, rew, dones, infos = vec.step(acts)
            ended += int(dones.sum())
        assert ended > 0 and len(infos) == 5
    finally:
        vec.close()
