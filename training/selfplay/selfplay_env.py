"""One learner seat against a pool of opponents, for any registered plunder game.

The learner's seat is drawn at the start of every game; every other seat gets an opponent
drawn from an :class:`OpponentPool` (random, heuristic, frozen snapshots of the learner,
exported ONNX bots). The learner acts whenever its seat is among the game's current
deciders (its turns, the steps of a multi-step move, out-of-turn decisions, its part of a
simultaneous decision); opponents act in between. Observations come from the state, which
does not change until a simultaneous decision is complete, so nobody ever sees a pending
choice — the same guarantee as the AEC env.

Two front ends over one engine (:class:`_Tables`):

- :class:`SelfPlayEnv` — a plain ``gymnasium.Env`` (observation: the flat float32 vector;
  ``action_masks()`` for MaskablePPO). It passes gymnasium's and SB3's env checkers.
- :class:`SelfPlayVecEnv` — an SB3 ``VecEnv`` running N games in one process. Each round it
  collects every pending opponent decision across the N games and answers all decisions of
  the same snapshot with *one* batched forward pass (numpy), which is what makes 4-player
  self-play fast (see ``docs/training.md`` for the measurements). Its ``collect`` plays a
  whole PPO rollout with a numpy copy of the learner (:mod:`plunder.training.selfplay.ppo`).
- :class:`ParallelSelfPlayVecEnv` — the same split over worker processes; its
  ``collect_async`` / ``collect_wait`` let the workers play a rollout while the trainer
  updates.

The games of all tables are stepped together in a :class:`~plunder.envs.core.batch.
GameBatch`: in the game's compiled engine where it is built (the rules, views,
observations and masks of all tables in C, no Python per game), else in the Python
engine, with the same games from the same seed either way. Each round takes every
table's pending decisions as arrays, answers the learners' rows and the opponents' (every
opponent action checked against its mask), and steps the batch once; a table waiting for
its learner is held while the others play on. Rewards are the env's own
(``reward_mode``).
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv

from plunder.envs import game_class
from plunder.envs.core import InvalidArgumentError
from plunder.envs.core.batch import GameBatch
from plunder.envs.core.rewards import REWARD_MODES, final_rewards, winners

from .actors import Actor, MlpActor, actor_from_arrays, actor_from_policy  # noqa: F401
# limit_numpy_threads is re-exported (its torch-free home is .threads)
from plunder.training.threads import limit_numpy_threads, process_context  # noqa: F401

KINDS = ("random", "heuristic", "snapshots", "onnx")


class ActorPolicy:
    """An :class:`~plunder.training.selfplay.actors.Actor` as a per-seat Policy (greedy by default)."""

    def __init__(self, actor: Actor, greedy: bool = True, seed: int | None = None,
                 name: str = "learner", memory=None):
        self.actor, self.greedy, self.name = actor, greedy, name
        self.rng = np.random.default_rng(seed)
        #: an observation memory (Game.observation_memory) for an actor trained with the
        #: game's perfect-recall variant that plays the game without it; None: stateless
        self.memory = memory

    def reset(self) -> None:
        """Forget the previous game (only with a memory)."""
        if self.memory is not None:
            self.memory.reset()

    def act(self, observation, action_mask) -> int:
        """The actor's action for one observation."""
        if self.memory is not None:
            observation = self.memory.recall(observation)
        return int(self.actor.act_batch(observation[None], action_mask[None], self.rng,
                                        self.greedy)[0])


# -- opponents and the pool ----------------------------------------------------------------

class Opponent:
    """A pool member. Either batched (``act_batch`` over many seats at once, stateless) or
    per-seat (``make(seed)`` builds a Policy for one seat, reused with ``reset()``)."""

    batched = False

    def __init__(self, kind: str, name: str, factory=None):
        self.kind, self.name, self.factory = kind, name, factory

    def make(self, seed: int):
        """A Policy for one seat."""
        return self.factory(seed)

    def act_batch(self, obs, masks, rng):  # pragma: no cover - overridden
        raise NotImplementedError


class SnapshotOpponent(Opponent):
    """A frozen copy of the learner; all its seats across all games share one forward."""

    batched = True

    def __init__(self, actor: Actor, step: int, greedy: bool = False):
        super().__init__("snapshots", f"snapshot@{step}")
        self.actor, self.step, self.greedy = actor, step, greedy

    def act_batch(self, obs, masks, rng):
        """Actions for a batch of seats."""
        return self.actor.act_batch(obs, masks, rng, self.greedy)


