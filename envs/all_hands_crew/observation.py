"""The observation vector of All Hands on Deck: a named layout and ``encode_view``.

Every per-seat field is rotated so that offset 0 is the observing player, offset 1 the
next player clockwise, and so on. Kinds are in the order Cook, Gunner, Lookout, Carpenter,
Navigator, Bosun, Captain Anchor, Captain Cutlass, Captain Kraken. ``layout.describe()``
prints the table.
"""

from __future__ import annotations

import numpy as np

from plunder.envs.core.layout import LayoutBuilder

from .components import NUM_CREW, NUM_KINDS

TOP_DEPTH = 4        # pile positions (from the top) encoded one by one
PHASE_INDEX = {"draw": 0, "spyglass": 1, "hire": 2, "lay": 3, "target": 4, "over": 5}
PENDING_INDEX = {"snatch": 0, "short_rations": 1, "curse": 2}


def build_layout(game):
    """The layout for ``game`` (sizes depend on the player count)."""
    n = game.num_players
    s = game.max_stock
    b = LayoutBuilder()
    b.add("phase", 6, "one-hot phase: draw, spyglass (extra draws), hire, lay, target, over")
    b.add("pending_action", 3, "action waiting for its target: snatch, short rations, curse")
    b.add("acting", n, "seats (offset from me) that must decide now")
    b.add("start_player", n, "one-hot seat of this round's start player")
    b.add("round", 1, "round number / 30", high=2.0)
    b.add("hire_step", 1, "hiring pick number (Double hire picks are steps 1, 2, ...) / 8")
    b.add("cards_in_piles", 1, "cards in all Drawing Piles / 90")
    b.add("pile_size", n, "cards in each seat's Drawing Pile / 40", high=3.0)
    b.add("pile_top", n * TOP_DEPTH * (NUM_KINDS + 1),
          f"per pile, per position from the top (1..{TOP_DEPTH}): one-hot kind I know "
          "there, or the last entry 1 if the card is there but unknown to me")
    b.add("pile_known", n * NUM_KINDS, "per pile: cards of each kind I know to be in it / 5",
          high=4.0)
    b.add("pile_known_by_others", n, "per pile: cards known to someone other than me / 10",
          high=10.0)
    b.add("my_stock", s * (2 + NUM_KINDS + n),
          f"per stock slot (1..{s}): present, picked by me, one-hot kind (all 0 while "
          "unseen), one-hot source pile")
    b.add("stock_size", n, "stock cards each seat holds / 15")
    b.add("stock_sources", n * n, "per seat: its stock cards taken from each pile / 5",
          high=3.0)
    b.add("stock_seen", n * NUM_KINDS,
          "per seat: kinds of its stock I can see (own at hiring; everyone's with open stock) / 5",
          high=3.0)
    b.add("draw_target", n, "regular stock cards each seat draws this round / 3")
    b.add("spyglass_left", n, "Spyglass extra draws each seat still makes this round / 3",
          high=4.0)
    b.add("hire_keep", n, "stock cards each seat keeps this round / 3", high=4.0)
    b.add("next_double_hire", n, "Double hires due next round / 3", high=4.0)
    b.add("next_spyglass", n, "Spyglasses due next round / 3", high=4.0)
    b.add("next_short_rations", n, "1 if the seat is on Short rations next round")
    b.add("my_crew", NUM_KINDS, "cards of each kind in my Crew Pile / 6", high=3.0)
    b.add("my_crew_value", 1, "score of my Crew Pile's best partition if the game ended now / 40",
          low=-2.0, high=3.0)
    b.add("crew_size", n, "cards in each seat's Crew Pile / 20", high=5.0)
    b.add("crew_known", n * NUM_KINDS, "per seat: kinds I know to be in its Crew Pile / 6",
          high=3.0)
    b.add("known_about_me", n * NUM_KINDS, "per seat: kinds it knows to be in my Crew Pile / 6",
          high=3.0)
    b.add("laid_cards", n * NUM_KINDS, "per seat: cards of each kind laid out / 12", high=2.0)
    b.add("laid_points", n, "per seat: points of its laid-out combinations / 60",
          low=-2.0, high=4.0)
    b.add("curses", n, "curse cards each seat holds / 6", high=3.0)
    b.add("captains", n, "captains in each seat's layout (the tie-break) / 10", high=2.0)
    b.add("score", n, "current score (laid, final layout, single captains, curses) / 60",
          low=-3.0, high=4.0)
    b.add("unseen", NUM_KINDS, "cards of each kind in the game whose place I do not know / 12",
          high=2.0)
    return b.build()


