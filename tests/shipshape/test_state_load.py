"""Loading saved ShipShape states: corrupted ones are refused with an
InvalidStateError that names what is wrong (sound states round-trip: the shared suite,
tests/core/test_state_loading.py)."""

from __future__ import annotations

import copy
import json

import pytest

from plunder.envs.core.errors import InvalidStateError
from plunder.envs.shipshape.engine import ShipShapeGame

from tests.support.state_load import assert_refused, refusal_test, set_field
from plunder.envs.core.testing import random_playout_states


_FOUND: dict = {}


def _state(n=3, when=lambda s: s.voyage == 1 and s.turn == 1 and max(s.stage) == 2):
    """A to_dict() (JSON form) of a random-play state matching ``when`` (found once per
    test session, a fresh copy each call)."""
    key = (n, when.__code__)
    if key not in _FOUND:
        game = ShipShapeGame(n)
        _FOUND[key] = next((game, json.loads(state.to_json())) for seed in range(40)
                           for state in random_playout_states(game, seed) if when(state))
    game, data = _FOUND[key]
    return game, copy.deepcopy(data)


# (corruption, words the error must contain)
FIELD_ERRORS = {
    "voyage 99": (set_field(("voyage",), 99), "voyage: 99 is outside"),
    "a negative turn count": (set_field(("turns",), -1), "turns: -1 is outside"),
    "turn as text": (set_field(("turn",), "1"), "turn: expected an integer"),
    "done as a number": (set_field(("done",), 0), "done: expected true or false"),
    "a fourth seat's hand": (lambda d: d["hands"].append([1, 2]), "hands: expected 3 entries"),
    "crew card 11": (set_field(("hands", 1, 0), 11), "hands[1][0]: 11 is outside"),
    "a negative discard": (lambda d: d["discards"][0].append(-3), "discards[0]"),
    "negative coins": (set_field(("coins", 2), -4), "coins[2]: -4 is outside"),
    "coins as a float": (set_field(("coins", 0), 1.5), "coins[0]: expected an integer"),
    "hold 19": (set_field(("hold_history", 0, 1), 19), "hold_history[0][1]: 19 is outside"),
    "a hold list too short": (lambda d: d["hold_history"][0].pop(),
                              "hold_history[0]: expected 3 entries"),
    "four voyages of holds": (lambda d: d["hold_history"].extend([[7, 8, 9]] * 3),
                              "hold_history: 5 entries is outside 1..3"),
    "crate 55": (set_field(("stacks", 0, 0, 0), 55), "stacks[0][0][0]: 55 is outside"),
    "orientation 8": (set_field(("stacks", 0, 0, 1), 8), "stacks[0][0][1]: 8 is outside"),
    "a stack crate without orientation": (lambda d: d["stacks"][0][0].pop(),
                                          "stacks[0][0]: expected 2 entries"),
    "a second stack with three seats": (lambda d: d["stacks"].append([]),
                                        "stacks: expected 1 entries"),
    "a hold with four crates": (lambda d: d["placed"][0].extend([[1, 0]] * 3),
                                "placed[0]: 4 entries is outside 0..3"),
    "a bidder who is no seat": (set_field(("need", 0), [0, 5]), "need[0][1]: 5 is outside"),
    "stage 3": (set_field(("stage", 0), 3), "stage[0]: 3 is outside"),
    "a bid of card 0": (set_field(("bids", 0, 4), 0), "bids[0][4]: 0 is outside"),
    "a bid in voyage 4": (set_field(("bids", 0, 0), 3), "bids[0][0]: 3 is outside"),
    "a short score row": (lambda d: d["voyage_scores"][0][0].pop(),
                          "voyage_scores[0][0]: expected 6 entries"),
    "a score row per seat missing": (lambda d: d["voyage_scores"][0].pop(),
                                     "voyage_scores[0]: expected 3 entries"),
    "another player count": (set_field(("num_players",), 4), "num_players: 4 is not one of [3]"),
}

test_corrupted_field_is_named = refusal_test(FIELD_ERRORS, _state)


