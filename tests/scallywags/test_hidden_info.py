"""Hidden information in Scallywags, written from the rulebook, not from the view code.

The test keeps its own record of which face-down coins each player has seen, by the
rules: coins that entered the player's take (you may look at your take), coins it looked
at with BLOW ME DOWN! or UM, LIKE, LAND HO!. Values of every other face-down coin, the
opponents' hands and the draw pile are what the player cannot know: shuffling them must
leave its observation and mask unchanged. Changing what it does know must change them.
"""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs.scallywags.components import BLOW, LAND_HO, NUM_CARDS
from plunder.envs.scallywags.engine import TARGET, ScallywagsGame


def observe(state, p):
    return (state.observation(p), state.legal_actions_mask(p),
            state.game.describe_view(state.view(p)))


def play_with_record(n, seed, steps):
    """Random play; yields (state, seen) where seen[p] = coins p has seen, by the rules."""
    game = ScallywagsGame(n)
    s = game.new_initial_state(np.random.default_rng(seed))
    rng = np.random.default_rng(seed + 100)
    seen = [set() for _ in range(n)]
    for _ in range(steps):
        if s.is_terminal():
            return
        yield s, seen
        p = s.current_players()[0]
        s.apply_action(int(rng.choice(np.flatnonzero(s.legal_actions_mask(p)))))
        if s.phase == TARGET and s.card == BLOW and len(s.chosen) == 2:
            seen[s.actor].update(s.chosen)
        if s.phase == TARGET and s.card == LAND_HO and len(s.chosen) == 1:
            seen[s.actor].add(s.chosen[0])
        if s.card == LAND_HO and len(s.chosen) == 2:
            seen[s.actor].add(s.chosen[0])
        for q in range(n):
            seen[q].update(s.takes[q])


def unseen_coins(state, seen_by_p):
    """Face-down coins whose value the player has never seen."""
    return [c for c in range(state.game.num_coins)
            if not state.face_up[c] and c not in seen_by_p]


def perturb_unknowns(state, p, seen_by_p, rng):
    """A copy with unseen coin values and all hidden cards (others' hands, draw pile)
    redealt, keeping counts."""
    t = state.clone()
    coins = unseen_coins(t, seen_by_p)
    vals = [t.values[c] for c in coins]
    for c, v in zip(coins, rng.permutation(vals)):
        t.values[c] = int(v)
    pool = list(t.draw_pile)
    for q in range(t.game.num_players):
        if q != p:
            pool += [k for k in range(NUM_CARDS) for _ in range(t.hands[q][k])]
    pool = [int(k) for k in rng.permutation(pool)]
    for q in range(t.game.num_players):
        if q != p:
            size = sum(t.hands[q])
            t.hands[q] = [0] * NUM_CARDS
            for _ in range(size):
                t.hands[q][pool.pop()] += 1
    t.draw_pile = pool
    t.refresh()
    return t


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_unknowns_do_not_reach_the_observation(n):
    rng = np.random.default_rng(n)
    checked = 0
    for seed in range(3):
        for i, (state, seen) in enumerate(play_with_record(n, seed, 400)):
            if i % 2:
                continue
            for p in range(n):
                before = observe(state, p)
                for _ in range(2):
                    after = observe(perturb_unknowns(state, p, seen[p], rng), p)
                    np.testing.assert_array_equal(before[0], after[0])
                    np.testing.assert_array_equal(before[1], after[1])
                    assert before[2] == after[2], "the text rendering leaks"
                checked += 1
    assert checked > 40


@pytest.mark.parametrize("n", [2, 4])
def test_what_the_player_knows_does_reach_the_observation(n):
    rng = np.random.default_rng(7)
    hand_changes = value_changes = 0
    for state, seen in play_with_record(n, 3, 300):
        p = int(rng.integers(n))
        base = observe(state, p)[0]
        # own hand: swap one card for another kind
        t = state.clone()
        k = next(k for k in range(NUM_CARDS) if t.hands[p][k])
        t.hands[p][k] -= 1
        t.hands[p][(k + 1) % NUM_CARDS] += 1
        assert not np.array_equal(base, observe(t, p)[0])
        hand_changes += 1
        # a face-down coin the player has seen: give it a different value
        known = [c for c in seen[p] if not state.face_up[c]]
        others = [c for c in range(40) if state.values[c] != state.values[known[0]]] \
            if known else []
        if known and others:
            t = state.clone()
            a, b = known[0], others[0]
            t.values[a], t.values[b] = t.values[b], t.values[a]
            t.refresh()
            assert not np.array_equal(base, observe(t, p)[0])
            value_changes += 1
    assert hand_changes and value_changes


def test_a_coin_seen_once_stays_known_wherever_it_goes():
    """Perfect recall: a coin given away or returned to the middle stays known."""
    from .helpers import act, position
    from plunder.envs.scallywags.components import ARRGH, BOOTY
    s = position(2, actor=1, hands={1: [ARRGH] * 3, 0: [BOOTY] * 3},
                 face_up={3: False}, takes={0: [3]})
    act(s, "play ARRGH!")
    act(s, "coin 3")
    act(s, "allow")
    assert 3 in s.middle
    view = s.view(0)
    assert view.coin_values[3] == s.values[3]      # player 0 held it: still known
    assert s.view(1).coin_values[3] == -1          # player 1 only moved it, never saw it


def test_who_is_asked_to_block_does_not_depend_on_hands():
    """A touched player is asked whether or not it holds HANDS OFF ME BOOTY!."""
    from .helpers import act, position
    from plunder.envs.scallywags.components import HANDS_OFF, PIECES, BOOTY
    for hand in ([HANDS_OFF] * 3, [BOOTY] * 3):
        s = position(2, hands={0: [PIECES] * 3, 1: hand}, takes={1: [4]})
        act(s, "play PIECES OF EIGHT!")
        act(s, "coin 4")
        assert s.current_players() == (1,)


def test_public_facts_reach_the_observation():
    """Who has seen a coin, the discard pile and the reshuffle record are public."""
    from .helpers import position
    s = position(3, face_up={5: False}, takes={1: [5]})
    base = s.observation(0)
    t = s.clone()
    t.knowers[5] |= 1 << 2            # player 2 has seen coin 5
    t.refresh()
    assert not np.array_equal(base, t.observation(0))
    t = s.clone()
    k = t.draw_pile.pop()
    t.discard.append(k)
    assert not np.array_equal(base, t.observation(0))
    t = s.clone()
    t.reshuffled[0] = 3
    assert not np.array_equal(base, t.observation(0))


def test_reshuffle_is_remembered_and_sampled_piles_respect_it():
    from .helpers import act, position
    from plunder.envs.scallywags.components import BOOTY
    s = position(2, hands={0: [BOOTY] * 3}, face_up={7: True})
    s.discard, s.draw_pile = s.draw_pile, []
    size = len(s.discard)
    act(s, "play GIVES US ME BOOTY!")
    act(s, "coin 7")
    s.validate()
    record = list(s.reshuffled)
    assert sum(record) == size + 1 and len(s.draw_pile) == size
    rng = np.random.default_rng(0)
    for p in (0, 1):
        for _ in range(20):
            t = s.game.sample_state(s.view(p), rng)
            t.validate()
            assert all(t.draw_pile.count(k) <= record[k] for k in range(NUM_CARDS))
