"""Shared fixtures and options for the plunder test suite."""

from __future__ import annotations

import importlib.util

import numpy as np
import pettingzoo
import pytest

# the test helpers' asserts are rewritten like the tests' own, so they still check under
# python -O (CI runs the state-loading and replay tests that way)
pytest.register_assert_rewrite("tests.state_load", "tests.all_hands_crew.helpers")

from plunder.envs import spec, specs  # noqa: E402


def player_counts(env_id: str) -> list[int]:
    """Every supported player count of ``env_id`` (its spec's)."""
    return list(spec(env_id).player_counts)


def pytest_report_header(config) -> list[str]:
    """Say which optional parts of the suite this install leaves out."""
    missing = [m for m in ("sb3_contrib", "onnxruntime") if importlib.util.find_spec(m) is None]
    if missing:
        return [f"tests/training not collected: {', '.join(missing)} missing (the train "
                f"extra); the envs' and bots' tests run"]
    return []


#: PettingZoo's registry (``pettingzoo.make``, ``register``, ``spec``) came with 1.27; the
#: core install admits pettingzoo 1.24, where importing plunder.envs registers nothing
HAS_PZ_REGISTRY = hasattr(pettingzoo, "register")
needs_pz_registry = pytest.mark.skipif(not HAS_PZ_REGISTRY,
                                       reason="PettingZoo's registry needs pettingzoo>=1.27")


#: (env_id, num_players) for every registered game and supported count
GAME_COUNTS = [(s.env_id, n) for s in specs() for n in s.player_counts]
SIMULTANEOUS_COUNTS = [(e, n) for e, n in GAME_COUNTS if spec(e).simultaneous]


def random_playout_states(game, seed: int, max_steps: int = 5000, every: int = 1):
    """States along one random legal playout (a clone of each), ending at terminal."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(np.random.default_rng(seed + 1))
    out = [state.clone()]
    steps = 0
    while not state.is_terminal() and steps < max_steps:
        joint = {}
        for p in state.current_players():
            legal = np.flatnonzero(state.legal_actions_mask(p))
            assert len(legal) > 0, f"player {p} must act but has no legal action"
            joint[p] = int(rng.choice(legal))
        state.apply_joint(joint)
        steps += 1
        if steps % every == 0:
            out.append(state.clone())
    return out


class MaskedSamplingParallelEnv:
    """Parallel env whose action spaces sample with the current masks.

    parallel_api_test samples unmasked actions; plunder raises on illegal actions, so the
    spaces handed to the test sample legal ones for acting agents.
    """

    def __init__(self, env):
        self._env = env
        self._masks = {}
        self._spaces = {}

    def __getattr__(self, name):
        return getattr(self._env, name)

    def reset(self, *a, **kw):
        obs, infos = self._env.reset(*a, **kw)
        self._masks = {k: o["action_mask"] for k, o in obs.items()}
        return obs, infos

    def step(self, actions):
        out = self._env.step(actions)
        self._masks = {k: o["action_mask"] for k, o in out[0].items()}
        return out

    def action_space(self, agent):
        if agent in self._spaces:
            return self._spaces[agent]
        space = self._env.action_space(agent)
        owner = self

        class _Masked(type(space)):
            def sample(self, mask=None):
                m = owner._masks.get(agent)
                if m is not None and m.any():
                    return space.sample(m)
                return 0

        self._spaces[agent] = _Masked(space.n)
        return self._spaces[agent]
