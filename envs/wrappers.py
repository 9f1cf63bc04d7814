"""PettingZoo wrappers for libraries that read the action mask from the info dictionary.

plunder's envs give each agent a ``Dict`` observation, ``{"observation": vector,
"action_mask": int8 vector}`` (PettingZoo's convention). Some libraries (AgileRL) want the
observation to be the vector alone and the mask in ``infos[agent]["action_mask"]``:

    from plunder.envs import make, make_parallel
    from plunder.envs.wrappers import mask_in_info

    aec = mask_in_info(make("scallywags_v0", num_players=2))
    par = mask_in_info(make_parallel("shipshape_v0", num_players=3))

The wrapped env's observation space is the vector's ``Box``; every info it hands out
(``last()``, ``infos``, ``reset()``/``step()`` of the parallel form) holds the agent's
``action_mask`` (int8, 1 = legal), all zeros for an agent that is not asked to act or
whose game is over. Everything else (rewards, terminations, ``state()``) is the env's.
:func:`masks_as_lists` turns the masks of an info dictionary into Python lists, the
form AgileRL 2.58's IPPO needs (docs/ecosystem.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import BaseParallelWrapper, BaseWrapper

from .core.errors import InvalidArgumentError


def _key(env) -> str:
    return getattr(env.unwrapped, "observation_key", "observation")


class MaskInInfoAEC(BaseWrapper):
    """The AEC form: ``observe`` gives the vector, the infos hold ``action_mask``.

    The infos are built once per state (after each ``reset``/``step`` through the
    wrapper), so ``last()``'s info is the very dict in ``infos`` (PettingZoo's
    ``api_test`` compares them with ``==``, which arrays inside would break otherwise)."""

    def __init__(self, env: AECEnv):
        super().__init__(env)
        self._spaces: dict[str, Any] = {}
        self._infos: dict | None = None

    def observation_space(self, agent):
        """The observation vector's space (the Dict's observation entry)."""
        if agent not in self._spaces:
            self._spaces[agent] = self.env.observation_space(agent)[_key(self.env)]
        return self._spaces[agent]

    def observe(self, agent):
        """The agent's observation vector."""
        observation = self.env.observe(agent)
        return None if observation is None else observation[_key(self.env)]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game."""
        self._infos = None
        self.env.reset(seed=seed, options=options)

    def step(self, action) -> None:
        """The env's step."""
        self._infos = None
        self.env.step(action)

    @property
    def infos(self) -> dict:
        """The env's infos, each with its agent's ``action_mask``."""
        if self._infos is None:
            self._infos = {
                agent: {**info, "action_mask": np.asarray(
                    self.env.observe(agent)["action_mask"], np.int8)}
                for agent, info in self.env.infos.items()}
        return self._infos

    def last(self, observe: bool = True):
        """Like ``AECEnv.last``, the info holding the acting agent's ``action_mask``."""
        agent = self.agent_selection
        observation = self.observe(agent) if observe else None
        return (observation, self.env._cumulative_rewards[agent],
                self.env.terminations[agent], self.env.truncations[agent],
                self.infos[agent])


class MaskInInfoParallel(BaseParallelWrapper):
    """The parallel form: observations are vectors, every info holds ``action_mask``."""

    def __init__(self, env: ParallelEnv):
        super().__init__(env)
        self._spaces: dict[str, Any] = {}

    def observation_space(self, agent):
        """The observation vector's space (the Dict's observation entry)."""
        if agent not in self._spaces:
            self._spaces[agent] = self.env.observation_space(agent)[_key(self.env)]
        return self._spaces[agent]

    def _split(self, observations: dict, infos: dict):
        key = _key(self.env)
        out_obs, out_infos = {}, {}
        for agent, observation in observations.items():
            out_obs[agent] = observation[key]
            out_infos[agent] = {**infos.get(agent, {}),
                                "action_mask": np.asarray(observation["action_mask"], np.int8)}
        return out_obs, out_infos

    def reset(self, seed: int | None = None, options: dict | None = None):
        """``(observations, infos)``, the masks in the infos."""
        observations, infos = self.env.reset(seed=seed, options=options)
        self.agents = self.env.agents       # PettingZoo 1.24's wrapper base reads it so
        return self._split(observations, infos)

    def step(self, actions: dict):
        """The env's step, the masks moved into the infos."""
        observations, rewards, terminations, truncations, infos = self.env.step(actions)
        self.agents = self.env.agents
        observations, infos = self._split(observations, infos)
        return observations, rewards, terminations, truncations, infos


def mask_in_info(env):
    """``env`` (a plunder AEC or parallel env, wrapped or not) with its action masks in
    the info dictionary and its observations the bare vectors."""
    if isinstance(env, AECEnv):
        return MaskInInfoAEC(env)
    if isinstance(env, ParallelEnv):
        return MaskInInfoParallel(env)
    raise InvalidArgumentError(f"mask_in_info takes a PettingZoo AEC or parallel env, got "
                               f"{type(env).__name__}")


def masks_as_lists(infos: dict) -> dict:
    """``infos`` with each ``action_mask`` as a Python list, the rest as it is.
    AgileRL 2.58's IPPO tests ``None in masks`` over the masks it collects, which fails
    for numpy arrays (``ValueError: The truth value of an array ... is ambiguous``) and
    works for lists; the tensor it then builds is the same. For one env's infos (a mask
    vector per agent): newer AgileRL releases read a list of lists as no mask."""
    return {agent: ({**info, "action_mask": np.asarray(info["action_mask"]).tolist()}
                    if isinstance(info, dict) and "action_mask" in info else info)
            for agent, info in infos.items()}
