"""The observation vector of All Hands on Deck: a named layout and ``encode_view``.

Every per-seat field is rotated so that offset 0 is the observing player, offset 1 the
next player clockwise, and so on. Kinds are in the order Cook, Gunner, Lookout, Carpenter,
Navigator, Bosun, Captain Anchor, Captain Cutlass, Captain Kraken. ``layout.describe()``
prints the table.
"""

from __future__ import annotations

from array import array
from operator import add

import numpy as np

from plunder.envs.core.layout import LayoutBuilder
from plunder.envs.core.memo import remember

from .components import NO_CARDS, NUM_CREW, NUM_KINDS
from .view import AllHandsCrewView

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
    # derived: the partition solver's value of my_crew
    b.add("my_crew_value", 1, "score of my Crew Pile's best partition if the game ended now / 40",
          low=-2.0, high=3.0, derived=True)
    b.add("crew_size", n, "cards in each seat's Crew Pile / 20", high=5.0)
    b.add("crew_known", n * NUM_KINDS, "per seat: kinds I know to be in its Crew Pile, but "
          "for crew_maybe_gone of them / 6", high=3.0)
    b.add("crew_maybe_gone", n, "per seat: how many of those known cards Snatches I did not "
          "see may have taken (I cannot tell which) / 6", high=3.0)
    b.add("known_about_me", n * NUM_KINDS, "per seat: kinds it knows to be in my Crew Pile, "
          "but for about_me_maybe_gone of them / 6", high=3.0)
    b.add("about_me_maybe_gone", n, "per seat: how many of those cards Snatches it did not "
          "see may have taken, as far as it can tell / 6", high=3.0)
    b.add("laid_cards", n * NUM_KINDS, "per seat: cards of each kind laid out / 12", high=2.0)
    b.add("laid_points", n, "per seat: points of its laid-out combinations / 60",
          low=-2.0, high=4.0)
    b.add("curses", n, "curse cards each seat holds / 6", high=3.0)
    b.add("captains", n, "captains in each seat's layout (the tie-break) / 10", high=2.0)
    b.add("score", n, "current score (laid, final layout, single captains, curses) / 60",
          low=-3.0, high=4.0)
    b.add("unseen", NUM_KINDS, "cards of each kind in the game whose place I do not know "
          "for sure / 12",
          high=2.0)
    return b.build()


# AllHandsCrewView is a tuple: these slices take the fields of a group in one C-level step
_FIELDS = AllHandsCrewView._fields
_HEADER = slice(_FIELDS.index("phase"), _FIELDS.index("pile_masks"))   # phase .. pending
_SLOW = slice(_FIELDS.index("my_crew"), _FIELDS.index("events"))       # my_crew .. next_short


def _repeated(step: float, count: int) -> float:
    """``step`` added ``count`` times from 0.0 (the float64 sums the encoder accumulates)."""
    x = 0.0
    for _ in range(count):
        x += step
    return x


#: ACC5[c]: c cards each counted as 0.2, summed one by one (pile_known, stock_* values)
ACC5 = [_repeated(0.2, c) for c in range(128)]


def _part(values) -> memoryview:
    """Float32 values as a memoryview: written into an observation's memoryview by plain
    slice assignment, several times cheaper than numpy slice assignment."""
    return memoryview(array("f", values))


