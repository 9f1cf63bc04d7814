"""Text rendering of an Anchors Aweigh! table, from one seat or omniscient."""

from __future__ import annotations

from plunder.envs.core.board import item, legal_subset, zone

from .components import BACKS, COLOURS, NUM_KINDS, SPACE_NAMES
from .engine import CARGO, CHEST, EMPTY, OUTCOMES, PHASES
from .view import CELL_CARGO, CELL_CHEST, CELL_EMPTY, CELL_TILE, CELL_UNKNOWN

ABBR = ("cann", "swrd", "sail", "shov", "spyg", "rope", "comp", "map", "stor", "monk")
CABBR = ("blu", "wht", "org", "pur")


def _cell(code: int, stored=()) -> str:
    if code == CELL_EMPTY:
        return "."
    if code == CELL_UNKNOWN:
        return "??"
    if code == CELL_CHEST:
        return "CHEST"
    if code >= CELL_CARGO:
        return CABBR[code - CELL_CARGO]
    k, star = divmod(code - CELL_TILE, 2)
    text = ABBR[k] + ("*" if star else "")
    if stored:
        text += "[" + "".join(CABBR[c][0] for c in stored) + "]"
    return text


def _below_text(below) -> str:
    """Another ship's below deck as everyone knows it: tiles seen, unseen, cargo."""
    parts = []
    for lk, count in enumerate(below.looks):
        if count:
            k, star = divmod(lk, 2)
            parts.append(f"{count}x {ABBR[k]}" + ("*" if star else ""))
    if below.unknown:
        parts.append(f"{below.unknown}x ??")
    cargo = ", ".join(f"{count}x {CABBR[c]}" for c, count in enumerate(below.cargo) if count)
    return (", ".join(parts) or "no tiles") + "; cargo: " + (cargo or "none")


def _table(game, rows) -> list[str]:
    head = "| seat | coins | chests | parrot | hand | " + " | ".join(SPACE_NAMES) + " |"
    out = [head, "|" + "---|" * (5 + len(SPACE_NAMES))]
    for r in rows:
        out.append("| " + " | ".join(str(x) for x in r) + " |")
    return out


def _pile(counts) -> str:
    parts = []
    for k in range(NUM_KINDS):
        total = counts[2 * k] + counts[2 * k + 1]
        if total:
            parts.append(f"{ABBR[k]} {total}" + (f" ({counts[2 * k + 1]}*)"
                                                 if counts[2 * k + 1] else ""))
    return ", ".join(parts) or "-"


def _cards_text(game, ids) -> str:
    return "; ".join(game.cards[c].describe() for c in ids) or "-"


def _header(game, who, rnd, phase, turns, captain, acting) -> list[str]:
    cap = f"player_{captain}" if captain >= 0 else "none yet"
    act = ", ".join(f"player_{p}" for p in acting) or "-"
    return [f"Anchors Aweigh! - {who}; round {rnd}, {PHASES[phase]}, turn {turns}",
            f"captain: {cap}; to act: {act}   (* = starfish, ?? = unseen tile, "
            "stor[..] = cargo on storage, ~ = behind the screen)"]


