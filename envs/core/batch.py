"""N games of one kind stepped together, for training loops (written once for every game).

:class:`GameBatch` holds N independent games and exposes every pending decision of all of
them at once: ``decisions()`` returns the table and seat of each decision with the
observations and masks as one ``(k, obs_size)`` float32 and one ``(k, num_actions)`` int8
array; ``step(actions)`` takes one action per decision (one array, same order), applies
each table's joint action and starts a new game on every table that ended (its rewards
are returned for that step). There is no per-agent bookkeeping of the AEC API (agent
names, reward dicts, dead steps): that is where the batched path saves its time.

Same guarantees as the AEC env: an observation is built from the player's view alone;
all deciders of a simultaneous decision are asked from the same state (nobody sees
another's pending choice, because nothing is applied until every one of them has
chosen); an action is checked against the mask it was chosen from (an illegal one raises
``IllegalActionError``); truncation at ``max_turns`` and the rewards are the env's; with
``derived_features=False`` the observations hold the information state alone (``layout``
describes the rows), as the env's do.

:func:`observe_into` is the one place that turns (game, state, seat) requests into
those arrays; the self-play trainer's rollout loop uses it for its batched decisions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .errors import IllegalActionError, InvalidArgumentError
from .game import Game, GameState
from .rewards import REWARD_MODES, final_rewards


def observe_into(requests: Sequence[tuple[Game, GameState, int]], obs: np.ndarray,
                 masks: np.ndarray, row: int = 0) -> None:
    """Write the observation and mask of each (game, state, seat) request into rows
    ``row``, ``row + 1``, ... of ``obs`` and ``masks`` (no intermediate stacking)."""
    for k, (game, state, seat) in enumerate(requests, row):
        game.encode_into(state.view(seat), obs[k])
        game.mask_into(state, seat, masks[k])


class GameBatch:
    """N games of ``game_cls`` stepped together (see the module docstring).

    Each table has its own game object (games may keep per-observer encoder caches, which
    stay warm only if one game's states go through them) and its own generator, spawned
    from ``seed`` (a new game on a table comes from ``Game.new_game`` of that generator,
    as in the env). ``decisions()`` is computed once per step and kept until ``step``.
    """

    def __init__(self, game_cls: type[Game], num_players: int, n: int,
                 options: dict[str, Any] | None = None, reward_mode: str = "rank",
                 max_turns: int | None = None, seed: int | None = None,
                 derived_features: bool = True):
        if reward_mode not in REWARD_MODES:
            raise InvalidArgumentError(f"reward_mode must be one of {REWARD_MODES}, "
                                       f"got {reward_mode!r}")
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise InvalidArgumentError(f"n (games in the batch) must be a positive int, "
                                       f"got {n!r}")
        if not isinstance(derived_features, (bool, np.bool_)):
            raise InvalidArgumentError(
                f"derived_features must be True (the full observation) or False (the "
                f"information state alone), got {derived_features!r}")
        self.games = [game_cls(num_players, **(options or {})) for _ in range(int(n))]
        self.game = self.games[0]
        self.n = int(n)
        self.num_players = self.game.num_players
        self.num_actions = self.game.num_actions
        full = self.game.layout
        #: the layout of the observation rows ``decisions()`` returns
        self.layout = full if derived_features else full.without_derived()
        # the columns kept of the full rows the encoders write (None: all of them)
        self._kept = None if self.layout is full else self.layout.full_index
        self.obs_size = self.layout.size
        self.reward_mode = reward_mode
        self.max_turns = int(max_turns or game_cls.default_max_turns)
        self.states: list[GameState] = []
        self._pending = None
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """New games on every table, with generators spawned from ``seed``."""
        children = np.random.SeedSequence(seed).spawn(self.n)
        self.rngs = [np.random.default_rng(c) for c in children]
        self.states = [g.new_game(r) for g, r in zip(self.games, self.rngs)]
        self._pending = None

    def decisions(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(tables, seats, observations, masks) of every pending decision, tables in order
        and the deciders of a table in seat order."""
        if self._pending is None:
            requests, tables, seats = [], [], []
            for i, (game, state) in enumerate(zip(self.games, self.states)):
                for p in state.current_players():
                    requests.append((game, state, p))
                    tables.append(i)
                    seats.append(p)
            obs = np.empty((len(requests), self.game.layout.size), np.float32)
            masks = np.empty((len(requests), self.num_actions), np.int8)
            observe_into(requests, obs, masks)
            if self._kept is not None:
                obs = obs.take(self._kept, axis=1)
            self._pending = (np.array(tables, np.int64), np.array(seats, np.int64), obs,
                             masks)
        return self._pending

    def step(self, actions) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Apply one action per decision (in ``decisions()`` order).

        Returns ``(rewards, terminated, truncated)``: rewards ``(n, num_players)`` float32,
        non-zero only on tables whose game ended in this step (those tables then hold a
        new game), and per-table flags.
        """
        tables, seats, _, masks = self.decisions()
        actions = np.asarray(actions)
        if actions.shape != (len(tables),) or not np.issubdtype(actions.dtype, np.integer):
            raise InvalidArgumentError(
                f"step() needs one integer action per decision: shape ({len(tables)},), "
                f"got {actions.dtype} {actions.shape}")
        legal = (actions >= 0) & (actions < self.num_actions)
        legal[legal] = masks[legal.nonzero()[0], actions[legal]] != 0
        if not legal.all():
            k = int(np.flatnonzero(~legal)[0])
            raise IllegalActionError(int(actions[k]), np.flatnonzero(masks[k]).tolist(),
                                     player=int(seats[k]), describe=self.game.action_name)
        self._pending = None
        rewards = np.zeros((self.n, self.num_players), np.float32)
        terminated = np.zeros(self.n, bool)
        truncated = np.zeros(self.n, bool)
        joint: dict[int, int] = {}
        acts = actions.tolist()
        seat_list = seats.tolist()
        table_list = tables.tolist()
        for k, i in enumerate(table_list):
            joint[seat_list[k]] = acts[k]
            if k + 1 < len(table_list) and table_list[k + 1] == i:
                continue            # more deciders of this table follow
            state = self.states[i]
            state.apply_checked(joint)
            joint = {}
            if state.is_terminal():
                terminated[i] = True
            elif state.turns >= self.max_turns:
                truncated[i] = True
            else:
                continue
            rewards[i] = final_rewards(self.reward_mode, state.rank_keys(), state.scores(),
                                       self.num_players)
            self.states[i] = self.games[i].new_game(self.rngs[i])
        return rewards, terminated, truncated
