"""Hidden information, written from the rulebook (not from the view code).

What a player cannot know in ShipShape: the card another player has picked but not yet
revealed (in the AEC form, an earlier decider's pending pick), the order of the Cap'n's
face-down deck, and the future (which crates and holds the next voyages draw). Everything
else is on the table: the crate stack ("you may look down through it"), every hold, coins,
and the revealed bids (so every hand is public knowledge). With six seats (6 players, or
5 and the Cap'n) each of the two groups bids for its own stack, yet both stacks lie on the
table for everyone to see.
"""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs import shipshape_v0
from plunder.envs.shipshape import ShipShapeGame

from .helpers import random_joint


def _states(n, seed, every=1):
    game = ShipShapeGame(n)
    s = game.new_initial_state(np.random.default_rng(seed))
    rng = np.random.default_rng(seed + 100)
    out = [s.clone()]
    k = 0
    while not s.is_terminal():
        s.apply_joint(random_joint(s, rng))
        k += 1
        if k % every == 0:
            out.append(s.clone())
    return game, out


def _seen(state, p):
    return (state.observation(p).tobytes(), state.legal_actions_mask(p).tobytes())


def _text(state, p):
    return state.game.describe_view(state.view(p))


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_earlier_pending_bid_is_not_shown_to_a_later_bidder(n):
    """AEC form: whatever the earlier bidders picked, the last bidder sees the same."""
    game, states = _states(n, seed=n)
    checked = 0
    for state in states:
        acting = state.current_players()
        if len(acting) < 2 or state.decision(acting[-1]) != "bid":
            continue
        seen = set()
        for choice in range(3):
            env = shipshape_v0.raw_env(num_players=n)
            env.reset(seed=0)
            env.game_state = state.clone()
            env._masks = {}
            env._pending = {}
            env._select_next()
            for p in acting[:-1]:
                legal = np.flatnonzero(state.legal_actions_mask(p))
                env.step(int(legal[(choice * 7 + p) % len(legal)]))
            last = env.possible_agents[acting[-1]]
            assert env.agent_selection == last
            o = env.observe(last)
            text = game.describe_view(env.game_state.view(acting[-1]))
            seen.add((o["observation"].tobytes(), o["action_mask"].tobytes(), text))
        assert len(seen) == 1
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("n", [2, 5])
def test_capn_deck_order_is_hidden(n):
    game, states = _states(n, seed=10 + n, every=3)
    capn = game.capn
    rng = np.random.default_rng(0)
    for state in states:
        deck = list(state.hands[capn])
        if len(deck) < 2:
            continue
        other = state.clone()
        while True:
            rng.shuffle(deck)
            if tuple(deck) != state.hands[capn] or len(set(deck)) < 2:
                break
        other.hands = other.hands[:capn] + (tuple(deck),) + other.hands[capn + 1:]
        other.validate()
        for p in range(n):
            assert _seen(other, p) == _seen(state, p)
            assert _text(other, p) == _text(state, p)


@pytest.mark.parametrize("n", [2, 4, 6])
def test_future_draws_are_hidden(n):
    """A different generator (next voyages' crates and holds) changes nothing seen."""
    game, states = _states(n, seed=20 + n, every=4)
    for state in states:
        other = state.clone()
        other.rng = np.random.default_rng(12345)
        for p in range(n):
            assert _seen(other, p) == _seen(state, p)
            assert _text(other, p) == _text(state, p)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_public_facts_are_seen(n):
    """Changing what everyone knows changes every seat's observation."""
    game, states = _states(n, seed=30 + n, every=5)
    checked_stacks = set()
    for state in states[:-1]:
        for p in range(n):
            base = _seen(state, p)
            # another seat's hand (swap a hand card with a discarded one, counts kept)
            q = (p + 1) % n
            if state.discards[q]:
                other = state.clone()
                h, d = list(other.hands[q]), list(other.discards[q])
                h[0], d[0] = d[0], h[0]
                other.hands = other.hands[:q] + (tuple(sorted(h)),) + other.hands[q + 1:]
                other.discards = other.discards[:q] + (tuple(d),) + other.discards[q + 1:]
                assert _seen(other, p) != base
            # someone's coins
            other = state.clone()
            other.coins = tuple(c + (s == q) for s, c in enumerate(other.coins))
            assert _seen(other, p) != base
            # the orientation of the top crate of every stack: each group's stack is
            # public to every seat, not only to the group that bids for it
            for k, stack in enumerate(state.stacks):
                if stack:
                    other = state.clone()
                    c, o = stack[0]
                    turned = ((c, (o + 2) % 8),) + stack[1:]
                    other.stacks = other.stacks[:k] + (turned,) + other.stacks[k + 1:]
                    assert _seen(other, p) != base, f"seat {p} misses stack {k}"
                    checked_stacks.add(k)
            # another seat's hold as seen from above
            other = state.clone()
            vis = list(other.visible[q])
            vis[4] = 1 if vis[4] != 1 else 2
            other.visible = other.visible[:q] + (tuple(vis),) + other.visible[q + 1:]
            assert _seen(other, p) != base
    assert checked_stacks == set(range(2 if n in (5, 6) else 1))


@pytest.mark.parametrize("n", [2, 5])
def test_capn_deck_contents_are_known(n):
    """The Cap'n's revealed bids are public: which cards are left in his deck is known."""
    game, states = _states(n, seed=40 + n, every=3)
    capn = game.capn
    for state in states[:-1]:
        if not state.discards[capn] or not state.hands[capn]:
            continue
        other = state.clone()
        deck, disc = list(other.hands[capn]), list(other.discards[capn])
        deck[0], disc[0] = disc[0], deck[0]
        other.hands = other.hands[:capn] + (tuple(deck),) + other.hands[capn + 1:]
        other.discards = other.discards[:capn] + (tuple(disc),) + other.discards[capn + 1:]
        assert _seen(other, 0) != _seen(state, 0)


@pytest.mark.parametrize("n", [2, 5])
def test_sample_state_redraws_only_the_capn_deck_order(n):
    game, states = _states(n, seed=50 + n, every=4)
    capn = game.capn
    rng = np.random.default_rng(1)
    orders = set()
    for state in states:
        for p in range(n):
            sampled = game.sample_state(state.view(p), rng)
            sampled.validate()
            assert sampled.view(p) == state.view(p)
            assert _text(sampled, p) == _text(state, p)
            assert sorted(sampled.hands[capn]) == sorted(state.hands[capn])
            for key in ("stacks", "placed", "coins", "discards", "hold_history", "bids"):
                assert getattr(sampled, key) == getattr(state, key)
        if len(state.hands[capn]) >= 5:
            orders.add(game.sample_state(state.view(0), rng).hands[capn])
    assert len(orders) > 1
