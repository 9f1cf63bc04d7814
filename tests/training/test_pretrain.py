"""The warm start's data: who plays the learner's seat, and how; collections in parts."""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs import game_class
from plunder.training.selfplay.pretrain import (collect_dagger_decisions, collect_heuristic_decisions,
                                         collect_in_parts)
from plunder.training.selfplay.selfplay_env import MlpActor


def _random_actor(game, seed=0):
    """A small MLP actor with random weights."""
    rng = np.random.default_rng(seed)
    d, a, h = game.layout.size, game.num_actions, 16
    return MlpActor([(rng.normal(size=(d, h)), rng.normal(size=h))], "tanh",
                    (rng.normal(size=(h, a)), rng.normal(size=a)))


class RecordingActor:
    """An actor that notes how it was asked to act (greedy or sampling)."""

    def __init__(self, actor):
        self.actor, self.greedy_flags = actor, []

    def act_batch(self, obs, masks, rng=None, greedy=False):
        """Delegate, remembering ``greedy``."""
        self.greedy_flags.append(greedy)
        return self.actor.act_batch(obs, masks, rng, greedy)


@pytest.mark.parametrize("greedy", [False, True])
def test_dagger_learner_plays_as_asked_and_labels_are_legal(greedy):
    game = game_class("scallywags_v0")(2)
    actor = RecordingActor(_random_actor(game))
    obs, masks, acts, targets, weights = collect_dagger_decisions(
        "scallywags_v0", 2, {}, actor, samples=60, seed=1, greedy=greedy)
    assert (weights == 1).all()                      # the heuristic teaches: all alike
    assert len(obs) == len(acts) == 60 and set(actor.greedy_flags) == {greedy}
    assert masks[np.arange(60), acts].all()          # the heuristic's labels are legal
    assert np.all(np.abs(targets) <= 1)


def _same(a, b):
    return all(np.array_equal(x, y) for x, y in zip(a, b))


def test_one_part_is_the_plain_collection():
    kwargs = {"env_id": "scallywags_v0", "num_players": 2, "options": {}}
    plain = collect_heuristic_decisions(**kwargs, samples=80, seed=5)
    assert _same(collect_in_parts(collect_heuristic_decisions, kwargs, 80, 5), plain)


def test_parts_depend_on_their_count_not_on_the_workers():
    game = game_class("scallywags_v0")(3)
    kwargs = {"env_id": "scallywags_v0", "num_players": 3, "options": {},
              "actor": _random_actor(game), "greedy": True}
    alone = collect_in_parts(collect_dagger_decisions, kwargs, 101, 9, parts=3, workers=1)
    side_by_side = collect_in_parts(collect_dagger_decisions, kwargs, 101, 9, parts=3,
                                    workers=2)
    assert len(alone[0]) == 101 and _same(alone, side_by_side)
    one_part = collect_in_parts(collect_dagger_decisions, kwargs, 101, 9)
    assert len(one_part[0]) == 101 and not _same(alone, one_part)


def _small_model(kind: str):
    """A Scallywags 2-player model with a small network (built as a run builds it)."""
    from plunder.training.selfplay.config import load_config
    from plunder.training.selfplay.train import _make_model, make_pool, make_vec_env

    cfg = load_config("scallywags_v0", overrides=[
        "num_players=2", "n_envs=8", "vec_workers=1", "async_rollouts=false",
        "ppo.n_steps=128", "ppo.batch_size=256", "tensorboard=false", "progress_bar=false",
        f"policy.kind={kind}", "policy.net_arch=[32, 32]", "policy.entity_dim=8"])
    vec = make_vec_env(cfg, make_pool(cfg), 0)
    return _make_model(cfg, vec, None), vec


