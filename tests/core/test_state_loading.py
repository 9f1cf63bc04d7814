"""Every game's saved states load back to the same state, and what is not a state is
refused with an InvalidStateError (``plunder.envs.core.testing``). The corruptions that
break a game's own rules, and the words its errors use: tests/<game>/test_state_load.py."""

from __future__ import annotations

import pytest

from plunder.envs.core import testing
from tests.conftest import GAME_COUNTS
from tests.support.games import case_id, cases_from, data

ROUND_TRIP_CASES = cases_from("ROUND_TRIP_CASES")


@pytest.mark.parametrize("env_id,n,opts", ROUND_TRIP_CASES, ids=map(case_id, ROUND_TRIP_CASES))
def test_random_play_states_round_trip(env_id, n, opts):
    seen = testing.check_state_round_trips(
        env_id, n, opts, games=data(env_id, "ROUND_TRIP_GAMES", 2),
        every=data(env_id, "ROUND_TRIP_EVERY", 1), key=data(env_id, "phase"))
    missing = data(env_id, "ROUND_TRIP_REACHED", set()) - seen
    assert not missing, f"the saved states never include {missing}"


@pytest.mark.parametrize("env_id,n", GAME_COUNTS)
def test_what_is_not_a_state_is_refused(env_id, n):
    testing.check_malformed_states_refused(env_id, n)
