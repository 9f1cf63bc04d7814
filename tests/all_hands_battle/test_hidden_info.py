"""Hidden information, written from the rulebook and independent of the view code.

What a player may know (rulebook + completion): its own hand, the crews of its own
launched ships, what its own Spy saw; everything public — discards, claimed cards (and so
that a claimed card is in its claimer's hand until it is discarded or shown), shipmasters,
crews revealed in battle, plunder, hand sizes, scores. What it may not know: the draw pile,
other hands (except claimed cards), other face-down crews (except what its Spy saw), and
what another player's Spy saw.

The test plays random games while keeping its own record of public claims and of the
player's Spy looks (from the actions, not from the engine's bookkeeping), then shuffles every
card the player cannot place among those places (keeping every count) and checks that the
player's observation and mask do not change — and that they do change when something the
player knows changes.
"""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs.all_hands_battle import AllHandsBattleGame

from .helpers import Cards, act, battle_state


class PublicRecord:
    """Claims and Spy looks, followed from the actions of a game (not from the view)."""

    def __init__(self, n):
        self.n = n
        self.reset()

    def reset(self):
        self.claimed = [set() for _ in range(self.n)]   # public: q holds these
        self.looks = set()                              # (spier, owner, slot)

    def before(self, state, action):
        g = state.game
        A = g.actions
        p = state.current_players()[0]
        self.round = state.round
        if action == A.claim:
            self.claimed[p].add(state.discard[-1])
        elif action < A.master:                        # a discard
            self.claimed[p].discard(action)
        elif A.spy <= action < A.pass_battle:
            off, j = divmod(action - A.spy, A.ships)
            self.looks.add((p, (p + off + 1) % self.n, j))

    def after(self, state):
        if state.round != self.round:
            self.reset()
            return
        for q, fleet in enumerate(state.ships):
            for ship in fleet:
                if ship[4]:                            # revealed in a battle
                    self.claimed[q].difference_update(ship[1])
        for x in state.plunder:
            for q in range(self.n):
                self.claimed[q].difference_update(x)


def hidden_places(state, p, record):
    """(container, index) of every card ``p`` cannot place."""
    places = [(state.deck, i) for i in range(len(state.deck))]
    for q in range(state.game.num_players):
        if q == p:
            continue
        for i, c in enumerate(state.hands[q]):
            if c not in record.claimed[q]:
                places.append((state.hands[q], i))
        for j, ship in enumerate(state.ships[q]):
            if not ship[4] and (p, q, j) not in record.looks:
                places.extend((ship[1], i) for i in range(len(ship[1])))
    if state.turn_player != p:
        places.extend((state.launch_crew, i) for i in range(len(state.launch_crew)))
    return places


def perturb(state, p, record, rng):
    """A copy with every card ``p`` cannot place shuffled among those places."""
    s = state.clone()
    places = hidden_places(s, p, record)
    cards = [lst[i] for lst, i in places]
    for (lst, i), c in zip(places, rng.permutation(cards)):
        lst[i] = int(c)
    for h in s.hands:
        h.sort()
    for fleet in s.ships:
        for ship in fleet:
            ship[1].sort()
    assert s.all_cards() == list(range(s.game.num_cards))
    return s


def seen(state, p):
    return state.observation(p).tobytes(), state.legal_actions_mask(p).tobytes(), \
        state.current_players()


def played_states(game, seed, every=7, limit=2500):
    rng = np.random.default_rng(seed)
    s = game.new_initial_state(np.random.default_rng(seed + 100))
    record = PublicRecord(game.num_players)
    record.round = s.round
    steps = 0
    while not s.is_terminal() and steps < limit:
        a = int(rng.choice(s.legal_actions()))
        record.before(s, a)
        s.apply_action(a)
        record.after(s)
        steps += 1
        if steps % every == 0:
            yield s, record


@pytest.mark.parametrize("n,opts", [(2, {}), (3, {"prize_crew": True}),
                                    (4, {"alternate_aargh": True}), (5, {})])
def test_unknown_cards_do_not_change_observation_or_mask(n, opts):
    game = AllHandsBattleGame(n, **opts)
    rng = np.random.default_rng(n)
    checked = changed = 0
    for state, record in played_states(game, seed=n):
        for p in range(n):
            before = seen(state, p)
            other = perturb(state, p, record, rng)
            assert seen(other, p) == before, (state.phase, state.decision, p)
            checked += 1
            if any(sorted(h) != sorted(h2) for h, h2 in zip(state.hands, other.hands)):
                changed += 1
    assert checked > 50 and changed > 10


