"""``sample_state``: a full All Hands On Deck state consistent with one player's view.

Every card the viewer cannot place (``unseen_cards``) is redrawn, keeping every count, and
the result satisfies every invariant of ``AllHandsBattleState.validate``. The most
constrained places are filled first:

1. the crew of a ship an opponent is launching: a legal full crew for its shipmaster whose
   first cards are the ones placed and whose rest goes to that opponent's hand (so the
   launch can be completed);
2. opponents' face-down crews the viewer does not know: each a legal crew for its
   shipmaster (Prize Crews included), or what a raid left of one (no treasure), checked
   with ``ShipRules.ship_crew_ok``; the ship aiming now holds at least as many Spies as
   have looked this turn (public). Each time the crew with the fewest eligible cards
   still free goes next (cards the draw pile may still need count only up to its spare):
   shipmasters share eligible cards, so a fixed order left late crews without any; a
   crew that leaves another too few cards is drawn again (``CREW_TRIES``);
3. the draw pile: after a reshuffle only from that reshuffle's cards (earlier steps leave
   enough of them);
4. opponents' hands.

Claimed cards the viewer cannot place (``known_with``) stay with their claimer: each is put
first in a random hand or crew slot of the claimer where it may go. A place that cannot be
filled legally restarts the whole draw (a bounded number of times).
"""

from __future__ import annotations

import numpy as np

from plunder.envs.core.errors import InvalidArgumentError

from .components import SPY
from .observation import unseen_cards
from .view import AllHandsBattleView

MAX_TRIES = 200
#: draws of one hidden crew before the whole deal is restarted
CREW_TRIES = 20


class _Fail(Exception):
    """This draw cannot be completed; start again."""


def _shuffled(cards, rng) -> list[int]:
    cards = list(cards)
    return [cards[int(i)] for i in rng.permutation(len(cards))]


class _Draw:
    """The unplaced cards of one attempt, with the draw pile's reservation."""

    def __init__(self, free: list[int], deck_cands: set[int], deck_size: int):
        self.free = list(free)
        self.deck_cands = deck_cands
        self.spare = sum(1 for c in free if c in deck_cands) - deck_size
        if self.spare < 0:
            raise InvalidArgumentError("the view's draw pile cannot be filled from its candidates")

    def cands(self, q: int) -> list[int]:
        """Free cards a hidden place of seat ``q`` may take now (claimed ones are fixed
        in advance, so they are not offered here)."""
        if self.spare > 0:
            return self.free
        return [c for c in self.free if c not in self.deck_cands]

    def take(self, c: int) -> None:
        self.free.remove(c)
        if c in self.deck_cands:
            self.spare -= 1
            if self.spare < 0:
                raise _Fail


def _pick(cands, count: int, rng) -> list[int]:
    if count <= 0:
        return []
    if len(cands) < count:
        raise _Fail
    return [cands[int(i)] for i in rng.choice(len(cands), size=count, replace=False)]


def _pick_spies_first(rules, cands, count: int, spies: int, rng) -> list[int]:
    """``count`` cards of ``cands``, at least ``spies`` of them Spies."""
    if spies <= 0:
        return _pick(cands, count, rng)
    if spies > count:
        raise _Fail
    picked = _pick([c for c in cands if rules.kind[c] == SPY], spies, rng)
    return picked + _pick([c for c in cands if c not in picked], count - spies, rng)


def _sample_crew(rules, master: int, count: int, fixed: list[int], draw: _Draw, q: int,
                 rng, min_spies: int = 0) -> list[int]:
    """``count`` crew cards for ``master`` including ``fixed``: a legal crew (or, when
    ``count`` is short of a full crew, what a raid left of one) with at least
    ``min_spies`` Spies. Takes them from ``draw``."""
    spies = min_spies - sum(1 for c in fixed if rules.kind[c] == SPY)
    full = count == rules.crew_per_ship
    elig = rules.elig[master]
    cands = [c for c in draw.cands(q) if full or not rules.is_treasure[c]]
    options = []
    if all(c in elig for c in fixed):
        options.append("plain")
    parts = rules.prize_parts.get(master)
    if parts is not None and count >= 2 and (full or count == 2):
        options.append("prize")
    for option in _shuffled(options, rng):
        if option == "plain":
            pool = [c for c in cands if c in elig]
            picked = _pick_spies_first(rules, pool, count - len(fixed), spies, rng) \
                if len(pool) >= count - len(fixed) else None
        else:
            caps, cooks = parts
            picked = []
            have_cap = [c for c in fixed if c in caps]
            have_cook = [c for c in fixed if c in cooks]
            if len(have_cap) > 1 or len(have_cook) > 1:
                continue
            try:
                if not have_cap:
                    picked += _pick([c for c in cands if c in caps], 1, rng)
                if not have_cook:
                    picked += _pick([c for c in cands if c in cooks], 1, rng)
                rest = [c for c in cands if c in elig and c not in cooks and c not in picked]
                picked += _pick_spies_first(rules, rest, count - len(fixed) - len(picked),
                                            spies, rng)
            except _Fail:
                picked = None
        if picked is None:
            continue
        crew = list(fixed) + picked
        if len(crew) == count and rules.ship_crew_ok(master, crew):
            for c in picked:
                draw.take(c)
            return crew
    raise _Fail


