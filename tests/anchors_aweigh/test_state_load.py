"""Loading saved Anchors Aweigh! states: corrupted ones are refused with an
InvalidStateError that names what is wrong (sound states round-trip: the shared suite,
tests/core/test_state_loading.py)."""

from __future__ import annotations

import copy
import json

import pytest

from plunder.envs.anchors_aweigh.components import CONTRACT, KINDS
from plunder.envs.anchors_aweigh.engine import (
    A_FLEE, A_SKIP, CARGO, CHEST, DECIDE, EMPTY, ENCOUNTER, LOADING, PHASES, SETUP, AnchorsAweighGame,
)
from plunder.envs.core.errors import InvalidStateError

from tests.support.state_load import assert_refused, refusal_test, set_field
from plunder.envs.core.testing import random_playout_states

CONFIGS = [(2, {}), (3, {}), (4, {}), (3, {"rough_seas": True}),
           (4, {"meddlesome_monkey": [0, 2]}), (2, {"perfect_recall": True})]


_FOUND: dict = {}


def _state(phase, n=2, **options):
    """A to_dict() (JSON form) of a random-play state in ``phase`` (found once per test
    session, a fresh copy each call)."""
    key = (phase, n, repr(sorted(options.items())))
    if key not in _FOUND:
        game = AnchorsAweighGame(n, **options)
        _FOUND[key] = next((game, json.loads(state.to_json())) for seed in range(30)
                           for state in random_playout_states(game, seed)
                           if state.phase == phase and (phase != LOADING or state.turns > 8))
    game, data = _FOUND[key]
    return game, copy.deepcopy(data)


# (corruption, words the error must contain)
FIELD_ERRORS = {
    "a third ship with two players": (lambda d: d["ships"].append([EMPTY] * 14),
                                      "ships: expected 2 entries"),
    "phase 99": (set_field(("phase",), 99), "phase: 99 is not one of"),
    "phase as text": (set_field(("phase",), "loading"), "phase: 'loading' is not one of"),
    "negative coins": (set_field(("coins", 1), -3), "coins[1]: -3 is outside"),
    "negative turns": (set_field(("turns",), -1), "turns: -1 is outside"),
    "round 3": (set_field(("round",), 3), "round: 3 is outside"),
    "a captain who is no seat": (set_field(("captain",), 2), "captain: 2 is outside"),
    "a ship of 13 spaces": (lambda d: d["ships"][0].pop(), "ships[0]: expected 14 entries"),
    "a cell that is no tile, cargo or chest": (set_field(("ships", 0, 3), 150),
                                               "ships[0][3]: 150 is neither"),
    "a cell beyond the chest code": (set_field(("ships", 1, 0), 205),
                                     "ships[1][0]: 205 is outside"),
    "tile 84 in the pile": (lambda d: d["pile_up"].append(84), "is outside 0..83"),
    "a held tile that does not exist": (set_field(("hand", 0), 99), "hand[0]: 99 is outside"),
    "cargo colour 4 on a storage": (set_field(("stor", 0, 8), [4]), "stor[0][8][0]: 4 is outside"),
    "three tokens on a storage": (set_field(("stor", 0, 8), [0, 1, 2]),
                                  "stor[0][8]: 3 entries is outside 0..2"),
    "a secret flag as a number": (set_field(("secret", 5), 1), "secret[5]: expected true or false"),
    "secret flags for 83 tiles": (lambda d: d["secret"].pop(), "secret: expected 84 entries"),
    "17 blue in the supply": (set_field(("supply", 0), 17), "supply[0]: 17 is outside"),
    "19 chests in the supply": (set_field(("chest_supply",), 19), "chest_supply: 19 is outside"),
    "card 52 in the deck": (lambda d: d["deck"].append(52), "is outside 0..51"),
    "a current card that does not exist": (set_field(("current",), 60), "current: 60 is outside"),
    "revealed as a number": (set_field(("revealed",), 0), "revealed: expected true or false"),
    "encounter 2": (set_field(("encounter", 0), 2), "encounter[0]: 2 is outside"),
    "outcome 6": (set_field(("outcome", 1), 6), "outcome[1]: 6 is outside"),
    "pending action 193": (set_field(("pending", 0), 193), "pending[0]: 193 is outside"),
    "minus one return": (set_field(("returns", 1), -1), "returns[1]: -1 is outside"),
    "a cargo unit of colour 5": (set_field(("cargo_queue",), [[0, 5]]),
                                 "cargo_queue[0][1]: 5 is outside"),
    "a cargo unit for seat 2": (set_field(("cargo_queue",), [[2, 0]]),
                                "cargo_queue[0][0]: 2 is outside"),
    "unit colour 4": (set_field(("unit_colour",), 4), "unit_colour: 4 is outside"),
    "cleansed as text": (set_field(("cleansed",), "yes"), "cleansed: expected true or false"),
}

