"""The encoder's caches (per game object, per table) never change an observation: a
state encoded by a game object that has seen other games, other seats and later states
gives the same vector as a fresh game object; the fast PublicTable constructor gives the
same table as the dataclass's own."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from plunder.envs.shipshape import ShipShapeGame
from plunder.envs.shipshape.view import PublicTable

from .helpers import random_joint


@pytest.mark.parametrize("n", [2, 3, 6])
def test_cached_encoding_matches_a_fresh_encoder(n):
    warm = ShipShapeGame(n)
    rng = np.random.default_rng(n)
    states = []
    for g in range(2):
        state = warm.new_initial_state(np.random.default_rng(50 + g))
        while not state.is_terminal():
            states.append(state.clone())
            for p in rng.permutation(warm.num_players).tolist():
                warm.encode(state.view(p))
            state.apply_joint(random_joint(state, rng))
    for i in rng.permutation(len(states))[:60].tolist():      # out of order, re-observed
        fresh_state = states[i].clone()
        fresh_state.__dict__["_table"] = None
        fresh = ShipShapeGame(n)
        for p in range(n):
            want = fresh.encode(fresh_state.view(p))
            assert np.array_equal(warm.encode(states[i].view(p)), want)


def test_public_table_has_every_field():
    state = ShipShapeGame(2).new_initial_state(np.random.default_rng(0))
    table = state.public_table()
    names = {f.name for f in dataclasses.fields(PublicTable)}
    assert set(vars(table)) == names
    again = PublicTable(**{k: v for k, v in vars(table).items() if k != "derived"})
    assert again == table and repr(again) == repr(table)
    other = state.clone()
    other.__dict__["_table"] = None           # a table built anew gets its own cache
    assert table.derived == {} and other.public_table().derived is not table.derived
