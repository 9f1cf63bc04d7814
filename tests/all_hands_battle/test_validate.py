"""All Hands On Deck (battles)' own checks of a state (``validate``) refuse broken states;
games end at the round limit or the target (random play with invariants: the shared
suite, tests/core/test_fuzz.py, with tests/all_hands_battle/suite.py)."""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs.all_hands_battle import AllHandsBattleGame
from plunder.envs.all_hands_battle.components import ADMIRAL
from plunder.envs.core import testing
from plunder.envs.core.errors import InvalidStateError

from .suite import invariants

def test_max_rounds_and_target():
    s, = testing.fuzz(AllHandsBattleGame, 3, {"max_rounds": 2, "target_score": 10_000},
                      games=1, seed=5, invariants=invariants)
    assert s.round == 2
    s, = testing.fuzz(AllHandsBattleGame, 2, {"target_score": 1}, games=1, seed=6,
                      invariants=invariants)
    assert s.round == 1


def test_validate_catches_broken_states():
    g = AllHandsBattleGame(3)
    s = g.new_initial_state(np.random.default_rng(4))
    rng = np.random.default_rng(5)
    while not any(s.ships):                          # until someone has launched a ship
        s.apply_action(int(rng.choice(s.legal_actions())))
    s.validate()
    seat = next(q for q in range(3) if s.ships[q])
    ship = s.ships[seat][0]

    broken = s.clone()                               # a card duplicated
    broken.deck.append(broken.hands[0][0])
    with pytest.raises(InvalidStateError):
        broken.validate()
    broken = s.clone()                               # a card lost
    broken.deck.pop()
    with pytest.raises(InvalidStateError):
        broken.validate()
    broken = s.clone()                               # an illegal crew (an Admiral aboard)
    bad = next(c for c in broken.deck if g.cards[c].kind == ADMIRAL) if any(
        g.cards[c].kind == ADMIRAL for c in broken.deck) else None
    if bad is not None:
        b_ship = broken.ships[seat][0]
        broken.deck[broken.deck.index(bad)] = b_ship[1][0]
        b_ship[1] = sorted([bad] + b_ship[1][1:])
        with pytest.raises(InvalidStateError):
            broken.validate()
    broken = s.clone()                               # a face-up shipmaster "in hand"
    broken.known_with[seat].append(ship[0])
    with pytest.raises(InvalidStateError):
        broken.validate()
    broken = s.clone()                               # a hand of the wrong size
    other = (seat + 1) % 3
    broken.hands[other].append(broken.deck.pop())
    broken.hands[other].sort()
    with pytest.raises(InvalidStateError):
        broken.validate()
