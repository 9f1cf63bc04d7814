"""Scallywags observation: a flat float32 vector built from a player's view alone.

Seats are relative to the observer: offset 0 is the observer, offset d the player d seats
to its left; offsets beyond the player count stay zero. Coin blocks are indexed by coin id
(ids are random labels: a coin's id says nothing about its value). The layout, index by
index, is ``ScallywagsGame(n).layout.describe()`` (also in the env's docstring).
"""

from __future__ import annotations

from array import array
from itertools import compress
from operator import mul, ne

import numpy as np

from plunder.envs.core.layout import LayoutBuilder, ObservationLayout
from plunder.envs.core.memo import remember

from .components import BLOW, NUM_CARDS, YO_HO
from .engine import MAX_OPPONENTS, PHASES

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
    # computed from the coins alone (memoised with the coin blocks); the take_* sums and
    # unknown_mean are derived (the coin fields hold them), seat_present is not
    b.add("take_size", SEATS, "coins in the take of seat offset d / take limit", derived=True)
    b.add("take_known_value", SEATS, "value of the coins of offset d's take that the "
          "observer knows / (take limit * 8)", high=20, derived=True)
    b.add("take_unknown", SEATS, "coins of offset d's take whose value the observer "
          "does not know / take limit", derived=True)
    b.add("unknown_mean", 1, "mean value of the coins the observer has not seen / 8",
          high=20, derived=True)
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
    """The observation vector of ``view`` (reads nothing else)."""
    return encoder(game).encode(view)


def compiled_params(game, module) -> tuple:
    """The arguments of the compiled ``module.Encoder`` (``_engine.c``) for ``game``: the
    (start, stop) of every layout field it writes, in ``module.LAYOUT_FIELDS`` order, then
    the counts and tables the Python encoder below computes from the game's components."""
    lay, comp = game.layout, game.components
    slices = tuple((lay.slice(f).start, lay.slice(f).stop) for f in module.LAYOUT_FIELDS)
    return (lay.size, slices, game.num_coins, SEATS, NUM_CARDS, comp.distinct_values,
            game.take_limit, comp.hand_size, sum(comp.coin_values),
            max(sum(comp.card_copies), 1), tuple(1.0 / max(c, 1) for c in comp.card_copies),
            PHASES, BLOW, YO_HO)


def encoder(game) -> "Encoder":
    """The encoder of ``game`` (built once per game instance)."""
    enc = game.__dict__.get("_encoder")
    if enc is None:
        enc = game._encoder = Encoder(game)
    return enc


#: with more changed coin rows than this (moved plus newly seen), rebuild every coin block
#: with whole-array operations rather than coin by coin (about the break-even point)
REBUILD_AT = 30


class _Memo:
    """The vector last encoded for one observer, and the view fields it was written from."""

    __slots__ = (
        "out", "mv",           # the vector (never handed out), a memoryview on it
        "owner", "values", "slot", "knowers", "face_up",   # the view's coin fields
        "size", "known", "unknown",                        # take statistics by seat offset
        "seen_sum", "seen_count",                          # of the coins the observer knows
        "cards",               # the view's card fields
        "selected",            # the coins marked as chosen targets
    )


