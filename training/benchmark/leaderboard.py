"""One rating scale for every bot of a table: ``plunder benchmark leaderboard GAME --players N``.

**Bots.** By default the table's four named strength levels (``level:novice`` ..
``level:expert``, :mod:`plunder.policies.levels`) that are playable there, ``random``
below them and the game's ``planner`` where it has one (``default_bots``); ``--bots``
gives any other list of bot specs.

**Round robin.** Every pair of bots plays a tournament with seat rotation
(:func:`plunder.training.evaluation.schedule` for two bots): with 2 players one per
unordered pair, with more one per ordered pair, the row bot in one seat and the column
bot in every other. Each pairing plays ``games`` games (default 1,000; pairings with a
search bot ``search_games``, the same by default). The games are played in chunks of
``CHUNK`` games, side by side in ``workers`` processes; each chunk is kept in a cache
folder as it finishes, so a stopped board resumes where it stopped, and the numbers do not
depend on the workers or on stops.

**Seeds.** The pairing (A, B) is the tournament with seed ``T = task_seed("leaderboard-
<game>-<n>p-A-vs-B")`` (``leaderboard-s<S>-...`` for ``--seed S`` > 0), which is at or
above 2**40: its games' env seeds ``(2T + 1)·2**64 + g`` are apart from every seed a
training run uses (all below 2**64) and from every training run's evaluation (tournament
seeds below 2**32). Bot ``k`` of the pair (0: A, 1: B) in seat ``s`` of chunk ``c`` is
seeded with ``bot_seed(T, 2c + k, s)``.

**Ratings.** One OpenSkill Plackett-Luce rating per bot (mu 25, sigma 25/3, beta 25/6) and
no dynamics factor (tau 0: the bots do not change between games), updated game by game in
one fixed order: game 0 of every pairing in turn, then game 1, and so on. A bot in several
seats of a game gets the mean of its seats' updates. On the Elo-equivalent scale a rating
is ``1500 + (mu - 25) * ELO_PER_MU``: between two bots of small sigma the model's win
probability is ``1 / (1 + exp(-(mu_a - mu_b) / (sqrt(2) * beta)))``, Elo's is ``1 / (1 +
10**(-(R_a - R_b) / 400))``, so ``ELO_PER_MU = 400 / (ln 10 * sqrt(2) * beta)`` (about
29.5). The 95% interval of a rating is ``± 1.96 sigma`` on that scale, of a difference
``± 1.96 sqrt(sigma_a² + sigma_b²)``. Adjacent levels are checked against
``LEVEL_GAP`` (100 points). With 2 players each gap also has the head-to-head Elo of the
two levels' own pairing, ``400 log10(p / (1 - p))`` of the upper level's win share (its
95% interval from the Wilson interval).

Latency: the wall time of every decision each bot makes in these games (numpy and
onnxruntime single-threaded), p50 and p99. Written as Markdown and JSON
(``docs/leaderboards/<game>-<n>p.md`` / ``.json``).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import time
from pathlib import Path

from plunder.envs import game_class
from plunder.envs.core import InvalidArgumentError
from plunder.envs.core.rewards import winners
from plunder.training.evaluation import (BotStats, bot_factories, bot_seed, game_seed, play_game,
                                         schedule, update_ratings, wilson)

from .run import latency_summary, plunder_version
from .tasks import task_seed

LEADERBOARD_SCHEMA_VERSION = "plunder-leaderboard/2"
#: games per pairing by default
LEADERBOARD_GAMES = 1000
#: games per chunk (the unit of work of a worker and of the cache)
CHUNK = 50
#: adjacent levels should stand at least this far apart (Elo-equivalent points)
LEVEL_GAP = 100.0
#: OpenSkill's defaults, which the board's model uses (with tau 0)
MU, SIGMA, BETA = 25.0, 25.0 / 3, 25.0 / 6
#: Elo-equivalent points per unit of mu, and the scale's anchor (mu 25)
ELO_PER_MU = 400.0 / (math.log(10) * math.sqrt(2) * BETA)
ELO_ANCHOR = 1500.0
#: what the board says of its rating model
RATING_MODEL = ("openskill PlackettLuce (mu 25, sigma 25/3, beta 25/6, tau 0), game g of "
                "every pairing in turn, then g + 1; Elo = 1500 + (mu - 25) * "
                f"{ELO_PER_MU:.3f}, 95% interval ± 1.96 sigma")
#: the default cache of finished chunks
CACHE_DIR = Path("runs") / "leaderboards"


def elo(mu: float) -> float:
    """A rating's mu on the Elo-equivalent scale."""
    return ELO_ANCHOR + (mu - MU) * ELO_PER_MU


