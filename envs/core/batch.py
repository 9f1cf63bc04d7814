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

Where a game's compiled engine is built (the ``engine`` part of its spec,
``envs/<game>/_engine.c``), ``GameBatch`` keeps its games there (:class:`CompiledBatch`):
the rules, views, observations and masks of all tables are stepped in C with the GIL
released, with the same results as the Python engine (the same games from the same seed,
tests/test_compiled_engine.py). ``compiled=False`` keeps the games in Python.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import compiled as compiled_parts
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

    ``compiled``: None (the default) steps the games in the game's compiled engine where
    it is built, True requires it (InvalidArgumentError if it is not built), False keeps
    them in Python. Compiled, the tables share one game object, and ``states`` gives
    Python copies of the compiled games (rebuilt from their saved form when read: for
    inspection, not for speed). ``threads``: a compiled batch's steps are split over
    this many threads (the GIL released; in Python the games are stepped in one).
    """

    def __init__(self, game_cls: type[Game], num_players: int, n: int,
                 options: dict[str, Any] | None = None, reward_mode: str = "rank",
                 max_turns: int | None = None, seed: int | None = None,
                 derived_features: bool = True, compiled: bool | None = None,
                 threads: int = 1):
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
        if compiled not in (None, True, False):
            raise InvalidArgumentError(f"compiled must be None, True or False, got {compiled!r}")
        check_threads(threads)
        if max_turns is not None and (isinstance(max_turns, bool) or not isinstance(
                max_turns, (int, np.integer)) or max_turns < 1):
            raise InvalidArgumentError(f"max_turns must be a positive int, got {max_turns!r}")
        module = None if compiled is False else engine_module(game_cls)
        if compiled and module is None:
            raise InvalidArgumentError(f"{game_cls.env_id()} has no compiled engine built "
                                       "in this process")
        if module is not None:
            self.games = [game_cls(num_players, **(options or {}))] * int(n)
        else:
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
        self._compiled = None if module is None else CompiledBatch(
            self.game, module, self.n, reward_mode, self.max_turns, self._kept, threads,
            fresh_obs=True)
        self._states: list[GameState] = []
        self._ended: list[GameState | None] = [None] * self.n
        self._pending = None
        self._full = None           # the pending rows' full observations (Python)
        self._held = None           # the tables the last step held (Python)
        self.reset(seed)

    @property
    def compiled(self) -> bool:
        """Whether the games are stepped in the game's compiled engine."""
        return self._compiled is not None

    @property
    def states(self) -> list[GameState]:
        """The game on each table (compiled: Python copies, the same object per table
        while its game goes on, brought up to date when read)."""
        if self._compiled is not None:
            self._states = self._compiled.python_states(self._states)
        return self._states

    @states.setter
    def states(self, states: list[GameState]) -> None:
        if self._compiled is not None:
            raise InvalidArgumentError("the games of a compiled batch are set by reset() "
                                       "and step() only")
        self._states = states

    def reset(self, seed: int | np.random.SeedSequence | None = None) -> None:
        """New games on every table, with generators spawned from ``seed`` (an int, None
        or a ``SeedSequence``, whose next ``n`` children are taken)."""
        if seed is not None and not isinstance(seed, np.random.SeedSequence) and (
                isinstance(seed, bool) or not isinstance(seed, (int, np.integer))
                or seed < 0):
            raise InvalidArgumentError(f"seed must be None or a non-negative int, got {seed!r}")
        sequence = seed if isinstance(seed, np.random.SeedSequence) \
            else np.random.SeedSequence(seed)
        children = sequence.spawn(self.n)
        self._pending = None
        self._held = None
        self._ended = [None] * self.n
        if self._compiled is not None:
            self._compiled.reset(children)
            self._states = []
            return
        self.rngs = [np.random.default_rng(c) for c in children]
        self._states = [g.new_game(r) for g, r in zip(self.games, self.rngs)]

    def decisions(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(tables, seats, observations, masks) of every pending decision, tables in order
        and the deciders of a table in seat order."""
        if self._pending is None and self._compiled is not None:
            c = self._compiled
            k = c.rows
            # the engine's next step writes into another obs array: no copy of the rows
            self._pending = (c.tables[:k].copy(), c.seats[:k].copy(), c.obs[:k],
                             c.masks[:k].copy())
        if self._pending is None:
            self._pending = self._python_decisions()
        return self._pending

    def _python_decisions(self):
        """The pending decisions of the games in Python: each decider's observation and
        mask, copied from the last rows of a table the last step held."""
        held = self._held
        if held is not None:
            old_tables, _, _, old_masks = held[1]
            starts = np.searchsorted(old_tables, np.arange(self.n + 1))
        requests, tables, seats, reuse = [], [], [], []
        for i, (game, state) in enumerate(zip(self.games, self._states)):
            players = state.current_players()
            if held is not None and held[0][i]:
                reuse.append((len(tables), starts[i], starts[i + 1]))
            else:
                requests.extend((game, state, p) for p in players)
            tables.extend([i] * len(players))
            seats.extend(players)
        full = np.empty((len(tables), self.game.layout.size), np.float32)
        masks = np.empty((len(tables), self.num_actions), np.int8)
        fresh = np.ones(len(tables), bool)
        for row, lo, hi in reuse:
            full[row:row + hi - lo] = self._full[lo:hi]
            masks[row:row + hi - lo] = old_masks[lo:hi]
            fresh[row:row + hi - lo] = False
        if reuse:
            rows = np.flatnonzero(fresh)
            part_obs = np.empty((len(rows), full.shape[1]), np.float32)
            part_masks = np.empty((len(rows), self.num_actions), np.int8)
            observe_into(requests, part_obs, part_masks)
            full[rows], masks[rows] = part_obs, part_masks
        else:
            observe_into(requests, full, masks)
        self._full = full
        obs = full if self._kept is None else full.take(self._kept, axis=1)
        return np.array(tables, np.int64), np.array(seats, np.int64), obs, masks

    def step(self, actions, hold=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Apply one action per decision (in ``decisions()`` order).

        ``hold``: None, or one bool per table: the tables to leave as they are this step
        (their decisions stay pending, in the same rows order, and their rows' entries of
        ``actions`` are not read), as a trainer does with a table that has played its
        share of a rollout while the others catch up.

        Returns ``(rewards, terminated, truncated)``: rewards ``(n, num_players)`` float32,
        non-zero only on tables whose game ended in this step (those tables then hold a
        new game; ``ended(i)`` is the game that ended), and per-table flags.
        """
        c = self._compiled
        rows = c.rows if c is not None else len(self.decisions()[0])
        actions = np.asarray(actions)
        if actions.shape != (rows,) or not np.issubdtype(actions.dtype, np.integer):
            raise InvalidArgumentError(
                f"step() needs one integer action per decision: shape ({rows},), "
                f"got {actions.dtype} {actions.shape}")
        if hold is not None:
            hold = np.asarray(hold)
            if hold.shape != (self.n,) or hold.dtype != np.bool_:
                raise InvalidArgumentError(f"hold must be None or a bool array of shape "
                                           f"({self.n},), got {hold.dtype} {hold.shape}")
        if c is not None:
            # the engine checks every action against its mask before it applies any
            try:
                c.step(actions, hold)
            except IllegalActionError:
                self._check_legal(actions, hold, *self.decisions())
                raise
            self._pending = None
            return c.rewards.copy(), c.terminated.copy(), c.truncated.copy()
        tables, seats, _, masks = self.decisions()
        self._check_legal(actions, hold, tables, seats, _, masks)
        pending, self._pending = self._pending, None
        self._held = None if hold is None or not hold.any() else (hold.copy(), pending)
        rewards = np.zeros((self.n, self.num_players), np.float32)
        terminated = np.zeros(self.n, bool)
        truncated = np.zeros(self.n, bool)
        joint: dict[int, int] = {}
        acts = actions.tolist()
        seat_list = seats.tolist()
        table_list = tables.tolist()
        skip = set() if hold is None else set(np.flatnonzero(hold).tolist())
        for k, i in enumerate(table_list):
            if i in skip:
                continue
            joint[seat_list[k]] = acts[k]
            if k + 1 < len(table_list) and table_list[k + 1] == i:
                continue            # more deciders of this table follow
            state = self._states[i]
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
            self._ended[i] = state
            self._states[i] = self.games[i].new_game(self.rngs[i])
        return rewards, terminated, truncated

    def _check_legal(self, actions, hold, tables, seats, _obs, masks) -> None:
        """IllegalActionError for the first row (not held) whose action its mask forbids."""
        legal = (actions >= 0) & (actions < self.num_actions)
        legal[legal] = masks[legal.nonzero()[0], actions[legal]] != 0
        if hold is not None:
            legal |= hold[tables]
        if not legal.all():
            k = int(np.flatnonzero(~legal)[0])
            raise IllegalActionError(int(actions[k]), np.flatnonzero(masks[k]).tolist(),
                                     player=int(seats[k]), describe=self.game.action_name)

    def ended(self, i: int):
        """Table ``i``'s last finished (or cut) game, as it ended (None before its first
        end): a state with ``scores()`` and ``rank_keys()`` (compiled: the engine's
        ``State``; in Python: the ``GameState`` itself). For the outcome of a game the
        last ``step`` ended; see also :meth:`final_observation`."""
        i = self._table_index(i)
        if self._compiled is not None:
            return self._compiled.ended(i)
        return self._ended[i]

    def final_observation(self, i: int, seat: int) -> np.ndarray:
        """``seat``'s observation (a row as ``decisions()`` gives them) of table ``i``'s
        last finished game as it ended: what a learner bootstraps a cut game from."""
        i = self._table_index(i)
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) \
                or not 0 <= seat < self.num_players:
            raise InvalidArgumentError(f"seat must be an int in 0..{self.num_players - 1}, "
                                       f"got {seat!r}")
        state = self.ended(i)
        if state is None:
            raise InvalidArgumentError(f"table {i} has not finished a game yet")
        if self._compiled is not None:
            row = np.empty(self.game.layout.size, np.float32)
            state.encode_into(int(seat), row)
        else:
            row = self.games[i].encode(state.view(int(seat)))
        return row if self._kept is None else row.take(self._kept)

    def _table_index(self, i) -> int:
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < self.n:
            raise InvalidArgumentError(f"table must be an int in 0..{self.n - 1}, got {i!r}")
        return int(i)


