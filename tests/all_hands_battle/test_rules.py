"""One scenario per rule, card and variant of All Hands On Deck (rulebook + completion)."""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs.all_hands_battle import AllHandsBattleGame
from plunder.envs.all_hands_battle.engine import (
    AIM, BATTLE, CLAIM, CREW, DISCARD, OVER, RECRUIT, SELECT, TURN,
)
from plunder.envs.core import IllegalActionError, InvalidArgumentError

from .helpers import Cards, act, battle_state, legal, recruit_state


def game(n=2, **opts):
    """A game whose first reckoning ends it (so the round's table stays to inspect)."""
    opts.setdefault("max_rounds", 1)
    return AllHandsBattleGame(n, **opts)


def attack(g, seat, target_seat, slot):
    A = g.actions
    return A.attack + A.target_index((target_seat - seat) % g.num_players, slot)


def spy(g, seat, target_seat, slot):
    A = g.actions
    return A.spy + A.target_index((target_seat - seat) % g.num_players, slot)


# -- setup -------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_deals_twelve_and_first_player_draws(n):
    g = game(n)
    starters = set()
    for seed in range(12):
        s = g.new_initial_state(np.random.default_rng(seed))
        starters.add(s.starter)
        assert s.phase == RECRUIT and s.decision == TURN and s.actor == s.starter
        sizes = [len(h) for h in s.hands]
        assert sizes[s.starter] == 13 and sum(sizes) == 12 * n + 1
        assert len(s.deck) == 74 - 12 * n - 1
        assert s.all_cards() == list(range(74))
    assert len(starters) > 1, "the first player is drawn at random"


# -- launching ---------------------------------------------------------------------------
def test_masters_offered_only_with_a_legal_crew():
    g = game()
    c = Cards(g)
    navy_adm, merch_cap, priv = c("Navy Admiral", "Merchant Captain", "Privateer")
    hand = [navy_adm, merch_cap, priv] + c("Navy 3", "Navy 5", "Pirate 2", "Pirate 4",
                                           "Raider 1", "Raider 6", "Merchant 9", "Jewels",
                                           "Gold", "Silver")
    s = recruit_state(g, {0: hand})
    A = g.actions
    masters = [a - A.master for a in legal(s) if A.master <= a < A.crew]
    # Navy Admiral: Navy 3, Navy 5 + Privateer crew; Merchant Captain: Merchant 9, Jewels,
    # Gold, Silver, Privateer; Privateer: any non-shipmaster cards
    assert sorted(masters) == sorted([navy_adm, merch_cap, priv])
    # every card in hand may be discarded instead
    assert all(A.discard + x in legal(s) for x in hand)


def test_crew_steps_follow_suits_and_can_always_be_completed():
    g = game()
    c = Cards(g)
    adm = c.one("Navy Admiral")
    navy = c("Navy 3", "Navy 5")
    priv = c.one("Privateer")
    other = c("Merchant 2", "Pirate 7", "Jewels", "Governor's Daughter", "Black Spot",
              "Navy Captain", "Ruth", "Spy", "Lady")
    s = recruit_state(g, {0: [adm] + navy + [priv] + other})
    A = g.actions
    act(s, A.master + adm)
    assert s.decision == CREW
    crew_choices = {a - A.crew for a in legal(s)}
    # Navy crew, a Privateer and the Governor's Daughter (a Navy card) may sail with a Navy
    # Admiral; Merchant/Pirate cards, treasure of other suits, Captains and specials of
    # other suits may not
    daughter = c.game.cards[other[3]].id
    assert crew_choices == set(navy) | {priv, daughter}
    act(s, A.crew + navy[0])
    act(s, A.crew + daughter)
    assert {a - A.crew for a in legal(s)} == {navy[1], priv}
    act(s, A.crew + priv)
    assert s.decision == DISCARD and len(s.ships[0]) == 1
    assert s.ships[0][0][0] == adm and s.ships[0][0][1] == sorted([navy[0], daughter, priv])
    # one ship per turn: only discards now
    assert all(a < A.master for a in legal(s))


def test_partial_crew_masks_never_dead_end():
    """A ship needs three crew: two Pirate cards are not enough; with exactly one legal crew
    in hand, each step offers only the cards of that crew."""
    g = game()
    c = Cards(g)
    cap = c.one("Pirate Captain")
    crew = c("Pirate 4", "Black Spot")
    filler = c("Navy 1", "Navy 2", "Merchant 3", "Merchant 4", "Raider 5", "Raider 6",
               "Silver", "Lady", "Spy")
    A = g.actions
    s = recruit_state(g, {0: [cap] + crew + filler + c("Navy Admiral")})
    assert A.master + cap not in legal(s), "only two Pirate cards: no ship yet"
    crew = crew + c("Ruth")
    s = recruit_state(g, {0: [cap] + crew + filler + c("Navy 3")})
    act(s, A.master + cap)
    left = set(crew)
    for _ in range(3):
        options = {a - A.crew for a in legal(s)}
        assert options == left
        pick = min(options)
        act(s, A.crew + pick)
        left.discard(pick)
    assert s.decision == DISCARD and s.ships[0][0][1] == sorted(crew)


