"""Scenario tests: one per rule of the rulebook and completion, card type and variant."""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs.anchors_aweigh.components import COLOURS, KINDS
from plunder.envs.anchors_aweigh.engine import (
    A_CARGO, A_COLOUR, A_DISCARD, A_ENCOUNTER, A_FLEE, A_FLIP, A_GRAB_DOWN, A_GRAB_UP,
    A_PARROT, A_PAY, A_PAY_NONE, A_PLACE, A_RESOLVE, A_RETURN, A_SKIP, A_STAR_RETURN, A_STOW,
    A_SWAP, A_TOSS_ASSET, A_TOSS_CARGO, CARGO, CHEST, COLOUR, DECIDE, EMPTY, ENCOUNTER,
    LOADING, O_FLED, O_PAID, O_RESOLVED, O_SKIPPED, OVER, PIRATE, PLACE, SETUP,
    AnchorsAweighGame,
)
from plunder.envs.anchors_aweigh.view import CELL_CARGO, CELL_TILE, CELL_UNKNOWN
from plunder.envs.core import IllegalActionError, InvalidArgumentError

from .helpers import assets_of, build, cargo_of, everyone, legal, new_state, play_random

K = {k: i for i, k in enumerate(KINDS)}
C = {c: i for i, c in enumerate(COLOURS)}
#: eleven assets that no test card below needs all of
FILL = ["rope", "compass", "spyglass", "cannon", "sword", "sailor", "rope", "compass",
        "spyglass", "cannon", "sword"]


def ship(*assets, cargo=("blue", "white")):
    """A ship list: assets on A1.. in order, cargo on C1/C2."""
    out = list(assets) + [None] * (12 - len(assets))
    return out + list(cargo) + [None] * (2 - len(cargo))


# ---------------------------------------------------------------------------- setup ----
@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_pile_cards_and_supply(n):
    s = new_state(n, seed=3)
    g = s.game
    assert len(s.pile_up) + len(s.pile_down) == 84
    assert 20 < len(s.pile_up) < 64          # each tile face up with p = 1/2
    cards = [g.cards[c].type for c in s.deck]
    assert [cards.count(t) for t in range(4)] == [5, 2, 3, 3]   # discovery trade pirates contract
    assert s.supply == [16] * 4 and s.chest_supply == 18 and s.parrot_supply == 3
    assert s.phase == LOADING and s.current_players() == tuple(range(n))
    v = s.view(0)
    assert v.fronts == tuple(sorted(s.deck))           # the 13 cards are face up


def test_tile_components():
    g = AnchorsAweighGame(2)
    kinds = [g.tile_kind[t] for t in range(84)]
    assert all(kinds.count(k) == 9 for k in range(9)) and kinds.count(K["monkey"]) == 3
    stars = [t for t in range(84) if g.tile_star[t]]
    assert len(stars) == 18 and {g.tile_kind[t] for t in stars} == set(range(9))


# -------------------------------------------------------------------------- loading ----
def test_grab_face_down_is_secret_and_place_below_deck_stays_hidden():
    s = new_state(2, seed=1)
    down = len(s.pile_down)
    s.apply_joint({0: A_GRAB_DOWN, 1: A_CARGO + 0})
    t = s.hand[0]
    assert t >= 0 and len(s.pile_down) == down - 1 and s.secret[t]
    assert s.view(1).hands[0] == CELL_UNKNOWN
    assert s.view(0).hands[0] == CELL_TILE + s.game.tile_look[t]
    s.apply_joint({0: A_PLACE + 8, 1: A_CARGO + 1})         # B1: below deck
    assert s.ships[0][8] == t and s.secret[t]
    assert s.view(1).below[0].unknown == 1 and not any(s.view(1).below[0].looks)
    assert s.view(0).own_ship[8] == CELL_TILE + s.game.tile_look[t]


def test_place_above_deck_reveals_the_tile():
    s = new_state(2, seed=1)
    s.apply_joint({0: A_GRAB_DOWN, 1: A_CARGO})
    t = s.hand[0]
    s.apply_joint({0: A_PLACE + 0, 1: A_CARGO})
    assert not s.secret[t] and s.view(1).above[0][0] == CELL_TILE + s.game.tile_look[t]


def test_grab_face_up_by_kind_and_flip():
    s = new_state(2, seed=2)
    g = s.game
    k = g.tile_kind[s.pile_up[0]]
    down = len(s.pile_down)
    s.apply_joint({0: A_GRAB_UP + k, 1: A_FLIP})
    assert g.tile_kind[s.hand[0]] == k and not s.secret[s.hand[0]]
    assert len(s.pile_down) == down - 1
    assert s.hand[1] == -1


def test_face_up_conflict_random_priority():
    """Two players want the last face-up tile of a kind: one gets it, chosen at random."""
    winners = set()
    for seed in range(20):
        s = new_state(2, seed=seed)
        g = s.game
        maps = [t for t in s.pile_up if g.tile_kind[t] == K["map"]]
        for t in maps[1:]:
            s.pile_up.remove(t)
            s.pile_down.append(t)
        if not maps:
            continue
        s.apply_joint({0: A_GRAB_UP + K["map"], 1: A_GRAB_UP + K["map"]})
        got = [p for p in (0, 1) if s.hand[p] >= 0]
        assert len(got) == 1
        winners.add(got[0])
    assert winners == {0, 1}


