"""``plunder benchmark targets``: the trained bots' table against their targets.

Every game at 2 players (the trained bot against random, then against the heuristic) and
at 4 players (3 where a game stops lower: against heuristic bots in every other seat),
each cell a ``plunder eval`` tournament of ``games`` games with seats rotated, so each
cell's ``command`` replays it exactly. With ``search_games`` the table adds, at 2 players,
the search bot over the same network against that network alone.

The targets:

- 2 players: at least 95% against random and at least 60% against the heuristic;
- 4 players: at least parity + 15 points against heuristic bots;
- search: the search bot beats the network alone (its 95% interval above 50%).

A cell is *met* when its win share reaches the target (for the search row, when the whole
interval lies above 50%). The tournament seed matters for honesty: the training runs'
final evaluations use seed 0 and the comparisons between training variants were made on
those games, so the figure a shipped run reports on them is the best of several tries.
Another seed gives games that no choice has seen (docs/evaluation.md#fresh-games).
"""

from __future__ import annotations

from typing import Callable

from plunder.envs import ENV_IDS, game_class
from plunder.envs.core import InvalidArgumentError
from plunder.training.evaluation import bot_factories, ranked_seats, run_tournament
from plunder.training.evaluation.command import eval_command_line
from plunder.training.games import game_name
from plunder.training.threads import map_in_processes

#: 2-player targets by opponent: the least win share that meets each
TWO_PLAYER_TARGETS = {"random": 0.95, "heuristic": 0.60}
#: at 4 players: points above parity against heuristic bots
MANY_PLAYER_MARGIN = 0.15
#: the bot compared with the targets, and the search over its network
DEFAULT_BOT = "pretrained:final"
SEARCH_BOT = "netsearch:pretrained"
#: the default tournament seed: one no training run, variant comparison or tuning used
DEFAULT_SEED = 31


def many_players(env_id: str) -> int:
    """The larger table the targets ask for: 4 players, or the game's cap if lower."""
    cls = game_class(env_id)
    return max(min(4, cls.max_players), cls.min_players)


def _cell(env_id: str, players: int, bot: str, opponent: str, games: int, seed: int,
          target: float, kind: str) -> dict:
    """Play one cell and judge it against ``target``."""
    bots = f"{bot},{opponent}"
    result = run_tournament(env_id, players, bot_factories([bot, opponent], env_id, players),
                            games, seed=seed, rate=False)
    stats = result.bots[0]
    share = stats.win_share
    lo, hi = stats.ci95
    met = lo > target if kind == "search" else share >= target
    return {"env_id": env_id, "players": players, "bot": bot, "opponent": opponent,
            "games": games, "seed": seed, "kind": kind, "win_share": share,
            "ci95": [lo, hi], "parity": result.parity, "target": target, "met": bool(met),
            "truncated_games": result.truncated,
            "command": eval_command_line(env_id, bots, players, games, seed)}


def targets(games: int = 1000, seed: int = DEFAULT_SEED, env_ids: list[str] | None = None,
            bot: str = DEFAULT_BOT, search_games: int = 0, workers: int = 1,
            echo: Callable[[str], None] = print) -> dict:
    """Play every cell of the targets table, in ``workers`` processes side by side when
    that is more than 1 (each cell is its own tournament: the same numbers as in one);
    returns ``{"cells": [...], ...}``."""
    if games < 1 or search_games < 0 or workers < 1:
        raise InvalidArgumentError(f"games and workers must be >= 1 and search_games >= 0, "
                                   f"got {games}, {workers} and {search_games}")
    env_ids = list(env_ids or ENV_IDS)
    unknown = [e for e in env_ids if e not in ENV_IDS]
    if unknown:
        raise InvalidArgumentError(f"unknown env id(s) {unknown}; known: {list(ENV_IDS)}")
    bot_factories([bot], env_ids[0], 2)     # a bad spec fails before any game
    jobs = []
    for env_id in env_ids:
        for opponent, target in TWO_PLAYER_TARGETS.items():
            jobs.append((env_id, 2, bot, opponent, games, seed, target, "2 players"))
        n = many_players(env_id)
        target = 1 / ranked_seats(env_id, n) + MANY_PLAYER_MARGIN
        jobs.append((env_id, n, bot, "heuristic", games, seed, target, f"{n} players"))
        if search_games:
            jobs.append((env_id, 2, SEARCH_BOT, bot, search_games, seed, 0.5, "search"))
    if workers > 1:
        echo(f"{len(jobs)} cells in {min(workers, len(jobs))} processes")
        cells = map_in_processes(_cell, jobs, workers)
    else:
        cells = []
        for job in jobs:
            env_id, n, who, opponent, count = job[:5]
            echo(f"{env_id}, {n} players: {who} against {opponent} ({count} games)")
            cells.append(_cell(*job))
    return {"bot": bot, "games": games, "seed": seed, "search_games": search_games,
            "cells": cells, "met": sum(c["met"] for c in cells), "total": len(cells)}


def render_targets(data: dict, echo: Callable[[str], None]) -> None:
    """Print the table in 80 columns, one row per cell, and a command that replays one."""
    from plunder.training.tables import command_lines, text_table, wrap

    echo(f"\n{data['bot']}, tournament seed {data['seed']}: {data['met']} of "
         f"{data['total']} targets met\n")
    rows, stalled = [], []
    for c in data["cells"]:
        target = "above 50%" if c["kind"] == "search" else f">= {c['target']:.0%}"
        rows.append((game_name(c["env_id"]), c["players"], f"{c['bot']}\nvs {c['opponent']}",
                     f"{c['games']:,}", f"{c['win_share']:.1%}\n({c['ci95'][0]:.1%}–"
                                        f"{c['ci95'][1]:.1%})",
                     f"{'met' if c['met'] else 'missed'}\n{target}"))
        if c["truncated_games"]:
            stalled.append(f"{game_name(c['env_id'])}, {c['players']} players, {c['bot']} vs "
                           f"{c['opponent']}: {c['truncated_games']} at the turn limit")
    echo(text_table(("game", "players", "bot and opponent", "games", "win share (95% CI)",
                     "target"), rows, align="lrlrrl"))
    for line in stalled:
        echo(wrap(line, indent="  ", hang="    "))
    if data["cells"]:
        echo("\nReplay a row with its `command` in the JSON (--json-out), e.g.:\n"
             + command_lines(data["cells"][0]["command"]))