def test_privateer_shipmaster_takes_any_crew_but_never_admirals_or_captains():
    g = game()
    c = Cards(g)
    p1, p2 = c("Privateer", "Privateer")
    others = c("Jewels", "Black Spot", "Spy", "Lady", "Ruth", "Navy Admiral", "Raider Captain",
               "Governor's Daughter", "Navy 1", "Pirate 9", "Merchant 2")
    s = recruit_state(g, {0: [p1, p2] + others})
    A = g.actions
    act(s, A.master + p1)
    choices = {a - A.crew for a in legal(s)}
    names = {g.cards[x].name for x in choices}
    assert "Navy Admiral" not in names and "Raider Captain" not in names
    assert {"Privateer", "Jewels", "Black Spot", "Spy", "Lady", "Ruth",
            "Governor's Daughter", "Navy 1", "Pirate 9", "Merchant 2"} == names


@pytest.mark.parametrize("special,ok_suits", [
    ("Jewels", {"Merchant"}), ("Gold", {"Merchant"}), ("Silver", {"Merchant"}),
    ("Governor's Daughter", {"Navy"}), ("Black Spot", {"Pirate"}), ("Ruth", {"Pirate"}),
    ("Spy", {"Raider"}), ("Lady", {"Merchant"}),
])
def test_special_and_treasure_placement(special, ok_suits):
    g = game()
    for suit in ("Navy", "Merchant", "Pirate", "Raider"):
        c = Cards(g)
        cap = c.one(f"{suit} Captain")
        card = c.one(special)
        hand = [cap, card] + c(f"{suit} 1", f"{suit} 2", f"{suit} 3") + \
            c("Navy 10", "Merchant 10", "Pirate 10", "Raider 10", "Navy 9", "Merchant 9",
              "Pirate 9", "Raider 9")[:8]
        s = recruit_state(g, {0: hand})
        A = g.actions
        act(s, A.master + cap)
        assert (A.crew + card in legal(s)) == (suit in ok_suits), (special, suit)


def test_illegal_action_raises_naming_legal_ones():
    g = game()
    s = g.new_initial_state(np.random.default_rng(0))
    bad = next(a for a in range(g.num_actions) if a not in legal(s))
    with pytest.raises(IllegalActionError, match="legal actions"):
        act(s, bad)


# -- turns, Aargh!, reshuffle ------------------------------------------------------------
def test_discard_ends_turn_and_every_other_player_is_asked_in_turn_order():
    g = game(4)
    s = g.new_initial_state(np.random.default_rng(1))
    p = s.actor
    card = s.hands[p][0]
    act(s, g.actions.discard + card)
    assert s.decision == CLAIM
    asked = []
    while s.decision == CLAIM:
        asked.append(s.actor)
        act(s, g.actions.no_claim)
    assert asked == [(p + 1) % 4, (p + 2) % 4, (p + 3) % 4]
    assert s.decision == TURN and s.actor == (p + 1) % 4 and s.discard[-1] == card
    assert s.turns == 1


def test_first_claim_takes_the_card_and_it_is_the_next_draw():
    g = game(4)
    s = g.new_initial_state(np.random.default_rng(2))
    p = s.actor
    card = s.hands[p][0]
    act(s, g.actions.discard + card)
    act(s, g.actions.no_claim)            # p+1 passes
    claimer = s.actor                     # p+2 claims
    assert claimer == (p + 2) % 4
    act(s, g.actions.claim)
    assert s.reserved[claimer] == card and card not in s.discard
    assert s.decision == TURN and s.actor == (p + 1) % 4, "p+3 is not asked any more"
    # the claim is public: every view shows it
    assert all(s.view(q).reserved[claimer] == card for q in range(4))
    # p+1's turn: discard; the claimer still has a reserved card, so only "pass"
    act(s, g.actions.discard + s.hands[s.actor][0])
    while s.decision == CLAIM:
        if s.actor == claimer:
            assert legal(s) == [g.actions.no_claim]
        act(s, g.actions.no_claim)
    # the claimer's turn: the reserved card is its draw (the pile is untouched)
    deck_before = len(s.deck)
    assert s.actor == claimer
    assert card in s.hands[claimer] and s.reserved[claimer] == -1
    assert len(s.deck) == deck_before and len(s.hands[claimer]) == 13
    assert card in s.view((claimer + 1) % 4).known_with[claimer]


def test_players_with_a_reserved_card_are_still_asked():
    g = game(3)
    s = g.new_initial_state(np.random.default_rng(3))
    p = s.actor
    s.reserved[(p + 1) % 3] = s.deck.pop()
    act(s, g.actions.discard + s.hands[p][0])
    assert s.decision == CLAIM and s.actor == (p + 1) % 3
    assert legal(s) == [g.actions.no_claim]


