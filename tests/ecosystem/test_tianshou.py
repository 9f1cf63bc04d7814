"""Tianshou's PettingZooEnv wrapper, collector and replay buffer over plunder's AEC envs:
a DQN learner against a masked random opponent (the docs' example), and thousands of
collected steps of every game whose infos must reach the buffer unchanged."""

from __future__ import annotations

import copy

import numpy as np
import pettingzoo
import pytest

tianshou = pytest.importorskip("tianshou", reason="Tianshou is in the 'ecosystem' extra")

from tianshou.algorithm import (  # noqa: E402
    MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm,
)
from tianshou.data import Collector, CollectStats, VectorReplayBuffer  # noqa: E402
from tianshou.env import DummyVectorEnv  # noqa: E402
from tianshou.env.pettingzoo_env import PettingZooEnv  # noqa: E402

from plunder.envs import ENV_IDS, pettingzoo_id  # noqa: E402

from .doc_examples import run_doc_example  # noqa: E402

NUM_ENVS = 4


class _RecordingEnv(PettingZooEnv):
    """Tianshou's wrapper, keeping the info it returned at the end of each game."""

    def __init__(self, env):
        super().__init__(env)
        self.final_infos = []

    def step(self, action):
        """Step as Tianshou does; remember the final info."""
        obs, rewards, term, trunc, info = super().step(action)
        if term or trunc:
            self.final_infos.append(copy.deepcopy(info))
        return obs, rewards, term, trunc, info


def _collect(env_id, num_players, steps, max_cycles=None):
    """Random masked play through Tianshou's collector: (stats, buffer, the envs)."""
    def make_env():
        """A recording Tianshou env over a registry-made plunder env."""
        return _RecordingEnv(pettingzoo.make("aec", pettingzoo_id(env_id),
                                             num_players=num_players, max_cycles=max_cycles))

    env = make_env()
    algorithm = MultiAgentOffPolicyAlgorithm(
        algorithms=[MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
                    for _ in env.agents], env=env)
    envs = DummyVectorEnv([make_env for _ in range(NUM_ENVS)])
    envs.seed(0)
    np.random.seed(0)
    buffer = VectorReplayBuffer(steps + 1000, NUM_ENVS)
    collector = Collector[CollectStats](algorithm, envs, buffer, exploration_noise=True)
    collector.reset()
    stats = collector.collect(n_step=steps)
    return stats, buffer, [w.env for w in envs.workers]


#: (game, max_cycles): long games are truncated so that several end within the steps
COLLECT_CASES = [("scallywags_v0", None), ("shipshape_v0", None), ("all_hands_crew_v0", None),
                 ("anchors_aweigh_v0", 40), ("all_hands_battle_v0", 40)]


def test_collect_cases_cover_every_game():
    assert sorted(e for e, _ in COLLECT_CASES) == sorted(ENV_IDS)


@pytest.mark.parametrize("env_id,max_cycles", COLLECT_CASES)
def test_collector_stores_every_final_info_unchanged(env_id, max_cycles):
    """Tianshou sizes each info key's storage from its first value: every key must keep
    its shape (ties, truncations, every player count), or the collector crashes or cuts
    values. Each game's final info in the buffer equals what the env returned."""
    stats, buffer, envs = _collect(env_id, 4, 3000, max_cycles)
    assert stats.n_collected_steps >= 3000
    finished = 0
    for sub_buffer, env in zip(buffer.buffers, envs):
        ends = np.flatnonzero(sub_buffer.done[:len(sub_buffer)])
        assert len(ends) == len(env.final_infos)
        for index, info in zip(ends, env.final_infos):
            stored = sub_buffer.info[index]
            for key, value in info.items():
                np.testing.assert_array_equal(stored[key], np.asarray(value), err_msg=key)
            finished += 1
    assert finished > 0


def test_ties_reach_the_buffer():
    """4-player Scallywags ties now and then (shared first place): the collector must
    store those games' infos like any other (the bug this guards: a winners list whose
    length changed at a tie crashed Tianshou's buffer)."""
    _, buffer, envs = _collect("scallywags_v0", 4, 3000)
    rewards = buffer.rew[buffer.done]                       # (games, seats): final rewards
    ties = sum(int(np.sum(r == r.max()) > 1) for r in rewards)
    assert ties > 0, "no tie in 3000 steps: raise the step count"
    assert sum(len(e.final_infos) for e in envs) == len(rewards)


def test_doc_example_tianshou():
    namespace = run_doc_example("tianshou")
    result = namespace["result"]
    assert result.train_step >= 400 and result.update_step > 0
