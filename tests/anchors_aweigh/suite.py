"""Anchors Aweigh! data for the shared suites (tests/core/): its invariants under random
play (written apart from the engine's own ``validate``), the cases fuzzed and the phases
random play must reach."""

from __future__ import annotations

from collections import Counter

from plunder.envs.anchors_aweigh.components import ABOVE, MONKEY, STORAGE
from plunder.envs.anchors_aweigh.engine import (
    CARGO, CHEST, DECIDE, EMPTY, ENCOUNTER, LOADING, OVER, PHASES, PLACE,
)

FUZZ_CASES = [
    (2, {}), (3, {}), (4, {}),
    (3, {"rough_seas": True}), (4, {"rough_seas": True, "perfect_recall": True}),
    (2, {"meddlesome_monkey": [0]}), (4, {"meddlesome_monkey": [0, 1, 3]}),
    (3, {"open_ocean": "random"}), (4, {"open_ocean": "custom"}),
]
FUZZ_GAMES, FUZZ_GAMES_SLOW = 2, 60
#: the hidden-information contract over every variant too
HIDDEN_INFO_CASES = FUZZ_CASES


ROUND_TRIP_CASES = [(2, {}), (3, {}), (4, {}), (3, {"rough_seas": True}),
                    (4, {"meddlesome_monkey": [0, 2]}), (2, {"perfect_recall": True})]
ROUND_TRIP_GAMES, ROUND_TRIP_EVERY = 2, 2
ROUND_TRIP_REACHED = {LOADING, DECIDE, ENCOUNTER, PLACE, OVER}

#: states compared per case in the compiled-equivalence suite
EQUIVALENCE_STATES = 250


def phases_reached(n, options):
    """Every phase at every count but the colour choice, which is rare (the compiled view's
    and mask's own tests reach it at every count); the monkey setup only in its variant."""
    return set(range(0 if options.get("meddlesome_monkey") else 1, len(PHASES))) - {
        PHASES.index("choose cargo colour")}


def phase(state):
    return state.phase


def invariants():
    """A checker for one game: nothing created or lost (84 tiles, 64 cargo, 18 chests,
    3 parrots, the 52 cards), secret tiles only in hands or below deck, the Meddlesome
    Monkey aboard, two rounds played."""

    def check(s):
        g = s.game
        n = g.num_players
        tiles = list(s.pile_up) + list(s.pile_down) + [t for t in s.hand if t >= 0]
        cargo = Counter({c: v for c, v in enumerate(s.supply)})
        chests_on_ships = 0
        for p in range(n):
            for sp, c in enumerate(s.ships[p]):
                if c == EMPTY:
                    assert not s.stor[p][sp]
                elif c == CHEST:
                    assert sp in ABOVE
                    chests_on_ships += 1
                elif c >= CARGO:
                    cargo[c - CARGO] += 1
                else:
                    assert sp < 12, "asset on a cargo-only space"
                    tiles.append(c)
                    if s.stor[p][sp]:
                        assert g.tile_kind[c] == STORAGE
                        assert len(s.stor[p][sp]) <= g.comp.storage_capacity
                for col in s.stor[p][sp]:
                    cargo[col] += 1
        assert sorted(tiles) == list(range(84)), "tiles created or lost"
        assert all(cargo[c] == 16 for c in range(4)), f"cargo created or lost: {cargo}"
        assert min(s.supply) >= 0
        assert s.chest_supply + sum(s.chests) == 18 and chests_on_ships == sum(s.chests)
        assert s.parrot_supply + sum(s.parrots) == 3 and min(s.parrots) >= 0
        assert min(s.coins) >= 0
        cards = list(s.used) + list(s.deck) + list(s.queue) + (
            [s.current] if s.current >= 0 else [])
        assert len(cards) == len(set(cards)) and len(cards) <= 26
        for t in range(84):
            if s.secret[t]:
                where = [p for p in range(n) if s.hand[p] == t] + [
                    (p, sp) for p in range(n) for sp in range(8, 12) if s.ships[p][sp] == t]
                assert where, "a secret tile outside a hand or below deck"
        for p in g.monkey_seats:
            if s.phase != 0:
                assert sum(1 for c in s.ships[p][:12]
                           if 0 <= c < CARGO and g.tile_kind[c] == MONKEY) >= 1
        if s.is_terminal():
            assert s.round == 2
            assert len(s.to_json()) < 20_000

    return check
