"""Anchors Aweigh!'s derived observation fields, checked against the rules engine.

``pirate_odds``, ``encounter_outlook``, ``trade_outlook`` and ``held_kind`` are computed by
the encoder from the player's view; here they are recomputed from the engine state with the
engine's own payment check, on every decision of random games.
"""

from __future__ import annotations

import numpy as np
import pytest

from itertools import chain, combinations

from plunder.envs.anchors_aweigh.components import COLOURS, CONTRACT, NUM_KINDS, PIRATES, TRADE
from plunder.envs.anchors_aweigh.engine import DECIDE, ENCOUNTER, AnchorsAweighGame
from plunder.envs.anchors_aweigh.observation import cargo_value

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


def _decisions(g, games: int, rng_seed: int):
    """(state, seat) for every seat asked to act in ``games`` random games (seeded), each
    before the joint move is applied."""
    rng = np.random.default_rng(rng_seed)
    for seed in range(games):
        s = g.new_game(np.random.default_rng(seed))
        while not s.is_terminal() and s.turns < 1500:
            for p in s.current_players():
                yield s, p
            s.apply_joint({p: int(rng.choice(np.flatnonzero(s.legal_actions_mask(p))))
                           for p in s.current_players()})


@pytest.mark.parametrize("n,options", CASES)
def test_pirate_odds_and_held_kind_follow_the_rules(n, options):
    g = AnchorsAweighGame(n, **options)
    seen_odds = seen_held = 0
    for s, p in _decisions(g, 4, 5):
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
    asked = 0
    for s, p in _decisions(g, 6, 7):
        outlook = g.layout.read(g.encode(s.view(p)), "encounter_outlook")
        if s.phase == ENCOUNTER:
            asked += 1
            assert np.allclose(outlook, _expected_outlook(s, p), atol=1e-6)
        else:
            assert not outlook.any()
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


def _value(cards, cargo, contracts) -> int:
    """Cargo units plus the best net gain of a set of contracts it pays for together,
    by listing every set."""
    best = 0
    for chosen in chain.from_iterable(combinations(contracts, r)
                                      for r in range(len(contracts) + 1)):
        needs = [x for c in chosen for x in cards[c].needs]
        if all(needs.count(x) <= cargo[x] for x in set(needs)):
            best = max(best, sum(cards[c].coins - len(cards[c].needs) for c in chosen))
    return sum(cargo) + best


def _expected_trade_outlook(state, p: int) -> np.ndarray:
    """trade_outlook from the engine state: the contracts among the round's unrevealed cards
    (deck and queue) when p sees their fronts, the cargo p holds, what resolving pays."""
    g = state.game
    card = g.cards[state.current]
    if card.type not in (TRADE, CONTRACT) or not state._can_pay_cargo(p, card.needs):
        return np.zeros(3)
    shown = not state.fronts_hidden or g.perfect_recall
    contracts = [c for c in state.deck + state.queue if g.cards[c].type == CONTRACT] \
        if shown else []
    before = list(state._cargo_counts(p))
    after = list(before)
    for x in card.needs:
        after[x] -= 1
    for x in card.cargo:
        after[x] += 1
    gain = card.coins + _value(g.cards, after, contracts) - _value(g.cards, before, contracts)
    return np.array([max(gain, 0) / 10, max(-gain, 0) / 10, gain >= 0])


@pytest.mark.parametrize("n,options", CASES)
def test_trade_outlook_follows_the_rules(n, options):
    g = AnchorsAweighGame(n, **options)
    asked = valued = 0
    for s, p in _decisions(g, 8, 11):
        outlook = g.layout.read(g.encode(s.view(p)), "trade_outlook")
        if s.phase == DECIDE:
            want = _expected_trade_outlook(s, p)
            assert np.allclose(outlook, want, atol=1e-6)
            asked += bool(want.any())
            valued += bool(want[:2].any())
        else:
            assert not outlook.any()
    assert asked > 20 and valued > 10


def test_cargo_value_by_hand():
    g = AnchorsAweighGame(2)
    by_id = {c.id: c.index for c in g.cards}
    c01, c04, c05 = by_id["C01"], by_id["C04"], by_id["C05"]   # BB->5, WP->5, WWB->8
    assert COLOURS == ("blue", "white", "orange", "purple")
    cargo = [2, 1, 0, 1]
    # 4 units; C01 (+3) and C04 (+3) together; C05 needs two whites
    assert cargo_value(g.cards, cargo, [c01, c04, c05]) == 4 + 6
    assert cargo_value(g.cards, [2, 2, 0, 0], [c01, c05]) == 4 + 5   # one of the two
    assert cargo_value(g.cards, cargo, []) == 4
    assert cargo_value(g.cards, [-1, 0, 0, 0], [c01]) is None
