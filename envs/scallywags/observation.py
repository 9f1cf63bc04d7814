"""Scallywags observation: a flat float32 vector built from a player's view alone.

Seats are relative to the observer: offset 0 is the observer, offset d the player d seats
to its left; offsets beyond the player count stay zero. Coin blocks are indexed by coin id
(ids are random labels: a coin's id says nothing about its value). The layout, index by
index, is ``ScallywagsGame(n).layout.describe()`` (also in the env's docstring).
"""

from __future__ import annotations

import numpy as np

from plunder.envs.core.layout import LayoutBuilder, ObservationLayout

from .components import BLOW, NUM_CARDS, YO_HO
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
    # derived from the coins alone (memoised with the coin blocks)
    b.add("take_size", SEATS, "coins in the take of seat offset d / take limit")
    b.add("take_known_value", SEATS, "value of the coins of offset d's take that the "
          "observer knows / (take limit * 8)", high=20)
    b.add("take_unknown", SEATS, "coins of offset d's take whose value the observer "
          "does not know / take limit")
    b.add("unknown_mean", 1, "mean value of the coins the observer has not seen / 8",
          high=20)
    b.add("seat_present", SEATS, "seat offset d is a player in this game")
    # everything else, rebuilt every step
    b.add("coin_selected", nc, "coin c is a chosen target of the pending card")
    b.add("hand", NUM_CARDS, "own hand: copies of card k / hand size", high=20)
    b.add("hand_size", SEATS, "cards in hand of seat offset d / hand size", high=20)
    b.add("discard", NUM_CARDS, "discard pile: copies of card k / copies in the game")
    b.add("draw_size", 1, "cards in the draw pile / cards in the game")
    b.add("reshuffled", NUM_CARDS, "the last reshuffled draw pile: copies of card k / "
          "copies in the game (the draw pile is part of it)")
    b.add("actor", SEATS, "one-hot: seat offset whose turn it is")
    b.add("to_act", SEATS, "one-hot: seat offset asked to decide now")
    b.add("phase", len(PHASES), "one-hot: choose / target / block")
    b.add("pending_card", NUM_CARDS, "one-hot: card being played")
    b.add("pending_step", 1, "targets chosen so far / 4")
    b.add("pending_receiver", SEATS, "seat offset chosen as a receiver of the pending card")
    b.add("turn", 1, "turns played / 400 (clipped at 1)")
    return b.build()


def encode(game, view) -> np.ndarray:
    """The observation vector of ``view`` (reads nothing else).

    The coin part (the per-coin blocks and the take statistics) depends only on where the
    coins are, their sides and who has seen them; it is memoised on exactly those view
    fields (a pure function of the view), since most steps move no coin. The per-coin
    blocks are looked up in precomputed row tables (one row per location, side, known
    value and slot; one per who-has-seen-it mask).
    """
    t = _tables(game)
    n, me = view.num_players, view.player
    key = (n, me, view.coin_owner, view.coin_values, view.coin_slot, view.knowers,
           view.face_up)
    base = t.coin_cache.get(key)
    if base is None:
        base = _coin_part(t, view)
        if len(t.coin_cache) >= 1024:
            t.coin_cache.clear()
        t.coin_cache[key] = base
    out = base.copy()

    actor, to_act, receivers = [0.0] * SEATS, [0.0] * SEATS, [0.0] * SEATS
    actor[(view.actor - me) % n] = 1.0
    for seat in view.acting:
        to_act[(seat - me) % n] = 1.0
    phase = [0.0, 0.0, 0.0]
    phase[PHASES.index(view.phase)] = 1.0
    pending = [0.0] * NUM_CARDS
    if view.card >= 0:
        pending[view.card] = 1.0
        coin_steps = _coin_steps(view.card, len(view.chosen))
        for i, target in enumerate(view.chosen):
            if i in coin_steps:
                out[t.selected_start + target] = 1.0
            else:
                receivers[(target - me) % n] = 1.0
    cards_key = (n, me, view.hand, view.hand_sizes, view.discard, view.reshuffled,
                 view.draw_size)
    cards = t.card_cache.get(cards_key)
    if cards is None:
        inv_hs = 1.0 / t.hand_size
        sizes = view.hand_sizes[me:] + view.hand_sizes[:me]          # by seat offset
        cards = ([h * inv_hs for h in view.hand] + [h * inv_hs for h in sizes] + t.pad[n]
                 + [d * c for d, c in zip(view.discard, t.inv_copies)]
                 + [view.draw_size / t.total_cards]
                 + [r * c for r, c in zip(view.reshuffled, t.inv_copies)])
        if len(t.card_cache) >= 1024:
            t.card_cache.clear()
        t.card_cache[cards_key] = cards
    out[t.step_start:] = (cards + actor + to_act + phase + pending
                          + [len(view.chosen) / 4] + receivers + [min(view.turns / 400, 1.0)])
    return out