def test_return_tile_face_up_and_one_hand():
    s = new_state(2, seed=4)
    s.apply_joint({0: A_GRAB_DOWN, 1: A_GRAB_DOWN})
    t = s.hand[0]
    # holding a tile: only place or return (one hand, one tile)
    assert legal(s, 0) == {A_PLACE + i for i in range(12)} | {A_RETURN}
    s.apply_joint({0: A_RETURN, 1: A_PLACE})
    assert t in s.pile_up and not s.secret[t] and s.hand[0] == -1


def test_returns_in_a_row_are_counted_publicly_until_a_placement():
    s = new_state(3, seed=2)
    g = s.game
    scale = g.layout.slice("returns")
    for space in range(2):
        s.apply_joint({0: A_GRAB_DOWN, 1: A_GRAB_DOWN, 2: A_GRAB_DOWN})
        s.apply_joint({0: A_RETURN, 1: A_RETURN, 2: A_PLACE + space})
    assert s.returns == [2, 2, 0]
    s.apply_joint({0: A_GRAB_DOWN, 1: A_GRAB_DOWN, 2: A_GRAB_DOWN})
    s.apply_joint({0: A_PLACE + 1, 1: A_RETURN, 2: A_RETURN})
    assert s.returns == [0, 3, 1]
    # every seat sees every count, in its own relative seat order
    for me in range(3):
        shown = g.encode(s.view(me))[scale] * 6
        assert np.allclose(shown, [s.returns[(me + r) % 3] for r in range(3)])
    # a loop is shown only up to the cap (the observation stays bounded)
    s.returns[1] = 500
    s.touch()
    assert g.encode(s.view(0))[scale][1] == pytest.approx(1.0)


def test_cargo_only_on_c_spaces_and_no_assets_there():
    s = new_state(2, seed=5)
    assert all(a < A_PLACE + 12 for a in legal(s, 0) if A_PLACE <= a < A_RETURN)
    s.apply_joint({0: A_CARGO + C["purple"], 1: A_CARGO + C["blue"]})
    s.apply_joint({0: A_CARGO + C["white"], 1: A_GRAB_DOWN})
    assert s.ships[0][12] == CARGO + C["purple"] and s.ships[0][13] == CARGO + C["white"]
    assert not any(A_CARGO <= a < A_CARGO + 4 for a in legal(s, 0))   # C1/C2 full
    assert s.supply == [15, 15, 16, 15]


def test_no_removal_during_loading_without_starfish_rule():
    s = new_state(3, seed=1)
    g = s.game
    star = next(t for t in s.pile_up if g.tile_star[t])
    k = g.tile_kind[star]
    s.pile_up = [star] + [t for t in s.pile_up if g.tile_kind[t] != k]
    s.apply_joint({0: A_GRAB_UP + k, 1: A_FLIP, 2: A_FLIP})
    s.apply_joint({0: A_PLACE + 0, 1: A_FLIP, 2: A_FLIP})
    assert not any(A_STAR_RETURN <= a < A_SKIP for a in legal(s, 0))


def test_two_player_starfish_return_during_loading():
    s = new_state(2, seed=1)
    g = s.game
    star = next(t for t in s.pile_up if g.tile_star[t])
    k = g.tile_kind[star]
    s.pile_up = [star] + [t for t in s.pile_up if g.tile_kind[t] != k]
    s.apply_joint({0: A_GRAB_UP + k, 1: A_FLIP})
    s.apply_joint({0: A_PLACE + 3, 1: A_FLIP})
    assert A_STAR_RETURN + 3 in legal(s, 0)
    s.apply_joint({0: A_STAR_RETURN + 3, 1: A_FLIP})
    assert s.ships[0][3] == EMPTY and star in s.pile_up


def _fill(s, p, leave=0):
    """Fill p's ship directly except ``leave`` asset spaces (kept A1..)."""
    g = s.game
    for sp in range(leave, 12):
        if s.ships[p][sp] == EMPTY:
            t = next((t for t in s.pile_up if not g.tile_star[t]), None)
            if t is None:
                t = next(t for t in s.pile_down if not g.tile_star[t])
                s.pile_down.remove(t)
            else:
                s.pile_up.remove(t)
            s.ships[p][sp] = t
    for sp in (12, 13):
        if s.ships[p][sp] == EMPTY:
            s.ships[p][sp] = CARGO
            s.supply[0] -= 1
    s.touch()


def test_captain_call_hides_fronts_and_full_players_wait():
    s = new_state(3, seed=6)
    _fill(s, 0, leave=1)
    g = s.game
    k = g.tile_kind[s.pile_up[0]]
    s.apply_joint({0: A_GRAB_UP + k, 1: A_FLIP, 2: A_FLIP})
    assert s.view(1).fronts is not None
    s.apply_joint({0: A_PLACE + 0, 1: A_FLIP, 2: A_FLIP})
    assert s.captain == 0 and s.fronts_hidden
    assert s.current_players() == (1, 2)            # the full ship waits
    assert s.view(1).fronts is None and s.view(0).fronts is None
    assert s.view(1).backs_left == s.view(0).backs_left and sum(s.view(1).backs_left) == 13


def test_perfect_recall_keeps_fronts():
    s = new_state(3, seed=6, perfect_recall=True)
    _fill(s, 0, leave=1)
    k = s.game.tile_kind[s.pile_up[0]]
    s.apply_joint({0: A_GRAB_UP + k, 1: A_FLIP, 2: A_FLIP})
    s.apply_joint({0: A_PLACE + 0, 1: A_FLIP, 2: A_FLIP})
    assert s.captain == 0 and s.view(1).fronts == tuple(sorted(s.deck))


