"""Anchors Aweigh!'s derived observation fields, checked against the rules engine.

``pirate_odds``, ``encounter_outlook`` and ``held_kind`` are computed by the encoder from the player's view; here
they are recomputed from the engine state with the engine's own payment check, on every
decision of random games.
"""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs.anchors_aweigh.components import NUM_KINDS, PIRATES
from plunder.envs.anchors_aweigh.engine import ENCOUNTER, AnchorsAweighGame

CASES = [(2, {}), (3, {"perfect_recall": True}), (4, {"rough_seas": True})]


def _can_resolve(state, p: int, card) -> bool:
    """The engine's rule: pay the needs with tiles (wild monkeys in Rough Seas), or with
    the parrot standing in for one of them."""
    if state._can_pay_assets(p, card.needs):
        return True
    return state.parrots[p] > 0 and any(state._can_pay_assets(p, card.needs, k)
                                        for k in set(card.needs))


def _expected_odds(state, p: int) -> np.ndarray:
    g = state.game
    view = state.view(p)
    if view.fronts is not None:
        possible = set(view.fronts)
    else:      # fronts hidden: every pirate card not used yet
        possible = {c.index for c in g.cards} - set(view.used) - {view.current}
    odds = np.zeros(3)
    for strength in (1, 2, 3):
        cards = [c for c in g.cards if c.type == PIRATES and c.strength == strength
                 and c.index in possible]
        if cards:
            odds[strength - 1] = np.mean([_can_resolve(state, p, c) for c in cards])
    return odds


@pytest.mark.parametrize("n,options", CASES)
def test_pirate_odds_and_held_kind_follow_the_rules(n, options):
    g = AnchorsAweighGame(n, **options)
    rng = np.random.default_rng(5)
    seen_odds = seen_held = 0
    for seed in range(4):
        s = g.new_game(np.random.default_rng(seed))
        while not s.is_terminal() and s.turns < 1500:
            for p in s.current_players():
                obs = g.encode(s.view(p))
                odds = g.layout.read(obs, "pirate_odds")
                assert np.allclose(odds, _expected_odds(s, p), atol=1e-6)
                seen_odds += bool(odds.any())
                held = g.layout.read(obs, "held_kind")
                want = np.zeros(NUM_KINDS)
                if s.hand[p] >= 0:
                    want[g.tile_kind[s.hand[p]]] = 1
                    seen_held += 1
                assert np.array_equal(held, want)
            s.apply_joint({p: int(rng.choice(np.flatnonzero(s.legal_actions_mask(p))))
                           for p in s.current_players()})
    assert seen_odds > 50 and seen_held > 50      # both cases occurred


def _expected_outlook(state, p: int) -> np.ndarray:
    """encounter_outlook from the engine state: the pirate cards of the current card's
    strength still possible for p, resolved with the engine's payment check; the reward
    the engine hands out on resolving (coins, named and grey cargo); the penalty it takes."""
    g = state.game
    view = state.view(p)
    possible = (set(view.fronts) if view.fronts is not None
                else {c.index for c in g.cards} - set(view.used) - {view.current})
    strength = g.cards[state.current].strength
    cards = [c for c in g.cards if c.type == PIRATES and c.strength == strength
             and c.index in possible]
    ok = [c for c in cards if _can_resolve(state, p, c)]
    share = len(ok) / len(cards) if cards else 0.0
    reward = sum(c.coins + len(c.cargo) + c.grey for c in ok) / len(cards) if cards else 0.0
    holds_cargo = sum(state._cargo_counts(p)) > 0
    cost = min(g.comp.pirate_penalty_coins, state.coins[p]) + holds_cargo
    return np.array([share, reward / 10, cost / 3])


@pytest.mark.parametrize("n,options", CASES)
def test_encounter_outlook_follows_the_rules(n, options):
    g = AnchorsAweighGame(n, **options)
    rng = np.random.default_rng(7)
    asked = 0
    for seed in range(6):
        s = g.new_game(np.random.default_rng(seed))
        while not s.is_terminal() and s.turns < 1500:
            for p in s.current_players():
                outlook = g.layout.read(g.encode(s.view(p)), "encounter_outlook")
                if s.phase == ENCOUNTER:
                    asked += 1
                    assert np.allclose(outlook, _expected_outlook(s, p), atol=1e-6)
                else:
                    assert not outlook.any()
            s.apply_joint({p: int(rng.choice(np.flatnonzero(s.legal_actions_mask(p))))
                           for p in s.current_players()})
    assert asked > 20


def test_round_asset_needs_has_a_column_per_kind():
    g = AnchorsAweighGame(2)
    s = g.new_game(np.random.default_rng(0))
    needs = g.layout.read(g.encode(s.view(0)), "round_asset_needs")
    assert needs.shape == (NUM_KINDS,)
    want = np.zeros(NUM_KINDS)
    for c in s.view(0).fronts:
        card = g.cards[c]
        if card.needs_assets:
            for k in card.needs:
                want[k] += 1 / 8
    assert np.allclose(needs, want) and needs[-2:].sum() == 0
