"""The encoder's caches (the public part rewritten field by field from the last view this
game encoded, per-observer memos, content-keyed ship blocks) give the same observations
as encoding each view from scratch, whatever the order: two games interleaved on one game
object, every seat in shuffled order, older states re-observed."""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs.anchors_aweigh.engine import AnchorsAweighGame

CONFIGS = [
    (2, {}), (3, {}), (4, {}), (2, {"perfect_recall": True}),
    (3, {"rough_seas": True}), (4, {"meddlesome_monkey": [1, 2]}),
]


def _from_scratch(n, options, view):
    """The observation of ``view`` by a game object that has encoded nothing yet."""
    return AnchorsAweighGame(n, **options).encode(view)


@pytest.mark.parametrize("n,options", CONFIGS, ids=lambda x: str(x))
def test_cached_encoding_matches_encoding_from_scratch(n, options):
    game = AnchorsAweighGame(n, **options)
    rng = np.random.default_rng(n)
    states = [game.new_game(rng) for _ in range(2)]
    old = []
    checked = 0
    for step in range(1500):
        i = int(rng.integers(2))
        s = states[i]
        for p in rng.permutation(n).tolist():
            obs = game.encode(s.view(p))
            if rng.random() < 0.03:
                assert np.array_equal(obs, _from_scratch(n, options, s.view(p))), \
                    f"step {step}, seat {p}: the cached encoding differs"
                checked += 1
        if old and rng.random() < 0.1:           # an older state, then back to the others
            past = old[int(rng.integers(len(old)))]
            p = int(rng.integers(n))
            assert np.array_equal(game.encode(past.view(p)), _from_scratch(n, options,
                                                                           past.view(p)))
            checked += 1
        if rng.random() < 0.05:
            old.append(s.clone())
        s.apply_joint({p: int(rng.choice(np.flatnonzero(s.legal_actions_mask(p))))
                       for p in s.current_players()})
        if s.is_terminal():
            states[i] = game.new_game(rng)
    assert checked > 50
