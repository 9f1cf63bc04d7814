"""One scenario per rule of the ShipShape rulebook and its completion."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from plunder.envs import shipshape_v0
from plunder.envs.core import IllegalActionError
from plunder.envs.shipshape.components import VOYAGE_HOLDS
from plunder.envs.shipshape.engine import GROUP_SCHEDULE, ShipShapeGame
from plunder.envs.shipshape.geometry import COMPOSE, orient, score_voyage, totals

from .helpers import (bid, bids, components, new_state, place, place_all, random_joint,
                      set_hand, set_holds, set_stack, tile)

ASYM = "G1 G2 G3 / C1 . . / . . R"     # no symmetry: all 8 orientations differ


# -- setup -------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_setup_stack_holds_and_crew(n):
    """3 crates per seat (two stacks of 9 with six seats), voyage-1 holds, cards 1-10."""
    game, s = new_state(n, seed=n)
    seats = game.num_seats
    assert seats == (n + 1 if n in (2, 5) else n)
    if seats == 6:
        assert [len(st) for st in s.stacks] == [9, 9]
    else:
        assert [len(st) for st in s.stacks] == [3 * seats]
    drawn = [c for st in s.stacks for c, _ in st]
    assert len(set(drawn)) == len(drawn) == 3 * seats
    assert set(drawn).isdisjoint(s.unused) and len(s.unused) == 54 - 3 * seats
    holds = s.hold_history[-1]
    assert len(set(holds)) == seats and set(holds) <= set(VOYAGE_HOLDS[0])
    for seat in range(seats):
        assert sorted(s.hands[seat]) == list(range(1, 11)) and s.discards[seat] == ()
        assert s.visible[seat] == game.components.hold(holds[seat])
    assert s.coins == (0,) * seats


def test_setup_crates_come_in_random_orientations():
    seen = set()
    for seed in range(20):
        _, s = new_state(4, seed=seed)
        seen |= {o for c, o in s.stacks[0]}
    assert seen == set(range(8))


@pytest.mark.parametrize("n", [2, 5])
def test_capn_is_an_extra_env_driven_seat(n):
    game, s = new_state(n)
    assert game.capn == n and game.num_seats == n + 1
    assert n not in s.current_players()
    assert s.current_players() == tuple(range(n))
    assert not s.legal_actions_mask(n).any()
    env = shipshape_v0.env(num_players=n)
    assert env.possible_agents == [f"player_{i}" for i in range(n)]


def test_six_seat_group_schedule_never_repeats_a_group():
    groups = [frozenset(g) for voyage in GROUP_SCHEDULE for g in voyage]
    assert len(set(groups)) == 6
    for voyage in GROUP_SCHEDULE:
        assert sorted(itertools.chain(*voyage)) == list(range(6))
        assert all(len(g) == 3 for g in voyage)
    for n in (5, 6):
        game = ShipShapeGame(n)
        assert game.six_seat and game.groups(1) == GROUP_SCHEDULE[1]
    for n in (2, 3, 4):
        assert ShipShapeGame(n).groups(0) == (tuple(range(ShipShapeGame(n).num_seats)),)


# -- bidding -----------------------------------------------------------------------------

def test_highest_card_takes_the_top_crate():
    _, s = new_state(3)
    top = s.stacks[0][:3]
    bids(s, {0: 7, 1: 3, 2: 5})
    placing = {x[0]: tuple(x[1:]) for x in s.placing[0]}
    assert placing == {0: top[0], 2: top[1], 1: top[2]}
    assert s.current_players() == (0, 1, 2)
    assert len(s.stacks[0]) == 6                          # three crates left the stack
    for seat, card in ((0, 7), (1, 3), (2, 5)):
        assert card not in s.hands[seat] and s.discards[seat] == (card,)
    assert s.bids[-3:] == ((0, 0, 1, 0, 7), (0, 0, 1, 1, 3), (0, 0, 1, 2, 5))


def test_matching_cards_are_discarded_and_rebid_after_the_others_place():
    _, s = new_state(3)
    top = s.stacks[0][:3]
    bids(s, {0: 5, 1: 5, 2: 7})
    # the non-tied seat takes the top crate and places it first
    assert [x[0] for x in s.placing[0]] == [2] and s.placing[0][0][1:] == top[0]
    assert s.need[0] == (0, 1) and s.current_players() == (2,)
    assert s.discards[0] == (5,) and s.discards[1] == (5,)
    place_all(s)
    assert s.current_players() == (0, 1) and s.stage[0] == 2
    assert s.decision(0) == "bid"
    assert not s.legal_actions_mask(0)[bid(5)]          # the tied card is gone
    bids(s, {0: 2, 1: 9})
    assert {x[0]: tuple(x[1:]) for x in s.placing[0]} == {1: top[1], 0: top[2]}
    assert s.bids[-2:] == ((0, 0, 2, 0, 2), (0, 0, 2, 1, 9))


def test_tied_twice_take_crates_by_hold_number_high_to_low():
    _, s = new_state(4)
    set_holds(s, [2, 6, 1, 4])
    top = s.stacks[0][:4]
    bids(s, {0: 5, 1: 5, 2: 5, 3: 8})
    place_all(s)
    bids(s, {0: 3, 1: 3, 2: 7})      # seat 2 wins the re-bid; 0 and 1 tie twice
    got = {x[0]: tuple(x[1:]) for x in s.placing[0]}
    assert got == {2: top[1], 1: top[2], 0: top[3]}   # hold 6 before hold 2
    assert s.need[0] == ()


def test_all_ties_rebid_together():
    """Two separate ties (5,5 and 7,7) re-bid as one set of tied players."""
    _, s = new_state(4)
    top = s.stacks[0][:4]
    bids(s, {0: 5, 1: 7, 2: 5, 3: 7})
    assert s.placing[0] == () and s.need[0] == (0, 1, 2, 3)
    assert s.current_players() == (0, 1, 2, 3)
    bids(s, {0: 1, 1: 2, 2: 3, 3: 4})
    got = {x[0]: tuple(x[1:]) for x in s.placing[0]}
    assert got == {3: top[0], 2: top[1], 1: top[2], 0: top[3]}


def test_down_to_one_card_takes_the_discards_back():
    _, s = new_state(3)
    set_hand(s, 0, [4, 9])
    bids(s, {0: 9, 1: 1, 2: 2})
    assert s.hands[0] == tuple(range(1, 11)) and s.discards[0] == ()
    assert s.hands[1] == tuple(range(2, 11)) and s.discards[1] == (1,)


def test_tied_player_refills_before_rebidding():
    _, s = new_state(3)
    set_hand(s, 0, [4, 6])
    set_hand(s, 1, [4, 8, 10])
    bids(s, {0: 4, 1: 4, 2: 10})
    assert s.hands[0] == tuple(range(1, 11))      # down to one card: all back
    assert s.hands[1] == (8, 10)
    place_all(s)
    assert s.legal_actions_mask(0)[bid(4)] and not s.legal_actions_mask(1)[bid(4)]


def test_full_bidding_turn_gives_every_seat_one_crate():
    _, s = new_state(4)
    bids(s, {0: 1, 1: 2, 2: 3, 3: 4})
    place_all(s)
    assert s.turn == 1 and s.turns == 1 and all(len(p) == 1 for p in s.placed)
    assert s.need[0] == (0, 1, 2, 3) and s.stage[0] == 1


def test_illegal_bid_and_placement_raise():
    _, s = new_state(3)
    set_hand(s, 0, [1, 2, 3])
    with pytest.raises(IllegalActionError, match="bid 4"):
        s.apply_joint({0: bid(4), 1: bid(1), 2: bid(2)})
    with pytest.raises(IllegalActionError, match="place"):
        s.apply_joint({0: place(0), 1: bid(1), 2: bid(2)})


# -- placing and stacking ----------------------------------------------------------------

def test_eight_orientations_are_the_symmetries_of_the_square():
    cells = tile(ASYM)
    grids = {orient(cells, k) for k in range(8)}
    assert len(grids) == 8
    # a quarter turn clockwise puts the left column on top, bottom row first
    assert orient(cells, 1) == tile(". C1 G1 / . . G2 / R . G3")
    # a mirror (flip) reverses every row
    assert orient(cells, 4) == tile("G3 G2 G1 / . . C1 / R . .")
    for s_, a in itertools.product(range(8), range(8)):
        assert orient(cells, COMPOSE[s_][a]) == orient(orient(cells, s_), a)


def test_placement_orients_the_crate_as_it_lay_in_the_stack():
    comp = components(crates={1: ASYM})
    for k in range(8):
        game, s = new_state(3, comp=comp)
        set_holds(s, [1, 2, 3])
        set_stack(s, [(1, 3)])
        bids(s, {0: 10, 1: 1, 2: 2})
        s.apply_joint({0: place(k), 1: place(0), 2: place(0)})
        shown = orient(orient(tile(ASYM), 3), k)
        expected = tuple(c if c else h for c, h in zip(shown, comp.hold(1)))
        assert s.visible[0] == expected


def test_holes_show_lower_crates_and_then_the_printed_hold():
    comp = components(crates={1: "G1 G1 G1 / G1 G1 G1 / . . .",
                              2: "C2 C2 C2 / . . . / . . .",
                              3: ". . . / . . . / X3 . ."},
                      holds={7: "G2 . . / . C2 . / X1 . R"})
    game, s = new_state(3, comp=comp)
    set_holds(s, [7, 1, 2])
    s.placed = ((),) * 3
    for crate in (1, 2, 3):
        s._place(0, crate, 0)
    assert s.visible[0] == tile("C2 C2 C2 / G1 G1 G1 / X3 . R")
    assert s.compute_visible(0) == s.visible[0]
    assert totals(s.visible[0]) == (3, 6, 3, 1, False)


def test_crates_stay_where_they_were_placed():
    _, s = new_state(3)
    bids(s, {0: 10, 1: 1, 2: 2})
    place_all(s, 5)
    first = s.placed[0][0]
    bids(s, {0: 9, 1: 3, 2: 4})
    place_all(s, 2)
    assert s.placed[0][0] == first and len(s.placed[0]) == 2


def test_capn_places_exactly_as_the_crate_lay():
    comp = components(crates={1: ASYM})
    game, s = new_state(2, comp=comp)
    set_stack(s, [(1, 6)])
    set_hand(s, 2, [10, 1, 2, 3, 4, 5, 6, 7, 8, 9])      # his top card is the 10
    bids(s, {0: 3, 1: 4})
    assert s.placed[2] == ((1, 6),)
    assert s.current_players() == (0, 1)               # only the agents place


def test_capn_bids_the_top_of_his_deck_and_reshuffles_when_it_runs_out():
    game, s = new_state(2, seed=3)
    deck = (7, 2, 9)
    s.hands = s.hands[:2] + (deck,)
    s.discards = s.discards[:2] + (tuple(c for c in range(1, 11) if c not in deck),)
    played = []
    for turn in range(4):
        bids(s, {0: turn + 1 if turn < 3 else 5, 1: 10 - turn})
        played.append(s.bids[-1][4])
        assert s.bids[-1][3] == 2
        while s.current_players() and s.decision(0) != "bid":
            place_all(s)
    assert played[:3] == [7, 2, 9]
    assert sorted(s.hands[2] + s.discards[2]) == list(range(1, 11))
    assert len(s.hands[2]) == 9 and s.discards[2] == (played[3],)


# -- scoring -----------------------------------------------------------------------------

def test_gold_minus_visible_rats():
    [r] = score_voyage([tile("G3 G2 R / R . . / . . .")])[:1]
    assert r["gold"] == 3 and r["coins"] == 3


def test_cannons_score_above_the_lowest_at_the_table():
    """The rulebook's example: 13, 12 and 3 cannons score 10, 9 and 0."""
    a = tile("C3 C3 C3 / C3 C1 . / . . .")
    b = tile("C3 C3 C3 / C3 . . / . . .")
    c = tile("C3 . . / . . . / . . .")
    result = score_voyage([a, b, c])
    assert [r["cannons"] for r in result] == [10, 9, 0]


