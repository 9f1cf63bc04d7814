"""The heuristic bot: legal moves only, its documented habits, and it beats random play."""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs.all_hands_battle import AllHandsBattleGame
from plunder.policies.all_hands_battle_heuristic import AllHandsBattleHeuristic
from plunder.policies.base import RandomPolicy, make_bot

from .helpers import Cards, battle_state, recruit_state


def play(game, bots, seed):
    s = game.new_initial_state(np.random.default_rng(seed))
    for b in bots:
        b.reset()
    while not s.is_terminal():
        p = s.current_players()[0]
        mask = s.legal_actions_mask(p)
        a = bots[p].act(s.observation(p), mask)
        assert mask[a] == 1
        s.apply_action(a)
    return s


def win_share(n, games, **opts):
    g = AllHandsBattleGame(n, **opts)
    wins = 0.0
    for i in range(games):
        seat = i % n
        bots = [AllHandsBattleHeuristic(g, seed=i) if p == seat else RandomPolicy(g, seed=100 * i + p)
                for p in range(n)]
        s = play(g, bots, seed=i)
        best = max(s.totals)
        winners = [q for q in range(n) if s.totals[q] == best]
        wins += (seat in winners) / len(winners)
    return wins / games


def test_registered_as_the_heuristic_bot():
    bot = make_bot("heuristic", "all_hands_battle_v0", 3, seed=0)
    assert isinstance(bot, AllHandsBattleHeuristic)


def test_beats_random_two_players():
    assert win_share(2, 8, target_score=200) >= 0.75


@pytest.mark.parametrize("opts", [{"prize_crew": True}, {"alternate_aargh": True}])
def test_plays_legally_in_variants_and_larger_tables(opts):
    g = AllHandsBattleGame(4, target_score=150, **opts)
    bots = [AllHandsBattleHeuristic(g, seed=p) for p in range(4)]
    play(g, bots, seed=1)


def test_launches_the_strongest_ship():
    g = AllHandsBattleGame(2)
    c = Cards(g)
    hand = c("Navy Admiral", "Navy 1", "Navy 2", "Navy 3", "Navy 8", "Navy 9", "Navy 10",
             "Pirate 1", "Merchant 2", "Raider 3", "Pirate 4", "Merchant 5", "Raider 6")
    s = recruit_state(g, {0: hand})
    bot = AllHandsBattleHeuristic(g, seed=0)
    for _ in range(4):
        a = bot.act(s.observation(0), s.legal_actions_mask(0))
        s.apply_action(a)
    assert s.ships[0][0][1] == sorted(c.game.cards[x].id for x in hand[4:7])


def test_discards_treasure_it_cannot_stow():
    g = AllHandsBattleGame(2)
    c = Cards(g)
    hand = c("Jewels", "Navy 1", "Navy 2", "Pirate 3", "Pirate 5", "Raider 6", "Raider 7",
             "Navy Captain", "Pirate 8", "Raider 1", "Navy 9", "Pirate 10", "Raider 2")
    s = recruit_state(g, {0: hand})
    bot = AllHandsBattleHeuristic(g, seed=0)
    # it may launch first; after that the discard must be the Jewels
    while s.actor == 0 and s.decision != "claim":
        a = bot.act(s.observation(0), s.legal_actions_mask(0))
        s.apply_action(a)
    assert g.cards[s.discard[-1]].name == "Jewels"


def test_claims_a_discard_that_completes_a_ship():
    g = AllHandsBattleGame(2)
    c = Cards(g)
    top = c.one("Pirate 9")
    hand1 = c("Pirate Admiral", "Pirate 2", "Pirate 4", "Navy 1", "Merchant 1", "Raider 1",
              "Navy 3", "Merchant 3", "Raider 3", "Navy 5", "Merchant 5", "Raider 5")
    s = recruit_state(g, {0: [top] + c("Navy 6", "Navy 7", "Merchant 6", "Merchant 7",
                                       "Raider 8", "Navy 8", "Merchant 8", "Raider 9",
                                       "Navy 10", "Merchant 10", "Raider 10", "Navy 2"),
                          1: hand1})
    s.apply_action(g.actions.discard + top)
    assert s.actor == 1 and s.decision == "claim"
    bot = AllHandsBattleHeuristic(g, seed=0)
    assert bot.act(s.observation(1), s.legal_actions_mask(1)) == g.actions.claim


def test_attacks_where_it_wins_and_passes_where_it_loses():
    g = AllHandsBattleGame(3, max_rounds=1)
    c = Cards(g)
    weak = (c.one("Navy Captain"), c("Navy 1", "Navy 2", "Navy 3"))
    strong_pirate = (c.one("Pirate Admiral"), c("Black Spot", "Pirate 9", "Pirate 10"))
    raider = (c.one("Raider Captain"), c("Raider 1", "Raider 2", "Raider 3"))
    strong_navy = (c.one("Navy Admiral"), c("Navy 8", "Navy 9", "Navy 10"))
    s = battle_state(g, {0: [raider], 1: [weak, strong_navy], 2: [strong_pirate]},
                     first_fleet=2)
    # seat 2 is forced; make it attack seat 1's weak ship directly
    s.apply_action(g.actions.select + 0)
    s.apply_action(g.actions.attack + g.actions.target_index(2, 0))
    # seat 0 (Raider 1,2,3): every Mariner it may attack is stronger -> pass
    assert s.actor == 0
    bot = AllHandsBattleHeuristic(g, seed=0)
    assert bot.act(s.observation(0), s.legal_actions_mask(0)) == g.actions.pass_battle
    s.apply_action(g.actions.pass_battle)
    # seat 1's strong Navy may attack the Raider (1,2,3): it selects and attacks it
    assert s.actor == 1
    a = bot.act(s.observation(1), s.legal_actions_mask(1))
    assert a == g.actions.select + 1
    s.apply_action(a)
    a = bot.act(s.observation(1), s.legal_actions_mask(1))
    assert a == g.actions.attack + g.actions.target_index(2, 0)


@pytest.mark.slow
@pytest.mark.parametrize("n,games,floor", [(2, 200, 0.9), (4, 200, 0.6)])
def test_win_share_against_random(n, games, floor):
    assert win_share(n, games) >= floor
