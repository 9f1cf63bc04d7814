"""A stronger scripted ShipShape bot: the heuristic, bidding against a model of the others.

The heuristic bot (``shipshape_heuristic``) values each crate of the stack by what it adds
to its own hold and bids as if every other bidder drew a card uniformly from their hand.
Players do not bid at random: each bids for the crates *it* wants. This bot keeps the
heuristic's crate values and placements and bids by the observation's ``bid_outlook``
(``envs/shipshape/bidding.py``): each other bidder modelled as the heuristic's rule played
from that seat's side (the crates' worth to its own hold, everybody else uniform), the
Cap'n as his deck, and each card of its own hand scored by the crate it then expects to
win by the turn's rules (ties and re-bids included). It bids the card with the best
expected crate less the heuristic's charge for spending high cards.

It reads only the observation, by field name, and the mask. The 4-player trained bot
imitates it in its warm start (``pretrain.teacher: planner``). How strong it is:
envs/shipshape/rules.md#the-planner-bot.
"""

from __future__ import annotations

import numpy as np

from plunder.envs.shipshape.bidding import card_cost
from plunder.envs.shipshape.observation import SCORE_SCALE

from .shipshape_heuristic import ShipShapeHeuristic


class ShipShapePlanner(ShipShapeHeuristic):
    """The heuristic bot, bidding by the bid outlook (a model of the other bidders)."""

    name = "planner"

    def _bid(self, obs, legal, mine, placed) -> int:
        """The card of the best expected crate less the charge for high cards."""
        outlook = self.layout.read(obs, "bid_outlook").astype(np.float64) * SCORE_SCALE
        cards = legal + 1
        score = outlook[legal] - card_cost(len(legal)) * (cards - 1)
        return int(legal[int(np.argmax(score))])
