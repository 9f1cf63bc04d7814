"""Text rendering of a Scallywags table, from one seat or omniscient."""

from __future__ import annotations

from plunder.envs.core.board import count, item, legal_subset, seat_title, zone

from .components import CARD_NAMES, NUM_CARDS
from .engine import MIDDLE


def _coin(value, up: bool) -> str:
    if up:
        return f"[{value}]"
    return "(?)" if value is None or value < 0 else f"({value})"


def describe_view(game, view) -> str:
    """The table as ``view.player`` sees it: [v] face up, (v) face down known, (?) unknown."""
    lines = [f"Scallywags — seen by player_{view.player}; turn {view.turns}, "
             f"player_{view.actor} to play ({view.phase})"]
    middle = [f"#{c}{_coin(view.coin_values[c], view.face_up[c])}"
              for c in range(len(view.coin_owner)) if view.coin_owner[c] == MIDDLE]
    lines.append("middle: " + (" ".join(middle) or "-"))
    for seat, take in enumerate(view.takes):
        coins = " ".join(f"#{c}{_coin(view.coin_values[c], view.face_up[c])}" for c in take)
        who = "you" if seat == view.player else f"{view.hand_sizes[seat]} cards"
        lines.append(f"player_{seat} ({who}) take {len(take)}/{view.take_limit}: {coins or '-'}")
    hand = ", ".join(f"{CARD_NAMES[k]} x{view.hand[k]}" for k in range(NUM_CARDS) if view.hand[k])
    lines.append(f"your hand: {hand or '-'}")
    lines.append(f"draw pile {view.draw_size}, discard pile {sum(view.discard)}")
    if view.card >= 0:
        lines.append(f"pending: {CARD_NAMES[view.card]} targets {list(view.chosen)}"
                     + (f", asking {list(view.block_queue)}" if view.block_queue else ""))
    return "\n".join(lines)


def describe_full(state) -> str:
    """Omniscient table: all coin values and hands."""
    lines = [f"Scallywags — omniscient; turn {state.turns}, player_{state.actor} to play "
             f"({state.phase})"]
    lines.append("middle: " + (" ".join(
        f"#{c}{_coin(state.values[c], state.face_up[c])}" for c in state.middle) or "-"))
    for seat, take in enumerate(state.takes):
        coins = " ".join(f"#{c}{_coin(state.values[c], state.face_up[c])}" for c in take)
        hand = ", ".join(f"{CARD_NAMES[k]} x{state.hands[seat][k]}"
                         for k in range(NUM_CARDS) if state.hands[seat][k])
        lines.append(f"player_{seat} take {len(take)}/{state.limit} "
                     f"(score {sum(state.values[c] for c in take)}): {coins or '-'} | {hand}")
    lines.append(f"draw pile {len(state.draw_pile)}, discard pile {len(state.discard)}")
    if state.card >= 0:
        lines.append(f"pending: {CARD_NAMES[state.card]} targets {state.chosen}")
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