def test_contraband_of_the_highest_is_seized_ties_all_seized():
    a, b, c = tile("X3 X3 . / . . . / . . ."), tile("X2 . . / . . . / . . ."), \
        tile("X1 . . / . . . / . . .")
    assert [r["contraband"] for r in score_voyage([a, b, c])] == [0, 2, 1]
    assert [r["contraband"] for r in score_voyage([a, a, c])] == [0, 0, 1]
    empty = tile(". . . / . . . / . . .")
    assert [r["contraband"] for r in score_voyage([empty, empty])] == [0, 0]


def test_full_ship_bonus_counts_printed_goods_but_not_rats_or_blanks():
    full = tile("G1 G1 G1 / C1 C1 C1 / X1 X1 X1")
    rat = tile("G1 G1 G1 / C1 C1 C1 / X1 X1 R")
    blank = tile("G1 G1 G1 / C1 C1 C1 / X1 X1 .")
    r = score_voyage([full, rat, blank])
    assert [x["full_ship"] for x in r] == [8, 0, 0]
    comp = components(crates={1: "G1 G1 G1 / C1 C1 C1 / . . ."},
                      holds={13: "R . . / . . . / X2 X2 X2"})
    game, s = new_state(3, comp=comp)
    set_holds(s, [13, 1, 2])
    s._place(0, 1, 0)
    assert totals(s.visible[0])[4]                   # printed goods fill the bottom row