def head_to_head_elo(share: float) -> float:
    """The Elo difference a head-to-head win share stands for (clamped off 0 and 1)."""
    p = min(max(share, 1e-4), 1 - 1e-4)
    return 400.0 * math.log10(p / (1 - p))


def _slow(spec: str) -> bool:
    """Whether a bot searches (seconds per game), as far as its spec says."""
    kind, _, arg = spec.partition(":")
    if kind == "noisy":
        return _slow(arg.partition(":")[2])
    return kind in ("search", "netsearch")


def default_bots(env_id: str, num_players: int, echo=print) -> tuple[str, ...]:
    """``random``, the levels playable at this table, and the planner where there is one."""
    from plunder.policies.base import PLANNERS
    from plunder.policies.levels import level_table

    bots = ["random"]
    for row in level_table(env_id, num_players):
        if row["playable"]:
            bots.append(f"level:{row['level']}")
        else:
            echo(f"  level {row['level']} ({row['bot']}) is left out: {row['reason']}")
    if env_id in PLANNERS:
        bots.append("planner")
    return tuple(bots)


def _resolved(spec: str, env_id: str, num_players: int) -> str:
    """The spec a level stands for at this table (other specs as they are)."""
    from plunder.policies.levels import level_spec

    kind, _, arg = spec.partition(":")
    return level_spec(arg, env_id, num_players)[0] if kind == "level" else spec


def _is_slow(spec: str, env_id: str, num_players: int) -> bool:
    return _slow(_resolved(spec, env_id, num_players))


class _Timed:
    """A bot whose decisions are timed into a shared list."""

    def __init__(self, inner, sink: list):
        self.inner, self.sink = inner, sink
        self.needs_view = bool(getattr(inner, "needs_view", False))

    def reset(self) -> None:
        """Reset the bot."""
        self.inner.reset()

    def act(self, observation, action_mask) -> int:
        """The bot's action, timed."""
        t0 = time.perf_counter_ns()
        a = self.inner.act(observation, action_mask)
        self.sink.append(time.perf_counter_ns() - t0)
        return a

    def act_view(self, view, action_mask) -> int:
        """The view-based bot's action, timed."""
        t0 = time.perf_counter_ns()
        a = self.inner.act_view(view, action_mask)
        self.sink.append(time.perf_counter_ns() - t0)
        return a


def pairings(num_bots: int, num_players: int) -> list[tuple[int, int]]:
    """Unordered pairs with 2 players, ordered pairs with more."""
    if num_players == 2:
        return list(itertools.combinations(range(num_bots), 2))
    return list(itertools.permutations(range(num_bots), 2))


def pairing_seed(env_id: str, num_players: int, a: str, b: str, seed: int = 0) -> int:
    """The tournament seed of the pairing of bots ``a`` and ``b`` (see the module doc)."""
    from plunder.training.games import game_name

    prefix = "leaderboard" if seed == 0 else f"leaderboard-s{seed}"
    return task_seed(f"{prefix}-{game_name(env_id)}-{num_players}p-{a}-vs-{b}")