def test_empty_draw_pile_reshuffles_the_discards_except_the_top():
    g = game(2)
    c = Cards(g)
    s = recruit_state(g, {0: c("Navy 1", "Navy 2", "Navy 3", "Navy 4", "Navy 5", "Navy 6",
                               "Navy 7", "Navy 8", "Navy 9", "Navy 10", "Pirate 1",
                               "Pirate 2", "Pirate 3")})
    # move all but the 12 cards of player 1 into the discard pile
    s.discard = list(s.deck)
    s.deck = []
    top = s.discard[-1]
    act(s, g.actions.discard + s.hands[0][0])       # discard; player 1 passes the claim
    new_top = s.discard[-1]
    act(s, g.actions.no_claim)
    assert s.actor == 1 and len(s.hands[1]) == 13
    assert s.discard == [new_top]
    assert top in s.deck or top in s.hands[1]
    assert sorted(s.reshuffled) == sorted(s.deck + [c_ for c_ in s.hands[1]
                                                    if c_ in s.reshuffled])
    assert s.all_cards() == list(range(74))


def _launch(s, master, crew):
    A = s.game.actions
    act(s, A.master + master)
    for x in crew:
        act(s, A.crew + x)


def test_first_fleet_bonus_and_one_last_turn_for_everyone_else():
    g = game(3)
    c = Cards(g)
    ships = [(c.one("Navy Admiral"), c("Navy 8", "Navy 9", "Navy 10")),
             (c.one("Pirate Admiral"), c("Pirate 8", "Pirate 9", "Pirate 10")),
             (c.one("Raider Admiral"), c("Raider 8", "Raider 9", "Raider 10"))]
    last = c.one("Merchant 1")
    s = recruit_state(g, {0: [ships[2][0]] + ships[2][1] + [last]}, ships={0: ships[:2]})
    _launch(s, *ships[2])
    act(s, g.actions.discard + last)
    assert s.first_fleet == 0 and s.last_turns == [1, 2]
    # the claim questions: players with a last turn left may claim
    assert s.decision == CLAIM and g.actions.claim in legal(s)
    act(s, g.actions.no_claim)
    act(s, g.actions.no_claim)
    for seat in (1, 2):
        assert s.phase == RECRUIT and s.actor == seat and s.decision == TURN
        act(s, g.actions.discard + s.hands[seat][0])
        while s.phase == RECRUIT and s.decision == CLAIM:
            if s.actor == 0:
                # the first fleet has no turn left: it may only pass
                assert legal(s) == [g.actions.no_claim]
            act(s, g.actions.no_claim)
    # nobody else launched a ship: no battle is possible, straight to the reckoning
    assert s.phase == OVER and s.last_round[0] == 50 + 75


# -- battles -------------------------------------------------------------------------------
def test_first_fleet_must_attack_with_all_three_ships_in_any_order():
    g = game(2)
    c = Cards(g)
    f0 = [(c.one("Navy Admiral"), c("Navy 1", "Navy 2", "Navy 3")),
          (c.one("Navy Captain"), c("Navy 4", "Navy 5", "Navy 6")),
          (c.one("Merchant Captain"), c("Merchant 1", "Merchant 2", "Merchant 3"))]
    f1 = [(c.one("Pirate Admiral"), c("Pirate 1", "Pirate 2", "Pirate 3")),
          (c.one("Raider Admiral"), c("Raider 1", "Raider 2", "Raider 3")),
          (c.one("Pirate Captain"), c("Pirate 4", "Pirate 5", "Pirate 6"))]
    s = battle_state(g, {0: f0, 1: f1}, first_fleet=0)
    A = g.actions
    assert s.phase == BATTLE and s.decision == SELECT and s.actor == 0 and s.forced
    assert A.pass_battle not in legal(s), "the first fleet cannot pass"
    for k in (2, 0, 1):
        act(s, A.select + k)
        assert s.decision == AIM and A.pass_battle not in legal(s)
        target = min(j for j in range(3) if s.ships[1][j][2])
        act(s, attack(g, 0, 1, target))
        if k != 1:
            assert s.actor == 0
    assert all(not sh[2] for sh in s.ships[0])


def test_who_may_attack_whom():
    g = game(3)
    c = Cards(g)
    navy = (c.one("Navy Admiral"), c("Navy 1", "Navy 2", "Navy 3"))
    merchant = (c.one("Merchant Admiral"), c("Merchant 1", "Merchant 2", "Merchant 3"))
    pirate = (c.one("Pirate Admiral"), c("Pirate 1", "Pirate 2", "Pirate 3"))
    raider = (c.one("Raider Admiral"), c("Raider 1", "Raider 2", "Raider 3"))
    priv = (c.one("Privateer"), c("Navy 4", "Pirate 4", "Raider 4"))
    priv2 = (c.one("Privateer"), c("Navy 5", "Pirate 5", "Raider 5"))
    s = battle_state(g, {0: [navy, priv], 1: [merchant, pirate], 2: [raider, priv2]},
                     first_fleet=0)
    t = s.targets
    assert set(t(0, 0)) == {(1, 1), (2, 0), (2, 1)}        # Navy: Marauders and Privateers
    assert set(t(0, 1)) == {(1, 0), (1, 1), (2, 0), (2, 1)}  # Privateer: anyone but own
    assert set(t(1, 0)) == {(2, 0), (2, 1), (0, 1)}        # Merchant: never the Navy
    assert set(t(2, 0)) == {(0, 0), (1, 0), (0, 1)}        # Raider: never the Pirate


