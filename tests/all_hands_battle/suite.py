"""All Hands On Deck (battles) data for the shared suites (tests/core/): its invariants under
random play (written apart from the engine's own ``validate``), the cases fuzzed (with a
short target in the default run: a full game is long) and the phases random play must
reach."""

from __future__ import annotations

from plunder.envs.all_hands_battle.engine import (
    BATTLE, CREW, DECISIONS, DISCARD, OVER, RECRUIT, TURN,
)

#: the default run plays to a short target; the slow run, full games
SHORT = {"target_score": 200}
FUZZ_CASES = [(2, {}), (3, {"prize_crew": True}), (4, {"alternate_aargh": True}),
              (5, {"prize_crew": True, "alternate_aargh": True})]
FUZZ_GAMES, FUZZ_GAMES_SLOW = 2, 25
#: invariants after every third move in the default run
FUZZ_CHECK_EVERY = 3


ROUND_TRIP_CASES = [(2, {}), (3, {"prize_crew": True}), (4, {"alternate_aargh": True}),
                    (5, {"max_rounds": 2, "target_score": 150})]
ROUND_TRIP_GAMES, ROUND_TRIP_EVERY = 2, 3
ROUND_TRIP_REACHED = {"turn", "crew", "discard", "claim", "select", "aim"}

#: states compared per case in the compiled-equivalence suite (battles come late)
EQUIVALENCE_STATES = 800


def phases_reached(n, options):
    """Every decision of the recruiting phase, and of the battles but at 5 players, where
    random play seldom gets there within the states compared (the game's end: seldom)."""
    return set(DECISIONS) - {"over"} - ({"select", "aim"} if n == 5 else set())


def phase(state):
    return state.decision


def invariants():
    """A checker for one game: the 74 (78) cards always accounted for, hands and fleets of
    the right sizes, legal ships, totals that only grow, games that end at the target."""
    prev = {}

    def check(s):
        g = s.game
        C = g.num_cards
        assert s.all_cards() == list(range(C)), "a card was created, lost or duplicated"
        fleet = g.components.ships_per_fleet
        for q in range(g.num_players):
            assert len(s.ships[q]) <= fleet
            held = len(s.hands[q]) + 4 * len(s.ships[q])
            if s.phase == RECRUIT and q == s.turn_player and s.decision in (TURN, CREW,
                                                                            DISCARD):
                held += (s.launch_master >= 0) + len(s.launch_crew)
                assert held == 13, "the turn player holds 12 cards plus its draw"
            elif s.phase == RECRUIT:
                assert held == 12
            for ship in s.ships[q]:
                assert -1 <= ship[3] < g.num_players
                if ship[2]:
                    assert ship[3] == q and not ship[4], "a ship in play is its owner's"
                    assert g.rules.crew_ok(ship[0], ship[1]), "an illegal ship was launched"
        assert all(r < 0 or r not in s.discard for r in s.reserved)
        if s.phase == BATTLE:
            assert s.first_fleet >= 0
        assert min(s.round_scores()) >= 0
        totals = prev.get("totals", list(s.totals))
        assert all(a <= b for a, b in zip(totals, s.totals)), "a total went down"
        prev["totals"] = list(s.totals)
        if s.is_terminal():
            assert s.phase == OVER
            assert max(s.totals) >= g.target_score or (g.max_rounds
                                                       and s.round >= g.max_rounds)

    return check
