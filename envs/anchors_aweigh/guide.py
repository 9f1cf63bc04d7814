"""What an Anchors Aweigh! player is told (``plunder.envs.core.guide``): what is being
decided and what each move does, from that player's view only."""

from __future__ import annotations

from plunder.envs.core.guide import waiting_for

from .codes import (
    ACTIONS, A_CARGO, A_COLOUR, A_DISCARD, A_ENCOUNTER, A_FLEE, A_FLIP, A_GRAB_DOWN,
    A_GRAB_UP, A_PARROT, A_PAY, A_PAY_NONE, A_PLACE, A_RESOLVE, A_RETURN, A_SKIP,
    A_STAR_RETURN, A_STOW, A_SWAP, A_TOSS_ASSET, A_TOSS_CARGO, COLOUR, DECIDE, ENCOUNTER,
    LOADING, OVER, PIRATE, PLACE, SETUP,
)
from .components import BACKS, COLOURS, KINDS, NUM_KINDS, SPACE_NAMES
from .movelog import tile_text
from .view import CELL_EMPTY


def a(word: str) -> str:
    """``a sword``, ``an orange``."""
    return ("an " if word[:1] in "aeiou" else "a ") + word


def cell_text(code: int, stored=()) -> str:
    """A ship cell or hand as words: ``empty``, ``a starfish rope``, ``blue cargo``, with
    the cargo a storage tile holds."""
    if code == CELL_EMPTY:
        return "empty"
    text = tile_text(code)
    if stored:
        text += " holding " + ", ".join(COLOURS[c] for c in stored)
    return text


def _card(game, view) -> str:
    """The current card as its front says (or its back while it is face down)."""
    if view.current >= 0:
        return game.cards[view.current].describe().split(" ", 1)[1]
    if view.current_back >= 0:
        return f"{BACKS[view.current_back]}, face down"
    return "no card"


def _unit(view) -> str:
    """The cargo token being handed out to the view's player."""
    if view.unit_colour >= 0:
        return f"the {COLOURS[view.unit_colour]} cargo"
    return "the new cargo"


def decision_prompt(game, view, legal) -> str:
    """What the view's player decides now, or whom the table waits for."""
    me, phase = view.player, view.phase
    if phase == OVER:
        return "The game is over."
    if me not in view.acting:
        if phase == LOADING and view.full[me]:
            return "Your ship is full: waiting for the others to finish loading."
        return f"Waiting for {waiting_for(game, view.acting)}."
    if phase == SETUP:
        return "Meddlesome Monkey: choose the asset space your monkey stays on all game."
    if phase == LOADING:
        if view.own_hand != CELL_EMPTY:
            return f"Loading (everyone at once): place the tile you hold, " \
                   f"{cell_text(view.own_hand)}, on an empty asset space, or return it."
        return "Loading (everyone at once): grab or flip a tile from the pile, or take " \
               "cargo for C1/C2."
    if phase == DECIDE:
        can = any(a == A_RESOLVE or A_PARROT <= a < A_ENCOUNTER for a in legal)
        return f"Card {_card(game, view)}: " + ("resolve it, or skip it?" if can else
                                                  "you cannot resolve it, so skip it.")
    if phase == ENCOUNTER:
        return f"Pirates ahead ({_card(game, view)}): encounter them or flee?"
    if phase == PIRATE:
        return f"Card {_card(game, view)}: resolve it, or pay the penalty (2 coins and a " \
               "cargo)?"
    if phase == COLOUR:
        return "Cargo for you: choose its colour."
    if phase == PLACE:
        if any(A_STOW <= a < A_TOSS_ASSET for a in legal):
            return f"Stow {_unit(view)} on an empty space or a storage tile."
        return f"No room for {_unit(view)}: toss an asset or a cargo overboard for it, " \
               "or toss it."
    return "Your decision: choose a move."


def move_label(game, view, action: int) -> str:
    """What ``action`` does, naming the tile, space, cargo or card."""
    name, k = ACTIONS.decode(action)
    space = SPACE_NAMES[k] if name in ("place", "star_return", "stow", "toss_asset") else ""
    if action == A_GRAB_DOWN:
        return f"grab a face-down tile (a random one of {view.pile_down})"
    if A_GRAB_UP <= action < A_FLIP:
        up = view.pile_up[2 * k] + view.pile_up[2 * k + 1]
        return f"grab a face-up {KINDS[k]} ({up} face up in the pile)"
    if action == A_FLIP:
        return "flip a face-down tile face up (a random one)"
    if A_PLACE <= action < A_RETURN:
        if view.phase == SETUP:
            return f"put your monkey on {space}"
        return f"place the tile you hold, {cell_text(view.own_hand)}, on {space}"
    if action == A_RETURN:
        return f"return the tile you hold, {cell_text(view.own_hand)}, face up to the pile"
    if A_CARGO <= action < A_STAR_RETURN:
        return f"take {a(COLOURS[k])} cargo ({view.supply[k]} in the supply) onto C1/C2"
    if A_STAR_RETURN <= action < A_SKIP:
        return f"return {cell_text(view.own_ship[k])} on {space} to the pile"
    if action == A_RESOLVE:
        return f"resolve the card ({_card(game, view)})"
    if A_PARROT <= action < A_ENCOUNTER:
        return f"resolve the card with your parrot standing in for {a(KINDS[k])}"
    if action == A_SKIP:
        return "skip the card"
    if action in (A_ENCOUNTER, A_FLEE):
        return "encounter the pirates" if action == A_ENCOUNTER else \
            "flee the pirates (no cost, no reward)"
    if action == A_PAY_NONE:
        return "pay the penalty (2 coins; you have no cargo to give)"
    if A_PAY <= action < A_COLOUR:
        return f"pay the penalty: 2 coins and {a(COLOURS[k])} cargo"
    if A_COLOUR <= action < A_STOW:
        return f"choose {COLOURS[k]} for the cargo ({view.supply[k]} in the supply)"
    if A_STOW <= action < A_TOSS_ASSET:
        here = view.own_ship[k]
        where = space if here == CELL_EMPTY else f"{space} ({cell_text(here, view.own_storage[k])})"
        return f"stow {_unit(view)} on {where}"
    if A_TOSS_ASSET <= action < A_TOSS_CARGO:
        return f"toss {cell_text(view.own_ship[k], view.own_storage[k])} on {space} " \
               f"overboard; {_unit(view)} goes there"
    if A_TOSS_CARGO <= action < A_DISCARD:
        return f"toss {a(COLOURS[k])} cargo overboard; {_unit(view)} takes its place"
    if action == A_DISCARD:
        return f"toss {_unit(view)} overboard"
    if action >= A_SWAP:
        give, take = divmod(k, NUM_KINDS)
        return f"swap two of your {KINDS[give]} tiles for a face-up {KINDS[take]}"
    return game.action_name(action)


__all__ = ["a", "cell_text", "decision_prompt", "move_label"]
