"""Text rendering of an All Hands on Deck table, from one seat or omniscient, and the web
page's board of it."""

from __future__ import annotations

from plunder.envs.core.board import count, item, legal_subset, seat_title, zone

from .components import NUM_CREW, NUM_KINDS
from .view import AllHandsCrewView


#: the phases of a round, in words
PHASE_WORDS = {"draw": "drawing stock cards", "spyglass": "Spyglass draws",
               "hire": "hiring (everyone at once)", "lay": "laying out combinations",
               "target": "choosing a target", "over": "game over"}


def describe_view(game, v: AllHandsCrewView) -> str:
    """A readable text table of the table from ``v.player``'s seat."""
    names = game.comps.short_names
    combos = game.combos
    n = v.num_players
    me = v.player

    def name(q: int) -> str:
        return game.seat_name(q) + (" (you)" if q == me else "")

    head = (f"All Hands on Deck — seen by {name(me)}, {n} players; round {v.round}: "
            f"{PHASE_WORDS.get(v.phase, v.phase)}"
            + (" (open stock)" if v.open_stock else "")
            + f"; start player {name(v.start)}")
    if v.acting:
        head += "; to act: " + ", ".join(name(q) for q in v.acting)
    if v.pending:
        head += f"; choosing the target of {v.pending.replace('_', ' ')}"
    rows = [head,
            "| seat | score | curses | captains | pile | pile cards you know (1 = top) | "
            "stock | crew | laid out |",
            "|---|---|---|---|---|---|---|---|---|"]
    for q in range(n):
        laid = list(v.laid[q]) + list(v.final[q])
        score = (sum(combos[c].points for c in laid)
                 + sum(game.comps.single_value(k) * v.final_left[q][k]
                       for k in range(NUM_CREW, NUM_KINDS))
                 + game.comps.curse * v.curses[q])
        caps = (sum(combos[c].captains for c in laid) + sum(v.final_left[q][NUM_CREW:]))
        pile = v.pile(q)
        known = []
        for depth, (_, k) in enumerate(reversed(pile)):
            if k >= 0:
                known.append(f"{depth + 1}:{names[k]}")
        stock = ", ".join((names[k] if k >= 0 else "unseen") + " from "
                          + ("your" if s == me else f"{game.seat_name(s)}'s") + " pile"
                          + (" (picked)" if q == me and i in v.my_hired else "")
                          for i, (k, s) in enumerate(v.stock[q]))
        if q == me:
            crew = ", ".join(f"{c} {names[k]}" for k, c in enumerate(v.my_crew) if c)
        else:
            seen = ", ".join(f"{c} {names[k]}" for k, c in enumerate(v.crew_known[q]) if c)
            if seen and v.crew_maybe_gone[q]:
                seen += f", but {v.crew_maybe_gone[q]} of these may have been snatched"
            crew = count(v.crew_sizes[q], "card") + (f" (incl. {seen})" if seen else "")
        marks = []
        if v.keep[q] > 1:
            marks.append(f"keeps {v.keep[q]}")
        if v.spy_left[q]:
            marks.append(f"spyglass x{v.spy_left[q]}")
        if v.draw_target[q] == game.comps.short_rations_stock and v.phase != "over":
            marks.append("short rations")
        for label, vals in (("double hire next", v.next_double), ("spyglass next", v.next_spy),
                            ("short rations next", v.next_short)):
            if vals[q]:
                marks.append(label)
        seat = name(q) + (f" [{', '.join(marks)}]" if marks else "")
        laid_txt = "; ".join(combos[c].name for c in laid) or "-"
        if v.phase == "over":
            left = ", ".join(f"{c} {names[k]}" for k, c in enumerate(v.final_left[q]) if c)
            laid_txt += f" / left over: {left or '-'}"
        rows.append(f"| {seat} | {score} | {v.curses[q]} | {caps} | {len(pile)} | "
                    f"{' '.join(known) or '-'} | {stock or '-'} | {crew or '-'} | {laid_txt} |")
    if v.events:
        text = []
        for seat, what, arg, kind in v.events:
            who = game.seat_name(seat)
            if what == "lay":
                text.append(f"{who} laid {combos[arg].name}")
            elif what == "draw":
                pile = "their own" if arg == seat else f"{game.seat_name(arg)}'s"
                text.append(f"{who} drew from {pile} pile")
            elif what == "snatch":
                got = names[kind] if kind >= 0 else "a card"
                text.append(f"{who} snatched {got} from {game.seat_name(arg)}")
            elif what in ("curse", "short_rations"):
                text.append(f"{who} used {what.replace('_', ' ')} on {game.seat_name(arg)}")
            elif what == "hire":
                text.append(f"{who} hired {count(arg, 'card')}, put {kind} back")
            elif what == "forfeit":
                text.append(f"{who} forfeited {arg.replace('_', ' ')}")
        rows.append("this round: " + "; ".join(text))
    return "\n".join(rows)


def describe_full(state) -> str:
    """Omniscient text: every pile, stock and crew shown."""
    g = state.game
    names = g.comps.short_names
    lines = [f"All Hands on Deck — omniscient, {g.num_players} players; round {state.round}: "
             f"{PHASE_WORDS.get(state.phase, state.phase)}"
             + (" (open stock)" if g.open_stock else "")
             + f"; start player {g.seat_name(state.start)}; to act: "
             + (", ".join(g.seat_name(q) for q in state.current_players()) or "-")]
    for p in range(g.num_players):
        pile = " ".join(names[k] + ("*" if m else "") for k, m in
                        zip(state.piles[p], state.pile_known[p]))
        lines.append(f"{g.seat_name(p)}: score {state.points(p)} (curses {state.curses[p]}), "
                     f"captains {state.captains(p)}")
        lines.append(f"  drawing pile ({len(state.piles[p])}, bottom->top, *=known): {pile}")
        stock = ", ".join(f"{names[k]} from {g.seat_name(s)}'s pile"
                          + (" (picked)" if i in state.hired[p] else "")
                          for i, (k, s) in enumerate(zip(state.stock[p], state.stock_src[p])))
        lines.append(f"  stock: {stock or '-'}")
        crew = ", ".join(f"{c} {names[k]}" for k, c in enumerate(state.crew[p]) if c)
        lines.append(f"  crew pile: {crew or '-'}")
        laid = "; ".join(g.combos[c].name for c in state.laid[p] + state.final[p])
        lines.append(f"  laid out: {laid or '-'}")
        left = ", ".join(f"{c} {names[k]}" for k, c in enumerate(state.final_left[p]) if c)
        if state.phase == "over":
            lines.append(f"  left over: {left or '-'}")
    lines.append("out of the game: " + ", ".join(
        f"{c} {names[k]}" for k, c in enumerate(state.out) if c))
    return "\n".join(lines)


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
