"""Every game's compiled code (view builder, mask, encoder: where built) gives what its
Python code gives, over random play of every player count and variant
(``plunder.envs.core.testing.check_compiled_equivalence``), and follows the switch and
pickling (``check_compiled_binding``). The malformed-input cases of each compiled part are
game-specific: tests/<game>/test_compiled_*.py."""

from __future__ import annotations

import pytest

from plunder.envs import ENV_IDS
from plunder.envs.core import testing
from tests.support.games import VARIANT_CASES, case_id, data

#: random-play states compared per case (every seat of each) in the default run, where a
#: game's suite data names no other count; the slow run compares ten times as many
STATES = 100


def _compare(env_id, n, opts, states):
    found = testing.check_compiled_equivalence(env_id, n, opts, states=states, seed=n,
                                               key=data(env_id, "phase"))
    if not found["parts"]:
        pytest.skip(f"{env_id} runs no compiled code here")
    assert found["sampled"] and found["loaded"] and found["older"], found
    reached = data(env_id, "phases_reached")
    if reached is not None:
        missing = reached(n, opts) - found["keys"]
        assert not missing, f"random play never reached {missing}"


def _edge_counts(cases):
    """The cases at each game's fewest and most players (the slow run takes every count)."""
    counts = {}
    for env_id, n, _ in cases:
        counts.setdefault(env_id, set()).add(n)
    return [c for c in cases if c[1] in (min(counts[c[0]]), max(counts[c[0]]))]


EDGE_CASES = _edge_counts(VARIANT_CASES)


@pytest.mark.parametrize("env_id,n,opts", EDGE_CASES, ids=map(case_id, EDGE_CASES))
def test_compiled_matches_python(env_id, n, opts):
    _compare(env_id, n, opts, data(env_id, "EQUIVALENCE_STATES", STATES))


@pytest.mark.slow
@pytest.mark.parametrize("env_id,n,opts", VARIANT_CASES, ids=map(case_id, VARIANT_CASES))
def test_compiled_matches_python_long(env_id, n, opts):
    _compare(env_id, n, opts, 10 * data(env_id, "EQUIVALENCE_STATES", STATES))


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_compiled_code_follows_the_switch_and_pickling(env_id):
    n = testing.player_counts(env_id)[-1]
    testing.check_compiled_binding(env_id, n)