test_corrupted_field_is_named = refusal_test(FIELD_ERRORS, lambda: _state(DECIDE))


def test_other_player_count_is_named():
    game, data = _state(DECIDE, n=3)
    with pytest.raises(InvalidStateError, match="ships: expected 2 entries"):
        AnchorsAweighGame(2).state_from_dict(data)
    with pytest.raises(InvalidStateError, match="ships: expected 4 entries"):
        AnchorsAweighGame(4).state_from_dict(data)
    assert PHASES[data["phase"]] == "resolve or skip"


def _tile_on_ship(d, p=0):
    """(space, tile) of a tile on ``p``'s ship."""
    return next((sp, c) for sp, c in enumerate(d["ships"][p]) if 0 <= c < CARGO)


def _tile_in_two_places(d):
    d["pile_up"].append(_tile_on_ship(d)[1])


def _tile_lost(d):
    (d["pile_up"] or d["pile_down"]).pop()


def _cargo_created(d):
    colour = min(range(4), key=lambda c: d["supply"][c])
    d["supply"][colour] += 1


def _cargo_lost(d):
    sp = next(sp for sp, c in enumerate(d["ships"][0]) if CARGO <= c < CHEST)
    d["ships"][0][sp] = EMPTY


def _chest_created(d):
    d["chest_supply"] -= 1
    d["chests"][0] += 1


def _parrot_lost(d):
    d["parrot_supply"] -= 1


def _card_in_two_places(d):
    d["deck"].append(d["used"][0] if d["used"] else d["current"])


def _card_missing(d):
    d["deck"].pop()


def _chest_below_deck(d):
    """A below-deck token becomes a chest (the token back in the supply, the chest taken
    from it: every count kept)."""
    sp = next(sp for sp in range(8, 14) if CARGO <= d["ships"][0][sp] < CHEST)
    d["supply"][d["ships"][0][sp] - CARGO] += 1
    d["ships"][0][sp] = CHEST
    d["chests"][0] += 1
    d["chest_supply"] -= 1


def _asset_on_a_cargo_space(d):
    """A tile and a token on C1/C2 change places."""
    sp, t = _tile_on_ship(d)
    d["stor"][0][sp] = []
    c = next(c for c in (12, 13) if CARGO <= d["ships"][0][c] < CHEST)
    d["ships"][0][sp], d["ships"][0][c] = d["ships"][0][c], t


def _cargo_on_a_rope(d):
    game = AnchorsAweighGame(2)
    sp = next(sp for sp, c in enumerate(d["ships"][0])
              if 0 <= c < CARGO and game.tile_kind[c] != KINDS.index("storage"))
    d["stor"][0][sp] = [0]
    d["supply"][0] -= 1


def _secret_tile_in_the_pile(d):
    d["secret"][d["pile_up"][0]] = True


def _choice_outside_the_decision(d):
    d["pending"][0] = A_FLEE


def _everyone_has_chosen(d):
    d["pending"] = [A_SKIP] * len(d["pending"])


def _pirates_decision_on_a_discovery(d):
    d["phase"] = ENCOUNTER
    d["revealed"] = False


def _cargo_to_hand_out_while_deciding(d):
    d["cargo_queue"] = [[0, 0]]


def _no_captain_while_travelling(d):
    d["captain"] = -1


def _held_tile_while_travelling(d):
    d["hand"][0] = d["pile_up"].pop()


def _parrot_in_round_one(d):
    d["parrots"][0] += 1
    d["parrot_supply"] -= 1


RULE_ERRORS = {
    "a tile in two places": (_tile_in_two_places, "a tile was created or lost"),
    "a tile lost": (_tile_lost, "a tile was created or lost"),
    "cargo created": (_cargo_created, "cargo was created or lost"),
    "cargo lost": (_cargo_lost, "cargo was created or lost"),
    "a chest from nowhere": (_chest_created, "chests: seat 0's chests on board"),
    "a parrot lost": (_parrot_lost, "a parrot was created or lost"),
    "a card in two places": (_card_in_two_places, "cards: a card in two places"),
    "a card missing": (_card_missing, "cards: not 13 adventure cards per round"),
    "a chest below deck": (_chest_below_deck, "a chest below deck"),
    "an asset on a cargo-only space": (_asset_on_a_cargo_space,
                                       "an asset on a cargo-only space"),
    "cargo stored on a tile that is no storage": (_cargo_on_a_rope, "not a storage tile"),
    "a secret tile in the pile": (_secret_tile_in_the_pile, "a secret tile outside"),
    "a pending choice of another decision": (_choice_outside_the_decision,
                                             "pending[0]: not a choice of this decision"),
    "everyone has chosen and nothing happened": (_everyone_has_chosen,
                                                 "everyone has chosen"),
    "a pirate decision on another card": (_pirates_decision_on_a_discovery,
                                          "does not fit the decision"),
    "cargo to hand out while deciding": (_cargo_to_hand_out_while_deciding, "cargo_queue"),
    "travelling without a captain": (_no_captain_while_travelling, "without a captain"),
    "a tile held while travelling": (_held_tile_while_travelling, "a tile held after loading"),
    "a parrot in round 1": (_parrot_in_round_one, "parrots: given before round 2"),
}