def describe_view(game, view) -> str:
    """The table as ``view.player`` sees it."""
    lines = _header(game, f"seen by player_{view.player}", view.round, view.phase,
                    view.turns, view.captain, view.acting)
    lines.append(f"pile: {view.pile_down} face down; face up: {_pile(view.pile_up)}")
    lines.append("supply: " + ", ".join(f"{c} {v}" for c, v in zip(COLOURS, view.supply))
                 + f"; chests {view.chest_supply}; parrots {view.parrot_supply}")
    if view.fronts is not None:
        lines.append(f"cards to come ({len(view.fronts)}): {_cards_text(game, view.fronts)}")
    else:
        lines.append("cards to come: fronts hidden; backs: " + ", ".join(
            f"{BACKS[b]} x{v}" for b, v in enumerate(view.backs_left) if v))
    if view.queue:
        lines.append("contracts at the bottom: " + ", ".join(COLOURS[c] for c in view.queue))
    if view.current >= 0:
        lines.append(f"current card: {game.cards[view.current].describe()}")
    elif view.current_back >= 0:
        lines.append(f"current card: face down, back {BACKS[view.current_back]}")
    if view.cargo_queue:
        lines.append("cargo to hand out: " + ", ".join(
            f"player_{p}:{'grey' if u == 4 else COLOURS[u]}" for p, u in view.cargo_queue))
    rows = []
    below_lines = []
    for q in range(view.num_players):
        name = f"player_{q}" + (" (you)" if q == view.player else "")
        if q == view.player:
            cells = [_cell(c, view.own_storage[s]) for s, c in enumerate(view.own_ship)]
        else:
            cells = [_cell(c, view.above_storage[q][s]) for s, c in enumerate(view.above[q])]
            cells += ["~"] * (len(SPACE_NAMES) - len(cells))
            below_lines.append(f"player_{q} below deck: {_below_text(view.below[q])}")
        rows.append([name, view.coins[q], view.chests[q], view.parrots[q],
                     _cell(view.hands[q])] + cells)
    lines += _table(game, rows)
    lines += below_lines
    last = [f"{game.seat_name(q)} {OUTCOMES[o]}" for q, o in enumerate(view.outcome) if o]
    if last:
        lines.append("last decisions: " + ", ".join(last))
    return "\n".join(lines)


def describe_full(state) -> str:
    """Omniscient table: every tile, the deck order, scores."""
    g = state.game
    lines = _header(g, "omniscient", state.round, state.phase, state.turns, state.captain,
                    state.current_players())
    counts = [0] * (2 * NUM_KINDS)
    for t in state.pile_up:
        counts[g.tile_look[t]] += 1
    down = [0] * (2 * NUM_KINDS)
    for t in state.pile_down:
        down[g.tile_look[t]] += 1
    lines.append(f"pile face up: {_pile(counts)}")
    lines.append(f"pile face down ({len(state.pile_down)}): {_pile(down)}")
    lines.append("supply: " + ", ".join(f"{c} {v}" for c, v in zip(COLOURS, state.supply))
                 + f"; chests {state.chest_supply}; parrots {state.parrot_supply}")
    lines.append(f"deck (top first): {_cards_text(g, state.deck)}")
    if state.queue:
        lines.append(f"contracts at the bottom: {_cards_text(g, state.queue)}")
    if state.current >= 0:
        lines.append(f"current card ({'revealed' if state.revealed else 'face down'}): "
                     f"{g.cards[state.current].describe()}")
    rows = []
    for q in range(g.num_players):
        cells = []
        for s, c in enumerate(state.ships[q]):
            if c == EMPTY:
                cells.append(".")
            elif c == CHEST:
                cells.append("CHEST")
            elif c >= CARGO:
                cells.append(CABBR[c - CARGO])
            else:
                cells.append(_cell(CELL_TILE + g.tile_look[c], state.stor[q][s])
                             + ("'" if state.secret[c] else ""))
        h = state.hand[q]
        hand = "." if h < 0 else _cell(CELL_TILE + g.tile_look[h]) + ("'" if state.secret[h]
                                                                     else "")
        rows.append([f"player_{q} ({state.coins[q] + 10 * state.chests[q]} pts)",
                     state.coins[q], state.chests[q], state.parrots[q], hand] + cells)
    lines += _table(g, rows)
    lines.append("(' = seen only by its owner)  last: " + ", ".join(
        f"player_{q} {OUTCOMES[o]}" for q, o in enumerate(state.outcome)))
    return "\n".join(lines)


# -- the web page's board (plunder.envs.core.board) ------------------------------------
def board(game, v, legal: set[int]) -> dict:
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