def test_captain_tie_is_random_and_loading_ends_when_all_full():
    captains = set()
    for seed in range(12):
        s = new_state(2, seed=seed)
        _fill(s, 0, leave=1)
        _fill(s, 1, leave=1)
        g = s.game
        ks = sorted({g.tile_kind[t] for t in s.pile_up if not g.tile_star[t]})
        s.pile_up = [t for t in s.pile_up if not g.tile_star[t]]
        s.apply_joint({0: A_GRAB_UP + ks[0], 1: A_GRAB_UP + ks[1]})
        s.apply_joint({0: A_PLACE, 1: A_PLACE})
        captains.add(s.captain)
        assert s.phase != LOADING                    # travel began
    assert captains == {0, 1}


def test_two_player_starfish_leave_at_travel_start():
    s = new_state(2, seed=7)
    g = s.game
    for p in (0, 1):
        _fill(s, p, leave=1)
    star = next(t for t in s.pile_up if g.tile_star[t])
    s.pile_up.remove(star)
    s.ships[0][5], old = star, s.ships[0][5]
    s.pile_up.append(old)
    plain = next(t for t in s.pile_up if not g.tile_star[t])
    s.pile_up = [plain] + [t for t in s.pile_up if g.tile_kind[t] != g.tile_kind[plain]]
    other = next(t for t in s.pile_up if g.tile_kind[t] != g.tile_kind[plain])
    s.touch()
    s.apply_joint({0: A_GRAB_UP + g.tile_kind[plain], 1: A_GRAB_UP + g.tile_kind[other]})
    s.apply_joint({0: A_PLACE, 1: A_PLACE})
    assert s.cleansed and s.ships[0][5] == EMPTY and star in s.pile_up
    assert not any(0 <= c < CARGO and g.tile_star[c] for sh in s.ships for c in sh)


def test_starfish_stay_with_three_players():
    s = new_state(3, seed=7)
    for p in (0, 1, 2):
        _fill(s, p)
    s._start_travel()
    assert not s.cleansed


# ------------------------------------------------------------------------- travel ----
def test_contracts_go_to_the_bottom_and_come_last():
    s = build(2, ships={0: ship(), 1: ship()}, deck=["C01", "D01", "C04", "T01", "C07"])
    g = s.game
    order = []
    while not s.phase == OVER and s.round == 1:
        if s.current >= 0 and s.current not in order:
            order.append(s.current)
        s.apply_joint(everyone(s, A_SKIP) if s.phase == DECIDE else
                      {p: min(legal(s, p)) for p in s.current_players()})
    ids = [g.cards[c].id for c in order]
    assert ids == ["D01", "T01", "C07", "C01", "C04"]


def test_queue_backs_are_public():
    s = build(2, ships={0: ship(), 1: ship()}, deck=["C01", "D01", "T01"])
    assert s.view(1).queue == (C["blue"],)
    assert s.view(1).current == s.game.card_index["D01"]


def test_discovery_resolve_returns_tiles_and_gives_coins():
    s = build(2, ships={0: ship("map", "map", "sailor"), 1: ship("map")}, deck=["D17", "D06"])
    assert A_RESOLVE in legal(s, 0) and A_RESOLVE not in legal(s, 1)
    pile = len(s.pile_up)
    s.apply_joint({0: A_RESOLVE, 1: A_SKIP})
    assert s.coins == [5, 0] and assets_of(s, 0) == {"sailor": 1}
    assert len(s.pile_up) == pile + 2
    assert s.outcome == [O_RESOLVED, O_SKIPPED]


def test_discovery_cargo_reward_is_stowed_unit_by_unit():
    s = build(2, ships={0: ship("shovel", "map"), 1: ship()}, deck=["D01", "D17"])
    s.apply_joint({0: A_RESOLVE, 1: A_SKIP})
    assert s.phase == PLACE and s.current_players() == (0,) and s.unit_colour == C["blue"]
    # the freed space A1 and the empty spaces take cargo
    assert A_STOW + 0 in legal(s, 0)
    s.apply_joint({0: A_STOW + 0})
    assert s.unit_colour == C["white"]
    s.apply_joint({0: A_STOW + 11})
    assert cargo_of(s, 0) == {"blue": 2, "white": 2}
    assert s.ships[0][0] == CARGO + C["blue"] and s.ships[0][11] == CARGO + C["white"]


def test_trade_pays_cargo_and_gives_other_colours():
    s = build(2, ships={0: ship(cargo=("blue", "white")), 1: ship(cargo=("white",))},
              deck=["T01", "D01"])
    assert A_RESOLVE in legal(s, 0) and A_RESOLVE not in legal(s, 1)
    s.apply_joint({0: A_RESOLVE, 1: A_SKIP})
    s.apply_joint({0: A_STOW + 12})
    s.apply_joint({0: A_STOW + 0})
    assert cargo_of(s, 0) == {"white": 2, "orange": 1}
    assert s.supply[C["blue"]] == 16


def test_contract_pays_cargo_for_coins():
    s = build(2, ships={0: ship(cargo=("blue", "blue")), 1: ship(cargo=("blue", "white"))},
              deck=["C01"])
    assert A_RESOLVE in legal(s, 0) and A_RESOLVE not in legal(s, 1)
    s.apply_joint({0: A_RESOLVE, 1: A_SKIP})
    assert s.round == 2 and s.phase == LOADING       # the last card ended the round
    assert s.coins[0] + 10 * s.chests[0] == 5


