"""Score a policy on a benchmark task: ``plunder benchmark run TASK --policy SPEC`` /
``plunder.training.benchmark.evaluate(task, policy)``.

Games are played through the engine exactly as ``plunder eval`` plays them
(:func:`plunder.training.evaluation.play_game`; the seed of game ``g`` is
``game_seed(task.seed, g)``, the seed of the bot in seat ``s`` with entrant index ``b``
(0 the evaluated policy, 1 + i the task's opponent i) is ``bot_seed(task.seed, b, s)``).
Measures, per seat-game of the evaluated policy:

- **win share**: 1 for a sole win, 1/k for a win shared by k seats, else 0; mean over
  games, with its Wilson 95% interval;
- **mean rank**: 1 + the number of scoring seats whose final rank key beats the policy's
  (ties share the better rank; 1 is best, ``num_players`` worst; ShipShape's Cap'n counts
  as a seat);
- **score margin**: the policy's final score minus the best final score among the other
  player seats, averaged (positive: it won by that much on average);
- **rating**: an OpenSkill Plackett-Luce rating of every entrant (the policy and each
  opponent spec), all starting at mu 25, sigma 25/3 and updated after every game in game
  order, as ``plunder eval`` rates; reported as mu, sigma and the ordinal mu - 3 sigma
  (needs the ``openskill`` package, in the train extra; without it the ratings are null);
- **decision latency**: wall time of every call to the policy's ``act`` (or ``act_view``)
  in the evaluated seats, single-threaded numpy and onnxruntime, p50 and p99 in
  milliseconds (a measurement of this machine, not part of the score).
"""

from __future__ import annotations

import json
import platform
import shlex
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from plunder.envs import game_class
from plunder.envs.core import InvalidArgumentError
from plunder.training.evaluation import (BotStats, bot_factories, bot_seed, game_seed, play_game,
                                         rating_model, update_ratings, wilson)

from .policy_spec import MeasuredPolicy, resolve_policy
from .tasks import Task, get_task

#: version of the result JSON (``schema_version``; ``RESULT_SCHEMA_PATH`` validates it)
RESULT_SCHEMA_VERSION = "plunder-benchmark-result/1"
#: the JSON Schema (draft 2020-12) of a result, shipped as package data
RESULT_SCHEMA_PATH = Path(__file__).resolve().parent / "result.schema.json"


def plunder_version() -> str:
    """The installed plunder distribution's version."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("plunder")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "unknown"


def latency_summary(latencies_ns: list[int]) -> dict:
    """p50 / p99 / mean / max of decision times in milliseconds, and their count."""
    if not latencies_ns:
        return {"decisions": 0, "p50_ms": None, "p99_ms": None, "mean_ms": None,
                "max_ms": None}
    ms = np.asarray(latencies_ns, np.float64) / 1e6
    return {"decisions": int(len(ms)), "p50_ms": round(float(np.percentile(ms, 50)), 4),
            "p99_ms": round(float(np.percentile(ms, 99)), 4),
            "mean_ms": round(float(ms.mean()), 4), "max_ms": round(float(ms.max()), 4)}


@dataclass
class GameRecord:
    """One game's outcome for the evaluated policy."""

    seat: int
    opponents: list[int]
    win: float
    rank: int
    margin: float
    score: float
    truncated: bool
    ranked_seats: int