CACHE_LIMIT = 4096   # entries per memo table; a full table is simply cleared


class EncoderTables:
    """Per-game constants of the encoder and its memo tables.

    The observation is assembled from contiguous blocks of the layout, each a pure function
    of a few view fields (and of the game, which owns these tables). A block is memoised as
    a float32 array on exactly those fields, so a step mostly copies cached arrays.
    """

    def __init__(self, game):
        n = game.num_players
        sl = game.layout_starts
        self.size = game.layout.size
        self.rel = [tuple((me + j) % n for j in range(n)) for me in range(n)]  # offset -> seat
        self.off = []                                                            # seat -> offset
        for me in range(n):
            off = [0] * n
            for j, seat in enumerate(self.rel[me]):
                off[seat] = j
            self.off.append(tuple(off))
        # block boundaries (layout order)
        self.b_piles = sl["cards_in_piles"]
        self.b_stock = sl["my_stock"]
        self.b_counts = sl["draw_target"]
        self.b_crew = sl["crew_known"]
        self.b_unseen = sl["unseen"]
        self.header: dict = {}
        self.piles: dict = {}
        self.pile: dict = {}
        self.unseen: dict = {}
        self.crew_value: dict = {}
        self.stock: dict = {}
        self.counts: dict = {}
        self.crew: dict = {}
        self.seat_laid: dict = {}


def encode_view(game, v) -> np.ndarray:
    """The observation of view ``v`` (reads nothing but the view)."""
    t = game.enc
    me = v.player
    o = np.empty(t.size, dtype=np.float32)
    b_piles, b_stock, b_counts, b_crew, b_unseen = (t.b_piles, t.b_stock, t.b_counts,
                                                    t.b_crew, t.b_unseen)

    key = (me, v.phase, v.pending, v.acting, v.start, v.round, v.hire_step)
    arr = t.header.get(key)
    if arr is None:
        arr = _header(game, v)
        _store(t.header, key, arr)
    o[:b_piles] = arr

    key = (me, v.pile_masks, v.pile_seen)
    hit = t.piles.get(key)
    if hit is None:
        hit = _piles(game, v, o)
        _store(t.piles, key, hit)
    else:
        o[b_piles:b_stock] = hit[0]
    seen_piles = hit[1]

    key = (me, v.stock, v.my_hired)
    hit = t.stock.get(key)
    if hit is None:
        hit = _stock(game, v)
        _store(t.stock, key, hit)
    o[b_stock:b_counts] = hit[0]
    seen_stock = hit[1]

    over = v.phase == "over"
    key = (me, v.draw_target, v.spy_left, v.keep, v.next_double, v.next_spy, v.next_short,
           v.my_crew, v.crew_sizes, over)
    arr = t.counts.get(key)
    if arr is None:
        arr = _counts(game, v, over)
        _store(t.counts, key, arr)
    o[b_counts:b_crew] = arr

    key = (me, v.crew_known, v.known_about_me, v.laid, v.final, v.final_left, v.curses)
    hit = t.crew.get(key)
    if hit is None:
        hit = _crew(game, v)
        _store(t.crew, key, hit)
    o[b_crew:b_unseen] = hit[0]
    seen_crew = hit[1]

    key = (seen_piles, seen_stock, v.my_crew, seen_crew)
    arr = t.unseen.get(key)
    if arr is None:
        arr = np.array([(c - a - b - d - e) / 12 for c, a, b, d, e in zip(game.copies, *key)],
                       dtype=np.float32)
        _store(t.unseen, key, arr)
    o[b_unseen:] = arr
    return o


def _store(cache: dict, key, value) -> None:
    if len(cache) >= CACHE_LIMIT:
        cache.clear()
    cache[key] = value


