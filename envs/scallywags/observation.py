"""Scallywags observation: a flat float32 vector built from a player's view alone.

Seats are relative to the observer: offset 0 is the observer, offset d the player d seats
to its left; offsets beyond the player count stay zero. Coin blocks are indexed by coin id
(ids are random labels: a coin's id says nothing about its value). The layout, index by
index, is ``ScallywagsGame(n).layout.describe()`` (also in the env's docstring).
"""

from __future__ import annotations

import numpy as np

from plunder.envs.core.layout import LayoutBuilder, ObservationLayout

from .components import NUM_CARDS
from .engine import MAX_OPPONENTS, MIDDLE, PHASES

SEATS = MAX_OPPONENTS + 1


def build_layout(game) -> ObservationLayout:
    """The layout for ``game``'s coin count and value set."""
    nc = game.num_coins
    nv = len(game.components.distinct_values)
    b = LayoutBuilder()
    b.add("coin_in_middle", nc, "coin c lies in the middle")
    b.add("coin_in_take", nc * SEATS, "coin c lies in the take of seat offset d (c*6+d)")
    b.add("coin_slot", nc, "coin c's position in its take / take limit (0 in the middle)")
    b.add("coin_face_up", nc, "coin c is face up")
    b.add("coin_value_known", nc, "observer knows coin c's value (face up or seen)")
    b.add("coin_value", nc * nv, "one-hot of coin c's value among the distinct values "
          "(c*values+i), zero when unknown")
    b.add("coin_known_by", nc * SEATS, "seat offset d has seen coin c (c*6+d; public)")
    b.add("coin_selected", nc, "coin c is a chosen target of the pending card")
    b.add("hand", NUM_CARDS, "own hand: copies of card k / hand size", high=20)
    b.add("hand_size", SEATS, "cards in hand of seat offset d / hand size", high=20)
    b.add("take_size", SEATS, "coins in the take of seat offset d / take limit")
    b.add("take_known_value", SEATS, "value of the coins of offset d's take that the "
          "observer knows / (take limit * 8)", high=20)
    b.add("take_unknown", SEATS, "coins of offset d's take whose value the observer "
          "does not know / take limit")
    b.add("discard", NUM_CARDS, "discard pile: copies of card k / copies in the game")
    b.add("draw_size", 1, "cards in the draw pile / cards in the game")
    b.add("unknown_mean", 1, "mean value of the coins the observer has not seen / 8",
          high=20)
    b.add("seat_present", SEATS, "seat offset d is a player in this game")
    b.add("actor", SEATS, "one-hot: seat offset whose turn it is")
    b.add("to_act", SEATS, "one-hot: seat offset asked to decide now")
    b.add("phase", len(PHASES), "one-hot: choose / target / block")
    b.add("pending_card", NUM_CARDS, "one-hot: card being played")
    b.add("pending_step", 1, "targets chosen so far / 4")
    b.add("pending_receiver", SEATS, "seat offset chosen as a receiver of the pending card")
    b.add("turn", 1, "turns played / 400 (clipped at 1)")
    return b.build()


def encode(game, view) -> np.ndarray:
    """The observation vector of ``view`` (reads nothing else)."""
    lay = game.layout
    out = lay.zeros()
    n, me, nc = view.num_players, view.player, game.num_coins
    comp = game.components
    distinct = comp.distinct_values
    limit = view.take_limit

    def put(name, values):
        out[lay.slice(name)] = values

    def rel(seat):
        return (seat - me) % n

    owner = np.asarray(view.coin_owner)
    in_middle = owner == MIDDLE
    put("coin_in_middle", in_middle)
    take_block = np.zeros((nc, SEATS), np.float32)
    slot = np.zeros(nc, np.float32)
    for seat, take in enumerate(view.takes):
        d = rel(seat)
        for i, c in enumerate(take):
            take_block[c, d] = 1.0
            slot[c] = (i + 1) / limit
    put("coin_in_take", take_block.ravel())
    put("coin_slot", slot)
    put("coin_face_up", view.face_up)
    known = np.array([v is not None for v in view.coin_values], np.float32)
    put("coin_value_known", known)
    value_block = np.zeros((nc, len(distinct)), np.float32)
    index = {v: i for i, v in enumerate(distinct)}
    known_sum = np.zeros(SEATS, np.float32)
    unknown_cnt = np.zeros(SEATS, np.float32)
    seen_total, seen_count = 0, 0
    for c, v in enumerate(view.coin_values):
        o = view.coin_owner[c]
        if v is not None:
            value_block[c, index[v]] = 1.0
            seen_total += v
            seen_count += 1
            if o != MIDDLE:
                known_sum[rel(o)] += v
        elif o != MIDDLE:
            unknown_cnt[rel(o)] += 1
    put("coin_value", value_block.ravel())
    knowers = np.asarray(view.knowers, dtype=np.int64)
    kb = np.zeros((nc, SEATS), np.float32)
    for seat in range(n):
        kb[:, rel(seat)] = (knowers >> seat) & 1
    put("coin_known_by", kb.ravel())
    selected = np.zeros(nc, np.float32)
    receivers = np.zeros(SEATS, np.float32)
    if view.card >= 0:
        coin_steps = _coin_steps(view.card, len(view.chosen))
        for i, t in enumerate(view.chosen):
            if i in coin_steps:
                selected[t] = 1.0
            else:
                receivers[rel(t)] = 1.0
    put("coin_selected", selected)
    hs = comp.hand_size
    put("hand", np.asarray(view.hand, np.float32) / hs)
    sizes = np.zeros(SEATS, np.float32)
    tsz = np.zeros(SEATS, np.float32)
    present = np.zeros(SEATS, np.float32)
    for seat in range(n):
        d = rel(seat)
        sizes[d] = view.hand_sizes[seat] / hs
        tsz[d] = len(view.takes[seat]) / limit
        present[d] = 1.0
    put("hand_size", sizes)
    put("take_size", tsz)
    put("take_known_value", known_sum / (limit * 8))
    put("take_unknown", unknown_cnt / limit)
    copies = np.maximum(np.asarray(comp.card_copies, np.float32), 1)
    put("discard", np.asarray(view.discard, np.float32) / copies)
    put("draw_size", [view.draw_size / max(sum(comp.card_copies), 1)])
    unseen = len(comp.coin_values) - seen_count
    put("unknown_mean", [((sum(comp.coin_values) - seen_total) / unseen / 8) if unseen else 0])
    put("seat_present", present)
    out[lay.slice("actor").start + rel(view.actor)] = 1.0
    for seat in view.acting:
        out[lay.slice("to_act").start + rel(seat)] = 1.0
    out[lay.slice("phase").start + PHASES.index(view.phase)] = 1.0
    if view.card >= 0:
        out[lay.slice("pending_card").start + view.card] = 1.0
    put("pending_step", [len(view.chosen) / 4])
    put("pending_receiver", receivers)
    put("turn", [min(view.turns / 400, 1.0)])
    return out


def _coin_steps(card: int, steps: int) -> set[int]:
    """Which target steps of ``card`` are coins (the others are seats)."""
    from .components import BLOW, YO_HO
    if card == BLOW:
        return {0, 1}
    if card == YO_HO:
        return {0}
    return set(range(steps))
