"""``plunder benchmark diagnose``: which kind of decision a bot loses games by.

The bot plays ``games`` games against opponent bots (one bot seat, the opponent in every
other seat, seats rotated; the deals and seeds of ``plunder eval --bots BOT,OPPONENT
--seed S``, so the baseline is that command's result exactly). A *helper* bot (the
heuristic by default) shadows it: at every decision both are asked
(:class:`plunder.policies.hybrid.HybridPolicy`), which gives, per kind of decision, how
often the two disagree. Then, for each of the kinds with the most disagreements, the same
games are replayed with that kind handed to the helper. A hybrid that wins clearly more
than the bot alone names a kind of decision the bot plays worse than the helper; one that
wins less, a kind it plays better. Games are paired (same deals, same seeds), so the
difference is reported with a paired 95% interval, much narrower than either win share's.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any, Callable

import numpy as np

from plunder.envs import game_class
from plunder.envs.core import InvalidArgumentError
from plunder.envs.core.rewards import winners
from plunder.policies.base import make_bot
from plunder.policies.hybrid import HybridPolicy
from plunder.training.evaluation import bot_seed, game_seed, play_game, schedule, wilson


def _helper_seed(seed: int) -> int:
    """The helper's seed beside a bot seed (the base keeps the tournament's own)."""
    return int(np.random.SeedSequence([seed, 1]).generate_state(1, np.uint64)[0])


def play_hybrid(env_id: str, num_players: int, bot: str, helper: str, opponent: str,
                kinds, games: int, seed: int, options: dict | None = None,
                max_turns: int | None = None) -> tuple[list[float], list[HybridPolicy], int]:
    """Play the games with a hybrid of ``bot`` and ``helper`` (``kinds`` handed over) in the
    bot's seat; returns its win per game (a shared win counts 1/winners), the hybrid
    instances (their decision counts) and how many games hit the turn limit."""
    options = dict(options or {})
    cls = game_class(env_id)
    game = cls(num_players, **options)
    max_turns = int(max_turns or cls.default_max_turns)

    def make(b: int, s: int):
        bot_s = bot_seed(seed, b, s)
        if b == 1:
            return make_bot(opponent, env_id, num_players, seed=bot_s, **options)
        return HybridPolicy(game, make_bot(bot, env_id, num_players, seed=bot_s, **options),
                            make_bot(helper, env_id, num_players, seed=_helper_seed(bot_s),
                                     **options), kinds)

    lineups = schedule(2, num_players)
    instances: dict[tuple[int, int], Any] = {}
    wins, truncated = [], 0
    for g in range(games):
        lineup = lineups[g % len(lineups)]
        seats = []
        for s, b in enumerate(lineup):
            if (b, s) not in instances:
                instances[(b, s)] = make(b, s)
            seats.append(instances[(b, s)])
        state, trunc = play_game(game, seats, game_seed(seed, g), max_turns)
        truncated += trunc
        win = winners([tuple(k) for k in state.rank_keys()])
        seat = lineup.index(0)
        wins.append(1.0 / len(win) if seat in win else 0.0)
    hybrids = [p for (b, _), p in instances.items() if b == 0]
    return wins, hybrids, truncated


def _paired(base: list[float], other: list[float]) -> tuple[float, float, float]:
    """Mean difference of paired results and its normal 95% interval."""
    d = np.asarray(other) - np.asarray(base)
    mean = float(d.mean())
    half = 1.96 * float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else float("nan")
    return mean, mean - half, mean + half


def diagnose(env_id: str, num_players: int, bot: str, helper: str = "heuristic",
             opponent: str = "heuristic", games: int = 200, seed: int = 0,
             kinds: list[str] | None = None, top: int = 4, options: dict | None = None,
             max_turns: int | None = None, command: str = "",
             echo: Callable[[str], None] | None = None) -> dict:
    """Survey the decisions, then replay the games with each chosen kind handed over
    (``kinds``, or the ``top`` kinds with the most disagreements; an entry ``a+b`` hands
    over kinds a and b together). Returns a JSON-able dict: the baseline, every kind's
    counts, and each hybrid's result."""
    if games < 2:
        raise InvalidArgumentError(f"diagnose needs at least 2 games, got {games}")
    if top < 1:
        raise InvalidArgumentError(f"top must be >= 1, got {top}")
    say = echo or (lambda _msg: None)
    run = dict(env_id=env_id, num_players=num_players, bot=bot, helper=helper,
               opponent=opponent, games=games, seed=seed, options=options,
               max_turns=max_turns)
    say(f"survey: {bot} (shadowed by {helper}) against {opponent}, {games} games")
    base, hybrids, truncated = play_hybrid(kinds=(), **run)
    decisions = sum((h.decisions for h in hybrids), start=Counter())
    disagree = sum((h.disagreements for h in hybrids), start=Counter())
    if kinds is None:
        kinds = [k for k, n in disagree.most_common() if n > 0][:top]
    else:
        unknown = [k for entry in kinds for k in entry.split("+") if k not in decisions]
        if unknown:
            raise InvalidArgumentError(
                f"kind(s) {unknown} never came up for {bot} in these games; seen: "
                f"{sorted(decisions)}")
    lo, hi = wilson(sum(base), games)
    out = {"env_id": env_id, "num_players": num_players, "bot": bot, "helper": helper,
           "opponent": opponent, "games": games, "seed": seed, "command": command,
           "baseline": {"win_share": sum(base) / games, "ci95": [lo, hi],
                        "truncated_games": truncated},
           "kinds": [{"kind": k, "decisions": decisions[k], "disagreements": disagree[k]}
                     for k in sorted(decisions, key=lambda k: -decisions[k])],
           "hybrids": []}
    for kind in kinds:
        say(f"hybrid: {helper} makes the {kind} decisions")
        wins, _, trunc = play_hybrid(kinds=kind.split("+"), **run)
        lo, hi = wilson(sum(wins), games)
        delta, dlo, dhi = _paired(base, wins)
        out["hybrids"].append({"kind": kind, "win_share": sum(wins) / games, "ci95": [lo, hi],
                               "delta": delta, "delta_ci95": [dlo, dhi],
                               "truncated_games": trunc})
    return out


def render_diagnosis(data: dict, echo: Callable[[str], None]) -> None:
    """Print a diagnosis as two tables of 80 columns."""
    from plunder.training.tables import text_table, wrap

    b = data["baseline"]
    echo("\n" + wrap(f"{data['env_id']}, {data['num_players']} players: {data['bot']} "
                     f"against {data['opponent']}, {data['games']} games (seed "
                     f"{data['seed']}): {b['win_share']:.1%} ({b['ci95'][0]:.1%}–"
                     f"{b['ci95'][1]:.1%})"
                     + (f", {b['truncated_games']} at the turn limit"
                        if b["truncated_games"] else "")) + "\n")
    rows = [(k["kind"], f"{k['decisions']:,}",
             f"{k['disagreements'] / k['decisions'] if k['decisions'] else 0.0:.0%}")
            for k in data["kinds"]]
    echo(text_table(("kind of decision", "decisions with a choice",
                     f"{data['helper']} would choose differently"), rows))
    if data["hybrids"]:
        rows = [(h["kind"], f"{h['win_share']:.1%}",
                 f"{h['ci95'][0]:.1%}–{h['ci95'][1]:.1%}",
                 f"{h['delta']:+.1%} ({h['delta_ci95'][0]:+.1%} to "
                 f"{h['delta_ci95'][1]:+.1%})") for h in data["hybrids"]]
        echo("\n" + text_table((f"{data['helper']} makes these", "win share", "95% CI",
                                "change (paired 95% CI)"), rows))
