"""Loading saved Scallywags states: corrupted ones are refused with an
InvalidStateError that names what is wrong (sound states round-trip: the shared suite,
tests/core/test_state_loading.py)."""

from __future__ import annotations

import copy

import pytest

from plunder.envs.core.errors import InvalidStateError
from plunder.envs.scallywags.components import HANDS_OFF
from plunder.envs.scallywags.engine import ScallywagsGame

from tests.support.state_load import assert_refused, refusal_test, set_field
from plunder.envs.core.testing import random_playout_states


_FOUND: dict = {}


def _state_in(phase, n=3):
    """A to_dict() of a random-play state in ``phase`` (found once per test session, a
    fresh copy each call)."""
    if (phase, n) not in _FOUND:
        game = ScallywagsGame(n)
        _FOUND[phase, n] = next((game, state.to_dict()) for seed in range(20)
                                for state in random_playout_states(game, seed)
                                if state.phase == phase)
    game, data = _FOUND[phase, n]
    return game, copy.deepcopy(data)


def _set(path, value):
    """set_field, where "actor" stands for the state's actor."""
    return set_field(path, (lambda d: d["actor"]) if value == "actor" else value)


def _append(key, value):
    def corrupt(data):
        data[key].append(value)
    return corrupt


# (corruption, words the error must contain)
FIELD_ERRORS = {
    "coin worth 999": (_set(("values", 3), 999), "values[3]: 999 is outside"),
    "a coin value missing": (lambda d: d["values"].pop(), "values: expected 40 entries"),
    "face-up as a number": (_set(("face_up", 0), 1), "face_up[0]"),
    "a fourth seat": (_append("takes", []), "takes: expected 3 entries"),
    "a negative card count": (_set(("hands", 1, 2), -1), "hands[1][2]: -1 is outside"),
    "a hand of the wrong width": (lambda d: d["hands"][0].append(0), "hands[0]: expected 9"),
    "a knower who is no seat": (_set(("knowers", 5), 8), "knowers[5]: 8 is outside"),
    "an actor who is no seat": (_set(("actor",), 3), "actor: 3 is outside"),
    "phase 99": (_set(("phase",), 99), "phase: 99 is not one of"),
    "an unknown card": (_set(("card",), 9), "card: 9 is outside"),
    "negative turns": (_set(("turns",), -1), "turns: -1 is outside"),
    "turns as a bool": (_set(("turns",), True), "turns: expected an integer"),
    "a coin id out of range": (_set(("middle", 0), 40), "middle[0]: 40 is outside"),
    "a draw pile as text": (_set(("draw_pile",), "abc"), "draw_pile: expected a list"),
    "a take over the limit": (lambda d: d["takes"][0].extend(range(30)), "takes[0]:"),
}

test_corrupted_field_is_named = refusal_test(FIELD_ERRORS, lambda: _state_in("choose"))


def _coin_in_two_places(d):
    d["takes"][0].append(d["middle"][0])


def _coin_lost(d):
    d["middle"].pop()


def _value_changed(d):
    d["values"][d["values"].index(min(d["values"]))] = max(d["values"])


def _card_created(d):
    d["draw_pile"].append(0)


def _hand_too_big(d):
    """Seat 0 takes one more card of every kind it can from the draw pile."""
    for k in set(d["draw_pile"]):
        if d["hands"][0][k] < 3:
            d["draw_pile"].remove(k)
            d["hands"][0][k] += 1


def _holder_does_not_know(d):
    coin = d["takes"][0][0] if d["takes"][0] else None
    if coin is None:
        coin = d["middle"][0]
        d["middle"].remove(coin)
        d["takes"][0].append(coin)
    d["knowers"][coin] = 0


def _middle_unsorted(d):
    d["middle"].reverse()


def _pending_card_while_choosing(d):
    d["card"] = 0


def _illegal_target(d):
    """The next target is one the pending card cannot choose (a seat for a coin step and
    the other way round, or the actor itself)."""
    state = ScallywagsGame(3).state_from_dict(d)
    kind, choices = state.target_choices()
    d["chosen"].append(next(x for x in range(40) if x not in choices) if kind == "coin"
                       else d["actor"])


RULE_ERRORS = {
    "a coin in two places": ("choose", _coin_in_two_places, "a coin was created or lost"),
    "a coin lost": ("choose", _coin_lost, "a coin was created or lost"),
    "a coin value changed": ("choose", _value_changed, "coin values changed"),
    "a card created": ("choose", _card_created, "a card was created or lost"),
    "a hand above its size": ("choose", _hand_too_big, "a hand above the hand size"),
    "a holder who does not know its coin": ("choose", _holder_does_not_know, "knowers"),
    "the middle out of order": ("choose", _middle_unsorted, "middle"),
    "a pending card while choosing": ("choose", _pending_card_while_choosing,
                                      "a pending card outside"),
    "a target phase without a card": ("target", _set(("card",), -1),
                                      "card: not a card with targets"),
    "a blocking card as the pending card": ("target", _set(("card",), HANDS_OFF),
                                            "card: not a card with targets"),
    "an illegal target": ("target", _illegal_target, "is not a legal target"),
    "nobody to ask in the block phase": ("block", _set(("block_queue",), []),
                                         "block_queue"),
    "the actor asked to block itself": ("block", _set(("block_queue", 0), "actor"),
                                        "block_queue"),
}


test_broken_rule_is_refused = refusal_test(RULE_ERRORS, _state_in, rule=True)


def test_other_player_count_is_named():
    game, data = _state_in("choose", n=3)
    with pytest.raises(InvalidStateError, match="takes: expected 4 entries"):
        ScallywagsGame(4).state_from_dict(data)


def _card_to_discard(data):
    """A card of seat 0's hand laid on the discard pile (no card created or lost)."""
    hand = data["hands"][0]
    kind = next(k for k, c in enumerate(hand) if c)
    hand[kind] -= 1
    data["discard"].append(kind)


@pytest.mark.parametrize("phase,corrupt", [
    ("target", lambda d: d.update(actor=(d["actor"] + 1) % 3)),   # another seat's card
    ("block", lambda d: d.update(actor=(d["actor"] + 1) % 3)),
    ("choose", _card_to_discard),
])
def test_every_hand_is_full_but_the_actors_while_its_card_is_pending(phase, corrupt):
    # such a state played on gives a seat a card above the hand size a move later
    game, data = _state_in(phase)
    assert_refused(game, data, corrupt, "cards, not", rule=True)
