"""One learner seat against bots, as a single-agent Gymnasium env (core install only).

Importing :mod:`plunder.envs` registers every game with Gymnasium as
``plunder/<game>-v0`` (the same ids as PettingZoo's registry), so::

    import gymnasium
    import plunder.envs  # noqa: F401  (registers plunder/<game>-v0 with Gymnasium)

    env = gymnasium.make("plunder/scallywags-v0", num_players=4,
                         opponents=["heuristic", "random", "level:casual"])

The learner plays one seat (``learner_seat``, or drawn for every game from the env's
seeded generator); every other seat is a bot built by
:func:`plunder.policies.base.make_bot` from its spec (``random``, ``heuristic``,
``pretrained``, ``level:NAME``, ``trained:PATH.onnx``, ...). ``opponents`` is one spec for
every other seat or a list with one spec per other seat, in seat order with the learner's
seat left out. Other keywords are the game's options (as the env and ``make_bot`` take them).
The bots answer between the learner's decisions, through the game's AEC env, so
simultaneous decisions are taken one seat at a time and nobody sees a pending choice.

- observation: the learner's flat float32 vector (``Box``); action: ``Discrete``;
- ``action_masks()`` (what sb3-contrib's MaskablePPO calls) and ``info["action_mask"]``
  give the legal actions (bool), at reset and after every step;
- reward: the learner's end-of-game reward under ``reward_mode`` (0 before the end); an illegal learner action ends the game with reward
  ``illegal_reward`` (default -1, like PettingZoo's ``TerminateIllegalWrapper``) and
  ``info["illegal_action"]``; ``illegal_reward=None`` raises instead.

The env pickles (mid-game too: the game, the bots and the generators; a network bot
reopens its file), so Gymnasium's ``AsyncVectorEnv`` and other worker-process samplers
take it. It imports neither torch nor Stable-Baselines3; network bots need onnxruntime
(the ``onnx`` extra).
"""

from __future__ import annotations

from collections.abc import Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

from plunder.envs.core import IllegalActionError, InvalidArgumentError
from plunder.envs.core.registry import game_class, make, resolve_env_id

from .base import choose_action, make_bot


