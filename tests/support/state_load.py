"""Shared pieces of the per-game state-loading tests (tests/<game>/test_state_load.py):
corruptions of a saved state's dict, and the check that a corrupted state is refused."""

from __future__ import annotations

import copy

import pytest

from plunder.envs.core.errors import InvalidStateError


def set_field(path, value):
    """A corruption that sets data[path[0]][path[1]]... to ``value`` (a callable value is
    called with the data first, e.g. to copy another field)."""
    def corrupt(data):
        *head, last = path
        target = data
        for key in head:
            target = target[key]
        target[last] = value(data) if callable(value) else value
    return corrupt


def delete_field(key):
    """A corruption that removes the top-level field ``key``."""
    def corrupt(data):
        del data[key]
    return corrupt


def assert_refused(game, data, corrupt, words, rule=False):
    """``data`` loads; after ``corrupt(data)`` loading raises InvalidStateError whose
    message holds ``words`` (and says the rules are broken when ``rule``)."""
    game.state_from_dict(copy.deepcopy(data))        # sound before the corruption
    corrupt(data)
    with pytest.raises(InvalidStateError) as info:
        game.state_from_dict(data)
    assert words in str(info.value)
    if rule:
        assert "breaks the rules" in str(info.value)


