"""End-of-game rewards from rank keys: ``rank`` (default), ``win`` and ``score``."""

from __future__ import annotations

from collections.abc import Sequence

from .errors import InvalidArgumentError

REWARD_MODES = ("rank", "win", "score")


def rank_rewards(keys: Sequence[Sequence[float]], num_agents: int) -> list[float]:
    """(opponents beaten - opponents that beat you) / (seats - 1) for each agent seat.

    ``keys`` covers every scoring seat (env-driven seats such as ShipShape's Cap'n after
    the agents); only the first ``num_agents`` get rewards.
    """
    keys = [tuple(k) for k in keys]
    others = len(keys) - 1
    out = []
    for i in range(num_agents):
        beaten = sum(1 for j, k in enumerate(keys) if j != i and keys[i] > k)
        beat_me = sum(1 for j, k in enumerate(keys) if j != i and keys[i] < k)
        out.append((beaten - beat_me) / others if others else 0.0)
    return out


def win_rewards(keys: Sequence[Sequence[float]], num_agents: int) -> list[float]:
    """1 for every seat whose key is the best (ties share the win), else 0."""
    keys = [tuple(k) for k in keys]
    best = max(keys)
    return [1.0 if keys[i] == best else 0.0 for i in range(num_agents)]


def final_rewards(mode: str, keys, scores: Sequence[float], num_agents: int) -> list[float]:
    """Rewards of the agent seats under reward ``mode``."""
    if mode == "rank":
        return rank_rewards(keys, num_agents)
    if mode == "win":
        return win_rewards(keys, num_agents)
    if mode == "score":
        return [float(s) for s in scores[:num_agents]]
    raise InvalidArgumentError(f"unknown reward_mode {mode!r}; choose one of {REWARD_MODES}")


def winners(keys: Sequence[Sequence[float]]) -> list[int]:
    """Seats whose key is the best."""
    keys = [tuple(k) for k in keys]
    best = max(keys)
    return [i for i, k in enumerate(keys) if k == best]
