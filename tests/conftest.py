"""Shared fixtures and options for the plunder test suite."""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs import ENV_IDS, game_class


def player_counts(env_id: str) -> list[int]:
    """Every supported player count of ``env_id``."""
    cls = game_class(env_id)
    return list(range(cls.min_players, cls.max_players + 1))


#: (env_id, num_players) for every registered game and supported count
GAME_COUNTS = [(e, n) for e in ENV_IDS for n in player_counts(e)]
SIMULTANEOUS_COUNTS = [(e, n) for e, n in GAME_COUNTS if game_class(e).simultaneous]


def random_playout_states(game, seed: int, max_steps: int = 5000, every: int = 1):
    """States along one random legal playout (a clone of each), ending at terminal."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(np.random.default_rng(seed + 1))
    out = [state.clone()]
    steps = 0
    while not state.is_terminal() and steps < max_steps:
        joint = {}
        for p in state.current_players():
            legal = np.flatnonzero(state.legal_actions_mask(p))
            assert len(legal) > 0, f"player {p} must act but has no legal action"
            joint[p] = int(rng.choice(legal))
        state.apply_joint(joint)
        steps += 1
        if steps % every == 0:
            out.append(state.clone())
    return out
