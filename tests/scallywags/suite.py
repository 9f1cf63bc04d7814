"""Scallywags data for the shared suites (tests/core/): its invariants under random play,
the cases fuzzed and the phases random play must reach."""

from __future__ import annotations

from collections import Counter

from plunder.envs.scallywags.components import BLOW, NUM_CARDS, YO_HO
from plunder.envs.scallywags.engine import PHASES

#: (players, options) fuzzed, and random games per case in the default and the slow run
FUZZ_CASES = [(n, {}) for n in range(2, 7)]
FUZZ_GAMES, FUZZ_GAMES_SLOW = 20, 1000


#: saved states that must load back: (players, options), random games per case, every
#: how many states, and the phases they must include
ROUND_TRIP_CASES = [(n, {}) for n in (2, 3, 4, 6)]
ROUND_TRIP_GAMES, ROUND_TRIP_EVERY = 3, 2
ROUND_TRIP_REACHED = set(PHASES)

#: states compared per case in the compiled-equivalence suite (a Blow with three
#: targets chosen is rare)
EQUIVALENCE_STATES = 1000


def phases_reached(n, options):
    """Every phase, and the cards whose targets mix coins and seats part-way."""
    return set(PHASES) | {("pending", BLOW, 3), ("pending", YO_HO, 1)}


def phase(state):
    """The phase, and the pending card with the number of targets chosen so far."""
    return frozenset({state.phase, ("pending", state.card, len(state.chosen))})


def invariants():
    """A checker for one game: nothing created or lost, knowledge never forgotten."""
    start = {}

    def check(s):
        game = s.game
        if not start:
            start.update(values=list(s.values), face_up=list(s.face_up),
                         knowers=list(s.knowers))
        coins = list(s.middle) + [c for t in s.takes for c in t]
        assert sorted(coins) == list(range(game.num_coins)), "a coin was created or lost"
        assert s.values == start["values"] and s.face_up == start["face_up"]
        assert all(len(t) <= s.limit for t in s.takes), "a take exceeds the limit"
        cards = Counter(s.draw_pile) + Counter(s.discard)
        for h in s.hands:
            cards.update({k: h[k] for k in range(NUM_CARDS) if h[k]})
        assert [cards[k] for k in range(NUM_CARDS)] == list(game.components.card_copies)
        for before, now in zip(start["knowers"], s.knowers):
            assert before & now == before, "knowledge was forgotten"
        start["knowers"] = list(s.knowers)
        for seat, take in enumerate(s.takes):
            assert all(s.knowers[c] >> seat & 1 for c in take)

    return check