def test_pirates_encounter_or_flee_before_reveal():
    s = build(2, ships={0: ship("cannon", "sword"), 1: ship()}, deck=["P01", "D01"],
              coins=[5, 5])
    assert s.phase == ENCOUNTER and not s.revealed
    v = s.view(1)
    assert v.current == -1 and v.current_back == 2        # pirates, strength 1
    assert legal(s, 0) == {A_ENCOUNTER, A_FLEE}
    s.apply_joint({0: A_ENCOUNTER, 1: A_FLEE})
    assert s.phase == PIRATE and s.revealed and s.current_players() == (0,)
    assert s.view(1).current == s.game.card_index["P01"]
    s.apply_joint({0: A_RESOLVE})
    assert s.coins == [9, 5] and assets_of(s, 0) == {}
    assert s.outcome[1] == O_FLED


def test_pirates_penalty_coins_and_cargo_of_choice():
    s = build(2, ships={0: ship(cargo=("blue", "orange")), 1: ship(cargo=())},
              deck=["P05", "D01"], coins=[5, 1])
    s.apply_joint({0: A_ENCOUNTER, 1: A_ENCOUNTER})
    assert A_RESOLVE not in legal(s, 0)
    assert legal(s, 0) == {A_PAY + C["blue"], A_PAY + C["orange"]}
    assert legal(s, 1) == {A_PAY_NONE}
    s.apply_joint({0: A_PAY + C["orange"], 1: A_PAY_NONE})
    assert s.coins == [3, 0]                        # pays as much as able
    assert cargo_of(s, 0) == {"blue": 1} and s.outcome[0] == O_PAID


def test_pirates_may_refuse_to_give_assets_and_pay_instead():
    s = build(2, ships={0: ship("cannon", "sword"), 1: ship()}, deck=["P01", "D01"],
              coins=[5, 0])
    s.apply_joint({0: A_ENCOUNTER, 1: A_FLEE})
    assert A_RESOLVE in legal(s, 0) and A_PAY + C["blue"] in legal(s, 0)
    s.apply_joint({0: A_PAY + C["blue"]})
    assert assets_of(s, 0) == {"cannon": 1, "sword": 1} and s.coins[0] == 3


def test_everyone_flees_nothing_happens():
    s = build(2, ships={0: ship(), 1: ship()}, deck=["P09", "D01"], coins=[5, 5])
    s.apply_joint({0: A_FLEE, 1: A_FLEE})
    assert s.coins == [5, 5] and s.current == s.game.card_index["D01"]


def test_grey_cargo_any_colour():
    s = build(2, ships={0: ship("cannon", "cannon"), 1: ship()}, deck=["P02", "D01"])
    s.apply_joint({0: A_ENCOUNTER, 1: A_FLEE})
    s.apply_joint({0: A_RESOLVE})
    assert s.phase == COLOUR and legal(s, 0) == {A_COLOUR + c for c in range(4)}
    s.apply_joint({0: A_COLOUR + C["purple"]})
    s.apply_joint({0: A_STOW + 0})
    s.apply_joint({0: A_COLOUR + C["purple"]})
    s.apply_joint({0: A_STOW + 1})
    assert cargo_of(s, 0) == {"blue": 1, "white": 1, "purple": 2}


def test_storage_holds_two_cargo():
    s = build(2, ships={0: ship("storage", "rope", "sailor", "map", "map", "map", "map",
                                "map", "map", "map", "shovel", "shovel"), 1: ship()},
              deck=["D13", "D01"])
    s.apply_joint({0: A_RESOLVE, 1: A_SKIP})
    # rope and sailor returned: A2, A3 free; storage A1 has room for 2
    assert legal(s, 0) == {A_STOW + 0, A_STOW + 1, A_STOW + 2}
    s.apply_joint({0: A_STOW + 0})
    s.apply_joint({0: A_STOW + 0})
    assert sorted(s.stor[0][0]) == [C["blue"], C["white"]]
    assert A_STOW + 0 not in legal(s, 0)        # full storage
    s.apply_joint({0: A_STOW + 1})
    assert cargo_of(s, 0) == {"blue": 2, "white": 2, "orange": 1}


def test_overflow_toss_asset_cargo_or_new():
    full = ship("shovel", *FILL)
    s = build(2, ships={0: full, 1: ship()}, deck=["D07", "D01"])
    s.apply_joint({0: A_RESOLVE, 1: A_SKIP})        # shovel -> orange x2; one space freed
    s.apply_joint({0: A_STOW + 0})
    opts = legal(s, 0)
    assert not any(A_STOW <= a < A_TOSS_ASSET for a in opts)
    assert {A_TOSS_ASSET + i for i in range(1, 12)} <= opts
    assert {A_TOSS_CARGO + C["blue"], A_TOSS_CARGO + C["white"],
            A_TOSS_CARGO + C["orange"], A_DISCARD} <= opts
    pile = len(s.pile_up)
    s.apply_joint({0: A_TOSS_ASSET + 5})
    assert s.ships[0][5] == CARGO + C["orange"] and len(s.pile_up) == pile + 1
    assert cargo_of(s, 0) == {"blue": 1, "white": 1, "orange": 2}


