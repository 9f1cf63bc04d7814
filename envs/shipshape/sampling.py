"""ShipShape states consistent with one seat's view (for search bots and the tests)."""

from __future__ import annotations

import numpy as np

from .engine import ShipShapeGame, ShipShapeState, _put
from .view import ShipShapeView


def sample_state(game: ShipShapeGame, view: ShipShapeView,
                 rng: np.random.Generator) -> ShipShapeState:
    """A full state matching ``view``: only the Cap'n's deck order and the future
    randomness (the generator) are redrawn; everything else is public."""
    t = view.table
    state = ShipShapeState(game, np.random.default_rng(int(rng.integers(2**63 - 1))))
    for key in ShipShapeState.FIELDS + ("visible",):   # turns included
        if key != "num_players":                          # the game's, not a field
            setattr(state, key, getattr(t, key))
    if game.capn is not None:
        deck = list(t.hands[game.capn])
        rng.shuffle(deck)
        state.hands = _put(t.hands, game.capn, tuple(deck))
    return state
