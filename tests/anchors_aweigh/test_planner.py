"""The planner bot: its cargo value, its decisions checked against the true state, and
that it is stronger than the heuristic bot it builds on."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from plunder.envs.anchors_aweigh.components import CONTRACT, TRADE
from plunder.envs.anchors_aweigh.engine import (
    A_COLOUR, A_RESOLVE, A_SKIP, COLOUR, DECIDE, AnchorsAweighGame,
)
from plunder.envs.core import InvalidArgumentError
from plunder.policies import make_bot
from plunder.policies.anchors_aweigh_heuristic import AnchorsAweighHeuristic
from plunder.policies.anchors_aweigh_planner import AnchorsAweighPlanner
from tests.support.scripted import planner_win_share


def best_value(cargo: Counter, contracts) -> int:
    """The rule, written from the rulebook: every held token is a coin at the end of the
    round, and a set of contracts paid together turns its tokens into its coins."""
    best = 0
    for r in range(len(contracts) + 1):
        for chosen in itertools.combinations(contracts, r):
            need = Counter(c for card in chosen for c in card.needs)
            if all(cargo[c] >= k for c, k in need.items()):
                best = max(best, sum(card.coins - len(card.needs) for card in chosen))
    return sum(cargo.values()) + best


def test_value_counts_tokens_and_the_best_set_of_contracts():
    game = AnchorsAweighGame(2)
    bot = AnchorsAweighPlanner(game)
    by_id = {c.id: c.index for c in game.cards}
    c01, c03, c04 = by_id["C01"], by_id["C03"], by_id["C04"]    # (0,0)=5, (0,0,3,1)=12, (1,3)=5
    assert bot.value([2, 0, 0, 0], []) == 2
    assert bot.value([2, 0, 0, 0], [c01]) == 2 + 3
    assert bot.value([2, 1, 0, 1], [c01, c03]) == 4 + 8         # not C01, which blocks C03
    assert bot.value([2, 1, 0, 1], [c01, c04]) == 4 + 3 + 3     # both together
    assert bot.value([1, 0, 0, 0], [c01]) == 1
    assert bot.value([-1, 0, 0, 0], []) == -np.inf


@pytest.mark.parametrize("players", [2, 3])
def test_it_loads_for_the_discoveries_of_the_round(players):
    """While loading, the tiles it aims for are the needs of the round's discovery cards
    (from the true state: the fronts are public until the captain's call)."""
    from plunder.envs.anchors_aweigh.components import DISCOVERY
    from plunder.envs.anchors_aweigh.engine import LOADING

    game = AnchorsAweighGame(players)
    rng = np.random.default_rng(5)
    checked = 0
    for g in range(3):
        bots = [AnchorsAweighPlanner(game, seed=g + s) for s in range(players)]
        state = game.new_game(rng)
        while not state.is_terminal():
            joint = {}
            for p in state.current_players():
                joint[p] = int(bots[p].act(game.encode(state.view(p)),
                                           state.legal_actions_mask(p)))
                if state.phase == LOADING and state.captain < 0:
                    need = Counter(k for c in state.deck if game.cards[c].type == DISCOVERY
                                   for k in game.cards[c].needs)
                    assert bots[p]._asset_needs().tolist() == [need[k] for k in range(10)]
                    checked += 1
            state.apply_joint(joint)
    assert checked > 100


def _open_contracts(state, game):
    """The round's contracts still to come, from the true state (public since loading)."""
    return [game.cards[c] for c in state.deck + state.queue if game.cards[c].type == CONTRACT]


def _cargo(state, p):
    return Counter({c: n for c, n in enumerate(state._cargo_counts(p)) if n})


@pytest.mark.parametrize("players", [2, 4])
def test_trades_contracts_and_colours_follow_the_value_of_the_true_state(players):
    """Each trade or contract the planner may resolve or skip, and each colour it picks,
    is the best by the contracts really still open (its memory of them is right)."""
    game = AnchorsAweighGame(players)
    rng = np.random.default_rng(11)
    checked = Counter()
    for g in range(24):
        bots = [AnchorsAweighPlanner(game, seed=g)] + [
            AnchorsAweighHeuristic(game, seed=g + s) for s in range(1, players)]
        state = game.new_game(rng)
        while not state.is_terminal():
            joint = {}
            for p in state.current_players():
                mask = state.legal_actions_mask(p)
                move = int(bots[p].act(game.encode(state.view(p)), mask))
                joint[p] = move
                if p != 0:
                    continue
                held, rest = _cargo(state, 0), _open_contracts(state, game)
                if state.phase == DECIDE and mask[A_RESOLVE] and mask[A_SKIP]:
                    card = game.cards[state.current]
                    if card.type not in (TRADE, CONTRACT):
                        continue
                    after = held - Counter(card.needs) + Counter(card.cargo)
                    gain = card.coins + best_value(after, rest) - best_value(held, rest)
                    assert move == (A_RESOLVE if gain >= 0 else A_SKIP), (card, held)
                    checked[card.type] += 1
                elif state.phase == COLOUR:
                    values = {c: best_value(held + Counter([c]), rest)
                              for c in range(4) if mask[A_COLOUR + c]}
                    assert values[move - A_COLOUR] == max(values.values())
                    checked["colour"] += 1
            state.apply_joint(joint)
    assert checked[TRADE] >= 10 and checked[CONTRACT] >= 10 and checked["colour"] >= 3


def test_the_planner_beats_the_heuristic():
    """200 games, seats alternating."""
    assert planner_win_share("anchors_aweigh_v0", 2, 200, seed=3) > 0.65


def test_only_games_with_a_planner_make_one():
    assert isinstance(make_bot("planner", "anchors_aweigh_v0", 3), AnchorsAweighPlanner)
    with pytest.raises(InvalidArgumentError, match="no planner bot for 'scallywags_v0'"):
        make_bot("planner", "scallywags_v0", 2)
    for spec in ("planner:3", "heuristic:3"):
        with pytest.raises(InvalidArgumentError, match="takes no argument"):
            make_bot(spec, "anchors_aweigh_v0", 2)