def test_a_voyage_never_loses_coins():
    ratty = tile("R R R / R . . / G1 . .")
    r = score_voyage([ratty, tile("C1 . . / . . . / . . .")])
    assert r[0]["raw"] == -3 and r[0]["coins"] == 0


def _final_views(s, rng):
    """Play the current voyage out at random; the top-down views it was scored on."""
    captured = []
    end_turn = s._end_turn

    def spy():
        if s.turn == 2:
            captured.append(s.visible)
        end_turn()
    s._end_turn = spy
    voyage = s.voyage
    while s.voyage == voyage and not s.is_terminal():
        s.apply_joint(random_joint(s, rng))
    del s.__dict__["_end_turn"]
    return captured[0]


def test_voyage_end_scores_all_seats_and_adds_coins():
    game, s = new_state(4, seed=1)
    rng = np.random.default_rng(0)
    before = _final_views(s, rng)
    assert all(len(p) == 0 for p in s.placed)          # a new voyage started
    expected = score_voyage(before)
    assert s.coins == tuple(r["coins"] for r in expected)
    assert s.voyage_score_dicts()[0] == expected


def test_six_seats_score_against_the_whole_table():
    """Cannons are relative to the lowest of all six seats, contraband to the highest."""
    game, s = new_state(6, seed=2)
    rng = np.random.default_rng(1)
    before = _final_views(s, rng)
    low = min(totals(v)[1] for v in before)
    for seat, v in enumerate(before):
        assert s.voyage_score_dicts()[0][seat]["cannons"] == totals(v)[1] - low


