"""A player's memory of the round's cards (``AnchorsAweighGame.observation_memory()``).

Every player sees the fronts of the round's 13 cards until the captain's call; then the
rules hide them, though nobody forgets what they saw. The ``perfect_recall`` variant keeps
them in the observation. :class:`CardMemory` rebuilds that variant's observation from one
player's own observations of the standard game, so that a bot trained with
``perfect_recall`` plays the standard game as a player with a good memory would:

* while the fronts are visible it notes which cards they are (every card's vector is
  distinct, so a vector names its card);
* once they are hidden, the round's unrevealed cards are the noted ones minus those used
  since (``used`` is public history) and minus the current card once it is revealed;
* it writes them back as the variant does: ``fronts_visible``, ``round_cards`` in card-id
  order, ``round_asset_needs``, ``round_cargo_needs``, ``pirate_odds`` and
  ``encounter_outlook`` and ``trade_outlook`` (which read the fronts while they are known).

Nothing but the player's own observations goes in (tests/anchors_aweigh/test_recall.py
checks the result against the variant's observations, value for value).
"""

from __future__ import annotations

import numpy as np

from plunder.envs.core import InvalidArgumentError

from .components import BACKS, CONTRACT, NUM_COLOURS, NUM_KINDS, TRADE
from .engine import DECIDE, ENCOUNTER
from .observation import (
    CF, _setup, card_vectors, encounter_outlook, pirate_odds, pirate_shortfalls,
    pirate_weights, trade_outlook,
)

ROUND_SLOTS = 13


class RoundFronts:
    """The fronts of the round's cards that one player saw, by card id: noted while they
    show, less the cards used or revealed since (public history). Bots that read
    observations share it: :class:`CardMemory`, the planner bot."""

    def __init__(self, game):
        rows = card_vectors(game)
        self.card_of = {row.tobytes(): i for i, row in enumerate(rows)}
        if len(self.card_of) != len(rows):
            raise ValueError("two cards share an observation vector: a front cannot name "
                             "its card")
        self.slices = {name: game.layout.slice(name) for name in (
            "round", "fronts_visible", "round_cards", "current_card", "used")}
        self.reset()

    def reset(self) -> None:
        """Forget the previous game."""
        self.round = 0
        self.cards: list[int] = []

    def card_id(self, vector) -> int:
        """The card a front's vector shows (-1: none)."""
        return self.card_of.get(np.asarray(vector, np.float32).tobytes(), -1)

    def update(self, obs: np.ndarray) -> list[int] | None:
        """Note the fronts if ``obs`` shows them; the ids of the round's cards still to
        come as far as this player knows (None: it never saw this round's fronts)."""
        sl = self.slices
        rnd = int(np.argmax(obs[sl["round"]])) + 1
        if obs[sl["fronts_visible"]][0] > 0:
            rows = obs[sl["round_cards"]].reshape(ROUND_SLOTS, CF)
            self.round = rnd
            self.cards = [self.card_of[r.tobytes()] for r in rows if r.any()]
            return list(self.cards)
        if rnd != self.round:
            return None
        gone = set(np.flatnonzero(obs[sl["used"]]).tolist())
        current = obs[sl["current_card"]]
        if current.any():                   # revealed: no longer among the fronts
            gone.add(self.card_of[current.tobytes()])
        return [c for c in self.cards if c not in gone]


class CardMemory:
    """One player's memory of the round's card fronts (see the module doc)."""

    def __init__(self, game):
        if game.perfect_recall:
            raise InvalidArgumentError("an observation memory is for the game without "
                                       "perfect_recall (that variant shows the fronts)")
        self.game = game
        self.tables = game.__dict__.get("_obs_tables") or _setup(game)
        self.layout = layout = game.layout
        self.fronts = RoundFronts(game)
        self.slices = {name: layout.slice(name) for name in (
            "round", "fronts_visible", "round_cards", "round_asset_needs",
            "round_cargo_needs", "current_card", "used", "assets_seen", "parrots",
            "pirate_odds", "encounter_outlook", "phase", "me_acting", "current_back",
            "coins", "cargo_held", "trade_outlook")}
        self.reset()

    def reset(self) -> None:
        """Forget the previous game."""
        self.fronts.reset()

    def recall_view(self, view):
        """The player's view as the ``perfect_recall`` variant shows it (for bots that
        read views, such as netsearch); like ``recall``, it notes the fronts while they
        are visible."""
        seen = self.fronts
        if view.fronts is not None:
            seen.round, seen.cards = view.round, sorted(view.fronts)
            return view
        if view.round != seen.round:
            return view
        gone = set(view.used) | {view.current}
        fronts = tuple(c for c in seen.cards if c not in gone)
        return view._replace(pub=view.pub._replace(fronts=fronts))

    def recall(self, observation: np.ndarray) -> np.ndarray:
        """The observation as the ``perfect_recall`` variant shows it (a new array)."""
        obs = np.array(observation, np.float32)
        sl = self.slices
        if obs[sl["fronts_visible"]][0] > 0:
            self.fronts.update(obs)         # notes them; the variant shows the same
            return obs
        ids = self.fronts.update(obs)
        if ids is None:
            return obs                      # never saw this round's fronts: nothing to add
        t = self.tables
        obs[sl["fronts_visible"]] = 1
        start = sl["round_cards"].start
        obs[start:start + len(ids) * CF] = t.cards[ids].ravel()
        obs[sl["round_asset_needs"]] = t.card_asset_needs[ids].sum(0) / 8
        obs[sl["round_cargo_needs"]] = t.card_cargo_needs[ids].sum(0) / 8
        have = obs[sl["assets_seen"]][:NUM_KINDS] * 4          # your own ship: exact counts
        extra = int(obs[sl["parrots"]][0] > 0)
        if self.game.rough_seas:
            extra += int(round(float(have[NUM_KINDS - 1])))
        fronts = set(ids)
        weights, counts = pirate_weights(t, [c in fronts for c in t.pirate_id_list])
        short = pirate_shortfalls(t, np.rint(have))
        possible = [c in fronts for c in t.pirate_id_list]
        obs[sl["pirate_odds"]] = pirate_odds(short, extra, weights, counts)
        if np.argmax(obs[sl["phase"]]) == ENCOUNTER and obs[sl["me_acting"]][0] > 0:
            back = int(np.argmax(obs[sl["current_back"]]))
            obs[sl["encounter_outlook"]] = encounter_outlook(
                t, short, extra, possible, back - BACKS.index("pirates 1") + 1,
                int(round(float(obs[sl["coins"]][0]) * 10)),
                bool(obs[sl["cargo_held"]][:NUM_COLOURS].any()),
                self.game.comp.pirate_penalty_coins)
        current = self.fronts.card_id(obs[sl["current_card"]])
        if np.argmax(obs[sl["phase"]]) == DECIDE and obs[sl["me_acting"]][0] > 0 \
                and current >= 0 and self.game.cards[current].type in (TRADE, CONTRACT):
            cargo = np.rint(obs[sl["cargo_held"]][:NUM_COLOURS] * 8).astype(int).tolist()
            obs[sl["trade_outlook"]] = trade_outlook(self.game.cards, current, cargo, ids)
        return obs
