"""The public vectorized env: N games of one kind, every pending decision a row.

>>> from plunder.envs import make_vector
>>> venv = make_vector("scallywags_v0", 64, num_players=2, seed=0)
>>> step = venv.reset()
>>> while training:
...     actions = policy(step.observations, step.action_masks)   # one per row
...     step = venv.step(actions)

:func:`make_vector` builds a :class:`VectorEnv` over
:class:`~plunder.envs.core.batch.GameBatch`: the games run in the game's compiled engine
where it is built (the rules, views, observations and masks of all tables in C, the GIL
released, split over ``threads``), in Python otherwise, with the same observations, masks
and games from the same seed either way; ``venv.compiled`` says which.

Each :meth:`~VectorEnv.reset` and :meth:`~VectorEnv.step` returns a :class:`VectorStep`:
one row per pending decision of all tables (tables in order, a table's deciders in seat
order: several rows for a simultaneous decision, all asked from the same state), with its
table and seat, and per table the rewards of every seat, and whether its game ended
(``terminations``) or was cut at ``max_turns`` (``truncations``) in that step. A table
whose game ends starts a new one at once (same-step auto-reset), from the table's own
generator, spawned from the batch seed. The names follow Gymnasium's vector API where
they fit (``reset(seed=)``, ``step(actions)``, ``terminations``, ``truncations``,
``num_envs``, ``single_observation_space``, ``single_action_space``); the rows do not:
docs/vector.md says why.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .batch import GameBatch, check_threads
from .errors import InvalidArgumentError


class VectorStep(NamedTuple):
    """What :meth:`VectorEnv.reset` and :meth:`VectorEnv.step` return.

    ``k`` rows, one per pending decision: ``observations`` ``(k, obs_size)`` float32,
    ``action_masks`` ``(k, num_actions)`` int8 (1 = legal), ``tables`` and ``seats``
    ``(k,)`` int64 (which table's game and which seat decides). Per table:
    ``rewards`` ``(num_envs, num_players)`` float32, every seat's reward for this step
    (non-zero only on a table whose game ended in it), ``terminations`` and
    ``truncations`` ``(num_envs,)`` bool. A table flagged in either already holds a new
    game, whose first decisions are among the rows.
    """

    observations: np.ndarray
    action_masks: np.ndarray
    tables: np.ndarray
    seats: np.ndarray
    rewards: np.ndarray
    terminations: np.ndarray
    truncations: np.ndarray


class VectorEnv:
    """``num_envs`` games of one plunder game stepped together (see the module docstring).

    Build it with :func:`make_vector`. ``step(actions)`` takes one integer action per row
    of the last result, in row order (an array of shape ``(k,)``); an action its row's
    mask forbids raises ``IllegalActionError`` and a malformed array
    ``InvalidArgumentError``, with nothing applied either way.
    """

    metadata = {"render_modes": []}

    def __init__(self, env_id: str, num_envs: int, num_players: int | None = None,
                 seed: int | None = None, threads: int = 1, compiled: bool | None = None,
                 reward_mode: str = "rank", max_turns: int | None = None,
                 derived_features: bool = True, **options: Any):
        from gymnasium import spaces

        from .registry import game_class, resolve_env_id

        self.env_id = resolve_env_id(env_id)
        cls = game_class(self.env_id)
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) \
                or num_envs < 1:
            raise InvalidArgumentError(f"num_envs (games side by side) must be a positive "
                                       f"int, got {num_envs!r}")
        if num_players is None:
            num_players = cls.min_players
        if seed is not None and (isinstance(seed, bool) or not isinstance(
                seed, (int, np.integer)) or seed < 0):
            raise InvalidArgumentError(f"seed must be None or a non-negative int, got {seed!r}")
        self.threads = check_threads(threads)
        self._sequence = np.random.SeedSequence(seed)
        self.batch = GameBatch(cls, num_players, int(num_envs), options, reward_mode,
                               max_turns, self._sequence, derived_features, compiled,
                               self.threads)
        self.num_envs = self.batch.n
        self.num_players = self.batch.num_players
        self.num_actions = self.batch.num_actions
        self.max_turns = self.batch.max_turns
        self.reward_mode = reward_mode
        #: the layout of an observation row (names and ranges of its entries)
        self.layout = self.batch.layout
        self.single_observation_space = spaces.Box(self.layout.low, self.layout.high,
                                                   dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.num_actions)
        self._last: VectorStep | None = None
        self._dealt = True          # the games the constructor dealt are still unplayed

    @property
    def compiled(self) -> bool:
        """Whether the games run in the game's compiled engine (else in Python)."""
        return self.batch.compiled

    @property
    def backend(self) -> str:
        """``"compiled"`` or ``"python"``: where the games run."""
        return "compiled" if self.compiled else "python"

    @property
    def obs_size(self) -> int:
        """Length of an observation row."""
        return self.batch.obs_size

    def __repr__(self) -> str:
        return (f"VectorEnv({self.env_id!r}, num_envs={self.num_envs}, num_players="
                f"{self.num_players}, {self.backend}, threads={self.threads})")

    def reset(self, seed: int | None = None) -> VectorStep:
        """New games on every table; returns their first decisions.

        ``seed`` re-seeds the batch: the tables' generators are spawned from it, as
        ``make_vector(seed=...)`` spawns them (so ``reset(seed=s)`` replays the games of
        ``make_vector(..., seed=s)``). Without one, the first reset plays the games the
        constructor's seed dealt, and each later one deals new games from the next
        generators spawned from that seed: a seeded batch is reproducible from end to end.
        """
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
                raise InvalidArgumentError(f"seed must be None or a non-negative int, "
                                           f"got {seed!r}")
            self._sequence = np.random.SeedSequence(int(seed))
            self.batch.reset(self._sequence)
        elif not self._dealt:
            self.batch.reset(self._sequence)
        self._dealt = False
        zeros = np.zeros(self.num_envs, bool)
        self._last = self._result(np.zeros((self.num_envs, self.num_players), np.float32),
                                  zeros, zeros.copy())
        return self._last

    def step(self, actions) -> VectorStep:
        """One action per row of the last result (in its order); returns the new rows
        and every table's rewards and end flags for this step."""
        if self._last is None:
            raise InvalidArgumentError("step() before reset(): call reset() first")
        rewards, terminated, truncated = self.batch.step(actions)
        self._last = self._result(rewards, terminated, truncated)
        return self._last

    def _result(self, rewards, terminated, truncated) -> VectorStep:
        tables, seats, obs, masks = self.batch.decisions()
        return VectorStep(obs, masks, tables, seats, rewards, terminated, truncated)

    def ended(self, i: int):
        """Table ``i``'s last finished (or cut) game as it ended (``scores()``,
        ``rank_keys()``), or None if it has not finished one."""
        return self.batch.ended(i)

    def close(self) -> None:
        """Nothing to release (kept for the vector-env convention)."""

    def __enter__(self) -> "VectorEnv":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def make_vector(env_id: str, num_envs: int, num_players: int | None = None,
                seed: int | None = None, threads: int = 1, compiled: bool | None = None,
                reward_mode: str = "rank", max_turns: int | None = None,
                derived_features: bool = True, **options: Any) -> VectorEnv:
    """``num_envs`` games of ``env_id`` as one :class:`VectorEnv`.

    ``num_players`` (default: the game's fewest), ``reward_mode`` (``rank``, ``win`` or
    ``score``), ``max_turns`` (default: the game's), ``derived_features`` and the game's
    variant options (``**options``) mean what they mean for ``env()``. ``seed`` seeds
    every table's generator (spawned from it). ``compiled``: None runs the games in the
    compiled engine where it is built, True requires it (``InvalidArgumentError`` where it
    is not), False keeps them in Python. ``threads`` (1-64) splits a compiled batch's
    steps over that many threads; results do not depend on it (each table is stepped by
    one thread), and games in Python ignore it.
    """
    return VectorEnv(env_id, num_envs, num_players, seed, threads, compiled, reward_mode,
                     max_turns, derived_features, **options)
