"""Shared pieces of the per-game state-loading tests (tests/<game>/test_state_load.py):
corruptions of a saved state's dict, the check that a corrupted state is refused, and the
test of a table of corruptions built from it. What every game refuses alike (a missing or
unknown field, a broken generator, what is not an object): the shared suite,
``plunder.envs.core.testing.check_malformed_states_refused``."""

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




def refusal_test(cases, state, rule=False):
    """A test of every corruption in ``cases`` (name -> (*where, corrupt, words)),
    parametrised by name: the data of ``state(*where)`` (a (game, data) pair) loads, and
    once corrupted is refused with ``words`` (:func:`assert_refused`). A test module binds
    it to its test's name (``test_corrupted_field_is_named = refusal_test(...)``)."""
    @pytest.mark.parametrize("name", sorted(cases))
    def test(name):
        *where, corrupt, words = cases[name]
        game, data = state(*where)
        assert_refused(game, data, corrupt, words, rule=rule)
    return test
