"""Text rendering of All Hands On Deck: one seat's view, or the omniscient table."""

from __future__ import annotations

from plunder.envs.core.board import count, item, legal_subset, seat_title, zone

from .view import AllHandsBattleView

_DECISION_TEXT = {
    "turn": "launch a ship or discard",
    "crew": "choose crew for the ship being launched",
    "discard": "discard to end the turn",
    "claim": "Aargh! (claim the top discard) or pass",
    "select": "choose a ship to attack with, or pass",
    "aim": "choose the ship to attack (or spy first)",
    "over": "game over",
}


def _names(game, cards) -> str:
    return ", ".join(game.cards[c].name for c in cards) if cards else "-"


def _ship_rows(game, ships):
    rows = []
    for q, fleet in enumerate(ships):
        for j, sh in enumerate(fleet):
            status = "in play" if sh.in_play else (
                "sunk" if sh.keeper < 0 else f"taken by P{sh.keeper}" if sh.keeper != q
                else "kept (fought)" if sh.revealed else "kept")
            if sh.crew is None:
                crew = " ".join("?" for _ in range(sh.crew_count))
            else:
                crew = _names(game, sh.crew)
                if sh.spied and not sh.revealed:
                    crew += "  (seen by your Spy)"
            rows.append(f"| P{q} | {j + 1} | {game.cards[sh.master].name} | {status} | {crew} |")
    return rows


def describe_view(game, view: AllHandsBattleView) -> str:
    """The table as ``view.player`` sees it (a markdown-style text table)."""
    n = view.num_players
    p = view.player
    lines = [f"All Hands On Deck — round {view.round}, {view.phase} — you are P{p}"]
    lines.append("| seat | score | last round | hand | reserved | claimed cards in hand |")
    lines.append("|---|---|---|---|---|---|")
    for q in range(n):
        mark = []
        if q == p:
            mark.append("you")
        if q == view.first_fleet:
            mark.append("first fleet")
        if view.passed[q] and view.phase == "battle":
            mark.append("passed")
        label = f"P{q}" + (f" ({', '.join(mark)})" if mark else "")
        last = view.last_round[q] if view.last_round else "-"
        res = game.cards[view.reserved[q]].name if view.reserved[q] >= 0 else "-"
        lines.append(f"| {label} | {view.totals[q]} | {last} | {view.hand_sizes[q]} | {res} | "
                     f"{_names(game, view.known_with[q])} |")
    if view.actor >= 0:
        who = "you" if view.actor == p else f"P{view.actor}"
        lines.append(f"To act: {who} — {_DECISION_TEXT[view.decision]}")
    else:
        lines.append("Game over.")
    lines.append(f"Draw pile: {count(view.deck_size, 'card')} · discard pile ({len(view.discard)}), "
                 f"top last: {_names(game, view.discard[-8:])}")
    lines.append(f"Your hand: {_names(game, view.hand)}")
    if view.launch_master >= 0:
        crew = _names(game, view.launch_crew) if view.launch_crew or view.turn_player == p \
            else f"{view.launch_count} face down"
        lines.append(f"Launching: {game.cards[view.launch_master].name} with crew {crew}")
    rows = _ship_rows(game, view.ships)
    if rows:
        lines.append("| seat | ship | shipmaster | status | crew |")
        lines.append("|---|---|---|---|---|")
        lines.extend(rows)
    if any(view.plunder):
        lines.append("Plunder: " + "; ".join(f"P{q}: {_names(game, x)}"
                                             for q, x in enumerate(view.plunder) if x))
    if view.events:
        lines.append("Recent: " + " / ".join(view.events[-5:]))
    return "\n".join(lines)


def describe_full(state) -> str:
    """Omniscient text: every hand, crew and the draw pile."""
    game = state.game
    lines = [f"All Hands On Deck (omniscient) — round {state.round}, {state.phase}, "
             f"decision {state.decision}, actor P{state.actor}" if state.actor >= 0 else
             f"All Hands On Deck (omniscient) — round {state.round}, game over"]
    lines.append("| seat | score | hand | reserved | plunder |")
    lines.append("|---|---|---|---|---|")
    for q in range(game.num_players):
        res = game.cards[state.reserved[q]].name if state.reserved[q] >= 0 else "-"
        lines.append(f"| P{q} | {state.totals[q]} | {_names(game, state.hands[q])} | {res} | "
                     f"{_names(game, state.plunder[q])} |")
    lines.append(f"Draw pile (top last): {_names(game, state.deck)}")
    lines.append(f"Discard pile (top last): {_names(game, state.discard)}")
    if state.launch_master >= 0:
        lines.append(f"Launching: {game.cards[state.launch_master].name} with "
                     f"{_names(game, state.launch_crew)}")
    full = state.view(0)
    ships = tuple(tuple(sh._replace(crew=tuple(state.ships[q][j][1]), spied=False)
                        for j, sh in enumerate(fleet)) for q, fleet in enumerate(full.ships))
    rows = _ship_rows(game, ships)
    if rows:
        lines.append("| seat | ship | shipmaster | status | crew |")
        lines.append("|---|---|---|---|---|")
        lines.extend(rows)
    if state.events:
        lines.append("Recent: " + " / ".join(state.events[-5:]))
    return "\n".join(lines)


# -- the web page's board (plunder.envs.core.board) ------------------------------------
def board(game, v, legal: set[int]) -> dict:
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
