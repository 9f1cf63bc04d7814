"""Random-play fuzzing: invariants hold in every reachable state (nothing created or lost)."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test

from plunder.envs.all_hands_crew.components import NUM_KINDS
from plunder.envs.all_hands_crew_v0 import Game, parallel_env
from plunder.envs.core.errors import InvalidStateError
from plunder.envs.core.rewards import rank_rewards
from ..conftest import MaskedSamplingParallelEnv
from .helpers import COOK, lay_pairs


def check_invariants(s):
    g = s.game
    n = g.num_players
    s.validate()   # the engine's own invariant checks; the ones below are written apart
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
    scores = s.scores()
    assert scores == [float(s.points(p)) for p in range(n)]


def run(n, open_stock, seed):
    game = Game(n, open_stock=open_stock)
    s = game.new_initial_state(np.random.default_rng(seed))
    rng = np.random.default_rng(seed + 1)
    steps = 0
    while not s.is_terminal():
        check_invariants(s)
        joint = {}
        for p in s.current_players():
            legal = np.flatnonzero(s.legal_actions_mask(p))
            assert len(legal), "asked to act with nothing to do"
            joint[p] = int(rng.choice(legal))
        s.apply_joint(joint)
        steps += 1
        assert steps < 5000
    check_invariants(s)
    for p in range(n):   # states sampled from a view obey the rules too
        s.game.sample_state(s.view(p), np.random.default_rng(seed + p)).validate()
    keys = s.rank_keys()
    assert abs(sum(rank_rewards(keys, n))) < 1e-9
    return s


@pytest.mark.parametrize("n", range(2, 7))
@pytest.mark.parametrize("open_stock", [False, True])
def test_fuzz_invariants(n, open_stock):
    for seed in range(2):
        run(n, open_stock, seed)


@pytest.mark.slow
@pytest.mark.parametrize("n", range(2, 7))
def test_fuzz_invariants_long(n):
    for seed in range(100):
        run(n, bool(seed % 2), 1000 + seed)


def test_final_layout_is_the_best_partition():
    s = run(4, False, 5)
    g = s.game
    for p in range(4):
        used = [sum(g.combos[c].counts[k] for c in s.final[p]) + s.final_left[p][k]
                for k in range(NUM_KINDS)]
        assert g.partitioner.value(used) == (sum(g.combos[c].points for c in s.final[p])
                                             + sum(g.comps.single_value(k) * s.final_left[p][k]
                                                   for k in range(NUM_KINDS)))


@pytest.mark.parametrize("n", [2, 4])
def test_parallel_api(n):
    parallel_api_test(MaskedSamplingParallelEnv(parallel_env(num_players=n)), num_cycles=300)


def test_validate_rejects_broken_states():
    """validate() catches a created card, a lost card, a double hire and a bad mask."""
    game = Game(3)
    s = game.new_initial_state(np.random.default_rng(4))
    s.validate()
    broken = s.clone()
    broken.out[0] += 1
    with pytest.raises(InvalidStateError):
        broken.validate()
    broken = s.clone()
    broken.piles[0].pop()
    broken.pile_known[0].pop()
    with pytest.raises(InvalidStateError):
        broken.validate()
    broken = s.clone()
    broken.pile_known[1][0] = 1          # pile 1 known to player 0 without open stock
    with pytest.raises(InvalidStateError):
        broken.validate()
    rng = np.random.default_rng(0)
    while s.phase != "hire":
        s.apply_joint({p: int(rng.choice(np.flatnonzero(s.legal_actions_mask(p))))
                       for p in s.current_players()})
    s.validate()
    broken = s.clone()
    broken.hired[0].append(0)            # a pick before any hiring step was applied
    with pytest.raises(InvalidStateError):
        broken.validate()
    broken = s.clone()
    broken.hire_step, broken.keep[0] = 1, 2
    lay_pairs(broken, 0, COOK)           # the Cook pair that gave the Double hire
    broken.hired = [[0, 0], [0], [0]]    # the same stock card hired twice
    with pytest.raises(InvalidStateError):
        broken.validate()
    broken.hired[0] = [0]
    broken.validate()


def test_state_from_dict_copies():
    """state_from_dict(to_dict()) shares no list with the original (both directions)."""
    game = Game(3)
    s = game.new_initial_state(np.random.default_rng(2))
    text = s.to_json()
    data = s.to_dict()
    copy = game.state_from_dict(data)
    rng = np.random.default_rng(1)
    while not copy.is_terminal():
        copy.apply_joint({p: int(rng.choice(np.flatnonzero(copy.legal_actions_mask(p))))
                          for p in copy.current_players()})
    assert s.to_json() == text
    s.piles[0].append(s.piles[0].pop())
    data["piles"][0].clear()
    data["crew"][1][0] = 99
    assert s.to_json() == text
    assert game.state_from_dict(s.to_dict()).to_json() == text


def test_state_json_is_small_and_round_trips():
    s = run(6, True, 3)
    game = s.game
    s2 = game.new_initial_state(np.random.default_rng(9))
    for state in (s, s2):
        text = state.to_json()
        assert len(text.encode()) < 20_000
        assert game.state_from_json(text).to_json() == text
