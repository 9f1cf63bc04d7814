"""ShipShape's observation vector: a named layout and ``encode(game, view)``.

Seats appear in *relative* order: slot 0 is the observing seat, then the following seats
round the table (seat ``(p + k) % seats``; the Cap'n, when present, is seat ``n``).
Every 3x3 tile (a hold's top-down view, a crate) is 9 cells of 5 features each, row-major:
``[empty, rat, gold/3, cannon/3, contraband/3]`` (a hole or blank is ``empty``).
"""

from __future__ import annotations

import numpy as np

from plunder.envs.core.errors import InvalidArgumentError
from plunder.envs.core.layout import LayoutBuilder, ObservationLayout
from plunder.envs.core.memo import remember

from . import bidding
from .bidding import bid_outlook, crate_gains
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
#: the scales of one placement outcome's 6 numbers
_OUT_SCALE = np.asarray([27.0, 27.0, 27.0, 9.0, 9.0, SCORE_SCALE], dtype=np.float32)

#: code -> its visible totals packed in one int, 6 bits each: gold, cannons << 6,
#: contraband << 12, rats << 18, cells showing goods << 24 (a hold's totals are at most
#: 27 each, so a sum of packed cells never carries from one field into the next)
_PACKED = [0] * NUM_CODES
_PACKED[1] = 1 << 18
for _code in range(2, NUM_CODES):
    _g, _v = code_good(_code)
    _PACKED[_code] = (_v << (6 * _g)) + (1 << 24)
_PACKED = tuple(_PACKED)


def _totals(cells: tuple) -> tuple:
    """(gold, cannons, contraband, rats, cells showing goods) of a top-down view."""
    packed = sum(map(_PACKED.__getitem__, cells))
    return (packed & 63, packed >> 6 & 63, packed >> 12 & 63, packed >> 18 & 63,
            packed >> 24)


def _score(tot: tuple, low: int, high: int) -> int:
    """The voyage score of a hold with totals ``tot`` when the others' lowest cannons
    and highest contraband are ``low`` and ``high``: gold - rats, cannons above the
    lowest, contraband unless not below the highest, 8 for a full ship."""
    gold, cannons, contraband, rats, goods = tot
    return (gold - rats + cannons - min(cannons, low)
            + (contraband if contraband < high else 0) + (8 if goods >= 9 else 0))


# The placement outcomes come from one matrix product with _OUT_COLS rows per seat: the
# 5 totals, gold + cannons - rats, and two indices into _SCORE_LUT that give the rest of
# the voyage score (every value a small integer, exact in float32)
_OUT_COLS = 8
#: where _SCORE_LUT's contraband part starts
_CONTRA_AT = 32 * 32 * 10


def _score_lut() -> np.ndarray:
    """The voyage score's non-linear parts, by index (cannons, contraband, lowest, highest
    are at most 27, goods at most 9): at ``cannons + 32 * lowest + 1024 * goods``,
    -min(cannons, lowest) plus the full-ship bonus; at ``_CONTRA_AT + contraband + 32 *
    highest``, the contraband unless it is not below the others' highest."""
    goods, low, c = np.ogrid[:10, :32, :32]
    cannons = -np.minimum(c, low) + np.where(goods >= 9, 8, 0)
    high, x = np.ogrid[:32, :32]
    contraband = np.where(x < high, x, 0)
    return np.concatenate([cannons.ravel(), contraband.ravel()]).astype(np.float32)


_SCORE_LUT = _score_lut()
#: _CELL_OUT[:, code]: the code's part of the outcome rows (the context apart)
_CELL_OUT = np.concatenate(
    [_CELL_TOTALS, _CELL_TOTALS @ np.asarray(
        [[1, 0, 0], [1, 1, 0], [0, 0, 1], [-1, 0, 0], [0, 1024, 0]], dtype=np.float32)],
    axis=1).T.copy()
#: a hold matrix's last columns: a crate's own outcome rows pass through; the constant
#: input (a crate's last entry) carries the seat's context (set per table)
_MATRIX_TAIL = np.concatenate([np.eye(_OUT_COLS, dtype=np.float32),
                               np.zeros((_OUT_COLS, 1), dtype=np.float32)], axis=1)
