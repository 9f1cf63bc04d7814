"""The table of each game as clickable elements, built from one seat's view.

A board is plain JSON the page draws without knowing the game::

    {"zones": [{"title": "Middle", "note": "...", "actions": [...],
                "items": [{"label": "#17", "detail": "5", "kind": "coin",
                           "tags": ["face-up"], "actions": [35], "cells": null}, ...]}]}

A zone is a part of the table (the middle, a seat's take, your hand, a ship); an item is
a thing on it (a coin, a card, a crate, a tile, a ship's space). ``actions`` lists the
*legal* moves that name the thing (a coin the move picks, a card it plays or discards, a
space it places on): the page makes the thing clickable, and asks which move is meant when
there are several. ``cells`` is a small grid of cell tokens (ShipShape's crates and holds).

Every builder reads only the view it is given (what that seat knows) and the game's
public tables (card names, action layout); the legal moves come from the caller. Moves no
thing names (pass, allow, resolve the card) are the page's move buttons, which always list
every legal move by ``game.action_name``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any


def item(label: str, detail: str = "", kind: str = "", tags: Iterable[str] = (),
         actions: Iterable[int] = (), cells: list[list[str]] | None = None) -> dict:
    """One thing on the table."""
    return {"label": label, "detail": detail, "kind": kind, "tags": list(tags),
            "actions": list(actions), "cells": cells}


def zone(title: str, items: list[dict], actions: Iterable[int] = (), note: str = "") -> dict:
    """One part of the table; ``actions`` are moves that name the part itself (a seat)."""
    return {"title": title, "note": note, "actions": list(actions), "items": items}


def legal_subset(legal: set[int], candidates: Iterable[int]) -> list[int]:
    """The candidates that are legal now, in the given order."""
    return [a for a in candidates if a in legal]


def count(number: int, noun: str) -> str:
    """``1 card``, ``3 cards``."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


def seat_title(game, seat: int, me: int) -> str:
    """A seat's name, ``(you)`` for the viewer."""
    return game.seat_name(seat) + (" (you)" if seat == me else "")


# -- Scallywags -----------------------------------------------------------------------------
def scallywags_board(game, v, legal: set[int]) -> dict:
    """Coins in the middle and in each take (values as this seat knows them), the hand."""
    from plunder.envs.scallywags.components import CARD_NAMES

    a = game.actions
    n = v.num_players

    def coin(c: int) -> dict:
        """Coin ``c`` as this seat knows it (its value, or ? if unseen)."""
        value = v.coin_values[c]
        tags = ["face-up" if v.face_up[c] else "face-down"]
        if value >= 0 and not v.face_up[c]:
            tags.append("known")
        return item(f"#{c}", str(value) if value >= 0 else "?", "coin", tags,
                    legal_subset(legal, [a.coin + c]))

    middle = [coin(c) for c, owner in enumerate(v.coin_owner) if owner == -1]
    zones = [zone("Middle", middle, note=f"{len(middle)} coins")]
    for s, take in enumerate(v.takes):
        offset = (s - v.player) % n
        targets = legal_subset(legal, [a.player + offset - 1]) if offset else []
        zones.append(zone(f"{seat_title(game, s, v.player)}: take {len(take)}/{v.take_limit}",
                          [coin(c) for c in take], targets,
                          note=f"{count(v.hand_sizes[s], 'card')} in hand"))
    hand = [item(CARD_NAMES[k], f"x{copies}", "card", (),
                 legal_subset(legal, [a.play + k, a.discard + k]))
            for k, copies in enumerate(v.hand) if copies]
    zones.append(zone("Your hand", hand,
                      note=f"draw pile {v.draw_size}, discard pile {sum(v.discard)}"))
    if v.card >= 0:
        zones.append(zone(f"{game.seat_name(v.actor)} plays",
                          [item(CARD_NAMES[v.card], v.phase, "card", ["in-play"],
                                legal_subset(legal, [a.block, a.allow]))]))
    return {"zones": zones}


