"""Text rendering of a Scallywags table, from one seat or omniscient."""

from __future__ import annotations

from plunder.envs.core.board import count, item, legal_subset, seat_title, zone

from .components import BLOW, CARD_NAMES, NUM_CARDS, YO_HO
from .engine import BLOCK, MIDDLE


def _coin(value, up: bool) -> str:
    if up:
        return f"[{value}]"
    return "(?)" if value is None or value < 0 else f"({value})"


#: how the text table writes a coin
COIN_LEGEND = "coins: #id[v] face up, #id(v) face down (you have seen it), #id(?) unseen"


def _turn_line(game, who: str, view_or_state, me: int | None) -> str:
    """The header: whose turn it is and, while a card waits for blocks, who is asked."""
    actor = view_or_state.actor
    whose = "your" if actor == me else f"{game.seat_name(actor)}'s"
    line = f"Scallywags — {who}; turn {view_or_state.turns}: {whose} turn"
    if view_or_state.phase == BLOCK:
        asked = who_name(game, view_or_state.block_queue[0], me)
        line += f"; {asked} to block or allow"
    return line


def who_name(game, seat: int, me: int | None) -> str:
    """``player_2``, or ``you`` for the viewer."""
    return "you" if seat == me else game.seat_name(seat)


def describe_view(game, view) -> str:
    """The table as ``view.player`` sees it: [v] face up, (v) face down known, (?) unknown."""
    from .guide import pending_action
    from .movelog import coin_text

    me = view.player
    lines = [_turn_line(game, f"seen by {game.seat_name(me)} (you)", view, me), COIN_LEGEND]
    middle = [f"#{c}{_coin(view.coin_values[c], view.face_up[c])}"
              for c in range(len(view.coin_owner)) if view.coin_owner[c] == MIDDLE]
    lines.append("middle: " + (" ".join(middle) or "-"))
    for seat, take in enumerate(view.takes):
        coins = " ".join(f"#{c}{_coin(view.coin_values[c], view.face_up[c])}" for c in take)
        who = "you" if seat == me else count(view.hand_sizes[seat], "card")
        lines.append(f"{game.seat_name(seat)} ({who}) take {len(take)}/{view.take_limit}: "
                     f"{coins or '-'}")
    hand = ", ".join(f"{CARD_NAMES[k]} x{view.hand[k]}" for k in range(NUM_CARDS) if view.hand[k])
    lines.append(f"your hand: {hand or '-'}")
    lines.append(f"draw pile {view.draw_size}, discard pile {sum(view.discard)}")
    if view.card >= 0:
        card = f"{who_name(game, view.actor, me)} played {CARD_NAMES[view.card]}"
        if view.phase == BLOCK:
            asked = ", ".join(who_name(game, q, me) for q in view.block_queue)
            lines.append(f"in play: {card}, to {pending_action(game, view)}; still to "
                         f"answer: {asked}")
        else:
            chosen = _chosen_text(game, view.card, view.chosen,
                                  lambda c: coin_text(view, c), me)
            lines.append(f"in play: {card}" + (f"; chosen so far: {chosen}" if chosen else
                                              "; choosing its targets"))
    return "\n".join(lines)


def _chosen_text(game, card: int, chosen, coin, me) -> str:
    """The pending card's targets chosen so far (coins written by ``coin(id)``, then the
    seats BLOW ME DOWN! and YO HO HO! give to)."""
    parts = []
    for i, target in enumerate(chosen):
        is_seat = (card == BLOW and i >= 2) or (card == YO_HO and i >= 1)
        parts.append(who_name(game, target, me) if is_seat else f"coin {coin(target)}")
    return ", ".join(parts)


def describe_full(state) -> str:
    """Omniscient table: all coin values and hands."""
    game = state.game
    lines = [_turn_line(game, "omniscient", state, None),
             "coins: #id[v] face up, #id(v) face down"]
    lines.append("middle: " + (" ".join(
        f"#{c}{_coin(state.values[c], state.face_up[c])}" for c in state.middle) or "-"))
    for seat, take in enumerate(state.takes):
        coins = " ".join(f"#{c}{_coin(state.values[c], state.face_up[c])}" for c in take)
        hand = ", ".join(f"{CARD_NAMES[k]} x{state.hands[seat][k]}"
                         for k in range(NUM_CARDS) if state.hands[seat][k])
        lines.append(f"{game.seat_name(seat)} take {len(take)}/{state.limit} "
                     f"(score {sum(state.values[c] for c in take)}): {coins or '-'} | {hand}")
    lines.append(f"draw pile {len(state.draw_pile)}, discard pile {len(state.discard)}")
    if state.card >= 0:
        chosen = _chosen_text(game, state.card, state.chosen,
                              lambda c: f"#{c}{_coin(state.values[c], state.face_up[c])}", None)
        lines.append(f"in play: {game.seat_name(state.actor)} played {CARD_NAMES[state.card]}"
                     + (f"; chosen: {chosen}" if chosen else ""))
    return "\n".join(lines)


# -- the web page's board (plunder.envs.core.board) ------------------------------------
def board(game, v, legal: set[int]) -> dict:
    """Coins in the middle and in each take (values as this seat knows them), the hand."""
    from plunder.envs.scallywags.components import CARD_NAMES

    a = game.actions
    n = v.num_players

    def coin(c: int) -> dict:
        """Coin ``c`` as this seat knows it (its value, or ? if unseen)."""
        value = v.coin_values[c]
        tags = ["face-up" if v.face_up[c] else "face-down"]
        if value >= 0 and not v.face_up[c]:
            tags.append("known")
        return item(f"#{c}", str(value) if value >= 0 else "?", "coin", tags,
                    legal_subset(legal, [a.coin + c]))

    middle = [coin(c) for c, owner in enumerate(v.coin_owner) if owner == -1]
    zones = [zone("Middle", middle, note=f"{len(middle)} coins")]
    for s, take in enumerate(v.takes):
        offset = (s - v.player) % n
        targets = legal_subset(legal, [a.player + offset - 1]) if offset else []
        zones.append(zone(f"{seat_title(game, s, v.player)}: take {len(take)}/{v.take_limit}",
                          [coin(c) for c in take], targets,
                          note=f"{count(v.hand_sizes[s], 'card')} in hand"))
    hand = [item(CARD_NAMES[k], f"x{copies}", "card", (),
                 legal_subset(legal, [a.play + k, a.discard + k]))
            for k, copies in enumerate(v.hand) if copies]
    zones.append(zone("Your hand", hand,
                      note=f"draw pile {v.draw_size}, discard pile {sum(v.discard)}"))
    if v.card >= 0:
        zones.append(zone(f"{game.seat_name(v.actor)} plays",
                          [item(CARD_NAMES[v.card], v.phase, "card", ["in-play"],
                                legal_subset(legal, [a.block, a.allow]))]))
    return {"zones": zones}
