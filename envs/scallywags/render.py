"""Text rendering of a Scallywags table, from one seat or omniscient."""

from __future__ import annotations

from plunder.envs.core.board import (
    board_of, count, item, legal_subset, seat_key, seat_title, zone,
)

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
#: one sentence per card, in CARD_NAMES order (the page shows it on the card)
CARD_TEXT = (
    "Send a coin from an opponent's take back to the middle.",
    "Swap a face-down coin of yours with an opponent's face-down coin.",
    "Look at two face-down middle coins, then give them to opponents.",
    "Take a face-up coin from the middle.",
    "Take a face-down and a face-up coin from the middle.",
    "Look at a face-down coin, then take any face-down coin.",
    "Take any coin from an opponent's take.",
    "Give a face-up middle coin to an opponent.",
    "Out of turn: cancel an action against your take.",
)


def _coin_item(game, v, c: int, legal: set[int], values=None, chosen=()) -> dict:
    """Coin ``c``: its value as the board's reader knows it (``values``: every value, for
    an omniscient or finished board), face up or down, who has seen it."""
    value = v.coin_values[c] if values is None or values[c] < 0 else values[c]
    tags = ["face-up" if v.face_up[c] else "face-down"]
    if value >= 0 and not v.face_up[c]:
        tags.append("known" if values is None else "revealed")
    if value == 0:
        tags.append("skull")
    if c in chosen:
        tags.append("chosen")
    seen = [game.seat_name(s) for s in range(v.num_players) if v.knowers[c] >> s & 1]
    text = ("face up" if v.face_up[c] else "face down") + (
        f"; seen by {', '.join(seen)}" if seen and not v.face_up[c] else "")
    owner = v.coin_owner[c]
    return item(f"#{c}", str(value) if value >= 0 else "?", "coin", tags,
                legal_subset(legal, [game.actions.coin + c]), text=text, key=f"coin:{c}",
                seat=owner if owner >= 0 else None)


def _card(game, k: int, detail: str = "", tags=(), actions=(), seat=None) -> dict:
    """A card of kind ``k``."""
    return item(CARD_NAMES[k], detail, "card", ["scallywags", *tags], actions,
                text=CARD_TEXT[k], seat=seat, key=f"card:{k}")


def _draw(game, v, legal: set[int], me: int | None, values=None, hands=None) -> dict:
    """The table of view ``v`` from seat ``me`` (None: omniscient, every hand in
    ``hands`` and every value in ``values``); ``values`` alone: the coins turned over at
    the end."""
    a = game.actions
    n = v.num_players
    pending = set(v.chosen) if v.card >= 0 and v.card != BLOW else set()
    if v.card == BLOW:
        pending = set(v.chosen[:2])
    coins = range(len(v.coin_owner))
    middle = [_coin_item(game, v, c, legal, values, pending) for c in coins
              if v.coin_owner[c] == MIDDLE]
    up = sum(v.face_up[c] for c in coins if v.coin_owner[c] == MIDDLE)
    zones = [zone("Middle", middle, note=f"{count(len(middle), 'coin')}, {up} face up",
                  key="middle")]
    for s, take in enumerate(v.takes):
        offset = (s - v.actor) % n
        targets = legal_subset(legal, [a.player + offset - 1]) if offset else []
        items = [_coin_item(game, v, c, legal, values, pending) for c in take]
        known = [values[c] if values is not None and values[c] >= 0 else v.coin_values[c]
                 for c in take]
        note = f"{count(v.hand_sizes[s], 'card')} in hand"
        if all(x >= 0 for x in known):
            note += f"; worth {sum(known)}"
        if hands is not None:
            items += [_card(game, k, f"x{copies}", ["in-hand"], seat=s)
                      for k, copies in enumerate(hands[s]) if copies]
        zones.append(zone(f"{seat_title(game, s, me)}: take {len(take)}/{v.take_limit}",
                          items, targets, note=note, seat=s))
    if me is not None:
        hand = [_card(game, k, f"x{copies}", (),
                      legal_subset(legal, [a.play + k, a.discard + k]), seat=me)
                for k, copies in enumerate(v.hand) if copies]
        zones.append(zone("Your hand", hand, key="hand", seat=me))
    piles = [item("Draw pile", count(v.draw_size, "card"), "pile", ["face-down"],
                  key="draw"),
             item("Discard pile", count(sum(v.discard), "card"), "pile", [], key="discard",
                  text=", ".join(f"{CARD_NAMES[k]} x{c}" for k, c in enumerate(v.discard)
                                 if c))]
    zones.append(zone("Cards", piles, key="cards"))
    if v.card >= 0:
        asked = f"asking {', '.join(game.seat_name(s) for s in v.acting)}" \
            if v.phase == BLOCK else ""
        zones.append(zone(f"{game.seat_name(v.actor)} plays",
                          [_card(game, v.card, asked, ["in-play"],
                                 legal_subset(legal, [a.block, a.allow]), seat=v.actor)],
                          note="targets chosen so far are ringed", key="in-play"))
    return board_of(zones)


def board(game, v, legal: set[int], end=None) -> dict:
    """Coins in the middle and in each take (values as this seat knows them; every take's
    coins face up once the game is over), the hand, the piles, the card in play."""
    table = _draw(game, v, legal, v.player, values=None if end is None else end["values"])
    if end is not None:
        table["headline"] = "game over: every take turned face up for the count"
    return table


def end_facts(state) -> dict:
    """What the end of a game shows everyone: the value of every coin in a take."""
    values = [-1] * len(state.values)
    for take in state.takes:
        for c in take:
            values[c] = int(state.values[c])
    return {"values": values}


def full_board(game, state) -> dict:
    """The omniscient board: every coin's value and every hand."""
    table = _draw(game, state.view(0), set(), None, values=[int(x) for x in state.values],
                  hands=state.hands)
    table["headline"] = "everything face up: a coin with a dashed rim lies face down"
    return table


def last_keys(game, v, seat: int, action: int) -> list[str]:
    """What a move touched: the coin it picks, the seat it gives a coin to (and the coin),
    the card it plays."""
    a = game.actions
    if action is None:      # every move is public
        return []
    if a.coin <= action < a.player:
        return [f"coin:{action - a.coin}"]
    if a.player <= action < a.block:
        step = len(v.chosen)
        coin = v.chosen[0] if v.card != BLOW else v.chosen[step - 2]
        return [seat_key((seat + action - a.player + 1) % v.num_players), f"coin:{coin}"]
    if action < a.coin:
        return ["discard", "in-play"]
    return ["in-play"]