@pytest.mark.parametrize("n", [2, 4])
def test_what_a_player_knows_changes_its_observation(n):
    game = AllHandsBattleGame(n)
    rng = np.random.default_rng(1)
    done = 0
    for state, record in played_states(game, seed=10 + n, every=11):
        for p in range(n):
            s = state.clone()
            places = hidden_places(s, p, record)
            if not places:
                continue
            lst, i = places[int(rng.integers(len(places)))]
            if s.hands[p]:
                # swap one of p's cards with a card p cannot see
                k = int(rng.integers(len(s.hands[p])))
                s.hands[p][k], lst[i] = lst[i], s.hands[p][k]
                s.hands[p].sort()
                assert s.observation(p).tobytes() != state.observation(p).tobytes()
                done += 1
            own = [sh for sh in s.ships[p]]
            if own and places:
                s2 = state.clone()
                places2 = hidden_places(s2, p, record)
                lst2, i2 = places2[0]
                crew = s2.ships[p][0][1]
                crew[0], lst2[i2] = lst2[i2], crew[0]
                assert s2.observation(p).tobytes() != state.observation(p).tobytes()
                done += 1
            if state.discard:
                s3 = state.clone()
                lst3, i3 = hidden_places(s3, p, record)[0]
                s3.discard[-1], lst3[i3] = lst3[i3], s3.discard[-1]
                assert s3.observation(p).tobytes() != state.observation(p).tobytes()
                done += 1
    assert done > 30


def test_claimed_cards_are_public_until_discarded():
    game = AllHandsBattleGame(3)
    s = game.new_initial_state(np.random.default_rng(0))
    p = s.actor
    card = s.hands[p][0]
    act(s, game.actions.discard + card)
    claimer = s.actor
    act(s, game.actions.claim)
    watcher = 3 - p - claimer
    # the watcher sees the reservation, then the card held by the claimer
    assert game.layout.read(s.observation(watcher), "reserved").reshape(3, -1)[
        (claimer - watcher) % 3, card] == 1 or card in s.hands[claimer]
    while s.actor != claimer:
        if s.decision == "claim":
            act(s, game.actions.no_claim)
        else:
            act(s, game.actions.discard + s.hands[s.actor][-1])
    kw = game.layout.read(s.observation(watcher), "known_with").reshape(3, -1)
    assert kw[(claimer - watcher) % 3, card] == 1
    assert card in s.hands[claimer]
    # once the claimer discards it, the card is in the discard pile, no longer "with" it
    act(s, game.actions.discard + card)
    obs = s.observation(watcher)
    assert game.layout.read(obs, "known_with").reshape(3, -1)[(claimer - watcher) % 3,
                                                               card] == 0
    assert game.layout.read(obs, "discard_top")[card] == 1


def test_what_a_spy_saw_only_its_owner_knows():
    game = AllHandsBattleGame(3, max_rounds=1)
    c = Cards(game)
    spy_ship = (c.one("Raider Captain"), c("Spy", "Raider 9", "Raider 10"))
    navy = (c.one("Navy Admiral"), c("Navy 4", "Navy 5", "Navy 6"))
    merchant = (c.one("Merchant Captain"), c("Merchant 1", "Merchant 2", "Merchant 3"))
    pirate = (c.one("Pirate Admiral"), c("Pirate 4", "Pirate 5", "Pirate 6"))
    s = battle_state(game, {0: [spy_ship], 1: [navy, merchant], 2: [pirate]}, first_fleet=0)
    A = game.actions
    act(s, A.select + 0)
    act(s, A.spy + A.target_index(1, 0))                    # seat 0 looks at seat 1's Navy
    swapped = s.clone()
    crew = swapped.ships[1][0][1]
    crew[0], swapped.deck[0] = swapped.deck[0], crew[0]     # change the Navy's crew
    crew.sort()
    # seat 2 (a bystander) and nobody else but seats 0 and 1 cannot tell
    assert seen(swapped, 2) == seen(s, 2)
    assert swapped.observation(0).tobytes() != s.observation(0).tobytes()   # the spy
    assert swapped.observation(1).tobytes() != s.observation(1).tobytes()   # the owner
    # the look itself is public (seat 2 sees that a Spy looked at that ship)
    lay = game.layout
    assert lay.read(s.observation(2), "ship_spied_by_other").reshape(3, 3)[(1 - 2) % 3, 0] == 1
    # what the Spy saw shows in its owner's observation only
    known = lay.read(s.observation(0), "ship_crew_known").reshape(3, 3)
    assert known[1, 0] == 1
    assert lay.read(s.observation(2), "ship_crew_known").reshape(3, 3)[(1 - 2) % 3, 0] == 0


def test_draw_pile_order_and_face_down_hands_after_the_round_stay_hidden():
    game = AllHandsBattleGame(2)
    s = game.new_initial_state(np.random.default_rng(3))
    for p in range(2):
        t = s.clone()
        t.deck.reverse()
        assert seen(t, p) == seen(s, p)
