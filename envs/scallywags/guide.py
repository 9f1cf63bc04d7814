"""What a Scallywags player is told (``plunder.envs.core.guide``): what is being decided
and what each move does, from that player's view only.

Coins are written as in the move log: ``#17 [5]`` face up, ``#17 (5)`` face down but
known to the view's player, ``#17 (?)`` face down and unknown.
"""

from __future__ import annotations

from plunder.envs.core.movelog import who, whose

from .components import (
    ARRGH, AVAST, BLOW, BOOTY, CARD_NAMES, HANDS_OFF, LAND_HO, PIECES, SHIVER, YO_HO,
)
from .engine import BLOCK, CHOOSE, MIDDLE
from .movelog import coin_text

#: what playing each card does, in a few words
CARD_EFFECTS = {
    ARRGH: "send a coin in an opponent's take back to the middle",
    AVAST: "swap a face-down coin of yours for an opponent's",
    BLOW: "look at two face-down middle coins, then give them away",
    BOOTY: "take a face-up coin from the middle",
    SHIVER: "take a face-down and a face-up coin from the middle",
    LAND_HO: "look at a face-down coin, then take a face-down coin",
    PIECES: "take a coin from an opponent's take",
    YO_HO: "give a face-up middle coin to an opponent",
    HANDS_OFF: "block an action against your take (out of turn only)",
}


def _where(game, view, coin: int) -> str:
    """``the middle``, ``your take``, ``player_2's take``."""
    seat = view.coin_owner[coin]
    return "the middle" if seat == MIDDLE else f"{whose(game, seat, view.player)} take"


def _target_seat(view, action: int, game) -> int:
    """The seat an ``opponent +d`` action names (counted from the actor)."""
    return (view.actor + action - game.actions.player + 1) % view.num_players


def _target_step(view) -> tuple[int, int]:
    """(card being played, how many of its targets are chosen)."""
    return view.card, len(view.chosen)


def _step_text(game, view) -> str:
    """What the actor chooses now for the pending card (second person)."""
    card, step = _target_step(view)
    ch = view.chosen
    if card == ARRGH:
        return "choose a coin in an opponent's take to send back to the middle"
    if card == PIECES:
        return "choose a coin in an opponent's take to take"
    if card == AVAST:
        if step == 0:
            return "choose a face-down coin of your take to swap away"
        return f"choose an opponent's face-down coin to swap your {coin_text(view, ch[0])} for"
    if card == BLOW:
        if step < 2:
            return f"choose the {'first' if step == 0 else 'second'} of two face-down middle " \
                   "coins to look at"
        coin = ch[0] if step == 2 else ch[1]
        return f"choose the opponent who gets coin {coin_text(view, coin)}"
    if card == BOOTY:
        return "choose a face-up coin in the middle to take"
    if card == SHIVER:
        return "choose the face-down middle coin to take" if step == 0 else \
            "choose the face-up middle coin to take"
    if card == LAND_HO:
        if step == 0:
            return "choose a face-down coin (middle or an opponent's take) to look at"
        return "choose a face-down coin (middle or an opponent's take) to take"
    if card == YO_HO:
        if step == 0:
            return "choose a face-up middle coin to give away"
        return f"choose the opponent who gets coin {coin_text(view, ch[0])}"
    return "choose a target"


def pending_action(game, view) -> str:
    """The fully chosen action waiting for blocks, as the view's player reads it
    ("send your coin #12 (5) back to the middle")."""
    me, ch, card = view.player, view.chosen, view.card
    if card == ARRGH:
        return f"send coin {coin_text(view, ch[0])} from {_where(game, view, ch[0])} back " \
               "to the middle"
    if card == PIECES:
        return f"take coin {coin_text(view, ch[0])} from {_where(game, view, ch[0])}"
    if card == AVAST:
        return f"swap {whose(game, view.actor, me)} coin {coin_text(view, ch[0])} for coin " \
               f"{coin_text(view, ch[1])} in {_where(game, view, ch[1])}"
    if card == BLOW:
        return f"give coin {coin_text(view, ch[0])} to {who(game, ch[2], me)} and coin " \
               f"{coin_text(view, ch[1])} to {who(game, ch[3], me)}"
    if card == YO_HO:
        return f"give coin {coin_text(view, ch[0])} to {who(game, ch[1], me)}"
    if card == LAND_HO:
        return f"take coin {coin_text(view, ch[1])} from {_where(game, view, ch[1])}"
    return f"play {CARD_NAMES[card]}"