def _header(game, v) -> np.ndarray:
    """phase .. hire_step."""
    sl = game.layout_starts
    off = game.enc.off[v.player]
    o = [0.0] * game.enc.b_piles
    o[sl["phase"] + PHASE_INDEX[v.phase]] = 1.0
    if v.pending:
        o[sl["pending_action"] + PENDING_INDEX[v.pending]] = 1.0
    base = sl["acting"]
    for p in v.acting:
        o[base + off[p]] = 1.0
    o[sl["start_player"] + off[v.start]] = 1.0
    o[sl["round"]] = v.round / 30
    o[sl["hire_step"]] = v.hire_step / 8
    return np.array(o, dtype=np.float32)


def _piles(game, v, out: np.ndarray):
    """Writes cards_in_piles .. pile_known_by_others into ``out`` from per-pile memos;
    returns (a copy of that block, the cards seen per kind)."""
    t = game.enc
    sl = game.layout_starts
    K = NUM_KINDS
    n = v.num_players
    me = v.player
    memo = t.pile
    top0 = sl["pile_top"]
    kn0 = sl["pile_known"]
    w_top = TOP_DEPTH * (K + 1)
    seen = [0] * K
    total = 0
    sizes = []
    others = []
    for j, seat in enumerate(t.rel[me]):
        key = (me, v.pile_masks[seat], v.pile_seen[seat])
        hit = memo.get(key)
        if hit is None:
            hit = _pile(*key)
            _store(memo, key, hit)
        size, other, top, known, cards = hit
        total += size
        sizes.append(size / 40)
        others.append(other)
        out[top0 + j * w_top:top0 + (j + 1) * w_top] = top
        out[kn0 + j * K:kn0 + (j + 1) * K] = known
        if cards is not None:
            seen = [a + b for a, b in zip(seen, cards)]
    b0 = t.b_piles   # cards_in_piles, then pile_size
    out[b0:b0 + 1 + n] = [total / 90] + sizes
    oth0 = sl["pile_known_by_others"]
    out[oth0:oth0 + n] = others
    return out[b0:t.b_stock].copy(), tuple(seen)


def _pile(me: int, masks: tuple, pile_seen: tuple):
    """One pile: (size, known-by-others value, pile_top part, pile_known part, seen cards)."""
    K = NUM_KINDS
    size = len(masks)
    top = [0.0] * (TOP_DEPTH * (K + 1))
    known = [0.0] * K
    seen = [0] * K
    other = 0.0
    if size:
        # cards known to someone other than me: not unknown to all, not mine alone
        other = (size - masks.count(0) - masks.count(1 << me)) / 10
        for depth in range(min(size, TOP_DEPTH)):
            top[depth * (K + 1) + K] = 1.0
    for i, k in pile_seen:
        known[k] += 0.2
        seen[k] += 1
        depth = size - 1 - i
        if depth < TOP_DEPTH:
            at = depth * (K + 1)
            top[at + K] = 0.0
            top[at + k] = 1.0
    return (size, other, np.array(top, dtype=np.float32), np.array(known, dtype=np.float32),
            tuple(seen) if pile_seen else None)


def _stock(game, v):
    """my_stock .. stock_seen, and the cards seen per kind (mostly zeros: the non-zero
    entries are collected in a dict and scattered into a zero block)."""
    t = game.enc
    b0 = t.b_stock
    o: dict = {}
    get = o.get
    sl = game.layout_starts
    K = NUM_KINDS
    n = v.num_players
    me = v.player
    off = t.off[me]
    seen = [0] * K
    width = 2 + K + n
    st0 = sl["my_stock"] - b0
    for i, (k, src) in enumerate(v.stock[me]):
        at = st0 + i * width
        o[at] = 1.0
        if i in v.my_hired:
            o[at + 1] = 1.0
        if k >= 0:
            o[at + 2 + k] = 1.0
        o[at + 2 + K + off[src]] = 1.0
    ss0 = sl["stock_size"] - b0
    src0 = sl["stock_sources"] - b0
    seen0 = sl["stock_seen"] - b0
    for j, seat in enumerate(t.rel[me]):
        stock = v.stock[seat]
        if not stock:
            continue
        o[ss0 + j] = len(stock) / 15
        for k, src in stock:
            at = src0 + j * n + off[src]
            o[at] = get(at, 0.0) + 0.2
            if k >= 0:
                at = seen0 + j * K + k
                o[at] = get(at, 0.0) + 0.2
                seen[k] += 1
    arr = np.zeros(t.b_counts - b0, dtype=np.float32)
    if o:
        arr[list(o)] = list(o.values())
    return arr, tuple(seen)