class EncoderTables:
    """Constants and memo tables of the encoder for one player count.

    The observation is assembled from parts (a block of the layout, or one pile's or one
    seat's share of a block), each a pure function of a few view fields and memoised on
    exactly those fields. The memos depend on nothing but the player count (and the
    packaged components), so all games of that count share one set (:func:`tables`).
    A pickled table set is rebuilt on loading (``__reduce__``): its memoryviews cannot be
    pickled, and the memos are only caches.
    """

    def __init__(self, num_players: int, size: int, starts: dict):
        n = num_players
        sl = dict(starts)
        self.size = size
        self.num_players = n
        self.rel = [tuple((me + j) % n for j in range(n)) for me in range(n)]  # offset -> seat
        self.off = []                                                            # seat -> offset
        for me in range(n):
            off = [0] * n
            for j, seat in enumerate(self.rel[me]):
                off[seat] = j
            self.off.append(tuple(off))
        self.sl = sl
        # block boundaries (layout order)
        self.b_piles = sl["cards_in_piles"]
        self.b_stock = sl["my_stock"]
        self.b_counts = sl["draw_target"]
        self.b_crew = sl["crew_known"]
        self.b_unseen = sl["unseen"]
        self.w_top = TOP_DEPTH * (NUM_KINDS + 1)
        self.onehots: dict = {}
        self.seat_stock: dict = {}
        self.pile_seen: dict = {}
        self.tops: dict = {}
        self.round_counts: dict = {}
        self.my_crew: dict = {}
        self.crew_known: dict = {}
        self.about_me: dict = {}
        self.seat_laid: dict = {}
        self.crew_value: dict = {}
        self.parts: dict = {}        # interned parts: equal values are one object
        self.no_cards = NO_CARDS
        # my_stock slot parts: slots[kind][source offset][picked]; kind -1 (unseen) is the
        # last entry, so the view's kind indexes the list directly
        self.w_slot = 2 + NUM_KINDS + n
        self.slots = [[[_part([1.0, float(picked)] + [float(x == k) for x in range(NUM_KINDS)]
                              + [float(x == o) for x in range(n)])
                        for picked in (False, True)] for o in range(n)]
                      for k in list(range(NUM_KINDS)) + [-1]]
        self.slot_none = _part([0.0] * self.w_slot)
        #: pile_top parts of piles whose top cards I do not know, by min(size, TOP_DEPTH)
        self.top_unknown = [_top(n_top, ()) for n_top in range(TOP_DEPTH + 1)]
        self.known_none = self.counts_part(self.no_cards)

    def __reduce__(self):
        """Pickled as its parameters: loading shares (or builds) the process's tables."""
        return _shared_tables, (self.num_players, self.size, self.sl)

    def counts_part(self, counts: tuple) -> memoryview:
        """The part of card counts ``counts`` (each card counted as 0.2), one shared object
        per value so that the encoder can skip rewriting an unchanged part by an identity
        test. Parts are never handed out, so sharing them is safe."""
        part = self.parts.get(counts)
        if part is None:
            part = _part([ACC5[x] for x in counts])
            remember(self.parts, counts, part)
        return part


_TABLES: dict = {}


def tables(game) -> EncoderTables:
    """The shared encoder tables of ``game``'s player count."""
    return _shared_tables(game.num_players, game.layout.size, game.layout_starts)


def _shared_tables(num_players: int, size: int, starts: dict) -> EncoderTables:
    """The process's encoder tables for these parameters (built on first use)."""
    key = (num_players, size)
    t = _TABLES.get(key)
    if t is None:
        t = _TABLES[key] = EncoderTables(num_players, size, starts)
    return t


class Encoder:
    """The encoder state of one game: an incremental encoder per observer seat.

    Each observer keeps its last observation and the view fields it came from
    (:class:`_Observer`), so a step rewrites only the parts whose fields changed since that
    observer's previous view, whatever the order in which views (of any states) arrive.
    """

    def __init__(self, game):
        self.tables = tables(game)
        self.observers = [_Observer(self.tables) for _ in range(game.num_players)]


class _Observer:
    """One seat's incremental encoder state: ``buf`` holds the observation of the view
    fields (and parts) recorded here, None meaning "not written yet". ``buf`` never leaves
    this object: callers get a copy. It is a cache: a pickled observer loads empty (the
    next view is then encoded in full, to the same vector)."""

    __slots__ = ("tables", "buf", "mv", "header", "onehot", "masks", "seen", "pile_masks", "pile_seen",
                 "pile_size", "pile_other", "pile_top", "pile_known", "pile_cards",
                 "seen_piles", "stock", "hired", "mine", "seat_stock", "seat_src", "seat_seen",
                 "stock_cards", "seen_stock", "slow", "round_counts", "my_crew",
                 "crew_sizes", "crew_known", "about_me", "known_cards", "layouts", "laid_key",
                 "laid_cards", "seen_laid", "unseen")

    def __init__(self, t: EncoderTables):
        n = t.num_players
        self.tables = t
        self.buf = np.zeros(t.size, dtype=np.float32)
        self.mv = memoryview(self.buf)
        self.header = self.onehot = self.masks = self.seen = None
        self.stock = self.hired = self.mine = self.slow = self.round_counts = None
        self.my_crew = self.crew_sizes = self.crew_known = self.about_me = None
        self.layouts = self.unseen = None
        self.seen_piles = self.seen_stock = self.known_cards = self.seen_laid = None
        # per offset j (0 = me): what was written for that pile / that seat
        self.pile_masks = [None] * n
        self.pile_seen = [None] * n
        self.pile_size = [None] * n
        self.pile_other = [None] * n
        self.pile_top = [None] * n
        self.pile_known = [None] * n
        self.pile_cards = [None] * n     # cards seen per kind (None: none)
        self.seat_stock = [None] * n
        self.seat_src = [None] * n
        self.seat_seen = [None] * n
        self.stock_cards = [None] * n    # stock cards seen per kind (None: none)
        self.laid_key = [None] * n
        self.laid_cards = [None] * n

    def __reduce__(self):
        """Pickled empty (its memoryviews cannot be pickled; its contents are a cache)."""
        return _Observer, (self.tables,)


