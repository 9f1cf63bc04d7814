"""ShipShape's observation vector: a named layout and ``encode(game, view)``.

Seats appear in *relative* order: slot 0 is the observing seat, then the following seats
round the table (seat ``(p + k) % seats``; the Cap'n, when present, is seat ``n``).
Every 3x3 tile (a hold's top-down view, a crate) is 9 cells of 5 features each, row-major:
``[empty, rat, gold/3, cannon/3, contraband/3]`` (a hole or blank is ``empty``).
"""

from __future__ import annotations

import numpy as np

from plunder.envs.core.layout import LayoutBuilder, ObservationLayout

from .geometry import NUM_CODES, code_good, orient

CELL_FEATURES = 5
TILE = 9 * CELL_FEATURES

#: code -> the 5 cell features
_CELL_TABLE = np.zeros((NUM_CODES, CELL_FEATURES), dtype=np.float32)
_CELL_TABLE[0, 0] = 1.0
_CELL_TABLE[1, 1] = 1.0
for _code in range(2, NUM_CODES):
    _g, _v = code_good(_code)
    _CELL_TABLE[_code, 2 + _g] = _v / 3.0

COIN_SCALE = 100.0
#: scale of a voyage score: at most 27 (nine cells of value 3) + 8 (full ship)
SCORE_SCALE = 35.0
#: one placement outcome: the hold's visible totals after it and the voyage score then
OUTCOME_FEATURES = 6

#: code -> [gold, cannons, contraband, rats, shows a good]
_CELL_TOTALS = np.zeros((NUM_CODES, 5), dtype=np.float32)
_CELL_TOTALS[1, 3] = 1.0
for _code in range(2, NUM_CODES):
    _g, _v = code_good(_code)
    _CELL_TOTALS[_code, _g] = _v
    _CELL_TOTALS[_code, 4] = 1.0
_OUTCOME_SCALE = np.asarray([27.0, 27.0, 27.0, 9.0, 9.0], dtype=np.float32)


def build_layout(game) -> ObservationLayout:
    """The layout for ``game``'s seat count and stack size."""
    S, L = game.num_seats, game.stack_size
    b = LayoutBuilder()
    b.add("voyage", 3, "one-hot voyage 1-3")
    b.add("turn", 3, "one-hot turn 1-3 of the voyage")
    b.add("decision", 2, "what you must decide now: [bid a crew card, place your crate]")
    b.add("rebid", 1, "1 when your bid now is a re-bid after a tie")
    b.add("my_hand", 10, "crew cards 1-10 in your hand (1 = held)")
    b.add("pending_crate", TILE,
          "the crate you must place, as it lay in the stack (zeros when none); "
          "9 cells x [empty, rat, gold/3, cannon/3, contraband/3]")
    b.add("stack", L * TILE,
          f"your group's crate stack, top first, as the crates lie ({L} slots x 9 cells x 5)")
    b.add("stack_present", L, "1 for each stack slot still holding a crate")
    if game.six_seat:   # every stack is public: the other group's too (rulebook: setup)
        b.add("other_stack", L * TILE, f"the other group's crate stack, top first, as the "
              f"crates lie ({L} slots x 9 cells x 5)")
        b.add("other_stack_present", L, "1 for each slot of the other group's stack still "
              "holding a crate")
    # Placement outcomes (afterstates): computed from public facts only (your hold, the
    # crates, every hold's view), they spare a network from simulating 8 orientations
    b.add("score_now", 1, f"your voyage score if the voyage ended now (gold - rats, "
          f"cannons above the table's lowest, contraband unless the table's highest, full "
          f"ship) / {SCORE_SCALE:g}", low=-1.0)
    b.add("place_outcomes", 8 * OUTCOME_FEATURES,
          "per orientation k (action 10 + k) of the crate you must place: your hold after "
          "placing it so, [gold/27, cannons/27, contraband/27, rats/9, cells showing "
          f"goods/9, voyage score then / {SCORE_SCALE:g}] (zeros when not placing)", low=-1.0)
    b.add("stack_outcomes", L * OUTCOME_FEATURES,
          "per slot of your group's stack: the same 6 numbers for that crate placed on your "
          "hold in its best orientation (highest voyage score, then most cells showing "
          "goods, then the first orientation; zeros for an empty slot)", low=-1.0)
    b.add("seat_is_capn", S, "per seat slot (0 = you, then round the table): the Cap'n")
    b.add("seat_in_my_group", S, "per seat slot: bids in your group this voyage")
    b.add("seat_coins", S, f"per seat slot: coins / {COIN_SCALE:g}", high=3.0)
    b.add("seat_hold", S, "per seat slot: current hold number / 18")
    b.add("seat_hand", S * 10, "per seat slot: crew cards 1-10 in hand (public from the "
          "revealed bids; the Cap'n's: his deck's contents)")
    b.add("seat_visible", S * TILE, "per seat slot: top-down view of the hold, 9 cells x 5")
    b.add("seat_totals", S * 5, "per seat slot: visible [gold/27, cannons/27, "
          "contraband/27, rats/9, cells showing goods/9]")
    b.add("seat_crates", S, "per seat slot: crates placed this voyage / 3")
    b.add("seat_status", S * 3, "per seat slot: [still to get a crate this turn, placing "
          "a crate now, tied (re-bidding)]")
    b.add("seat_bids", S * 2, "per seat slot: this turn's revealed [first bid, re-bid] / 10")
    return b.build()