def play_chunk(env_id: str, num_players: int, pair: tuple[str, str], tseed: int,
               chunk: int, games: int, chunk_size: int = CHUNK) -> dict:
    """Games ``chunk * chunk_size`` .. ``+ games - 1`` of a pairing: the line-up and rank
    keys of each, the games the turn limit cut, and the two bots' decision times (ns)."""
    from plunder.training.threads import limit_numpy_threads

    limit_numpy_threads(1)
    cls = game_class(env_id)
    game = cls(num_players)
    max_turns = int(cls.default_max_turns)
    facs = bot_factories(list(pair), env_id, num_players)
    lineups = schedule(2, num_players)
    latencies: list[list[int]] = [[], []]
    instances = {}
    out = {"lineups": [], "keys": [], "truncated": 0}
    t0 = time.perf_counter()
    for i in range(games):
        g = chunk * chunk_size + i
        lineup = lineups[g % len(lineups)]
        seats = []
        for s, k in enumerate(lineup):
            if (k, s) not in instances:
                instances[(k, s)] = _Timed(facs[k][1](bot_seed(tseed, 2 * chunk + k, s)),
                                           latencies[k])
            seats.append(instances[(k, s)])
        state, truncated = play_game(game, seats, game_seed(tseed, g), max_turns)
        out["lineups"].append(list(lineup))
        out["keys"].append([[float(x) for x in k] for k in state.rank_keys()])
        out["truncated"] += int(truncated)
    out["latency_ns"] = latencies
    out["seconds"] = time.perf_counter() - t0
    return out


def _identity(env_id: str, num_players: int, bots: tuple[str, ...], seed: int,
              chunk_size: int) -> dict:
    """What a board's games depend on besides the code: the bots as they resolve at this
    table and the shipped files they may load (a cached chunk is reused only for these)."""
    from plunder.policies.pretrained import load_manifest

    shipped = sorted(e["sha256"] for e in load_manifest()["bots"].values()
                     if e["env_id"] == env_id and int(e["num_players"]) == num_players)
    return {"schema": LEADERBOARD_SCHEMA_VERSION, "env_id": env_id, "num_players": num_players,
            "bots": [[b, _resolved(b, env_id, num_players)] for b in bots], "seed": seed,
            "chunk": chunk_size, "shipped_sha256": shipped, "plunder": plunder_version()}


def _cache_folder(cache_dir, identity: dict) -> Path | None:
    if cache_dir is None:
        return None
    from plunder.training.games import game_name

    digest = hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:12]
    return Path(cache_dir) / f"{game_name(identity['env_id'])}-{identity['num_players']}p-{digest}"


def _chunk_job(env_id, num_players, pair, tseed, chunk, games, chunk_size, path):
    """A chunk from the cache, or played (and then cached)."""
    if path is not None and Path(path).is_file():
        data = json.loads(Path(path).read_text())
        if data.get("games") == games:
            return data
    data = dict(play_chunk(env_id, num_players, pair, tseed, chunk, games, chunk_size),
                games=games)
    if path is not None:
        from plunder.training.atomic import atomic_write_text

        atomic_write_text(Path(path), json.dumps(data))
    return data


