"""The per-game leaderboard of shipped bots: ``plunder benchmark leaderboard GAME --players N``.

Every pair of bots (``LEADERBOARD_BOTS``: random, heuristic, search at two budgets, the
pretrained early and final bots, netsearch over the pretrained final bot) plays a
tournament with seat rotation (:func:`plunder.training.evaluation.schedule` for two bots):
with 2 players, one tournament per unordered pair; with more, one per ordered pair, the
row bot in one seat and the column bot in every other. Pairings without a search bot play
``games`` games, pairings with one (``search``, ``netsearch``) ``search_games``: search
costs seconds per game (docs/benchmark.md#leaderboards gives the times).

Seeds: the pairing (A, B) is the tournament with seed
``task_seed("leaderboard-<game>-<n>p-A-vs-B")`` (at or above 2**40, apart from every
training run's games and evaluations), bot ``b`` of the pair in seat ``s`` seeded with
``bot_seed(T, b, s)``. Ratings: one OpenSkill Plackett-Luce rating per bot, all starting at
mu 25, sigma 25/3, updated after every game of every pairing in the order played.
Latency: the wall time of every decision each bot makes in these games (numpy and
onnxruntime single-threaded), p50 and p99. Written as Markdown and JSON.
"""

from __future__ import annotations

import itertools
import json
import time
from pathlib import Path

from plunder.envs import game_class
from plunder.envs.core import InvalidArgumentError
from plunder.envs.core.rewards import winners
from plunder.training.evaluation import (BotStats, bot_factories, bot_seed, game_seed, play_game,
                                         rating_model, schedule, update_ratings, wilson)

from .run import latency_summary, plunder_version
from .tasks import task_seed

#: the bots of every leaderboard, weakest first as intended
LEADERBOARD_BOTS = ("random", "heuristic", "search:2", "search:8", "pretrained:early",
                    "pretrained:final", "netsearch:pretrained")
LEADERBOARD_SCHEMA_VERSION = "plunder-leaderboard/1"
#: default games per pairing with a search bot, by (game, players): a 2-player game with
#: one search:2 / search:8 / netsearch seat costs about 0.2 / 1.0 / 0.6 s in Scallywags,
#: 0.1 / 0.6 / 0.3 s in ShipShape, 0.5 / 2 / 0.8 s in All Hands crew, 4.5 / 18 / 51 s in
#: Anchors Aweigh! and 9 / 36 / 1.5 s in All Hands battle (measured on the 2-core machine;
#: docs/benchmark.md#leaderboards), so the slow games get fewer games (wider intervals)
SEARCH_GAMES = {("scallywags_v0", 2): 100, ("scallywags_v0", 4): 40,
                ("shipshape_v0", 2): 100, ("shipshape_v0", 4): 40,
                ("all_hands_crew_v0", 2): 40, ("all_hands_crew_v0", 4): 16,
                ("anchors_aweigh_v0", 2): 4, ("anchors_aweigh_v0", 4): 2,
                ("all_hands_battle_v0", 2): 6, ("all_hands_battle_v0", 4): 2}


def _slow(spec: str) -> bool:
    """Whether a bot searches (seconds per game)."""
    return spec.split(":", 1)[0] in ("search", "netsearch")


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


