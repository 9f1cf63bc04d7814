"""The committed deck data and its validation."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from plunder.envs.all_hands_battle import AllHandsBattleGame
from plunder.envs.all_hands_battle.components import (
    KIND_NAMES, SUIT_NAMES, default_components, parse_components,
)
from tests.support.components import assert_config_error
from plunder.envs.core.config import load_game_data


def raw():
    return copy.deepcopy(load_game_data("all_hands_battle"))


def test_committed_deck_is_the_74_cards_of_the_completion():
    deck = default_components().deck(False)
    assert len(deck) == 74 and [c.id for c in deck] == list(range(74))
    kinds = Counter((KIND_NAMES[c.kind], SUIT_NAMES[c.suit]) for c in deck)
    for suit in ("navy", "merchant", "pirate", "raider"):
        assert kinds[("admiral", suit)] == 1 and kinds[("captain", suit)] == 2
        levels = sorted(c.level for c in deck if KIND_NAMES[c.kind] == "crew"
                        and SUIT_NAMES[c.suit] == suit)
        assert levels == list(range(1, 11))
    assert kinds[("privateer", "none")] == 8
    by_name = Counter(c.name for c in deck)
    assert by_name["Jewels"] == 1 and by_name["Gold"] == 2 and by_name["Silver"] == 3
    assert by_name["Governor's Daughter"] == 1 and by_name["Black Spot"] == 2
    assert by_name["Ruth"] == 1 and by_name["Spy"] == 2 and by_name["Lady"] == 2
    values = {c.name: c.value for c in deck if c.value}
    assert values == {"Jewels": 30, "Gold": 20, "Silver": 10, "Governor's Daughter": 20}
    penalties = {c.name: c.penalty for c in deck if c.penalty}
    assert penalties["Navy Admiral"] == 15 and penalties["Raider Captain"] == 10
    assert penalties["Jewels"] == 30 and penalties["Governor's Daughter"] == 20
    suits = {c.name: SUIT_NAMES[c.suit] for c in deck}
    assert suits["Jewels"] == suits["Lady"] == "merchant"
    assert suits["Governor's Daughter"] == "navy"
    assert suits["Black Spot"] == suits["Ruth"] == "pirate" and suits["Spy"] == "raider"
    spy = next(c for c in deck if c.name == "Spy")
    assert (spy.attack_level, spy.defend_level) == (2, 6)
    priv = next(c for c in deck if c.name == "Privateer")
    assert priv.level == 6 and priv.rank == 1
    prize = default_components().deck(True)
    assert len(prize) == 78 and prize[:74] == deck
    assert all(c.level == 5 for c in prize[74:])


@pytest.mark.parametrize("mutate,message", [
    (lambda d: d.update(extra=1), "unknown key"),
    (lambda d: d.pop("hand_size"), "missing key"),
    (lambda d: d.update(hand_size="12"), "hand_size"),
    (lambda d: d.update(hand_size=11), "fleet"),
    (lambda d: d["suits"].update(navy="pirates"), "alliance"),
    (lambda d: d["cards"][0].update(kind="bosun"), "kind must be one of"),
    (lambda d: d["cards"][0].update(suit="green"), "suit must be one of"),
    (lambda d: d["cards"][0].update(colour="red"), "unknown key"),
    (lambda d: d["cards"][8].update(level=3), "exactly one of level or levels"),
    (lambda d: d["cards"][8].update(levels=[1, "two"]), "levels"),
    (lambda d: d["cards"][12].update(copies=0), "copies"),
    (lambda d: d["cards"][13].pop("value"), "missing key"),
    (lambda d: d["cards"][-1].pop("variant"), "Prize Crew variant"),
    (lambda d: d["cards"][-1].update(variant="pirate_cook"), "variant must be one of"),
    (lambda d: d.update(cards=d["cards"][:10]), "players need"),
    (lambda d: d.update(cards="lots"), "expected list"),
])
def test_bad_data_raises_config_errors(mutate, message):
    assert_config_error(parse_components, raw(), mutate, message)


def test_game_uses_given_components():
    data = raw()
    for entry in data["cards"]:
        if entry["name"] == "Jewels":
            entry["value"] = 35
    comp = parse_components(data)
    g = AllHandsBattleGame(2, components=comp)
    assert next(c for c in g.cards if c.name == "Jewels").value == 35
