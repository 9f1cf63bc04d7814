"""Scallywags move log and score breakdown (see ``plunder.envs.core.movelog``).

Every Scallywags action is public (cards played and discarded, targets, blocks), so every
action is named. What a coin is worth is written only where the observer's view knows it:
``#17 [5]`` face up, ``#17 (5)`` face down but known to the observer, ``#17 (?)`` unknown.
Coin movements come from comparing the observer's views before and after the step, so a
card's effect (or a block that cancels it) shows up as the coins that moved.
"""

from __future__ import annotations

from plunder.envs.core.movelog import who, whose

from .components import AVAST, BLOW, CARD_NAMES, HANDS_OFF, LAND_HO, NUM_CARDS
from .engine import BLOCK, CHOOSE, MIDDLE, TARGET


def coin_text(view, coin: int) -> str:
    """``#17 [5]`` (face up), ``#17 (5)`` (known to the view's player) or ``#17 (?)``."""
    value = view.coin_values[coin]
    if view.face_up[coin]:
        return f"#{coin} [{value}]"
    return f"#{coin} ({value if value >= 0 else '?'})"


def place_text(game, view, coin: int, observer: int) -> str:
    """Where a coin lies: ``the middle``, ``your take`` or ``player_2's take``."""
    seat = view.coin_owner[coin]
    if seat == MIDDLE:
        return "the middle"
    return f"{whose(game, seat, observer)} take"


def describe_step(game, before, after, actors, public_actions, observer) -> list[str]:
    """The lines ``observer`` learns from one step (every Scallywags action is public)."""
    (seat, action), = public_actions.items()
    a = game.actions
    actor = who(game, seat, observer)
    lines: list[str] = []
    if before.phase == CHOOSE:
        if action < a.discard:
            lines.append(f"{actor} plays {CARD_NAMES[action - a.play]}")
        elif action < a.coin:
            lines.append(f"{actor} cannot move and discards {CARD_NAMES[action - a.discard]}")
        else:
            coin = action - a.coin
            lines.append(f"{actor} takes face-down coin {coin_text(after, coin)} "
                         "from the middle")
    elif before.phase == TARGET:
        lines.append(_target_line(game, before, after, seat, action, observer))
    elif before.phase == BLOCK:
        if action == a.block:
            lines.append(f"{actor} blocks with {CARD_NAMES[HANDS_OFF]}: the "
                         f"{CARD_NAMES[before.card]} of {who(game, before.actor, observer)} "
                         "is cancelled")
        else:
            lines.append(f"{actor} allows the {CARD_NAMES[before.card]}")
    lines.extend(_coin_moves(game, before, after, observer))
    if after.reshuffled != before.reshuffled or after.draw_size > before.draw_size:
        lines.append("the discard pile is shuffled into a new draw pile")
    kept = list(before.hand)       # the observer's hand less what it gave up this step
    if seat == observer and before.phase == CHOOSE and action < a.coin:
        kept[(action - a.play) % NUM_CARDS] -= 1
    if seat == observer and before.phase == BLOCK and action == a.block:
        kept[HANDS_OFF] -= 1
    drawn = [k for k in range(NUM_CARDS) for _ in range(after.hand[k] - kept[k])]
    if drawn:
        lines.append(f"{who(game, observer, observer)} draws "
                     + ", ".join(CARD_NAMES[k] for k in drawn))
    if all(len(t) == after.take_limit for t in after.takes) and \
            not all(len(t) == before.take_limit for t in before.takes):
        lines.append("every take is full: the game is over")
    return lines


def _target_line(game, before, after, seat, action, observer) -> str:
    """One target of the pending card: a coin (looked at, picked) or an opponent."""
    a = game.actions
    actor = who(game, seat, observer)
    card, step = before.card, len(before.chosen)
    if action >= a.player:       # YO HO HO! or BLOW ME DOWN!: who gets a coin
        target = (before.actor + action - a.player + 1) % before.num_players
        coin = before.chosen[0] if card != BLOW else before.chosen[step - 2]
        return f"{actor} gives coin {coin_text(after, coin)} to {who(game, target, observer)}"
    coin = action - a.coin
    where = place_text(game, before, coin, observer)
    if card == BLOW:             # the two coins are looked at once both are chosen
        return f"{actor} chooses coin {coin_text(after, coin)} in {where} to look at"
    if card == LAND_HO and step == 0:
        return f"{actor} looks at coin {coin_text(after, coin)} in {where}"
    if card == AVAST:
        verb = "offers" if step == 0 else "wants"
        return f"{actor} {verb} coin {coin_text(after, coin)} from {where}"
    return f"{actor} picks coin {coin_text(after, coin)} in {where}"


def _coin_moves(game, before, after, observer) -> list[str]:
    """A line per coin that changed places (values as the observer knows them after)."""
    lines = []
    for coin, (old, new) in enumerate(zip(before.coin_owner, after.coin_owner)):
        if old != new and not (before.phase == CHOOSE and old == MIDDLE):
            lines.append(f"coin {coin_text(after, coin)} moves from "
                         f"{place_text(game, before, coin, observer)} to "
                         f"{place_text(game, after, coin, observer)}")
    return lines


def score_breakdown(state) -> list[tuple[str, list[float]]]:
    """Points per coin value in each take (skulls score nothing and are left out)."""
    values = sorted({v for v in state.values if v > 0}, reverse=True)
    return [(f"coins of {v}", [float(v * sum(state.values[c] == v for c in take))
                               for take in state.takes]) for v in values]