def _counts(game, v, over: bool) -> np.ndarray:
    """draw_target .. crew_size (per-seat counters, my Crew Pile and its value)."""
    t = game.enc
    b0 = t.b_counts
    o = [0.0] * (t.b_crew - b0)
    sl = game.layout_starts
    rel = t.rel[v.player]
    for name, vals, scale in (("draw_target", v.draw_target, 3), ("spyglass_left", v.spy_left, 3),
                              ("hire_keep", v.keep, 3), ("next_double_hire", v.next_double, 3),
                              ("next_spyglass", v.next_spy, 3),
                              ("next_short_rations", v.next_short, 1),
                              ("crew_size", v.crew_sizes, 20)):
        at = sl[name] - b0
        for j, seat in enumerate(rel):
            x = vals[seat]
            if x:
                o[at + j] = x / scale
    at = sl["my_crew"] - b0
    my_crew = v.my_crew
    for k in range(NUM_KINDS):
        if my_crew[k]:
            o[at + k] = my_crew[k] / 6
    if not over:
        value = t.crew_value.get(my_crew)
        if value is None:
            value = game.partitioner.value(my_crew) / 40
            _store(t.crew_value, my_crew, value)
        o[sl["my_crew_value"] - b0] = value
    return np.array(o, dtype=np.float32)


def _seat_laid(game, laid, final, left):
    """(points, captains, laid cards per kind / 12, cards per kind) of one seat's layout."""
    K = NUM_KINDS
    combos = game.combos
    lc = [0.0] * K
    cards = [0] * K
    points = 0
    caps = 0
    for group in (laid, final):
        for ci in group:
            cb = combos[ci]
            points += cb.points
            caps += cb.captains
            for k, c in game.combo_parts[ci]:
                lc[k] += c / 12
                cards[k] += c
    if any(left):
        single = game.single_values
        for k in range(K):
            if left[k]:
                cards[k] += left[k]
                lc[k] += left[k] / 12
                if k >= NUM_CREW:
                    caps += left[k]
                    points += single[k] * left[k]
    return points, caps, lc, cards


def _crew(game, v):
    """crew_known .. score, and the cards placed per kind (known crews, layouts)."""
    t = game.enc
    b0 = t.b_crew
    o = [0.0] * (t.b_unseen - b0)
    sl = game.layout_starts
    K = NUM_KINDS
    me = v.player
    seen = [0] * K
    ck0, ka0 = sl["crew_known"] - b0, sl["known_about_me"] - b0
    lc0, lp0 = sl["laid_cards"] - b0, sl["laid_points"] - b0
    cap0, sc0, cu0 = sl["captains"] - b0, sl["score"] - b0, sl["curses"] - b0
    curse = game.comps.curse
    memo = t.seat_laid
    for j, seat in enumerate(t.rel[me]):
        if seat != me:
            row = v.crew_known[seat]
            if any(row):
                for k in range(K):
                    if row[k]:
                        o[ck0 + j * K + k] = row[k] / 6
                        seen[k] += row[k]
            row = v.known_about_me[seat]
            if any(row):
                for k in range(K):
                    if row[k]:
                        o[ka0 + j * K + k] = row[k] / 6
        key = (v.laid[seat], v.final[seat], v.final_left[seat])
        hit = memo.get(key)
        if hit is None:
            hit = _seat_laid(game, *key)
            _store(memo, key, hit)
        points, caps, lc, cards = hit
        o[lc0 + j * K:lc0 + (j + 1) * K] = lc
        for k in range(K):
            seen[k] += cards[k]
        o[lp0 + j] = points / 60
        o[cap0 + j] = caps / 10
        x = v.curses[seat]
        if x:
            o[cu0 + j] = x / 6
        o[sc0 + j] = (points + curse * x) / 60
    return np.array(o, dtype=np.float32), tuple(seen)