@pytest.mark.parametrize("kind", ["mlp", "entity"])
def test_smoothing_terms_are_the_policys_own(kind):
    """The smoothed loss's forward pass gives evaluate_actions' values and log-probs, and
    the mean log-probability over exactly the legal actions."""
    import torch

    from plunder.training.selfplay.pretrain import _smoothing_terms

    model, vec = _small_model(kind)
    try:
        obs, masks, acts, *_ = collect_heuristic_decisions("scallywags_v0", 2, {}, 200, 3)
        o, a = torch.as_tensor(obs), torch.as_tensor(acts)
        with torch.no_grad():
            v, lp, _ = model.policy.evaluate_actions(o, a, action_masks=masks)
            v2, lp2, legal_mean = _smoothing_terms(model.policy, o, a, masks)
            probs = model.policy.get_distribution(o, action_masks=masks).distribution.probs
        assert torch.equal(v, v2) and torch.equal(lp, lp2)
        logp = np.log(np.where(masks, probs.numpy().astype(np.float64), 1.0))
        expected = [logp[i, masks[i]].mean() for i in range(len(acts))]
        np.testing.assert_allclose(legal_mean.numpy(), expected, rtol=1e-4)
    finally:
        vec.close()


def _fitted_probs(smoothing: float, data):
    """Action probabilities after imitating ``data`` with ``smoothing``."""
    import torch

    from plunder.training.selfplay.pretrain import imitate

    model, vec = _small_model("mlp")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)    # a tiny network: more threads only wait on each other
    try:
        imitate(model, data, epochs=100, batch_size=32, learning_rate=3e-3, seed=0,
                echo=lambda _: None, label_smoothing=smoothing)
        with torch.no_grad():
            return model.policy.get_distribution(
                torch.as_tensor(data[0]), action_masks=data[1]).distribution.probs.numpy()
    finally:
        torch.set_num_threads(threads)
        vec.close()


def test_label_smoothing_fits_the_smoothed_target():
    """Fitted to one labelled decision per state, the policy approaches 1 - e on the label
    plus e spread evenly over the legal moves (plain imitation: the label alone), and
    keeps no probability on illegal moves."""
    obs, masks, acts, values, weights = collect_heuristic_decisions("scallywags_v0", 2, {},
                                                                    200, 4)
    pick = [i for i in range(len(acts)) if masks[i].sum() >= 4][:3]   # real choices
    data = tuple(np.repeat(x[pick], 32, axis=0) for x in (obs, masks, acts, values, weights))
    rows = np.arange(len(data[2]))
    legal = data[1].sum(1)
    plain = _fitted_probs(0.0, data)
    assert plain[~data[1]].max() < 1e-6 and plain[rows, data[2]].min() > 0.9
    smoothing = 0.3
    probs = _fitted_probs(smoothing, data)
    assert probs[~data[1]].max() < 1e-6
    label = probs[rows, data[2]]
    np.testing.assert_allclose(label, 1 - smoothing + smoothing / legal, atol=0.05)
    others = np.where(data[1], probs, 0.0)
    others[rows, data[2]] = 0.0
    spread = np.where(data[1], smoothing / legal[:, None], 0.0)
    spread[rows, data[2]] = 0.0
    np.testing.assert_allclose(others, spread, atol=0.03)


def test_label_smoothing_must_be_below_one():
    from plunder.envs.core import ConfigError
    from plunder.training.selfplay.config import load_config

    for bad in ("-0.1", "1.0"):
        with pytest.raises(ConfigError, match="label_smoothing"):
            load_config("scallywags_v0", overrides=[f"pretrain.label_smoothing={bad}"])


# -- the teacher: the heuristic, or the game's planner bot ------------------------------

class RecordingBot:
    """Wraps a scripted bot class; every instance notes the labels it hands out."""

    def __init__(self, cls):
        self.cls, self.made = cls, []

    def __call__(self, game, seed=None):
        bot = self.cls(game, seed=seed)
        bot.moves = []
        act = bot.act

        def noted(obs, mask):
            move = act(obs, mask)
            bot.moves.append(move)
            return move
        bot.act = noted
        self.made.append(bot)
        return bot


