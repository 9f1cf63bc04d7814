"""All Hands on Deck's own checks of a state (``validate``) refuse broken states; loaded
states share nothing; the final layout is the best partition (random play with
invariants: the shared suite, tests/core/test_fuzz.py, with tests/all_hands_crew/suite.py)."""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs.all_hands_crew.components import NUM_KINDS
from plunder.envs.all_hands_crew_v0 import Game
from plunder.envs.core import testing
from plunder.envs.core.errors import InvalidStateError

from .helpers import COOK, lay_pairs
from .suite import invariants


def test_final_layout_is_the_best_partition():
    s, = testing.fuzz(Game, 4, {"open_stock": False}, games=1, seed=5,
                      invariants=invariants)
    g = s.game
    for p in range(4):
        used = [sum(g.combos[c].counts[k] for c in s.final[p]) + s.final_left[p][k]
                for k in range(NUM_KINDS)]
        assert g.partitioner.value(used) == (sum(g.combos[c].points for c in s.final[p])
                                             + sum(g.comps.single_value(k) * s.final_left[p][k]
                                                   for k in range(NUM_KINDS)))


def test_validate_rejects_broken_states():
    """validate() catches a created card, a lost card, a double hire and a bad mask."""
    game = Game(3)
    s = game.new_initial_state(np.random.default_rng(4))
    s.validate()
    broken = s.clone()
    broken.out[0] += 1
    with pytest.raises(InvalidStateError):
        broken.validate()
    broken = s.clone()
    broken.piles[0].pop()
    broken.pile_known[0].pop()
    with pytest.raises(InvalidStateError):
        broken.validate()
    broken = s.clone()
    broken.pile_known[1][0] = 1          # pile 1 known to player 0 without open stock
    with pytest.raises(InvalidStateError):
        broken.validate()
    rng = np.random.default_rng(0)
    while s.phase != "hire":
        s.apply_joint({p: int(rng.choice(np.flatnonzero(s.legal_actions_mask(p))))
                       for p in s.current_players()})
    s.validate()
    broken = s.clone()
    broken.hired[0].append(0)            # a pick before any hiring step was applied
    with pytest.raises(InvalidStateError):
        broken.validate()
    broken = s.clone()
    broken.hire_step, broken.keep[0] = 1, 2
    lay_pairs(broken, 0, COOK)           # the Cook pair that gave the Double hire
    broken.hired = [[0, 0], [0], [0]]    # the same stock card hired twice
    with pytest.raises(InvalidStateError):
        broken.validate()
    broken.hired[0] = [0]
    broken.validate()


def test_state_from_dict_copies():
    """state_from_dict(to_dict()) shares no list with the original (both directions)."""
    game = Game(3)
    s = game.new_initial_state(np.random.default_rng(2))
    text = s.to_json()
    data = s.to_dict()
    copy = game.state_from_dict(data)
    rng = np.random.default_rng(1)
    while not copy.is_terminal():
        copy.apply_joint({p: int(rng.choice(np.flatnonzero(copy.legal_actions_mask(p))))
                          for p in copy.current_players()})
    assert s.to_json() == text
    s.piles[0].append(s.piles[0].pop())
    data["piles"][0].clear()
    data["crew"][1][0] = 99
    assert s.to_json() == text
    assert game.state_from_dict(s.to_dict()).to_json() == text


