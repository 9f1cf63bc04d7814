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


def encode_view(game, v) -> np.ndarray:
    """The observation of view ``v`` (reads nothing but the view)."""
    L = game.layout
    o = [0.0] * L.size          # filled as a list, converted once (faster than numpy items)
    n = v.num_players
    me = v.player
    rel = [(me + j) % n for j in range(n)]  # offset -> seat
    off = [0] * n
    for j, seat in enumerate(rel):
        off[seat] = j
    sl = game.layout_starts
    combos = game.combos
    K = NUM_KINDS

    o[sl["phase"] + PHASE_INDEX[v.phase]] = 1.0
    if v.pending:
        o[sl["pending_action"] + PENDING_INDEX[v.pending]] = 1.0
    base = sl["acting"]
    for p in v.acting:
        o[base + off[p]] = 1.0
    o[sl["start_player"] + off[v.start]] = 1.0
    o[sl["round"]] = v.round / 30
    o[sl["hire_step"]] = v.hire_step / 8
    unseen = list(game.copies)
    total = 0
    top0 = sl["pile_top"]
    kn0 = sl["pile_known"]
    oth0 = sl["pile_known_by_others"]
    size0 = sl["pile_size"]
    mybit = 1 << me
    for j, seat in enumerate(rel):
        masks = v.pile_masks[seat]
        size = len(masks)
        total += size
        o[size0 + j] = size / 40
        if size:
            # cards known to someone other than me: not unknown to all, not mine alone
            o[oth0 + j] = (size - masks.count(0) - masks.count(mybit)) / 10
            at = top0 + j * TOP_DEPTH * (K + 1)
            for depth in range(min(size, TOP_DEPTH)):
                o[at + depth * (K + 1) + K] = 1.0
        for i, k in v.pile_seen[seat]:
            o[kn0 + j * K + k] += 0.2
            unseen[k] -= 1
            depth = size - 1 - i
            if depth < TOP_DEPTH:
                at = top0 + (j * TOP_DEPTH + depth) * (K + 1)
                o[at + K] = 0.0
                o[at + k] = 1.0
    o[sl["cards_in_piles"]] = total / 90

    width = 2 + K + n
    st0 = sl["my_stock"]
    for i, (k, src) in enumerate(v.stock[me]):
        at = st0 + i * width
        o[at] = 1.0
        if i in v.my_hired:
            o[at + 1] = 1.0
        if k >= 0:
            o[at + 2 + k] = 1.0
        o[at + 2 + K + off[src]] = 1.0
    ss0, src0, seen0 = sl["stock_size"], sl["stock_sources"], sl["stock_seen"]
    for j, seat in enumerate(rel):
        stock = v.stock[seat]
        if not stock:
            continue
        o[ss0 + j] = len(stock) / 15
        for k, src in stock:
            o[src0 + j * n + off[src]] += 0.2
            if k >= 0:
                o[seen0 + j * K + k] += 0.2
                unseen[k] -= 1
    for name, vals, scale in (("draw_target", v.draw_target, 3), ("spyglass_left", v.spy_left, 3),
                              ("hire_keep", v.keep, 3), ("next_double_hire", v.next_double, 3),
                              ("next_spyglass", v.next_spy, 3),
                              ("next_short_rations", v.next_short, 1),
                              ("crew_size", v.crew_sizes, 20), ("curses", v.curses, 6)):
        at = sl[name]
        for j, seat in enumerate(rel):
            x = vals[seat]
            if x:
                o[at + j] = x / scale
    at = sl["my_crew"]
    my_crew = v.my_crew
    for k in range(K):
        if my_crew[k]:
            o[at + k] = my_crew[k] / 6
            unseen[k] -= my_crew[k]
    if v.phase != "over":
        o[sl["my_crew_value"]] = game.partitioner.value(my_crew) / 40
    ck0, ka0 = sl["crew_known"], sl["known_about_me"]
    lc0, lp0 = sl["laid_cards"], sl["laid_points"]
    cap0, sc0 = sl["captains"], sl["score"]
    single = game.single_values
    curse = game.comps.curse
    for j, seat in enumerate(rel):
        if seat != me:
            row = v.crew_known[seat]
            if any(row):
                for k in range(K):
                    if row[k]:
                        o[ck0 + j * K + k] = row[k] / 6
                        unseen[k] -= row[k]
            row = v.known_about_me[seat]
            if any(row):
                for k in range(K):
                    if row[k]:
                        o[ka0 + j * K + k] = row[k] / 6
        points = 0
        caps = 0
        for group in (v.laid[seat], v.final[seat]):
            for ci in group:
                cb = combos[ci]
                points += cb.points
                caps += cb.captains
                for k, c in game.combo_parts[ci]:
                    o[lc0 + j * K + k] += c / 12
                    unseen[k] -= c
        left = v.final_left[seat]
        if any(left):
            for k in range(K):
                if left[k]:
                    unseen[k] -= left[k]
                    o[lc0 + j * K + k] += left[k] / 12
                    if k >= NUM_CREW:
                        caps += left[k]
                        points += single[k] * left[k]
        o[lp0 + j] = points / 60
        o[cap0 + j] = caps / 10
        o[sc0 + j] = (points + curse * v.curses[seat]) / 60
    un0 = sl["unseen"]
    for k in range(K):
        o[un0 + k] = unseen[k] / 12
    return np.array(o, dtype=np.float32)
