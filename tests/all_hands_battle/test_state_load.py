"""Loading saved All Hands On Deck (battle) states: corrupted ones are refused with an
InvalidStateError that names what is wrong (sound states round-trip: the shared suite,
tests/core/test_state_loading.py)."""

from __future__ import annotations

import copy

import pytest

from plunder.envs.all_hands_battle.components import SPY
from plunder.envs.all_hands_battle_v0 import Game
from plunder.envs.core.errors import InvalidStateError

from tests.support.state_load import assert_refused, refusal_test, set_field
from plunder.envs.core.testing import random_playout_states


_FOUND: dict = {}


def _state(decision="turn", n=3, need=lambda s: True):
    """A to_dict() of a random-play state at ``decision`` for which ``need(state)``
    (found once per test session, a fresh copy each call)."""
    key = (decision, n, need)
    if key not in _FOUND:
        game = Game(n)
        _FOUND[key] = next((game, state.to_dict()) for seed in range(30)
                           for state in random_playout_states(game, seed)
                           if state.decision == decision and need(state))
    game, data = _FOUND[key]
    return game, copy.deepcopy(data)


def _has_ship(state):
    return any(state.ships)


# (corruption, words the error must contain); the state is a recruiting turn with a ship
FIELD_ERRORS = {
    "totals of a fourth seat": (lambda d: d["totals"].append(0), "totals: expected 3 entries"),
    "a negative total": (set_field(("totals", 0), -5), "totals[0]: -5 is outside"),
    "phase 99": (set_field(("phase",), 99), "phase: 99 is not one of"),
    "an unknown decision": (set_field(("decision",), "dance"), "decision: 'dance' is not one of"),
    "an actor who is no seat": (set_field(("actor",), 3), "actor: 3 is outside"),
    "round 0": (set_field(("round",), 0), "round: 0 is outside"),
    "a seat's hand missing": (lambda d: d["hands"].pop(), "hands: expected 3 entries"),
    "a hand as text": (set_field(("hands", 0), "x"), "hands[0]: expected a list"),
    "a card id out of the deck": (set_field(("deck", 0), 999), "deck[0]: 999 is outside"),
    "a reserved card -2": (set_field(("reserved", 1), -2), "reserved[1]: -2 is outside"),
    "a ship of four parts": (lambda d: next(f for f in d["ships"] if f)[0].pop(),
                             "expected 5 entries"),
    "a ship kept by no seat": (lambda d: next(f for f in d["ships"] if f)[0].__setitem__(3, 7),
                               "(keeper): 7 is outside"),
    "a ship in play as 1": (lambda d: next(f for f in d["ships"] if f)[0].__setitem__(2, 1),
                            "(in play): expected true or false"),
    "launched as 0": (set_field(("launched",), 0), "launched: expected true or false"),
    "passed as 0": (set_field(("passed", 0), 0), "passed[0]: expected true or false"),
    "an event that is no text": (lambda d: d["events"].append(5), "expected text"),
    "a Spy look of two parts": (set_field(("spied",), [[0, 1]]), "spied[0]: expected 3 entries"),
    "a selected ship 9": (set_field(("selected",), 9), "selected: 9 is outside"),
    "negative turns": (set_field(("turns",), -1), "turns: -1 is outside"),
}

test_corrupted_field_is_named = refusal_test(FIELD_ERRORS, lambda: _state("turn", need=_has_ship))


def _card_duplicated(d):
    d["deck"].append(d["hands"][0][0])


def _card_moved_between_hands(d):
    card = d["hands"][0].pop()
    d["hands"][1] = sorted(d["hands"][1] + [card])


def _hand_unsorted(d):
    d["hands"][1].reverse()


def _target_reached(d):
    d["totals"][0] = 500


def _too_many_spy_looks(d):
    game = Game(3)
    ship = d["ships"][d["actor"]][d["selected"]]
    d["spies_used"] = sum(1 for c in ship[1] if game.rules.kind[c] == SPY) + 1


RULE_ERRORS = {
    "a card in two places": ("turn", _card_duplicated, "a card was created, lost"),
    "a card moved to another hand": ("turn", _card_moved_between_hands,
                                     "holds other than its deal"),
    "a hand out of order": ("turn", _hand_unsorted, "hands are kept sorted"),
    "claims asked during a turn": ("turn", set_field(("claim_queue",), [1]), "claim_queue"),
    "the target score reached, game running": ("turn", _target_reached, "totals"),
    "a forced attack while recruiting": ("turn", set_field(("forced",), True), "forced"),
    "a launch already made at a turn's start": ("turn", set_field(("launched",), True),
                                                "launched"),
    "last turns without a first fleet": ("turn", set_field(("last_turns",), [1]), "last_turns"),
    "a ship selected outside aiming": ("turn", set_field(("selected",), 0), "selected"),
    "nobody's turn in a running game": ("turn", set_field(("turn_player",), -1),
                                        "not the turn player"),
    "a discarding player asked to claim": ("claim", lambda d: d.__setitem__(
        "claim_queue", d["claim_queue"][:1] + [d["turn_player"]]), "claim_queue"),
    "more Spy looks than Spies": ("aim", _too_many_spy_looks, "spies_used"),
    "aiming with no ship selected": ("aim", set_field(("selected",), -1), "selected"),
    "a battle turn with recruiting decision": ("select", set_field(("decision",), "turn"),
                                               "decision does not fit the phase"),
}


test_broken_rule_is_refused = refusal_test(
    RULE_ERRORS, lambda decision: _state(decision, need=_has_ship), rule=True)


def test_other_player_count_is_named():
    game, data = _state("turn")
    with pytest.raises(InvalidStateError, match="totals: expected 4 entries"):
        Game(4).state_from_dict(data)


def test_the_turn_player_holds_no_reserved_card():
    # a seat picks its reserved card up as its turn starts: one left with it is never
    # picked up, and the rules break once the round ends
    from plunder.envs.all_hands_battle.engine import RECRUIT

    game = Game(3)
    state = next(s for seed in range(30) for s in random_playout_states(game, seed)
                 if s.phase == RECRUIT and s.decision == "turn" and s.discard
                 and s.first_fleet < 0)
    data = state.to_dict()

    def reserve(d):
        d["reserved"][d["turn_player"]] = d["discard"].pop()

    assert_refused(game, data, reserve, "not picked up at the start of its seat's turn",
                   rule=True)