def test_overflow_toss_stored_cargo_and_discard():
    full = ship("shovel", *FILL)
    s = build(2, ships={0: full, 1: ship()}, deck=["D07", "D01"])
    s.apply_joint({0: A_RESOLVE, 1: A_SKIP})
    s.apply_joint({0: A_STOW + 0})
    s.apply_joint({0: A_TOSS_CARGO + C["blue"]})
    assert cargo_of(s, 0) == {"white": 1, "orange": 2} and s.supply[C["blue"]] == 15
    s = build(2, ships={0: full, 1: ship()}, deck=["D07", "D01"])
    s.apply_joint({0: A_RESOLVE, 1: A_SKIP})
    s.apply_joint({0: A_STOW + 0})
    s.apply_joint({0: A_DISCARD})
    assert cargo_of(s, 0) == {"blue": 1, "white": 1, "orange": 1}
    assert s.supply[C["orange"]] == 15


def test_colour_shortage_clockwise_from_captain():
    s = build(3, ships={p: ship("shovel") for p in range(3)}, deck=["D07", "D01"],
              captain=2)
    s.supply[C["orange"]] = 3
    s.touch()
    s.apply_joint({0: A_RESOLVE, 1: A_RESOLVE, 2: A_RESOLVE})
    got = []
    while s.phase in (PLACE, COLOUR):
        p = s.current_players()[0]
        if s.phase == COLOUR:
            assert C["orange"] not in {a - A_COLOUR for a in legal(s, p)}
            got.append((p, "choose"))
            s.apply_joint({p: A_COLOUR + C["purple"]})
        else:
            got.append((p, COLOURS[s.unit_colour]))
            s.apply_joint({p: min(legal(s, p))})
    assert got == [(2, "orange"), (2, "orange"), (0, "orange"), (0, "choose"),
                   (0, "purple"), (1, "choose"), (1, "purple"), (1, "choose"), (1, "purple")]


def test_each_card_once_and_gone():
    s = build(2, ships={0: ship("map", "map", "map", "map"), 1: ship()}, deck=["D17", "D10"])
    c = s.current
    s.apply_joint({0: A_RESOLVE, 1: A_SKIP})
    assert c in s.used and s.current != c


# ----------------------------------------------------------------------- below deck ----
def _onlooker(s, p):
    """All that player ``p`` gets of a position: observation, mask and text view."""
    return (s.observation(p).tobytes(), s.legal_actions_mask(p).tobytes(),
            s.game.describe_view(s.view(p)))


def _log(before, joint, after, observer):
    from plunder.envs.core.movelog import describe_step
    return describe_step(before.game, before, joint, after, observer)


def _hide(s, p, *spaces):
    """Make the tiles on ``p``'s ``spaces`` ones grabbed face down (only ``p`` saw them)."""
    for sp in spaces:
        s.secret[s.ships[p][sp]] = True
    s.touch()


def test_stowing_below_deck_looks_the_same_whichever_space():
    """Rulebook: "everything below deck is hidden from other players". Cargo stowed on an
    empty B or C space, on a storage tile grabbed face down or on one everyone saw shows
    the others only a token going behind the screen; above deck they see where it lies."""
    s = build(2, ships={0: ["shovel", "map", "rope", "rope", "compass", "compass", "sailor",
                            None, "storage", "storage", "rope", None, None, "white"],
                        1: ship()}, deck=["D01", "D02"])
    _hide(s, 0, 8, 10)                      # B1 storage and B3 rope grabbed face down
    s.apply_joint({0: A_RESOLVE, 1: A_SKIP})
    assert s.phase == PLACE and s.unit_colour == C["blue"]
    assert {A_STOW + sp for sp in (0, 7, 8, 9, 11, 12)} == legal(s, 0)
    seen, logs, own = set(), set(), set()
    for sp in (8, 9, 11, 12):               # B1 secret storage, B2 seen storage, B4, C1
        t = s.clone()
        t.apply_joint({0: A_STOW + sp})
        assert t.secret[t.ships[0][8]], "the storage stays secret"
        below = t.view(1).below[0]
        assert below.unknown == 2 and below.cargo == (1, 1, 0, 0)
        assert below.looks[2 * K["storage"]] == 1 and sum(below.looks) == 1
        seen.add(_onlooker(t, 1))
        logs.add(tuple(_log(s, {0: A_STOW + sp}, t, 1)))
        own.add(_onlooker(t, 0))
    assert len(seen) == 1 and len(logs) == 1 and len(own) == 4
    assert any("stow the cargo below deck" in x for x in logs.pop())
    t = s.clone()
    t.apply_joint({0: A_STOW + 7})          # A8: in plain sight
    assert _onlooker(t, 1) not in seen and t.view(1).above[0][7] == CELL_CARGO + C["blue"]


def test_placing_below_deck_looks_the_same_whichever_space():
    """Loading: a tile placed below deck is seen going behind the screen (by its face if
    it was grabbed face up), not the space it goes to."""
    for grab in (A_GRAB_DOWN, A_GRAB_UP + K["rope"]):
        s = new_state(2, seed=6)
        s.pile_up.append(next(t for t in s.pile_down if s.game.tile_kind[t] == K["rope"]))
        s.pile_down.remove(s.pile_up[-1])
        s.touch()
        s.apply_joint({0: grab, 1: A_CARGO + C["blue"]})
        seen, logs = set(), set()
        for sp in (8, 9, 11):
            t = s.clone()
            t.apply_joint({0: A_PLACE + sp, 1: A_CARGO + C["white"]})
            seen.add(_onlooker(t, 1))
            logs.add(tuple(_log(s, {0: A_PLACE + sp, 1: A_CARGO + C["white"]}, t, 1)))
        assert len(seen) == 1 and len(logs) == 1
        below = t.view(1).below[0]
        if grab == A_GRAB_DOWN:
            assert below.unknown == 1 and not any(below.looks)
        else:
            assert below.unknown == 0 and below.looks[2 * K["rope"]] == 1
        assert any(x.startswith("player_0 places") and x.endswith("below deck")
                   for x in logs.pop())