class OpponentPool:
    """Who sits in the other seats: kinds with sampling weights, snapshots by recency.

    ``sample(rng)`` draws a kind with probability proportional to its weight (kinds with no
    member are skipped), then a member: snapshot k places from the newest has weight
    ``recency**k``; the onnx kind picks uniformly among its files. With probability
    ``whole_table`` one draw fills every other seat of a game (say, a table of heuristic
    bots, as the final evaluation plays: ``sample_whole_table``), otherwise each seat
    draws its own.
    """

    def __init__(self, env_id: str, num_players: int, options: dict | None = None,
                 weights: dict[str, float] | None = None, max_snapshots: int = 10,
                 recency: float = 0.8, greedy_snapshots: bool = False,
                 onnx_paths: list[str] = (), whole_table: float = 0.0):
        from plunder.policies.base import HEURISTICS, RandomPolicy, heuristic_class, make_bot

        self.env_id, self.num_players = env_id, num_players
        self.options = dict(options or {})
        self.weights = dict(weights if weights is not None else {"random": 1.0})
        unknown = sorted(set(self.weights) - set(KINDS))
        if unknown:
            raise InvalidArgumentError(f"unknown opponent kinds {unknown}; use {KINDS}")
        self.recency, self.greedy_snapshots = recency, greedy_snapshots
        if not 0.0 <= whole_table <= 1.0:
            raise InvalidArgumentError(f"whole_table is a probability, got {whole_table!r}")
        self.whole_table = float(whole_table)
        self.snapshots: deque[SnapshotOpponent] = deque(maxlen=max_snapshots)
        game = game_class(env_id)(num_players, **self.options)
        self.members: dict[str, list[Opponent]] = {k: [] for k in KINDS}
        self.members["random"].append(
            Opponent("random", "random", lambda seed: RandomPolicy(game, seed=seed)))
        cls = None
        if env_id in HEURISTICS:
            try:
                cls = heuristic_class(env_id)
            except ImportError:  # registered but not importable (yet): no heuristic seats
                cls = None
        if cls is not None:
            self.members["heuristic"].append(
                Opponent("heuristic", "heuristic", lambda seed: cls(game, seed=seed)))
        for path in onnx_paths:
            self.members["onnx"].append(Opponent(
                "onnx", f"onnx:{path}",
                lambda seed, p=path: make_bot(f"trained:{p}", env_id, num_players, seed=seed,
                                              **self.options)))

    def add_snapshot(self, actor: Actor, step: int) -> None:
        """Freeze ``actor`` (a copy of the learner at ``step``) into the pool."""
        self.snapshots.append(SnapshotOpponent(actor, step, self.greedy_snapshots))

    def available(self) -> dict[str, list[Opponent]]:
        """Members per kind (snapshots newest last)."""
        out = dict(self.members)
        out["snapshots"] = list(self.snapshots)
        return out

    def sample(self, rng: np.random.Generator) -> Opponent:
        """One opponent for one seat of one game."""
        avail = self.available()
        kinds = [k for k in KINDS if self.weights.get(k, 0) > 0 and avail[k]]
        if not kinds:
            raise InvalidArgumentError(
                f"the opponent pool is empty (weights {self.weights}, "
                f"{len(self.snapshots)} snapshots)")
        w = np.array([self.weights[k] for k in kinds], float)
        kind = kinds[int(rng.choice(len(kinds), p=w / w.sum()))] if len(kinds) > 1 else kinds[0]
        members = avail[kind]
        if len(members) == 1:
            return members[0]
        if kind == "snapshots":
            age = np.arange(len(members))[::-1]
            pw = self.recency ** age
            return members[int(rng.choice(len(members), p=pw / pw.sum()))]
        return members[int(rng.integers(len(members)))]

    def sample_whole_table(self, rng: np.random.Generator) -> Opponent | None:
        """With probability ``whole_table``, the one opponent for every other seat of a
        new game; else None (then each seat samples). Draws nothing when it is 0, so
        runs without it keep their random streams."""
        if self.whole_table > 0 and rng.random() < self.whole_table:
            return self.sample(rng)
        return None

    def state_dict(self) -> dict[str, np.ndarray]:
        """Snapshots as arrays (for checkpoints)."""
        out = {"steps": np.array([s.step for s in self.snapshots], np.int64)}
        for i, snap in enumerate(self.snapshots):
            for k, v in snap.actor.to_arrays().items():
                out[f"s{i}_{k}"] = v
        return out

    def load_state_dict(self, arrays) -> None:
        """Restore the snapshots written by ``state_dict``."""
        self.snapshots.clear()
        for i, step in enumerate(np.asarray(arrays["steps"]).tolist()):
            prefix = f"s{i}_"
            sub = {k[len(prefix):]: arrays[k] for k in arrays if k.startswith(prefix)}
            self.add_snapshot(actor_from_arrays(sub), int(step))


