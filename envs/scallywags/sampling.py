"""Scallywags states consistent with one player's view (for search bots and the tests)."""

from __future__ import annotations

import numpy as np

from .components import NUM_CARDS
from .engine import MIDDLE, ScallywagsGame, ScallywagsState
from .view import ScallywagsView


def sample_state(game: ScallywagsGame, view: ScallywagsView,
                 rng: np.random.Generator) -> ScallywagsState:
    """A full state consistent with the view: unseen coin values and cards redrawn."""
    s = ScallywagsState(game, np.random.default_rng(int(rng.integers(2**63 - 1))))
    comp = game.components
    unseen_values = list(comp.coin_values)
    for v in view.coin_values:
        if v >= 0:
            unseen_values.remove(v)
    unseen_values = [int(v) for v in rng.permutation(unseen_values)]
    s.values = [v if v >= 0 else unseen_values.pop() for v in view.coin_values]
    s.face_up = list(view.face_up)
    s.takes = [list(t) for t in view.takes]
    s.middle = sorted(c for c in range(game.num_coins) if view.coin_owner[c] == MIDDLE)
    s.knowers = list(view.knowers)
    unseen = [comp.card_copies[k] - view.hand[k] - view.discard[k] for k in range(NUM_CARDS)]
    # the draw pile is part of the last reshuffled pile (public), if there was one
    if any(view.reshuffled):
        candidates = [k for k in range(NUM_CARDS)
                      for _ in range(min(view.reshuffled[k], unseen[k]))]
    else:
        candidates = [k for k in range(NUM_CARDS) for _ in range(unseen[k])]
    pile = [int(k) for k in rng.permutation(candidates)[:view.draw_size]]
    for k in pile:
        unseen[k] -= 1
    unseen = [int(k) for k in rng.permutation(
        [k for k in range(NUM_CARDS) for _ in range(unseen[k])])]
    s.hands = []
    for p in range(game.num_players):
        if p == view.player:
            s.hands.append(list(view.hand))
            continue
        hand = [0] * NUM_CARDS
        for _ in range(view.hand_sizes[p]):
            hand[unseen.pop()] += 1
        s.hands.append(hand)
    s.draw_pile = pile
    s.discard = [k for k in range(NUM_CARDS) for _ in range(view.discard[k])]
    if view.card >= 0:   # the card being played lies on top (the rest's order is moot)
        s.discard.remove(view.card)
        s.discard.append(view.card)
    s.reshuffled = list(view.reshuffled)
    s.actor, s.phase, s.card = view.actor, view.phase, view.card
    s.chosen, s.block_queue = list(view.chosen), list(view.block_queue)
    s.turns = view.turns
    s.refresh()
    return s
