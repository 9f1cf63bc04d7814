"""A stronger scripted bot for Anchors Aweigh!: the heuristic, loading for discoveries
only, with a cargo planner.

The heuristic bot (``anchors_aweigh_heuristic``) loads the tiles that all of the round's
discoveries and pirates need, resolves every trade and contract it can and picks cargo
colours by summed wants. This bot changes two things.

**Loading for the discoveries only.** Its list of tiles to load counts the discoveries'
needs and leaves the pirates' out (what is left of the ship fills from face-down grabs,
as the heuristic's does); it still meets every pirate, encountering by the heuristic's
rule with whatever its ship holds. Loading for the pirates too, as the heuristic does,
spends 2-4 of the 12 asset spaces per pirate card on cannons, swords and sailors, which
the discoveries' tiles then lack (measured, not derived).

**Cargo valued by the contracts still open.** Most of a seat's points come from
contracts (about 25 of 48 in heuristic self-play), paid with exact colours at the end of
the round, so this bot values its cargo by what it can still buy:

    value(cargo) = cargo units (each becomes a coin at the end of the round)
                   + the best net gain (coins - cargo spent) of a set of the round's
                     remaining contracts that the cargo pays for together

The remaining contracts are the round's contract cards, remembered while the fronts show
(``recall.RoundFronts``, which the trained bots' card memory uses too), less those that
the public ``used`` history or the current card has removed; contracts moved to the
bottom stay in the set. With that value it decides:

- a trade or contract: resolve only if the value after (plus the contract's coins) is at
  least the value of skipping;
- a colour for grey cargo (or a colour that ran out): the colour of the highest value;
- a pirate penalty: the colour whose loss costs the least value;
- overflow: throw out a held token only for a more valuable one, an asset no remembered
  card needs only if the new token adds value, else let the new token go;
- the two cargo tokens taken while loading: the colour of the highest value, counting the
  cargo that the round's discoveries still give.

Everything else (how tiles are grabbed and placed, encounters, discoveries, stowing with
room) is the heuristic's. It reads only the observation, by field name, and the mask. Trained
Anchors Aweigh! bots imitate it in their warm start (``pretrain.teacher: planner``);
how strong it is: envs/anchors_aweigh/rules.md#the-planner-bot.
"""

from __future__ import annotations

import numpy as np

from plunder.envs.anchors_aweigh.components import CONTRACT, DISCOVERY, TRADE
from plunder.envs.anchors_aweigh.engine import (
    A_CARGO, A_COLOUR, A_DISCARD, A_PARROT, A_PAY, A_PAY_NONE, A_RESOLVE, A_SKIP, A_STOW,
    A_TOSS_ASSET, A_TOSS_CARGO, COLOUR, DECIDE, LOADING, PIRATE, PLACE,
)
from plunder.envs.anchors_aweigh.observation import SF, cargo_value
from plunder.envs.anchors_aweigh.recall import RoundFronts

from .anchors_aweigh_heuristic import MONKEY, AnchorsAweighHeuristic

_UNIT = np.eye(4, dtype=int)


