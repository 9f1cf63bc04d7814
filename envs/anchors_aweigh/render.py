"""Text rendering of an Anchors Aweigh! table, from one seat or omniscient."""

from __future__ import annotations

from plunder.envs.core.board import (
    board_of, count, item, legal_subset, seat_key, seat_title, stat, zone,
)

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
    for lk, copies in enumerate(below.looks):
        if copies:
            k, star = divmod(lk, 2)
            parts.append(f"{copies}x {ABBR[k]}" + ("*" if star else ""))
    if below.unknown:
        parts.append(f"{below.unknown}x ??")
    cargo = ", ".join(f"{n}x {CABBR[c]}" for c, n in enumerate(below.cargo) if n)
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
def _card(game, c: int, actions=(), tags=()) -> dict:
    """Adventure card ``c`` face up: its type, what it needs, what it gives."""
    from .components import CARD_TYPES, KINDS, PIRATES
    card = game.cards[c]
    names = KINDS if card.needs_assets else COLOURS
    gets = ([count(card.coins, "coin")] if card.coins else []) \
        + [f"{COLOURS[x]} cargo" for x in card.cargo] \
        + ([f"{card.grey} cargo of any colour"] if card.grey else [])
    stats = [("strength", card.strength)] if card.type == PIRATES else []
    stats += [stat("coin", card.coins)] if card.coins else []
    kind = CARD_TYPES[card.type]
    return item(kind.title(), "needs " + (" + ".join(names[x] for x in card.needs) or "nothing"),
                "card", [f"type-{kind}", *tags], actions, stats=stats,
                text=("gives " + ", ".join(gets)) if gets else "", key=f"card:{c}")


def _back(b: int, actions=(), detail: str = "", key: str = "") -> dict:
    """A face-down adventure card: only its back shows."""
    from .components import CARD_TYPES
    name = BACKS[b]
    kind = next(t for t in CARD_TYPES if name.startswith(t))
    return item(name.title(), detail, "card", ["face-down", f"type-{kind}"], actions, key=key)


def _space(code: int, stored=(), secret: bool = False) -> tuple[str, list[str]]:
    """(what lies there, tags) of a ship cell or hand code."""
    from .components import KINDS
    if code == CELL_EMPTY:
        return "", ["empty"]
    if code == CELL_UNKNOWN:
        return "unseen tile", ["face-down"]
    if code == CELL_CHEST:
        return "chest", ["chest"]
    if code >= CELL_CARGO:
        colour = COLOURS[code - CELL_CARGO]
        return f"{colour} cargo", ["cargo", colour]
    kind, star = divmod(code - CELL_TILE, 2)
    text = KINDS[kind] + (" + " + ", ".join(COLOURS[c] for c in stored) if stored else "")
    return text, ["tile", f"tile-{KINDS[kind]}"] + (["starfish"] if star else []) \
        + (["secret"] if secret else [])


def _ship(game, v, q: int, cells, storage, hand: int, legal: set[int], me: int | None,
          secret=None) -> dict:
    """Seat ``q``'s ship: every space in ``cells`` (8 above deck only, when the board's
    reader cannot see below), the hand, and below deck as everyone knows it."""
    from . import engine as E
    items = []
    for s, code in enumerate(cells):
        text, tags = _space(code, storage[s], bool(secret and secret[s]))
        moves = []
        if q == me:
            moves = [E.A_STOW + s]
            if s < len(SPACE_NAMES) - 2:
                moves = [E.A_PLACE + s, E.A_STAR_RETURN + s, E.A_TOSS_ASSET + s] + moves
        items.append(item(SPACE_NAMES[s], text, "space", tags, legal_subset(legal, moves),
                          seat=q, key=f"space:{q}:{s}",
                          group="above deck" if s < 8 else "below deck"))
    if len(cells) == 8:
        below = v.below[q]
        for look, copies in enumerate(below.looks):
            for _ in range(copies):
                text, tags = _space(CELL_TILE + look)
                items.append(item("below", text, "space", tags, seat=q, group="below deck"))
        for _ in range(below.unknown):
            items.append(item("below", "unseen tile", "space", ["face-down"], seat=q,
                              group="below deck"))
        for c, copies in enumerate(below.cargo):
            for _ in range(copies):
                items.append(item("below", f"{COLOURS[c]} cargo", "space", ["cargo", COLOURS[c]],
                                  seat=q, group="below deck"))
    text, tags = _space(hand, (), bool(secret and secret[-1]))
    items.append(item("in hand", text, "space", tags + ["hand"],
                      legal_subset(legal, [E.A_RETURN, E.A_DISCARD]) if q == me else [],
                      seat=q, key=f"hand:{q}", group="hand"))
    marks = (["captain"] if v.captain == q else []) + \
        (["meddlesome monkey"] if v.meddlesome[q] else []) + \
        (["ship full"] if v.full[q] else [])
    last = OUTCOMES[v.outcome[q]]
    note = (f"{count(v.coins[q], 'coin')}, {count(v.chests[q], 'chest')}, "
            f"{count(v.parrots[q], 'parrot')}"
            + (f"; {', '.join(marks)}" if marks else "")
            + (f"; last decision: {last}" if last != "none" else ""))
    if len(cells) == 8:
        note += "; below deck behind the screen: what went in, not where"
    return zone(seat_title(game, q, me), items, note=note, seat=q, layout="ship")


