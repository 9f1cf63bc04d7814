"""Anchors Aweigh!'s codes: ship cells, phases, outcomes and the action space.

Shared by the rules (``engine``, ``loading``, ``travel``), the view builder's C twin
(``view_params`` hands it these numbers, checked there) and the bots.
"""

from __future__ import annotations

from enum import IntEnum

from plunder.envs.core.actions import ActionRanges, Label

from .components import (
    ASSET_SPACES, COLOURS, KINDS, NEEDABLE, NUM_COLOURS, NUM_KINDS, NUM_SPACES, SPACE_NAMES,
)

# ---- ship cells in the state ------------------------------------------------------------
EMPTY = -1
CARGO = 200      # + colour (tile ids stay below 200)
CHEST = 204

# ---- phases -------------------------------------------------------------------------------
class Phase(IntEnum):
    """The game's phases (int members: saved states and the C twins read the numbers)."""

    SETUP = 0
    LOADING = 1
    DECIDE = 2
    ENCOUNTER = 3
    PIRATE = 4
    COLOUR = 5
    PLACE = 6
    OVER = 7


SETUP, LOADING, DECIDE, ENCOUNTER, PIRATE, COLOUR, PLACE, OVER = Phase
#: the phases' names, by phase
PHASES = ("monkey setup", "loading", "resolve or skip", "encounter or flee",
          "resolve or pay", "choose cargo colour", "stow cargo", "game over")

# ---- what each player did last (public once applied) -------------------------------------
OUTCOMES = ("none", "resolved", "skipped", "encounters", "fled", "paid penalty")
O_NONE, O_RESOLVED, O_SKIPPED, O_ENCOUNTER, O_FLED, O_PAID = range(6)

# ---- actions ----------------------------------------------------------------------------------
ACTIONS = ActionRanges(
    [("grab_down", 1), ("grab_up", NUM_KINDS), ("flip", 1), ("place", len(ASSET_SPACES)),
     ("return_tile", 1), ("cargo", NUM_COLOURS), ("star_return", len(ASSET_SPACES)),
     ("skip", 1), ("resolve", 1), ("parrot", len(NEEDABLE)), ("encounter", 1), ("flee", 1),
     ("pay_none", 1), ("pay", NUM_COLOURS), ("colour", NUM_COLOURS), ("stow", NUM_SPACES),
     ("toss_asset", len(ASSET_SPACES)), ("toss_cargo", NUM_COLOURS), ("discard", 1),
     ("swap", NUM_KINDS * NUM_KINDS)],
    {"grab_down": "grab a face-down tile",
     "grab_up": Label("grab a face-up {item}", KINDS),
     "flip": "flip a face-down tile",
     "place": Label("place the held tile on {item}", SPACE_NAMES),
     "return_tile": "return the held tile face up",
     "cargo": Label("take {item} cargo", COLOURS),
     "star_return": Label("return the starfish tile on {item}", SPACE_NAMES),
     "skip": "skip the card", "resolve": "resolve the card",
     "parrot": Label("resolve with the parrot as a {item}", KINDS),
     "encounter": "encounter the pirates", "flee": "flee the pirates",
     "pay_none": "pay the penalty (no cargo to give)",
     "pay": Label("pay the penalty, giving {item} cargo", COLOURS),
     "colour": Label("choose {item} cargo", COLOURS),
     "stow": Label("stow the cargo on {item}", SPACE_NAMES),
     "toss_asset": Label("toss the asset on {item} overboard for the cargo", SPACE_NAMES),
     "toss_cargo": Label("toss a {item} cargo overboard for the new one", COLOURS),
     "discard": "toss the new cargo overboard",
     "swap": Label("swap two {row_item} for a {col_item}", KINDS, stride=NUM_KINDS)})
A_GRAB_DOWN = ACTIONS.grab_down
A_GRAB_UP = ACTIONS.grab_up            # + kind (10)
A_FLIP = ACTIONS.flip
A_PLACE = ACTIONS.place                # + asset space (12)
A_RETURN = ACTIONS.start("return_tile")
A_CARGO = ACTIONS.cargo                # + colour (4)
A_STAR_RETURN = ACTIONS.star_return    # + asset space (12)
A_SKIP = ACTIONS.skip
A_RESOLVE = ACTIONS.resolve
A_PARROT = ACTIONS.parrot              # + needable kind (8)
A_ENCOUNTER = ACTIONS.encounter
A_FLEE = ACTIONS.flee
A_PAY_NONE = ACTIONS.pay_none
A_PAY = ACTIONS.pay                    # + colour (4)
A_COLOUR = ACTIONS.colour              # + colour (4)
A_STOW = ACTIONS.stow                  # + space (14)
A_TOSS_ASSET = ACTIONS.toss_asset      # + asset space (12)
A_TOSS_CARGO = ACTIONS.toss_cargo      # + colour (4)
A_DISCARD = ACTIONS.discard
A_SWAP = ACTIONS.swap                  # + give kind * 10 + take kind (100)
NUM_ACTIONS = ACTIONS.size
if (A_SWAP, NUM_ACTIONS) != (93, 193):
    raise ImportError("the action space changed: update the compiled twins' indices too")

GREY = NUM_COLOURS       # a cargo unit of any colour


def action_name(a: int) -> str:
    """Readable name of action index ``a``."""
    return ACTIONS.action_name(a)