def test_tossing_a_secret_storage_overboard_shows_it():
    """What the rules force into the open: a tile thrown overboard lands face up on the
    pile and its cargo goes back to the supply, so a secret storage is seen then, with
    what it held."""
    full = ["shovel"] + FILL[:7] + ["storage", "rope", "map", "map", "blue", "white"]
    s = build(2, ships={0: full, 1: ship()}, deck=["D07", "D01"],
              stor={(0, 8): ["orange", "purple"]})
    _hide(s, 0, 8)
    storage = s.ships[0][8]
    s.apply_joint({0: A_RESOLVE, 1: A_SKIP})         # shovel -> orange x2; A1 freed
    s.apply_joint({0: A_STOW + 0})
    assert A_TOSS_ASSET + 8 in legal(s, 0) and not any(
        A_STOW <= a < A_TOSS_ASSET for a in legal(s, 0))
    before = s.view(1)
    assert before.below[0].unknown == 1 and before.below[0].cargo == (1, 1, 1, 1)
    t = s.clone()
    t.apply_joint({0: A_TOSS_ASSET + 8})
    after = t.view(1)
    storage_look = 2 * K["storage"] + int(s.game.tile_star[storage])
    assert not t.secret[storage] and storage in t.pile_up
    assert after.pile_up[storage_look] == before.pile_up[storage_look] + 1
    assert after.below[0].unknown == 0 and after.below[0].cargo == (1, 1, 1, 0)
    assert [a - b for a, b in zip(after.supply, before.supply)] == [0, 0, 0, 1]
    assert any("toss a storage from below deck overboard" in x
               for x in _log(s, {0: A_TOSS_ASSET + 8}, t, 1))


def test_a_seen_tile_is_spent_before_a_secret_one():
    """Spent tiles go face up to the pile, seen by all: of two below-deck shovels the one
    everyone saw goes first, so where each lies and the secret one's face stay hidden;
    a secret tile is shown only when no seen one will do."""
    seen = set()
    for secret_space in (8, 9):
        s = build(2, ships={0: ship(*FILL[:8], "shovel", "shovel"), 1: ship()},
                  deck=["D01", "D07", "D02"])
        _hide(s, 0, secret_space)
        hidden = s.ships[0][secret_space]
        s.apply_joint({0: A_RESOLVE, 1: A_SKIP})
        assert s.ships[0][secret_space] == hidden and s.secret[hidden]
        below = s.view(1).below[0]
        assert below.unknown == 1 and below.looks[2 * K["shovel"]] == 0
        while s.phase == PLACE:                      # blue and white: below deck
            s.apply_joint({0: min(legal(s, 0))})
        seen.add(_onlooker(s, 1))
        s.apply_joint({0: A_RESOLVE, 1: A_SKIP})     # D07: now only the secret shovel
        assert hidden in s.pile_up and not s.secret[hidden]
        assert s.view(1).below[0].unknown == 0
    assert len(seen) == 1


def test_cargo_paid_from_below_deck_first_wherever_it_lies():
    """A paid token leaves below deck first (storage, then spaces), then above deck:
    whether it was on a secret storage or on a below-deck space, the others see the same
    before and after."""
    seen = set()
    for on_storage in (True, False):
        s = build(2, ships={0: ["blue"] + FILL[:7] + ["storage"] + [None] * 5,
                            1: ship()}, deck=["T01", "D01"],
                  stor={(0, 8): ["blue"]} if on_storage else None)
        if not on_storage:
            s.ships[0][9] = CARGO + C["blue"]
            s.supply[C["blue"]] -= 1
        _hide(s, 0, 8)
        first = _onlooker(s, 1)
        s.apply_joint({0: A_RESOLVE, 1: A_SKIP})
        assert s.ships[0][0] == CARGO + C["blue"], "the above-deck token stays"
        seen.add((first, _onlooker(s, 1)))
    assert len(seen) == 1


# --------------------------------------------------------------------- end of round ----
def test_end_of_round_conversions():
    s = build(2, ships={0: ship("storage", "map", cargo=("blue", "white")), 1: ship()},
              deck=["C01"], stor={(0, 0): ["orange", "purple"]}, coins=[17, 3])
    s.apply_joint({0: A_SKIP, 1: A_SKIP})
    assert s.round == 2 and s.phase == LOADING
    # cargo 4 -> 4 coins: 21 -> 2 chests + 1 coin
    assert s.chests[0] == 2 and s.coins[0] == 1 and s.ships[0][0] == CHEST
    assert s.ships[0][1] == CHEST and all(c == EMPTY for c in s.ships[0][2:])
    assert s.supply == [16] * 4 and len(s.pile_up) + len(s.pile_down) == 84
    assert s.chest_supply == 16
    # round 2: fewer open spaces (the chests block A1, A2)
    s.apply_joint({0: A_GRAB_UP + K["map"], 1: A_CARGO})
    assert {a - A_PLACE for a in legal(s, 0) if A_PLACE <= a < A_RETURN} == set(range(2, 12))


