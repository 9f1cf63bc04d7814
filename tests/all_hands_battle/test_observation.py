"""All Hands On Deck's ``claim_outlook``: what claiming the top discard would do to the
best ship the asked player can launch, checked against enumerating every ship by hand."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from plunder.envs import game_class


def _every_ship(rules, hand):
    """(launch value, master, crew) of every legal ship from ``hand``, by brute force."""
    for m in hand:
        if not rules.is_master[m]:
            continue
        rest = sorted(c for c in hand if c != m)
        for crew in combinations(rest, rules.crew_per_ship):
            if rules.crew_ok(m, crew):
                yield rules.launch_value(m, crew), m, crew


@pytest.mark.parametrize("players", [2, 4])
def test_claim_outlook_matches_every_ship_the_hand_could_launch(players):
    game = game_class("all_hands_battle_v0")(players)
    rules, sl = game.rules, game.layout.slice("claim_outlook")
    asked = with_card = 0
    for g in range(6):
        rng = np.random.default_rng(g)
        state = game.new_game(rng)
        while not state.is_terminal():
            joint = {}
            for p in state.current_players():
                view = state.view(p)
                outlook = game.encode(view)[sl]
                if view.decision != "claim":
                    assert not outlook.any()
                else:
                    asked += 1
                    for q in range(players):       # everyone else sees zeros meanwhile
                        if q != p:
                            assert not game.encode(state.view(q))[sl].any()
                    hand, card = list(view.hand), view.discard[-1]
                    now = list(_every_ship(rules, hand))
                    later = list(_every_ship(rules, hand + [card]))
                    assert outlook[0] == bool(now) and outlook[1] == bool(later)
                    best_now = max((v for v, _, _ in now), default=0.0)
                    best_later = max((v for v, _, _ in later), default=0.0)
                    assert outlook[2] == pytest.approx(min(best_now / 50, 2), abs=1e-6)
                    assert outlook[3] == pytest.approx(min(best_later / 50, 2), abs=1e-6)
                    best = [(m, crew) for v, m, crew in later if v == best_later]
                    uses = [card == m or card in crew for m, crew in best]
                    # ties: some best ship uses the card iff the entry says so
                    assert (any(uses) if outlook[4] else not all(uses)) if best else \
                        outlook[4] == 0
                    with_card += bool(outlook[4])
                joint[p] = int(rng.choice(np.flatnonzero(state.legal_actions_mask(p))))
            state.apply_joint(joint)
    assert asked > 30 and 0 < with_card < asked, (asked, with_card)