def test_after_the_first_fleet_turns_go_left_skipping_players_without_an_attack():
    g = game(4)
    c = Cards(g)
    ff = [(c.one("Navy Admiral"), c("Navy 8", "Navy 9", "Navy 10"))]
    seat2 = [(c.one("Merchant Admiral"), c("Merchant 1", "Merchant 2", "Merchant 3"))]
    seat3 = [(c.one("Pirate Admiral"), c("Pirate 1", "Pirate 2", "Pirate 3")),
             (c.one("Pirate Captain"), c("Pirate 4", "Pirate 5", "Pirate 6"))]
    seat0 = [(c.one("Navy Captain"), c("Navy 1", "Navy 2", "Navy 3"))]
    s = battle_state(g, {1: ff, 2: seat2, 3: seat3, 0: seat0}, first_fleet=1)
    A = g.actions
    assert s.actor == 1 and s.forced
    act(s, A.select + 0)
    act(s, attack(g, 1, 3, 1))          # Navy 8,9,10 beats Pirate 4,5,6
    assert s.phase == BATTLE and not s.forced
    # seat 2 (Merchant) may attack seat 3's Pirate Admiral: it is next to the first fleet
    assert s.actor == 2
    act(s, A.pass_battle)
    assert s.actor == 3
    act(s, A.select + 0)
    act(s, attack(g, 3, 0, 0))          # Pirate 1,2,3 vs Navy 1,2,3: Admiral beats Captain
    # seat 0's ship has fought, seat 1 has nothing left, seat 2 passed: reckoning
    assert s.phase == OVER
    assert s.last_round == [0, 50 + 50, 25, 50]


def test_pass_player_skipped_and_attacked():
    g = game(3)
    c = Cards(g)
    navy = (c.one("Navy Admiral"), c("Navy 8", "Navy 9", "Navy 10"))
    navy2 = (c.one("Navy Captain"), c("Navy 1", "Navy 2", "Navy 3"))
    pirate = (c.one("Pirate Admiral"), c("Pirate 1", "Pirate 2", "Pirate 3"))
    pirate2 = (c.one("Pirate Captain"), c("Pirate 4", "Pirate 5", "Pirate 6"))
    raider = (c.one("Raider Captain"), c("Raider 7", "Raider 8", "Raider 9"))
    s = battle_state(g, {0: [navy, navy2], 1: [pirate, pirate2], 2: [raider]}, first_fleet=2)
    A = g.actions
    # seat 2's forced attack
    assert s.actor == 2 and s.forced
    act(s, A.select + 0)
    act(s, attack(g, 2, 0, 1))        # Raider 7,8,9 beats Navy 1,2,3
    assert s.ships[0][1][3] == 2
    assert s.actor == 0 and not s.forced and A.pass_battle in legal(s)
    act(s, A.pass_battle)
    assert s.passed[0]
    assert s.actor == 1
    act(s, A.select + 1)
    act(s, attack(g, 1, 0, 0))        # the passed player's ship is attacked (and wins)
    # seat 1's first ship has no Mariner left to attack; seat 0 passed: reckoning
    assert s.phase == OVER
    assert s.last_round == [25 + 25, 25, 25 + 25 + 50]


def test_raider_plunders_treasure_both_ships_leave_play_and_stay_with_owners():
    g = game(2)
    c = Cards(g)
    raider = (c.one("Raider Captain"), c("Raider 1", "Raider 2", "Raider 3"))
    merchant = (c.one("Merchant Admiral"), c("Merchant 10", "Jewels", "Gold"))
    s = battle_state(g, {0: [raider], 1: [merchant]}, first_fleet=0)
    act(s, g.actions.select + 0)
    act(s, attack(g, 0, 1, 0))
    jewels_gold = {g.cards[x].name for x in s.plunder[0]}
    assert jewels_gold == {"Jewels", "Gold"}
    assert s.ships[0][0][3] == 0 and s.ships[1][0][3] == 1      # each keeps its ship
    assert not s.ships[0][0][2] and not s.ships[1][0][2]
    assert not s.ships[1][0][4], "no battle: the crews stay face down"
    scores = s.last_round
    assert scores == [25 + 50 + 50, 25]   # ship + plunder 30+20 + first fleet; ship


def test_raider_against_a_ship_without_treasure_battles():
    g = game(2)
    c = Cards(g)
    raider = (c.one("Raider Captain"), c("Raider 1", "Raider 2", "Raider 3"))
    navy = (c.one("Navy Captain"), c("Navy 4", "Navy 5", "Navy 6"))
    s = battle_state(g, {0: [raider], 1: [navy]}, first_fleet=0)
    act(s, g.actions.select + 0)
    act(s, attack(g, 0, 1, 0))
    assert not s.plunder[0]
    assert s.last_round == [50, 50]     # seat 1 wins both ships; seat 0 has the bonus


