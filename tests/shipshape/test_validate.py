"""ShipShape's own checks of a state (``validate``) refuse broken states; states loaded
from a dict share nothing; the last voyage's scoring is the final holds' (random play
with invariants: the shared suite, tests/core/test_fuzz.py, with tests/shipshape/suite.py)."""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs.shipshape import ShipShapeGame
from plunder.envs.shipshape.geometry import score_voyage

from plunder.envs.core import testing
from plunder.envs.core.errors import InvalidStateError

from .helpers import random_joint
from .suite import invariants

def test_validate_rejects_broken_states():
    game = ShipShapeGame(2)
    s = game.new_initial_state(np.random.default_rng(0))
    s.validate()
    capn = game.capn
    broken = s.clone()
    broken.hands = ((1, 2, 3),) + s.hands[1:]                 # crew cards lost
    with pytest.raises(InvalidStateError):
        broken.validate()
    broken = s.clone()
    broken.unused = s.unused + (s.stacks[0][0][0],)          # a crate in two places
    with pytest.raises(InvalidStateError):
        broken.validate()
    broken = s.clone()
    broken.stacks = (s.stacks[0][1:],)                       # a crate lost
    with pytest.raises(InvalidStateError):
        broken.validate()
    broken = s.clone()
    holds = list(s.hold_history[0])
    holds[capn] = holds[0]                                   # two seats on one hold
    broken.hold_history = (tuple(holds),)
    with pytest.raises(InvalidStateError):
        broken.validate()
    broken = s.clone()
    broken.coins = (5,) + s.coins[1:]                        # coins from nowhere
    with pytest.raises(InvalidStateError):
        broken.validate()


@pytest.mark.parametrize("n", [2, 6])
def test_state_from_dict_shares_nothing_mutable(n):
    """Fields are tuples all the way down: a dict round trip cannot alias the state."""
    game = ShipShapeGame(n)
    s = game.new_initial_state(np.random.default_rng(3))
    rng = np.random.default_rng(4)
    for _ in range(4):
        s.apply_joint(random_joint(s, rng))
    data = s.to_dict()
    for key in s.FIELDS:
        hash(data[key])                                      # immutable (no lists inside)
    text = s.to_json()
    copy = game.state_from_dict(data)
    while not copy.is_terminal():
        copy.apply_joint(random_joint(copy, rng))
    assert s.to_json() == text


def test_scores_recomputed_from_the_final_holds():
    """The last voyage's scoring equals scoring the final holds from above."""
    for n in (2, 4, 6):
        s, = testing.fuzz(ShipShapeGame, n, games=1, seed=77, invariants=invariants)
        last = score_voyage(s.visible)
        assert [tuple(r[k] for k in ("gold", "cannons", "contraband", "full_ship", "raw",
                                     "coins")) for r in last] == list(s.voyage_scores[-1])
