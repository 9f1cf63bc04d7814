"""The warm start's DAgger data: who plays the learner's seat, and how."""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs import game_class
from plunder.training.pretrain import collect_dagger_decisions
from plunder.training.selfplay_env import MlpActor


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
    rng = np.random.default_rng(0)
    d, a, h = game.layout.size, game.num_actions, 16
    actor = RecordingActor(MlpActor([(rng.normal(size=(d, h)), rng.normal(size=h))], "tanh",
                                    (rng.normal(size=(h, a)), rng.normal(size=a))))
    obs, masks, acts, targets = collect_dagger_decisions(
        "scallywags_v0", 2, {}, actor, samples=60, seed=1, greedy=greedy)
    assert len(obs) == len(acts) == 60 and set(actor.greedy_flags) == {greedy}
    assert masks[np.arange(60), acts].all()          # the heuristic's labels are legal
    assert np.all(np.abs(targets) <= 1)
