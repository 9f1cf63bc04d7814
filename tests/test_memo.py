"""The bounded memo tables every game's caches use (envs/core/memo.py)."""

from plunder.envs.core.memo import MEMO_LIMIT, remember, shared_memos


def test_remember_stores_and_returns_the_value():
    memo: dict = {}
    value = (1, 2)
    assert remember(memo, "k", value) is value
    assert memo == {"k": value}


def test_a_full_memo_is_cleared_before_the_next_entry():
    memo = {i: i for i in range(3)}
    assert remember(memo, "new", 7, limit=3) == 7
    assert memo == {"new": 7}
    memo = {i: i for i in range(2)}
    remember(memo, "new", 7, limit=3)
    assert len(memo) == 3
    assert MEMO_LIMIT == 4096


def test_shared_memos_are_one_set_per_owner_and_key():
    first = shared_memos("test_owner", (4, False), 2)
    assert len(first) == 2 and first[0] is not first[1] and first == ({}, {})
    first[0]["k"] = 1
    assert shared_memos("test_owner", (4, False), 2) is first        # the same tables
    assert shared_memos("test_owner", (3, False), 2) is not first    # other parameters
    assert shared_memos("other_owner", (4, False), 2) is not first   # another owner
