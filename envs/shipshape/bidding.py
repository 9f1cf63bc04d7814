"""The bid outlook: what each crew card in hand is expected to win, against a model of how
the other bidders bid. Pure functions of public facts (holds, stacks, hands), shared by the
observation's ``bid_outlook`` field (and the compiled engine's encoder in ``_engine.c``)
and the planner bot.

**A crate's worth to a seat** is the heuristic bot's: the gain in its hold's value when
placed in the best of the 8 orientations, a hold seen from above being worth
``gold + cannons - rats + contraband' + fill`` (contraband cut to a quarter when it is not
below every other seat's, the 8-coin full ship, or half a coin per cell showing a good
while crates are still to come this voyage).

**Each other bidder's card** follows the heuristic bot's rule played from that seat's side:
every card of its hand scored by its expected crate when everybody else (the observer
included) picks uniformly from their hand (a tie worth 0.9 of the mean crate), less 0.15 per
pip above 1 (0.045 when its hand has 3 cards or fewer); its bid is drawn with weights
``max(0, 1 - (best score - score) / WIDTH)`` (the best card and those close to it). The
Cap'n's bid is the top of his shuffled deck: uniform over the cards left in it (all ten once
it ran out).

**The observer's card** ``c`` then wins, by the turn's rules with each other bidder above,
tied with or below ``c`` by that model (every combination of their cards): untied, the
crate after the untied bids above it; tied at a first bid, the mean of the crates that all
the untied seats leave, less ``REBID_CHARGE`` for the card the re-bid spends; tied at a
re-bid, the crate after all the untied seats and the tied ones with higher-numbered holds.

Every number is a sum of products of small rationals computed in one fixed order, so the
compiled encoder repeats it bit for bit.
"""

from __future__ import annotations

import itertools

from .engine import NUM_CARDS
from .geometry import NUM_CODES, PERMS, code_good

#: the heuristic bot's charge per pip above 1 for spending a card (scaled by 0.3 when
#: the hand has 3 cards or fewer, about to refill)
CARD_COST = 0.15
#: width, in coins, of the weights by which a modelled bidder picks among its best cards
WIDTH = 0.6
#: what a tie at a first bid costs: the card the re-bid spends
REBID_CHARGE = 0.5
#: the heuristic bot's worth of a tie, as a share of the mean crate
HEURISTIC_TIE = 0.9

#: cell code -> (gold + cannons - rats, contraband, shows a good): the parts of a hold's
#: value (the heuristic bot sums the same table)
CELL_PARTS = [(0, 0, 0), (-1, 0, 0)]
for _code in range(2, NUM_CODES):
    _good, _value = code_good(_code)
    CELL_PARTS.append((_value, 0, 1) if _good < 2 else (0, _value, 1))
CELL_PARTS = tuple(CELL_PARTS)


def card_cost(hand_size: int) -> float:
    """The heuristic's charge per pip above 1 with a hand of ``hand_size`` cards."""
    return CARD_COST * (0.3 if hand_size <= 3 else 1.0)


def hold_value(cells, rivals_contraband: int, crates_after: int) -> float:
    """The heuristic's value of a top-down view (9 codes) with the others' highest
    contraband, ``crates_after`` crates placed this voyage."""
    base = contraband = goods = 0
    for code in cells:
        b, c, g = CELL_PARTS[code]
        base += b
        contraband += c
        goods += g
    if contraband >= rivals_contraband:
        contraband *= 0.25
    fill = 8.0 if goods >= 9 else (0.5 * goods if crates_after < 3 else 0.0)
    return base + contraband + fill


def crate_gains(hold, crates, rivals_contraband: int, placed: int) -> list[float]:
    """What each crate (9 codes as it lies, 0 = hole) adds to ``hold`` (9 codes) placed in
    its best orientation."""
    now = hold_value(hold, rivals_contraband, placed)
    gains = []
    for crate in crates:
        best = None
        for perm in PERMS:
            after = [crate[i] or hold[j] for j, i in enumerate(perm)]
            v = hold_value(after, rivals_contraband, placed + 1)
            if best is None or v > best:
                best = v
        gains.append(best - now)
    return gains


def _slot(values, h: int) -> float:
    """The crate at rank ``h`` of the stack (the last one for any rank below it)."""
    return values[min(h, len(values) - 1)]


def _times(poly: list[float], low: float, high: float) -> list[float]:
    """``poly`` (coefficients by count) times ``low + high x``."""
    out = [0.0] * (len(poly) + 1)
    for h, a in enumerate(poly):
        out[h] += a * low
        out[h + 1] += a * high
    return out


