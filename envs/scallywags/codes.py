"""Scallywags' codes: the steps of a turn and the action space.

Shared by the rules (``engine``), the encoders and the bots.
"""

from __future__ import annotations

from enum import StrEnum

from plunder.envs.core.actions import ActionRanges, Label

from .components import CARD_NAMES, NUM_CARDS

#: the most opponents a player has (6 players)
MAX_OPPONENTS = 5


class Phase(StrEnum):
    """A turn's steps (str members: saved states and the C twins read the names)."""

    CHOOSE = "choose"
    TARGET = "target"
    BLOCK = "block"


CHOOSE, TARGET, BLOCK = Phase
PHASES = tuple(Phase)


def action_ranges(num_coins: int) -> ActionRanges:
    """The single Discrete action space (its size depends on the coin count): play card
    k, discard card k, choose coin c, choose the opponent d seats after the actor
    (``player + d - 1``), block, allow."""
    return ActionRanges(
        [("play", NUM_CARDS), ("discard", NUM_CARDS), ("coin", num_coins),
         ("player", MAX_OPPONENTS), ("block", 1), ("allow", 1)],
        {"play": Label("play {item}", CARD_NAMES),
         "discard": Label("discard {item}", CARD_NAMES),
         "coin": "coin {k}", "player": "opponent +{k1}",
         "block": "block (HANDS OFF ME BOOTY!)", "allow": "allow"})