def _play_jobs(jobs: list[tuple], workers: int, echo) -> list[dict]:
    """Every chunk, in job order, played in up to ``workers`` processes; a line every
    tenth of the way."""
    step = max(1, len(jobs) // 10)
    done = 0

    def tick():
        nonlocal done
        done += 1
        if done % step == 0 or done == len(jobs):
            echo(f"  {done}/{len(jobs)} chunks")

    if workers <= 1 or len(jobs) <= 1:
        out = []
        for job in jobs:
            out.append(_chunk_job(*job))
            tick()
        return out
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from plunder.training.threads import process_context

    with ProcessPoolExecutor(min(workers, len(jobs)), mp_context=process_context()) as pool:
        futures = [pool.submit(_chunk_job, *job) for job in jobs]
        for _ in as_completed(futures):
            tick()
        return [f.result() for f in futures]


def run_leaderboard(game: str, num_players: int, games: int = LEADERBOARD_GAMES,
                    search_games: int | None = None, bots: tuple[str, ...] | None = None,
                    command: str | None = None, echo=print, seed: int = 0, workers: int = 1,
                    cache_dir: str | Path | None = None, chunk_size: int = CHUNK) -> dict:
    """Play the round robin and rate it (see the module doc); JSON-ready data."""
    from plunder.training.games import resolve_env_id

    try:
        import openskill  # noqa: F401
    except ImportError:
        raise InvalidArgumentError("plunder benchmark leaderboard rates the bots with "
                                   "openskill, in the train extra (pip install "
                                   "'plunder[train]')") from None
    env_id = resolve_env_id(game)
    if games < 1 or (search_games is not None and search_games < 1):
        raise InvalidArgumentError("a leaderboard plays at least one game per pairing")
    bots = tuple(bots) if bots is not None else default_bots(env_id, num_players, echo)
    if len(bots) < 2 or len(set(bots)) < len(bots):
        raise InvalidArgumentError(f"a leaderboard needs at least two distinct bots, got "
                                   f"{list(bots)}")
    bot_factories(list(bots), env_id, num_players)      # every bot can be made, before playing
    search_games = games if search_games is None else search_games
    identity = _identity(env_id, num_players, bots, seed, chunk_size)
    folder = _cache_folder(cache_dir, identity)
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "identity.json").write_text(json.dumps(identity, indent=2))
    pairs = pairings(len(bots), num_players)
    plan, jobs = [], []
    for a, b in pairs:
        slow = _is_slow(bots[a], env_id, num_players) or _is_slow(bots[b], env_id, num_players)
        n_games = search_games if slow else games
        tseed = pairing_seed(env_id, num_players, bots[a], bots[b], seed)
        plan.append((a, b, n_games, tseed))
        for c in range(math.ceil(n_games / chunk_size)):
            path = None if folder is None else folder / f"{a}-{b}-{c}.json"
            jobs.append((env_id, num_players, (bots[a], bots[b]), tseed, c,
                         min(chunk_size, n_games - c * chunk_size), chunk_size,
                         None if path is None else str(path)))
    echo(f"{env_id}, {num_players} players: {len(pairs)} pairings, {len(jobs)} chunks of up "
         f"to {chunk_size} games" + (f", cached in {folder}" if folder else ""))
    t_all = time.perf_counter()
    results = iter(_play_jobs(jobs, workers, echo))
    played = []
    for a, b, n_games, tseed in plan:
        chunks = [next(results) for _ in range(math.ceil(n_games / chunk_size))]
        played.append({"lineups": [x for ch in chunks for x in ch["lineups"]],
                       "keys": [x for ch in chunks for x in ch["keys"]],
                       "truncated": sum(ch["truncated"] for ch in chunks),
                       "latency_ns": [[t for ch in chunks for t in ch["latency_ns"][k]]
                                      for k in (0, 1)],
                       "seconds": sum(ch["seconds"] for ch in chunks)})
    board = rate_board(env_id, num_players, bots, plan, played, echo)
    board.update(games=games, search_games=search_games, seed=seed, command=command,
                 shipped_bots=_shipped_note(env_id, num_players),
                 cache=str(folder) if folder else None,
                 wall_seconds=round(time.perf_counter() - t_all, 1),
                 measured_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    return board


def rate_board(env_id: str, num_players: int, bots: tuple[str, ...], plan: list,
               played: list[dict], echo=print) -> dict:
    """Win shares per pairing, ratings from every game in the fixed order, level gaps."""
    from openskill.models import PlackettLuce

    from plunder.policies.levels import LEVELS, level_spec

    model = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=0.0)
    stats = [BotStats(spec) for spec in bots]
    latencies: list[list[int]] = [[] for _ in bots]
    cells, ranked = [], num_players
    for (a, b, n_games, tseed), data in zip(plan, played):
        wins, seat_games = [0.0, 0.0], [0, 0]
        for lineup, keys in zip(data["lineups"], data["keys"]):
            keys = [tuple(k) for k in keys]
            ranked = len(keys)
            win = winners(keys)
            for s, k in enumerate(lineup):
                seat_games[k] += 1
                wins[k] += 1.0 / len(win) if s in win else 0.0
        for k, bot in ((0, a), (1, b)):
            latencies[bot] += data["latency_ns"][k]
        lo, hi = wilson(wins[0], seat_games[0])
        olo, ohi = wilson(wins[1], seat_games[1])
        cell = {"bot": bots[a], "opponent": bots[b], "games": n_games, "tournament_seed": tseed,
                "win_share": round(wins[0] / seat_games[0], 4),
                "ci95": [round(lo, 4), round(hi, 4)],
                "opponent_win_share": round(wins[1] / seat_games[1], 4),
                "opponent_ci95": [round(olo, 4), round(ohi, 4)],
                "truncated_games": data["truncated"],
                "seconds": round(data["seconds"], 1)}
        cells.append(cell)
        echo(f"  {bots[a]} vs {bots[b]}: {cell['win_share']:.1%} "
             f"({cell['ci95'][0]:.0%}–{cell['ci95'][1]:.0%}), {n_games} games, "
             f"{cell['seconds']:.0f}s")
    for g in range(max(p[2] for p in plan)):     # game g of every pairing, then g + 1
        for (a, b, n_games, _), data in zip(plan, played):
            if g < n_games:
                lineup = data["lineups"][g]
                update_ratings(model, stats, [(a, b)[k] for k in lineup],
                               [tuple(k) for k in data["keys"][g][:num_players]])
    entries = []
    for i, spec in enumerate(bots):
        st = stats[i]
        half = 1.96 * st.sigma * ELO_PER_MU
        entries.append({"bot": spec, "plays": _resolved(spec, env_id, num_players),
                        "rating": {"mu": round(st.mu, 3), "sigma": round(st.sigma, 3),
                                   "ordinal": round(st.ordinal, 3), "elo": round(elo(st.mu), 1),
                                   "elo_ci95": [round(elo(st.mu) - half, 1),
                                                round(elo(st.mu) + half, 1)]},
                        "latency": latency_summary(latencies[i])})
    levels = [(name, f"level:{name}") for name in LEVELS if f"level:{name}" in bots]
    level_rows = [{"level": name, "bot": level_spec(name, env_id, num_players)[0],
                   "sentence": level_spec(name, env_id, num_players)[1]} for name, _ in levels]
    gaps = []
    share = {(c["bot"], c["opponent"]): (c["win_share"], c["ci95"]) for c in cells}
    share.update({(c["opponent"], c["bot"]): (c["opponent_win_share"], c["opponent_ci95"])
                  for c in cells})
    for (low, low_spec), (high, high_spec) in zip(levels, levels[1:]):
        s_lo, s_hi = stats[bots.index(low_spec)], stats[bots.index(high_spec)]
        gap = (s_hi.mu - s_lo.mu) * ELO_PER_MU
        half = 1.96 * math.hypot(s_hi.sigma, s_lo.sigma) * ELO_PER_MU
        row = {"lower": low, "upper": high, "elo_gap": round(gap, 1),
               "ci95": [round(gap - half, 1), round(gap + half, 1)],
               "apart": gap >= LEVEL_GAP, "sure": gap - half >= LEVEL_GAP,
               "head_to_head_elo": None, "head_to_head_ci95": None}
        if num_players == 2:
            w, (lo, hi) = share[(high_spec, low_spec)]
            row["head_to_head_elo"] = round(head_to_head_elo(w), 1)
            row["head_to_head_ci95"] = [round(head_to_head_elo(lo), 1),
                                        round(head_to_head_elo(hi), 1)]
        gaps.append(row)
    return {"schema_version": LEADERBOARD_SCHEMA_VERSION, "plunder_version": plunder_version(),
            "env_id": env_id, "num_players": num_players, "bots": list(bots),
            "ranked_seats": ranked, "parity": round(1 / ranked, 4), "entries": entries,
            "pairings": cells, "levels": level_rows, "level_gaps": gaps,
            "level_gap_target": LEVEL_GAP, "rating_model": RATING_MODEL}