def encode_view(game, v) -> np.ndarray:
    """The observation of view ``v`` (reads nothing but the view)."""
    enc = game.enc
    c = enc.observers[v.player]
    try:
        _update(enc.tables, c, game, v)
    except BaseException:
        enc.observers[v.player] = _Observer(enc.tables)   # never reuse a half-written buffer
        raise
    return c.buf.copy()


def _sum_cards(per_seat: list) -> tuple:
    """Cards per kind over the entries of ``per_seat`` (None entries hold none)."""
    total = None
    for x in per_seat:
        if x is not None:
            total = x if total is None else tuple(map(add, total, x))
    return total or NO_CARDS


def _update(t: EncoderTables, c: _Observer, game, v) -> None:
    """Rewrite the parts of ``c.buf`` whose view fields differ from the recorded ones."""
    mv = c.mv
    changed = False     # whether a count of cards I know of may have changed

    key = v[_HEADER]
    if key != c.header:
        _update_header(t, c, v)
        c.header = key

    if v.pile_masks != c.masks or v.pile_seen != c.seen:
        _update_piles(t, c, v)
        c.masks, c.seen = v.pile_masks, v.pile_seen
        changed = True

    if v.stock != c.stock or v.my_hired != c.hired:
        _update_stock(t, c, v)
        c.stock, c.hired = v.stock, v.my_hired
        changed = True

    # the fields from my_crew on change only now and then: one test for all of them
    key = v[_SLOW]
    if key != c.slow:
        _update_slow(t, c, game, v)
        c.slow = key
        changed = True

    if changed:
        key = (c.seen_piles, c.seen_stock, v.my_crew, c.known_cards, c.seen_laid)
        if key != c.unseen:
            mv[t.b_unseen:] = _part([(n - a - b - d - e - f) / 12
                                     for n, a, b, d, e, f in zip(game.copies, *key)])
            c.unseen = key


def _update_header(t: EncoderTables, c: _Observer, v) -> None:
    """phase .. hire_step: the one-hot fields from a memo, round and hire_step directly."""
    sl = t.sl
    me = v.player
    key = (me, v.phase, v.pending, v.acting, v.start)
    if key != c.onehot:
        part = t.onehots.get(key)
        if part is None:
            part = _onehots(t, *key)
            remember(t.onehots, key, part)
        c.mv[:sl["round"]] = part
        c.onehot = key
    c.mv[sl["round"]] = v.round / 30
    c.mv[sl["hire_step"]] = v.hire_step / 8


def _onehots(t: EncoderTables, me: int, phase: str, pending: str, acting: tuple,
             start: int) -> memoryview:
    """phase .. start_player."""
    sl = t.sl
    off = t.off[me]
    o = [0.0] * sl["round"]
    o[sl["phase"] + PHASE_INDEX[phase]] = 1.0
    if pending:
        o[sl["pending_action"] + PENDING_INDEX[pending]] = 1.0
    for p in acting:
        o[sl["acting"] + off[p]] = 1.0
    o[sl["start_player"] + off[start]] = 1.0
    return _part(o)