def _draw(game, v, legal: set[int], me: int | None, ships=None, pile_down=None,
          deck=None, current: int = -1) -> dict:
    """The table of view ``v`` from seat ``me`` (None: omniscient, with every seat's own
    view in ``ships``, the face-down pile's looks, the deck's order and the ``current``
    card's front while it lies face down)."""
    from . import engine as E
    from .components import KINDS, NEEDABLE

    pile = [item("face down", f"x{v.pile_down}", "tile", ["face-down"],
                 legal_subset(legal, [E.A_GRAB_DOWN, E.A_FLIP]), key="pile:down",
                 text=_pile(pile_down) if pile_down is not None else "")]
    for kind, name in enumerate(KINDS):
        plain, star = v.pile_up[2 * kind], v.pile_up[2 * kind + 1]
        if plain + star:
            pile.append(item(name, f"x{plain + star}" + (f", {star} starfish" if star else ""),
                             "tile", ["face-up", f"tile-{name}"] + (["starfish"] if star else []),
                             legal_subset(legal, [E.A_GRAB_UP + kind]), key=f"pile:{kind}"))
    zones = []
    card_moves = [E.A_RESOLVE] + [E.A_PARROT + k for k in NEEDABLE] + [
        E.A_SKIP, E.A_ENCOUNTER, E.A_FLEE, E.A_PAY_NONE]
    cards = []
    if v.current >= 0:
        cards.append(_card(game, v.current, legal_subset(legal, card_moves), ["current"]))
    elif current >= 0:
        cards.append(_card(game, current, (), ["current", "revealed"]))
        cards[-1]["detail"] = f"face down in the game; {cards[-1]['detail']}"
    elif v.current_back >= 0:
        cards.append(_back(v.current_back, legal_subset(legal, card_moves), "current card",
                           key="card:current"))
    fronts = deck if deck is not None else v.fronts
    if fronts is not None:
        cards += [_card(game, c, (), ["to-come"]) for c in fronts if c != v.current]
    else:
        cards += [_back(b, (), f"x{copies}") for b, copies in enumerate(v.backs_left) if copies]
    if v.queue:
        cards.append(item("contracts at the bottom", ", ".join(COLOURS[c] for c in v.queue),
                          "pile", ["face-down"]))
    status = f"round {v.round} of 2, {PHASES[v.phase]}"
    if cards:
        zones.append(zone("Adventure cards", cards, key="cards",
                          note=f"{len(v.used)} played" + ("" if fronts is not None else
                                                          "; fronts hidden since the call")))
    zones.append(zone("Tile pile", pile, key="pile"))
    supply = [item(colour, f"x{v.supply[c]}", "cargo", [colour], legal_subset(
        legal, [E.A_CARGO + c, E.A_COLOUR + c, E.A_PAY + c, E.A_TOSS_CARGO + c]),
        key=f"supply:{c}") for c, colour in enumerate(COLOURS)]
    supply.append(item("chests", f"x{v.chest_supply}", "token", ["chest"], key="chests"))
    supply.append(item("parrots", f"x{v.parrot_supply}", "token", ["parrot"],
                       key="parrots"))
    zones.append(zone("Supply", supply, key="supply"))
    if v.cargo_queue:
        zones.append(zone("Cargo to hand out", [
            item("grey" if u == 4 else COLOURS[u], game.seat_name(p), "cargo",
                 ["grey" if u == 4 else COLOURS[u]], seat=p) for p, u in v.cargo_queue],
            key="cargo-queue"))
    for q in range(v.num_players):
        if ships is not None:
            own = ships[q]
            zones.append(_ship(game, v, q, own.own_ship, own.own_storage, own.own_hand,
                               legal, me, own.own_secret))
        elif q == me:
            zones.append(_ship(game, v, q, v.own_ship, v.own_storage, v.own_hand, legal, me))
        else:
            zones.append(_ship(game, v, q, v.above[q], v.above_storage[q], v.hands[q],
                               legal, me))
    return board_of(zones, status)


def board(game, v, legal: set[int], end=None) -> dict:
    """The adventure cards, the tile pile, the supply, your ship's 14 spaces and your hand,
    and every other ship as the others see it (above deck; below deck what went in)."""
    return _draw(game, v, legal, v.player)


def full_board(game, state) -> dict:
    """The omniscient board: every ship whole (each seat's own view of it), the face-down
    pile's tiles and the cards to come in their order."""
    down = [0] * (2 * NUM_KINDS)
    for t in state.pile_down:
        down[game.tile_look[t]] += 1
    ships = [state.view(q) for q in range(game.num_players)]
    return _draw(game, ships[0], set(), None, ships=ships, pile_down=down,
                 deck=list(state.deck), current=state.current)


def last_keys(game, v, seat: int, action: int) -> list[str]:
    """What a move touched: the pile, the space, the cargo, the card."""
    from . import engine as E
    if action is None:      # a secret choice, or a space below deck
        return []
    if action in (E.A_GRAB_DOWN, E.A_FLIP):
        return ["pile:down"]
    if E.A_GRAB_UP <= action < E.A_FLIP:
        return [f"pile:{action - E.A_GRAB_UP}"]
    for first, width in ((E.A_PLACE, 12), (E.A_STAR_RETURN, 12), (E.A_STOW, 14),
                         (E.A_TOSS_ASSET, 12)):
        if first <= action < first + width:
            return [f"space:{seat}:{action - first}"]
    for first in (E.A_CARGO, E.A_COLOUR, E.A_PAY, E.A_TOSS_CARGO):
        if first <= action < first + 4:
            return [f"supply:{action - first}"]
    if action in (E.A_RETURN, E.A_DISCARD):
        return [f"hand:{seat}"]
    if E.A_SKIP <= action <= E.A_PAY_NONE:
        return ["card:current"] + ([f"card:{v.current}"] if v.current >= 0 else [])
    return [seat_key(seat)]
