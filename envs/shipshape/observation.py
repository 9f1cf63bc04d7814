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
#: code -> _CELL_TOTALS and the cell's part of gold + cannons - rats
_HOLD_CELLS = np.concatenate(
    [_CELL_TOTALS, _CELL_TOTALS @ np.asarray([[1.0], [1.0], [0.0], [-1.0], [0.0]],
                                             dtype=np.float32)], axis=1)
#: code -> its 5 cell features and its _HOLD_CELLS row
_CODE_ROWS = np.concatenate([_CELL_TABLE, _HOLD_CELLS], axis=1)
_EYE6 = np.eye(6, dtype=np.float32)


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
        #: the last hands seen and their seat-block columns; holding the key keeps its id
        #: unique, so an identity match is a content match
        self.last_hands: tuple = (None, None, None)
        #: a top-down view (9 codes) -> its _Hold (see ``hold``)
        self.holds: dict[tuple, tuple] = {}

        #: per crate id, stack orientation and action orientation: the cell codes
        codes = np.zeros((len(crates) + 1, 8, 8, 9), dtype=np.intp)
        for cid, cells in enumerate(crates, 1):
            for o in range(8):
                lying = orient(cells, o)
                for a in range(8):
                    codes[cid, o, a] = orient(lying, a)
        #: crate_rows[crate id * 8 + lying, a]: the holes (9) the crate leaves in action
        #: orientation a, then its own cells' totals and own-score part (6)
        self.crate_rows = np.concatenate(
            [(codes == 0).astype(np.float32), _HOLD_CELLS[codes].sum(axis=-2)],
            axis=-1).reshape(-1, 8, 9 + 6)
        #: seat -> the last outcomes computed for it (see _group_outcomes)
        self.seat_outcomes: dict[int, tuple] = {}
        #: agent_groups[voyage][k]: the seats of group k but the Cap'n
        self.agent_groups = [tuple(tuple(x for x in grp if x != game.capn)
                                   for grp in game.groups(v)) for v in range(3)]
        self.arange = np.arange(max(S, 2 * game.stack_size))
        sl = self.sl
        self.at_voyage, self.at_turn = sl["voyage"].start, sl["turn"].start
        self.at_decision, self.at_rebid = sl["decision"].start, sl["rebid"].start
        self.at_pending, self.at_hand = sl["pending_crate"].start, sl["my_hand"].start
        self.at_stack = sl["stack"].start
        self.w_stack = sl["stack_present"].stop - self.at_stack
        self.at_other = sl["other_stack"].start if game.six_seat else -1
        self.at_now, self.at_place = sl["score_now"].start, sl["place_outcomes"].start
        self.at_stack_out = sl["stack_outcomes"].start
        self.at_in_group = sl["seat_in_my_group"].start

    def hold(self, cells: tuple) -> tuple:
        """A top-down view (9 codes) as the encoder uses it (cached on content): (its seat
        block row: 45 cell features and [gold/27, cannons/27, contraband/27, rats/9,
        goods/9]; its totals (gold, cannons, contraband, rats, cells showing goods); its
        (9 + 6, 6) matrix for ``_group_outcomes``: the cell totals with their part of
        gold + cannons - rats, then the identity)."""
        hold = self.holds.get(cells)
        if hold is None:
            x = _CODE_ROWS.take(cells, axis=0)                     # (9, 5 + 6)
            tot = x[:, CELL_FEATURES:CELL_FEATURES + 5].sum(axis=0)
            row = np.empty(TILE + 5, dtype=np.float32)
            row[:TILE] = x[:, :CELL_FEATURES].ravel()
            row[TILE:] = tot / _OUTCOME_SCALE
            # the cell totals, then an identity that passes a crate's own totals through
            matrix = np.concatenate([x[:, CELL_FEATURES:], _EYE6])
            hold = (row, tuple(tot.tolist()), matrix)
            if len(self.holds) > 20000:
                self.holds.clear()
            self.holds[cells] = hold
        return hold

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
    L = game.stack_size
    d = {}
    holds = d["holds"] = [T.hold(cells) for cells in table.visible]
    hands = table.hands
    last = T.last_hands
    if last[0] is not hands:
        rows = [T.hand_row(h) for h in hands]
        last = T.last_hands = (hands, np.array(rows), rows)
    small = [[0.0, 0.0, c / COIN_SCALE, h / 18.0, len(pl) / 3.0, 0.0, 0.0, 0.0, 0.0, 0.0]
             for c, h, pl in zip(table.coins, table.hold_history[-1], table.placed)]
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
    seat = np.concatenate(([h[0] for h in holds], last[1],
                           np.array(small, dtype=np.float32)), axis=1)
    d["seat"] = seat.ravel()
    d["hands"] = last[2]
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