def test_the_planner_teaches_the_warm_start(monkeypatch):
    """``teacher="planner"``: the planner plays every seat of the imitation games; in
    DAgger games it labels the learner's states while heuristic bots sit opposite."""
    from plunder.policies import base
    from plunder.policies.anchors_aweigh_heuristic import AnchorsAweighHeuristic
    from plunder.policies.anchors_aweigh_planner import AnchorsAweighPlanner

    planner, heuristic = RecordingBot(AnchorsAweighPlanner), RecordingBot(AnchorsAweighHeuristic)
    monkeypatch.setattr(base, "planner_class", lambda env_id: planner)
    monkeypatch.setattr(base, "heuristic_class", lambda env_id: heuristic)
    kwargs = {"env_id": "anchors_aweigh_v0", "num_players": 2, "options": {},
              "teacher": "planner"}
    _, masks, acts, _, weights = collect_heuristic_decisions(**kwargs, samples=300, seed=2)
    assert not heuristic.made and len(planner.made) == 2
    assert sum(len(b.moves) for b in planner.made) >= 300      # every label is the planner's
    assert masks[np.arange(300), acts].all() and (weights == 1).all()
    planner.made.clear()
    game = game_class("anchors_aweigh_v0")(2)
    _, masks, acts, _, _ = collect_dagger_decisions(**kwargs, actor=_random_actor(game),
                                                 samples=200, seed=3)
    assert len(planner.made) == 1 and len(heuristic.made) == 2      # teacher + opponents
    assert list(acts) == planner.made[0].moves[:200]
    assert masks[np.arange(200), acts].all()


@pytest.mark.parametrize("dagger", [False, True])
def test_the_decisions_where_the_planner_differs_from_the_heuristic_weigh_more(dagger):
    """With ``contrast_weight`` w, a label weighs w exactly where the heuristic bot would
    have chosen otherwise. (In the perfect-recall variant, where warm starts with
    ``recall`` play, the heuristic's card memory is rebuilt from each observation, so its
    choice can be asked of the observation alone.)"""
    from plunder.policies.anchors_aweigh_heuristic import AnchorsAweighHeuristic

    options = {"perfect_recall": True}
    game = game_class("anchors_aweigh_v0")(2, **options)
    kwargs = {"env_id": "anchors_aweigh_v0", "num_players": 2, "options": options,
              "teacher": "planner", "samples": 400, "seed": 4}
    if dagger:
        kwargs["actor"] = _random_actor(game)
    collect = collect_dagger_decisions if dagger else collect_heuristic_decisions
    obs, masks, acts, _, plain = collect(**kwargs)
    obs_w, _, acts_w, _, weights = collect(**kwargs, contrast_weight=4.0)
    assert np.array_equal(obs, obs_w) and np.array_equal(acts, acts_w)   # the same games
    assert (plain == 1).all() and set(np.unique(weights)) == {1.0, 4.0}
    heuristic = AnchorsAweighHeuristic(game, seed=0)
    differs = [int(heuristic.act(o, m)) != a for o, m, a in zip(obs, masks, acts)]
    assert np.array_equal(weights == 4.0, np.array(differs))


def test_weighted_imitation_fits_the_heavier_label():
    """Each state labelled twice, 16 times with one move weighing 3 and 16 times with
    another weighing 1: the fit gives the first about 3/4."""
    obs, masks, acts, values, _ = collect_heuristic_decisions("scallywags_v0", 2, {}, 200, 4)
    pick = [i for i in range(len(acts)) if masks[i].sum() >= 4][:3]
    other = [int(np.flatnonzero(masks[i] & (np.arange(masks.shape[1]) != acts[i]))[0])
             for i in pick]
    labels = np.concatenate([[acts[i]] * 16 + [o] * 16 for i, o in zip(pick, other)])
    weights = np.tile(np.r_[np.full(16, 3.0), np.ones(16)], len(pick)).astype(np.float32)
    data = (np.repeat(obs[pick], 32, axis=0), np.repeat(masks[pick], 32, axis=0),
            labels.astype(np.int64), np.repeat(values[pick], 32), weights)
    probs = _fitted_probs(0.0, data)
    heavy = np.repeat(acts[pick], 32)
    np.testing.assert_allclose(probs[np.arange(len(heavy)), heavy], 0.75, atol=0.06)
