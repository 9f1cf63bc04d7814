"""Building Scallywags positions for scenario tests."""

from __future__ import annotations

import numpy as np

from plunder.envs.scallywags.components import NUM_CARDS
from plunder.envs.scallywags.engine import ScallywagsGame


def position(n=2, seed=0, actor=0, hands=None, takes=None, face_up=None, values=None):
    """A state with chosen hands ({seat: [card, ...]}), takes ({seat: [coin, ...]}),
    orientations ({coin: bool}) and values ({coin: value}); the rest as dealt."""
    game = ScallywagsGame(n)
    s = game.new_initial_state(np.random.default_rng(seed))
    s.actor = actor
    for seat, cards in (hands or {}).items():
        for k in range(NUM_CARDS):
            s.draw_pile += [k] * s.hands[seat][k]
        s.hands[seat] = [0] * NUM_CARDS
        for k in cards:
            s.draw_pile.remove(k)
            s.hands[seat][k] += 1
    for coin, up in (face_up or {}).items():
        s.face_up[coin] = up
    s.refresh()
    for coin, value in (values or {}).items():
        other = next(c for c in range(game.num_coins) if s.values[c] == value
                     and c not in (values or {}))
        s.values[coin], s.values[other] = s.values[other], s.values[coin]
    s.refresh()
    for seat, coins in (takes or {}).items():
        for c in coins:
            s._move_to_take(c, seat)
    return s


def forget(state, coin, *seats):
    """Make ``seats`` not know ``coin`` (for positions where nobody has seen it yet)."""
    for seat in seats:
        state.knowers[coin] &= ~(1 << seat)
    state.refresh()


def act(state, action_name: str):
    """Apply the legal action whose name is ``action_name``; fails if it is not legal."""
    game = state.game
    player = state.current_players()[0]
    for a in np.flatnonzero(state.legal_actions_mask(player)):
        if game.action_name(int(a)) == action_name:
            state.apply_action(int(a))
            return
    legal = [game.action_name(int(a)) for a in np.flatnonzero(state.legal_actions_mask(player))]
    raise AssertionError(f"{action_name!r} is not legal for player {player}; legal: {legal}")


def legal_names(state, player=None):
    """Names of the legal actions of ``player`` (default: the one acting)."""
    if player is None:
        player = state.current_players()[0]
    return {state.game.action_name(int(a))
            for a in np.flatnonzero(state.legal_actions_mask(player))}
