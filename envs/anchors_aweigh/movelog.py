"""Anchors Aweigh! move log and score breakdown (see ``plunder.envs.core.movelog``).

What is public (envs/anchors_aweigh/rules.md, "What each player knows"): every loading
action as it is applied (a tile grabbed face down is seen as a grab, not its face), the
cargo decisions, Rough Seas swaps; but a move behind a ship's screen is seen only as going
below deck, never the space (placing a tile or stowing cargo there, returning or tossing a
tile from there: the tile itself is seen when it comes out face up). A card decision (resolve, skip, encounter, flee, pay)
waits hidden until everyone asked has chosen; the log then reads what each player did from
the public ``outcome`` of the view after the step, and the coins, chests and parrots that
changed. Tiles are named by their look (kind, ``*`` for a starfish) only where the
observer's view shows them.
"""

from __future__ import annotations

from plunder.envs.core.movelog import who

from .components import BACKS, BELOW, COLOURS, KINDS, SPACE_NAMES
from .engine import (
    A_CARGO, A_FLIP, A_GRAB_DOWN, A_GRAB_UP, A_PLACE, A_RETURN, A_SKIP, A_STAR_RETURN,
    A_STOW, A_SWAP, A_TOSS_ASSET, A_TOSS_CARGO, DECIDE, ENCOUNTER, LOADING, O_NONE,
    OUTCOMES, OVER, PIRATE, SETUP, action_name,
)
from .view import CELL_CARGO, CELL_CHEST, CELL_EMPTY, CELL_TILE, CELL_UNKNOWN

#: phases whose choices stay hidden until everyone asked has chosen (swaps excepted)
SECRET_PHASES = (DECIDE, ENCOUNTER, PIRATE)


def action_is_public(game, view, seat, action) -> bool:
    """A card decision is secret until all have chosen (a swap is seen at once); a move
    naming a below-deck space is seen only as a move below deck; everything else is seen."""
    if view.phase in SECRET_PHASES:
        return action >= A_SWAP
    for first, last in ((A_PLACE, A_RETURN), (A_STAR_RETURN, A_SKIP), (A_STOW, A_TOSS_ASSET),
                        (A_TOSS_ASSET, A_TOSS_CARGO)):
        if first <= action < last:
            return action - first not in BELOW
    return True


def tile_text(code: int) -> str:
    """A hand or ship cell code as words: ``a rope``, ``a starfish map``, ``a hidden tile``."""
    if code == CELL_UNKNOWN:
        return "a hidden tile"
    if code == CELL_EMPTY:
        return "nothing"
    if code == CELL_CHEST:
        return "a chest"
    if code >= CELL_CARGO:
        return f"{COLOURS[code - CELL_CARGO]} cargo"
    kind, star = divmod(code - CELL_TILE, 2)
    return ("a starfish " if star else "a ") + KINDS[kind]


def describe_step(game, before, after, actors, public_actions, observer) -> list[str]:
    """Loading moves, card decisions and their outcomes, cargo, the end of a round."""
    name = lambda seat: who(game, seat, observer)   # noqa: E731
    lines: list[str] = []
    phase = before.phase
    if phase == SETUP:
        for seat in actors:
            action = public_actions.get(seat)
            where = "below deck" if action is None else f"on {SPACE_NAMES[action - A_PLACE]}"
            lines.append(f"{name(seat)} places the Meddlesome Monkey {where}")
    elif phase == LOADING:
        lines.extend(_loading_lines(game, before, after, actors, public_actions, name))
    elif phase in SECRET_PHASES:
        for seat in actors:
            action = public_actions.get(seat)
            if action is not None and action >= A_SWAP:
                give, take = divmod(action - A_SWAP, 10)
                lines.append(f"{name(seat)} swaps two {KINDS[give]} tiles for a face-up "
                             f"{KINDS[take]}")
            elif not _decision_done(after, actors, public_actions):
                lines.append(f"{name(seat)} has chosen (hidden until everyone has)")
        if _decision_done(after, actors, public_actions):
            lines.extend(_outcome_lines(game, before, after, name))
    else:   # cargo colour or stowing: one player, public but for a below-deck space
        for seat in actors:
            colour = COLOURS[before.unit_colour] if before.unit_colour >= 0 else "grey"
            action = public_actions.get(seat)
            if action is not None:
                what = action_name(action)
            elif sum(after.pile_up) > sum(before.pile_up):
                what = f"toss {_came_up(before, after)} from below deck overboard for the cargo"
            else:
                what = "stow the cargo below deck"
            lines.append(f"{name(seat)} ({colour} cargo): {what}")
    lines.extend(_table_lines(game, before, after, name))
    return lines


def _cell_of(view, seat, space) -> int:
    """What ``view``'s player sees on ``seat``'s ``space`` (below deck: only its own)."""
    if space < len(view.above[seat]):
        return view.above[seat][space]
    return view.own_ship[space] if seat == view.player else CELL_UNKNOWN


def _came_up(before, after) -> str:
    """The tile(s) that came face up onto the pile in this step, as words."""
    return " and ".join(tile_text(CELL_TILE + lk)
                        for lk, (old, new) in enumerate(zip(before.pile_up, after.pile_up))
                        for _ in range(new - old)) or "a tile"