@dataclass
class BenchmarkResult:
    """What :func:`evaluate` returns; ``to_dict`` is the cited JSON."""

    task: Task
    policy: str
    policy_kind: str
    games: int
    records: list[GameRecord]
    ratings: list[dict] | None
    latency: dict
    wall_seconds: float
    command: str | None = None
    extra: dict = field(default_factory=dict)

    @property
    def win_share(self) -> float:
        """Mean win share per game."""
        return float(np.mean([r.win for r in self.records])) if self.records else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """Wilson 95% interval of the win share."""
        return wilson(sum(r.win for r in self.records), len(self.records))

    def to_dict(self) -> dict:
        """The result as JSON-ready data (validated by result.schema.json)."""
        n, recs, t = self.task.num_players, self.records, self.task
        lo, hi = self.ci95
        per_seat = []
        for s in range(n):
            mine = [r.win for r in recs if r.seat == s]
            per_seat.append({"seat": s, "games": len(mine),
                             "win_share": round(float(np.mean(mine)), 4) if mine else None})
        per_opponent = []
        for i, spec in enumerate(t.opponents):
            mine = [r.win for r in recs if i in r.opponents]
            per_opponent.append({"opponent": spec, "games": len(mine),
                                 "win_share": round(float(np.mean(mine)), 4)
                                 if mine else None})
        me = self.ratings[0] if self.ratings else None
        ranked = max((r.ranked_seats for r in recs), default=n)
        return {
            "schema_version": RESULT_SCHEMA_VERSION,
            "plunder_version": plunder_version(),
            "task": t.to_dict(),
            "task_name": t.name, "task_version": t.version,
            "policy": self.policy, "policy_kind": self.policy_kind,
            "games": self.games, "full_task": self.games == t.games,
            "results": {
                "win_share": round(self.win_share, 4), "ci95": [round(lo, 4), round(hi, 4)],
                "parity": round(1 / ranked, 4), "ranked_seats": ranked,
                "mean_rank": round(float(np.mean([r.rank for r in recs])), 4) if recs else None,
                "score_margin": round(float(np.mean([r.margin for r in recs])), 4)
                if recs else None,
                "mean_score": round(float(np.mean([r.score for r in recs])), 4)
                if recs else None,
                "rating": me,
                "truncated_games": int(sum(r.truncated for r in recs)),
                "per_seat": per_seat, "per_opponent": per_opponent,
            },
            "opponent_bots": opponent_bots(t),
            "ratings": self.ratings,
            "rating_model": "openskill PlackettLuce (mu 25, sigma 25/3)" if self.ratings
            else None,
            "latency": self.latency,
            "seeds": {"tournament_seed": t.seed,
                      "game_seed": "(2 * tournament_seed + 1) * 2**64 + g",
                      "first_game_seed": game_seed(t.seed, 0),
                      "last_game_seed": game_seed(t.seed, max(self.games - 1, 0)),
                      "bot_seed": "(2 * tournament_seed + 2) * 2**64 + 256 * entrant + seat"},
            "command": self.command,
            "environment": {"python": platform.python_version(),
                            "platform": platform.platform(terse=True),
                            "numpy": np.__version__, "onnxruntime": _ort_version()},
            "wall_seconds": round(self.wall_seconds, 3),
            "measured_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            **self.extra,
        }


def opponent_bots(task: Task) -> dict:
    """File, sha256 and placeholder flag of every shipped bot among a task's opponents
    (what a cited result was measured against)."""
    from plunder.policies.pretrained import manifest_entry, parse_spec

    out = {}
    for spec in task.opponents:
        kind, _, arg = spec.partition(":")
        if kind == "pretrained":
            e = manifest_entry(task.env_id, task.num_players, parse_spec(arg)[0],
                               options=task.option_dict)
            out[spec] = {"file": e["file"], "sha256": e["sha256"],
                         "placeholder": bool(e.get("placeholder", False))}
    return out


def _ort_version() -> str | None:
    """onnxruntime's version, or None when it is not installed."""
    try:
        import onnxruntime
    except ImportError:
        return None
    return onnxruntime.__version__


def default_command(task: Task, policy: str, games: int | None) -> str:
    """The ``plunder benchmark run`` command line that replays a run."""
    parts = ["plunder", "benchmark", "run", task.name, "--policy", policy]
    if games is not None and games != task.games:
        parts += ["--games", str(games)]
    return " ".join(shlex.quote(p) for p in parts)