def _update_piles(t: EncoderTables, c: _Observer, v) -> None:
    """cards_in_piles .. pile_known_by_others: rewrites the parts of the piles that changed,
    then the total; records the cards seen per kind in ``c.seen_piles``."""
    mv = c.mv
    me = v.player
    bit = 1 << me
    K = NUM_KINDS
    w = t.w_top
    sl = t.sl
    at_size, at_top = sl["pile_size"], sl["pile_top"]
    at_known, at_other = sl["pile_known"], sl["pile_known_by_others"]
    masks, seen = v.pile_masks, v.pile_seen
    last_m, last_s = c.pile_masks, c.pile_seen
    sizes, others, tops, knowns = c.pile_size, c.pile_other, c.pile_top, c.pile_known
    cards = c.pile_cards
    cards_changed = False
    for j, seat in enumerate(t.rel[me]):
        m, s = masks[seat], seen[seat]
        if m == last_m[j] and s == last_s[j]:
            continue
        # a draw mostly changes the size alone: write only the parts that differ
        size = len(m)
        if size != sizes[j]:
            mv[at_size + j] = size / 40
            sizes[j] = size
        # cards known to someone other than me: not unknown to all, not mine alone
        other = (size - m.count(0) - m.count(bit)) / 10
        if other != others[j]:
            mv[at_other + j] = other
            others[j] = other
        n_top = size if size < TOP_DEPTH else TOP_DEPTH
        if s:   # (position from the bottom, kind) of the cards I know
            hit = t.pile_seen.get(s)
            if hit is None:
                hit = _pile_known(t, s)
                remember(t.pile_seen, s, hit)
            known, seen_j = hit
            d = size - 1
            at_top_known = tuple([(d - i, k) for i, k in s if d - i < TOP_DEPTH])
        else:
            known, seen_j, at_top_known = t.known_none, None, ()
        if at_top_known:
            key = (n_top, at_top_known)
            top = t.tops.get(key)
            if top is None:
                top = _top(*key)
                remember(t.tops, key, top)
        else:
            top = t.top_unknown[n_top]
        if top is not tops[j]:
            mv[at_top + j * w:at_top + (j + 1) * w] = top
            tops[j] = top
        if known is not knowns[j]:
            mv[at_known + j * K:at_known + (j + 1) * K] = known
            knowns[j] = known
        if seen_j != cards[j]:
            cards[j] = seen_j
            cards_changed = True
        last_m[j], last_s[j] = m, s
    mv[t.b_piles] = sum(sizes) / 90
    if cards_changed or c.seen_piles is None:
        c.seen_piles = _sum_cards(cards)


def _top(n_top: int, at_top_known: tuple) -> memoryview:
    """One pile's pile_top part: ``n_top`` positions hold a card, the kinds of
    ``at_top_known`` ((depth, kind) pairs) are known to me, the others are unknown."""
    K = NUM_KINDS
    top = [0.0] * (TOP_DEPTH * (K + 1))
    for depth in range(n_top):
        top[depth * (K + 1) + K] = 1.0
    for depth, k in at_top_known:
        at = depth * (K + 1)
        top[at + K] = 0.0
        top[at + k] = 1.0
    return _part(top)


def _pile_known(t: EncoderTables, pile_seen: tuple):
    """One pile's pile_known part and cards seen per kind, from the cards I know there."""
    seen = [0] * NUM_KINDS
    for _, k in pile_seen:
        seen[k] += 1
    seen = tuple(seen)
    return t.counts_part(seen), seen


def _update_stock(t: EncoderTables, c: _Observer, v) -> None:
    """my_stock .. stock_seen; records the cards seen per kind in ``c.seen_stock``."""
    mv = c.mv
    me = v.player
    off = t.off[me]
    stock = v.stock
    sl = t.sl
    mine, hired = stock[me], v.my_hired
    if mine != c.mine or hired != c.hired:
        at, width, slots = t.b_stock, t.w_slot, t.slots
        for i, (k, src) in enumerate(mine):
            mv[at + i * width:at + (i + 1) * width] = slots[k][off[src]][i in hired]
        for i in range(len(mine), len(c.mine or ())):   # slots emptied since
            mv[at + i * width:at + (i + 1) * width] = t.slot_none
        c.mine = mine
    # per seat: stock_size, stock_sources and stock_seen parts, memoised on the seat's
    # stock (few distinct values); a draw changes one seat's stock
    K = NUM_KINDS
    n = t.num_players
    at_size, at_src, at_seen = sl["stock_size"], sl["stock_sources"], sl["stock_seen"]
    memo = t.seat_stock
    last, srcs, seens, cards = c.seat_stock, c.seat_src, c.seat_seen, c.stock_cards
    cards_changed = False
    for j, seat in enumerate(t.rel[me]):
        st = stock[seat]
        if st == last[j]:
            continue
        key = (me, st)
        hit = memo.get(key)
        if hit is None:
            hit = _seat_stock(t, me, st)
            remember(memo, key, hit)
        size, src, seen, cards_j = hit
        mv[at_size + j] = size
        if src is not srcs[j]:
            mv[at_src + j * n:at_src + (j + 1) * n] = src
            srcs[j] = src
        if seen is not seens[j]:
            mv[at_seen + j * K:at_seen + (j + 1) * K] = seen
            seens[j] = seen
        if cards_j is not cards[j]:
            cards[j] = cards_j
            cards_changed = True
        last[j] = st
    if cards_changed or c.seen_stock is None:
        c.seen_stock = _sum_cards(cards)


