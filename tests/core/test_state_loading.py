"""Every game's saved states load back to the same state, and what is not a state is
refused with an InvalidStateError (``plunder.envs.core.testing``); a corrupted state is
refused, or loads into a position the compiled and the Python paths play alike, and so
does a game built with its options at their edges. The corruptions that
break a game's own rules, and the words its errors use: tests/<game>/test_state_load.py."""

from __future__ import annotations

import pytest

from plunder.envs import specs
from plunder.envs.core import testing
from plunder.envs.core.errors import InvalidArgumentError
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


def _offered(env_id, n, opts) -> bool:
    try:
        testing.make_game(env_id, n, dict(opts))
    except InvalidArgumentError:
        return False
    return True


def _variant_cases() -> list:
    """Each variant a game declares for the tests, at its fewest and most players."""
    out = []
    for s in specs():
        for variant in filter(None, s.test_variants):
            counts = [n for n in s.player_counts if _offered(s.env_id, n, variant)]
            out += [(s.env_id, n, tuple(sorted(variant.items())))
                    for n in sorted({counts[0], counts[-1]})]
    return out


#: every game at every player count, and each variant it declares for the tests
CORRUPTION_CASES = sorted({(e, n, ()) for e, n in GAME_COUNTS} | set(_variant_cases()))


def _case_id(case):
    return case_id((case[0], case[1], dict(case[2])))


@pytest.mark.parametrize("env_id,n,opts", CORRUPTION_CASES, ids=map(_case_id, CORRUPTION_CASES))
def test_corrupted_states_are_refused_or_agree_on_both_paths(env_id, n, opts):
    found = testing.check_corrupted_states(env_id, n, dict(opts), states=4, per_state=20)
    assert found["refused"] and found["loaded"], found


@pytest.mark.slow
@pytest.mark.parametrize("env_id,n,opts", CORRUPTION_CASES, ids=map(_case_id, CORRUPTION_CASES))
def test_many_corrupted_states_are_refused_or_agree_on_both_paths(env_id, n, opts):
    for seed in range(1, 3):
        testing.check_corrupted_states(env_id, n, dict(opts), states=20, per_state=40,
                                       seed=seed, steps=20)


#: every game with variant options, at every player count
OPTION_COUNTS = [(e, n) for e, n in GAME_COUNTS if testing.game_class_of(e).options]


@pytest.mark.parametrize("env_id,n", OPTION_COUNTS)
def test_options_at_the_edges_are_refused_or_agree_on_both_paths(env_id, n):
    found = testing.check_option_edges(env_id, n)
    assert found["refused"] and found["built"], found