# -- six seats ---------------------------------------------------------------------------

def test_groups_bid_separately_from_their_own_stacks():
    game, s = new_state(6)
    top_a, top_b = s.stacks[0][0], s.stacks[1][0]
    # the same card in different groups is no tie
    bids(s, {0: 9, 1: 2, 2: 3, 3: 9, 4: 4, 5: 5})
    got = {x[0]: tuple(x[1:]) for k in range(2) for x in s.placing[k]}
    assert got[0] == top_a and got[3] == top_b
    assert len(s.stacks[0]) == len(s.stacks[1]) == 6


def test_five_players_use_the_capn_and_the_groups():
    game, s = new_state(5)
    assert game.capn == 5 and game.six_seat
    assert s.current_players() == (0, 1, 2, 3, 4)
    bids(s, {0: 1, 1: 2, 2: 3, 3: 9, 4: 8})
    assert len(s.placed[5]) == 1                      # the Cap'n (group B) placed already


def test_groups_change_every_voyage():
    game, s = new_state(6, seed=4)
    rng = np.random.default_rng(2)
    seen = []
    while not s.is_terminal():
        if s.voyage not in [v for v, _ in seen]:
            seen.append((s.voyage, s.need))
        s.apply_joint(random_joint(s, rng))
    assert [need for _, need in seen] == [g for g in GROUP_SCHEDULE]


# -- next voyage and the end -------------------------------------------------------------