def test_raid_on_black_spot_ship_with_treasure_succeeds_without_treasure_black_spot_wins():
    g = game(2)
    c = Cards(g)
    raider = (c.one("Raider Admiral"), c("Raider 8", "Raider 9", "Raider 10"))
    spot_rich = (c.one("Privateer"), c("Black Spot", "Silver", "Navy 1"))
    s = battle_state(g, {0: [raider], 1: [spot_rich]}, first_fleet=0)
    act(s, g.actions.select + 0)
    act(s, attack(g, 0, 1, 0))
    assert [g.cards[x].name for x in s.plunder[0]] == ["Silver"]
    g2 = game(2)
    c = Cards(g2)
    raider = (c.one("Raider Admiral"), c("Raider 8", "Raider 9", "Raider 10"))
    spot_poor = (c.one("Privateer"), c("Black Spot", "Pirate 1", "Navy 2"))
    s = battle_state(g2, {0: [raider], 1: [spot_poor]}, first_fleet=0)
    act(s, g2.actions.select + 0)
    act(s, attack(g2, 0, 1, 0))
    assert not s.plunder[0]
    assert s.last_round == [50, 50]       # the Black Spot wins both ships


def test_black_spot_wins_any_battle_and_two_black_spots_both_sink():
    g = game(2)
    c = Cards(g)
    spot = (c.one("Pirate Captain"), c("Black Spot", "Pirate 1", "Pirate 2"))
    strong = (c.one("Navy Admiral"), c("Navy 8", "Navy 9", "Navy 10"))
    r = g.rules.resolve(strong[0], strong[1], spot[0], spot[1])
    assert r.outcome == "defender" and r.reason == "black spot"
    r = g.rules.resolve(spot[0], spot[1], strong[0], strong[1])
    assert r.outcome == "attacker"
    spot2 = (c.one("Privateer"), c("Black Spot", "Gold", "Navy 1"))
    r = g.rules.resolve(spot[0], spot[1], spot2[0], spot2[1])
    assert r.outcome == "sink" and r.reason == "both black spots"
    s = battle_state(g, {0: [spot], 1: [spot2]}, first_fleet=1)
    act(s, g.actions.select + 0)
    act(s, attack(g, 1, 0, 0))
    assert s.ships[0][0][3] == -1 and s.ships[1][0][3] == -1
    assert s.last_round == [0, 50], "the Gold sinks with its ship"


def test_duels_weakest_to_strongest_more_duels_won_wins():
    g = game(2)
    c = Cards(g)
    a = (c.one("Navy Captain"), c("Navy 1", "Navy 9", "Navy 10"))
    d = (c.one("Pirate Admiral"), c("Pirate 2", "Pirate 3", "Pirate 8"))
    r = g.rules.resolve(a[0], a[1], d[0], d[1])
    # 1 v 2 (lose), 9 v 3 (win), 10 v 8 (win): attacker 2-1
    assert [duel[4] for duel in r.duels] == [-1, 1, 1]
    assert r.outcome == "attacker" and r.reason == "duels"


def test_tie_decided_by_shipmaster_rank_then_both_sink():
    g = game(2)
    c = Cards(g)
    adm = (c.one("Navy Admiral"), c("Navy 1", "Navy 5", "Navy 9"))
    cap = (c.one("Pirate Captain"), c("Pirate 2", "Pirate 5", "Pirate 8"))
    r = g.rules.resolve(cap[0], cap[1], adm[0], adm[1])
    assert [d[4] for d in r.duels] == [1, 0, -1]
    assert r.outcome == "defender" and r.reason == "rank"      # Admiral beats Captain
    priv = (c.one("Privateer"), c("Raider 1", "Raider 5", "Raider 9"))
    r = g.rules.resolve(priv[0], priv[1], cap[0], cap[1])
    assert r.outcome == "defender"                              # Captain beats Privateer
    cap2 = (c.one("Merchant Captain"), c("Merchant 1", "Merchant 5", "Merchant 9"))
    r = g.rules.resolve(cap[0], cap[1], cap2[0], cap2[1])
    assert [d[4] for d in r.duels] == [1, 0, -1] and r.outcome == "sink"


def test_winner_takes_both_ships_and_all_treasure():
    g = game(2)
    c = Cards(g)
    navy = (c.one("Navy Admiral"), c("Navy 8", "Navy 9", "Navy 10"))
    priv = (c.one("Privateer"), c("Jewels", "Gold", "Pirate 3"))
    s = battle_state(g, {0: [navy], 1: [priv]}, first_fleet=0)
    act(s, g.actions.select + 0)
    act(s, attack(g, 0, 1, 0))
    assert s.ships[1][0][3] == 0 and s.ships[1][0][4], "crew revealed and ship taken"
    assert s.last_round == [25 + 25 + 50 + 50, 0]


def test_both_sink_with_their_treasure():
    g = game(2)
    c = Cards(g)
    a = (c.one("Privateer"), c("Pirate 2", "Pirate 7", "Pirate 8"))
    d = (c.one("Privateer"), c("Gold", "Merchant 7", "Merchant 9"))
    s = battle_state(g, {0: [a], 1: [d]}, first_fleet=0)
    act(s, g.actions.select + 0)
    act(s, attack(g, 0, 1, 0))   # 2 v 0 win, 7 v 7 tie, 8 v 9 lose; equal rank: both sink
    assert s.ships[0][0][3] == -1 and s.ships[1][0][3] == -1
    assert s.last_round == [50, 0], "the Gold sinks with its ship"


