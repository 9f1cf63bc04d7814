"""Random-play fuzzing with invariants: the 74 (78) cards always accounted for, hands and
fleets of the right sizes, legal ships, scores that only grow, games that end."""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs.all_hands_battle import AllHandsBattleGame
from plunder.envs.all_hands_battle.components import ADMIRAL
from plunder.envs.all_hands_battle.engine import BATTLE, CREW, DISCARD, OVER, RECRUIT, TURN
from plunder.envs.core.errors import InvalidStateError

CONFIGS = [(2, {}), (3, {"prize_crew": True}), (4, {"alternate_aargh": True}),
           (5, {"prize_crew": True, "alternate_aargh": True})]


def check_invariants(s):
    s.validate()
    g = s.game
    C = g.num_cards
    assert s.all_cards() == list(range(C)), "a card was created, lost or duplicated"
    fleet = g.components.ships_per_fleet
    for q in range(g.num_players):
        assert len(s.ships[q]) <= fleet
        held = len(s.hands[q]) + 4 * len(s.ships[q])
        if s.phase == RECRUIT and q == s.turn_player and s.decision in (TURN, CREW, DISCARD):
            held += (s.launch_master >= 0) + len(s.launch_crew)
            assert held == 13, "the turn player holds 12 cards plus its draw"
        elif s.phase == RECRUIT:
            assert held == 12
        for ship in s.ships[q]:
            assert -1 <= ship[3] < g.num_players
            if ship[2]:
                assert ship[3] == q and not ship[4], "a ship in play is its owner's"
                assert g.rules.crew_ok(ship[0], ship[1]), "an illegal ship was launched"
    assert all(r < 0 or r not in s.discard for r in s.reserved)
    if s.phase == BATTLE:
        assert s.first_fleet >= 0
    assert min(s.round_scores()) >= 0


def play(n, opts, seed, check_every=1):
    g = AllHandsBattleGame(n, **opts)
    s = g.new_initial_state(np.random.default_rng(seed))
    rng = np.random.default_rng(seed + 1)
    totals = list(s.totals)
    steps = 0
    while not s.is_terminal():
        p = s.current_players()[0]
        legal = s.legal_actions(p)
        assert legal, f"seat {p} must act with no legal action ({s.decision})"
        s.apply_action(int(rng.choice(legal)))
        steps += 1
        if steps % check_every == 0:
            check_invariants(s)
        assert all(a <= b for a, b in zip(totals, s.totals)), "a total went down"
        totals = list(s.totals)
        assert steps < 100_000
    assert s.phase == OVER and s.current_players() == ()
    assert max(s.totals) >= g.target_score or (g.max_rounds and s.round >= g.max_rounds)
    check_invariants(s)
    return s


@pytest.mark.parametrize("n,opts", CONFIGS)
def test_random_games_keep_invariants(n, opts):
    for seed in range(2):
        play(n, dict(opts, target_score=200), seed, check_every=3)


def test_max_rounds_and_target():
    s = play(3, {"max_rounds": 2, "target_score": 10_000}, 5)
    assert s.round == 2
    s = play(2, {"target_score": 1}, 6)
    assert s.round == 1


@pytest.mark.slow
@pytest.mark.parametrize("n,opts", CONFIGS)
def test_many_random_games_keep_invariants(n, opts):
    for seed in range(25):
        play(n, opts, 1000 + seed)


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