def _loading_lines(game, before, after, actors, public_actions, name) -> list[str]:
    """One line per loading action, with what the observer can see of its result."""
    lines = []
    for seat in actors:
        action = public_actions.get(seat)
        held = after.hands[seat]
        if action is None:      # behind the screen: a placement, or a starfish return
            if before.hands[seat] != CELL_EMPTY:
                lines.append(f"{name(seat)} places {tile_text(before.hands[seat])} "
                             "below deck")
            else:
                lines.append(f"{name(seat)} returns a starfish tile from below deck to "
                             "the pile")
        elif action == A_GRAB_DOWN:
            got = f" ({tile_text(held)})" if held not in (CELL_EMPTY, CELL_UNKNOWN) else ""
            lost = " but none is left" if held == CELL_EMPTY else ""
            lines.append(f"{name(seat)} grabs a face-down tile{got}{lost}")
        elif A_GRAB_UP <= action < A_FLIP:
            kind = KINDS[action - A_GRAB_UP]
            lines.append(f"{name(seat)} grabs a face-up {kind}" if held != CELL_EMPTY
                         else f"{name(seat)} wants a face-up {kind} but loses the race")
        elif action == A_FLIP:
            lines.append(f"{name(seat)} flips a face-down tile")
        elif A_PLACE <= action < A_RETURN:
            space = action - A_PLACE
            lines.append(f"{name(seat)} places {tile_text(_cell_of(after, seat, space))} on "
                         f"{SPACE_NAMES[space]}")
        elif action == A_RETURN:
            lines.append(f"{name(seat)} returns {tile_text(before.hands[seat])} face up")
        elif A_CARGO <= action < A_STAR_RETURN:
            lines.append(f"{name(seat)} takes {COLOURS[action - A_CARGO]} cargo")
        elif A_STAR_RETURN <= action < A_SKIP:
            space = action - A_STAR_RETURN
            lines.append(f"{name(seat)} returns {tile_text(_cell_of(before, seat, space))} "
                         f"from {SPACE_NAMES[space]} to the pile")
    flipped = [lk for lk, (old, new) in enumerate(zip(before.pile_up, after.pile_up))
               for _ in range(new - old)]
    if flipped and any(a == A_FLIP for a in public_actions.values()):
        lines.append("turned face up: " + ", ".join(tile_text(CELL_TILE + lk)[2:]
                                                    for lk in flipped))
    if after.captain >= 0 and before.captain < 0:
        lines.append(f"{name(after.captain)} has the first full ship and is the captain; "
                     "the card fronts are hidden")
    if after.phase != LOADING and after.round == before.round:
        lines.append("every ship is full: the travel phase begins")
    return lines


def _decision_done(after, actors, public_actions) -> bool:
    """Whether this step completed the decision: nobody's choice is left pending and
    someone made a real choice (a hidden one, or a public non-swap one), not just swaps."""
    chose = any(seat not in public_actions or public_actions[seat] < A_SWAP
                for seat in actors)
    return chose and not any(after.decided)


def _outcome_lines(game, before, after, name) -> list[str]:
    """What each player chose, once revealed (the public ``outcome`` of each seat)."""
    if after.round != before.round or after.phase == OVER:
        return []          # the round ended in this step: outcomes were cleared
    asked = before.acting + tuple(s for s, d in enumerate(before.decided) if d)
    parts = [f"{name(s)} {OUTCOMES[after.outcome[s]]}" for s in sorted(set(asked))
             if after.outcome[s] != O_NONE]
    return ["choices revealed: " + ", ".join(parts)] if parts else []


def _table_lines(game, before, after, name) -> list[str]:
    """Card changes, coins, chests and parrots that changed, the end of a round."""
    lines = []
    for seat in range(after.num_players):
        changes = []
        for label, old, new in (("coins", before.coins[seat], after.coins[seat]),
                                ("chests", before.chests[seat], after.chests[seat]),
                                ("parrots", before.parrots[seat], after.parrots[seat])):
            if old != new:
                changes.append(f"{label} {old} -> {new}")
        if changes:
            lines.append(f"{name(seat)}: " + ", ".join(changes))
    if after.current_back != before.current_back or after.used != before.used \
            or after.current != before.current:
        if after.current >= 0 and after.current != before.current:
            lines.append(f"card: {game.cards[after.current].describe()}")
        elif after.current < 0 and after.current_back >= 0 and (
                after.current_back != before.current_back or after.used != before.used):
            lines.append(f"card: {BACKS[after.current_back]} (face down: encounter or flee?)")
    if len(after.queue) > len(before.queue):
        lines.append("a contract goes to the bottom of the deck ("
                     + ", ".join(COLOURS[c] for c in after.queue[len(before.queue):])
                     + " featured)")
    if after.round != before.round:
        lines.append("round 1 is over: cargo became coins, assets went back to the pile; "
                     "round 2 begins with the loading race")
    if after.phase == OVER and before.phase != OVER:
        lines.append("round 2 is over: the game ends")
    return lines


def score_breakdown(state) -> list[tuple[str, list[float]]]:
    """Loose coins and chests (10 each)."""
    n = state.game.num_players
    return [("coins", [float(state.coins[p]) for p in range(n)]),
            ("chests (10 each)", [float(10 * state.chests[p]) for p in range(n)])]
