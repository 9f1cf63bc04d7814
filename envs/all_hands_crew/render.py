"""Text rendering of an All Hands on Deck table, from one seat or omniscient, and the web
page's board of it."""

from __future__ import annotations

from plunder.envs.core.board import (
    board_of, count, item, legal_subset, seat_key, seat_title, stat, zone,
)

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
            crew = ", ".join(count(c, names[k]) for k, c in enumerate(v.my_crew) if c)
        else:
            seen = ", ".join(count(c, names[k]) for k, c in enumerate(v.crew_known[q]) if c)
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
            left = ", ".join(count(c, names[k]) for k, c in enumerate(v.final_left[q]) if c)
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
        crew = ", ".join(count(c, names[k]) for k, c in enumerate(state.crew[p]) if c)
        lines.append(f"  crew pile: {crew or '-'}")
        laid = "; ".join(g.combos[c].name for c in state.laid[p] + state.final[p])
        lines.append(f"  laid out: {laid or '-'}")
        left = ", ".join(count(c, names[k]) for k, c in enumerate(state.final_left[p]) if c)
        if state.phase == "over":
            lines.append(f"  left over: {left or '-'}")
    lines.append("out of the game: " + ", ".join(
        count(c, names[k]) for k, c in enumerate(state.out) if c))
    return "\n".join(lines)


# -- the web page's board (plunder.envs.core.board) ------------------------------------
def _kind_card(game, k: int, detail: str = "", tags=(), actions=(), seat=None, group="",
               key="") -> dict:
    """A crew or captain card of kind ``k`` (-1: face down)."""
    if k < 0:
        return item("face down", detail, "card", ["face-down"], actions, seat=seat,
                    group=group, key=key)
    captain = k >= NUM_CREW
    single = game.comps.single_value(k)
    return item(game.comps.kind_names[k], detail, "card",
                ["captain" if captain else "crew", f"crew-kind-{k}", *tags], actions,
                stats=[("alone", single)] if captain else [],
                text="a captain: alone at the end it costs points" if captain else "",
                seat=seat, group=group, key=key)


def _combo(game, c: int, actions=(), seat=None, group="") -> dict:
    """Combination ``c`` of the score sheet: its name, points, action."""
    combo = game.combos[c]
    action = combo.action.replace("_", " ")
    cards = ", ".join(count(n, game.comps.kind_names[k]) for k, n in enumerate(combo.counts)
                      if n)
    return item(combo.name, cards, "combo", [combo.category], actions,
                stats=[stat("point", combo.points)],
                text=f"action: {action}" if combo.action != "none" else "", seat=seat,
                group=group, key=f"combo:{seat}:{c}")


