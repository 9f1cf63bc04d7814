"""The example game's heuristic bot (named by its spec: ``heuristic``)."""

from __future__ import annotations

import numpy as np


class HighestCard:
    """Plays its highest card."""

    name = "heuristic"

    def __init__(self, game, seed=None):
        self.game = game

    def reset(self) -> None:
        """Nothing to forget."""

    def act(self, observation, action_mask) -> int:
        """The highest legal card."""
        return int(np.flatnonzero(action_mask)[-1])
