"""All Hands on Deck states consistent with one player's view (for search bots and the
tests): what the viewer does not know is redrawn from the cards it has not seen."""

from __future__ import annotations

import numpy as np

from plunder.envs.core.errors import InvalidArgumentError

from .components import NUM_KINDS
from .engine import AllHandsCrewGame, AllHandsCrewState
from .view import AllHandsCrewView


def unseen_pool(g: AllHandsCrewGame, v: AllHandsCrewView) -> list:
    """Per kind, the cards in the game whose place ``v.player`` does not know."""
    if v.num_players != g.num_players or v.open_stock != bool(g.open_stock):
        raise InvalidArgumentError("the view belongs to another game configuration")
    n = g.num_players
    me = v.player
    pool = list(g.copies)

    def take(k):
        pool[k] -= 1

    for seen in v.pile_seen:
        for _, k in seen:
            take(k)
    for q in range(n):
        for k, _ in v.stock[q]:
            if k >= 0:
                take(k)
    for k in range(NUM_KINDS):
        pool[k] -= v.my_crew[k]
        for q in range(n):
            if q != me:   # the known cards that are surely still there
                pool[k] -= max(0, v.crew_known[q][k] - v.crew_maybe_gone[q])
            pool[k] -= v.final_left[q][k]
    for q in range(n):
        for ci in v.laid[q] + v.final[q]:
            for k, c in enumerate(g.combos[ci].counts):
                pool[k] -= c
    if min(pool) < 0:
        raise InvalidArgumentError("inconsistent view: more cards known than exist")
    return pool


def sample_state(g: AllHandsCrewGame, v: AllHandsCrewView, rng: np.random.Generator,
                 returned_weights=None, pinned=None) -> AllHandsCrewState:
    """A full state matching the view ``v``: unknown cards redrawn from the unseen pool.

    Two optional beliefs (a searcher's, e.g. ``policies/all_hands_crew_belief.py``):
    ``pinned`` maps cards the viewer does not know, ``("pile", seat, position)`` (from the
    bottom) or ``("stock", seat, slot)``, to the kind to put there (taken from the unseen
    cards; a key the view does not have, a card the viewer knows or a kind with no unseen
    copy left raises). ``returned_weights`` (one non-negative weight per kind) is a belief
    about the Drawing Pile cards that another player knows and the viewer does not (the
    stock cards that player put back): those not pinned are drawn next, each kind in
    proportion to its unseen copies times its weight. Everything else is drawn uniformly."""
    n = g.num_players
    me = v.player
    pool = unseen_pool(g, v)
    pins = _take_pinned(v, pool, pinned) if pinned else {}
    kept = _sample_kept_known(v, pool, rng)
    # (seat, position) -> kind, for the positions others know and I don't
    returned = {key[1:]: k for key, k in pins.items() if key[0] == "pile"}
    if returned_weights is not None:
        returned.update(_draw_returned(v, pool, returned_weights, rng, skip=returned))
    cards = [k for k in range(NUM_KINDS) for _ in range(pool[k])]
    cards = [cards[i] for i in rng.permutation(len(cards))]
    pos = 0

    def draw():
        nonlocal pos
        pos += 1
        return cards[pos - 1]

    s = AllHandsCrewState(g, np.random.default_rng(int(rng.integers(2**63 - 1))))
    s.piles = []
    for seat in range(n):
        pile = [-1] * len(v.pile_masks[seat])
        for i, k in v.pile_seen[seat]:
            pile[i] = k
        for (q, i), k in returned.items():
            if q == seat:
                pile[i] = k
        s.piles.append([k if k >= 0 else draw() for k in pile])
    s.pile_known = [list(m) for m in v.pile_masks]
    s.stock = [[k if k >= 0 else pins.get(("stock", q, j), -1) for j, (k, _) in
                enumerate(v.stock[q])] for q in range(n)]
    s.stock = [[k if k >= 0 else draw() for k in slots] for slots in s.stock]
    s.stock_src = [[src for _, src in v.stock[q]] for q in range(n)]
    s.crew = [[0] * NUM_KINDS for _ in range(n)]
    s.crew_known = [[[0] * NUM_KINDS for _ in range(n)] for _ in range(n)]
    s.crew_maybe_gone = [[0] * n for _ in range(n)]
    for q in range(n):
        if q == me:
            s.crew[q] = list(v.my_crew)
            s.crew_known[q] = [list(v.known_about_me[o]) for o in range(n)]
            s.crew_maybe_gone[q] = list(v.maybe_gone_about_me)
        else:
            s.crew[q] = kept[q]
            s.crew_known[q][me] = list(v.crew_known[q])
            s.crew_maybe_gone[q][me] = v.crew_maybe_gone[q]
            for _ in range(v.crew_sizes[q] - sum(kept[q])):
                s.crew[q][draw()] += 1
    s.out = [0] * NUM_KINDS
    for k in cards[pos:]:
        s.out[k] += 1
    s.laid = [list(x) for x in v.laid]
    s.final = [list(x) for x in v.final]
    s.final_left = [list(x) for x in v.final_left]
    s.curses = list(v.curses)
    s.round, s.start, s.phase, s.actor = v.round, v.start, v.phase, v.actor
    s.draw_target, s.spy_left, s.keep = list(v.draw_target), list(v.spy_left), list(v.keep)
    s.hire_step, s.pending = v.hire_step, v.pending
    s.next_double, s.next_spy, s.next_short = (list(v.next_double), list(v.next_spy),
                                               list(v.next_short))
    s.lay_count = (v.actor - v.start) % n if v.phase in ("lay", "target") else 0
    s.hired = [[] for _ in range(n)]
    s.hire_done = [False] * n
    if v.phase == "hire":
        for q in range(n):
            if q == me:
                s.hired[q] = list(v.my_hired)
                s.hire_done[q] = v.my_hire_done
                continue
            for step in range(v.hire_step):  # others' pending picks are unknown: guess
                if s.keep[q] > step and len(s.stock[q]) > step:
                    free = [i for i in range(len(s.stock[q])) if i not in s.hired[q]]
                    s.hired[q].append(int(free[int(rng.integers(len(free)))]))
    s.events = [_sampled_event(s, e, rng) for e in v.events]
    s.turns = 0
    return s