def test_ruth_duels_at_one_and_lifts_every_other_crew_member():
    g = game(2)
    c = Cards(g)
    ruth = c.one("Ruth")
    crew = [ruth] + c("Pirate 4", "Privateer")
    lv = g.rules.levels(crew, attacking=True)
    assert sorted(l for _, l, _ in lv) == [1, 5, 7]
    d = (c.one("Navy Captain"), c("Navy 1", "Navy 5", "Navy 7"))
    r = g.rules.resolve(c.one("Pirate Captain"), crew, d[0], d[1])
    assert [x[4] for x in r.duels] == [0, 0, 0] and r.outcome == "sink"


def test_spy_levels_attacking_two_defending_six():
    g = game(2)
    c = Cards(g)
    spy_card = c.one("Spy")
    crew = [spy_card] + c("Raider 1", "Raider 9")
    assert sorted(l for _, l, _ in g.rules.levels(crew, True)) == [1, 2, 9]
    assert sorted(l for _, l, _ in g.rules.levels(crew, False)) == [1, 6, 9]


def test_spy_looks_privately_then_attacks_that_or_another_ship_or_passes():
    g = game(3)
    c = Cards(g)
    spy_ship = (c.one("Raider Captain"), c("Spy", "Raider 9", "Raider 10"))
    other_ship = (c.one("Raider Admiral"), c("Raider 1", "Raider 2", "Raider 3"))
    navy = (c.one("Navy Admiral"), c("Navy 4", "Navy 5", "Navy 6"))
    merchant = (c.one("Merchant Captain"), c("Merchant 1", "Merchant 2", "Merchant 3"))
    pirate = (c.one("Pirate Admiral"), c("Pirate 4", "Pirate 5", "Pirate 6"))
    s = battle_state(g, {0: [pirate], 1: [navy, merchant], 2: [spy_ship, other_ship]},
                     first_fleet=0)
    A = g.actions
    # seat 0 (first fleet) attacks the Navy; then seat 1 passes; seat 2's turn
    act(s, A.select + 0)
    act(s, attack(g, 0, 1, 1))
    assert s.actor == 1
    act(s, A.pass_battle)
    assert s.actor == 2
    assert A.spy + A.target_index(1, 0) not in legal(s)   # no spy before choosing a ship
    act(s, A.select + 0)
    before = {q: s.view(q) for q in range(3)}
    assert spy(g, 2, 1, 0) in legal(s) and A.pass_battle not in legal(s)
    act(s, spy(g, 2, 1, 0))
    v2, v0 = s.view(2), s.view(0)
    assert v2.ships[1][0].crew == tuple(sorted(navy[1])) and v2.ships[1][0].spied
    assert v0.ships[1][0].crew is None, "only the Spy's owner sees the crew"
    assert s.view(1).ships[1][0].crew is not None     # its own ship
    # she may spy only once; now attack that ship, another, or pass — with the Spy's ship
    assert spy(g, 2, 1, 0) not in legal(s)
    assert all(A.attack <= a < A.spy or a == A.pass_battle for a in legal(s))
    assert s.selected == 0
    assert A.pass_battle in legal(s) and attack(g, 2, 1, 0) in legal(s)
    act(s, A.pass_battle)
    assert s.passed[2]
    del before, v0


def test_first_fleet_may_not_pass_after_spying():
    g = game(2)
    c = Cards(g)
    spy_ship = (c.one("Raider Captain"), c("Spy", "Raider 9", "Raider 10"))
    navy = (c.one("Navy Admiral"), c("Navy 4", "Navy 5", "Navy 6"))
    s = battle_state(g, {0: [spy_ship], 1: [navy]}, first_fleet=0)
    A = g.actions
    act(s, A.select + 0)
    act(s, spy(g, 0, 1, 0))
    assert legal(s) == [attack(g, 0, 1, 0)]


def test_lady_takes_the_strongest_crew_level_and_duels_last():
    g = game(2)
    c = Cards(g)
    lady1, lady2 = c("Lady", "Lady")
    m3, m8, m7 = c("Merchant 3", "Merchant 8", "Merchant 7")
    lv = g.rules.levels([lady1, m3, m8], True)
    assert lv[-1][2] == lady1 and lv[-1][1] == 8
    # two Ladies: their crewmate duels for both; the Ladies duel last
    lv = g.rules.levels([lady1, lady2, m7], False)
    assert [x[1] for x in lv] == [7, 7, 7] and {x[2] for x in lv[1:]} == {lady1, lady2}
    d = (c.one("Privateer"), c("Privateer", "Navy 5", "Navy 9"))
    r = g.rules.resolve(c.one("Merchant Captain"), [lady1, lady2, m7], d[0], d[1])
    # 7 v 5 win, Lady 7 v Privateer 6 win, Lady 7 v 9 lose
    assert [x[4] for x in r.duels] == [1, 1, -1] and r.outcome == "attacker"
    assert r.duels[2][0] in (lady1, lady2)