def _coin_part(t, view) -> np.ndarray:
    """A vector holding only the coin-derived fields of ``view``."""
    n, me = view.num_players, view.player
    out = np.zeros(t.size, np.float32)
    owner = np.array(view.coin_owner)
    code = (t.loc_code[n][me][owner] + t.value_code[np.array(view.coin_values)]
            + np.array(view.face_up, np.int64) * t.face_up_code + np.array(view.coin_slot))
    out[t.coin_positions] = t.coin_rows[code].ravel()
    knowers = t.rotate_knowers[n][me][np.array(view.knowers)]
    out[t.knower_positions] = t.knower_rows[knowers].ravel()
    limit = view.take_limit
    values = view.coin_values
    size, known_value, unknown = [0] * SEATS, [0] * SEATS, [0] * SEATS
    for seat, value in zip(view.coin_owner, values):
        if seat >= 0:
            d = (seat - me) % n
            size[d] += 1
            if value >= 0:
                known_value[d] += value
            else:
                unknown[d] += 1
    out[t.stats_start:t.stats_start + 3 * SEATS] = (
        [x / limit for x in size] + [x / (limit * 8) for x in known_value]
        + [x / limit for x in unknown])
    out[t.present_start:t.present_start + n] = 1.0
    seen = [v for v in values if v >= 0]
    unseen = len(values) - len(seen)
    if unseen:
        out[t.mean_index] = (t.total_value - sum(seen)) / unseen / 8
    return out


class _Tables:
    """Lookup tables of one game's encoder (built once per game instance)."""

    def __init__(self, game):
        lay, comp = game.layout, game.components
        nc, limit = game.num_coins, game.take_limit
        distinct = comp.distinct_values
        nv = len(distinct)
        self.size = lay.size
        self.hand_size = comp.hand_size
        self.total_value = sum(comp.coin_values)
        self.total_cards = max(sum(comp.card_copies), 1)
        self.inv_copies = [1.0 / max(c, 1) for c in comp.card_copies]
        self.pad = {n: [0.0] * (SEATS - n) for n in range(2, SEATS + 1)}
        # a coin's code: ((location * 2 + face_up) * (nv + 1) + value) * (limit + 1) + slot
        slots = limit + 1
        self.face_up_code = (nv + 1) * slots
        loc_mult = 2 * self.face_up_code
        # location: 0 middle, 1 + offset for a take; index -1 (the middle) is the last entry
        self.loc_code = {
            n: [np.array([(1 + (s - me) % n) * loc_mult for s in range(n)] + [0])
                for me in range(n)]
            for n in range(2, SEATS + 1)
        }
        value_code = np.zeros(max(distinct) + 2, np.int64)    # entry -1: unknown -> 0
        for i, v in enumerate(distinct):
            value_code[v] = (i + 1) * slots
        self.value_code = value_code
        rows = np.zeros((7 * 2 * (nv + 1) * slots, 1 + SEATS + 3 + nv), np.float32)
        for code in range(len(rows)):
            loc, rest = divmod(code, loc_mult)
            face_up, rest = divmod(rest, self.face_up_code)
            value, slot = divmod(rest, slots)
            row = rows[code]
            if loc == 0:
                row[0] = 1.0
            else:
                row[loc] = 1.0
            row[1 + SEATS] = slot / limit
            row[2 + SEATS] = face_up
            row[3 + SEATS] = float(value > 0 or face_up)
            if value > 0:
                row[4 + SEATS + value - 1] = 1.0
        self.coin_rows = rows
        c = np.arange(nc)[:, None]
        col = [lay.slice("coin_in_middle").start + c]
        col += [lay.slice("coin_in_take").start + c * SEATS + d for d in range(SEATS)]
        col += [lay.slice(f).start + c for f in ("coin_slot", "coin_face_up",
                                                   "coin_value_known")]
        col += [lay.slice("coin_value").start + c * nv + i for i in range(nv)]
        self.coin_positions = np.concatenate(col, axis=1).ravel()
        # who has seen a coin: absolute seat bits -> offsets from the observer
        self.rotate_knowers = {
            n: [np.array([sum(1 << ((s - me) % n) for s in range(n) if mask >> s & 1)
                          for mask in range(1 << n)]) for me in range(n)]
            for n in range(2, SEATS + 1)
        }
        self.knower_rows = np.array([[mask >> d & 1 for d in range(SEATS)]
                                     for mask in range(1 << SEATS)], np.float32)
        self.knower_positions = (lay.slice("coin_known_by").start
                                 + np.arange(nc * SEATS))
        self.selected_start = lay.slice("coin_selected").start
        self.coin_cache: dict[tuple, np.ndarray] = {}
        self.card_cache: dict[tuple, list[float]] = {}
        order = ["hand", "hand_size", "discard", "draw_size", "reshuffled", "actor",
                 "to_act", "phase", "pending_card", "pending_step", "pending_receiver",
                 "turn"]
        rest = np.concatenate([np.arange(lay.slice(f).start, lay.slice(f).stop)
                               for f in order])
        assert (rest == np.arange(rest[0], lay.size)).all(), "per-step fields come last"
        self.step_start = int(rest[0])
        self.stats_start = lay.slice("take_size").start
        assert lay.slice("take_unknown").stop == self.stats_start + 3 * SEATS
        self.present_start = lay.slice("seat_present").start
        self.mean_index = lay.slice("unknown_mean").start


def _tables(game) -> _Tables:
    tables = game.__dict__.get("_encoder_tables")
    if tables is None:
        tables = game._encoder_tables = _Tables(game)
    return tables


def _coin_steps(card: int, steps: int) -> set[int]:
    """Which target steps of ``card`` are coins (the others are seats)."""
    if card == BLOW:
        return {0, 1}
    if card == YO_HO:
        return {0}
    return set(range(steps))
