"""Random-play fuzzing with invariants: nothing created or lost (84 tiles, 64 cargo,
18 chests, 3 parrots, the 52 cards), masks never dead-end, observations stay in bounds."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from plunder.envs.anchors_aweigh.components import ABOVE, MONKEY, STORAGE
from plunder.envs.anchors_aweigh.engine import CARGO, CHEST, EMPTY, AnchorsAweighGame

CONFIGS = [
    (2, {}), (3, {}), (4, {}),
    (3, {"rough_seas": True}), (4, {"rough_seas": True, "perfect_recall": True}),
    (2, {"meddlesome_monkey": [0]}), (4, {"meddlesome_monkey": [0, 1, 3]}),
    (3, {"open_ocean": "random"}), (4, {"open_ocean": "custom"}),
]


def check_invariants(s):
    s.validate()                       # the engine's own invariants, and these:
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
    cards = list(s.used) + list(s.deck) + list(s.queue) + ([s.current] if s.current >= 0
                                                             else [])
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
    acting = s.current_players()
    layout = g.layout
    for p in range(n):
        mask = s.legal_actions_mask(p)
        assert mask.any() == (p in acting)
        obs = g.encode(s.view(p))
        assert obs.shape == (layout.size,)
        assert (obs >= layout.low).all() and (obs <= layout.high).all()


def fuzz(n, options, seeds):
    game = AnchorsAweighGame(n, **options)
    for seed in seeds:
        s = game.new_initial_state(np.random.default_rng(seed))
        rng = np.random.default_rng(seed + 1)
        check_invariants(s)
        steps = 0
        while not s.is_terminal():
            joint = {p: int(rng.choice(np.flatnonzero(s.legal_actions_mask(p))))
                     for p in s.current_players()}
            s.apply_joint(joint)
            check_invariants(s)
            steps += 1
            assert steps < 3000, "game does not end"
        assert s.round == 2


@pytest.mark.parametrize("n,options", CONFIGS)
def test_fuzz_invariants(n, options):
    fuzz(n, options, range(2))


@pytest.mark.slow
@pytest.mark.parametrize("n,options", CONFIGS)
def test_fuzz_invariants_long(n, options):
    fuzz(n, options, range(100, 160))


def test_state_json_round_trip_and_size():
    game = AnchorsAweighGame(4, rough_seas=True)
    s = game.new_initial_state(np.random.default_rng(0))
    rng = np.random.default_rng(0)
    while not s.is_terminal():
        text = s.to_json()
        assert len(text) < 20_000
        assert game.state_from_json(text).to_json() == text
        s.apply_joint({p: int(rng.choice(np.flatnonzero(s.legal_actions_mask(p))))
                       for p in s.current_players()})


@pytest.mark.parametrize("n,options", CONFIGS)
def test_sample_state_is_consistent_with_the_view(n, options):
    """sample_state(view) gives a state with the same view, acting players and mask."""
    game = AnchorsAweighGame(n, **options)
    s = game.new_initial_state(np.random.default_rng(3))
    rng = np.random.default_rng(4)
    step = 0
    while not s.is_terminal():
        if step % 4 == 0:
            for p in range(n):
                view = s.view(p)
                t = game.sample_state(view, rng)
                t.validate()
                assert t.view(p) == view
                assert t.current_players() == s.current_players()
                assert np.array_equal(t.legal_actions_mask(p), s.legal_actions_mask(p))
                if t.current_players():                      # the sample plays on
                    t.apply_joint({q: int(rng.choice(np.flatnonzero(t.legal_actions_mask(q))))
                                   for q in t.current_players()})
        s.apply_joint({p: int(rng.choice(np.flatnonzero(s.legal_actions_mask(p))))
                       for p in s.current_players()})
        step += 1