def _share(hand, card: int) -> tuple[float, float, float]:
    """(below, equal, above): the shares of ``hand`` below, at and above ``card``."""
    n = len(hand)
    below = sum(1 for c in hand if c < card)
    equal = sum(1 for c in hand if c == card)
    return below / n, equal / n, (n - below - equal) / n


def heuristic_scores(values, hand, other_hands) -> list[float]:
    """The heuristic bot's score of each card of ``hand``: its exact expected crate
    (``values``, top first) when the ``other_hands`` bid uniformly, less the card charge."""
    m = len(other_hands) + 1
    mean = 0.0
    for v in values[:m]:
        mean += v
    tie = HEURISTIC_TIE * mean / m
    scores = []
    for card in hand:
        clear, poly = 1.0, [1.0]
        for other in other_hands:
            below, equal, above = _share(other, card)
            poly = _times(poly, below, above)
            clear *= below + above
        expected = (1.0 - clear) * tie
        for h, a in enumerate(poly):
            expected += a * _slot(values, h)
        scores.append(expected - card_cost(len(hand)) * (card - 1))
    return scores


def modelled_bid(values, hand, other_hands) -> list[float]:
    """Probabilities of each card of ``hand`` (sorted) by the model of a bidder."""
    scores = heuristic_scores(values, hand, other_hands)
    top = max(scores)
    weights = [max(0.0, 1.0 - (top - s) / WIDTH) for s in scores]
    total = 0.0
    for w in weights:
        total += w
    return [w / total for w in weights]


def crate_rank(bids, rebid: bool, holds) -> tuple[int, bool]:
    """(rank, tied) of bidder 0's crate by the turn's rules, all bids known: untied, the
    number of untied bids above its own; tied at a first bid, the number of untied bids
    (those seats take their crates first); tied at a re-bid, that plus the tied seats with
    a higher-numbered hold."""
    mine = bids[0]
    untied_above = untied = tied_before = 0
    tied = False
    for j in range(1, len(bids)):
        alone = True
        for i in range(len(bids)):
            if i != j and bids[i] == bids[j]:
                alone = False
        if bids[j] == mine:
            tied = True
        if alone:
            untied += 1
            if bids[j] > mine:
                untied_above += 1
        elif holds[j] > holds[0]:
            tied_before += 1
    if not tied:
        return untied_above, False
    return untied + (tied_before if rebid else 0), True


def expected_crate(card: int, values, others, rebid: bool, holds) -> float:
    """The observer's expected crate for bidding ``card``: ``others`` holds each other
    bidder's (cards, probabilities), ``holds`` every bidder's hold number (the observer
    first); every combination of the others' cards of nonzero chance, in order."""
    m = len(values)
    # tied at a first bid, with r untied seats: a re-bid for the crates from rank r on
    rebid_worth = []
    for start in range(m):
        left = 0.0
        for v in values[start:]:
            left += v
        rebid_worth.append(left / (m - start) - REBID_CHARGE)
    support = [[(c, p) for c, p in zip(cards, probs) if p > 0.0] for cards, probs in others]
    expected = 0.0
    for combo in itertools.product(*support):
        chance = 1.0
        for _, p in combo:
            chance *= p
        rank, tied = crate_rank([card] + [c for c, _ in combo], rebid, holds)
        worth = _slot(rebid_worth if tied and not rebid else values, rank)
        expected += chance * worth
    return expected


def bid_outlook(values, hands, capn, rebid: bool, holds) -> list[float]:
    """Per crew card 1-10, the observer's expected crate for bidding it (0.0 for a card
    not in hand). Per bidder, the observer first: ``values`` its crate gains (the group's
    next crates, one per bidder, top first), ``hands`` its cards (sorted), ``capn``
    whether it is the Cap'n, ``holds`` its hold number."""
    others = []
    for j in range(1, len(hands)):
        if capn[j]:
            probs = [1.0 / len(hands[j])] * len(hands[j])
        else:
            # the others from bidder j's own side (the bidders after it round the table):
            # the same numbers whoever observes, so an encoder can compute them once
            probs = modelled_bid(values[j], hands[j], hands[j + 1:] + hands[:j])
        others.append((hands[j], probs))
    out = [0.0] * NUM_CARDS
    for card in hands[0]:
        out[card - 1] = expected_crate(card, values[0], others, rebid, holds)
    return out