def _seat_stock(t: EncoderTables, me: int, stock: tuple):
    """One seat's stock as I see it: (stock_size value, stock_sources part, stock_seen part,
    cards seen per kind or None)."""
    off = t.off[me]
    sources = [0] * t.num_players
    seen = [0] * NUM_KINDS
    for k, src in stock:
        sources[off[src]] += 1
        if k >= 0:
            seen[k] += 1
    seen = tuple(seen)
    return (len(stock) / 15, t.counts_part(tuple(sources)), t.counts_part(seen),
            seen if any(seen) else None)


def _update_slow(t: EncoderTables, c: _Observer, game, v) -> None:
    """draw_target .. score: rewrites the parts whose fields changed."""
    me = v.player
    mv = c.mv
    sl = t.sl
    # draw_target .. next_short_rations: change at round starts and with laid pairs
    key = (v.draw_target, v.spy_left, v.keep, v.next_double, v.next_spy, v.next_short)
    if key != c.round_counts:
        mkey = (me, key)
        part = t.round_counts.get(mkey)
        if part is None:
            part = _round_counts(t, me, key)
            remember(t.round_counts, mkey, part)
        mv[t.b_counts:sl["my_crew"]] = part
        c.round_counts = key

    key = (v.my_crew, v.phase == "over")
    if key != c.my_crew:
        part = t.my_crew.get(key)
        if part is None:
            part = _my_crew(t, game, *key)
            remember(t.my_crew, key, part)
        mv[sl["my_crew"]:sl["crew_size"]] = part
        c.my_crew = key

    if v.crew_sizes != c.crew_sizes:
        at = sl["crew_size"]
        sizes = v.crew_sizes
        for j, seat in enumerate(t.rel[me]):
            mv[at + j] = sizes[seat] / 20
        c.crew_sizes = sizes

    key = (v.crew_known, v.crew_maybe_gone)
    if key != c.crew_known:
        mkey = (me, *key)
        hit = t.crew_known.get(mkey)
        if hit is None:
            hit = _crew_known(t, *mkey)
            remember(t.crew_known, mkey, hit)
        mv[t.b_crew:sl["known_about_me"]], c.known_cards = hit
        c.crew_known = key

    key = (v.known_about_me, v.maybe_gone_about_me)
    if key != c.about_me:
        mkey = (me, *key)
        part = t.about_me.get(mkey)
        if part is None:
            part = _about_me(t, *mkey)
            remember(t.about_me, mkey, part)
        mv[sl["known_about_me"]:sl["laid_cards"]] = part
        c.about_me = key

    key = (v.laid, v.final, v.final_left, v.curses)
    if key != c.layouts:
        _update_layouts(t, c, game, v)
        c.layouts = key


def _round_counts(t: EncoderTables, me: int, fields: tuple) -> memoryview:
    """draw_target .. next_short_rations (per seat counters of this and the next round)."""
    scales = (3, 3, 3, 3, 3, 1)
    return _part([vals[seat] / scale for vals, scale in zip(fields, scales)
                  for seat in t.rel[me]])


def _my_crew(t: EncoderTables, game, my_crew: tuple, over: bool) -> memoryview:
    """my_crew and my_crew_value (0 once the game is over)."""
    value = 0.0
    if not over:
        value = t.crew_value.get(my_crew)
        if value is None:
            value = game.partitioner.value(my_crew) / 40
            remember(t.crew_value, my_crew, value)
    return _part([x / 6 for x in my_crew] + [value])


