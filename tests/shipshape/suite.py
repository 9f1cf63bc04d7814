"""ShipShape data for the shared suites (tests/core/): its invariants under random play
(written apart from the engine's own ``validate``), the cases fuzzed and what random play
must reach."""

from __future__ import annotations

from plunder.envs.shipshape.components import VOYAGE_HOLDS

ALL_CARDS = list(range(1, 11))

FUZZ_CASES = [(n, {}) for n in range(2, 7)]
FUZZ_GAMES, FUZZ_GAMES_SLOW = 4, 300


ROUND_TRIP_CASES = [(n, {}) for n in range(2, 7)]
ROUND_TRIP_GAMES, ROUND_TRIP_EVERY = 3, 1
#: (finished, highest stage, a bid being placed): every kind of state
ROUND_TRIP_REACHED = {(False, 1, False), (False, 2, True), (False, 2, False), (True, 2, False)}


def phases_reached(n, options):
    """Every kind of state, and every voyage and turn."""
    return ROUND_TRIP_REACHED | {("voyage", v, t) for v in range(3) for t in range(3)}


def phase(state):
    """(finished, highest stage, a bid being placed), and the voyage and turn."""
    return frozenset({(state.done, max(state.stage), any(state.placing)),
                      ("voyage", state.voyage, min(state.turn, 2))})


def invariants():
    """A checker for one game: cards, crates, holds and coins; coins never go down; a
    finished game is three voyages of three turns with a small saved state."""
    prev = {}

    def check(s):
        game = s.game
        S = game.num_seats
        prev_coins = prev.get("coins", s.coins)
        # crew cards: hand + discards are always the ten cards; never fewer than 2 in hand
        for seat in range(S):
            assert sorted(s.hands[seat] + s.discards[seat]) == ALL_CARDS
            if seat != game.capn:
                assert len(s.hands[seat]) >= 2
        # crates: this voyage's 3 x seats are in the stacks, being placed or on holds
        v = s.voyage
        groups = game.groups(v)
        in_play = [c for st in s.stacks for c, _ in st] + [x[1] for g in s.placing for x in g] \
            + [c for p in s.placed for c, _ in p]
        assert len(in_play) == len(set(in_play)) == 3 * S
        assert set(in_play).isdisjoint(s.unused)
        assert len(s.unused) == 54 - 3 * S * (v + 1)
        assert len(set(s.unused)) == len(s.unused)
        # each seat gets one crate per turn
        for seat in range(S):
            taking = any(x[0] == seat for g in s.placing for x in g)
            have = len(s.placed[seat]) + taking
            if s.is_terminal():
                assert have == 3
            else:
                assert s.turn <= have <= s.turn + 1
        for k, grp in enumerate(groups):
            if not s.is_terminal():
                assert len(s.stacks[k]) + sum(len(s.placed[x]) for x in grp) \
                    + len(s.placing[k]) == 3 * len(grp)
        # holds: one per seat from the voyage's set, all different
        for voyage, holds in enumerate(s.hold_history):
            assert len(set(holds)) == S and set(holds) <= set(VOYAGE_HOLDS[voyage])
        # the top-down views match the stacked crates
        assert s.visible == tuple(s.compute_visible(x) for x in range(S))
        # coins never go down and are the sum of the voyages' scoring
        assert all(c >= p for c, p in zip(s.coins, prev_coins))
        assert list(s.coins) == [sum(v[x][5] for v in s.voyage_scores) for x in range(S)]
        prev["coins"] = s.coins
        # who acts is never the Cap'n
        assert game.capn not in s.current_players()
        if s.is_terminal():
            assert s.turns == 9 and len(s.voyage_scores) == 3
            assert len(s.to_json().encode()) < 20_000

    return check
