"""Random play of every game with invariants (``plunder.envs.core.testing.fuzz``): the
engine's own ``validate`` and the game's checks written apart from it
(tests/<game>/suite.py), masks that never dead-end, observations inside their bounds,
games that end."""

from __future__ import annotations

import pytest

from plunder.envs.core import testing
from tests.support.games import case_id, cases_from, data

FUZZ_CASES = cases_from("FUZZ_CASES")


def _fuzz(env_id, n, opts, games, quick):
    if quick:
        opts = dict(opts, **data(env_id, "SHORT", {}))
    testing.fuzz(env_id, n, opts, games=games, seed=1000 * (not quick),
                 invariants=data(env_id, "invariants"),
                 check_every=data(env_id, "FUZZ_CHECK_EVERY", 1) if quick else 1)


@pytest.mark.parametrize("env_id,n,opts", FUZZ_CASES, ids=map(case_id, FUZZ_CASES))
def test_random_games_keep_invariants(env_id, n, opts):
    _fuzz(env_id, n, opts, data(env_id, "FUZZ_GAMES", 2), quick=True)


@pytest.mark.slow
@pytest.mark.parametrize("env_id,n,opts", FUZZ_CASES, ids=map(case_id, FUZZ_CASES))
def test_many_random_games_keep_invariants(env_id, n, opts):
    _fuzz(env_id, n, opts, data(env_id, "FUZZ_GAMES_SLOW", 20), quick=False)
