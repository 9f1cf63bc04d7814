"""A hybrid bot: one bot's moves, except for chosen kinds of decision, which another bot
makes. It is a diagnostic: played against the same opponents on the same deals, a hybrid
that wins more than the first bot alone shows the kind of decision where that bot is the
weaker of the two (``plunder benchmark diagnose``, docs/benchmark.md#where-a-bot-loses).

A decision's *kind* is read from the rules alone: the verbs (first words of the action
names) of its legal actions, sorted and joined by ``/`` — ``grab/flip/return`` in Anchors
Aweigh!'s loading race, ``bid`` and ``place`` in ShipShape. Both bots are asked at every
decision of their seat, whoever's move is played, so that a bot that remembers what it
saw (the heuristics, a network with a memory) keeps its memory exactly as if it played
alone; with no kinds handed over the hybrid plays exactly the first bot's moves.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from plunder.envs.core import InvalidArgumentError

from .base import ask_bot


def decision_kind(game, action_mask: np.ndarray) -> str:
    """The verbs of the legal actions of a decision, sorted and joined by ``/``."""
    legal = np.flatnonzero(action_mask)
    if len(legal) == 0:
        raise InvalidArgumentError("decision_kind() needs a mask with a legal action")
    return "/".join(sorted({game.action_name(int(a)).split(" ", 1)[0] for a in legal}))


class HybridPolicy:
    """``base``'s moves, except at decisions whose kind is in ``kinds``: ``helper``'s.

    Keeps, per kind, how many decisions with a choice it met (``decisions``) and at how
    many the two bots chose differently (``disagreements``), over every game since it was
    made. Either bot may play from the view (``needs_view``); the others get the encoded
    observation, as in a tournament.
    """

    needs_view = True

    def __init__(self, game, base, helper, kinds=(), name: str | None = None):
        self.game, self.base, self.helper = game, base, helper
        self.kinds = frozenset(kinds)
        self.name = name or "hybrid"
        self.decisions: Counter[str] = Counter()
        self.disagreements: Counter[str] = Counter()

    def reset(self) -> None:
        """Both bots forget the previous game (the counts are kept)."""
        self.base.reset()
        self.helper.reset()

    def act_view(self, view, action_mask: np.ndarray) -> int:
        """Ask both bots; play the helper's move at the handed-over kinds, else the base's."""
        observation = self.game.encode(view)
        mine = ask_bot(self.base, view, observation, action_mask)
        theirs = ask_bot(self.helper, view, observation, action_mask)
        kind = decision_kind(self.game, action_mask)
        if np.count_nonzero(action_mask) > 1:
            self.decisions[kind] += 1
            self.disagreements[kind] += mine != theirs
        return theirs if kind in self.kinds else mine