def _crew_known(t: EncoderTables, me: int, crew_known: tuple, maybe_gone: tuple):
    """crew_known and crew_maybe_gone (my own rows stay 0), and the cards they place for
    sure per kind: of k known cards, all but ``maybe_gone`` are surely there."""
    K = NUM_KINDS
    n = t.num_players
    o = [0.0] * (n * K + n)
    seen = [0] * K
    for j, seat in enumerate(t.rel[me]):
        row = crew_known[seat]
        if seat != me and any(row):
            gone = maybe_gone[seat]
            o[n * K + j] = gone / 6
            for k in range(K):
                if row[k]:
                    o[j * K + k] = row[k] / 6
                    if row[k] > gone:
                        seen[k] += row[k] - gone
    return _part(o), tuple(seen)


def _about_me(t: EncoderTables, me: int, known_about_me: tuple,
              maybe_gone: tuple) -> memoryview:
    """known_about_me and about_me_maybe_gone (my own rows stay 0)."""
    return _part([0.0 if seat == me else x / 6 for seat in t.rel[me]
                  for x in known_about_me[seat]]
                 + [0.0 if seat == me else maybe_gone[seat] / 6 for seat in t.rel[me]])


def _update_layouts(t: EncoderTables, c: _Observer, game, v) -> None:
    """laid_cards .. score of the seats whose layout or curses changed; records the cards
    laid out per kind in ``c.seen_laid``."""
    mv = c.mv
    sl = t.sl
    K = NUM_KINDS
    at_cards, at_points, at_curses = sl["laid_cards"], sl["laid_points"], sl["curses"]
    at_caps, at_score = sl["captains"], sl["score"]
    memo = t.seat_laid
    last, cards = c.laid_key, c.laid_cards
    cards_changed = False
    laid, final, left, curses = v.laid, v.final, v.final_left, v.curses
    for j, seat in enumerate(t.rel[v.player]):
        key = (laid[seat], final[seat], left[seat], curses[seat])
        if key == last[j]:
            continue
        hit = memo.get(key)
        if hit is None:
            hit = _seat_laid(game, *key)
            remember(memo, key, hit)
        lc, points, caps, x, score, seen_j = hit
        mv[at_cards + j * K:at_cards + (j + 1) * K] = lc
        mv[at_points + j] = points
        mv[at_caps + j] = caps
        mv[at_curses + j] = x
        mv[at_score + j] = score
        if seen_j != cards[j]:
            cards[j] = seen_j
            cards_changed = True
        last[j] = key
    if cards_changed or c.seen_laid is None:
        c.seen_laid = _sum_cards(cards)


def _seat_laid(game, laid, final, left, curses):
    """One seat's laid_cards part and laid_points, captains, curses and score values, and
    the cards laid out per kind (None if none)."""
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
    return (_part(lc), points / 60, caps / 10, curses / 6,
            (points + game.comps.curse * curses) / 60, tuple(cards) if any(cards) else None)


def compiled_params(game, module) -> tuple:
    """The constants of ``game``'s compiled encoder, ``module.Encoder(*params)``
    (``_cencode.c``): sizes, the layout's field starts in ``module.LAYOUT_FIELDS`` order
    (the encoder checks each field's width), the one-hot names, ACC5, the cards in the
    game, the combinations (flattened counts per kind, points, captains), leftover and
    curse scores, and the partition solver's tables (kind order, same-kind group values,
    candidate combinations per kind) for my_crew_value."""
    from .components import _ORDER

    part = game.partitioner
    cand_combos, cand_start = [], [0]
    for k in range(NUM_KINDS):
        cand_combos += [ci for _, _, ci in part._cands[k]]
        cand_start.append(len(cand_combos))
    return (game.num_players, NUM_KINDS, NUM_CREW, TOP_DEPTH, game.max_stock,
            game.layout.size,
            tuple(game.layout_starts[name] for name in module.LAYOUT_FIELDS),
            tuple(sorted(PHASE_INDEX, key=PHASE_INDEX.get)),
            tuple(sorted(PENDING_INDEX, key=PENDING_INDEX.get)),
            tuple(ACC5), tuple(game.copies),
            tuple(c for cb in game.combos for c in cb.counts),
            tuple(cb.points for cb in game.combos), tuple(game.combo_captains),
            tuple(game.single_values), game.comps.curse, tuple(_ORDER),
            tuple(x for row in part._groupv for x in row),
            tuple(cand_combos), tuple(cand_start))