def decision_prompt(game, view, legal) -> str:
    """What the view's player decides now, or whom the table waits for."""
    if not view.acting:
        return "The game is over: every take is full."
    me = view.player
    a = game.actions
    if me not in view.acting:
        actor = game.seat_name(view.acting[0])
        if view.phase == BLOCK:
            return f"Waiting for {actor} to block or allow the {CARD_NAMES[view.card]} of " \
                   f"{who(game, view.actor, me)}."
        if view.phase == CHOOSE:
            return f"Waiting for {actor}: their turn."
        return f"Waiting for {actor} to choose the targets of {CARD_NAMES[view.card]}."
    if view.phase == BLOCK:
        question = f"{game.seat_name(view.actor)} plays {CARD_NAMES[view.card]} to " \
                   f"{pending_action(game, view)}"
        if a.block in legal:
            return f"{question}: block it with {CARD_NAMES[HANDS_OFF]}, or allow it?"
        return f"{question}; you hold no {CARD_NAMES[HANDS_OFF]}, so you can only allow it."
    if view.phase == CHOOSE:
        if legal and all(a.discard <= x < a.coin for x in legal):
            return "Your turn: you can neither take a coin nor play a card, so discard a " \
                   "card and draw."
        can_take = any(a.coin <= x < a.player for x in legal)
        can_play = any(a.play <= x < a.discard for x in legal)
        if can_take and can_play:
            return "Your turn: take a face-down coin from the middle, or play a card."
        if can_take:
            return "Your turn: take a face-down coin from the middle (no card can be played)."
        return "Your turn: play a card (your take is full or no face-down coin is left)."
    return f"{CARD_NAMES[view.card]}: {_step_text(game, view)}."


def move_label(game, view, action: int) -> str:
    """What ``action`` does, naming the card, coin or opponent it acts on."""
    a = game.actions
    me = view.player
    if action == a.block:
        return f"block with {CARD_NAMES[HANDS_OFF]} (cancel the {CARD_NAMES[view.card]})"
    if action == a.allow:
        return f"allow the {CARD_NAMES[view.card]}" if view.card >= 0 else "allow"
    if a.play <= action < a.discard:
        k = action - a.play
        return f"play {CARD_NAMES[k]} ({CARD_EFFECTS[k]})"
    if a.discard <= action < a.coin:
        return f"discard {CARD_NAMES[action - a.discard]} and draw"
    if a.player <= action < a.block:
        seat = _target_seat(view, action, game)
        card, step = _target_step(view)
        coin = view.chosen[0] if card != BLOW or step == 2 else view.chosen[1]
        return f"give coin {coin_text(view, coin)} to {who(game, seat, me)}"
    coin = action - a.coin
    text, where = coin_text(view, coin), _where(game, view, coin)
    if view.phase == CHOOSE:
        known = view.coin_values[coin]
        seen = f" (you have seen it: {known})" if known >= 0 else ""
        return f"take face-down coin #{coin} from the middle{seen}"
    card, step = _target_step(view)
    if card == ARRGH:
        return f"send coin {text} in {where} back to the middle"
    if card == AVAST:
        return f"swap away your coin {text}" if step == 0 else \
            f"swap for coin {text} in {where}"
    if card in (BLOW, LAND_HO) and (card == BLOW or step == 0):
        return f"look at coin {text} in {where}"
    if card == YO_HO:
        return f"give away coin {text} from the middle"
    return f"take coin {text} from {where}"


__all__ = ["CARD_EFFECTS", "decision_prompt", "move_label", "pending_action"]
