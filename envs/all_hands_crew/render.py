"""The web page's board of an All Hands on Deck (crew) table, from one seat."""

from __future__ import annotations

from plunder.envs.core.board import count, item, legal_subset, seat_title, zone


def board(game, v, legal: set[int]) -> dict:
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
        moves = [game.A_DRAW + offset] + ([game.A_TARGET + offset - 1] if offset else [])
        piles.append(item(seat_title(game, q, me), f"{count(len(pile), 'card')}, top {top}",
                          "pile", (), legal_subset(legal, moves)))
    zones = [zone("Drawing piles", piles)]
    stock = [item(names[kind] if kind >= 0 else "?", f"from {game.seat_name(src)}'s pile",
                  "card", ["chosen"] if i in v.my_hired else [],
                  legal_subset(legal, [game.A_HIRE + i]))
             for i, (kind, src) in enumerate(v.stock[me])]
    zones.append(zone("Your stock", stock))
    crew = [item(names[k], f"x{copies}", "card") for k, copies in enumerate(v.my_crew) if copies]
    zones.append(zone("Your crew pile", crew))
    lay = [item(combos[c].name, f"{combos[c].points} points", "combo", (), [game.A_LAY + c])
           for c in range(len(combos)) if game.A_LAY + c in legal]
    if lay:
        zones.append(zone("Lay out", lay))
    for q in range(n):
        laid = [item(combos[c].name, f"{combos[c].points} points", "combo")
                for c in list(v.laid[q]) + list(v.final[q])]
        zones.append(zone(f"{seat_title(game, q, me)}: laid out", laid,
                          note=f"{count(v.crew_sizes[q], 'card')} in the crew pile, "
                               f"{count(v.curses[q], 'curse')}"))
    return {"zones": zones}
