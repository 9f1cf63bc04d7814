"""The heuristic bot: legal moves only, and it beats random play clearly."""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs.all_hands_crew_v0 import Game, raw_env
from plunder.envs.core.rewards import winners
from plunder.policies.all_hands_crew_heuristic import AllHandsCrewHeuristic
from plunder.policies.base import RandomPolicy


def heuristic_share(n, games, open_stock=False):
    game = Game(n, open_stock=open_stock)
    share = 0.0
    for i in range(games):
        seat = i % n
        bots = [AllHandsCrewHeuristic(game, seed=i) if p == seat else RandomPolicy(game, seed=i + p)
                for p in range(n)]
        s = game.new_initial_state(np.random.default_rng(500 + i))
        while not s.is_terminal():
            s.apply_joint({p: bots[p].act(game.encode(s.view(p)), s.legal_actions_mask(p))
                           for p in s.current_players()})
        best = winners(s.rank_keys())
        share += (seat in best) / len(best)
    return share / games


def test_potential_is_the_one_card_lookahead():
    # the bot reads the partitions through Partitioner.with_one_more's memo; the value must
    # be the documented formula, computed here from the exact solver, to the last bit
    bot = AllHandsCrewHeuristic(Game(4), seed=0)
    part = bot.part
    rng = np.random.default_rng(7)
    for _ in range(300):
        crew = [int(x) for x in rng.integers(0, 4, 9)]
        probs = rng.dirichlet(np.ones(9)) * (rng.random(9) < 0.8)
        base = part.value(crew)
        gain = 0.0
        for k in range(9):
            if probs[k] > 0:
                gain += probs[k] * max(0, part.value([c + (j == k) for j, c in enumerate(crew)])
                                       - base)
        assert bot.potential(crew, probs) == base + 0.7 * gain


def test_heuristic_beats_random_two_players():
    assert heuristic_share(2, 8) >= 0.75


def test_heuristic_plays_legal_moves_through_the_env():
    env = raw_env(num_players=3, open_stock=True)
    env.reset(seed=1)
    bot = AllHandsCrewHeuristic(env.unwrapped.game, seed=0)
    for agent in env.agent_iter(10_000):
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else bot.act(obs["observation"], obs["action_mask"]))
    assert not env.agents


@pytest.mark.slow
@pytest.mark.parametrize("n,floor", [(2, 0.85), (4, 0.6)])
def test_heuristic_win_share_200_games(n, floor):
    assert heuristic_share(n, 200) >= floor