# -- the game engine driver ----------------------------------------------------------------

class _Table:
    """Who sits at one table of the batch: the learner's seat, the opponents, and the
    learner's current observation and mask."""

    __slots__ = ("rng", "learner", "seats", "policies", "cache", "ep_steps", "ep_start",
                 "obs", "mask", "seat_names")

    def __init__(self, rng: np.random.Generator):
        self.rng = rng              # the seat draws and the per-seat bots' seeds
        self.learner = 0
        self.seats: list[Opponent | None] = []
        self.policies: list[Any] = []
        self.cache: dict[tuple[int, int], Any] = {}
        self.ep_steps = 0
        self.ep_start = 0.0
        self.obs = None
        self.mask = None
        self.seat_names: list[str] = []


class _Tables:
    """N games against the pool, stepped together in a
    :class:`~plunder.envs.core.batch.GameBatch` (the game's compiled engine where it is
    built, else the Python engine: the same games from the same seed), until each waits
    for its learner. A table waiting for its learner is held (``GameBatch.step``'s
    ``hold``) while the others play on."""

    def __init__(self, env_id: str, num_players: int, n: int, pool: OpponentPool,
                 options: dict | None = None, reward_mode: str = "rank",
                 max_turns: int | None = None, seed: int | None = None,
                 learner_seat: int | None = None):
        if reward_mode not in REWARD_MODES:
            raise InvalidArgumentError(f"reward_mode must be one of {REWARD_MODES}, "
                                       f"got {reward_mode!r}")
        self.env_id = env_id
        self.game_cls = game_class(env_id)
        self.reward_mode = reward_mode
        self.pool = pool
        self.n = n
        games = self._streams(seed)
        self.batch = GameBatch(self.game_cls, num_players, n, options, reward_mode,
                               max_turns, games)
        self.game = self.batch.game
        self.num_players = self.game.num_players
        self.max_turns = self.batch.max_turns
        self.learner_seat = learner_seat
        if learner_seat is not None and not 0 <= learner_seat < self.num_players:
            raise InvalidArgumentError(f"learner_seat must be 0..{self.num_players - 1}")
        self.obs_size = self.game.layout.size
        self._learners = np.zeros(n, np.int64)      # each table's learner seat
        self._given: dict[int, int] = {}            # learner actions for the next advance

    def _streams(self, seed: int | None) -> np.random.SeedSequence:
        """The generators of one seed: batched sampling, the learner's own sampling, each
        table's seat draws; returns the stream the tables' games are dealt from."""
        sample, learner, seats, games = np.random.SeedSequence(seed).spawn(4)
        self.sample_rng = np.random.default_rng(sample)
        self.learner_rng = np.random.default_rng(learner)
        self.tables = [_Table(np.random.default_rng(c)) for c in seats.spawn(self.n)]
        self._games = games
        self._fresh = True          # the batch holds games dealt from it, unplayed
        return games

    def seed(self, seed: int | None) -> None:
        """Independent generators per table and for batched sampling, from one seed;
        the games of the next :meth:`deal` come from it too."""
        self.batch.reset(self._streams(seed))

    # -- games ----------------------------------------------------------------------------
    def deal(self) -> None:
        """New games on every table (the next ones of the seed's stream), seats drawn."""
        if not self._fresh:
            self.batch.reset(self._games)
        self._fresh = False
        self._given = {}
        for i in range(self.n):
            self._seat(i)

    def _seat(self, i: int) -> None:
        """Draw the learner's seat and the opponents of table ``i``'s new game."""
        t = self.tables[i]
        n = self.num_players
        t.learner = self.learner_seat if self.learner_seat is not None \
            else int(t.rng.integers(n))
        self._learners[i] = t.learner
        t.seats, t.policies, t.seat_names = [], [], []
        # one other seat is a whole table already: no draw, so 2-player runs keep their streams
        everyone = self.pool.sample_whole_table(t.rng) if n > 2 else None
        for seat in range(n):
            if seat == t.learner:
                t.seats.append(None)
                t.policies.append(None)
                t.seat_names.append("learner")
                continue
            opp = everyone or self.pool.sample(t.rng)
            t.seats.append(opp)
            t.seat_names.append(opp.name)
            if opp.batched:
                t.policies.append(None)
            else:
                key = (seat, id(opp))
                pol = t.cache.get(key)
                if pol is None:
                    pol = t.cache[key] = opp.make(int(t.rng.integers(2**31 - 1)))
                pol.reset()
                t.policies.append(pol)
        t.ep_steps = 0
        t.ep_start = time.perf_counter()

    def outcome(self, i: int, truncated: bool = False) -> tuple[float, dict]:
        """The learner's final reward on table ``i``, whose game the last step ended, and
        the episode info (with the learner's terminal observation and whether the game
        was cut off by the turn limit)."""
        t = self.tables[i]
        st = self.batch.ended(i)
        keys = [tuple(k) for k in st.rank_keys()]
        scores = st.scores()
        rewards = final_rewards(self.reward_mode, keys, scores, self.num_players)
        win = winners(keys)
        r = float(rewards[t.learner])
        info = {
            "scores": [float(s) for s in scores], "winners": win,
            "learner_seat": t.learner, "seats": list(t.seat_names),
            "win": 1.0 / len(win) if t.learner in win else 0.0,
            "episode": {"r": r, "l": t.ep_steps,
                        "t": round(time.perf_counter() - t.ep_start, 6)},
            "TimeLimit.truncated": bool(truncated),
            "terminal_observation": self.batch.final_observation(i, t.learner),
        }
        return r, info

    def advance(self, auto_reset: bool) -> dict[int, tuple]:
        """Play every table on until it waits for its learner: the learners' actions
        given by :meth:`learner_act` first, then the opponents'.

        Returns {table index: (reward, terminated, truncated, info, terminal obs)} for the
        games that ended. With ``auto_reset`` a finished table goes on with its new game
        (seats drawn) up to its learner's first decision; otherwise it stops at the end.

        Every opponent's action is checked against the mask it was chosen from (an
        illegal one raises IllegalActionError naming the bot) before the batch applies
        the joint actions.
        """
        ended: dict[int, tuple] = {}
        given, self._given = self._given, {}
        stopped = np.zeros(self.n, bool)
        while True:
            tables, seats, obs, masks = self.batch.decisions()
            learner_rows = seats == self._learners[tables]
            hold = stopped.copy()
            act = np.zeros(len(tables), np.int64)
            for r in np.flatnonzero(learner_rows).tolist():
                i = int(tables[r])
                if i in given:
                    act[r] = given.pop(i)
                else:              # waits for its learner
                    hold[i] = True
                    t = self.tables[i]
                    t.obs, t.mask = obs[r], masks[r].astype(bool)
            if hold.all():
                return ended
            self._opponents_act(tables, seats, obs, masks,
                                np.flatnonzero(~learner_rows & ~hold[tables]), act)
            _, term, trunc = self.batch.step(act, hold if hold.any() else None)
            for i in np.flatnonzero(term | trunc).tolist():
                t = self.tables[i]
                if t.ep_steps == 0:  # the game ended before the learner was asked
                    self._seat(i)
                    continue
                r, info = self.outcome(i, bool(trunc[i] and not term[i]))
                term_obs = info["terminal_observation"]
                ended[i] = (r, bool(term[i]), bool(trunc[i]), info, term_obs)
                if auto_reset:
                    self._seat(i)
                else:
                    stopped[i] = True
                    t.obs = term_obs

    def _opponents_act(self, tables, seats, obs, masks, rows, act) -> None:
        """The opponents' actions of decision ``rows`` into ``act``: per-seat bots one by
        one, each batched opponent (a snapshot) in one forward pass over all its rows."""
        batched: dict[int, tuple[Opponent, list[int]]] = {}
        table_list, seat_list = tables.tolist(), seats.tolist()
        for r in rows.tolist():
            t, p = self.tables[table_list[r]], seat_list[r]
            opp = t.seats[p]
            if opp.batched:
                entry = batched.get(id(opp))
                if entry is None:
                    entry = batched[id(opp)] = (opp, [])
                entry[1].append(r)
            else:
                a = t.policies[p].act(obs[r], masks[r])
                self._check(a, masks[r], p, opp)
                act[r] = int(a)
        for opp, rs in batched.values():
            idx = np.array(rs)
            acts = opp.act_batch(obs[idx], masks[idx], self.sample_rng)
            legal = masks[idx, acts] != 0
            if not legal.all():
                k = int(np.flatnonzero(~legal)[0])
                self._check(acts[k], masks[idx[k]], seat_list[idx[k]], opp)
            act[idx] = acts

    def play(self, actor: Actor, n_steps: int, out: dict[str, Any]) -> None:
        """Play every table on until it has made ``n_steps`` learner steps and waits for its
        next learner decision, the learner sampling from ``actor``; fills ``out``'s arrays
        (indexed [step, table]; ``rewards`` and ``dones`` start at zero) and its ``ended``
        list (see ``SelfPlayVecEnv.collect``).

        Unlike ``advance``, a table does not wait for the others after each learner step:
        each round every running table makes one decision (the learner's or its opponents'),
        the learners' decisions of the round go through ``actor`` in one batch and each
        snapshot's in another. A table that has made its ``n_steps`` is held at its next
        learner decision while the others catch up. A learner step is closed (reward 0, or
        the final reward when the game ends) when its table next reaches a learner
        decision or the end.
        """
        obs_out, masks_out, actions, log_probs = out["obs"], out["masks"], out["actions"], \
            out["log_probs"]
        rewards, dones, ended = out["rewards"], out["dones"], out["ended"]
        self._given = {}
        count = np.zeros(self.n, np.int64)       # closed learner steps per table
        open_step = np.zeros(self.n, bool)       # the learner acted; its step is not closed
        while True:
            tables, seats, obs, masks = self.batch.decisions()
            is_learner = seats == self._learners[tables]
            rows = np.flatnonzero(is_learner)
            at = tables[rows]
            count[at[open_step[at]]] += 1        # asked again: its last step is closed
            open_step[at] = False
            full = count[at] == n_steps
            hold = np.zeros(self.n, bool)
            hold[at[full]] = True
            if hold.all():                       # done: each waits for the next rollout
                for r, i in zip(rows.tolist(), at.tolist()):
                    self.tables[i].obs, self.tables[i].mask = obs[r], masks[r].astype(bool)
                return
            act = np.zeros(len(tables), np.int64)
            rows, at = rows[~full], at[~full]
            if len(rows):
                steps = count[at]
                o, m = obs[rows], masks[rows].astype(bool)
                obs_out[steps, at] = o
                masks_out[steps, at] = m
                acts, lps = actor.sample(o, m, self.learner_rng)
                actions[steps, at] = acts
                log_probs[steps, at] = lps
                act[rows] = acts
                open_step[at] = True
                for i in at.tolist():
                    self.tables[i].ep_steps += 1
            self._opponents_act(tables, seats, obs, masks,
                                np.flatnonzero(~is_learner & ~hold[tables]), act)
            _, term, trunc = self.batch.step(act, hold if hold.any() else None)
            for i in np.flatnonzero(term | trunc).tolist():
                if self.tables[i].ep_steps:      # close the learner's last step
                    r, info = self.outcome(i, bool(trunc[i] and not term[i]))
                    k = count[i]
                    rewards[k, i], dones[k, i] = r, True
                    ended.append((int(k), i, info))
                    count[i] += 1
                    open_step[i] = False
                self._seat(i)

    def _check(self, action, mask, seat, opp) -> None:
        a = int(action) if isinstance(action, (int, np.integer)) else -1
        if not 0 <= a < len(mask) or not mask[a]:
            from plunder.envs.core import IllegalActionError
            raise IllegalActionError(action, np.flatnonzero(mask).tolist(), player=seat,
                                     describe=self.game.action_name) from RuntimeError(
                f"opponent {opp.name} in seat {seat} chose an illegal action")

    def learner_act(self, i: int, action) -> None:
        """Record the learner's action on table ``i`` (applied by the next ``advance``)."""
        t = self.tables[i]
        a = int(action)
        if not (0 <= a < len(t.mask)) or not t.mask[a]:
            from plunder.envs.core import IllegalActionError
            raise IllegalActionError(a, np.flatnonzero(t.mask).tolist(), player=t.learner,
                                     describe=self.game.action_name)
        self._given[i] = a
        t.ep_steps += 1


