"""The generic part of every game's hidden-information contract
(``plunder.envs.core.testing.check_hidden_information``): the observation is the encoding
of the view alone; states dealt from a seat's view (``sample_state``) obey the rules and
give that seat the same view, observation and mask; who acts is public. What each game
hides and shows: tests/<game>/test_hidden_info.py."""

from __future__ import annotations

import pytest

from plunder.envs.core import testing
from tests.support.games import case_id, cases_from, data

#: every player count of every game, and the variants a game's suite data adds
CASES = cases_from("HIDDEN_INFO_CASES")


@pytest.mark.parametrize("env_id,n,opts", CASES, ids=map(case_id, CASES))
def test_observation_and_sampled_states_keep_the_contract(env_id, n, opts):
    opts = dict(opts, **data(env_id, "SHORT", {}))
    assert testing.check_hidden_information(env_id, n, opts, seed=13, every=7) > 0
