"""Helpers for the scripted bots' tests."""

from __future__ import annotations


def planner_win_share(env_id: str, players: int, games: int, seed: int) -> float:
    """The planner's win share against heuristic bots in every other seat, seats rotating
    (fixed seeds: the same games every run)."""
    from plunder.policies import make_bot
    from plunder.training.evaluation import run_tournament

    bots = [(kind, lambda s, kind=kind: make_bot(kind, env_id, players, seed=s))
            for kind in ("planner", "heuristic")]
    planner = run_tournament(env_id, players, bots, games, seed=seed, rate=False).bots[0]
    return planner.wins / planner.seat_games