def _spaces(game):
    layout = game.layout
    obs_space = spaces.Box(layout.low, layout.high, dtype=np.float32)
    return obs_space, spaces.Discrete(game.num_actions)


def make_pool(env_id: str, num_players: int, options: dict | None = None,
              opponents=None, **kwargs) -> OpponentPool:
    """A pool from ``opponents``: a pool, a weights dict, or a list of kinds."""
    if isinstance(opponents, OpponentPool):
        return opponents
    if opponents is None:
        opponents = {"random": 1.0, "heuristic": 1.0}
    if isinstance(opponents, (list, tuple)):
        opponents = {k: 1.0 for k in opponents}
    return OpponentPool(env_id, num_players, options, weights=dict(opponents), **kwargs)


class SelfPlayEnv(gymnasium.Env):
    """A gymnasium env: one learner seat of ``env_id`` against opponents from a pool.

    Observation: the learner's flat observation vector (``Box`` from the game's layout);
    action: ``Discrete(num_actions)``; ``action_masks()`` gives the legal actions (bool).
    Reward: the learner's end-of-game reward under ``reward_mode``; 0 before the end.
    ``info`` at the end has the scores, winners, learner seat and the opponents' names.
    An illegal action (MaskablePPO never picks one) ends the game with reward -1, like
    PettingZoo's ``TerminateIllegalWrapper`` (``illegal_action="raise"`` raises instead).
    """

    metadata = {"render_modes": []}

    def __init__(self, env_id: str, num_players: int | None = None, opponents=None,
                 options: dict | None = None, reward_mode: str = "rank",
                 max_turns: int | None = None, seed: int | None = None,
                 learner_seat: int | None = None, illegal_action: str = "penalty",
                 **pool_kwargs):
        if illegal_action not in ("penalty", "raise"):
            raise InvalidArgumentError("illegal_action must be 'penalty' or 'raise'")
        self.illegal_action = illegal_action
        cls = game_class(env_id)
        num_players = num_players or cls.min_players
        self.pool = make_pool(env_id, num_players, options, opponents, **pool_kwargs)
        self._engine = _Tables(env_id, num_players, 1, self.pool, options, reward_mode,
                               max_turns, seed, learner_seat)
        self.game = self._engine.game
        self.observation_space, self.action_space = _spaces(self.game)
        self.render_mode = None
        self._finished = True

    @property
    def learner_seat(self) -> int:
        """The learner's seat in the current game."""
        return self._engine.tables[0].learner

    def add_snapshot(self, actor: Actor, step: int) -> None:
        """Add a frozen learner copy to this env's pool."""
        self.pool.add_snapshot(actor, step)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Start a new game and play the opponents up to the learner's first decision."""
        super().reset(seed=seed)
        if seed is not None:
            self._engine.seed(seed)
        t = self._engine.tables[0]
        self._engine.deal()
        ended = self._engine.advance(auto_reset=True)
        if ended:
            raise RuntimeError("a new game ended before the learner's first decision")
        self._finished = False
        return t.obs.copy(), {"learner_seat": t.learner, "seats": list(t.seat_names)}

    def step(self, action):
        """The learner's action; opponents answer until it must act again or the game ends."""
        if self._finished:
            raise InvalidArgumentError("step() after the game ended; call reset()")
        t = self._engine.tables[0]
        a = int(action)
        if self.illegal_action == "penalty" and not (0 <= a < len(t.mask) and t.mask[a]):
            # like PettingZoo's TerminateIllegalWrapper: the game ends, the learner gets -1
            self._finished = True
            info = {"illegal_action": a, "legal_actions": np.flatnonzero(t.mask).tolist(),
                    "learner_seat": t.learner, "seats": list(t.seat_names)}
            t.mask = np.zeros(self.game.num_actions, bool)
            return t.obs.copy(), -1.0, True, False, info
        self._engine.learner_act(0, action)
        ended = self._engine.advance(auto_reset=False)
        t = self._engine.tables[0]
        if 0 in ended:
            r, term, trunc, info, obs = ended[0]
            info.pop("terminal_observation")  # it is the observation returned here
            self._finished = True
            t.mask = np.zeros(self.game.num_actions, bool)
            return obs, r, bool(term), bool(trunc and not term), info
        return t.obs.copy(), 0.0, False, False, {}

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner now (all False once the game is over)."""
        return self._engine.tables[0].mask.copy()


class _OneObjectVecEnv(VecEnv):
    """VecEnv plumbing for a vectorized env that is one Python object: attributes and
    methods live on it once; ``action_masks`` is answered per game."""

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        """An attribute of this object, once per selected env."""
        value = getattr(self, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        """Set an attribute on this object."""
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs):
        """``action_masks`` per env; other methods run once here."""
        idx = list(self._get_indices(indices))
        if method_name == "action_masks":
            return [self._masks[i].copy() for i in idx]
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result for _ in idx]

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        """No gymnasium wrappers inside."""
        return [False for _ in self._get_indices(indices)]


class SelfPlayVecEnv(_OneObjectVecEnv):
    """N self-play games in one process with batched snapshot inference (an SB3 VecEnv)."""

    def __init__(self, env_id: str, num_players: int, n_envs: int, pool: OpponentPool,
                 options: dict | None = None, reward_mode: str = "rank",
                 max_turns: int | None = None, seed: int | None = None):
        self._engine = _Tables(env_id, num_players, n_envs, pool, options, reward_mode,
                               max_turns, seed)
        self.pool = pool
        self.game = self._engine.game
        self.render_mode = None
        obs_space, act_space = _spaces(self.game)
        super().__init__(n_envs, obs_space, act_space)
        self._actions = None
        self._masks = np.zeros((n_envs, self.game.num_actions), bool)

    def add_snapshot(self, actor: Actor, step: int) -> None:
        """Add a frozen learner copy to the shared pool."""
        self.pool.add_snapshot(actor, step)

    def _collect(self) -> np.ndarray:
        tables = self._engine.tables
        for i, t in enumerate(tables):
            self._masks[i] = t.mask
        return np.stack([t.obs for t in tables])

    def reset(self):
        """New games everywhere."""
        eng = self._engine
        if any(s is not None for s in self._seeds):
            eng.seed(self._seeds[0])
        self._reset_seeds()
        eng.deal()
        eng.advance(auto_reset=True)
        return self._collect()

    def step_async(self, actions: np.ndarray) -> None:
        """Remember the learners' actions."""
        self._actions = actions

    def step_wait(self):
        """Apply the learners' actions and advance every game to its next learner decision."""
        eng = self._engine
        for i, a in enumerate(np.asarray(self._actions).reshape(-1).tolist()):
            eng.learner_act(i, a)
        ended = eng.advance(auto_reset=True)
        rewards = np.zeros(self.num_envs, np.float32)
        dones = np.zeros(self.num_envs, bool)
        infos: list[dict] = [{} for _ in range(self.num_envs)]
        for i, (r, term, trunc, info, term_obs) in ended.items():
            rewards[i] = r
            dones[i] = True
            info["terminal_observation"] = term_obs
            infos[i] = info
        return self._collect(), rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """Legal actions of every learner, shape (n_envs, num_actions)."""
        return self._masks.copy()

    def collect(self, actor: Actor, n_steps: int) -> dict[str, Any]:
        """Play ``n_steps`` learner steps in every game, the learner sampling from ``actor``
        (with this env's own generator): a rollout for :class:`~plunder.training.selfplay.ppo.
        SelfPlayPPO`. Returns arrays indexed [step, env] — ``obs`` and ``masks`` (what the
        learner saw), ``actions``, ``rewards``, ``dones`` — plus ``ended`` (step, env,
        info) for every finished game and ``last_obs`` / ``last_masks`` after the last step.
        """
        n = self.num_envs
        out = {"obs": np.empty((n_steps, n, *self.observation_space.shape), np.float32),
               "masks": np.empty((n_steps, n, self.game.num_actions), bool),
               "actions": np.empty((n_steps, n), np.int64),
               "log_probs": np.empty((n_steps, n), np.float32),
               "rewards": np.zeros((n_steps, n), np.float32),
               "dones": np.zeros((n_steps, n), bool), "ended": []}
        self._engine.play(actor, n_steps, out)
        out["ended"].sort(key=lambda e: (e[0], e[1]))
        out["last_obs"] = self._collect()
        out["last_masks"] = self._masks.copy()
        return out

    def close(self) -> None:
        """Nothing to release."""