def _shipped_note(env_id: str, num_players: int) -> dict:
    """Steps, sha256 and placeholder flag of the pretrained bots the board played."""
    from plunder.policies.pretrained import load_manifest

    out = {}
    for name, e in load_manifest()["bots"].items():
        if e["env_id"] == env_id and e["num_players"] == num_players and not e.get("variant"):
            out[e["strength"]] = {"file": name, "sha256": e["sha256"],
                                  "training_steps": e["training_steps"],
                                  "snapshot_step": e.get("snapshot_step"),
                                  "placeholder": e.get("placeholder", False)}
    return out


def gap_line(row: dict) -> str:
    """``novice -> casual: +143 (118 to 168): at least 100 apart`` (one adjacent pair)."""
    lo, hi = row["ci95"]
    verdict = (f"at least {LEVEL_GAP:.0f} apart" if row["sure"] else
               f"at least {LEVEL_GAP:.0f} apart, but its interval reaches below"
               if row["apart"] else f"NOT {LEVEL_GAP:.0f} apart")
    h2h = ""
    if row.get("head_to_head_elo") is not None:
        a, b = row["head_to_head_ci95"]
        h2h = f"; head to head {row['head_to_head_elo']:+.0f} ({a:+.0f} to {b:+.0f})"
    return (f"{row['lower']} -> {row['upper']}: {row['elo_gap']:+.0f} ({lo:+.0f} to "
            f"{hi:+.0f}){h2h}: {verdict}")


