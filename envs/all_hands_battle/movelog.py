"""All Hands On Deck (battle) move log and score breakdown (see ``core.movelog``).

The engine already keeps the round's public events in every view (discards, launches,
claims, Spy looks, battles with the crews shown, raids, reckonings); the log is the events
a step added, with ``P2`` written as the seat's name, plus what the events leave out: a
shipmaster being chosen, the attacking ship picked, a pass on a claim, and the observer's
own secrets (the card it drew, the crew it put aboard, what its Spy saw). A crew card goes
aboard face down, so that action is not public.
"""

from __future__ import annotations

import re

from plunder.envs.core.movelog import who, whose

from .engine import CLAIM, CREW, DISCARD, SELECT, TURN

_SEAT = re.compile(r"\bP(\d+)\b('s)?")


def action_is_public(game, view, seat, action) -> bool:
    """Every move is public but the crew cards put aboard face down."""
    return view.decision != CREW


def new_events(before, after) -> tuple[str, ...]:
    """The events the step added (the view keeps the last few: older ones drop out)."""
    old, new = before.events, after.events
    for dropped in range(len(old) + 1):
        kept = old[dropped:]
        if new[:len(kept)] == kept:
            return new[len(kept):]
    return new


def describe_step(game, before, after, actors, public_actions, observer) -> list[str]:
    """The step's public events, the moves events leave out, the observer's secrets."""
    name = lambda seat: who(game, seat, observer)   # noqa: E731
    A = game.actions
    lines: list[str] = []
    (seat, action), = ((s, public_actions.get(s)) for s in actors)
    d = before.decision
    if action is None:             # a crew card put aboard face down
        lines.append(f"{name(seat)} puts a crew card aboard face down")
    else:
        if d in (TURN, DISCARD) and A.master <= action < A.crew:
            lines.append(f"{name(seat)} launches a ship under "
                         f"{game.card_name(action - A.master)}")
        elif d == CREW:
            lines.append(f"{name(seat)} puts {game.card_name(action - A.crew)} aboard "
                         "face down")
        elif d == CLAIM and action == A.no_claim:
            lines.append(f"{name(seat)} does not claim the discard")
        elif d == SELECT and action < A.attack:
            slot = action - A.select
            master = game.card_name(before.ships[seat][slot].master)
            lines.append(f"{name(seat)} attacks with ship {slot + 1} ({master})")
    lines.extend(_SEAT.sub(lambda m: whose(game, int(m.group(1)), observer) if m.group(2)
                           else name(int(m.group(1))), e)
                 for e in new_events(before, after))
    if after.round == before.round:
        claimed = set(after.known_with[observer]) | {before.reserved[observer]}
        drawn = sorted(set(after.hand) - set(before.hand) - claimed)
        if drawn:
            lines.append(f"{name(observer)} draws "
                         + ", ".join(game.card_name(c) for c in drawn))
        lines.extend(_spy_lines(game, before, after, name))
    return lines


def _spy_lines(game, before, after, name) -> list[str]:
    """What the observer's own Spy saw this step."""
    lines = []
    for q, fleet in enumerate(after.ships):
        for j, ship in enumerate(fleet):
            was = before.ships[q][j] if j < len(before.ships[q]) else None
            if ship.spied and ship.crew is not None and (was is None or not was.spied):
                crew = ", ".join(game.card_name(c) for c in ship.crew)
                lines.append(f"your Spy sees {whose(game, q, after.player)} ship {j + 1}: "
                             f"{crew}")
    return lines


def score_breakdown(state) -> list[tuple[str, list[float]]]:
    """Earlier rounds, then the last round's parts: ships kept, treasure aboard them,
    plunder, the first fleet bonus, flags left in hand, a round below 0 counted as 0."""
    g = state.game
    comp = g.components
    value = g.rules.value
    n = g.num_players
    ships, aboard = [0.0] * n, [0.0] * n
    for fleet in state.ships:
        for ship in fleet:
            if ship[3] >= 0:
                ships[ship[3]] += comp.ship_points
                aboard[ship[3]] += sum(value[c] for c in ship[1])
    plunder = [float(sum(value[c] for c in state.plunder[p])) for p in range(n)]
    fleet = [float(comp.first_fleet_bonus if state.first_fleet == p else 0) for p in range(n)]
    flags = [0.0 - float(sum(g.cards[c].penalty for c in state.hands[p])) for p in range(n)]
    raw = [a + b + c + d + e for a, b, c, d, e in zip(ships, aboard, plunder, fleet, flags)]
    last = list(state.last_round) if state.last_round else [0] * n
    rows = [("earlier rounds", [float(t - s) for t, s in zip(state.totals, last)]),
            ("last round: ships kept", ships), ("last round: treasure aboard", aboard),
            ("last round: plunder", plunder), ("last round: first fleet", fleet),
            ("last round: flags in hand", flags),
            ("last round below 0 counts 0", [float(s - r) for s, r in zip(last, raw)])]
    return [row for row in rows if any(row[1]) or row[0] == "last round: ships kept"]
