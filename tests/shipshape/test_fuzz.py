"""Random play with invariants: nothing created or lost (cards, crates, holds, coins)."""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs.core.errors import InvalidStateError
from plunder.envs.shipshape import ShipShapeGame
from plunder.envs.shipshape.components import VOYAGE_HOLDS
from plunder.envs.shipshape.geometry import score_voyage

from .helpers import random_joint

ALL_CARDS = list(range(1, 11))


def check_invariants(game, s, prev_coins):
    S = game.num_seats
    s.validate()   # the engine's own checks; the ones below are written apart from it
    # crew cards: hand + discards are always the ten cards; never fewer than 2 in hand
    for seat in range(S):
        assert sorted(s.hands[seat] + s.discards[seat]) == ALL_CARDS
        if seat != game.capn:
            assert len(s.hands[seat]) >= 2
    # crates: this voyage's 3 x seats are in the stacks, being placed or on holds
    v = s.voyage
    groups = game.groups(v)
    in_play = [c for st in s.stacks for c, _ in st] + [x[1] for g in s.placing for x in g] \
        + [c for p in s.placed for c, _ in p]
    assert len(in_play) == len(set(in_play)) == 3 * S
    assert set(in_play).isdisjoint(s.unused)
    assert len(s.unused) == 54 - 3 * S * (v + 1)
    assert len(set(s.unused)) == len(s.unused)
    # each seat gets one crate per turn
    for seat in range(S):
        taking = any(x[0] == seat for g in s.placing for x in g)
        have = len(s.placed[seat]) + taking
        if s.is_terminal():
            assert have == 3
        else:
            assert s.turn <= have <= s.turn + 1
    for k, grp in enumerate(groups):
        if not s.is_terminal():
            assert len(s.stacks[k]) + sum(len(s.placed[x]) for x in grp) \
                + len(s.placing[k]) == 3 * len(grp)
    # holds: one per seat from the voyage's set, all different
    for voyage, holds in enumerate(s.hold_history):
        assert len(set(holds)) == S and set(holds) <= set(VOYAGE_HOLDS[voyage])
    # the top-down views match the stacked crates
    assert s.visible == tuple(s.compute_visible(x) for x in range(S))
    # coins never go down and are the sum of the voyages' scoring
    assert all(c >= p for c, p in zip(s.coins, prev_coins))
    assert list(s.coins) == [sum(v[x][5] for v in s.voyage_scores) for x in range(S)]
    # who acts is never the Cap'n, and every actor has a legal move
    for p in s.current_players():
        assert p != game.capn and s.legal_actions_mask(p).any()


def play(n, seed):
    game = ShipShapeGame(n)
    s = game.new_initial_state(np.random.default_rng(seed))
    rng = np.random.default_rng(seed + 1)
    prev = s.coins
    check_invariants(game, s, prev)
    steps = 0
    while not s.is_terminal():
        s.apply_joint(random_joint(s, rng))
        check_invariants(game, s, prev)
        prev = s.coins
        steps += 1
        assert steps < 500
    for p in range(n):   # states sampled from a view obey the rules too
        game.sample_state(s.view(p), np.random.default_rng(seed + p)).validate()
    assert s.turns == 9 and len(s.voyage_scores) == 3
    assert len(s.to_json().encode()) < 20_000
    return s


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_fuzz_invariants(n):
    for seed in range(4):
        play(n, seed)


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_fuzz_invariants_long(n):
    for seed in range(100, 400):
        play(n, seed)


def test_sampled_states_are_valid_mid_game():
    for n in (2, 5, 6):
        game = ShipShapeGame(n)
        s = game.new_initial_state(np.random.default_rng(n))
        rng = np.random.default_rng(0)
        while not s.is_terminal():
            for p in range(n):
                game.sample_state(s.view(p), rng).validate()
            s.apply_joint(random_joint(s, rng))


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
        s = play(n, 77)
        last = score_voyage(s.visible)
        assert [tuple(r[k] for k in ("gold", "cannons", "contraband", "full_ship", "raw",
                                     "coins")) for r in last] == list(s.voyage_scores[-1])