#: a seat's lowest cannons when no other seat scores (above any hold's cannons)
_NO_LOW = 31


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
          f"ship) / {SCORE_SCALE:g}", low=-1.0, derived=True)
    b.add("place_outcomes", 8 * OUTCOME_FEATURES,
          "per orientation k (action 10 + k) of the crate you must place: your hold after "
          "placing it so, [gold/27, cannons/27, contraband/27, rats/9, cells showing "
          f"goods/9, voyage score then / {SCORE_SCALE:g}] (zeros when not placing)", low=-1.0,
          derived=True)
    b.add("stack_outcomes", L * OUTCOME_FEATURES,
          "per slot of your group's stack: the same 6 numbers for that crate placed on your "
          "hold in its best orientation (highest voyage score, then most cells showing "
          "goods, then the first orientation; zeros for an empty slot)", low=-1.0, derived=True)
    # The bid outlook: a model of the other bidders made explicit (bidding.py), since
    # a network imitating a bot that models them does not learn the model by itself
    b.add("bid_outlook", 10, "while you bid, per crew card 1-10 in your hand: the crate "
          "gain you can expect for bidding it when every other bidder bids by the "
          "heuristic's rule from its own side (the Cap'n: his deck), by the turn's rules "
          f"(envs/shipshape/bidding.py) / {SCORE_SCALE:g}; zeros otherwise", low=-1.0, derived=True)
    b.add("seat_is_capn", S, "per seat slot (0 = you, then round the table): the Cap'n")
    b.add("seat_in_my_group", S, "per seat slot: bids in your group this voyage")
    b.add("seat_coins", S, f"per seat slot: coins / {COIN_SCALE:g}", high=3.0)
    b.add("seat_hold", S, "per seat slot: current hold number / 18")
    b.add("seat_hand", S * 10, "per seat slot: crew cards 1-10 in hand (public from the "
          "revealed bids; the Cap'n's: his deck's contents)")
    b.add("seat_visible", S * TILE, "per seat slot: top-down view of the hold, 9 cells x 5")
    # derived (as the outcomes and bid_outlook above): sums over seat_visible
    b.add("seat_totals", S * 5, "per seat slot: visible [gold/27, cannons/27, "
          "contraband/27, rats/9, cells showing goods/9]", derived=True)
    b.add("seat_crates", S, "per seat slot: crates placed this voyage / 3")
    b.add("seat_status", S * 3, "per seat slot: [still to get a crate this turn, placing "
          "a crate now, tied (re-bidding)]")
    b.add("seat_bids", S * 2, "per seat slot: this turn's revealed [first bid, re-bid] / 10")
    return b.build()


#: the per-seat fields, in layout order, and their widths
SEAT_FIELDS = (("seat_is_capn", 1), ("seat_in_my_group", 1), ("seat_coins", 1),
               ("seat_hold", 1), ("seat_hand", 10), ("seat_visible", TILE),
               ("seat_totals", 5), ("seat_crates", 1), ("seat_status", 3), ("seat_bids", 2))

#: the seat source (see ``_derive``) has three parts, one row per absolute seat in each:
#: the holds' cell features, the hands, the rest
_PART_WIDTHS = (TILE, 10, 15)
#: where each seat field lives in the seat source: (part, column)
_SOURCE = {"seat_visible": (0, 0), "seat_hand": (1, 0), "seat_totals": (2, 0),
           "seat_is_capn": (2, 5), "seat_in_my_group": (2, 6), "seat_coins": (2, 7),
           "seat_hold": (2, 8), "seat_crates": (2, 9), "seat_status": (2, 10),
           "seat_bids": (2, 13)}


class _Hold:
    """A top-down view (9 codes) as the encoder uses it: its totals (gold, cannons,
    contraband, rats, cells showing goods) and, once asked for, its matrix for
    ``_outcome_rows``: the cells' outcome rows, then ``_MATRIX_TAIL``."""

    __slots__ = ("cells", "tot", "_matrix")

    def __init__(self, cells: tuple):
        self.cells = cells
        self.tot = _totals(cells)
        self._matrix = None

    @property
    def matrix(self) -> np.ndarray:
        """(_OUT_COLS, 1, 9 + _OUT_COLS + 1): see the class docstring (the middle axis
        for the seats of ``_outcome_rows``)."""
        if self._matrix is None:
            self._matrix = np.concatenate((_CELL_OUT.take(self.cells, axis=1), _MATRIX_TAIL),
                                          axis=1)[:, None]
        return self._matrix