def _worker(remote, parent_remote, kwargs) -> None:  # pragma: no cover - runs in a child
    """A process running one SelfPlayVecEnv slice for ParallelSelfPlayVecEnv."""
    parent_remote.close()
    limit_numpy_threads(1)
    pool = OpponentPool(**kwargs.pop("pool"))
    vec = SelfPlayVecEnv(pool=pool, **kwargs)
    try:
        while True:
            cmd, arg = remote.recv()
            if cmd == "step":
                obs, rew, done, infos = vec.step(arg)
                remote.send((obs, rew, done, infos, vec.action_masks()))
            elif cmd == "reset":
                obs = vec.reset()
                remote.send((obs, vec.action_masks()))
            elif cmd == "collect":
                remote.send(vec.collect(actor_from_arrays(arg[0]), arg[1]))
            elif cmd == "add_snapshot":
                pool.add_snapshot(actor_from_arrays(arg[0]), arg[1])
                remote.send(None)
            elif cmd == "close":
                import time as _time
                remote.send(_time.process_time())
                remote.close()
                break
    except (EOFError, KeyboardInterrupt):
        pass


class ParallelSelfPlayVecEnv(_OneObjectVecEnv):
    """``SelfPlayVecEnv`` split over worker processes (``vec_env: batched`` with
    ``vec_workers > 1``): each worker plays its share of the games with batched opponent
    inference; the learner's forward pass and PPO stay in the main process."""

    def __init__(self, env_id: str, num_players: int, n_envs: int, pool: OpponentPool,
                 pool_kwargs: dict, workers: int = 2, options: dict | None = None,
                 reward_mode: str = "rank", max_turns: int | None = None,
                 seed: int | None = None):
        if not 1 <= workers <= n_envs:
            raise InvalidArgumentError(f"vec_workers must be 1..n_envs, got {workers}")
        self.pool = pool
        self.game = game_class(env_id)(num_players, **(options or {}))
        self.render_mode = None
        sizes = [n_envs // workers + (w < n_envs % workers) for w in range(workers)]
        ctx = process_context()
        seeds = np.random.SeedSequence(seed).generate_state(workers).tolist()
        self.remotes, self.procs = [], []
        for w, size in enumerate(sizes):
            remote, child = ctx.Pipe()
            kwargs = dict(env_id=env_id, num_players=num_players, n_envs=size,
                          options=options, reward_mode=reward_mode, max_turns=max_turns,
                          seed=int(seeds[w]), pool=dict(pool_kwargs))
            proc = ctx.Process(target=_worker, args=(child, remote, kwargs), daemon=True)
            proc.start()
            child.close()
            self.remotes.append(remote)
            self.procs.append(proc)
        self.sizes = sizes
        obs_space, act_space = _spaces(self.game)
        super().__init__(n_envs, obs_space, act_space)
        self._masks = np.zeros((n_envs, self.game.num_actions), bool)
        self._actions = None
        self.collecting = False
        self.closed = False

    def add_snapshot(self, actor: Actor, step: int) -> None:
        """Freeze the learner into every worker's pool (and the master pool)."""
        self._check_idle()
        self.pool.add_snapshot(actor, step)
        arrays = actor.to_arrays()
        for r in self.remotes:
            r.send(("add_snapshot", (arrays, step)))
        for r in self.remotes:
            r.recv()

    def reset(self):
        """New games in every worker."""
        self._check_idle()
        for r in self.remotes:
            r.send(("reset", None))
        results = [r.recv() for r in self.remotes]
        self._masks = np.concatenate([m for _, m in results])
        return np.concatenate([o for o, _ in results])

    def step_async(self, actions: np.ndarray) -> None:
        """Send each worker its slice of the learners' actions."""
        self._check_idle()
        start = 0
        for r, size in zip(self.remotes, self.sizes):
            r.send(("step", np.asarray(actions)[start:start + size]))
            start += size

    def step_wait(self):
        """Gather the workers' results in env order."""
        results = [r.recv() for r in self.remotes]
        obs = np.concatenate([x[0] for x in results])
        rew = np.concatenate([x[1] for x in results])
        done = np.concatenate([x[2] for x in results])
        infos = [i for x in results for i in x[3]]
        self._masks = np.concatenate([x[4] for x in results])
        return obs, rew, done, infos

    def action_masks(self) -> np.ndarray:
        """Legal actions of every learner."""
        return self._masks.copy()

    def _check_idle(self) -> None:
        if self.collecting:
            raise RuntimeError("the workers are collecting a rollout; call collect_wait() "
                               "first")

    def collect(self, actor: Actor, n_steps: int) -> dict[str, Any]:
        """``SelfPlayVecEnv.collect`` in every worker at once, joined in env order."""
        self.collect_async(actor, n_steps)
        return self.collect_wait()

    def collect_async(self, actor: Actor, n_steps: int) -> None:
        """Start ``collect`` in every worker and return at once (``collect_wait`` joins)."""
        self._check_idle()
        arrays = actor.to_arrays()
        for r in self.remotes:
            r.send(("collect", (arrays, n_steps)))
        self.collecting = True

    def collect_wait(self) -> dict[str, Any]:
        """The rollout started by ``collect_async``, joined in env order."""
        if not self.collecting:
            raise RuntimeError("no rollout is being collected; call collect_async() first")
        parts = [r.recv() for r in self.remotes]
        self.collecting = False
        out = {k: np.concatenate([p[k] for p in parts], axis=1)
               for k in ("obs", "masks", "actions", "log_probs", "rewards", "dones")}
        out["ended"] = []
        start = 0
        for p, size in zip(parts, self.sizes):
            out["ended"].extend((t, start + i, info) for t, i, info in p["ended"])
            start += size
        out["ended"].sort(key=lambda e: (e[0], e[1]))
        out["last_obs"] = np.concatenate([p["last_obs"] for p in parts])
        self._masks = np.concatenate([p["last_masks"] for p in parts])
        return out

    def close(self) -> None:
        """Stop the workers."""
        if self.closed:
            return
        self.worker_cpu_seconds = 0.0
        if self.collecting:  # a rollout nobody will use: let the workers finish it
            for r in self.remotes:
                try:
                    r.recv()
                except (EOFError, OSError):
                    pass
            self.collecting = False
        for r in self.remotes:
            try:
                r.send(("close", None))
                self.worker_cpu_seconds += float(r.recv())
            except (BrokenPipeError, EOFError, OSError):
                pass
        for p in self.procs:
            p.join(timeout=5)
        self.closed = True

