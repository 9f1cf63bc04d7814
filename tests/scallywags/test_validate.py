"""Random-play fuzzing of Scallywags with invariants: nothing created or lost."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from plunder.envs.scallywags.components import NUM_CARDS
from plunder.envs.scallywags.engine import ScallywagsGame


def check_invariants(s, start_values, start_face_up, knowers_before):
    game = s.game
    coins = list(s.middle) + [c for t in s.takes for c in t]
    assert sorted(coins) == list(range(game.num_coins)), "a coin was created or lost"
    assert s.values == start_values and s.face_up == start_face_up
    assert all(len(t) <= s.limit for t in s.takes), "a take exceeds the limit"
    cards = Counter(s.draw_pile) + Counter(s.discard)
    for h in s.hands:
        cards.update({k: h[k] for k in range(NUM_CARDS) if h[k]})
    assert [cards[k] for k in range(NUM_CARDS)] == list(game.components.card_copies)
    for before, now in zip(knowers_before, s.knowers):
        assert before & now == before, "knowledge was forgotten"
    for seat, take in enumerate(s.takes):
        assert all(s.knowers[c] >> seat & 1 for c in take)


def fuzz(n, seed, max_steps=5000):
    game = ScallywagsGame(n)
    s = game.new_initial_state(np.random.default_rng(seed))
    rng = np.random.default_rng(seed + 1)
    values, face_up = list(s.values), list(s.face_up)
    steps = 0
    while not s.is_terminal() and steps < max_steps:
        p = s.current_players()[0]
        legal = np.flatnonzero(s.legal_actions_mask(p))
        assert len(legal), "a player is asked to act with nothing legal"
        before = list(s.knowers)
        s.apply_action(int(rng.choice(legal)))
        check_invariants(s, values, face_up, before)
        steps += 1
    return s


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_fuzz_quick(n):
    for seed in range(20):
        fuzz(n, seed)


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_fuzz_thousands_of_games(n):
    ended = 0
    for seed in range(1000):
        s = fuzz(n, 10_000 + seed)
        ended += s.is_terminal()
    assert ended > 900