@pytest.mark.parametrize("name", sorted(RULE_ERRORS))
def test_broken_rule_is_refused(name):
    corrupt, words = RULE_ERRORS[name]
    game, data = _state(DECIDE)
    assert data["round"] == 1 and data["current"] >= 0
    assert game.cards[data["current"]].type != 2       # not a pirate card
    assert_refused(game, data, corrupt, words, rule=True)


def _loading_captain_with_room(d):
    d["captain"] = 0
    d["fronts_hidden"] = True


def _fronts_hidden_without_captain(d):
    d["fronts_hidden"] = True
    d["captain"] = -1


def _cargo_on_storage(d):
    """A face-up storage from the pile goes on an empty space with a token on it."""
    game = AnchorsAweighGame(2)
    storage = next(t for t in d["pile_up"] if game.tile_kind[t] == KINDS.index("storage"))
    d["pile_up"].remove(storage)
    sp = next(sp for sp in range(12) if d["ships"][0][sp] == EMPTY)   # an asset space
    d["ships"][0][sp] = storage
    d["stor"][0][sp] = [0]
    d["supply"][0] -= 1


LOADING_ERRORS = {
    "a captain whose ship has room": (_loading_captain_with_room,
                                      "captain: the ship is not full"),
    "fronts hidden before the call": (_fronts_hidden_without_captain, "fronts_hidden"),
    "cargo on a storage while loading": (_cargo_on_storage, "stor: cargo on storage"),
}


@pytest.mark.parametrize("name", sorted(LOADING_ERRORS))
def test_broken_loading_rule_is_refused(name):
    corrupt, words = LOADING_ERRORS[name]
    game, data = _state(LOADING)
    assert data["captain"] < 0 and EMPTY in data["ships"][0]
    game.state_from_dict(copy.deepcopy(data))
    corrupt(data)
    with pytest.raises(InvalidStateError) as info:
        game.state_from_dict(data)
    assert "breaks the rules" in str(info.value) and words in str(info.value)


def test_meddlesome_monkey_must_stay_aboard():
    game, data = _state(DECIDE, n=2, meddlesome_monkey=[1])
    monkey = KINDS.index("monkey")
    sp = next(sp for sp, c in enumerate(data["ships"][1])
              if 0 <= c < CARGO and game.tile_kind[c] == monkey)
    data["pile_up"].append(data["ships"][1][sp])
    data["ships"][1][sp] = EMPTY
    with pytest.raises(InvalidStateError, match="the Meddlesome Monkey left the ship"):
        game.state_from_dict(data)


def test_setup_phase_holds_the_monkeys():
    game, data = _state(SETUP, n=3, meddlesome_monkey=[0])
    game.state_from_dict(copy.deepcopy(data))
    data["hand"][0], data["hand"][1] = -1, data["hand"][0]
    with pytest.raises(InvalidStateError, match="hand: not the monkeys"):
        game.state_from_dict(data)



def _non_contract_queued(game):
    def corrupt(data):
        card = next(c for c in data["deck"] if game.cards[c].type != CONTRACT)
        data["deck"].remove(card)
        data["queue"].append(card)
    return corrupt


def test_only_contracts_wait_at_the_bottom_of_the_deck():
    # the compiled encoder refuses a queued card that is no contract; the Python one
    # wrote it outside its slot
    game, data = _state(DECIDE)
    assert_refused(game, data, _non_contract_queued(game),
                   "queue: a card that is not a contract", rule=True)


def test_coins_are_bounded_by_what_a_game_can_give():
    game, data = _state(DECIDE)
    most = sum(c.coins for c in game.cards) + 2 * 4 * game.comp.cargo_per_colour
    data["coins"][0] = most
    game.state_from_dict(copy.deepcopy(data))
    assert_refused(game, data, set_field(("coins", 0), most + 1), f"is outside 0..{most}")


@pytest.mark.parametrize("phase,value", [(LOADING, True), (DECIDE, False)])
def test_the_starfish_leave_the_ships_exactly_when_travel_starts(phase, value):
    game, data = _state(phase)                      # 2 players: the starfish rule
    assert_refused(game, data, set_field(("cleansed",), value), "cleansed:", rule=True)


def test_setup_holds_only_the_monkeys_and_empty_ships():
    game, data = _state(SETUP, n=3, meddlesome_monkey=[1])

    def other_tile(d):
        d["hand"][1], d["pile_up"][0] = d["pile_up"][0], d["hand"][1]

    assert_refused(game, data, other_tile, "a tile other than the Meddlesome Monkey",
                   rule=True)
