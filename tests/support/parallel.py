"""A parallel env wrapper for PettingZoo's parallel_api_test."""

from __future__ import annotations


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