def check_threads(threads) -> int:
    """``threads`` as an int in 1..64, or InvalidArgumentError."""
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) \
            or not 1 <= threads <= 64:
        raise InvalidArgumentError(f"threads must be an int in 1..64, got {threads!r}")
    return int(threads)


def engine_module(game_cls: type[Game]):
    """The compiled engine module of ``game_cls`` (its spec's ``engine`` part), or None
    when it is not built, compiled code is switched off or the game has none."""
    parts = game_cls.__module__.split(".")
    if len(parts) < 2:                 # a game module outside any package: none
        return None
    return compiled_parts.load(parts[-2], "engine")


def _replace_fields(old: GameState, new: GameState) -> None:
    """``old`` made ``new`` in place: every attribute replaced, so no cache of the old
    position (a public view, the acting seats) survives."""
    old.__dict__.clear()
    old.__dict__.update(new.__dict__)


class CompiledBatch:
    """N games held and stepped in a game's compiled engine (``module.Batch``, written
    once for every game in envs/core/engine_batch.h).

    The engine writes every pending decision of every table into this object's arrays,
    one row each, tables in order and a table's deciders in seat order (several for a
    simultaneous decision): ``rows`` of them are valid after each ``reset``/``step``.
    ``obs`` (float32), ``masks`` (int8), ``tables`` and ``seats`` (int64) have room for
    ``n * num_players`` rows; after each step ``rewards`` (float32, ``(n, num_players)``,
    non-zero only on tables whose game ended in that step), ``terminated`` and
    ``truncated`` (per table). A table whose game ended starts a new one at once, from
    its own generator (spawned from the batch seed, as GameBatch's). The arrays are
    rewritten in place by every step; copy what must outlive it. ``kept``: the columns
    of the full observation row to keep (None: all). ``threads``: how many threads a
    step is split over (each table is stepped by one of them; the GIL is released).

    ``fresh_obs``: each reset and step writes the rows into another ``obs`` array (one no
    longer referenced outside this object, reused, or a new one), so that an ``obs``
    array (or a view of it) taken after one step is never written again: rows handed out
    need no copy.
    """

    def __init__(self, game: Game, module, n: int, reward_mode: str = "rank",
                 max_turns: int | None = None, kept: np.ndarray | None = None,
                 threads: int = 1, fresh_obs: bool = False):
        check_threads(threads)
        self.fresh_obs = bool(fresh_obs)
        self._spare: list[np.ndarray] = []      # obs arrays written before (fresh_obs)
        self.game = game
        self.n = int(n)
        self.threads = int(threads)
        self.engine = module.Engine(*game.compiled_engine_params(module))
        width = game.layout.size if kept is None else len(kept)
        capacity = self.n * game.num_players
        self.obs = np.zeros((capacity, width), np.float32)
        self.masks = np.zeros((capacity, game.num_actions), np.int8)
        self.tables = np.zeros(capacity, np.int64)
        self.seats = np.zeros(capacity, np.int64)
        self.rewards = np.zeros((self.n, game.num_players), np.float32)
        self.terminated = np.zeros(self.n, bool)
        self.truncated = np.zeros(self.n, bool)
        #: decision rows written by the last reset/step
        self.rows = 0
        self._batch = module.Batch(
            self.engine, self.n, self.obs, self.masks, self.tables, self.seats, self.rewards,
            self.terminated, self.truncated, int(max_turns or game.default_max_turns),
            reward_mode, None if kept is None else [int(k) for k in kept], self.threads)

    def reset(self, seed=None) -> None:
        """New games on every table; ``seed``: an int, None, or the tables' spawned
        ``SeedSequence`` children."""
        children = (seed if isinstance(seed, list)
                    else np.random.SeedSequence(seed).spawn(self.n))
        words = np.empty((self.n, 4), np.uint64)
        mask = (1 << 64) - 1
        for i, child in enumerate(children):
            st = np.random.PCG64(child).state["state"]
            words[i] = (st["state"] >> 64, st["state"] & mask, st["inc"] >> 64,
                        st["inc"] & mask)
        if not self.fresh_obs:
            self.rows = self._batch.reset(words)
            return
        new = self._next_obs()
        self.rows = self._batch.reset(words, new)
        self._spare.append(self.obs)
        self.obs = new

    _SPARE_KEPT = 2     # obs arrays kept for reuse (fresh_obs)

    def _next_obs(self) -> np.ndarray:
        """An obs array nothing outside this object refers to (fresh_obs): a spare one
        whose last views are gone, or a new one."""
        spare = self._spare
        for k in range(len(spare)):
            if sys.getrefcount(spare[k]) == 2:     # the list's reference and the argument
                return spare.pop(k)
        if len(spare) >= self._SPARE_KEPT:
            del spare[0]                            # still held outside: theirs now
        return np.empty_like(self.obs)

    def step(self, actions, hold=None) -> None:
        """Apply one action per decision row (in row order); IllegalActionError, with
        nothing applied, if a mask forbids one. ``hold``: None or one bool per table,
        the tables to leave as they are (their rows stay pending, their actions unread)."""
        actions = np.ascontiguousarray(actions, np.int64)
        if hold is not None:
            hold = np.ascontiguousarray(hold, np.bool_)
        if self.fresh_obs:
            new = self._next_obs()
            rows = self._batch.step(actions, hold, new)
            if rows >= 0:
                self._spare.append(self.obs)
                self.obs = new
            else:
                self._spare.append(new)
        else:
            rows = self._batch.step(actions, hold)
        if rows < 0:
            bad = -1 - rows
            raise IllegalActionError(int(actions[bad]),
                                     np.flatnonzero(self.masks[bad]).tolist(),
                                     player=int(self.seats[bad]),
                                     describe=self.game.action_name)
        self.rows = rows

    def state(self, i: int):
        """A copy of table ``i``'s game in the compiled engine's ``State`` form."""
        return self._batch.state(i)

    def ended(self, i: int):
        """A copy of table ``i``'s last finished (or cut) game (``State``), or None
        before its first end."""
        return self._batch.ended(i) if self._batch.generation(i) > 1 else None

    def python_states(self, old: list[GameState]) -> list[GameState]:
        """The games as Python states: ``old``'s objects, brought up to date in place, for
        tables still playing the game they held; new ones where a game began since (the
        old object then shows the table's last game as it ended, as GameBatch's Python
        states do)."""
        out = []
        for i in range(self.n):
            fresh = self._python_state(self._batch.state(i), self._batch.generation(i))
            prev = old[i] if i < len(old) else None
            if prev is not None and getattr(prev, "_table_game", None) == fresh._table_game:
                _replace_fields(prev, fresh)
                fresh = prev
            elif prev is not None:
                _replace_fields(prev, self._python_state(self._batch.ended(i), -1))
            out.append(fresh)
        return out

    def _python_state(self, state, table_game: int) -> GameState:
        python = self.game.state_from_dict(state.to_dict())
        python._table_game = table_game      # which of its table's games it is
        return python
