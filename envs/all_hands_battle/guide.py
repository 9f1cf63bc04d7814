"""What an All Hands On Deck (battle) player is told (``plunder.envs.core.guide``): what
is being decided and what each move does, from that player's view only."""

from __future__ import annotations

from plunder.envs.core.guide import waiting_for
from plunder.envs.core.movelog import whose

from .codes import AIM, CLAIM, CREW, DISCARD, SELECT, TURN


def _ship(game, view, seat: int, slot: int) -> str:
    """``player_1's ship 2 (Navy Captain; crew Navy 3, Jewels, Navy 7)`` as the view's
    player knows it (a crew it has not seen is counted, not named)."""
    ship = view.ships[seat][slot]
    if ship.crew is not None:
        crew = ", ".join(game.card_name(c) for c in ship.crew) or "no crew"
    else:
        crew = f"{ship.crew_count} face down"
    return f"{whose(game, seat, view.player)} ship {slot + 1} " \
           f"({game.card_name(ship.master)}; crew {crew})"


def decision_prompt(game, view, legal) -> str:
    """What the view's player decides now, or whom the table waits for."""
    me, decision = view.player, view.decision
    if view.actor < 0:
        return "The game is over."
    if view.actor != me:
        doing = {TURN: "recruiting turn", CREW: "launch", DISCARD: "discard",
                 CLAIM: "Aargh! (claim or pass)", SELECT: "battle turn",
                 AIM: "attack"}.get(decision, "decision")
        return f"Waiting for {waiting_for(game, [view.actor])}: their {doing}."
    if decision == TURN:
        a = game.actions
        if not any(a.master <= x < a.crew for x in legal):
            return "Your recruiting turn: discard a card to end it (no ship can be launched " \
                   "now)."
        return "Your recruiting turn: launch a ship (choose its shipmaster), or discard a " \
               "card to end the turn."
    if decision == CREW:
        return f"Launching {game.card_name(view.launch_master)}: choose crew card " \
               f"{view.launch_count + 1} of 3 (it goes aboard face down)."
    if decision == DISCARD:
        return "Discard a card to end your turn."
    if decision == CLAIM:
        top = game.card_name(view.discard[-1])
        if game.actions.claim in legal:
            return f"Aargh!: claim the {top} just discarded (your next draw), or pass?"
        return f"Aargh!: you cannot claim the {top} (you hold a reserved card or have no " \
               "turn left), so you pass."
    if decision == SELECT:
        if view.forced:
            return "Battle: your first fleet must attack; choose the ship to attack with."
        return "Battle: choose a ship to attack with, or pass (no more attacks this round)."
    if decision == AIM:
        ship = view.ships[me][view.selected]
        return f"Attack with your ship {view.selected + 1} ({game.card_name(ship.master)}): " \
               "choose the ship to attack, or let your Spy look at one first."
    return "Your decision: choose a move."


def move_label(game, view, action: int) -> str:
    """What ``action`` does, naming the card, ship or player."""
    a = game.actions
    me, n = view.player, view.num_players
    name = game.card_name
    if action == a.claim:
        return f"Aargh!: claim the {name(view.discard[-1])}"
    if action == a.no_claim:
        return f"pass: leave the {name(view.discard[-1])}" if view.discard else "pass"
    if action == a.pass_battle:
        return "pass: no more attacks this round"
    if a.discard <= action < a.master:
        return f"discard {name(action - a.discard)}"
    if a.master <= action < a.crew:
        return f"launch a ship with {name(action - a.master)} as its shipmaster"
    if a.crew <= action < a.claim:
        return f"put {name(action - a.crew)} in the crew"
    if a.select <= action < a.attack:
        slot = action - a.select
        return f"attack with {_ship(game, view, me, slot)}"
    spy = action >= a.spy
    offset, slot = divmod(action - (a.spy if spy else a.attack), a.ships)
    seat = (me + offset + 1) % n
    target = _ship(game, view, seat, slot)
    return f"let your Spy look at {target} first" if spy else f"attack {target}"


__all__ = ["decision_prompt", "move_label"]