def test_chests_only_on_open_above_deck_spaces():
    s = build(2, ships={0: ship(), 1: ship()}, deck=["C01"], coins=[95, 0])
    s.apply_joint({0: A_SKIP, 1: A_SKIP})
    assert s.chests[0] == 8 and s.coins[0] == 95 + 2 - 80   # extra chests stay as coins


def test_chests_are_safe_from_pirates():
    s = build(2, ships={0: ship(), 1: ship()}, deck=["P09", "D01"], round=2, chests=[3, 0],
              coins=[1, 0])
    for sp in range(3):
        s.ships[0][sp + 3] = CHEST
    s.touch()
    s.apply_joint({0: A_ENCOUNTER, 1: A_FLEE})
    s.apply_joint({0: A_PAY + C["blue"]})
    assert s.chests[0] == 3 and s.coins[0] == 0


def test_parrot_for_the_lowest_and_none_when_all_tied():
    s = build(3, ships={p: ship() for p in range(3)}, deck=["C01"], coins=[5, 2, 2])
    s.apply_joint({0: A_SKIP, 1: A_SKIP, 2: A_SKIP})
    assert s.parrots == [0, 1, 1] and s.parrot_supply == 1
    s = build(3, ships={p: ship() for p in range(3)}, deck=["C01"], coins=[2, 2, 2])
    s.apply_joint({0: A_SKIP, 1: A_SKIP, 2: A_SKIP})
    assert s.parrots == [0, 0, 0]


def test_parrot_stands_in_for_an_asset():
    s = build(2, ships={0: ship("map"), 1: ship()}, deck=["D17", "D01"], round=2,
              parrots=[1, 0])
    assert A_RESOLVE not in legal(s, 0) and A_PARROT + K["map"] in legal(s, 0)
    s.apply_joint({0: A_PARROT + K["map"], 1: A_SKIP})
    assert s.parrots[0] == 0 and s.parrot_supply == 3 and s.coins[0] == 5


def test_parrot_keeps_a_real_asset():
    s = build(2, ships={0: ship("map", "map"), 1: ship()}, deck=["D17", "D01"], round=2,
              parrots=[1, 0])
    assert {A_RESOLVE, A_PARROT + K["map"]} <= legal(s, 0)
    s.apply_joint({0: A_PARROT + K["map"], 1: A_SKIP})
    assert assets_of(s, 0) == {"map": 1}


def test_game_ends_after_round_two_with_shared_victory():
    from plunder.envs.core.rewards import win_rewards
    s = build(2, ships={0: ship(), 1: ship()}, deck=["C01"], round=2, coins=[7, 5])
    s.apply_joint({0: A_SKIP, 1: A_SKIP})
    assert s.is_terminal() and s.scores() == [9.0, 7.0]
    s = build(2, ships={0: ship(), 1: ship()}, deck=["C01"], round=2, coins=[5, 5])
    s.apply_joint({0: A_SKIP, 1: A_SKIP})
    assert win_rewards(s.rank_keys(), 2) == [1.0, 1.0]


def test_round_two_uses_new_cards():
    s = new_state(2, seed=9)
    first = set(s.deck)
    play_random(s, np.random.default_rng(0), until=lambda x: x.round == 2)
    assert not first & set(s.deck) and len(s.deck) == 13 and set(s.used) == first


# ------------------------------------------------------------------------- variants ----
def test_meddlesome_monkey_setup_and_stays():
    s = new_state(3, seed=1, meddlesome_monkey=[0, 2])
    g = s.game
    assert s.phase == SETUP and s.current_players() == (0, 2)
    assert g.tile_kind[s.hand[0]] == K["monkey"]
    assert len(s.pile_up) + len(s.pile_down) == 82
    s.apply_joint({0: A_PLACE + 9, 2: A_PLACE + 0})
    assert s.phase == LOADING and s.current_players() == (0, 1, 2)
    monkey = s.ships[0][9]
    play_random(s, np.random.default_rng(1), until=lambda x: x.round == 2)
    assert s.ships[0][9] == monkey and g.tile_kind[s.ships[2][0]] == K["monkey"]


def test_meddlesome_monkey_cannot_be_tossed():
    s = build(3, ships={0: ship("monkey", *FILL[:10], "shovel"), 1: ship(), 2: ship()},
              deck=["D07", "D01"], meddlesome_monkey=[0])
    s.apply_joint({0: A_RESOLVE, 1: A_SKIP, 2: A_SKIP})
    s.apply_joint({0: A_STOW + 11})
    assert A_TOSS_ASSET + 0 not in legal(s, 0) and A_TOSS_ASSET + 1 in legal(s, 0)


@pytest.mark.parametrize("opts,msg", [
    (dict(meddlesome_monkey=[0, 1, 2, 3]), "monkey"),
    (dict(meddlesome_monkey=[5]), "seat"),
    (dict(meddlesome_monkey=[1, 1]), "twice"),
    (dict(rough_seas=True, meddlesome_monkey=[0]), "rough_seas"),
    (dict(open_ocean="sometimes"), "open_ocean"),
    (dict(open_ocean_mix={"discovery": 13}), "custom"),
    (dict(open_ocean="custom", open_ocean_mix={"discovery": 5, "trade": 5, "pirates": 2,
                                               "contract": 1}), "trade"),
    (dict(open_ocean="custom", open_ocean_mix={"discovery": 6, "trade": 0, "pirates": 4,
                                               "contract": 3}), "trade"),
    (dict(open_ocean="custom", open_ocean_mix={"discovery": 5, "trade": 2, "pirates": 3,
                                               "contract": 2}), "13"),
])
def test_variant_restrictions(opts, msg):
    with pytest.raises(InvalidArgumentError, match=msg):
        AnchorsAweighGame(4, **opts)