def _sample_launch(rules, view, q: int, fixed: dict, draw: _Draw, hands, rng) -> list[int]:
    """The hidden crew of the ship seat ``q`` is launching: its ``launch_count`` placed
    cards, plus the rest of a legal crew put in ``q``'s hand (so the launch can end).

    Cards are picked one at a time, each keeping the crew completable; the rest of the
    crew comes from ``q``'s claimed cards fixed in its hand, or from free cards while its
    hand has room for them."""
    m = view.launch_master
    crew_size = rules.crew_per_ship
    crew = list(fixed.get(("launch", q), []))
    in_hand = list(fixed.get(("hand", q), []))
    room = view.hand_sizes[q] - len(in_hand)
    rest_need = crew_size - view.launch_count
    taken = []
    # the placed cards (free cards only; claimed ones were fixed above)
    for _ in range(view.launch_count - len(crew)):
        avail = draw.cands(q)
        later = [c for c in avail if c not in taken] + in_hand
        ok = [c for c in avail if c not in taken and
              rules.completable(m, crew + [c], [x for x in later if x != c])]
        if not ok:
            raise _Fail
        c = ok[int(rng.integers(len(ok)))]
        crew.append(c)
        taken.append(c)
    placed = list(crew)
    # the rest of the crew, into the hand
    rest = []
    for _ in range(rest_need):
        avail = [c for c in in_hand if c not in rest]
        if room > 0:
            avail += [c for c in draw.cands(q) if c not in taken]
        ok = [c for c in avail if rules.completable(m, crew + [c],
                                                    [x for x in avail if x != c])]
        if not ok:
            raise _Fail
        c = ok[int(rng.integers(len(ok)))]
        crew.append(c)
        rest.append(c)
        if c not in in_hand:
            taken.append(c)
            room -= 1
    if not rules.crew_ok(m, crew):
        raise _Fail
    for c in taken:
        draw.take(c)
    hands[q].extend(c for c in rest if c not in in_hand)
    return _shuffled(placed, rng)


def _slot_ok(rules, master: int, raided: bool, c: int) -> bool:
    """Whether claimed card ``c`` may sit in a crew under ``master``."""
    if raided and rules.is_treasure[c]:
        return False
    if c in rules.elig[master]:
        return True
    parts = rules.prize_parts.get(master)
    return parts is not None and (c in parts[0] or c in parts[1])