class _Tables:
    """Per-game constant arrays and caches of the encoder."""

    def __init__(self, game):
        layout = game.layout
        S, L = game.num_seats, game.stack_size
        self.size = layout.size
        self.sl = {name: layout.slice(name) for name in layout.names()}
        crates = self.crates = game.components.crates
        #: crate_feats[crate id, orientation] = the crate's 45 features as it lies (crate
        #: id 0: none, all zero)
        self.crate_feats = np.zeros((len(crates) + 1, 8, TILE), dtype=np.float32)
        for cid, cells in enumerate(crates, 1):
            for o in range(8):
                self.crate_feats[cid, o] = _CELL_TABLE[list(orient(cells, o))].ravel()
        #: present[k]: the stack_present field of a stack of k crates
        self.present = [np.asarray([1.0] * k + [0.0] * (L - k), dtype=np.float32)
                        for k in range(L + 1)]
        # seat fields are contiguous at the end of the layout, in SEAT_FIELDS order
        self.seat_start = self.sl[SEAT_FIELDS[0][0]].start
        if self.sl[SEAT_FIELDS[-1][0]].stop != self.size:
            raise RuntimeError("layout: the seat fields must come last")
        off = 0
        for name, w in SEAT_FIELDS:
            if self.sl[name].start - self.seat_start != off:
                raise RuntimeError(f"layout: {name} is out of SEAT_FIELDS order")
            off += S * w
        part_at = np.cumsum((0,) + _PART_WIDTHS) * S
        #: seat_perm[p]: gathers the seat source (absolute seats) into p's relative,
        #: field-major seat fields
        self.seat_perm = []
        for p in range(S):
            idx = []
            for name, w in SEAT_FIELDS:
                part, col = _SOURCE[name]
                for k in range(S):
                    src = part_at[part] + ((p + k) % S) * _PART_WIDTHS[part] + col
                    idx.extend(range(src, src + w))
            self.seat_perm.append(np.asarray(idx, dtype=np.intp))
        #: in_group[voyage][p]: relative flags of the seats in p's group
        self.in_group = [
            [np.asarray([1.0 if game.group_index[v][(p + k) % S] == game.group_index[v][p]
                         else 0.0 for k in range(S)], dtype=np.float32) for p in range(S)]
            for v in range(3)
        ]
        self.hand_rows: dict[tuple, np.ndarray] = {}
        #: (voyage, turn, decision, rebid) -> the observation's first fields (see encode)
        self.prefix: dict[tuple, np.ndarray] = {}
        # small caches keyed on the (immutable) table parts they were computed from; each
        # entry keeps its key object alive, so an identity match is a content match
        self.stack_cache: dict[int, tuple] = {}
        #: the last hands seen and their seat-source part; holding the key keeps its id
        #: unique, so an identity match is a content match
        self.last_hands: tuple = (None, None, None)
        #: a top-down view (9 codes) -> its _Hold
        self.holds: dict[tuple, _Hold] = {}

        #: per crate id, stack orientation and action orientation: the cell codes
        codes = np.zeros((len(crates) + 1, 8, 8, 9), dtype=np.intp)
        for cid, cells in enumerate(crates, 1):
            for o in range(8):
                lying = orient(cells, o)
                for a in range(8):
                    codes[cid, o, a] = orient(lying, a)
        #: crate_inputs[:, crate id * 8 + lying, a]: the holes (9) the crate leaves in
        #: action orientation a, its own cells' outcome rows (_OUT_COLS), and 1 (the
        #: constant input)
        own = _CELL_OUT.T[codes].sum(axis=-2)
        inputs = np.concatenate([(codes == 0).astype(np.float32), own,
                                 np.ones(own.shape[:-1] + (1,), dtype=np.float32)], axis=-1)
        self.crate_inputs = np.ascontiguousarray(
            inputs.reshape(-1, 8, inputs.shape[-1]).transpose(2, 0, 1))
        #: seat -> the last outcomes computed for it (see _group_outcomes)
        self.seat_outcomes: dict[int, tuple] = {}
        #: agent_groups[voyage][k]: the seats of group k but the Cap'n
        self.agent_groups = [tuple(tuple(x for x in grp if x != game.capn)
                                   for grp in game.groups(v)) for v in range(3)]
        self.arange = np.arange(max(S, 2 * game.stack_size))
        sl = self.sl
        self.at_voyage, self.at_hand = sl["voyage"].start, sl["my_hand"].start
        if self.at_hand - self.at_voyage != 9:     # voyage, turn, decision, rebid
            raise RuntimeError("layout: my_hand must follow voyage, turn, decision, rebid")
        self.at_pending = sl["pending_crate"].start
        self.at_stack = sl["stack"].start
        self.w_stack = sl["stack_present"].stop - self.at_stack
        self.at_other = sl["other_stack"].start if game.six_seat else -1
        self.at_now, self.at_place = sl["score_now"].start, sl["place_outcomes"].start
        self.at_stack_out = sl["stack_outcomes"].start
        self.at_in_group = sl["seat_in_my_group"].start
        self.at_bid = sl["bid_outlook"].start
        #: (crate id, orientation) -> its 9 cell codes as it lies
        self.lying_codes: dict[tuple, tuple] = {}

    def lying(self, crate: int, o: int) -> tuple:
        """The cell codes of crate ``crate`` as it lies in orientation ``o`` (cached)."""
        cells = self.lying_codes.get((crate, o))
        if cells is None:
            cells = self.lying_codes[(crate, o)] = orient(self.crates[crate - 1], o)
        return cells

    def hold(self, cells: tuple) -> _Hold:
        """The _Hold of a top-down view (cached on content)."""
        hold = self.holds.get(cells)
        if hold is None:
            hold = remember(self.holds, cells, _Hold(cells), 20000)
        return hold

    def hand_row(self, hand: tuple) -> np.ndarray:
        """The 10 crew-card flags of a hand (cached)."""
        row = self.hand_rows.get(hand)
        if row is None:
            row = np.zeros(10, dtype=np.float32)
            for c in hand:
                row[c - 1] = 1.0
            self.hand_rows[hand] = row
        return row

    def stack(self, stack: tuple) -> np.ndarray:
        """The stack and stack_present fields of a stack (cached on the stack tuple)."""
        hit = self.stack_cache.get(id(stack))
        if hit is None or hit[0] is not stack:
            pad = [0] * (len(self.present) - 1 - len(stack))     # crate 0: all zero
            ids = [c * 8 + o for c, o in stack] + pad
            feats = self.crate_feats.reshape(-1, TILE).take(ids, axis=0)
            arr = np.concatenate((feats.ravel(), self.present[len(stack)]))
            hit = remember(self.stack_cache, id(stack), (stack, arr), 64)
        return hit[1]

    def first_fields(self, voyage: int, turn: int, decision: str, rebid: bool) -> np.ndarray:
        """The voyage, turn, decision and rebid fields (cached)."""
        key = (voyage, turn, decision, rebid)
        arr = self.prefix.get(key)
        if arr is None:
            arr = np.zeros(9, dtype=np.float32)
            arr[voyage] = arr[3 + turn] = 1.0
            if decision:
                arr[6 + (decision == "place")] = 1.0
            arr[8] = float(rebid)
            self.prefix[key] = arr
        return arr