# -- ShipShape ------------------------------------------------------------------------------
def shipshape_board(game, v, legal: set[int]) -> dict:
    """Your crew cards (bids), every hold from above, the crate stacks, and the crate you
    place in each orientation the rules allow."""
    from plunder.envs.shipshape.engine import BID0, PLACE0
    from plunder.envs.shipshape.geometry import CODE_TOKEN, COMPOSE, ORIENTATION_NAMES

    def grid(cells) -> list[list[str]]:
        """A 3x3 tile as rows of cell tokens (G2, C1, X3, R, .)."""
        return [[CODE_TOKEN[c] for c in cells[r * 3:r * 3 + 3]] for r in range(3)]

    me = v.player
    hand = [item(str(card), "", "card", (), legal_subset(legal, [BID0 + card - 1]))
            for card in v.hands[me]] if me < len(v.hands) else []
    zones = [zone("Your crew cards", hand, note="click a card to bid it"
                  if any(i["actions"] for i in hand) else "")]
    for placing in v.placing:
        for seat, crate, lying in placing:
            if seat == me:
                choices = [item(ORIENTATION_NAMES[o], "", "crate", (), [PLACE0 + o],
                                grid(game.oriented(crate, COMPOSE[lying][o])))
                           for o in range(len(ORIENTATION_NAMES)) if PLACE0 + o in legal]
                zones.append(zone(f"Place crate #{crate}", choices,
                                  note="click the orientation to place it in"))
            else:
                zones.append(zone(f"{game.seat_name(seat)} places crate #{crate}",
                                  [item(f"#{crate}", "", "crate", (), (),
                                        grid(game.oriented(crate, lying)))]))
    holds = [item(seat_title(game, s, me), f"hold {v.holds[s]}, {v.coins[s]} coins", "hold",
                  (), (), grid(cells)) for s, cells in enumerate(v.visible)]
    zones.append(zone("Holds seen from above", holds))
    for k, stack in enumerate(v.stacks):
        group = f" (group {'AB'[k]})" if len(v.stacks) > 1 else ""
        zones.append(zone(f"Crate stack{group}, top first",
                          [item(f"#{c}", "", "crate", (), (), grid(game.oriented(c, o)))
                           for c, o in stack], note=f"{len(stack)} left"))
    hands = [item(seat_title(game, s, me), " ".join(map(str, cards)) or "-", "seat")
             for s, cards in enumerate(v.hands) if s != me]
    zones.append(zone("Other hands", hands))
    return {"zones": zones}