def _group_outcomes(game, T: _Tables, table, k: int, capn: bool) -> dict:
    """The placement outcomes of the agents of group ``k`` on ``table`` (of the Cap'n
    alone when ``capn``), kept on the table: seat -> (score now, its place outcomes
    (48 values) or None, its stack outcomes (6 per crate, top first) or None).

    A seat's outcomes depend on its *context* (its hold's view, the others' lowest
    cannons and highest contraband) and the crates. Each seat keeps the rows last
    computed for it (``T.seat_outcomes``: context, crates, row of each crate, ...); a
    later table with the same context whose crates all have rows there reuses them (its
    stack is then a suffix of the earlier one: crates are only taken from the top).
    The others are computed together: the crates being placed and the stack, for every
    such seat, in one matrix product. Every number is a small integer or a float32
    quotient of one, as the layout's scales divide, so the order of the sums changes no
    bit."""
    d = table.derived
    key = ("outcomes", k, capn)
    res = d.get(key)
    if res is not None:
        return res
    seats = (game.capn,) if capn else T.agent_groups[min(table.voyage, 2)][k]
    stack = table.stacks[k] if table.stacks else ()
    placing = table.placing[k] if table.placing else ()
    visible = table.visible
    holds = d["holds"]
    tot = [h[1] for h in holds]           # (gold, cannons, contraband, rats, goods)
    res = {}
    todo = []
    for p in seats:
        others = tot[:p] + tot[p + 1:]
        context = (visible[p], min(o[1] for o in others) if others else np.inf,
                   max(o[2] for o in others) if others else 0.0)
        rec = T.seat_outcomes.get(p)
        if rec is not None and rec[0] == context:       # compared on content
            got = _reuse(rec, p, placing, stack)
            if got is not None:
                res[p] = got
                continue
        todo.append((p, context))
    if todo:
        now = []
        for p, (_, lo, hi) in todo:
            gold, cannons, contraband, rats, goods = tot[p]
            now.append(gold + cannons - rats - min(cannons, lo)
                       + (contraband if contraband < hi else 0.0) + (8.0 if goods >= 9 else 0.0))
        now = np.asarray(now, dtype=np.float32) / SCORE_SCALE
        crates = tuple([(c, o) for _, c, o in placing]) + stack
        out = best = None
        if crates:
            m, n = len(todo), len(crates)
            # a crate's own totals plus the hold cells its holes leave showing: one product
            # for every crate, orientation and seat
            rows = T.crate_rows.take([c * 8 + o for c, o in crates], axis=0)   # (n, 8, 15)
            cells = np.concatenate([holds[p][2] for p, _ in todo], axis=1)     # (15, m * 6)
            totals = (rows.reshape(n * 8, 15) @ cells).reshape(n, 8, m, 6)
            cannons, contraband, goods = totals[..., 1], totals[..., 2], totals[..., 4]
            score = totals[..., 5]                             # gold + cannons - rats
            low, high = np.asarray([c[1:] for _, c in todo], np.float32).T
            score -= np.minimum(cannons, low)
            score += contraband * (contraband < high)
            score += (goods >= 9) * np.float32(8.0)
            # highest voyage score, then most cells showing goods, then the first
            pick = (score * 16 + goods).argmax(axis=1)         # (crate, seat)
            totals[..., :5] /= _OUTCOME_SCALE
            score /= SCORE_SCALE
            out = totals
            best = out[T.arange[:n, None], pick, T.arange[:m]].transpose(1, 0, 2).copy()
        row_of = {c: r for r, c in enumerate(crates)}
        for j, (p, context) in enumerate(todo):
            rec = T.seat_outcomes[p] = (context, crates, row_of, now[j], out, best, j)
            res[p] = _reuse(rec, p, placing, stack)
    d[key] = res
    return res


def _reuse(rec: tuple, p: int, placing: tuple, stack: tuple):
    """Seat ``p``'s (score now, place outcomes, stack outcomes) from its outcome record
    ``rec``, or None if a crate of ``placing`` or ``stack`` has no row there."""
    _, crates, row_of, now, out, best, j = rec
    place = None
    for seat, c, o in placing:
        if seat == p:
            r = row_of.get((c, o))
            if r is None:
                return None
            place = out[r, :, j].ravel()
    if not stack:
        return now, place, None
    start = row_of.get(stack[0])
    if start is None or crates[start:start + len(stack)] != stack:
        return None
    return now, place, best[j, start:start + len(stack)].ravel()


def encode(game, view) -> np.ndarray:
    """The observation vector of ``view`` (reads nothing but the view)."""
    T = _tables(game)
    table = view.table
    d = table.derived
    if not d:
        d.update(_derive(game, T, table))
    p = view.player
    obs = np.zeros(T.size, dtype=np.float32)
    voyage = min(table.voyage, 2)
    obs[T.at_voyage + voyage] = 1.0
    obs[T.at_turn + min(table.turn, 2)] = 1.0
    k = game.group_index[voyage][p]
    decision = view.decision
    if decision == "bid":
        obs[T.at_decision] = 1.0
        if table.stage[k] == 2:
            obs[T.at_rebid] = 1.0
    elif decision == "place":
        obs[T.at_decision + 1] = 1.0
        for seat, crate, o in table.placing[k]:
            if seat == p:
                obs[T.at_pending:T.at_pending + TILE] = T.crate_feats[crate, o]
    obs[T.at_hand:T.at_hand + 10] = d["hands"][p]
    if d["stacks"]:
        obs[T.at_stack:T.at_stack + T.w_stack] = d["stacks"][k]
        if game.six_seat:
            obs[T.at_other:T.at_other + T.w_stack] = d["stacks"][1 - k]
    now, place, stack_out = _group_outcomes(game, T, table, k, p == game.capn)[p]
    obs[T.at_now] = now
    if place is not None and decision == "place":
        obs[T.at_place:T.at_place + 8 * OUTCOME_FEATURES] = place
    if stack_out is not None:
        obs[T.at_stack_out:T.at_stack_out + len(stack_out)] = stack_out
    d["seat"].take(T.seat_perm[p], out=obs[T.seat_start:], mode="clip")
    obs[T.at_in_group:T.at_in_group + game.num_seats] = T.in_group[voyage][p]
    return obs