#: the per-seat fields, in layout order, and their widths
SEAT_FIELDS = (("seat_is_capn", 1), ("seat_in_my_group", 1), ("seat_coins", 1),
               ("seat_hold", 1), ("seat_hand", 10), ("seat_visible", TILE),
               ("seat_totals", 5), ("seat_crates", 1), ("seat_status", 3), ("seat_bids", 2))


#: where each seat field lives in one seat's 70-value source row (see ``_derive``)
_ROW_COLS = {"seat_visible": 0, "seat_totals": TILE, "seat_hand": TILE + 5,
             "seat_is_capn": TILE + 15, "seat_in_my_group": TILE + 16,
             "seat_coins": TILE + 17, "seat_hold": TILE + 18, "seat_crates": TILE + 19,
             "seat_status": TILE + 20, "seat_bids": TILE + 23}
_ROW = TILE + 25


class _Tables:
    """Per-game constant arrays of the encoder."""

    def __init__(self, game):
        layout = game.layout
        S = game.num_seats
        self.size = layout.size
        self.sl = {name: layout.slice(name) for name in layout.names()}
        crates = game.components.crates
        #: crate_feats[crate id, orientation] = the crate's 45 features as it lies
        self.crate_feats = np.zeros((len(crates) + 1, 8, TILE), dtype=np.float32)
        for cid, cells in enumerate(crates, 1):
            for o in range(8):
                self.crate_feats[cid, o] = _CELL_TABLE[list(orient(cells, o))].ravel()
        # seat fields are contiguous at the end of the layout, in SEAT_FIELDS order
        self.seat_start = self.sl[SEAT_FIELDS[0][0]].start
        assert self.sl[SEAT_FIELDS[-1][0]].stop == self.size
        self.seat_off = {}
        off = 0
        for name, w in SEAT_FIELDS:
            assert self.sl[name].start - self.seat_start == off
            self.seat_off[name] = off
            off += S * w
        #: seat_perm[p]: gathers the seat-major (S x _ROW) absolute block into p's
        #: relative, field-major seat fields
        self.seat_perm = []
        for p in range(S):
            idx = []
            for name, w in SEAT_FIELDS:
                for k in range(S):
                    src = ((p + k) % S) * _ROW + _ROW_COLS[name]
                    idx.extend(range(src, src + w))
            self.seat_perm.append(np.asarray(idx, dtype=np.intp))
        #: in_group[voyage][p]: relative flags of the seats in p's group
        self.in_group = [
            [np.asarray([1.0 if game.group_index[v][(p + k) % S] == game.group_index[v][p]
                         else 0.0 for k in range(S)], dtype=np.float32) for p in range(S)]
            for v in range(3)
        ]
        self.hand_rows: dict[tuple, np.ndarray] = {}
        # small caches keyed on the (immutable) table parts they were computed from; each
        # entry keeps its key object alive, so an identity match is a content match
        self.stack_cache: dict[int, tuple] = {}
        #: the last (visible, hands) seen and their seat-block columns; holding the keys
        #: keeps their ids unique, so an identity match is a content match
        self.last_block: tuple = (None, None, None, None)
        #: a top-down view (9 codes) -> its 45 cell features and 5 totals
        self.visible_rows: dict[tuple, np.ndarray] = {}

        #: per crate id, stack orientation and action orientation: which of the 9 cells the
        #: placed crate leaves uncovered (holes), and the totals its own cells show
        codes = np.zeros((len(crates) + 1, 8, 8, 9), dtype=np.intp)
        for cid, cells in enumerate(crates, 1):
            for o in range(8):
                lying = orient(cells, o)
                for a in range(8):
                    codes[cid, o, a] = orient(lying, a)
        self.crate_holes = (codes == 0).astype(np.float32)
        self.crate_totals = _CELL_TOTALS[codes].sum(axis=-2)
        #: (seat, group) -> (visible, stack, hold cell totals, others' totals, score now,
        #: stack outcomes); the key objects kept alive make an identity match a content match
        self.outcome_cache: dict[tuple, tuple] = {}
        self.cell_total_rows: dict[tuple, np.ndarray] = {}

    def cell_totals(self, cells: tuple) -> np.ndarray:
        """The (9, 5) per-cell totals of a top-down view (cached)."""
        rows = self.cell_total_rows.get(cells)
        if rows is None:
            rows = _CELL_TOTALS[list(cells)]
            if len(self.cell_total_rows) > 20000:
                self.cell_total_rows.clear()
            self.cell_total_rows[cells] = rows
        return rows

    def visible_row(self, cells: tuple) -> np.ndarray:
        row = self.visible_rows.get(cells)
        if row is None:
            tot = [0.0, 0.0, 0.0, 0.0, 0.0]     # gold, cannon, contraband, rats, goods cells
            for c in cells:
                if c == 1:
                    tot[3] += 1.0
                elif c >= 2:
                    tot[(c - 2) // 3] += (c - 2) % 3 + 1
                    tot[4] += 1.0
            row = np.empty(TILE + 5, dtype=np.float32)
            row[:TILE] = _CELL_TABLE[list(cells)].ravel()
            row[TILE:] = (tot[0] / 27.0, tot[1] / 27.0, tot[2] / 27.0, tot[3] / 9.0,
                          tot[4] / 9.0)
            if len(self.visible_rows) > 20000:
                self.visible_rows.clear()
            self.visible_rows[cells] = row
        return row

    def hand_row(self, hand: tuple) -> np.ndarray:
        row = self.hand_rows.get(hand)
        if row is None:
            row = np.zeros(10, dtype=np.float32)
            for c in hand:
                row[c - 1] = 1.0
            self.hand_rows[hand] = row
        return row


def _tables(game) -> _Tables:
    t = game.__dict__.get("_obs_tables")
    if t is None:
        t = game._obs_tables = _Tables(game)
    return t


def _derive(game, T: _Tables, table) -> dict:
    """Arrays every seat's observation of this public table shares (absolute seats)."""
    S, L = game.num_seats, game.stack_size
    d = {}
    seat = np.empty((S, _ROW), dtype=np.float32)
    key = (table.visible, table.hands)
    last = T.last_block
    if last[0] is not key[0] or last[1] is not key[1]:
        block = np.empty((S, TILE + 15), dtype=np.float32)
        for s, cells in enumerate(table.visible):
            block[s, :TILE + 5] = T.visible_row(cells)
        hands = [T.hand_row(h) for h in table.hands]
        block[:, TILE + 5:] = hands
        last = T.last_block = (table.visible, table.hands, block, hands)
    seat[:, :TILE + 15] = last[2]
    hands = last[3]
    holds = table.hold_history[-1]
    small = [[0.0, 0.0, c / COIN_SCALE, h / 18.0, len(pl) / 3.0, 0.0, 0.0, 0.0, 0.0, 0.0]
             for c, h, pl in zip(table.coins, holds, table.placed)]
    if game.capn is not None:
        small[game.capn][0] = 1.0
    if not table.done:
        for k, grp in enumerate(table.need):
            for s in grp:
                small[s][5] = 1.0
                if table.stage[k] == 2:
                    small[s][7] = 1.0
        for grp in table.placing:
            for x in grp:
                small[x[0]][6] = 1.0
    for v, t, stage, s, card in reversed(table.bids):
        if v != table.voyage or t != table.turn:
            break
        small[s][7 + stage] = card / 10.0
    seat[:, TILE + 15:] = small
    d["seat"] = seat.ravel()
    d["hands"] = hands
    stacks = []
    for stack in table.stacks:
        hit = T.stack_cache.get(id(stack))
        if hit is None or hit[0] is not stack:
            arr = np.zeros(L * TILE + L, dtype=np.float32)
            if stack:
                ids = [c for c, _ in stack]
                ors = [o for _, o in stack]
                arr[:len(stack) * TILE] = T.crate_feats[ids, ors].ravel()
                arr[L * TILE:L * TILE + len(stack)] = 1.0
            if len(T.stack_cache) > 64:
                T.stack_cache.clear()
            hit = T.stack_cache[id(stack)] = (stack, arr)
        stacks.append(hit[1])
    d["stacks"] = stacks
    return d


#: totals -> gold - rats + cannons, the part of a voyage score that needs no other seat
_OWN_SCORE = np.asarray([1.0, 1.0, 0.0, -1.0, 0.0], dtype=np.float32)


def _outcomes(totals: np.ndarray, low_cannon: float, high_contra: float) -> np.ndarray:
    """The 6 outcome features of holds with visible totals ``totals`` (..., 5), against
    the other seats' lowest cannons and highest contraband; the score is
    ``geometry.score_voyage``'s raw score (before the floor of 0)."""
    cannons, contraband, goods = totals[..., 1], totals[..., 2], totals[..., 4]
    score = (totals @ _OWN_SCORE - np.minimum(cannons, low_cannon)
             + np.where(contraband >= high_contra, 0.0, contraband)
             + np.where(goods >= 9, 8.0, 0.0))
    out = np.empty(totals.shape[:-1] + (OUTCOME_FEATURES,), dtype=np.float32)
    out[..., :5] = totals / _OUTCOME_SCALE
    out[..., 5] = score / SCORE_SCALE
    return out


def _placed_totals(T: _Tables, crates, lying, hold_cells: np.ndarray) -> np.ndarray:
    """Visible totals (..., 8, 5) after placing crates (ids ``crates``, lying as
    ``lying``) in each action orientation on a hold whose cells total ``hold_cells``
    (9, 5): the crate's own cells plus the hold cells its holes leave showing."""
    return T.crate_totals[crates, lying] + T.crate_holes[crates, lying] @ hold_cells


def _seat_outcomes(game, T: _Tables, table, p: int, k: int) -> tuple:
    """(hold cell totals, others' lowest cannons and highest contraband, score now, stack
    outcomes) of seat ``p`` in group ``k``; recomputed only when a hold or the group's
    stack changed (the same table encoded for several seats or again)."""
    stack = table.stacks[k] if table.stacks else ()
    hit = T.outcome_cache.get((p, k))
    if hit is not None and hit[0] is table.visible and hit[1] is stack:
        return hit[2:]
    hold_cells = T.cell_totals(table.visible[p])
    others = [T.cell_totals(v).sum(axis=0) for s, v in enumerate(table.visible) if s != p]
    low_cannon = min(o[1] for o in others) if others else np.inf
    high_contra = max(o[2] for o in others) if others else 0.0
    now = float(_outcomes(hold_cells.sum(axis=0), low_cannon, high_contra)[5])
    stack_out = np.zeros((game.stack_size, OUTCOME_FEATURES), dtype=np.float32)
    if stack:
        ids, lying = zip(*stack)
        out = _outcomes(_placed_totals(T, ids, lying, hold_cells), low_cannon,
                        high_contra)                                     # (n, 8, 6)
        # highest voyage score, then most cells showing goods, then the first orientation
        best = np.argmax(np.rint(out[..., 5] * SCORE_SCALE) * 16 + np.rint(out[..., 4] * 9),
                         axis=-1)
        stack_out[:len(stack)] = out[np.arange(len(stack)), best]
    if len(T.outcome_cache) > 64:
        T.outcome_cache.clear()
    hit = (table.visible, stack, hold_cells, low_cannon, high_contra, now, stack_out)
    T.outcome_cache[(p, k)] = hit
    return hit[2:]


def _placement_features(game, T: _Tables, table, p: int, k: int, view) -> tuple:
    """(score now, place outcomes or None, stack outcomes) of seat ``p`` in group ``k``."""
    hold_cells, low_cannon, high_contra, now, stack_out = _seat_outcomes(game, T, table, p, k)
    place = None
    if view.decision == "place":
        for seat, crate, o in table.placing[k]:
            if seat == p:
                place = _outcomes(_placed_totals(T, crate, o, hold_cells), low_cannon,
                                  high_contra)
    return now, place, stack_out


def encode(game, view) -> np.ndarray:
    """The observation vector of ``view`` (reads nothing but the view)."""
    T = _tables(game)
    table = view.table
    d = table.derived
    if not d:
        d.update(_derive(game, T, table))
    p = view.player
    sl = T.sl
    obs = np.zeros(T.size, dtype=np.float32)
    voyage = min(table.voyage, 2)
    obs[sl["voyage"].start + voyage] = 1.0
    obs[sl["turn"].start + min(table.turn, 2)] = 1.0
    k = game.group_index[voyage][p]
    if view.decision == "bid":
        obs[sl["decision"].start] = 1.0
        if table.stage[k] == 2:
            obs[sl["rebid"].start] = 1.0
    elif view.decision == "place":
        obs[sl["decision"].start + 1] = 1.0
        for seat, crate, o in table.placing[k]:
            if seat == p:
                obs[sl["pending_crate"]] = T.crate_feats[crate, o]
    obs[sl["my_hand"]] = d["hands"][p]
    if d["stacks"]:
        obs[sl["stack"].start:sl["stack_present"].stop] = d["stacks"][k]
        if game.six_seat:
            obs[sl["other_stack"].start:sl["other_stack_present"].stop] = d["stacks"][1 - k]
    now, place, stack_out = _placement_features(game, T, table, p, k, view)
    obs[sl["score_now"].start] = now
    if place is not None:
        obs[sl["place_outcomes"]] = place.ravel()
    obs[sl["stack_outcomes"]] = stack_out.ravel()
    obs[T.seat_start:] = d["seat"][T.seat_perm[p]]
    obs[sl["seat_in_my_group"]] = T.in_group[voyage][p]
    return obs