def _draw_returned(v: AllHandsCrewView, pool: list, weights, rng: np.random.Generator,
                   skip=()) -> dict:
    """Kinds for the Drawing Pile positions that another player knows and ``v.player``
    does not (but those in ``skip``), drawn one by one without replacement from ``pool``
    (taken out of it), each kind with probability proportional to its copies left times
    ``weights[kind]``."""
    try:
        weights = [float(w) for w in weights]
    except (TypeError, ValueError):
        weights = None
    if weights is None or len(weights) != NUM_KINDS \
            or not all(0.0 <= w < float("inf") for w in weights):
        raise InvalidArgumentError(f"returned_weights needs {NUM_KINDS} finite non-negative "
                                   f"numbers, one per kind")
    bit = 1 << v.player
    out = {}
    for seat, masks in enumerate(v.pile_masks):
        for i, m in enumerate(masks):
            if m and not m & bit and (seat, i) not in skip:
                w = np.array([pool[k] * weights[k] for k in range(NUM_KINDS)], dtype=float)
                if w.sum() <= 0:      # weights zero on every kind left: uniform
                    w = np.array(pool, dtype=float)
                k = int(rng.choice(NUM_KINDS, p=w / w.sum()))
                pool[k] -= 1
                out[(seat, i)] = k
    return out


def _take_pinned(v: AllHandsCrewView, pool: list, pinned) -> dict:
    """``pinned`` checked against the view and taken out of ``pool``: keys ``("pile",
    seat, position)`` or ``("stock", seat, slot)`` of cards ``v.player`` does not know,
    values kinds with an unseen copy left."""
    places = {("pile", q, i): kind for q in range(v.num_players)
              for i, (_, kind) in enumerate(v.pile(q))}
    places.update({("stock", q, j): kind for q, slots in enumerate(v.stock)
                   for j, (kind, _) in enumerate(slots)})
    pins = {}
    for key, kind in dict(pinned).items():
        if key not in places:
            raise InvalidArgumentError(f"pinned: {key!r} is no ('pile', seat, position) or "
                                       f"('stock', seat, slot) of this view")
        if places[key] >= 0:
            raise InvalidArgumentError(f"pinned: the card at {key!r} is known to the viewer")
        if isinstance(kind, bool) or not isinstance(kind, (int, np.integer)) \
                or not 0 <= kind < NUM_KINDS:
            raise InvalidArgumentError(f"pinned: {key!r} -> {kind!r} is no card kind")
        if pool[kind] <= 0:
            raise InvalidArgumentError(f"pinned: no unseen card of kind {kind} left for "
                                       f"{key!r}")
        pool[kind] -= 1
        pins[key] = int(kind)
    return pins


def _sample_kept_known(v: AllHandsCrewView, pool: list, rng: np.random.Generator) -> list:
    """Per seat, the cards the viewer knows of in its Crew Pile that are sampled to be
    still there: the sure ones, plus enough of the ones that may be gone (at most
    ``crew_maybe_gone`` gone, no more kept than the pile holds); the kept uncertain ones are
    taken out of ``pool`` (the unplaced cards, the sure ones already removed)."""
    n, me = v.num_players, v.player
    for _ in range(100):   # an attempt fails only if two piles compete for scarce cards
        left = list(pool)
        kept = [[0] * NUM_KINDS for _ in range(n)]
        for q in rng.permutation(n):
            known, gone = v.crew_known[q], v.crew_maybe_gone[q]
            if q == me or not any(known):
                continue
            sure = [max(0, c - gone) for c in known]
            maybe = [k for k in range(NUM_KINDS) for _ in range(known[k] - sure[k])]
            least = max(sum(sure), sum(known) - gone)
            most = min(sum(known), v.crew_sizes[q])
            if most < least:
                raise InvalidArgumentError(
                    f"inconsistent view: seat {q}'s Crew Pile cannot hold its known cards")
            want = int(rng.integers(least, most + 1)) - sum(sure)
            kept[q] = sure
            for i in rng.permutation(len(maybe)):
                if want == 0:
                    break
                k = maybe[i]
                if left[k] > 0:
                    left[k] -= 1
                    kept[q][k] += 1
                    want -= 1
            if sum(kept[q]) < least:
                break
        else:
            pool[:] = left
            return kept
    raise InvalidArgumentError("inconsistent view: the known Crew Pile cards do not fit")


def _sampled_event(s: AllHandsCrewState, event: tuple, rng: np.random.Generator) -> list:
    """A view's event as the state records it: who knows its card (a Snatch: the two
    involved; a hire's count of cards put back: everyone); a Snatch's card the viewer did
    not see is drawn from the snatcher's sampled Crew Pile (any kind if it laid it out)."""
    who, what, arg, kind = event
    if what == "hire":
        return [who, what, arg, kind, (1 << s.game.num_players) - 1]
    if what != "snatch":
        return [who, what, arg, kind, 0]
    if kind < 0:
        held = [k for k in range(NUM_KINDS) for _ in range(s.crew[who][k])]
        kind = held[int(rng.integers(len(held)))] if held else int(rng.integers(NUM_KINDS))
    return [who, what, arg, kind, (1 << who) | (1 << arg)]