def run_leaderboard(game: str, num_players: int, games: int = 400, search_games: int = 60,
                    bots: tuple[str, ...] = LEADERBOARD_BOTS, command: str | None = None,
                    echo=print) -> dict:
    """Play every pairing and return the leaderboard as JSON-ready data."""
    from plunder.training.games import game_name, resolve_env_id
    from plunder.training.threads import limit_numpy_threads

    limit_numpy_threads(1)
    env_id = resolve_env_id(game)
    cls = game_class(env_id)
    gm = cls(num_players)
    max_turns = int(cls.default_max_turns)
    facs = bot_factories(list(bots), env_id, num_players)
    stats = [BotStats(spec) for spec in bots]
    latencies: list[list[int]] = [[] for _ in bots]
    model = rating_model()
    cells = []
    ranked = num_players
    t_all = time.perf_counter()
    for a, b in pairings(len(bots), num_players):
        n_games = search_games if _slow(bots[a]) or _slow(bots[b]) else games
        tseed = task_seed(f"leaderboard-{game_name(env_id)}-{num_players}p-{bots[a]}-vs-"
                          f"{bots[b]}")
        pair = (a, b)
        lineups = schedule(2, num_players)
        instances = {}
        wins, seat_games = [0.0, 0.0], [0, 0]
        t0 = time.perf_counter()
        for g in range(n_games):
            lineup = lineups[g % len(lineups)]
            seats = []
            for s, k in enumerate(lineup):
                if (k, s) not in instances:
                    instances[(k, s)] = _Timed(facs[pair[k]][1](bot_seed(tseed, k, s)),
                                               latencies[pair[k]])
                seats.append(instances[(k, s)])
            state, _ = play_game(gm, seats, game_seed(tseed, g), max_turns)
            keys = [tuple(x) for x in state.rank_keys()]
            ranked = len(keys)
            win = winners(keys)
            for s, k in enumerate(lineup):
                seat_games[k] += 1
                wins[k] += 1.0 / len(win) if s in win else 0.0
            if model is not None:
                update_ratings(model, stats, [pair[k] for k in lineup], keys[:num_players])
        lo, hi = wilson(wins[0], seat_games[0])
        olo, ohi = wilson(wins[1], seat_games[1])
        cell = {"bot": bots[a], "opponent": bots[b], "games": n_games, "tournament_seed": tseed,
                "win_share": round(wins[0] / seat_games[0], 4),
                "ci95": [round(lo, 4), round(hi, 4)],
                "opponent_win_share": round(wins[1] / seat_games[1], 4),
                "opponent_ci95": [round(olo, 4), round(ohi, 4)],
                "seconds": round(time.perf_counter() - t0, 1)}
        cells.append(cell)
        echo(f"  {bots[a]} vs {bots[b]}: {cell['win_share']:.1%} "
             f"({cell['ci95'][0]:.0%}–{cell['ci95'][1]:.0%}), {n_games} games, "
             f"{cell['seconds']:.0f}s")
    entries = []
    for i, spec in enumerate(bots):
        entries.append({"bot": spec,
                        "rating": {"mu": round(stats[i].mu, 3), "sigma": round(stats[i].sigma, 3),
                                   "ordinal": round(stats[i].ordinal, 3)}
                        if model is not None else None,
                        "latency": latency_summary(latencies[i])})
    return {"schema_version": LEADERBOARD_SCHEMA_VERSION, "plunder_version": plunder_version(),
            "env_id": env_id, "num_players": num_players, "bots": list(bots),
            "games": games, "search_games": search_games, "ranked_seats": ranked,
            "parity": round(1 / ranked, 4), "entries": entries,
            "pairings": cells, "command": command,
            "rating_model": "openskill PlackettLuce (mu 25, sigma 25/3)" if model else None,
            "shipped_bots": _shipped_note(env_id, num_players),
            "wall_seconds": round(time.perf_counter() - t_all, 1),
            "measured_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}


def _shipped_note(env_id: str, num_players: int) -> dict:
    """Steps, sha256 and placeholder flag of the pretrained bots the board played."""
    from plunder.policies.pretrained import load_manifest

    out = {}
    for name, e in load_manifest()["bots"].items():
        if e["env_id"] == env_id and e["num_players"] == num_players:
            out[e["strength"]] = {"file": name, "sha256": e["sha256"],
                                  "training_steps": e["training_steps"],
                                  "snapshot_step": e.get("snapshot_step"),
                                  "placeholder": e.get("placeholder", False)}
    return out


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
    lines += ["| bot | rating (mu ± sigma) | ordinal | latency p50 | latency p99 | decisions |",
              "|---|---|---|---|---|---|"]
    order = sorted(board["entries"], key=lambda e: -(e["rating"] or {"ordinal": 0})["ordinal"])
    for e in order:
        r, lat = e["rating"], e["latency"]
        lines.append(f"| `{e['bot']}` | "
                     + (f"{r['mu']:.1f} ± {r['sigma']:.1f} | {r['ordinal']:.1f}" if r
                        else "n/a | n/a")
                     + f" | {_ms(lat['p50_ms'])} | {_ms(lat['p99_ms'])} | {lat['decisions']:,} |")
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


__all__ = ["LEADERBOARD_BOTS", "embed_in_doc", "leaderboard_markdown", "run_leaderboard",
           "write_leaderboard"]