# -- Anchors Aweigh! --------------------------------------------------------------------------
def anchors_aweigh_board(game, v, legal: set[int]) -> dict:
    """The tile pile, the cargo supply, the current card, your ship's 14 spaces and your
    hand, and every other ship as the others see it (above deck, below deck summarised)."""
    from plunder.envs.anchors_aweigh import engine as E
    from plunder.envs.anchors_aweigh.components import (
        BACKS, COLOURS, KINDS, NEEDABLE, SPACE_NAMES,
    )
    from plunder.envs.anchors_aweigh.view import (
        CELL_CARGO, CELL_CHEST, CELL_EMPTY, CELL_TILE, CELL_UNKNOWN,
    )

    def cell(code: int, stored=()) -> tuple[str, list[str]]:
        """(text, tags) of a ship cell or hand code."""
        if code == CELL_EMPTY:
            return "empty", ["empty"]
        if code == CELL_UNKNOWN:
            return "unseen tile", ["face-down"]
        if code == CELL_CHEST:
            return "chest", ["chest"]
        if code >= CELL_CARGO:
            return f"{COLOURS[code - CELL_CARGO]} cargo", ["cargo", COLOURS[code - CELL_CARGO]]
        kind, star = divmod(code - CELL_TILE, 2)
        text = KINDS[kind]
        if stored:
            text += " [" + ", ".join(COLOURS[c] for c in stored) + "]"
        return text, ["tile"] + (["starfish"] if star else [])

    me = v.player
    pile = [item("face down", f"x{v.pile_down}", "tile", ["face-down"],
                 legal_subset(legal, [E.A_GRAB_DOWN, E.A_FLIP]))]
    for kind, name in enumerate(KINDS):
        plain, star = v.pile_up[2 * kind], v.pile_up[2 * kind + 1]
        if plain + star:
            pile.append(item(name, f"x{plain + star}" + (f" ({star} *)" if star else ""),
                             "tile", ["face-up"], legal_subset(legal, [E.A_GRAB_UP + kind])))
    zones = [zone("Tile pile", pile, note="* = starfish")]
    supply = [item(colour, f"x{v.supply[c]}", "cargo", [colour], legal_subset(
        legal, [E.A_CARGO + c, E.A_COLOUR + c, E.A_PAY + c, E.A_TOSS_CARGO + c]))
        for c, colour in enumerate(COLOURS)]
    supply.append(item("chests", f"x{v.chest_supply}", "chest"))
    supply.append(item("parrots", f"x{v.parrot_supply}", "parrot"))
    zones.append(zone("Supply", supply))
    card_moves = [E.A_RESOLVE] + [E.A_PARROT + k for k in NEEDABLE] + [
        E.A_SKIP, E.A_ENCOUNTER, E.A_FLEE, E.A_PAY_NONE]
    if v.current >= 0:
        zones.append(zone("Current card", [item(game.cards[v.current].describe(), "", "card",
                                                (), legal_subset(legal, card_moves))]))
    elif v.current_back >= 0:
        zones.append(zone("Current card", [item(f"face down: {BACKS[v.current_back]}", "",
                                                "card", ["face-down"],
                                                legal_subset(legal, card_moves))]))
    spaces = []
    for s, code in enumerate(v.own_ship):
        text, tags = cell(code, v.own_storage[s])
        moves = [E.A_STOW + s]
        if s < len(SPACE_NAMES) - 2:
            moves = [E.A_PLACE + s, E.A_STAR_RETURN + s, E.A_TOSS_ASSET + s] + moves
        spaces.append(item(SPACE_NAMES[s], text, "space",
                           tags + (["below"] if SPACE_NAMES[s][0] != "A" else []),
                           legal_subset(legal, moves)))
    text, tags = cell(v.own_hand)
    spaces.append(item("hand", text, "space", tags + ["hand"],
                       legal_subset(legal, [E.A_RETURN, E.A_DISCARD])))
    zones.append(zone(f"Your ship: {v.coins[me]} coins, {v.chests[me]} chests, "
                      f"{v.parrots[me]} parrots", spaces))
    for q in range(v.num_players):
        if q == me:
            continue
        cells = []
        for s, code in enumerate(v.above[q]):
            text, tags = cell(code, v.above_storage[q][s])
            cells.append(item(SPACE_NAMES[s], text, "space", tags))
        text, tags = cell(v.hands[q])
        cells.append(item("hand", text, "space", tags + ["hand"]))
        below = v.below[q]
        seen = ", ".join(f"{copies}x {KINDS[look // 2]}{' *' if look % 2 else ''}"
                         for look, copies in enumerate(below.looks) if copies)
        cargo = ", ".join(f"{copies}x {COLOURS[c]}" for c, copies in enumerate(below.cargo)
                          if copies)
        note = (f"below deck: {seen or 'no seen tiles'}"
                + (f", {below.unknown} unseen" if below.unknown else "")
                + f"; cargo {cargo or 'none'}")
        zones.append(zone(f"{game.seat_name(q)}: {v.coins[q]} coins, {v.chests[q]} chests, "
                          f"{v.parrots[q]} parrots", cells, note=note))
    return {"zones": zones}


