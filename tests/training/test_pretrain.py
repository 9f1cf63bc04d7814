"""The warm start's data: who plays the learner's seat, and how; collections in parts."""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs import game_class
from plunder.training.pretrain import (collect_dagger_decisions, collect_heuristic_decisions,
                                         collect_in_parts)
from plunder.training.selfplay_env import MlpActor


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
    obs, masks, acts, targets = collect_dagger_decisions(
        "scallywags_v0", 2, {}, actor, samples=60, seed=1, greedy=greedy)
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