def test_six_seat_fields_have_two_groups():
    """Five players and the Cap'n: two stacks, two bidding groups, six seats."""
    game, data = _state(5, when=lambda s: s.voyage == 0 and s.turn == 1)
    game.state_from_dict(copy.deepcopy(data))
    for key, words in (("stacks", "stacks: expected 2 entries"),
                       ("need", "need: expected 2 entries"),
                       ("placing", "placing: expected 2 entries")):
        bad = copy.deepcopy(data)
        bad[key] = bad[key][:1]
        with pytest.raises(InvalidStateError, match=words):
            game.state_from_dict(bad)
    bad = copy.deepcopy(data)
    bad["coins"] = bad["coins"][:5]
    with pytest.raises(InvalidStateError, match=r"coins: expected 6 entries"):
        game.state_from_dict(bad)
    with pytest.raises(InvalidStateError, match="num_players: 5 is not one of"):
        ShipShapeGame(6).state_from_dict(data)


def _card_created(d):
    d["discards"][0].append(d["hands"][0][0])


def _card_lost(d):
    hand = d["hands"][1]
    card = hand.pop()
    if len(hand) < 2:
        hand.append(card)
        d["discards"][1].pop()


def _crate_in_two_places(d):
    d["placed"][0][-1] = list(d["stacks"][0][0])


def _crate_lost(d):
    d["stacks"][0].pop()


def _crate_both_drawn_and_unused(d):
    d["unused"][0] = d["stacks"][0][0][0]


def _coins_created(d):
    d["coins"][0] += 5


def _hold_of_the_wrong_voyage(d):
    d["hold_history"][1][0] = 1 if 1 not in d["hold_history"][1] else 2


def _hold_dealt_twice(d):
    d["hold_history"][0][1] = d["hold_history"][0][0]


def _score_that_does_not_add_up(d):
    d["voyage_scores"][0][0][5] += 1
    d["coins"][0] += 1


def _untied_seats_re_bid(d):
    """A re-bid pending: the first bids of this turn are made all different (so nobody
    tied, yet seats are asked to re-bid)."""
    now = [b for b in d["bids"] if b[:2] == [d["voyage"], d["turn"]] and b[2] == 1]
    for i, b in enumerate(now):
        b[4] = 10 - i


def _bids_out_of_order(d):
    d["bids"].reverse()


def _turns_miscounted(d):
    d["turns"] += 1


def _seat_with_one_card(d):
    hand = d["hands"][0]
    d["discards"][0].extend(hand[1:])
    del hand[1:]


RULE_ERRORS = {
    "a crew card created": (_card_created, "crew cards were created or lost"),
    "a crew card lost": (_card_lost, "crew cards were created or lost"),
    "a crate in two places": (_crate_in_two_places, "a crate is in two places"),
    "a crate lost": (_crate_lost, "a crate of this voyage was created or lost"),
    "a crate drawn and unused": (_crate_both_drawn_and_unused, "a crate both drawn and unused"),
    "coins created": (_coins_created, "coins: not the voyages' scores"),
    "a hold of another voyage": (_hold_of_the_wrong_voyage, "outside the voyage 2 set"),
    "a hold dealt twice": (_hold_dealt_twice, "a hold dealt twice"),
    "a score row that does not add up": (_score_that_does_not_add_up, "does not add up"),
    "a re-bid without a tie": (_untied_seats_re_bid, "need: not the seats tied"),
    "bids out of order": (_bids_out_of_order, "bids: not in the order"),
    "turns miscounted": (_turns_miscounted, "turns: not the turns played"),
    "a hand of one card": (_seat_with_one_card, "holds fewer than 2 cards"),
}


def _re_bid_pending(s):
    return s.stage[0] == 2 and bool(s.need[0]) and not s.placing[0]


@pytest.mark.parametrize("name", sorted(RULE_ERRORS))
def test_broken_rule_is_refused(name):
    corrupt, words = RULE_ERRORS[name]
    game, data = _state(when=_re_bid_pending) if corrupt is _untied_seats_re_bid \
        else _state()
    assert_refused(game, data, corrupt, words, rule=True)



@pytest.mark.parametrize("change", ["twice", "reversed"])
def test_bidders_are_listed_once_each_in_seat_order(change):
    # a seat listed twice bid twice and crashed the compiled encoder
    game, data = _state(when=_re_bid_pending)
    data = json.loads(json.dumps(data))

    def corrupt(d):
        need = d["need"][0]           # the seats tied in the first bids: two or more
        d["need"][0] = [need[0], need[0]] if change == "twice" else need[::-1]

    assert_refused(game, data, corrupt, "each once, in seat order", rule=True)