class AnchorsAweighPlanner(AnchorsAweighHeuristic):
    """The heuristic bot, with every cargo decision valued by the contracts still open."""

    name = "planner"

    def __init__(self, game, seed: int | None = None):
        self.fronts = RoundFronts(game)
        super().__init__(game, seed)
        self.cards = game.cards

    def reset(self) -> None:
        """Forget the previous game."""
        super().reset()
        self.fronts.reset()
        self.contracts: list[int] = []     # this round's contract cards still to come

    # -- what it knows ----------------------------------------------------------------------
    def _remember(self, obs) -> None:
        """What the heuristic notes, and the round's contracts still to come."""
        super()._remember(obs)
        ids = self.fronts.update(obs) or []
        self.contracts = [c for c in ids if self.cards[c].type == CONTRACT]

    def _asset_needs(self) -> np.ndarray:
        """Tiles per kind that the round's remembered discoveries need (pirates left out)."""
        need = np.zeros(10, int)
        for v in self.memory:
            if v[DISCOVERY]:
                need[:8] += np.rint(v[13:21] * 4).astype(int)
        return need

    def value(self, cargo, contracts: list[int]) -> float:
        """Cargo units plus the best net gain of a jointly payable set of ``contracts``
        (``observation.cargo_value``, which the trade_outlook field shows; -inf: a count
        is negative)."""
        value = cargo_value(self.cards, [int(x) for x in cargo], contracts)
        return -np.inf if value is None else float(value)

    # -- acting -----------------------------------------------------------------------------
    def act(self, observation, action_mask) -> int:
        """The heuristic's move, except where cargo is at stake (module doc)."""
        obs = np.asarray(observation)
        mask = np.asarray(action_mask)
        self._remember(obs)
        phase = int(np.argmax(self._f(obs, "phase")))
        move = None
        if phase == DECIDE and mask[A_RESOLVE] and mask[A_SKIP]:
            move = self._trade_or_contract(obs)
        elif phase == COLOUR:
            move = self._best_colour(obs, mask)
        elif phase == PIRATE and not (mask[A_RESOLVE] or mask[A_PARROT:A_PARROT + 8].any()):
            move = self._cheapest_payment(obs, mask)
        elif phase == PLACE and not mask[A_STOW:A_STOW + 14].any():
            move = self._overflow(obs, mask)
        elif phase == LOADING and mask[A_CARGO:A_CARGO + 4].any():
            move = self._loading_cargo(obs, mask)
        if move is not None:
            return move
        # the heuristic remembers again: harmless (the same cards, already noted)
        return super().act(observation, action_mask)

    def _trade_or_contract(self, obs) -> int | None:
        """Resolve a trade or contract unless that loses value (None: another card)."""
        cid = self.fronts.card_id(self._f(obs, "current_card"))
        if cid < 0 or self.cards[cid].type not in (TRADE, CONTRACT):
            return None
        card = self.cards[cid]
        held = self._own_cargo(obs)
        rest = self.contracts
        after = held.copy()
        np.subtract.at(after, list(card.needs), 1)
        np.add.at(after, list(card.cargo), 1)
        gain = card.coins + self.value(after, rest) - self.value(held, rest)
        return A_RESOLVE if gain >= 0 else A_SKIP

    def _best_colour(self, obs, mask) -> int:
        """The colour of a grey (or run-out) token that adds the most value."""
        held = self._own_cargo(obs)
        rest = self.contracts
        want = self._cargo_wants() - held
        options = [c for c in range(4) if mask[A_COLOUR + c]]
        return A_COLOUR + max(options, key=lambda c: (self.value(held + _UNIT[c], rest),
                                                      want[c], -c))

    def _cheapest_payment(self, obs, mask) -> int | None:
        """The penalty colour whose loss costs the least value (None: nothing to pay)."""
        options = [c for c in range(4) if mask[A_PAY + c]]
        if mask[A_PAY_NONE] or not options:
            return None
        held = self._own_cargo(obs)
        rest = self.contracts
        return A_PAY + max(options, key=lambda c: (self.value(held - _UNIT[c], rest), -c))

    def _overflow(self, obs, mask) -> int | None:
        """No room for the token: swap it for a held one, an unneeded asset or nothing."""
        held = self._own_cargo(obs)
        rest = self.contracts
        unit = int(np.argmax(self._f(obs, "unit_colour")))
        now = self.value(held, rest)
        added = self.value(held + _UNIT[unit], rest) - now
        need = self._asset_needs()
        ships = self._f(obs, "ships")[:14 * SF].reshape(14, SF)
        kinds = [int(np.argmax(ships[s, 3:13])) for s in range(12)]
        spare = [s for s in range(12) if mask[A_TOSS_ASSET + s]
                 and (kinds[s] == MONKEY or need[kinds[s]] == 0)]
        if spare and added > 0:
            return A_TOSS_ASSET + spare[0]
        swaps = [(self.value(held - _UNIT[c] + _UNIT[unit], rest), c) for c in range(4)
                 if mask[A_TOSS_CARGO + c]]
        if swaps and max(swaps)[0] > now:
            return A_TOSS_CARGO + max(swaps)[1]
        if spare and added >= 0:
            return A_TOSS_ASSET + spare[0]
        return A_DISCARD if mask[A_DISCARD] else None

    def _loading_cargo(self, obs, mask) -> int:
        """The heuristic's loading move, but a cargo token of the most valuable colour."""
        move = super().act(obs, mask)
        if not A_CARGO <= move < A_CARGO + 4:
            return move
        held = self._own_cargo(obs)
        coming = np.zeros(4, int)      # what the round's discoveries give
        for v in self.memory:
            if v[DISCOVERY]:
                coming += np.rint(v[26:30] * 4).astype(int)
        rest = self.contracts
        want = self._cargo_wants() - held
        options = [c for c in range(4) if mask[A_CARGO + c]]
        return A_CARGO + max(options, key=lambda c: (
            self.value(held + coming + _UNIT[c], rest), want[c], -c))