def _draw(game, v, legal: set[int], me: int | None, full=None) -> dict:
    """The table of view ``v`` from seat ``me`` (None: omniscient, ``full`` the state:
    every pile, stock and crew pile face up)."""
    a = game.actions
    n = v.num_players
    ref = v.actor if v.actor >= 0 else (me if me is not None else 0)
    zones = []
    piles = []
    for q in range(n):
        offset = (q - ref) % n
        moves = [a.draw + offset] + ([a.target + offset - 1] if offset else [])
        if full is not None:
            cards = [_kind_card(game, k, "", ["revealed"], seat=q) for k in full.piles[q]]
            top = cards[-1]["label"] if cards else "-"
        else:
            pile = v.pile(q)
            top = (game.comps.kind_names[pile[-1][1]] if pile[-1][1] >= 0 else "face down") \
                if pile else "empty"
        size = len(full.piles[q]) if full is not None else len(v.pile_masks[q])
        piles.append(item(seat_title(game, q, me), f"{count(size, 'card')}, top: {top}",
                          "pile", [] if top not in ("face down", "empty") else ["face-down"],
                          legal_subset(legal, moves), seat=q, key=f"pile:{q}"))
    zones.append(zone("Drawing piles", piles, key="piles",
                      note="click a pile to draw from it" if any(p["actions"] for p in piles)
                      else ""))
    lay = [_combo(game, c, [a.lay + c], me) for c in range(len(game.combos))
           if a.lay + c in legal]
    if lay:
        zones.append(zone("Lay out", lay, key="lay", note="the combinations your crew pile "
                                                          "makes; click one to lay it out"))
    for q in range(n):
        items = []
        if full is not None:
            stock = [(k, src) for k, src in zip(full.stock[q], full.stock_src[q])]
            hired = set(full.hired[q])
        else:
            stock = v.stock[q]
            hired = set(v.my_hired) if q == me else set()
        for i, (kind, src) in enumerate(stock):
            moves = legal_subset(legal, [a.hire + i]) if q == me else []
            items.append(_kind_card(game, kind, f"from {game.seat_name(src)}'s pile",
                                    ["chosen"] if i in hired else [], moves, seat=q,
                                    group="stock", key=f"stock:{q}:{i}"))
        crew = full.crew[q] if full is not None else (v.my_crew if q == me else None)
        if crew is not None:
            items += [_kind_card(game, k, f"x{copies}", (), seat=q, group="crew pile")
                      for k, copies in enumerate(crew) if copies]
        else:
            known = [(k, c) for k, c in enumerate(v.crew_known[q]) if c]
            items += [_kind_card(game, k, f"x{c}", ["known"], seat=q, group="crew pile")
                      for k, c in known]
            unknown = v.crew_sizes[q] - sum(c for _, c in known)
            if unknown > 0:
                items.append(_kind_card(game, -1, f"x{unknown}", seat=q, group="crew pile"))
        items += [_combo(game, c, (), q, "laid out") for c in list(v.laid[q]) + list(v.final[q])]
        if v.phase == "over":
            items += [_kind_card(game, k, f"x{c} left over", (), seat=q, group="left over")
                      for k, c in enumerate(v.final_left[q]) if c]
        marks = [label for label, on in (
            (f"keeps {v.keep[q]}", v.keep[q] > 1), (f"spyglass x{v.spy_left[q]}", v.spy_left[q]),
            ("double hire next round", v.next_double[q]), ("spyglass next round", v.next_spy[q]),
            ("short rations next round", v.next_short[q])) if on]
        note = (f"{count(v.crew_sizes[q], 'card')} in the crew pile, "
                f"{count(v.curses[q], 'curse')}" + (f"; {', '.join(marks)}" if marks else ""))
        zones.append(zone(seat_title(game, q, me), items, note=note, seat=q))
    status = f"round {v.round}, {PHASE_WORDS.get(v.phase, v.phase)}" + (
        f" (choosing the target of {v.pending.replace('_', ' ')})" if v.pending else "")
    return board_of(zones, status)


def board(game, v, legal: set[int], end=None) -> dict:
    """Every drawing pile (draw, or pick a target seat), every stock (yours to hire from),
    your crew pile and what you know of the others', the combinations you may lay out,
    and what each player has laid out."""
    return _draw(game, v, legal, v.player)


def full_board(game, state) -> dict:
    """The omniscient board: every drawing pile, stock and crew pile face up."""
    return _draw(game, state.view(0), set(), None, full=state)


def last_keys(game, v, seat: int, action: int) -> list[str]:
    """What a move touched: the pile drawn from or targeted, the stock card hired, the
    combination laid out."""
    a = game.actions
    n = v.num_players
    if action is None:      # a hire from a hidden stock
        return []
    if a.draw <= action < a.hire:
        return [f"pile:{(seat + action - a.draw) % n}"]
    if a.hire <= action < a.lay:
        return [f"stock:{seat}:{action - a.hire}"]
    if a.lay <= action < a.target:
        return [f"combo:{seat}:{action - a.lay}"]
    if a.target <= action < a.pass_turn:
        target = (seat + action - a.target + 1) % n
        return [f"pile:{target}", seat_key(target)]
    return [seat_key(seat)]
