"""The env form of Scallywags: bad actions."""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs.core.errors import IllegalActionError
from plunder.envs.scallywags_v0 import raw_env


@pytest.mark.parametrize("action", [3.0, np.float64(3.0), "3", None, [3]])
def test_non_integer_action_is_reported_not_converted(action):
    env = raw_env(num_players=3)
    env.reset(seed=0)
    state = env.unwrapped.game_state.to_json()
    with pytest.raises(IllegalActionError) as info:
        env.step(action)
    message = str(info.value)
    assert f"illegal action {action!r} for player" in message
    assert "legal actions: [" in message and "(coin " in message
    assert env.unwrapped.game_state.to_json() == state       # nothing happened
    with pytest.raises(IllegalActionError, match="illegal action 3.0"):
        env.unwrapped.game_state.apply_action(3.0)
