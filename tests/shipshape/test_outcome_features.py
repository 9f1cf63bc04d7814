"""The placement-outcome fields (``score_now``, ``place_outcomes``, ``stack_outcomes``)
against the rules: each orientation is placed for real on a cloned state and scored with
``geometry.score_voyage``, apart from the encoder's vectorised arithmetic."""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs.shipshape import ShipShapeGame
from plunder.envs.shipshape.engine import PLACE0
from plunder.envs.shipshape.geometry import COMPOSE, score_voyage, totals
from plunder.envs.shipshape.observation import SCORE_SCALE

from .helpers import random_joint


def _outcome(state, seat: int) -> list[float]:
    """The 6 outcome numbers of ``seat``'s hold as it shows now, by the rules."""
    gold, cannons, contraband, rats, _ = totals(state.visible[seat])
    goods = sum(1 for c in state.visible[seat] if c >= 2)
    raw = score_voyage(state.visible)[seat]["raw"]
    return [gold / 27, cannons / 27, contraband / 27, rats / 9, goods / 9, raw / SCORE_SCALE]


def _placed(state, seat: int, crate: int, lying: int, action_orientation: int):
    after = state.clone()
    after._place(seat, crate, COMPOSE[lying][action_orientation])
    return after


@pytest.mark.parametrize("n", [2, 4, 6])
def test_outcomes_match_placing_for_real(n):
    game = ShipShapeGame(n)
    layout = game.layout
    rng = np.random.default_rng(n)
    checked_place = checked_stack = 0
    for g in range(6):
        state = game.new_initial_state(np.random.default_rng(100 + g))
        while not state.is_terminal():
            for p in state.current_players():
                obs = game.encode(state.view(p))
                k = state.group_of(p)
                now = layout.read(obs, "score_now")[0]
                assert now == pytest.approx(score_voyage(state.visible)[p]["raw"] / SCORE_SCALE)
                place = layout.read(obs, "place_outcomes").reshape(8, 6)
                if state.decision(p) == "place":
                    (crate, lying), = [(c, o) for s, c, o in state.placing[k] if s == p]
                    for a in range(8):
                        assert place[a] == pytest.approx(
                            _outcome(_placed(state, p, crate, lying, a), p), abs=1e-6)
                    # the mask's orientation k is the action this row describes
                    assert state.legal_actions_mask(p)[PLACE0:].all()
                    checked_place += 1
                else:
                    assert not place.any()
                stack_out = layout.read(obs, "stack_outcomes").reshape(-1, 6)
                stack = state.stacks[k] if state.stacks else ()
                for j, row in enumerate(stack_out):
                    if j >= len(stack):
                        assert not row.any()
                        continue
                    options = [_outcome(_placed(state, p, *stack[j], a), p) for a in range(8)]
                    best = max(options, key=lambda o: (round(o[5] * SCORE_SCALE),
                                                       round(o[4] * 9)))
                    assert row == pytest.approx(best, abs=1e-6)
                    checked_stack += 1
            state.apply_joint(random_joint(state, rng))
    assert checked_place > 50 and checked_stack > 100
