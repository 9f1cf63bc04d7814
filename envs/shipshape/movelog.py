"""ShipShape move log and score breakdown (see ``plunder.envs.core.movelog``).

A bid is secret until every bidder of the group has picked; the step that applies the
picks reveals them all, so the log reads the revealed cards from the view after the step
(``bids``), never from the actions. Placements, the crates taken, the Cap'n's moves,
voyage scoring and the next voyage's holds are public table changes.
"""

from __future__ import annotations

from plunder.envs.core.board import count
from plunder.envs.core.movelog import who

from .engine import PLACE0
from .geometry import ORIENTATION_NAMES, SCORE_PARTS


def action_is_public(game, view, seat, action) -> bool:
    """Placements are seen as they are made; a bid only when the bids are revealed."""
    return action >= PLACE0


def describe_step(game, before, after, actors, public_actions, observer) -> list[str]:
    """Revealed bids and ties, crates taken and placed, voyage scores, new holds."""
    name = lambda seat: who(game, seat, observer)   # noqa: E731
    lines: list[str] = []
    for placing in before.placing:
        for seat, crate, _ in placing:
            if seat in public_actions:
                turn = ORIENTATION_NAMES[public_actions[seat] - PLACE0]
                lines.append(f"{name(seat)} places crate #{crate} {turn}")
    new_bids = after.bids[len(before.bids):]
    for stage in (1, 2):
        bids = [(seat, card) for _, _, st, seat, card in new_bids if st == stage]
        if not bids:
            continue
        label = "the bids" if stage == 1 else "the re-bids of the tied seats"
        lines.append(f"{label} are revealed: "
                     + ", ".join(f"{name(seat)} {card}" for seat, card in bids))
        values = [card for _, card in bids]
        tied = [seat for seat, card in bids if values.count(card) > 1]
        if tied:
            then = "bid again" if stage == 1 else "take crates from the highest hold down"
            lines.append("tied: " + ", ".join(name(s) for s in tied) + f" ({then})")
    for k, placing in enumerate(after.placing):
        if placing != (before.placing[k] if k < len(before.placing) else ()):
            for seat, crate, _ in placing:
                lines.append(f"{name(seat)} takes crate #{crate}")
    capn = game.capn
    if capn is not None and len(after.placed[capn]) > len(before.placed[capn]) \
            and len(after.hold_history) == len(before.hold_history):
        crate = after.placed[capn][-1][0]
        lines.append(f"{name(capn)} takes crate #{crate} and places it as it lay")
    for seat in range(game.num_seats):
        if before.discards[seat] and not after.discards[seat] and \
                any(b[3] == seat for b in new_bids):
            lines.append(f"{name(seat)} takes the discarded crew cards back")
    lines.extend(_voyage_lines(game, before, after, name))
    return lines


def _voyage_lines(game, before, after, name) -> list[str]:
    """Voyage scoring, the next voyage's holds, the end of the game."""
    lines = []
    for voyage in range(len(before.voyage_scores), len(after.voyage_scores)):
        lines.append(f"voyage {voyage + 1} is scored:")
        for seat, parts in enumerate(after.voyage_scores[voyage]):
            d = dict(zip(SCORE_PARTS, parts))
            lines.append(f"  {name(seat)}: gold {d['gold']}, cannons {d['cannons']}, "
                         f"contraband {d['contraband']}, full ship {d['full_ship']} "
                         f"-> {count(d['coins'], 'coin')}")
    if len(after.hold_history) > len(before.hold_history):
        holds = after.hold_history[-1]
        lines.append(f"voyage {len(after.hold_history)} begins; holds: "
                     + ", ".join(f"{name(s)} #{h}" for s, h in enumerate(holds)))
    if after.done and not before.done:
        lines.append("the third voyage is over: the game ends")
    return lines


def score_breakdown(state) -> list[tuple[str, list[float]]]:
    """Coins per scoring part over the three voyages; a voyage below 0 counted as 0; the
    tie-break (the voyage-3 hold number)."""
    seats = range(state.game.num_seats)
    parts = {p: i for i, p in enumerate(SCORE_PARTS)}
    rows = []
    for label, part in (("gold", "gold"), ("cannons", "cannons"),
                        ("contraband", "contraband"), ("full ship", "full_ship")):
        rows.append((label, [float(sum(v[s][parts[part]] for v in state.voyage_scores))
                             for s in seats]))
    lifted = [float(sum(v[s][parts["coins"]] - v[s][parts["raw"]]
                        for v in state.voyage_scores)) for s in seats]
    if any(lifted):
        rows.append(("voyage below 0 counts 0", lifted))
    rows.append(("tie-break: last hold number",
                 [float(state.hold_history[-1][s]) for s in seats]))
    return rows
