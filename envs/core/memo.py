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


#: (owner, key) -> memo tables shared in this process (see shared_memos)
_SHARED: dict[tuple, tuple[dict, ...]] = {}


def shared_memos(owner: str, key: Hashable, count: int) -> tuple[dict, ...]:
    """``count`` memo tables shared by every caller in this process that passes the same
    ``owner`` and ``key``. For memos whose entries are pure functions of their keys and
    of the parameters in ``key``: the games of one kind played side by side (a
    ``GameBatch``, a trainer's worker) then warm one memo instead of one each."""
    tables = _SHARED.get((owner, key))
    if tables is None:
        tables = _SHARED[owner, key] = tuple({} for _ in range(count))
    return tables


__all__ = ["MEMO_LIMIT", "remember", "shared_memos"]
