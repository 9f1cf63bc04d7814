"""All Hands on Deck (crew) move log and score breakdown (see ``core.movelog``).

The engine records the round's public events in every view (draws, hires, laid
combinations, curses, Short rations, Snatches, forfeits), with a snatched card's kind only
for the two players involved; the log is the events a step added. A hire is secret (the
picked card goes face down into the Crew Pile) unless the game has ``open_stock``; the
observer learns its own hire from its Crew Pile, and with open stock everyone's.
"""

from __future__ import annotations

from plunder.envs.core.board import count
from plunder.envs.core.movelog import who, whose

from .components import NUM_CREW, NUM_KINDS


def action_is_public(game, view, seat, action) -> bool:
    """Everything is public but which stock card a player hires (unless open stock)."""
    return view.phase != "hire" or game.open_stock


def describe_step(game, before, after, actors, public_actions, observer) -> list[str]:
    """The step's new events, the observer's own hire, a new round, the final layouts."""
    name = lambda seat: who(game, seat, observer)   # noqa: E731
    kinds = game.comps.kind_names
    lines: list[str] = []
    if before.phase == "hire":
        picked = [k for k in range(NUM_KINDS)
                  for _ in range(after.my_crew[k] - before.my_crew[k])]
        for seat in actors:
            if seat == observer:
                action = public_actions[seat]
                lines.append(f"{name(seat)} " + ("passes on the further pick"
                                                  if action == game.actions.pass_turn else
                                                  f"picks stock card {action - game.actions.hire + 1}"))
            else:
                lines.append(f"{name(seat)} picks a card to hire")
        if picked:
            lines.append(f"{name(observer)} hires " + ", ".join(kinds[k] for k in picked))
        if game.open_stock and after.phase != "hire":
            for q in range(after.num_players):
                if q != observer:
                    seen = [k for k in range(NUM_KINDS)
                            for _ in range(after.crew_known[q][k] - before.crew_known[q][k])]
                    if seen:
                        lines.append(f"{name(q)} hires " + ", ".join(kinds[k] for k in seen))
    elif before.phase == "lay":
        for seat, action in public_actions.items():
            if action == game.actions.pass_turn:
                lines.append(f"{name(seat)} is done laying out")
    same_round = after.round == before.round
    events = after.events[len(before.events):] if same_round else after.events
    lines.extend(_event_line(game, event, name, observer) for event in events)
    if not same_round and after.phase != "over":
        lines.append(f"round {after.round} begins; {name(after.start)} draws first")
    if after.phase == "over" and before.phase != "over":
        lines.append("the Drawing Piles are nearly empty: the game ends; every Crew Pile "
                     "is laid out")
        combos = game.combos
        for q in range(after.num_players):
            final = "; ".join(combos[c].name for c in after.final[q]) or "nothing"
            left = ", ".join(count(c, kinds[k]) for k, c in enumerate(after.final_left[q]) if c)
            lines.append(f"  {name(q)}: {final}" + (f" (left over: {left})" if left else ""))
    return lines


def _event_line(game, event, name, observer) -> str:
    """One recorded event as text."""
    seat, what, arg, kind = event
    kinds = game.comps.kind_names
    if what == "draw":
        pile = "their own pile" if arg == seat != observer else \
            f"{whose(game, arg, observer)} pile"
        return f"{name(seat)} draws from {pile}"
    if what == "hire":
        back = f"; {kind} {'goes' if kind == 1 else 'go'} back on their pile" if kind > 0 else ""
        return f"{name(seat)} hires {count(arg, 'card')}{back}"
    if what == "lay":
        combo = game.combos[arg]
        return f"{name(seat)} lays out {combo.name} ({count(combo.points, 'point')})"
    if what == "snatch":
        got = kinds[kind] if kind >= 0 else "a card"
        return f"{name(seat)} snatches {got} from {whose(game, arg, observer)} Crew Pile"
    if what == "curse":
        return f"{name(seat)} curses {name(arg)} (-1)"
    if what == "short_rations":
        return f"{name(seat)} puts {name(arg)} on short rations next round"
    if what == "forfeit":
        return f"{name(seat)} forfeits the {str(arg).replace('_', ' ')}"
    return f"{name(seat)}: {what} {arg}"


def score_breakdown(state) -> list[tuple[str, list[float]]]:
    """Combinations laid during the game, the final layout, single captains, curses, and
    the tie-break (captains in the layout)."""
    g = state.game
    n = g.num_players
    combos = g.combos
    laid = [float(sum(combos[c].points for c in state.laid[p])) for p in range(n)]
    final = [float(sum(combos[c].points for c in state.final[p])) for p in range(n)]
    singles = [float(sum(g.comps.single_value(k) * state.final_left[p][k]
                         for k in range(NUM_CREW, NUM_KINDS))) for p in range(n)]
    curses = [float(g.comps.curse * state.curses[p]) for p in range(n)]
    return [("combinations laid in play", laid), ("final layout", final),
            ("single captains", singles), ("curses", curses),
            ("tie-break: captains", [float(state.captains(p)) for p in range(n)])]
