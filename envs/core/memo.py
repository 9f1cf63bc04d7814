"""Bounded memo tables: the games' caches of pure functions of their keys."""

from __future__ import annotations

from typing import Hashable, TypeVar

V = TypeVar("V")

#: entries a memo table holds before it is cleared, unless its caller says otherwise
MEMO_LIMIT = 4096


def remember(memo: dict, key: Hashable, value: V, limit: int = MEMO_LIMIT) -> V:
    """Store ``value`` under ``key`` in ``memo`` and return it. A memo already holding
    ``limit`` entries is cleared first: its entries are caches, so losing them costs only
    time, and clearing keeps a long run's memory bounded without bookkeeping per hit."""
    if len(memo) >= limit:
        memo.clear()
    memo[key] = value
    return value


__all__ = ["MEMO_LIMIT", "remember"]