def _tables(game) -> _Tables:
    t = game.__dict__.get("_obs_tables")
    if t is None:
        t = game._obs_tables = _Tables(game)
    return t


def _derive(game, T: _Tables, table) -> dict:
    """Arrays every seat's observation of this public table shares (absolute seats)."""
    d = {}
    visible = table.visible
    holds = d["holds"] = [T.hold(cells) for cells in visible]
    hands = table.hands
    last = T.last_hands
    if last[0] is not hands:
        rows = [T.hand_row(h) for h in hands]
        last = T.last_hands = (hands, np.concatenate(rows), rows)
    # per seat: [gold/27, cannons/27, contraband/27, rats/9, goods/9, is the Cap'n, in my
    # group (1: one group; six seats: see encode), coins, hold, crates, status x 3, bids
    # x 2] (divided in float64, then stored in float32: the same number as a float32
    # division of these small integers, as 53 >= 2 * 24 + 2 bits)
    rest = []
    for hold, c, h, pl in zip(holds, table.coins, table.hold_history[-1], table.placed):
        gold, cannons, contraband, rats, goods = hold.tot
        rest += (gold / 27.0, cannons / 27.0, contraband / 27.0, rats / 9.0, goods / 9.0,
                 0.0, 1.0, c / COIN_SCALE, h / 18.0, len(pl) / 3.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    if game.capn is not None:
        rest[15 * game.capn + 5] = 1.0
    if not table.done:
        for k, grp in enumerate(table.need):
            for s in grp:
                rest[15 * s + 10] = 1.0
                if table.stage[k] == 2:
                    rest[15 * s + 12] = 1.0
        for grp in table.placing:
            for x in grp:
                rest[15 * x[0] + 11] = 1.0
    for v, t, stage, s, card in reversed(table.bids):
        if v != table.voyage or t != table.turn:
            break
        rest[15 * s + 12 + stage] = card / 10.0
    cells = _CELL_TABLE.take(sum(visible, ()), axis=0)            # (seats * 9, 5)
    d["seat"] = np.concatenate((cells.ravel(), last[1], np.array(rest, dtype=np.float32)))
    d["hands"] = last[2]
    d["stacks"] = [T.stack(stack) for stack in table.stacks]
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
    The others are computed together (``_outcome_rows``)."""
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
    cannons = [h.tot[1] for h in holds]
    contraband = [h.tot[2] for h in holds]
    res = {}
    todo = []
    for p in seats:
        others = cannons[:p] + cannons[p + 1:]
        context = (visible[p], min(others) if others else _NO_LOW,
                   max(contraband[:p] + contraband[p + 1:]) if others else 0)
        rec = T.seat_outcomes.get(p)
        if rec is not None and rec[0] == context:       # compared on content
            got = _reuse(rec, p, placing, stack)
            if got is not None:
                res[p] = got
                continue
        todo.append((p, context))
    if todo:
        crates = tuple([(c, o) for _, c, o in placing]) + stack
        rows = best = None
        if crates:
            rows, best = _outcome_rows(T, crates, [holds[p] for p, _ in todo],
                                       [context for _, context in todo])
        row_of = {c: r for r, c in enumerate(crates)}
        for j, (p, (_, low, high)) in enumerate(todo):
            # float64 then float32: the same number as a float32 division (see _derive)
            now = _score(holds[p].tot, low, high) / SCORE_SCALE
            rec = T.seat_outcomes[p] = (todo[j][1], crates, row_of, now, rows, best, j)
            res[p] = _reuse(rec, p, placing, stack)
    d[key] = res
    return res


def _outcome_rows(T: _Tables, crates: tuple, holds: list, contexts: list) -> tuple:
    """The outcomes of every (crate, lying) of ``crates`` on some seats' holds, with
    their contexts: ``rows[seat, crate, orientation]``, the 6 outcome numbers (a view),
    and ``best[seat, crate]``, those of the best orientation (highest voyage score, then
    most cells showing goods, then the first).

    One matrix product gives, per outcome row and seat (rows) and per crate and
    orientation (columns), the hold's totals after placing (a crate's own cells plus
    the hold cells its holes leave showing), gold + cannons - rats, and the indices of
    the score's other parts in ``_SCORE_LUT`` (the seat's context enters through the
    constant input). Every value is a small integer or a float32 quotient of one, so
    the order of the sums changes no bit."""
    n, m = len(crates), len(holds)
    inputs = T.crate_inputs.take([c * 8 + o for c, o in crates], axis=1)   # (., n, 8)
    matrix = np.concatenate([h.matrix for h in holds], axis=1)         # (cols, m, .)
    context = matrix[6:, :, -1]
    for j, (_, low, high) in enumerate(contexts):
        context[0, j] = 32.0 * low
        context[1, j] = _CONTRA_AT + 32.0 * high
    out = (matrix.reshape(_OUT_COLS * m, -1) @ inputs.reshape(-1, n * 8)).reshape(
        _OUT_COLS, m, n, 8)
    parts = _SCORE_LUT.take(out[6:].astype(np.intp))
    score = out[5]                                      # gold + cannons - rats, then more
    score += parts[0]
    score += parts[1]
    key = score * 16
    key += out[4]
    pick = key.argmax(axis=2)                           # (seat, crate)
    rows = (out[:6] / _OUT_SCALE[:, None, None, None]).transpose(1, 2, 3, 0)
    return rows, rows[T.arange[:m, None], T.arange[:n], pick]


def _reuse(rec: tuple, p: int, placing: tuple, stack: tuple):
    """Seat ``p``'s (score now, place outcomes, stack outcomes) from its outcome record
    ``rec``, or None if a crate of ``placing`` or ``stack`` has no row there."""
    _, crates, row_of, now, rows, best, j = rec
    place = None
    for seat, c, o in placing:
        if seat == p:
            r = row_of.get((c, o))
            if r is None:
                return None
            place = rows[j, r].ravel()
    if not stack:
        return now, place, None
    start = row_of.get(stack[0])
    if start is None or crates[start:start + len(stack)] != stack:
        return None
    return now, place, best[j, start:start + len(stack)].ravel()


def _bid_outlooks(game, T: _Tables, table, k: int) -> dict:
    """Seat -> its bid_outlook values (10, unscaled) for the agents bidding in group ``k``
    (kept on the table). Each seat lists the bidders from itself round the table."""
    d = table.derived
    key = ("bid_outlook", k)
    res = d.get(key)
    if res is not None:
        return res
    S, capn = game.num_seats, game.capn
    bidders = table.need[k]
    if len(table.stacks[k]) < len(bidders):     # never by the rules: one crate per bidder
        raise InvalidArgumentError(f"table: {len(bidders)} bidders but {len(table.stacks[k])} crates "
                         "in their stack")
    stack = [T.lying(c, o) for c, o in table.stacks[k][:len(bidders)]]
    contraband = [hold.tot[2] for hold in d["holds"]]
    holds = table.hold_history[-1]
    values, hands = {}, {}
    for s in bidders:
        rivals = max(contraband[:s] + contraband[s + 1:])
        values[s] = crate_gains(table.visible[s], stack, rivals, len(table.placed[s]))
        hands[s] = sorted(table.hands[s]) or list(range(1, bidding.NUM_CARDS + 1))
    res = {}
    for p in bidders:
        if p == capn:
            continue
        seats = sorted(bidders, key=lambda s: (s - p) % S)
        res[p] = bid_outlook([values[s] for s in seats], [hands[s] for s in seats],
                             [s == capn for s in seats], table.stage[k] == 2,
                             [holds[s] for s in seats])
    d[key] = res
    return res


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
    k = game.group_index[voyage][p]
    decision = view.decision
    obs[T.at_voyage:T.at_hand] = T.first_fields(
        voyage, min(table.turn, 2), decision, decision == "bid" and table.stage[k] == 2)
    obs[T.at_hand:T.at_hand + 10] = d["hands"][p]
    if decision == "place":
        for seat, crate, o in table.placing[k]:
            if seat == p:
                obs[T.at_pending:T.at_pending + TILE] = T.crate_feats[crate, o]
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
    if decision == "bid":
        obs[T.at_bid:T.at_bid + 10] = np.asarray(_bid_outlooks(game, T, table, k)[p]) \
            / SCORE_SCALE
    d["seat"].take(T.seat_perm[p], out=obs[T.seat_start:], mode="clip")
    if game.six_seat:     # two groups: whose seats share p's
        obs[T.at_in_group:T.at_in_group + game.num_seats] = T.in_group[voyage][p]
    return obs


def compiled_params(game, module) -> tuple:
    """The arguments of the compiled ``module.Encoder`` (the compiled engine's encoder,
    envs/shipshape/_engine.c; the engine's ``encoder_params``) for ``game``: its seats, the layout's spans of the fields the C code names
    (``module.LAYOUT_FIELDS``; -1, -1 for one the layout lacks), the crates' cells and the
    orientations (geometry.PERMS), and this module's tables and scales. Builds none of the
    Python encoder's tables or caches."""
    from .geometry import PERMS

    layout = game.layout
    names = set(layout.names())
    spans = []
    for name in module.LAYOUT_FIELDS:
        sl = layout.slice(name) if name in names else slice(-1, -1)
        spans += (sl.start, sl.stop)
    return (game.num_seats, game.stack_size, -1 if game.capn is None else game.capn,
            game.six_seat, tuple(g for row in game.group_index for g in row), layout.size,
            tuple(spans), tuple(c for cells in game.components.crates for c in cells),
            tuple(i for perm in PERMS for i in perm), tuple(_CELL_TABLE.ravel().tolist()),
            tuple(int(x) for x in _CELL_TOTALS.ravel()), tuple(_OUT_SCALE.tolist()),
            COIN_SCALE, SCORE_SCALE, _NO_LOW,
            (bidding.CARD_COST, bidding.WIDTH, bidding.REBID_CHARGE, bidding.HEURISTIC_TIE))