def test_rough_seas_needs_three_players():
    with pytest.raises(InvalidArgumentError, match="3 or 4"):
        AnchorsAweighGame(2, rough_seas=True)


def test_open_ocean_custom_mix():
    mix = {"discovery": 3, "trade": 3, "pirates": 6, "contract": 1}
    s = new_state(3, seed=2, open_ocean="custom", open_ocean_mix=mix)
    types = [s.game.cards[c].type for c in s.deck]
    assert [types.count(t) for t in range(4)] == [3, 3, 6, 1]
    s = new_state(3, seed=2, open_ocean="custom")            # the data file's custom mix
    types = [s.game.cards[c].type for c in s.deck]
    assert [types.count(t) for t in range(4)] == [4, 2, 5, 2]


def test_open_ocean_random_mix_has_every_type():
    for seed in range(30):
        s = new_state(2, seed=seed, open_ocean="random")
        types = {s.game.cards[c].type for c in s.deck}
        assert types == {0, 1, 2, 3} and len(s.deck) == 13


def test_rough_seas_starfish_rule_with_three_players():
    s = new_state(3, seed=1, rough_seas=True)
    g = s.game
    star = next(t for t in s.pile_up if g.tile_star[t])
    k = g.tile_kind[star]
    s.pile_up = [star] + [t for t in s.pile_up if g.tile_kind[t] != k]
    s.apply_joint({0: A_GRAB_UP + k, 1: A_FLIP, 2: A_FLIP})
    s.apply_joint({0: A_PLACE + 3, 1: A_FLIP, 2: A_FLIP})
    assert A_STAR_RETURN + 3 in legal(s, 0)


def test_rough_seas_wild_monkeys():
    s = build(3, ships={0: ship("map", "monkey"), 1: ship("map"), 2: ship()},
              deck=["D17", "D01"], rough_seas=True)
    assert A_RESOLVE in legal(s, 0) and A_RESOLVE not in legal(s, 1)
    s.apply_joint({0: A_RESOLVE, 1: A_SKIP, 2: A_SKIP})
    assert assets_of(s, 0) == {} and s.coins[0] == 5
    s = build(3, ships={0: ship("map", "monkey"), 1: ship(), 2: ship()}, deck=["D17"])
    assert A_RESOLVE not in legal(s, 0)             # monkeys are decoys otherwise


def test_rough_seas_swap_two_for_one():
    s = build(3, ships={0: ship("sword", "sword", "storage"), 1: ship(), 2: ship()},
              deck=["P01", "D01"], rough_seas=True)
    s.stor[0][2] = [C["orange"]]
    s.supply[C["orange"]] -= 1
    s.touch()
    a = A_SWAP + K["sword"] * 10 + K["cannon"]
    assert a in legal(s, 0)
    s.apply_joint({0: a, 1: A_FLEE, 2: A_FLEE})
    assert assets_of(s, 0) == {"cannon": 1, "storage": 1}
    assert s.current_players() == (0,) and s.phase == ENCOUNTER   # asked again
    a = A_SWAP + K["storage"] * 10 + K["sword"]
    assert a not in legal(s, 0)                      # needs two of a kind
    s.apply_joint({0: A_ENCOUNTER})
    assert s.phase == PIRATE


def test_rough_seas_swap_of_storage_returns_its_cargo():
    s = build(3, ships={0: ship("storage", "storage"), 1: ship(), 2: ship()},
              deck=["D01", "D02"], rough_seas=True)
    s.stor[0][0] = [C["orange"], C["orange"]]
    s.supply[C["orange"]] -= 2
    s.touch()
    s.apply_joint({0: A_SWAP + K["storage"] * 10 + K["map"], 1: A_SKIP, 2: A_SKIP})
    assert s.supply[C["orange"]] == 16 and assets_of(s, 0) == {"map": 1}


def test_pending_choices_hidden_while_a_swapper_acts_again():
    s = build(3, ships={0: ship("sword", "sword"), 1: ship("shovel"), 2: ship()},
              deck=["D01", "D02"], rough_seas=True)
    s.apply_joint({0: A_SWAP + K["sword"] * 10 + K["map"], 1: A_RESOLVE, 2: A_SKIP})
    v = s.view(0)
    assert v.decided == (False, True, True) and v.own_pending == -1
    assert s.view(1).own_pending == A_RESOLVE
    assert s.view(0).pub == s.view(2).pub


def test_illegal_action_error_names_legal_actions():
    s = new_state(2, seed=0)
    with pytest.raises(IllegalActionError, match="legal actions"):
        s.apply_joint({0: A_RESOLVE, 1: A_FLIP})


def test_turns_count_ticks():
    s = new_state(2, seed=0)
    s.apply_joint({0: A_FLIP, 1: A_FLIP})
    assert s.turns == 1


def test_chest_supply_is_limited_clockwise_from_captain():
    s = build(3, ships={p: ship(cargo=()) for p in range(3)}, deck=["C01"], captain=1,
              coins=[20, 20, 20])
    s.chest_supply = 3
    s.touch()
    s.apply_joint({0: A_SKIP, 1: A_SKIP, 2: A_SKIP})
    assert s.chests == [0, 2, 1] and s.coins == [20, 0, 10] and s.chest_supply == 0
