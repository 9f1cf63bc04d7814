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


def _repeated(step: float, count: int) -> float:
    """``step`` added ``count`` times from 0.0 (the float64 sums the encoder accumulates)."""
    x = 0.0
    for _ in range(count):
        x += step
    return x


#: ACC5[c]: c cards each counted as 0.2, summed one by one (pile_known, stock_* values)
ACC5 = [_repeated(0.2, c) for c in range(128)]
#: the per-seat counters of this and the next round, with their scales
_COUNTERS = (("draw_target", "draw_target", 3), ("spy_left", "spyglass_left", 3),
             ("keep", "hire_keep", 3), ("next_double", "next_double_hire", 3),
             ("next_spy", "next_spyglass", 3), ("next_short", "next_short_rations", 1))


def encode_view(game, v: AllHandsCrewView) -> np.ndarray:
    """The observation of view ``v`` (reads nothing but the view), block by block in
    layout order. Values are float64 divisions (and, for laid_cards, float64 sums in
    combination order) stored as float32; pile_known and the stock blocks take their
    values from ACC5."""
    at = game.layout_starts
    n, me, K = v.num_players, v.player, NUM_KINDS
    rel = [(me + j) % n for j in range(n)]          # offset j (0: me) -> seat

    def off(seat: int) -> int:                      # seat -> offset
        return (seat - me) % n

    o = np.zeros(game.layout.size, np.float32)
    # cards of each kind whose place I know for sure (the unseen block is the rest)
    known = list(v.my_crew)

    # phase .. hire_step
    o[at["phase"] + PHASE_INDEX[v.phase]] = 1.0
    if v.pending:
        o[at["pending_action"] + PENDING_INDEX[v.pending]] = 1.0
    for p in v.acting:
        o[at["acting"] + off(p)] = 1.0
    o[at["start_player"] + off(v.start)] = 1.0
    o[at["round"]] = v.round / 30
    o[at["hire_step"]] = v.hire_step / 8

    # cards_in_piles .. pile_known_by_others
    bit = 1 << me
    w_top = TOP_DEPTH * (K + 1)
    o[at["cards_in_piles"]] = sum(len(m) for m in v.pile_masks) / 90
    for j, seat in enumerate(rel):
        masks = v.pile_masks[seat]
        size = len(masks)
        o[at["pile_size"] + j] = size / 40
        # cards known to someone other than me: not unknown to all, not mine alone
        o[at["pile_known_by_others"] + j] = (size - masks.count(0) - masks.count(bit)) / 10
        # pile_top: a position holding a card is "unknown" until I know its kind
        top = at["pile_top"] + j * w_top
        for depth in range(min(size, TOP_DEPTH)):
            o[top + depth * (K + 1) + K] = 1.0
        count = [0] * K
        for i, k in v.pile_seen[seat]:     # (position from the bottom, kind) I know
            count[k] += 1
            depth = size - 1 - i
            if depth < TOP_DEPTH:
                o[top + depth * (K + 1) + K] = 0.0
                o[top + depth * (K + 1) + k] = 1.0
        for k in range(K):
            o[at["pile_known"] + j * K + k] = ACC5[count[k]]
            known[k] += count[k]

    # my_stock: per slot present, picked by me, one-hot kind (if seen), one-hot source
    w_slot = 2 + K + n
    for i, (k, src) in enumerate(v.stock[me]):
        slot = at["my_stock"] + i * w_slot
        o[slot] = 1.0
        o[slot + 1] = float(i in v.my_hired)
        if k >= 0:
            o[slot + 2 + k] = 1.0
        o[slot + 2 + K + off(src)] = 1.0
    # per seat: stock_size, its cards per source pile, the kinds I can see
    for j, seat in enumerate(rel):
        stock = v.stock[seat]
        sources, seen = [0] * n, [0] * K
        for k, src in stock:
            sources[off(src)] += 1
            if k >= 0:
                seen[k] += 1
        o[at["stock_size"] + j] = len(stock) / 15
        for q in range(n):
            o[at["stock_sources"] + j * n + q] = ACC5[sources[q]]
        for k in range(K):
            o[at["stock_seen"] + j * K + k] = ACC5[seen[k]]
            known[k] += seen[k]

    # draw_target .. next_short_rations
    for name, block, scale in _COUNTERS:
        values = getattr(v, name)
        for j, seat in enumerate(rel):
            o[at[block] + j] = values[seat] / scale

    # my_crew, my_crew_value (derived: my Crew Pile's best partition if the game ended
    # now; 0 once it is over), crew_size
    for k in range(K):
        o[at["my_crew"] + k] = v.my_crew[k] / 6
    if v.phase != "over":
        o[at["my_crew_value"]] = game.partitioner.value(v.my_crew) / 40
    for j, seat in enumerate(rel):
        o[at["crew_size"] + j] = v.crew_sizes[seat] / 20

    # crew_known, crew_maybe_gone, known_about_me, about_me_maybe_gone (my rows stay 0)
    for j, seat in enumerate(rel):
        if seat == me:
            continue
        row, gone = v.crew_known[seat], v.crew_maybe_gone[seat]
        if any(row):
            o[at["crew_maybe_gone"] + j] = gone / 6
            for k in range(K):
                if row[k]:
                    o[at["crew_known"] + j * K + k] = row[k] / 6
                    # of row[k] known cards, all but ``gone`` are surely there
                    known[k] += max(0, row[k] - gone)
        for k in range(K):
            o[at["known_about_me"] + j * K + k] = v.known_about_me[seat][k] / 6
        o[at["about_me_maybe_gone"] + j] = v.maybe_gone_about_me[seat] / 6

    # laid_cards .. score: per seat, its laid and final combinations and leftovers
    combos, single = game.combos, game.single_values
    for j, seat in enumerate(rel):
        cards = [0.0] * K
        points = captains = 0
        for ci in v.laid[seat] + v.final[seat]:
            cb = combos[ci]
            points += cb.points
            captains += cb.captains
            for k, c in game.combo_parts[ci]:
                cards[k] += c / 12
                known[k] += c
        # cards left over at the end: captains count for the tie-break and the score
        for k, c in enumerate(v.final_left[seat]):
            if c:
                cards[k] += c / 12
                known[k] += c
                if k >= NUM_CREW:
                    captains += c
                    points += single[k] * c
        for k in range(K):
            o[at["laid_cards"] + j * K + k] = cards[k]
        curses = v.curses[seat]
        o[at["laid_points"] + j] = points / 60
        o[at["curses"] + j] = curses / 6
        o[at["captains"] + j] = captains / 10
        o[at["score"] + j] = (points + game.comps.curse * curses) / 60

    # unseen: cards of each kind whose place I do not know for sure
    for k in range(K):
        o[at["unseen"] + k] = (game.copies[k] - known[k]) / 12
    return o


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