def test_governors_daughter_duels_first_and_wins_her_duel():
    g = game(2)
    c = Cards(g)
    daughter = c.one("Governor's Daughter")
    a = (c.one("Navy Captain"), [daughter] + c("Navy 2", "Navy 3"))
    d = (c.one("Pirate Captain"), c("Pirate 8", "Pirate 9", "Pirate 10"))
    r = g.rules.resolve(a[0], a[1], d[0], d[1])
    assert r.duels[0][0] == daughter and r.duels[0][4] == 1
    assert r.duels[0][2] == c.game.cards[d[1][0]].id    # against the weakest opponent
    assert r.outcome == "defender"


def test_two_governors_daughters_tie_their_duel():
    import copy

    from plunder.envs.all_hands_battle.components import parse_components
    from plunder.envs.core.config import load_game_data

    data = copy.deepcopy(load_game_data("all_hands_battle"))
    for entry in data["cards"]:
        if entry["name"] == "Governor's Daughter":
            entry["copies"] = 2
    g = AllHandsBattleGame(2, components=parse_components(data))
    c = Cards(g)
    d1, d2 = c("Governor's Daughter", "Governor's Daughter")
    a = (c.one("Navy Captain"), [d1] + c("Navy 2", "Navy 3"))
    d = (c.one("Privateer"), [d2] + c("Pirate 2", "Pirate 3"))
    r = g.rules.resolve(a[0], a[1], d[0], d[1])
    assert r.duels[0][4] == 0 and r.outcome == "attacker"     # tie, 0-0, Captain > Privateer


def test_privateer_crew_duels_at_six():
    g = game(2)
    c = Cards(g)
    lv = g.rules.levels([c.one("Privateer"), c.one("Navy 6"), c.one("Navy 7")], True)
    assert [x[1] for x in lv] == [6, 6, 7]


# -- reckoning and rounds ----------------------------------------------------------------
def test_reckoning_counts_ships_treasure_bonus_and_flags_in_hand_floor_zero():
    g = game(2)
    c = Cards(g)
    navy = (c.one("Navy Admiral"), c("Navy 1", "Navy 2", "Governor's Daughter"))
    hand1 = c("Pirate Admiral", "Pirate Captain", "Jewels", "Navy 5")
    s = battle_state(g, {0: [navy]}, first_fleet=0, hands={1: hand1})
    # no battle possible: straight to the reckoning
    assert s.phase == OVER and s.last_round == [25 + 20 + 50, 0]
    hand0 = c("Gold")
    s = battle_state(g, {1: [navy]}, first_fleet=1, hands={0: hand0 + c("Silver")})
    assert s.last_round == [0, 95]
    del hand1


def test_rounds_repeat_with_the_next_starter_until_target():
    g = game(2, target_score=100, max_rounds=0)
    c = Cards(g)
    navy = (c.one("Navy Admiral"), c("Navy 1", "Navy 2", "Navy 3"))
    first_starter = g.new_initial_state(np.random.default_rng(0)).starter
    s = battle_state(g, {0: [navy]}, first_fleet=0)
    assert s.round == 2 and s.totals == [75, 0] and s.phase == RECRUIT
    assert s.starter == (first_starter + 1) % 2 and s.actor == s.starter
    assert len(s.hands[s.starter]) == 13 and not any(s.ships)
    # round 2: seat 0 again keeps its ship and has the first fleet
    mine = [navy[0]] + navy[1]
    s.deck = [x for x in s.deck + s.hands[0] + s.hands[1] if x not in mine]
    s.hands = [[], []]
    s.ships[0] = [[navy[0], sorted(navy[1]), True, 0, False]]
    s.first_fleet = 0
    s._start_battles()
    assert s.totals == [150, 0] and s.phase == OVER and s.is_terminal()
    assert s.scores() == [150.0, 0.0] and s.current_players() == ()


def test_max_rounds_ends_the_game():
    g = game(2, max_rounds=1)
    c = Cards(g)
    navy = (c.one("Navy Admiral"), c("Navy 1", "Navy 2", "Navy 3"))
    s = battle_state(g, {1: [navy]}, first_fleet=1)
    assert s.is_terminal() and s.totals == [0, 75] and s.current_players() == ()


def test_options_are_checked():
    with pytest.raises(InvalidArgumentError, match="target_score"):
        game(2, target_score=0)
    with pytest.raises(InvalidArgumentError, match="max_rounds"):
        game(2, max_rounds=-1)
    with pytest.raises(InvalidArgumentError, match="prize_crew"):
        game(2, prize_crew=1)


# -- variants ----------------------------------------------------------------------------
def test_prize_crew_deck_adds_a_cook_per_suit():
    g = game(2, prize_crew=True)
    assert g.num_cards == 78
    assert sorted(x.name for x in g.cards if x.kind == 10) == [
        "Merchant Cook", "Navy Cook", "Pirate Cook", "Raider Cook"]