# -- All Hands On Deck (battle) ---------------------------------------------------------------
def all_hands_battle_board(game, v, legal: set[int]) -> dict:
    """Your hand (discard, launch, crew), the top discard (Aargh!), the ship being launched
    and every fleet (your ships attack, the others' ships are targets)."""
    a = game.actions
    n = v.num_players
    me = v.player
    hand = [item(game.card_name(c), "", "card", (),
                 legal_subset(legal, [a.discard + c, a.master + c, a.crew + c]))
            for c in v.hand]
    zones = [zone("Your hand", hand, note=f"draw pile {v.deck_size}")]
    if v.discard:
        top = v.discard[-1]
        zones.append(zone("Discard pile", [item(game.card_name(top), f"top of {len(v.discard)}",
                                                "card", (), legal_subset(legal, [a.claim,
                                                                                 a.no_claim]))]))
    if v.launch_master >= 0:
        crew = [item(game.card_name(c), "crew", "card") for c in v.launch_crew]
        crew += [item("face down", "crew", "card", ["face-down"])
                 for _ in range(v.launch_count - len(crew))]
        zones.append(zone(f"{game.seat_name(v.turn_player)} launches",
                          [item(game.card_name(v.launch_master), "shipmaster", "card")] + crew))
    for q in range(n):
        offset = (q - me) % n
        ships = []
        for slot, ship in enumerate(v.ships[q]):
            if q == me:
                moves = [a.select + slot]
            else:
                target = a.target_index(offset, slot)
                moves = [a.attack + target, a.spy + target]
            crew = (", ".join(game.card_name(c) for c in ship.crew) if ship.crew is not None
                    else f"{ship.crew_count} face-down crew")
            tags = [] if ship.in_play else ["used"]
            if ship.keeper < 0:
                tags.append("sunk")
            elif ship.keeper != q:
                crew += f" (taken by {game.seat_name(ship.keeper)})"
            ships.append(item(game.card_name(ship.master), crew, "ship", tags,
                              legal_subset(legal, moves)))
        reserved = (f", reserved {game.card_name(v.reserved[q])}" if v.reserved[q] >= 0 else "")
        zones.append(zone(f"{seat_title(game, q, me)}: {v.totals[q]} points", ships,
                          note=f"{count(v.hand_sizes[q], 'card')} in hand{reserved}"))
    return {"zones": zones}


# -- All Hands on Deck (crew) ----------------------------------------------------------------
def all_hands_crew_board(game, v, legal: set[int]) -> dict:
    """Every drawing pile (draw, or pick a target seat), your stock (hire), your crew pile,
    the combinations you may lay out, and what each other player has laid out."""
    names = game.comps.kind_names
    combos = game.combos
    n = v.num_players
    me = v.player
    piles = []
    for q in range(n):
        offset = (q - me) % n
        pile = v.pile(q)
        top = (names[pile[-1][1]] if pile[-1][1] >= 0 else "?") if pile else "-"
        moves = [game.actions.draw + offset] + ([game.actions.target + offset - 1] if offset else [])
        piles.append(item(seat_title(game, q, me), f"{count(len(pile), 'card')}, top {top}",
                          "pile", (), legal_subset(legal, moves)))
    zones = [zone("Drawing piles", piles)]
    stock = [item(names[kind] if kind >= 0 else "?", f"from {game.seat_name(src)}'s pile",
                  "card", ["chosen"] if i in v.my_hired else [],
                  legal_subset(legal, [game.actions.hire + i]))
             for i, (kind, src) in enumerate(v.stock[me])]
    zones.append(zone("Your stock", stock))
    crew = [item(names[k], f"x{copies}", "card") for k, copies in enumerate(v.my_crew) if copies]
    zones.append(zone("Your crew pile", crew))
    lay = [item(combos[c].name, f"{combos[c].points} points", "combo", (), [game.actions.lay + c])
           for c in range(len(combos)) if game.actions.lay + c in legal]
    if lay:
        zones.append(zone("Lay out", lay))
    for q in range(n):
        laid = [item(combos[c].name, f"{combos[c].points} points", "combo")
                for c in list(v.laid[q]) + list(v.final[q])]
        zones.append(zone(f"{seat_title(game, q, me)}: laid out", laid,
                          note=f"{count(v.crew_sizes[q], 'card')} in the crew pile, "
                               f"{count(v.curses[q], 'curse')}"))
    return {"zones": zones}


BOARDS: dict[str, Callable[[Any, Any, set[int]], dict]] = {
    "scallywags": scallywags_board,
    "shipshape": shipshape_board,
    "anchors_aweigh": anchors_aweigh_board,
    "all_hands_battle": all_hands_battle_board,
    "all_hands_crew": all_hands_crew_board,
}


def board(game, view, legal: Iterable[int]) -> dict:
    """The board of ``view`` with ``legal`` moves clickable (no zones for a game without a
    builder: the page then shows the text rendering and move buttons only)."""
    builder = BOARDS.get(game.name)
    return builder(game, view, set(int(a) for a in legal)) if builder else {"zones": []}