def render_gaps(board: dict, echo=print) -> None:
    """Print the ratings and whether adjacent levels stand far enough apart."""
    echo(f"{board['env_id']}, {board['num_players']} players (Elo-equivalent, 95% interval):")
    for e in sorted(board["entries"], key=lambda e: -e["rating"]["elo"]):
        r = e["rating"]
        echo(f"  {e['bot']:24s} {r['elo']:7.0f}  ({r['elo_ci95'][0]:.0f}–{r['elo_ci95'][1]:.0f})")
    from plunder.training.tables import wrap

    for row in board["level_gaps"]:
        echo(wrap(gap_line(row), indent="  ", hang="    "))


def leaderboard_markdown(board: dict) -> str:
    """The leaderboard as a Markdown section."""
    bots, n = board["bots"], board["num_players"]
    placeholder = any(v["placeholder"] for v in board["shipped_bots"].values())
    lines = [f"### {board['env_id']}, {n} players", "",
             f"`{board['command']}` (plunder {board['plunder_version']}, "
             f"{board['measured_at']}, {board['wall_seconds']:.0f} s)", ""]
    if placeholder:
        lines += ["**Placeholder bots**: the pretrained bots measured here are small "
                  "development runs, not the shipped ones; rerun the command once they are "
                  "shipped.", ""]
    lines += ["| bot | plays | rating (Elo-equivalent, 95%) | mu ± sigma | latency p50 | "
              "latency p99 | decisions |", "|---|---|---|---|---|---|---|"]
    for e in sorted(board["entries"], key=lambda e: -e["rating"]["elo"]):
        r, lat = e["rating"], e["latency"]
        plays = f"`{e['plays']}`" if e["plays"] != e["bot"] else ""
        lines.append(f"| `{e['bot']}` | {plays} | {r['elo']:.0f} ({r['elo_ci95'][0]:.0f}–"
                     f"{r['elo_ci95'][1]:.0f}) | {r['mu']:.2f} ± {r['sigma']:.2f} | "
                     f"{_ms(lat['p50_ms'])} | {_ms(lat['p99_ms'])} | {lat['decisions']:,} |")
    if board["level_gaps"]:
        lines += ["", f"Adjacent levels (target: at least {board['level_gap_target']:.0f} "
                  "points apart; the rating difference with its 95% interval"
                  + (", and the head-to-head Elo of the two levels' own games" if n == 2
                     else "") + "):", ""]
        lines += [f"- {gap_line(row)}" for row in board["level_gaps"]]
    lines += ["", "Win share of the row bot " + ("against the column bot" if n == 2 else
              f"in one seat against the column bot in the other {n - 1}")
              + f" (95% interval; parity {board['parity']:.0%}"
              + (f", {board['ranked_seats']} ranked seats" if board["ranked_seats"] != n else "")
              + "; games per pairing in brackets):", ""]
    lines += ["| | " + " | ".join(f"`{b}`" for b in bots) + " |",
              "|---|" + "---|" * len(bots)]
    share = {}
    for c in board["pairings"]:
        share[(c["bot"], c["opponent"])] = (c["win_share"], c["ci95"], c["games"])
        if n == 2:
            share[(c["opponent"], c["bot"])] = (c["opponent_win_share"], c["opponent_ci95"],
                                                c["games"])
    for a in bots:
        row = [f"`{a}`"]
        for b in bots:
            if a == b:
                row.append("—")
                continue
            w, (lo, hi), g = share[(a, b)]
            row.append(f"{w:.0%} ({lo:.0%}–{hi:.0%}) [{g}]")
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