def evaluate(task, policy, games: int | None = None,
             progress: Callable[[int], None] | None = None,
             command: str | None = None) -> BenchmarkResult:
    """Score ``policy`` (a spec string or a Python policy; policy_spec's module doc) on
    ``task`` (a Task or its name) over its games, or the first ``games`` of them."""
    from plunder.training.threads import limit_numpy_threads

    limit_numpy_threads(1)
    task = get_task(task)
    games = task.games if games is None else games
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InvalidArgumentError(f"games must be a positive whole number, got {games!r}")
    if games > task.games:
        raise InvalidArgumentError(f"task {task.name} has {task.games} games; --games "
                                   f"{games} would leave its seed range")
    env_id, n, options = task.env_id, task.num_players, task.option_dict
    source = resolve_policy(policy, env_id, n, options)
    opponents = bot_factories(list(task.opponents), env_id, n, options)
    cls = game_class(env_id)
    game = cls(n, **options)
    max_turns = int(task.max_turns or cls.default_max_turns)
    measured = [MeasuredPolicy(source.factory(bot_seed(task.seed, 0, s)), task.name, env_id, s)
                for s in range(n)]
    instances: dict[tuple[int, int], Any] = {}
    model = rating_model()
    stats = [BotStats(source.label)] + [BotStats(spec) for spec in task.opponents]
    records = []
    t0 = time.perf_counter()
    for g in range(games):
        seat, lineup = task.lineup(g)
        seats = []
        for s, b in enumerate(lineup):
            if b < 0:
                measured[s].game_index = g
                seats.append(measured[s])
                continue
            if (b, s) not in instances:
                instances[(b, s)] = opponents[b][1](bot_seed(task.seed, 1 + b, s))
            seats.append(instances[(b, s)])
        state, truncated = play_game(game, seats, game_seed(task.seed, g), max_turns)
        records.append(_record(state, seat, lineup, n, truncated))
        if model is not None:
            update_ratings(model, stats, [0 if b < 0 else 1 + b for b in lineup],
                  [tuple(k) for k in state.rank_keys()][:n])
        if progress is not None:
            progress(g + 1)
    wall = time.perf_counter() - t0
    ratings = None
    if model is not None:
        ratings = [{"entrant": st.name, "mu": round(st.mu, 3), "sigma": round(st.sigma, 3),
                    "ordinal": round(st.ordinal, 3)} for st in stats]
    latency = latency_summary([x for m in measured for x in m.latencies_ns])
    label = source.label if isinstance(policy, str) else f"python object {source.label}"
    return BenchmarkResult(task, label, source.kind, games, records, ratings, latency, wall,
                           command or (default_command(task, policy, games)
                                       if isinstance(policy, str) else None))


def _record(state, seat: int, lineup: list[int], n: int, truncated: bool) -> GameRecord:
    """The evaluated seat's outcome of one finished (or cut-off) game."""
    from plunder.envs.core.rewards import winners

    keys = [tuple(k) for k in state.rank_keys()]
    scores = [float(x) for x in state.scores()]
    win = winners(keys)
    rank = 1 + sum(1 for k in keys if k > keys[seat])
    best_other = max(scores[s] for s in range(n) if s != seat)
    return GameRecord(seat, [b for b in lineup if b >= 0],
                      1.0 / len(win) if seat in win else 0.0, rank,
                      scores[seat] - best_other, scores[seat], bool(truncated), len(keys))


def render_result(result: BenchmarkResult, echo: Callable[[str], None] = print) -> None:
    """Print a result as a small plain-text table of 80 columns (no rich needed)."""
    from plunder.training.tables import wrap

    d = result.to_dict()
    r, lat = d["results"], d["latency"]
    echo(wrap(f"{d['task_name']} (v{d['task_version']}), plunder {d['plunder_version']}: "
              f"{d['policy']} over {d['games']} games"
              + ("" if d["full_task"] else f" (of the task's {result.task.games}: not a "
                                           "full run)")))
    rating = r["rating"]
    rows = [("win share", f"{r['win_share']:.1%} (95% CI {r['ci95'][0]:.1%}–"
                          f"{r['ci95'][1]:.1%}; parity {r['parity']:.0%})"),
            ("mean rank", f"{r['mean_rank']:.3f} of {r['ranked_seats']} ranked seats"),
            ("score margin", f"{r['score_margin']:+.3f}"),
            ("rating", f"{rating['mu']:.2f} ± {rating['sigma']:.2f} (ordinal "
                       f"{rating['ordinal']:.2f})" if rating else "n/a (openskill missing)"),
            ("latency p50 / p99", f"{lat['p50_ms']:.3f} / {lat['p99_ms']:.3f} ms over "
                                  f"{lat['decisions']} decisions" if lat["decisions"]
             else "no decisions"),
            ("truncated games", str(r["truncated_games"]))]
    for o in r["per_opponent"]:
        if o["games"]:
            rows.append((f"  with {o['opponent']}", f"{o['win_share']:.1%} "
                                                    f"({o['games']} games)"))
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        echo(wrap(v, indent=f"  {k:<{width}}  ", hang=" " * (width + 4)))


def write_json(data: dict, path) -> None:
    """Write JSON atomically (a temp file beside it, then ``os.replace``)."""
    from plunder.training.atomic import atomic_write_text

    atomic_write_text(path, json.dumps(data, indent=2) + "\n")


__all__ = ["BenchmarkResult", "RESULT_SCHEMA_VERSION", "evaluate", "render_result",
           "write_json"]
