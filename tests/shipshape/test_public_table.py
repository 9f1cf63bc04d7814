"""The fast PublicTable constructor gives the same table as the dataclass's own (the
encoder caches that tables carry are checked against a cold game object in
tests/test_encoder_caches.py)."""

from __future__ import annotations

import dataclasses

import numpy as np

from plunder.envs.shipshape import ShipShapeGame
from plunder.envs.shipshape.view import PublicTable


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