def test_hold_assignment_by_coins_with_the_tie_rule():
    game, s = new_state(4, seed=5)
    set_holds(s, [3, 5, 1, 6])
    s.coins = (10, 20, 10, 5)
    s.voyage = 1
    s.rng = np.random.default_rng(0)
    s._assign_holds()
    new = s.hold_history[-1]
    assert set(new) <= set(VOYAGE_HOLDS[1])
    # most coins (seat 1) highest; seats 0 and 2 tie on 10: seat 2 had hold 1 < 3
    order = sorted(range(4), key=lambda x: -new[x])
    assert order == [1, 2, 0, 3]


def test_used_crates_leave_the_game_and_three_voyages_end_it():
    game, s = new_state(6, seed=6)
    rng = np.random.default_rng(3)
    used = []
    end_turn = s._end_turn

    def spy():
        if s.turn == 2:
            used.extend(c for p in s.placed for c, _ in p)
        end_turn()
    s._end_turn = spy
    while not s.is_terminal():
        s.apply_joint(random_joint(s, rng))
    assert s.turns == 9 and s.voyage == 2 and len(s.voyage_scores) == 3
    assert s.current_players() == ()
    assert len(used) == len(set(used)) == 54 and s.unused == ()
    holds = s.hold_history
    assert [set(h) for h in holds] == [set(VOYAGE_HOLDS[v]) for v in range(3)]


def test_final_tie_goes_to_the_highest_voyage3_hold():
    game, s = new_state(3, seed=7)
    rng = np.random.default_rng(4)
    while not s.is_terminal():
        s.apply_joint(random_joint(s, rng))
    s.coins = (40, 40, 12)
    h = s.hold_history[-1]
    keys = s.rank_keys()
    assert keys[0] > keys[1] if h[0] > h[1] else keys[1] > keys[0]
    # coins that are not the voyages' scores: no legal position, so the Python env plays it
    # (the compiled engine loads legal positions only)
    env = shipshape_v0.raw_env(num_players=3, compiled=False)
    env.reset(seed=0)
    env.game_state = s
    rewards, extra = env._outcome()
    winner = 0 if h[0] > h[1] else 1
    assert extra["winner_mask"] == [i == winner for i in range(3)]
    assert rewards[winner] == 1.0 and rewards[2] == -1.0


def test_capn_scores_and_can_win():
    game, s = new_state(2, seed=8)
    rng = np.random.default_rng(5)
    while not s.is_terminal():
        s.apply_joint(random_joint(s, rng))
    s.coins = (10, 20, 99)
    assert s.scores() == [10.0, 20.0]
    env = shipshape_v0.raw_env(num_players=2, compiled=False)     # coins set: as above
    env.reset(seed=0)
    env.game_state = s
    rewards, extra = env._outcome()
    assert extra["winner_mask"] == [False, False, True]
    assert rewards == [-1.0, 0.0]         # beaten by both / beats one, beaten by one


def _rule_decision(state, seat: int) -> str:
    """What ``seat`` must decide, from the rules: nothing after the game or for the Cap'n;
    "place" with a crate of its group to place; "bid" while its group still bids."""
    game = state.game
    if state.done or seat == game.capn:
        return ""
    k = game.group_index[min(state.voyage, 2)][seat]
    if state.placing[k]:
        return "place" if any(x[0] == seat for x in state.placing[k]) else ""
    return "bid" if seat in state.need[k] else ""


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_every_seats_decision_at_once_is_each_seats(n):
    """``decision`` answers from every seat's decisions computed at once (cached until a
    field changes): each seat's by the rules, at every step, also after a field is edited."""
    game = ShipShapeGame(n)
    rng = np.random.default_rng(n)
    for seed in range(5):
        state = game.new_initial_state(np.random.default_rng(seed))
        while True:
            each = tuple(_rule_decision(state, s) for s in range(game.num_seats))
            assert tuple(state.decision(s) for s in range(game.num_seats)) == each
            assert state.current_players() == tuple(s for s in range(game.num_seats)
                                                     if each[s])
            if state.is_terminal():
                break
            state.apply_joint({p: int(rng.choice(np.flatnonzero(state.legal_actions_mask(p))))
                               for p in state.current_players()})
        state.done = False                      # an edited field clears the cache
        assert state.decision(0) == _rule_decision(state, 0)
