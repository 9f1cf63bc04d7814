"""All Hands on Deck data for the shared suites (tests/core/): its invariants under random
play (written apart from the engine's own ``validate``), the cases fuzzed and the phases
random play must reach."""

from __future__ import annotations

from plunder.envs.all_hands_crew.engine import PHASES
from plunder.envs.core.rewards import rank_rewards

FUZZ_CASES = [(n, {"open_stock": o}) for n in range(2, 7) for o in (False, True)]
FUZZ_GAMES, FUZZ_GAMES_SLOW = 2, 50


ROUND_TRIP_CASES = [(2, {"open_stock": False}), (3, {"open_stock": True}),
                    (4, {"open_stock": False}), (6, {"open_stock": True})]
ROUND_TRIP_GAMES, ROUND_TRIP_EVERY = 3, 2
ROUND_TRIP_REACHED = {"draw", "hire", "lay", "over"}


#: states compared per case in the compiled-equivalence suite (a targeted card's choice
#: comes up a few times a game)
EQUIVALENCE_STATES = 300


def phases_reached(n, options):
    """Every phase but the game's end and the Spyglass (random play seldom reaches them
    within the states compared)."""
    return set(PHASES) - {"over", "spyglass"}


def phase(state):
    return state.phase


def invariants():
    """A checker for one game: nothing created or lost, what a player knows of a crew is
    really there, the right player acts, final scores and rank rewards."""

    def check(s):
        g = s.game
        n = g.num_players
        assert s.card_counts() == list(g.copies), "a card was created or lost"
        assert all(len(p) == len(k) for p, k in zip(s.piles, s.pile_known))
        assert all(m < (1 << n) for known in s.pile_known for m in known)
        for q in range(n):
            assert len(s.stock[q]) == len(s.stock_src[q]) <= g.max_stock
            assert min(s.crew[q]) >= 0
            for o in range(n):
                # what o knows about q's crew is really there, but for the cards unseen
                # Snatches may have taken (no more than o knows of)
                missing = sum(max(0, a - b) for a, b in zip(s.crew_known[q][o], s.crew[q]))
                assert missing <= s.crew_maybe_gone[q][o] <= sum(s.crew_known[q][o])
        if s.phase in ("lay", "target", "draw"):
            assert s.current_players() == (s.actor,)
        if s.phase == "over":
            assert all(sum(c) == 0 for c in s.crew) and not any(map(len, s.stock))
            assert sum(len(p) for p in s.piles) < n
            assert abs(sum(rank_rewards(s.rank_keys(), n))) < 1e-9
        assert s.scores() == [float(s.points(p)) for p in range(n)]

    return check
