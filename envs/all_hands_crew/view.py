"""What one player knows in All Hands on Deck, and its text rendering."""

from __future__ import annotations

from typing import NamedTuple

from .components import NUM_CREW, NUM_KINDS


class CrewView(NamedTuple):
    """Everything player ``player`` knows (plain tuples, ``==``-comparable).

    A ``NamedTuple`` (immutable; built positionally by the engine at every step, which is
    much cheaper than a frozen dataclass).

    Seats are absolute here; the observation encoder rotates them so that the viewer is
    seat offset 0. Unknown cards are -1.
    """

    player: int
    num_players: int
    open_stock: bool
    phase: str
    acting: tuple            # seats that must decide now
    actor: int               # the single actor outside the hiring phase (-1 otherwise)
    round: int
    start: int
    hire_step: int
    pending: str             # action waiting for its target ("snatch", ...) or ""
    pile_masks: tuple        # per pile, bottom->top: bit mask of the players who know the card
    pile_seen: tuple         # per pile: (position from the bottom, kind) of the cards I know
    stock: tuple             # per seat, in stock order: (kind or -1, source pile)
    my_hired: tuple          # my stock slots picked so far in this hiring phase
    my_hire_done: bool       # I passed on a further Double hire pick
    my_crew: tuple           # cards per kind in my Crew Pile
    crew_sizes: tuple
    crew_known: tuple        # per seat q: kinds I know to be in q's Crew Pile ...
    crew_maybe_gone: tuple   # ... but for this many of them, which a Snatch I did not see
                             # may have taken (I do not know which)
    known_about_me: tuple    # per seat o: kinds o knows to be in my Crew Pile ...
    maybe_gone_about_me: tuple  # ... but for this many, as far as o can tell
    laid: tuple              # per seat: combination indices laid during the game
    final: tuple             # per seat: combinations of the final layout
    final_left: tuple        # per seat: cards left over at the end (captains count!)
    curses: tuple
    draw_target: tuple       # regular stock cards each player draws this round
    spy_left: tuple          # Spyglass draws still due this round
    keep: tuple              # stock cards each player keeps this round (Double hire)
    next_double: tuple       # actions due next round (laid this round)
    next_spy: tuple
    next_short: tuple
    events: tuple            # this round: (seat, what, arg, kind or -1); a hire's 4th entry
                             # is how many cards went back on the pile

    def pile(self, seat: int) -> list:
        """Pile ``seat`` bottom->top as (knower mask, kind or -1 if unknown to me)."""
        out = [(m, -1) for m in self.pile_masks[seat]]
        for i, k in self.pile_seen[seat]:
            out[i] = (out[i][0], k)
        return out


def describe_view(game, v: CrewView) -> str:
    """A readable text table of the table from ``v.player``'s seat."""
    names = game.comps.short_names
    combos = game.combos
    n = v.num_players
    head = (f"All Hands on Deck: seat {v.player} of {n}, round {v.round}, phase {v.phase}"
            + (" (open stock)" if v.open_stock else "")
            + f"; start player {v.start}; acting {list(v.acting)}")
    if v.pending:
        head += f"; choosing the target of {v.pending.replace('_', ' ')}"
    rows = [head,
            "| seat | score | curses | captains | pile | top known (top first) | stock | "
            "crew | laid out |",
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
        stock = ", ".join((names[k] if k >= 0 else "?") + f"<{s}"
                          + ("*" if q == v.player and i in v.my_hired else "")
                          for i, (k, s) in enumerate(v.stock[q]))
        if q == v.player:
            crew = ", ".join(f"{c} {names[k]}" for k, c in enumerate(v.my_crew) if c)
        else:
            seen = ", ".join(f"{c} {names[k]}" for k, c in enumerate(v.crew_known[q]) if c)
            if seen and v.crew_maybe_gone[q]:
                seen += f", but {v.crew_maybe_gone[q]} of these may have been snatched"
            crew = f"{v.crew_sizes[q]} cards" + (f" (incl. {seen})" if seen else "")
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
        seat = f"{q}{' (you)' if q == v.player else ''}" + (f" [{', '.join(marks)}]"
                                                             if marks else "")
        laid_txt = "; ".join(combos[c].name for c in laid) or "-"
        if v.phase == "over":
            left = ", ".join(f"{c} {names[k]}" for k, c in enumerate(v.final_left[q]) if c)
            laid_txt += f" / left over: {left or '-'}"
        rows.append(f"| {seat} | {score} | {v.curses[q]} | {caps} | {len(pile)} | "
                    f"{' '.join(known) or '-'} | {stock or '-'} | {crew or '-'} | {laid_txt} |")
    if v.events:
        text = []
        for seat, what, arg, kind in v.events:
            if what == "lay":
                text.append(f"{seat} laid {combos[arg].name}")
            elif what == "draw":
                text.append(f"{seat} drew from pile {arg}")
            elif what == "snatch":
                got = names[kind] if kind >= 0 else "a card"
                text.append(f"{seat} snatched {got} from {arg}")
            elif what in ("curse", "short_rations"):
                text.append(f"{seat} {what.replace('_', ' ')} on {arg}")
            elif what == "hire":
                text.append(f"{seat} hired {arg}, put back {kind}")
            elif what == "forfeit":
                text.append(f"{seat} forfeited {arg.replace('_', ' ')}")
        rows.append("this round: " + "; ".join(text))
    return "\n".join(rows)
