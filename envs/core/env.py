"""PettingZoo environments over any plunder engine, written once for every game.

``PlunderAECEnv`` turns a :class:`~plunder.envs.core.game.GameState` into an AEC env:
the acting agent is the first current player who has not decided yet; a simultaneous
decision is collected one agent at a time and applied when all are in, and a later decider
never sees an earlier pending choice (observations come from the state, which does not
change until the joint action is applied). ``PlunderParallelEnv`` is the parallel form for
games with simultaneous decisions: each step takes the actions of the agents acting now
(others' entries are ignored and may be omitted).

Every env plays in the game's compiled engine (``envs/<game>/_engine.c``) where one is
built, with the same games, moves and observations as the Python engine (``compiled=False``
keeps it in Python; ``env.compiled`` says which); ``env.game_state`` is then a Python copy
of the game.

Every env takes ``derived_features`` (default True): with False its observations hold the
information state alone, the layout's derived fields (computed from the view to help bots
learn) left out; ``env.layout`` then describes that shorter vector, and
``full_observation(agent)`` still gives the full one that bots read.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from .errors import IllegalActionError, InvalidArgumentError, NotActingError
from .game import Game, GameState
from .rewards import REWARD_MODES, final_rewards, winners

RENDER_MODES = ("ansi", "human")


class _EnvCommon:
    """Construction, spaces and bookkeeping shared by the AEC and parallel forms."""

    game_cls: type[Game]

    def _setup(self, game_cls, num_players, reward_mode, max_turns, render_mode,
               render_seat, options, *, max_cycles=None, illegal_reward=None,
               wait_action=False, observation_key="observation", derived_features=True,
               compiled=None):
        if compiled not in (None, True, False):
            raise InvalidArgumentError(f"compiled must be None (the compiled engine where "
                                       f"built), True or False, got {compiled!r}")
        if max_cycles is not None:
            if max_turns is not None:
                raise InvalidArgumentError("give max_turns or its alias max_cycles, not both")
            max_turns = max_cycles
        if illegal_reward is not None and (isinstance(illegal_reward, bool) or
                                           not isinstance(illegal_reward, (int, float))):
            raise InvalidArgumentError(f"illegal_reward must be a number or None, "
                                       f"got {illegal_reward!r}")
        if not isinstance(wait_action, bool):
            raise InvalidArgumentError(f"wait_action must be True or False, got {wait_action!r}")
        if not isinstance(derived_features, (bool, np.bool_)):
            raise InvalidArgumentError(
                f"derived_features must be True (the full observation) or False (the "
                f"information state alone), got {derived_features!r}")
        if not isinstance(observation_key, str) or not observation_key \
                or observation_key == "action_mask":
            raise InvalidArgumentError(
                f"observation_key must be a non-empty name other than 'action_mask', "
                f"got {observation_key!r}")
        if reward_mode not in REWARD_MODES:
            raise InvalidArgumentError(
                f"reward_mode must be one of {REWARD_MODES}, got {reward_mode!r}"
            )
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise InvalidArgumentError(
                f"render_mode must be one of {RENDER_MODES} or None, got {render_mode!r}"
            )
        self.game = game_cls(num_players if num_players is not None else game_cls.min_players,
                             **options)
        n = self.game.num_players
        if max_turns is None:
            max_turns = game_cls.default_max_turns
        if isinstance(max_turns, bool) or not isinstance(max_turns, (int, np.integer)) \
                or max_turns < 1:
            raise InvalidArgumentError(f"max_turns must be a positive int, got {max_turns!r}")
        if render_seat is not None and not (
            isinstance(render_seat, (int, np.integer)) and 0 <= render_seat < n
        ):
            raise InvalidArgumentError(
                f"render_seat must be None (omniscient) or a seat 0..{n - 1}, got {render_seat!r}"
            )
        self.reward_mode = reward_mode
        self.illegal_reward = illegal_reward
        self.wait_action = wait_action
        self.observation_key = observation_key
        self.max_turns = int(max_turns)
        self.render_mode = render_mode
        self.render_seat = render_seat
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.derived_features = bool(derived_features)
        full = self.game.layout
        layout = full if self.derived_features else full.without_derived()
        # the indices kept of the full vector the encoders write (None: all of them)
        self._kept = None if layout is full else layout.full_index
        self._layout = layout
        # with wait_action the last index is "wait": the one legal action of an agent
        # that is not asked to act (for samplers that treat every agent as acting)
        self.num_env_actions = self.game.num_actions + int(wait_action)
        obs_space = spaces.Dict({
            observation_key: spaces.Box(layout.low, layout.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.num_env_actions,), dtype=np.int8),
        })
        act_space = spaces.Discrete(self.num_env_actions)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        # the global state for centralized critics: every seat's observation, seat order
        self.state_space = spaces.Box(np.tile(layout.low, n), np.tile(layout.high, n),
                                      dtype=np.float32)
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.metadata = {
            "name": game_cls.env_id(),
            "render_modes": list(RENDER_MODES),
            "is_parallelizable": game_cls.simultaneous,
        }
        self._np_random = None
        self._masks: dict[int, np.ndarray] = {}
        # the game being played: a Python GameState, or the compiled engine's State
        # (envs/<game>/_engine.c) where it is built; ``game_state`` shows it as Python
        self._engine = _compiled_engine(self.game, compiled)
        self._live = None
        self._python_copy: GameState | None = None
        self._full_row = np.empty(full.size, np.float32)

    @property
    def compiled(self) -> bool:
        """Whether the game is played in its compiled engine (the same games, moves and
        observations as the Python engine: tests/test_compiled_engine.py)."""
        return self._engine is not None

    @property
    def game_state(self) -> GameState | None:
        """The game being played, as a Python :class:`GameState`. Where the env plays in
        the compiled engine this is a copy, rebuilt when the game has moved on: changing
        it changes nothing; assign a state (or use ``set_state``) to replace the game."""
        if self._engine is None or self._live is None:
            return self._live
        if self._python_copy is None:
            self._python_copy = self.game.state_from_dict(self._live.to_dict())
        return self._python_copy

    @game_state.setter
    def game_state(self, state: GameState | None) -> None:
        self._python_copy = None
        self._masks = {}
        if state is None or self._engine is None:
            self._live = state
        else:
            self._live = self._engine.from_dict(state.to_dict())

    def __getstate__(self) -> dict:
        # pickling and deepcopy: the compiled game travels as its saved form
        state = self.__dict__.copy()
        if self._engine is not None:
            state["_engine"] = True
            state["_live"] = None if self._live is None else self._live.to_dict()
            state["_python_copy"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        if state.get("_engine") is True:
            # where this process has no compiled engine, the game goes on in Python
            self._engine = _compiled_engine(self.game, None)
            saved, self._live = state["_live"], None
            if saved is not None:
                self._live = (self.game.state_from_dict(saved) if self._engine is None
                              else self._engine.from_dict(saved))

    def view(self, agent: str):
        """``agent``'s view of the table (what its player may know), as bots read it."""
        if self._live is None:
            raise NotActingError("call reset() before view()")
        return self._live.view(self._seat(agent))

    def observation_space(self, agent):
        """The Dict(observation, action_mask) space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent):
        """The Discrete action space of ``agent``."""
        return self.action_spaces[agent]

    def state(self) -> np.ndarray:
        """The global state for centralized critics: every seat's observation vector,
        concatenated in seat order (everything some player knows; never the deck order)."""
        if self._live is None:
            raise NotActingError("call reset() before state()")
        return np.concatenate([self._observation(p) for p in range(self.game.num_players)])

    @property
    def layout(self):
        """Named layout of the observation vector this env returns (``layout.describe()``
        prints it; with ``derived_features=False`` the information state alone)."""
        return self._layout

    def _full_observation(self, seat: int) -> np.ndarray:
        """A new float32 vector: ``seat``'s full observation (derived fields included)."""
        if self._engine is None:
            return self.game.encode(self._live.view(seat))
        out = np.empty(self._full_row.shape, np.float32)
        self._live.encode_into(seat, out)
        return out

    def _observation(self, seat: int) -> np.ndarray:
        """``seat``'s observation as this env returns it (``layout``)."""
        if self._kept is None:
            return self._full_observation(seat)
        if self._engine is None:
            return self.game.encode(self._live.view(seat)).take(self._kept)
        self._live.encode_into(seat, self._full_row)
        return self._full_row.take(self._kept)

    def full_observation(self, agent: str) -> np.ndarray:
        """``agent``'s full observation vector, derived fields included (``game.layout``),
        whatever ``derived_features`` is: what the shipped bots were trained on and read."""
        if self._live is None:
            raise NotActingError("call reset() before full_observation()")
        return self._full_observation(self._seat(agent))

    def _new_game(self, seed):
        if seed is not None and (isinstance(seed, (bool, np.bool_))
                                 or not isinstance(seed, (int, np.integer)) or seed < 0):
            raise InvalidArgumentError(f"seed must be None or a non-negative int, got {seed!r}")
        if seed is not None or self._np_random is None:
            self._np_random = np.random.default_rng(seed)
        self._masks = {}
        self._python_copy = None
        if self._engine is None:
            self._live = self.game.new_game(self._np_random)
        else:      # the draws of Game.new_game: one seed for the game's own generator
            self._live = self._engine.new_game(int(self._np_random.integers(2**63 - 1)))

    def _legal_mask(self, seat: int) -> np.ndarray:
        """The seat's mask in the current state, computed once per state."""
        mask = self._masks.get(seat)
        if mask is None:
            if self._engine is None:
                mask = self._live.legal_actions_mask(seat).astype(np.int8, copy=False)
            else:
                mask = np.frombuffer(self._live.mask(seat), np.int8)
            self._masks[seat] = mask
        return mask

    def _apply(self, joint: dict[int, int]) -> None:
        """Apply actions already checked against the cached masks of this state."""
        self._masks = {}
        self._python_copy = None
        if self._engine is None:
            self._live.apply_checked(joint)
        else:
            self._live.apply_joint(joint)

    def _obs(self, seat: int, acting: bool) -> dict:
        obs = self._observation(seat)
        if self.wait_action:
            mask = np.zeros(self.num_env_actions, dtype=np.int8)
            if acting:
                mask[:-1] = self._legal_mask(seat)
            else:
                mask[-1] = 1
        elif acting:
            mask = self._legal_mask(seat).copy()
        else:
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
        return {self.observation_key: obs, "action_mask": mask}

    def _seat(self, agent) -> int:
        """The seat of an agent name; an unknown name is a clear error."""
        try:
            return self.agent_name_mapping[agent]
        except (KeyError, TypeError):
            raise InvalidArgumentError(
                f"unknown agent {agent!r}; agents: {self.possible_agents}") from None

    def _check_action(self, seat: int, action) -> bool:
        """Whether ``action`` is legal for ``seat``; raises for one outside the action
        space, and for an illegal one unless ``illegal_reward`` is set (then False)."""
        mask = self._legal_mask(seat)
        if (type(action) is int or _is_int(action)) and 0 <= action < len(mask) \
                and mask[action]:
            return True
        if self.illegal_reward is not None and _is_int(action) \
                and 0 <= action < self.num_env_actions:
            return False
        raise IllegalActionError(action, np.flatnonzero(mask).tolist(), player=seat,
                                 describe=self.game.action_name)

    def _illegal_outcome(self, offender: str) -> dict[str, float]:
        """Rewards when ``offender`` ended the game with an illegal action."""
        return {a: float(self.illegal_reward) if a == offender else 0.0
                for a in self.possible_agents}

    def _outcome(self):
        """(rewards per agent seat, info extras) once the game is over or truncated."""
        keys = self._live.rank_keys()
        scores = self._live.scores()
        n = self.game.num_players
        rewards = final_rewards(self.reward_mode, keys, scores, n)
        # fixed shapes and dtypes (Tianshou's buffers need them): one flag per scoring seat
        best = set(winners(keys))
        extra = {"scores": [float(s) for s in scores],
                 "winner_mask": [i in best for i in range(len(keys))]}
        return rewards, extra

    def _truncated(self) -> bool:
        return self._live.turns >= self.max_turns and not self._live.is_terminal()

    def _render_text(self) -> str:
        return self.game_state.render_text(self.render_seat)

    def render(self):
        """Text of the table from ``render_seat`` (omniscient when None)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; returning None")
            return None
        if self._live is None:
            return None
        text = self._render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        """Nothing to release."""


class PlunderAECEnv(_EnvCommon, AECEnv):
    """AEC environment over a plunder engine.

    With ``illegal_reward=None`` (``raw_env``) an illegal action raises
    ``IllegalActionError``. With a number (``env()`` uses -1) a legal-range action that the
    mask forbids ends the game: the offender gets that reward, everyone else 0, as
    PettingZoo's TerminateIllegalWrapper does. An action outside the action space always
    raises, and using the env before ``reset()`` raises (PettingZoo's OutOfBounds and
    OrderEnforcing checks, built in: the three wrappers cost ~40% of a step).
    """

    def __init__(self, game_cls: type[Game], num_players: int | None = None,
                 reward_mode: str = "rank", max_turns: int | None = None,
                 render_mode: str | None = None, render_seat: int | None = None,
                 illegal_reward: float | None = None, wait_action: bool = False,
                 observation_key: str = "observation", max_cycles: int | None = None,
                 derived_features: bool = True, compiled: bool | None = None,
                 **options: Any):
        AECEnv.__init__(self)
        self._setup(game_cls, num_players, reward_mode, max_turns, render_mode,
                    render_seat, options, max_cycles=max_cycles,
                    illegal_reward=illegal_reward, wait_action=wait_action,
                    observation_key=observation_key, derived_features=derived_features,
                    compiled=compiled)
        self.agents = []
        self._has_reset = False

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game (``seed`` makes it reproducible)."""
        self._has_reset = True
        self._new_game(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._pending: dict[int, int] = {}
        self._select_next()

    def set_state(self, state: GameState) -> None:
        """Continue from ``state`` (e.g. loaded with ``game.state_from_json``): a live
        game with no pending simultaneous choices."""
        if type(state.game) is not type(self.game) or \
                state.game.num_players != self.game.num_players:
            raise InvalidArgumentError("the state belongs to another game or player count")
        if state.is_terminal():
            raise InvalidArgumentError("set_state needs a game that is still running")
        if not self.agents:
            self.reset()
        self.game_state = state
        self._masks = {}
        self._pending = {}
        self._select_next()

    def _select_next(self):
        # the state's deciders are asked once per state (kept for step's all-in test)
        if not self._pending:
            acting = self._acting = self._live.current_players()
            self.agent_selection = self.possible_agents[acting[0]]
            return
        waiting = [p for p in self._acting if p not in self._pending]
        self.agent_selection = self.possible_agents[waiting[0]]

    def acting_agents(self) -> list[str]:
        """Agents still to decide in the current (possibly simultaneous) decision."""
        if not self.agents or self._live.is_terminal():
            return []
        return [self.possible_agents[p] for p in self._live.current_players()
                if p not in self._pending]

    def agent_iter(self, max_iter: int = 2**63):
        """Yields the agent to act next until the game is over (reset() first)."""
        if not self._has_reset:
            raise NotActingError("call reset() before agent_iter()")
        return super().agent_iter(max_iter)

    def last(self, observe: bool = True):
        """(observation, cumulative reward, terminated, truncated, info) of the selected agent."""
        if not self._has_reset:
            raise NotActingError("call reset() before last()")
        return super().last(observe)

    def observe(self, agent: str) -> dict:
        """``agent``'s observation and mask (mask all zero unless it is asked to act now)."""
        if not self._has_reset:
            raise NotActingError("call reset() before observe()")
        seat = self._seat(agent)
        acting = (
            self.agents and agent == self.agent_selection
            and not self.terminations[agent] and not self.truncations[agent]
        )
        return self._obs(seat, bool(acting))

    def step(self, action) -> None:
        """Record the selected agent's action; apply once every current decider has acted."""
        if not self._has_reset:
            raise NotActingError("call reset() before step()")
        if not self.agents:
            raise NotActingError("the game is over and every agent has left; call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.agent_name_mapping[agent]
        if not self._check_action(seat, action):
            self._end_by_illegal_action(agent)
            return
        self._cumulative_rewards[agent] = 0.0
        self._pending[seat] = int(action)
        # only current players ever get a pending entry, so equal sizes mean all are in
        if len(self._pending) == len(self._acting):
            joint, self._pending = self._pending, {}
            self._apply(joint)
            self._after_apply()
        else:
            # rewards are all 0 until the game ends (they stay as reset() made them)
            self._select_next()

    def _end_by_illegal_action(self, agent: str) -> None:
        """End the game: the offender gets ``illegal_reward``, the others 0."""
        self._pending = {}
        self.rewards = self._illegal_outcome(agent)
        for a in self.agents:
            self.terminations[a] = True
            self.infos[a] = {"illegal_action_by": agent}
        self._cumulative_rewards[agent] = 0.0
        self._accumulate_rewards()
        self._deads_step_first()

    def _after_apply(self):
        done = self._live.is_terminal()
        if done or self._truncated():
            self.rewards = {a: 0.0 for a in self.agents}
            rewards, extra = self._outcome()
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = rewards[i]
                self.infos[a] = dict(extra)
                if done:
                    self.terminations[a] = True
                else:
                    self.truncations[a] = True
            self._accumulate_rewards()
            # agent_selection stays on a live seat; agent_iter then steps each with None
            self.agent_selection = self.possible_agents[0]
        else:
            # a running game's rewards are all 0 (reset() set them; only the end or an
            # illegal action changes them, and both end the game): nothing to accumulate
            self._select_next()
        if self.render_mode == "human":
            self.render()


class PlunderParallelEnv(_EnvCommon, ParallelEnv):
    """Parallel environment over a plunder engine with simultaneous decisions."""

    def __init__(self, game_cls: type[Game], num_players: int | None = None,
                 reward_mode: str = "rank", max_turns: int | None = None,
                 render_mode: str | None = None, render_seat: int | None = None,
                 illegal_reward: float | None = -1.0, wait_action: bool = False,
                 observation_key: str = "observation", max_cycles: int | None = None,
                 derived_features: bool = True, compiled: bool | None = None,
                 **options: Any):
        self._setup(game_cls, num_players, reward_mode, max_turns, render_mode,
                    render_seat, options, max_cycles=max_cycles,
                    illegal_reward=illegal_reward, wait_action=wait_action,
                    observation_key=observation_key, derived_features=derived_features,
                    compiled=compiled)
        self.agents = []

    def reset(self, seed: int | None = None, options: dict | None = None):
        """Start a new game; returns (observations, infos)."""
        self._new_game(seed)
        self.agents = list(self.possible_agents)
        return self._all_obs(), {a: {} for a in self.agents}

    def acting_agents(self) -> list[str]:
        """Agents whose actions the next ``step`` needs."""
        if not self.agents:
            return []
        return [self.possible_agents[p] for p in self._live.current_players()]

    def _all_obs(self, acting=None):
        if acting is None:
            acting = set(self._live.current_players())
        return {a: self._obs(i, i in acting) for i, a in enumerate(self.possible_agents)}

    def step(self, actions: dict):
        """Apply the acting agents' actions (entries of other agents are ignored).

        An illegal action of an acting agent raises with ``illegal_reward=None``; with a
        number (the default, -1) it ends the game: the offender gets that reward, the
        others 0, and every agent's info names the offender.
        """
        if not self.agents:
            raise NotActingError("step() called on a finished game; call reset()")
        if not isinstance(actions, dict):
            raise InvalidArgumentError(f"step() takes a dict agent -> action, "
                                       f"got {type(actions).__name__}")
        unknown = set(actions) - set(self.possible_agents)
        if unknown:
            raise InvalidArgumentError(f"unknown agents in actions: {sorted(unknown)}")
        joint = {}
        for seat in self._live.current_players():
            agent = self.possible_agents[seat]
            if agent not in actions or actions[agent] is None:
                raise NotActingError(
                    f"{agent} must act in this step; acting: {self.acting_agents()}"
                )
            action = actions[agent]
            if not self._check_action(seat, action):
                return self._end_by_illegal_action(agent)
            joint[seat] = int(action)
        self._apply(joint)
        rewards = {a: 0.0 for a in self.agents}
        terms = {a: False for a in self.agents}
        truncs = {a: False for a in self.agents}
        infos = {a: {} for a in self.agents}
        done = self._live.is_terminal()
        if done or self._truncated():
            values, extra = self._outcome()
            for i, a in enumerate(self.possible_agents):
                rewards[a] = values[i]
                infos[a] = dict(extra)
                terms[a] = done
                truncs[a] = not done
        obs = self._all_obs()
        if done or any(truncs.values()):
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terms, truncs, infos


    def _end_by_illegal_action(self, offender: str):
        """End the game because ``offender`` played an illegal action."""
        obs = self._all_obs(acting=())
        rewards = self._illegal_outcome(offender)
        terms = {a: True for a in self.agents}
        truncs = {a: False for a in self.agents}
        infos = {a: {"illegal_action_by": offender} for a in self.agents}
        self.agents = []
        return obs, rewards, terms, truncs, infos


def _compiled_engine(game: Game, compiled: bool | None):
    """The compiled engine (``_engine.Engine``) an env of ``game`` plays in: None for
    ``compiled=False``, or where the game has none built (``compiled=True`` then raises)."""
    if compiled is False:
        return None
    from .batch import engine_module

    module = engine_module(type(game))
    if module is None:
        if compiled:
            raise InvalidArgumentError(f"{game.env_id()} has no compiled engine built in "
                                       "this process")
        return None
    return module.Engine(*game.compiled_engine_params(module))


def _is_int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def make_env_functions(game_cls: type[Game]):
    """The PettingZoo-style module functions ``env``, ``raw_env`` and ``parallel_env``."""

    def raw_env(**kwargs) -> PlunderAECEnv:
        return PlunderAECEnv(game_cls, **kwargs)

    def env(**kwargs):
        if "illegal_reward" in kwargs:
            raise InvalidArgumentError("env() always penalises an illegal action with -1; "
                                       "use raw_env(illegal_reward=...) for another value")
        return PlunderAECEnv(game_cls, illegal_reward=-1.0, **kwargs)

    def parallel_env(**kwargs) -> PlunderParallelEnv:
        if not game_cls.simultaneous:
            raise InvalidArgumentError(
                f"{game_cls.env_id()} is turn-based and has no parallel_env(); use env()"
            )
        return PlunderParallelEnv(game_cls, **kwargs)

    raw_env.__doc__ = f"The unwrapped AEC env of {game_cls.env_id()}: illegal actions raise."
    env.__doc__ = (f"The AEC env of {game_cls.env_id()}: an illegal action ends the game "
                   "with reward -1 for the offender (PettingZoo's usual wrapper behaviour).")
    parallel_env.__doc__ = (f"The parallel env of {game_cls.env_id()}: an illegal action "
                            "ends the game with reward -1 for the offender "
                            "(illegal_reward=None raises instead).")
    return env, raw_env, parallel_env


def env_docstring(doc: str, game_cls, num_players: int = 2) -> str:
    """An env module's docstring with its placeholders filled from the game itself:
    ``LAYOUT_TABLE`` (the observation, index by index, at ``num_players``) and
    ``OBS_SIZE`` (its length), so the page never disagrees with the code."""
    layout = game_cls(num_players).layout
    return doc.replace("LAYOUT_TABLE", layout.describe()).replace("OBS_SIZE", str(layout.size))