class Encoder:
    """Encodes the views of one game, observer by observer, rewriting only what changed.

    Each observer keeps the vector it was last given and the view fields it came from.
    A new view is compared with those fields by value, part by part: only coins whose
    location, side, value, slot or knowers differ are rewritten (most steps move no coin or
    one), the card counts only when they differ, the small per-step part always. As every
    part is compared with what it was written from, the result is what a fresh build would
    give, whatever states (older, cloned, of other envs) were encoded in between. The
    caller always gets a copy. Small writes go through a memoryview on the vector, which
    costs far less than numpy indexing for a handful of values.
    """

    def __init__(self, game):
        """Lookup tables for ``game``'s coins, values and layout; no observer yet."""
        lay, comp = game.layout, game.components
        nc, limit = game.num_coins, game.take_limit
        distinct = comp.distinct_values
        nv = len(distinct)
        self.size = lay.size
        self.num_coins = nc
        self.coin_ids = range(nc)
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
            n: [[(1 + (s - me) % n) * loc_mult for s in range(n)] + [0] for me in range(n)]
            for n in range(2, SEATS + 1)
        }
        value_code = [0] * (max(distinct) + 2)                   # entry -1: unknown -> 0
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
        self.coin_positions = np.concatenate(col, axis=1).ravel()   # coin by coin, row order
        # who has seen a coin: absolute seat bits -> offsets from the observer
        self.rotate_knowers = {
            n: [[sum(1 << ((s - me) % n) for s in range(n) if mask >> s & 1)
                 for mask in range(1 << n)] for me in range(n)]
            for n in range(2, SEATS + 1)
        }
        # the same tables as arrays, for rebuilding all coins at once
        self.loc_code_np = {n: [np.array(t) for t in ts] for n, ts in self.loc_code.items()}
        self.value_code_np = np.array(self.value_code)
        self.rotate_knowers_np = {n: [np.array(t) for t in ts]
                                  for n, ts in self.rotate_knowers.items()}
        self.knower_rows = np.array([[mask >> d & 1 for d in range(SEATS)]
                                     for mask in range(1 << SEATS)], np.float32)
        self.knower_start = lay.slice("coin_known_by").start   # coin c: SEATS values at c*SEATS
        self.selected_start = lay.slice("coin_selected").start
        order = ["hand", "hand_size", "discard", "draw_size", "reshuffled", "actor",
                 "to_act", "phase", "pending_card", "pending_step", "pending_receiver",
                 "turn"]
        rest = np.concatenate([np.arange(lay.slice(f).start, lay.slice(f).stop)
                               for f in order])
        if not (rest == np.arange(rest[0], lay.size)).all():
            raise RuntimeError("layout: the per-step fields must come last")
        self.cards_start = int(rest[0])
        self.cards_stop = lay.slice("reshuffled").stop
        self.actor_start = lay.slice("actor").start
        if self.actor_start != self.cards_stop:
            raise RuntimeError("layout: actor must follow the card fields")
        self.to_act_start = lay.slice("to_act").start
        self.phase_index = {p: lay.slice("phase").start + i for i, p in enumerate(PHASES)}
        self.pending_start = lay.slice("pending_card").start
        self.step_index = lay.slice("pending_step").start
        self.receiver_start = lay.slice("pending_receiver").start
        self.turn_index = lay.slice("turn").start
        self.stats_start = lay.slice("take_size").start
        if lay.slice("take_unknown").stop != self.stats_start + 3 * SEATS:
            raise RuntimeError("layout: the take statistics must be 3 fields per seat")
        self.present_start = lay.slice("seat_present").start
        self.mean_index = lay.slice("unknown_mean").start
        self.coin_fields = (lay.slice("coin_in_middle").start, lay.slice("coin_in_take").start,
                            lay.slice("coin_slot").start, lay.slice("coin_face_up").start,
                            lay.slice("coin_value_known").start, lay.slice("coin_value").start)
        self.num_values = nv
        self._make_views()
        self.memos: dict[tuple, _Memo] = {}
        self.step_blocks: dict[tuple, tuple[memoryview, tuple[int, ...]]] = {}

    def _make_views(self) -> None:
        """Table rows cut for memoryview writes: per coin code (middle, take row, slot,
        face up, known, value row), per who-has-seen-it mask its row."""
        rows = self.coin_rows
        take, value = rows[:, 1:1 + SEATS], rows[:, 4 + SEATS:]
        self.coin_parts = [
            (float(r[0]), memoryview(t), float(r[1 + SEATS]), float(r[2 + SEATS]),
             float(r[3 + SEATS]), memoryview(v))
            for r, t, v in zip(rows, take, value)]
        self.knower_views = [memoryview(r) for r in self.knower_rows]

    def __getstate__(self) -> dict:
        """Pickled without the memos (caches) and memoryviews (which do not pickle)."""
        state = dict(self.__dict__)
        for key in ("coin_parts", "knower_views"):
            del state[key]
        state["memos"], state["step_blocks"] = {}, {}
        return state

    def __setstate__(self, state: dict) -> None:
        """Restore the tables and rebuild the memoryviews."""
        self.__dict__.update(state)
        self._make_views()

    def encode(self, view) -> np.ndarray:
        """The observation vector of ``view``: a new array the caller owns."""
        key = (view.num_players, view.player, view.take_limit)
        memo = self.memos.get(key)
        try:
            if memo is None:
                memo = self._new_memo(view)
            else:
                self._update_coins(memo, view)
            self._write_cards(memo, view)
            self._write_pending(memo, view)
        except BaseException:
            self.memos.pop(key, None)     # a half-written vector must not be reused
            raise
        self.memos[key] = memo
        return memo.out.copy()

    def _new_memo(self, view) -> _Memo:
        """A memo for a new observer: every block written from ``view``."""
        m = _Memo()
        m.out = np.zeros(self.size, np.float32)
        m.mv = memoryview(m.out)
        m.out[self.present_start:self.present_start + view.num_players] = 1.0
        m.cards = None
        m.selected = ()
        self._rebuild_coins(m, view)
        return m

    def _rebuild_coins(self, m: _Memo, view) -> None:
        """Write every coin block and the take statistics of ``view`` into ``m.out``."""
        n, me = view.num_players, view.player
        out = m.out
        owner, values = view.coin_owner, view.coin_values
        code = (self.loc_code_np[n][me][np.array(owner)]
                + self.value_code_np[np.array(values)]
                + np.array(view.face_up, np.int64) * self.face_up_code
                + np.array(view.coin_slot))
        out[self.coin_positions] = self.coin_rows[code].ravel()
        rotate = self.rotate_knowers_np[n][me]
        out[self.knower_start:self.knower_start + self.num_coins * SEATS] = \
            self.knower_rows[rotate[np.array(view.knowers)]].ravel()
        size, known, unknown = [0] * SEATS, [0] * SEATS, [0] * SEATS
        for seat, value in zip(owner, values):
            if seat >= 0:
                d = (seat - me) % n
                size[d] += 1
                if value >= 0:
                    known[d] += value
                else:
                    unknown[d] += 1
        m.size, m.known, m.unknown = size, known, unknown
        seen = [v for v in values if v >= 0]
        m.seen_sum, m.seen_count = sum(seen), len(seen)
        limit = view.take_limit
        out[self.stats_start:self.stats_start + 3 * SEATS] = (
            [x / limit for x in size] + [x / (limit * 8) for x in known]
            + [x / limit for x in unknown])
        self._write_mean(m, view)
        m.owner, m.values, m.slot = owner, values, view.coin_slot
        m.knowers, m.face_up = view.knowers, view.face_up

    def _write_mean(self, m: _Memo, view) -> None:
        """The mean value of the coins the observer has not seen (0 if it has seen all)."""
        unseen = len(view.coin_values) - m.seen_count
        m.mv[self.mean_index] = ((self.total_value - m.seen_sum) / unseen / 8
                                 if unseen else 0.0)

    def _update_coins(self, m: _Memo, view) -> None:
        """Rewrite the blocks of the coins whose fields differ from the memo's view."""
        owner, values, slot = view.coin_owner, view.coin_values, view.coin_slot
        knowers, face_up = view.knowers, view.face_up
        ids = self.coin_ids
        # tuples compare fast when equal; only a field that differs is scanned coin by coin
        moved = set()      # coins whose location, side, value or slot changed
        if owner != m.owner:
            moved.update(compress(ids, map(ne, owner, m.owner)))
        if values != m.values:
            moved.update(compress(ids, map(ne, values, m.values)))
        if slot != m.slot:
            moved.update(compress(ids, map(ne, slot, m.slot)))
        if face_up != m.face_up:
            moved.update(compress(ids, map(ne, face_up, m.face_up)))
        learned = (list(compress(ids, map(ne, knowers, m.knowers)))
                   if knowers != m.knowers else ())
        if len(moved) + len(learned) > REBUILD_AT:
            self._rebuild_coins(m, view)
            return
        if moved:
            self._rewrite_coins(m, view, moved)
        if learned:
            n, me, mv = view.num_players, view.player, m.mv
            rotate, rows, start = self.rotate_knowers[n][me], self.knower_views, self.knower_start
            for c in learned:
                mv[start + c * SEATS:start + (c + 1) * SEATS] = rows[rotate[knowers[c]]]
        m.owner, m.values, m.slot, m.knowers, m.face_up = owner, values, slot, knowers, face_up

    def _rewrite_coins(self, m: _Memo, view, coins) -> None:
        """Rewrite the rows of ``coins`` and the take statistics they change (the memo's
        coin fields still hold the old view's)."""
        n, me, mv = view.num_players, view.player, m.mv
        owner, values, slot, face_up = (view.coin_owner, view.coin_values, view.coin_slot,
                                        view.face_up)
        loc, value_code, up_code = self.loc_code[n][me], self.value_code, self.face_up_code
        parts, nv = self.coin_parts, self.num_values
        middle_at, take_at, slot_at, face_at, known_at, value_at = self.coin_fields
        size, known, unknown = m.size, m.known, m.unknown
        seats, seen_changed = set(), False
        for c in coins:
            o1, v1 = owner[c], values[c]
            middle, take, slot_value, face, known_value, value = parts[
                loc[o1] + value_code[v1] + face_up[c] * up_code + slot[c]]
            mv[middle_at + c] = middle
            mv[take_at + c * SEATS:take_at + (c + 1) * SEATS] = take
            mv[slot_at + c] = slot_value
            mv[face_at + c] = face
            mv[known_at + c] = known_value
            mv[value_at + c * nv:value_at + (c + 1) * nv] = value
            # the statistics: take the coin's old contribution out, put the new one in
            o0, v0 = m.owner[c], m.values[c]
            if o0 == o1 and v0 == v1:
                continue
            if o0 >= 0:
                d = (o0 - me) % n
                size[d] -= 1
                if v0 >= 0:
                    known[d] -= v0
                else:
                    unknown[d] -= 1
                seats.add(d)
            if o1 >= 0:
                d = (o1 - me) % n
                size[d] += 1
                if v1 >= 0:
                    known[d] += v1
                else:
                    unknown[d] += 1
                seats.add(d)
            if v0 != v1:
                seen_changed = True
                if v0 >= 0:
                    m.seen_sum -= v0
                    m.seen_count -= 1
                if v1 >= 0:
                    m.seen_sum += v1
                    m.seen_count += 1
        limit, start = view.take_limit, self.stats_start
        for d in seats:
            mv[start + d] = size[d] / limit
            mv[start + SEATS + d] = known[d] / (limit * 8)
            mv[start + 2 * SEATS + d] = unknown[d] / limit
        if seen_changed:
            self._write_mean(m, view)

    def _write_cards(self, m: _Memo, view) -> None:
        """Hand, hand sizes, discard pile, draw pile and reshuffled pile, if they changed."""
        cards = (view.hand, view.hand_sizes, view.discard, view.reshuffled, view.draw_size)
        if cards == m.cards:
            return
        n, me = view.num_players, view.player
        per_hand = (1.0 / self.hand_size).__mul__            # count -> count * (1 / hand size)
        sizes = view.hand_sizes[me:] + view.hand_sizes[:me]  # by seat offset
        m.mv[self.cards_start:self.cards_stop] = array("f", [
            *map(per_hand, view.hand), *map(per_hand, sizes), *self.pad[n],
            *map(mul, view.discard, self.inv_copies), view.draw_size / self.total_cards,
            *map(mul, view.reshuffled, self.inv_copies)])
        m.cards = cards

    def _write_pending(self, m: _Memo, view) -> None:
        """Whose turn and decision it is, the phase, the pending card and its targets."""
        # these fields take few distinct values: memoised, turn excepted
        key = (view.num_players, view.player, view.actor, view.acting, view.phase, view.card,
               view.chosen)
        step = self.step_blocks.get(key)
        if step is None:
            step = remember(self.step_blocks, key, self._step_block(view))
        block, selected = step
        mv = m.mv
        mv[self.actor_start:self.turn_index] = block
        mv[self.turn_index] = min(view.turns / 400, 1.0)
        if selected != m.selected:
            # the chosen coins sit apart from the other per-step fields
            start = self.selected_start
            for c in m.selected:
                mv[start + c] = 0.0
            for c in selected:
                mv[start + c] = 1.0
            m.selected = selected

    def _step_block(self, view) -> tuple[memoryview, tuple[int, ...]]:
        """The fields "actor" to "pending_receiver" of ``view``, and its chosen coins."""
        n, me = view.num_players, view.player
        block = np.zeros(self.turn_index - self.actor_start, np.float32)
        base = self.actor_start                  # block[i] is out[base + i]
        block[self.actor_start - base + (view.actor - me) % n] = 1.0
        for seat in view.acting:
            block[self.to_act_start - base + (seat - me) % n] = 1.0
        block[self.phase_index[view.phase] - base] = 1.0
        if view.card >= 0:
            block[self.pending_start - base + view.card] = 1.0
        block[self.step_index - base] = len(view.chosen) / 4
        coins, receivers = _targets(view)
        for d in receivers:
            block[self.receiver_start - base + d] = 1.0
        return memoryview(block), tuple(coins)


def _targets(view) -> tuple[list[int], list[int]]:
    """The pending card's chosen coins, and its chosen receivers as seat offsets."""
    card, n, me = view.card, view.num_players, view.player
    coins, receivers = [], []
    if card >= 0:
        coin_steps = _coin_steps(card, len(view.chosen))
        for i, target in enumerate(view.chosen):
            if i in coin_steps:
                coins.append(target)
            else:
                receivers.append((target - me) % n)
    return coins, receivers


def _coin_steps(card: int, steps: int) -> set[int]:
    """Which target steps of ``card`` are coins (the others are seats)."""
    if card == BLOW:
        return {0, 1}
    if card == YO_HO:
        return {0}
    return set(range(steps))
