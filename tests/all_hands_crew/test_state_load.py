"""Loading saved All Hands on Deck (crew) states: corrupted ones are refused with an
InvalidStateError that names what is wrong (sound states round-trip: the shared suite,
tests/core/test_state_loading.py)."""

from __future__ import annotations

import copy

import pytest

from plunder.envs.all_hands_crew_v0 import Game
from plunder.envs.core.errors import InvalidStateError

from tests.support.state_load import assert_refused, refusal_test, set_field
from plunder.envs.core.testing import random_playout_states
from .helpers import COOK, crew


_FOUND: dict = {}


def _state(phase="lay", n=3):
    """A to_dict() of a random-play state in ``phase`` (found once per test session, a
    fresh copy each call)."""
    if (phase, n) not in _FOUND:
        game = Game(n)
        _FOUND[phase, n] = next((game, state.to_dict()) for seed in range(20)
                                for state in random_playout_states(game, seed)
                                if state.phase == phase and state.round > 1)
    game, data = _FOUND[phase, n]
    return game, copy.deepcopy(data)


# (corruption, words the error must contain); the state: 3 players laying out
FIELD_ERRORS = {
    "a fourth pile": (lambda d: d["piles"].append([]), "piles: expected 3 entries"),
    "a card of kind 9": (set_field(("piles", 0, 0), 9), "piles[0][0]: 9 is outside"),
    "a knower mask of a fourth seat": (set_field(("pile_known", 0, 0), 8),
                                       "pile_known[0][0]: 8 is outside"),
    "a negative out-of-game count": (set_field(("out", 0), -1), "out[0]: -1 is outside"),
    "a crew of eight kinds": (lambda d: d["crew"][1].pop(), "crew[1]: expected 9 entries"),
    "crew knowledge of a fourth seat": (lambda d: d["crew_known"][0].append([0] * 9),
                                        "crew_known[0]: expected 3 entries"),
    "a negative doubt": (set_field(("crew_maybe_gone", 1, 2), -1),
                         "crew_maybe_gone[1][2]: -1 is outside"),
    "combination 91": (lambda d: d["laid"][0].append(91), "is outside 0..90"),
    "999 curses": (set_field(("curses", 0), 999), "curses[0]: 999 is outside"),
    "round 0": (set_field(("round",), 0), "round: 0 is outside"),
    "phase 99": (set_field(("phase",), 99), "phase: 99 is not one of"),
    "an actor who is no seat": (set_field(("actor",), 3), "actor: 3 is outside"),
    "keeping no stock card": (set_field(("keep", 0), 0), "keep[0]: 0 is outside"),
    "hire_done as 0": (set_field(("hire_done", 0), 0), "hire_done[0]: expected true or false"),
    "an unknown pending action": (set_field(("pending",), "plunder"), "pending: 'plunder'"),
    "Short rations twice": (set_field(("next_short", 0), 2), "next_short[0]: 2 is outside"),
    "an unknown event": (lambda d: d["events"].append([0, "dance", 0, -1, 0]),
                         "(what): 'dance' is not one of"),
    "an event of four entries": (lambda d: d["events"].append([0, "lay", 0, -1]),
                                 "expected 5 entries"),
    "a Snatch of no card": (lambda d: d["events"].append([0, "snatch", 1, -1, 3]),
                            "(kind): -1 is outside"),
    "turns as a bool": (set_field(("turns",), True), "turns: expected an integer"),
}

test_corrupted_field_is_named = refusal_test(FIELD_ERRORS, _state)


def _card_created(d):
    k = d["out"].index(min(d["out"]))
    d["out"][k] += 1


def _card_lost(d):
    pile = next(p for p, cards in enumerate(d["piles"]) if cards)
    d["piles"][pile].pop()
    d["pile_known"][pile].pop()


def _known_card_not_there(d):
    k = next(k for k in range(9) if d["crew"][1][k] < 5)
    d["crew_known"][1][0][k] = d["crew"][1][k] + 1


def _more_doubt_than_knowledge(d):
    d["crew_known"][1][0] = [0] * 9
    d["crew_maybe_gone"][1][0] = 1


def _snatch_seen_by_all(d):
    d["events"].append([0, "snatch", 1, COOK, 7])


RULE_ERRORS = {
    "a card created": (_card_created, "a card was created or lost"),
    "a card lost": (_card_lost, "a card was created or lost"),
    "another player's pile card known": (set_field(("pile_known", 1, 0), 1),
                                         "impossible pile knowledge mask"),
    "a curse without a Bosun pair": (set_field(("curses", 0), 1), "curses: more curses"),
    "a Double hire without a Cook pair": (set_field(("next_double", 0), 1), "keep/next_double"),
    "a Spyglass without a Lookout pair": (set_field(("next_spy", 2), 1), "spy_left/next_spy"),
    "Short rations without a Carpenter pair": (set_field(("next_short", 1), 1), "next_short"),
    "a stock of two": (set_field(("draw_target", 0), 2), "draw_target"),
    "one's own crew tracked": (set_field(("crew_known", 0, 0), crew(cook=1)), "own crew tracked"),
    "a known card that is not there": (_known_card_not_there, "known card not there"),
    "doubt about no known card": (_more_doubt_than_knowledge, "more known cards may be gone"),
    "a Snatch seen by everyone": (_snatch_seen_by_all, "a Snatch not known to exactly"),
    "a target phase without its action": (set_field(("phase",), "target"), "pending"),
    "hiring bookkeeping while laying out": (set_field(("hire_step",), 1), "hire_step"),
}


test_broken_rule_is_refused = refusal_test(RULE_ERRORS, _state, rule=True)


def test_other_player_count_is_named():
    game, data = _state()
    with pytest.raises(InvalidStateError, match="piles: expected 4 entries"):
        Game(4).state_from_dict(data)


def test_the_draw_goes_round_the_table_one_card_a_turn():
    game = Game(3)
    state = next(s for seed in range(20) for s in random_playout_states(game, seed)
                 if s.phase == "draw" and any(s.stock))
    data = state.to_dict()

    def skip_a_seat(d):
        d["actor"] = (d["actor"] + 1) % 3

    assert_refused(game, data, skip_a_seat, "one card a turn", rule=True)


def test_rounds_are_bounded_by_the_cards():
    game, data = _state()
    most = sum(game.copies) // 3 + 1
    assert_refused(game, data, set_field(("round",), most + 1), f"is outside 1..{most}")