class VersusBotsEnv(gymnasium.Env):
    """A Gymnasium env: the learner at one seat of ``env_id``, bots at the others."""

    metadata = {"render_modes": []}

    def __init__(self, env_id: str, num_players: int | None = None,
                 opponents: str | Sequence[str] = "random", learner_seat: int | None = None,
                 reward_mode: str = "rank", max_turns: int | None = None,
                 illegal_reward: float | None = -1.0, **options):
        self.env_id = resolve_env_id(env_id)
        cls = game_class(self.env_id)
        self.num_players = int(num_players or cls.min_players)
        self._aec = make(self.env_id, raw=True, num_players=self.num_players,
                         reward_mode=reward_mode, max_turns=max_turns, **options)
        self.num_players = len(self._aec.possible_agents)
        others = self.num_players - 1
        if isinstance(opponents, str):
            specs = [opponents] * others
        elif isinstance(opponents, Sequence) and all(isinstance(s, str) for s in opponents):
            specs = list(opponents)
        else:
            raise InvalidArgumentError("opponents is a bot spec or a list of bot specs, "
                                       f"got {opponents!r}")
        if len(specs) != others:
            raise InvalidArgumentError(f"{self.num_players} players need {others} opponent "
                                       f"specs, got {len(specs)}: {specs}")
        if learner_seat is not None and not (isinstance(learner_seat, int)
                                             and 0 <= learner_seat < self.num_players):
            raise InvalidArgumentError(f"learner_seat must be 0..{self.num_players - 1} "
                                       f"or None, got {learner_seat!r}")
        self.opponent_specs = specs
        self.fixed_seat = learner_seat
        self.illegal_reward = illegal_reward
        self._options = dict(options)
        # bots are built once (a bad spec fails here) and reset for every game
        self._bots = [make_bot(s, self.env_id, self.num_players, seed=i, **options)
                      for i, s in enumerate(specs)]
        agent = self._aec.possible_agents[0]
        self.observation_space = self._aec.observation_space(agent)["observation"]
        self.action_space = spaces.Discrete(int(self._aec.action_space(agent).n))
        self.render_mode = None
        self.learner_seat = 0 if learner_seat is None else learner_seat
        self._seats: dict[str, object] = {}
        self._mask = np.zeros(self.action_space.n, bool)
        self._obs = np.zeros(self.observation_space.shape, np.float32)
        self._finished = True

    @property
    def learner(self) -> str:
        """The learner's agent name in the current game."""
        return self._aec.possible_agents[self.learner_seat]

    def _info(self) -> dict:
        return {"action_mask": self._mask.copy(), "learner_seat": self.learner_seat,
                "seats": [self._seats[a].name if a in self._seats else "learner"
                          for a in self._aec.possible_agents]}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """A new game; the bots play up to the learner's first decision."""
        super().reset(seed=seed)
        rng = self.np_random
        if self.fixed_seat is None:
            self.learner_seat = int(rng.integers(self.num_players))
        others = [a for a in self._aec.possible_agents if a != self.learner]
        self._seats = dict(zip(others, self._bots))
        for bot in self._bots:
            bot.reset()
            if hasattr(bot, "rng"):  # every bot's draws come from this env's seed
                bot.rng = np.random.default_rng(int(rng.integers(2**63)))
        self._aec.reset(seed=int(rng.integers(2**31)))
        self._finished = False
        if self._advance():
            raise RuntimeError("a game ended before the learner's first decision")
        return self._obs.copy(), self._info()

    def _advance(self) -> bool:
        """Let the bots move until the learner must act or the game is over (True)."""
        env, me = self._aec, self.learner
        while True:
            if not env.agents or env.terminations.get(me, True) or env.truncations.get(me, True):
                return True
            agent = env.agent_selection
            observation = env.observe(agent)
            if agent == me:
                self._obs = np.asarray(observation["observation"], np.float32)
                self._mask = np.asarray(observation["action_mask"]).astype(bool)
                return False
            action = choose_action(self._seats[agent], env, agent, observation)
            if not observation["action_mask"][action]:
                raise IllegalActionError(action,
                                         np.flatnonzero(observation["action_mask"]).tolist(),
                                         player=self._aec.agent_name_mapping[agent])
            env.step(action)

    def step(self, action):
        """The learner's action; the bots answer until it must act again or the game ends."""
        if self._finished:
            raise InvalidArgumentError("step() after the game ended; call reset()")
        a = int(action)
        env, me = self._aec, self.learner
        if not (0 <= a < len(self._mask) and self._mask[a]):
            if self.illegal_reward is None:
                raise IllegalActionError(a, np.flatnonzero(self._mask).tolist(),
                                         player=self.learner_seat)
            info = self._info()
            info.update(illegal_action=a, legal_actions=np.flatnonzero(self._mask).tolist())
            self._finished = True
            self._mask = np.zeros_like(self._mask)
            info["action_mask"] = self._mask.copy()
            return self._obs.copy(), float(self.illegal_reward), True, False, info
        env.step(a)
        if not self._advance():
            return self._obs.copy(), 0.0, False, False, self._info()
        self._finished = True
        terminated = bool(env.terminations.get(me, True))
        truncated = bool(env.truncations.get(me, False)) and not terminated
        # the game's rewards are all 0 until its end, then set once for every seat
        reward = float(env.rewards.get(me, 0.0))
        info = dict(env.infos.get(me, {}))
        self._obs = np.asarray(env.observe(me)["observation"], np.float32)
        self._mask = np.zeros_like(self._mask)
        info.update(self._info())
        return self._obs.copy(), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner now (all False once the game is over)."""
        return self._mask.copy()

