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
    sl = _slices(game)
    out = np.zeros(game.layout.size, np.float32)
    n, me, nc = view.num_players, view.player, game.num_coins
    comp = game.components
    limit = view.take_limit
    seats = np.arange(n)
    rel_of = (seats - me) % n                      # absolute seat -> offset

    owner = np.asarray(view.coin_owner)
    owned = owner >= 0
    rel = np.where(owned, rel_of[owner], 0)
    out[sl["coin_in_middle"]] = ~owned
    take_block = np.zeros((nc, SEATS), np.float32)
    take_block[owned, rel[owned]] = 1.0
    out[sl["coin_in_take"]] = take_block.ravel()
    out[sl["coin_slot"]] = np.array(view.coin_slot, np.float32) / limit
    out[sl["coin_face_up"]] = view.face_up
    values = np.array(view.coin_values)
    known = values >= 0
    out[sl["coin_known"]] = known
    value_block = np.zeros((nc, len(comp.distinct_values)), np.float32)
    value_block[known, game.value_index[values[known]]] = 1.0
    out[sl["coin_value"]] = value_block.ravel()
    kn = owned & known
    out[sl["take_known_value"]][:SEATS] = np.bincount(
        rel[kn], weights=values[kn], minlength=SEATS)[:SEATS] / (limit * 8)
    un = owned & ~known
    out[sl["take_unknown"]] = np.bincount(rel[un], minlength=SEATS)[:SEATS] / limit
    bits = (np.asarray(view.knowers, dtype=np.int64)[:, None] >> seats) & 1
    kb = np.zeros((nc, SEATS), np.float32)
    kb[:, rel_of] = bits
    out[sl["coin_known_by"]] = kb.ravel()
    if view.card >= 0:
        coin_steps = _coin_steps(view.card, len(view.chosen))
        sel = out[sl["coin_selected"]]
        rec = out[sl["pending_receiver"]]
        for i, t in enumerate(view.chosen):
            if i in coin_steps:
                sel[t] = 1.0
            else:
                rec[rel_of[t]] = 1.0
        out[sl["pending_card"].start + view.card] = 1.0
    hs = comp.hand_size
    out[sl["hand"]] = np.asarray(view.hand, np.float32) / hs
    out[sl["hand_size"].start + rel_of] = np.asarray(view.hand_sizes, np.float32) / hs
    out[sl["take_size"].start + rel_of] = np.bincount(
        owner[owned], minlength=n)[:n] / limit
    out[sl["seat_present"].start + rel_of] = 1.0
    out[sl["discard"]] = np.asarray(view.discard, np.float32) / game.card_copies_norm
    out[sl["draw_size"].start] = view.draw_size / game.total_cards
    seen = values[known]
    unseen = nc - len(seen)
    if unseen:
        out[sl["unknown_mean"].start] = (game.total_value - seen.sum()) / unseen / 8
    out[sl["actor"].start + rel_of[view.actor]] = 1.0
    for seat in view.acting:
        out[sl["to_act"].start + rel_of[seat]] = 1.0
    out[sl["phase"].start + PHASES.index(view.phase)] = 1.0
    out[sl["pending_step"].start] = len(view.chosen) / 4
    out[sl["turn"].start] = min(view.turns / 400, 1.0)
    return out


def _slices(game) -> dict[str, slice]:
    cache = game.__dict__.get("_slice_cache")
    if cache is None:
        lay = game.layout
        cache = {name: lay.slice(name) for name in lay.names()}
        cache["coin_known"] = cache["coin_value_known"]
        comp = game.components
        game._slice_cache = cache
        lookup = np.zeros(max(comp.distinct_values) + 1, dtype=np.int64)
        for i, v in enumerate(comp.distinct_values):
            lookup[v] = i
        game.value_index = lookup
        game.card_copies_norm = np.maximum(np.asarray(comp.card_copies, np.float32), 1)
        game.total_cards = max(sum(comp.card_copies), 1)
        game.total_value = sum(comp.coin_values)
    return cache


def _coin_steps(card: int, steps: int) -> set[int]:
    """Which target steps of ``card`` are coins (the others are seats)."""
    from .components import BLOW, YO_HO
    if card == BLOW:
        return {0, 1}
    if card == YO_HO:
        return {0}
    return set(range(steps))
