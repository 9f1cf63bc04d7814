"""What a ShipShape player is told (``plunder.envs.core.guide``): what is being decided
and what each move does, from that player's view only (everything in ShipShape is public
but the picks before a reveal and the Cap'n's deck order, which no view holds)."""

from __future__ import annotations

from plunder.envs.core.board import count
from plunder.envs.core.guide import waiting_for

from .codes import BID0, PLACE0
from .geometry import COMPOSE, ORIENTATION_NAMES, stack_visible, totals


def _group(game, view, seat: int) -> int:
    """The bidding group ``seat`` is in this voyage."""
    groups = game.groups(min(view.voyage, 2))
    return next(k for k, g in enumerate(groups) if seat in g)


def _my_crate(view) -> tuple[int, int] | None:
    """(crate id, how it lies in the stack) the view's player places now."""
    for placing in view.placing:
        for seat, crate, lying in placing:
            if seat == view.player:
                return crate, lying
    return None


def shows(visible) -> str:
    """What a hold shows from above, in words: ``gold 5, cannons 2, contraband 0, 1 rat``."""
    gold, cannons, contraband, rats, full = totals(visible)
    text = f"gold {gold}, cannons {cannons}, contraband {contraband}, {count(rats, 'rat')}"
    return text + (", full ship" if full else "")


def decision_prompt(game, view, legal) -> str:
    """What the view's player decides now, or whom the table waits for."""
    me = view.player
    if view.done:
        return "The game is over: three voyages are scored."
    if me not in view.acting:
        return f"Waiting for {waiting_for(game, view.acting)} to " + \
            ("bid." if any(view.need) and not any(view.placing) else "decide.")
    if view.decision == "place":
        crate, _ = _my_crate(view)
        return f"Place crate #{crate} on your hold (hold {view.holds[me]}): choose how to " \
               f"turn it (your hold now shows {shows(view.visible[me])})."
    k = _group(game, view, me)
    stack = view.stacks[k]
    top = f"; the highest card takes the top crate, #{stack[0][0]}" if stack else ""
    again = "Tied: bid again" if view.stage[k] == 2 else "Bid a crew card"
    return f"{again} (everyone at once, shown together{top}; equal cards tie)."


def move_label(game, view, action: int) -> str:
    """What ``action`` does: the card bid, or the crate's orientation and what the hold
    then shows from above."""
    if action < PLACE0:
        return f"bid crew card {action - BID0 + 1}"
    o = action - PLACE0
    mine = _my_crate(view)
    if mine is None:
        return f"place the crate {ORIENTATION_NAMES[o]}"
    crate, lying = mine
    cells = game.oriented(crate, COMPOSE[lying][o])
    after = stack_visible(view.visible[view.player], [cells])
    how = "as it lies in the stack" if o == 0 else ORIENTATION_NAMES[o]
    return f"place crate #{crate} {how}: then {shows(after)}"


__all__ = ["decision_prompt", "move_label", "shows"]
