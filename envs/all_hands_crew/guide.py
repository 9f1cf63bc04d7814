"""What an All Hands on Deck (crew) player is told (``plunder.envs.core.guide``): what is
being decided and what each move does, from that player's view only."""

from __future__ import annotations

from plunder.envs.core.board import count
from plunder.envs.core.guide import waiting_for
from plunder.envs.core.movelog import who, whose

#: the actions a pair gives, in words
ACTION_WORDS = {"double_hire": "Double hire next round", "snatch": "Snatch",
                "spyglass": "Spyglass next round", "short_rations": "Short rations",
                "curse": "Curse"}
#: what choosing a target of each pending action does to them
TARGET_WORDS = {"snatch": "Snatch a random card from {whose} Crew Pile",
                "curse": "Curse {who} (-1 point)",
                "short_rations": "put {who} on Short rations (1 stock card next round)"}


def _pile_text(game, view, seat: int) -> str:
    """``player_1's pile (12 cards, top: Cook)`` as the view's player knows it."""
    pile = view.pile(seat)
    top = game.comps.kind_names[pile[-1][1]] if pile and pile[-1][1] >= 0 else "unknown"
    owner = "your pile" if seat == view.player else f"{game.seat_name(seat)}'s pile"
    return f"{owner} ({count(len(pile), 'card')}, top {top})"


def decision_prompt(game, view, legal) -> str:
    """What the view's player decides now, or whom the table waits for."""
    me, phase = view.player, view.phase
    if phase == "over":
        return "The game is over: the Drawing Piles are nearly empty."
    if me not in view.acting:
        who_ = waiting_for(game, view.acting)
        doing = {"draw": "to draw a stock card", "spyglass": "to use a Spyglass",
                 "hire": "to hire from their stock", "lay": "to lay out combinations",
                 "target": "to choose a target"}.get(phase, "to decide")
        return f"Waiting for {who_} {doing}."
    if phase == "draw":
        have, due = len(view.stock[me]), view.draw_target[me]
        return f"Draw stock card {have + 1} of {due}: take the top card of any Drawing " \
               "Pile (unseen until hiring)."
    if phase == "spyglass":
        return "Spyglass: take the top two cards of one Drawing Pile at once, or forfeit it."
    if phase == "hire":
        if view.hire_step > 0:
            return "Double hire: hire one more of your stock cards into your Crew Pile, or pass."
        return "Hire one of your stock cards into your Crew Pile (the others go back on " \
               "your pile)."
    if phase == "lay":
        return "Lay out a combination from your Crew Pile (one at a time), or pass to end " \
               "your laying out."
    if phase == "target":
        return f"{ACTION_WORDS.get(view.pending, view.pending)}: choose the player it is " \
               "used on, or forfeit it."
    return "Your decision: choose a move."


def move_label(game, view, action: int) -> str:
    """What ``action`` does, naming the pile, stock card, combination or player."""
    a = game.actions
    me, n = view.player, view.num_players
    names = game.comps.kind_names
    if action == a.pass_turn:
        if view.phase == "lay":
            return "pass: done laying out this round"
        if view.phase == "spyglass":
            return "pass: forfeit the Spyglass"
        if view.phase == "hire":
            return "pass: no further Double-hire pick"
        if view.phase == "target":
            return f"pass: forfeit the {ACTION_WORDS.get(view.pending, view.pending)}"
        return "pass"
    if a.draw <= action < a.hire:
        seat = (me + action - a.draw) % n
        verb = "take the top two cards of" if view.phase == "spyglass" else "draw from"
        return f"{verb} {_pile_text(game, view, seat)}"
    if a.hire <= action < a.lay:
        i = action - a.hire
        stock = view.stock[me]
        kind = stock[i][0] if i < len(stock) else -1
        name = names[kind] if kind >= 0 else "an unseen card"
        return f"hire {name} (stock card {i + 1})"
    if a.lay <= action < a.target:
        combo = game.combos[action - a.lay]
        extra = ACTION_WORDS.get(combo.action)
        points = count(combo.points, "point")
        return f"lay out {combo.name} ({points}" + (f", {extra})" if extra else ")")
    seat = (me + action - a.target + 1) % n
    words = TARGET_WORDS.get(view.pending, "choose {who}")
    text = words.format(who=who(game, seat, me), whose=whose(game, seat, me))
    return f"{text} ({count(view.crew_sizes[seat], 'card')})" if view.pending == "snatch" \
        else text


__all__ = ["ACTION_WORDS", "TARGET_WORDS", "decision_prompt", "move_label"]