def _attempt(game, view: AllHandsBattleView, rng, pool: list[int],
             tied_all: dict[int, list[int]]):
    """One draw: (hands, ships, launch_crew, deck) or raises ``_Fail``."""
    n = game.num_players
    p = view.player
    rules = game.rules
    crew_size = game.components.crew_per_ship
    tied_set = {c for cards in tied_all.values() for c in cards}
    free = [c for c in pool if c not in tied_set]
    deck_cands = set(view.reshuffled) if view.reshuffled else set(free)
    draw = _Draw(free, deck_cands, view.deck_size)

    launcher = view.turn_player if (view.launch_master >= 0 and view.turn_player != p) \
        else -1
    hands = [list(view.hand) if q == p else [] for q in range(n)]
    # hidden crews: (seat, slot, master, count, raided)
    hidden = [(q, j, sh.master, sh.crew_count, sh.crew_count < crew_size)
              for q in range(n) if q != p
              for j, sh in enumerate(view.ships[q]) if sh.crew is None]

    # claimed cards first: each into a random slot of its claimer where it may go (the
    # card with the fewest open slots goes next, so tight fits are found)
    fixed: dict = {}                        # place -> claimed cards fixed there
    for q, cards in tied_all.items():
        room = {("hand", q): view.hand_sizes[q]}
        if q == launcher:
            room[("launch", q)] = view.launch_count
        for hq, j, m, count, raided in hidden:
            if hq == q:
                room[("ship", q, j)] = count
        places = {}
        for c in cards:
            places[c] = [place for place in room if place[0] == "hand" or _slot_ok(
                rules, *(view.ships[q][place[2]].master, view.ships[q][place[2]].crew_count
                         < crew_size) if place[0] == "ship" else (view.launch_master, False),
                c)]
        left = _shuffled(cards, rng)
        while left:
            open_slots = {c: [pl for pl in places[c] for _ in range(room[pl])] for c in left}
            c = min(left, key=lambda x: len(open_slots[x]))
            slots = open_slots[c]
            if not slots:
                raise _Fail
            place = slots[int(rng.integers(len(slots)))]
            room[place] -= 1
            fixed.setdefault(place, []).append(c)
            left.remove(c)

    # 1. the crew of a ship an opponent is launching
    launch_crew = list(view.launch_crew)
    if launcher >= 0:
        launch_crew = _sample_launch(rules, view, launcher, fixed, draw, hands, rng)

    # 2. face-down crews, each time the one with the fewest candidates left (crews
    # compete for the same cards, so the count is taken again after every crew); a card
    # the draw pile may need counts only while the pile has spare candidates (after a
    # reshuffle, few)
    def slack(h):
        q, j, m, count, _ = h
        elig = [c for c in draw.free if c in rules.elig[m]]
        reserved = sum(1 for c in elig if c in draw.deck_cands)
        return (len(elig) - reserved + min(reserved, draw.spare)
                - count + len(fixed.get(("ship", q, j), ())))

    aiming = (view.actor, view.selected) if view.decision == "aim" else None
    crews = {}
    left = list(hidden)
    while left:
        h = min(left, key=slack)
        left.remove(h)
        q, j, m, count, _ = h
        # a crew that leaves another hidden crew too few eligible cards is drawn again
        # (forward checking): redrawing one crew is far cheaper than restarting the whole
        # deal. A crew short already (one a Prize Crew may fill) only must not get shorter
        floor = [min(0, slack(other)) for other in left]
        for _ in range(CREW_TRIES):
            free, spare = list(draw.free), draw.spare
            try:
                crews[q, j] = _sample_crew(rules, m, count,
                                           list(fixed.get(("ship", q, j), [])), draw, q, rng,
                                           view.spies_used if (q, j) == aiming else 0)
                if all(slack(other) >= low for other, low in zip(left, floor)):
                    break
            except _Fail:
                pass
            draw.free, draw.spare = free, spare
        else:
            raise _Fail

    # 3. the draw pile (only the reshuffle's cards after a reshuffle)
    deck = _pick([c for c in draw.free if c in deck_cands], view.deck_size, rng)
    for c in deck:
        draw.free.remove(c)

    # 4. the hands
    for q in range(n):
        if q == p:
            continue
        hands[q].extend(fixed.get(("hand", q), []))
        need = view.hand_sizes[q] - len(hands[q])
        if need < 0:
            raise _Fail
        picked = _pick(draw.free, need, rng)
        for c in picked:
            draw.free.remove(c)
        hands[q].extend(picked)
    if draw.free:
        raise InvalidArgumentError("the view's counts do not add up to the deck")
    return hands, crews, launch_crew, deck


def sample_state(game, view: AllHandsBattleView, rng: np.random.Generator):
    """A state whose ``view(view.player)`` equals ``view`` and that passes ``validate()``."""
    from .engine import AllHandsBattleState

    n = game.num_players
    p = view.player
    s = AllHandsBattleState(game, np.random.default_rng(int(rng.integers(2**63 - 1))))
    pool = unseen_cards(game, view)
    pool_set = set(pool)
    # claimed cards whose place the viewer does not know (one it saw with its Spy, in
    # its own hand... is already placed)
    tied = {q: [c for c in view.known_with[q] if c in pool_set]
            for q in range(n) if q != p}
    tied = {q: cards for q, cards in tied.items() if cards}
    for _ in range(MAX_TRIES):
        try:
            hands, crews, launch_crew, deck = _attempt(game, view, rng, pool, tied)
            break
        except _Fail:
            continue
    else:
        raise RuntimeError("sample_state found no legal deal consistent with the view")

    s.deck = [int(c) for c in rng.permutation(deck)] if deck else []
    s.hands = [sorted(int(c) for c in h) for h in hands]
    s.ships = []
    for q in range(n):
        row = []
        for j, sh in enumerate(view.ships[q]):
            crew = sh.crew if sh.crew is not None else crews[q, j]
            row.append([sh.master, sorted(int(c) for c in crew), sh.in_play, sh.keeper,
                        sh.revealed])
        s.ships.append(row)
    s.round = view.round
    s.starter = view.starter
    s.totals = list(view.totals)
    s.last_round = list(view.last_round)
    s.phase = view.phase
    s.decision = view.decision
    s.actor = view.actor
    s.turn_player = view.turn_player
    s.discard = list(view.discard)
    s.reserved = list(view.reserved)
    s.known_with = [list(k) for k in view.known_with]
    s.plunder = [list(x) for x in view.plunder]
    s.launch_master = view.launch_master
    s.launch_crew = [int(c) for c in launch_crew]
    s.launched = view.launched
    s.claim_queue = list(view.claim_queue)
    s.first_fleet = view.first_fleet
    s.last_turns = list(view.last_turns)
    s.reshuffled = list(view.reshuffled)
    s.passed = list(view.passed)
    s.forced = view.forced
    s.selected = view.selected
    s.spies_used = view.spies_used
    s.spied = [list(x) for x in view.spied]
    s.events = list(view.events)
    s.turns = view.turns
    return s