def _ms(x) -> str:
    return "-" if x is None else f"{x:.3f} ms" if x < 100 else f"{x:,.0f} ms"


def write_leaderboard(board: dict, out_dir: str | Path) -> list[Path]:
    """Write ``<game>-<n>p.md`` and ``.json`` into ``out_dir`` (atomically)."""
    from plunder.training.atomic import atomic_write_text
    from plunder.training.games import game_name

    out_dir = Path(out_dir)
    stem = f"{game_name(board['env_id'])}-{board['num_players']}p"
    md, js = out_dir / f"{stem}.md", out_dir / f"{stem}.json"
    atomic_write_text(js, json.dumps(board, indent=2) + "\n")
    atomic_write_text(md, leaderboard_markdown(board))
    return [md, js]


#: docs/benchmark.md holds the boards between these markers, each in its own pair
BOARDS_BEGIN, BOARDS_END = "<!-- leaderboards:begin -->", "<!-- leaderboards:end -->"


def embed_in_doc(board: dict, doc: str | Path) -> Path:
    """Put the board's Markdown into ``doc`` between ``<!-- leaderboard:STEM -->`` and
    ``<!-- /leaderboard:STEM -->`` (replacing an earlier one, else added in game order
    before the ``leaderboards:end`` marker); written atomically."""
    from plunder.envs import ENV_IDS
    from plunder.training.atomic import atomic_write_text
    from plunder.training.games import game_name

    doc = Path(doc)
    text = doc.read_text()
    if BOARDS_BEGIN not in text or BOARDS_END not in text:
        raise InvalidArgumentError(f"{doc} has no {BOARDS_BEGIN} ... {BOARDS_END} section")
    head, rest = text.split(BOARDS_BEGIN, 1)
    body, tail = rest.split(BOARDS_END, 1)
    sections = {}
    for part in body.split("<!-- leaderboard:")[1:]:
        stem, content = part.split(" -->\n", 1)
        sections[stem] = content.split(f"<!-- /leaderboard:{stem} -->", 1)[0]
    stem = f"{game_name(board['env_id'])}-{board['num_players']}p"
    sections[stem] = leaderboard_markdown(board)
    order = [f"{game_name(e)}-{n}p" for e in ENV_IDS for n in range(2, 7)]
    ordered = sorted(sections, key=lambda k: order.index(k) if k in order else len(order))
    body = "\n" + "\n".join(f"<!-- leaderboard:{k} -->\n{sections[k]}<!-- /leaderboard:{k} -->\n"
                            for k in ordered)
    atomic_write_text(doc, head + BOARDS_BEGIN + body + BOARDS_END + tail)
    return doc


def shipped_tables() -> list[tuple[str, int]]:
    """(env id, players) of every table with a shipped final bot of its default rules, in
    game order: what ``leaderboard all`` rates."""
    from plunder.envs import ENV_IDS
    from plunder.policies.pretrained import shipped

    have = {(e, n) for e, n, s in shipped() if s == "final"}
    return [(e, n) for e in ENV_IDS for n in range(2, 7) if (e, n) in have]


__all__ = ["LEADERBOARD_GAMES", "LEVEL_GAP", "default_bots", "embed_in_doc", "elo",
           "leaderboard_markdown", "rate_board", "render_gaps", "run_leaderboard",
           "shipped_tables", "write_leaderboard"]
