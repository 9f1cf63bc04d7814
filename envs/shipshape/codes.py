"""ShipShape's codes: the action space (ShipShape has no phases: every decision is a
bid or a placement, ``ShipShapeState.decision``).

Shared by the rules (``engine``), the encoders and the bots.
"""

from __future__ import annotations

from plunder.envs.core.actions import ActionRanges, Label

from .geometry import ORIENTATION_NAMES

NUM_CARDS = 10
NUM_ORIENTATIONS = 8
#: bid card c (``bid + c - 1``); place the taken crate in orientation k (``place + k``)
ACTIONS = ActionRanges([("bid", NUM_CARDS), ("place", NUM_ORIENTATIONS)],
                       {"bid": "bid {k1}", "place": Label("place {item}", ORIENTATION_NAMES)})
BID0 = ACTIONS.bid  #: action BID0 + c - 1 bids card c
PLACE0 = ACTIONS.place  #: action PLACE0 + k places in orientation k
NUM_ACTIONS = ACTIONS.size