def test_prize_crew_launch_only_admiral_captain_cook_and_one_more():
    g = game(2, prize_crew=True)
    c = Cards(g)
    adm, cap, cook = c("Navy Admiral", "Navy Captain", "Navy Cook")
    priv = c.one("Privateer")
    hand = [adm, cap, cook, priv] + c("Pirate 1", "Pirate 2", "Merchant 3", "Merchant 4",
                                      "Raider 5", "Raider 6", "Silver", "Lady", "Spy")
    s = recruit_state(g, {0: hand})
    A = g.actions
    assert A.master + adm in legal(s)
    assert A.master + cap not in legal(s), "a Captain has no ship of its own here"
    act(s, A.master + adm)
    assert {a - A.crew for a in legal(s)} == {cap, cook, priv}
    act(s, A.crew + cap)
    assert {a - A.crew for a in legal(s)} == {cook, priv}
    act(s, A.crew + priv)
    assert {a - A.crew for a in legal(s)} == {cook}, "a Privateer cannot replace the Cook"
    act(s, A.crew + cook)
    assert g.rules.is_prize_crew(adm, s.ships[0][0][1])


def test_captain_never_crew_without_the_variant():
    g = game(2)
    c = Cards(g)
    adm, cap = c("Navy Admiral", "Navy Captain")
    hand = [adm, cap] + c("Navy 1", "Navy 2", "Navy 3") + c(*["Pirate %d" % i for i in range(1, 9)])
    s = recruit_state(g, {0: hand})
    act(s, g.actions.master + adm)
    assert g.actions.crew + cap not in legal(s)


def test_prize_crew_beats_regular_crew_loses_to_black_spot_and_fourth_cards_compare():
    g = game(2, prize_crew=True)
    c = Cards(g)
    prize = (c.one("Navy Admiral"), c("Navy Captain", "Navy Cook", "Navy 2"))
    strong = (c.one("Pirate Admiral"), c("Pirate 8", "Pirate 9", "Pirate 10"))
    r = g.rules.resolve(prize[0], prize[1], strong[0], strong[1])
    assert r.outcome == "attacker" and r.reason == "prize crew"
    spot = (c.one("Pirate Captain"), c("Black Spot", "Pirate 1", "Pirate 2"))
    r = g.rules.resolve(prize[0], prize[1], spot[0], spot[1])
    assert r.outcome == "defender" and r.reason == "black spot"
    prize2 = (c.one("Raider Admiral"), c("Raider Captain", "Raider Cook", "Raider 7"))
    r = g.rules.resolve(prize[0], prize[1], prize2[0], prize2[1])
    assert r.outcome == "defender" and r.reason == "prize crew"    # fourth cards: 2 v 7
    # equal fourth cards: both sink
    g2 = game(2, prize_crew=True)
    c = Cards(g2)
    a = (c.one("Navy Admiral"), c("Navy Captain", "Navy Cook", "Privateer"))
    d = (c.one("Pirate Admiral"), c("Pirate Captain", "Pirate Cook", "Privateer"))
    r = g2.rules.resolve(a[0], a[1], d[0], d[1])
    assert r.outcome == "sink" and r.reason == "prize crew"


def test_alternate_aargh_asks_in_a_random_order_first_claimant_wins():
    g = game(5, alternate_aargh=True)
    orders = set()
    for seed in range(8):
        s = g.new_initial_state(np.random.default_rng(seed))
        p = s.actor
        act(s, g.actions.discard + s.hands[p][0])
        order = tuple((q - p) % 5 for q in s.claim_queue)
        assert sorted(order) == [1, 2, 3, 4]
        orders.add(order)
        first = s.actor
        card = s.discard[-1]
        assert s.view((p + 1) % 5).claim_queue == s.view(p).claim_queue   # public order
        act(s, g.actions.claim)
        assert s.reserved[first] == card or card in s.hands[first]
    assert len(orders) > 1
    g = game(5)
    s = g.new_initial_state(np.random.default_rng(0))
    p = s.actor
    act(s, g.actions.discard + s.hands[p][0])
    assert [(q - p) % 5 for q in s.claim_queue] == [1, 2, 3, 4]


# -- observation and text ----------------------------------------------------------------
def test_observation_fields_by_name_and_relative_seats():
    g = game(3)
    s = g.new_initial_state(np.random.default_rng(4))
    p = s.actor
    obs = s.observation(p)
    lay = g.layout
    assert sorted(np.flatnonzero(lay.read(obs, "hand"))) == s.hands[p]
    assert lay.read(obs, "my_decision")[0] == 1
    assert lay.read(obs, "acting_seat")[0] == 1
    other = s.observation((p + 1) % 3)
    assert lay.read(other, "my_decision")[0] == 0
    assert lay.read(other, "acting_seat")[2] == 1      # the actor is 2 seats to its left
    assert np.all(lay.read(obs, "unseen")[s.hands[p]] == 0)
    assert "| `hand` |" in lay.describe()
    assert obs.shape == (lay.size,) and np.all(obs >= lay.low) and np.all(obs <= lay.high)


def test_text_from_a_seat_hides_other_hands_and_omniscient_shows_all():
    g = game(2)
    s = g.new_initial_state(np.random.default_rng(5))
    p = s.actor
    mine = s.render_text(p)
    full = s.render_text(None)
    other_card = g.cards[s.hands[1 - p][0]].name
    assert "Your hand:" in mine and "you are P%d" % p in mine
    for x in s.hands[p]:
        assert g.cards[x].name in mine
    assert other_card in full and "omniscient" in full
    # names of every action
    assert g.action_name(g.actions.claim).startswith("Aargh")
    assert "Navy Admiral" in g.action_name(g.actions.master + 0)
