"""All Hands crew's ``returns`` belief for ``netsearch`` (``belief=returns``).

The Drawing Pile cards another player put back are the stock cards it chose not to hire:
it knows them, the searcher does not. The uniform sampler draws them like any unseen
card; the belief draws them by kind with weight P(put back | drawn into stock), as the
shipped 2-player network plays (``AllHandsCrewGame.sample_state(view, rng,
returned_weights=RETURNED_WEIGHTS)``). Why and what it did: docs/training.md#crews-search.
"""

from __future__ import annotations

import numpy as np

#: per kind (components order: six crew kinds, then the Anchor, Cutlass and Kraken
#: captains), the share of the cards drawn into stock that were put back rather than
#: hired: ``measure_returned_weights()`` with its defaults (400 games of the shipped
#: 2-player network against itself, 45,600 stock cards)
RETURNED_WEIGHTS = (0.629, 0.456, 0.384, 0.358, 0.065, 0.629, 0.891, 0.889, 0.794)


def measure_returned_weights(games: int = 400, seed: int = 90000,
                             bot: str = "pretrained:final") -> tuple[float, ...]:
    """All Hands crew at 2 players, ``bot`` in both seats (greedy), games dealt from
    ``default_rng(seed + g)``: per kind, the share of the stock cards drawn that were put
    back rather than hired (rounded to 3 places)."""
    from plunder.envs import game_class

    from .base import make_bot

    env_id = "all_hands_crew_v0"
    game = game_class(env_id)(2)
    bots = [make_bot(bot, env_id, 2, seed=s) for s in range(2)]
    drawn = [0] * len(RETURNED_WEIGHTS)
    put_back = list(drawn)
    for g in range(games):
        state = game.new_game(np.random.default_rng(seed + g))
        while not state.is_terminal():
            joint = {p: int(bots[p].act(game.encode(state.view(p)),
                                        state.legal_actions_mask(p)))
                     for p in state.current_players()}
            before = state.clone() if state.phase == "hire" else None
            state.apply_joint(joint)
            if before is not None and state.phase != "hire":     # the hiring just ended
                for p in range(2):
                    hired = set(before.hired[p])
                    if p in joint and joint[p] != game.A_PASS:
                        hired.add(joint[p] - game.A_HIRE)
                    for i, k in enumerate(before.stock[p]):
                        drawn[k] += 1
                        put_back[k] += i not in hired
    return tuple(round(b / d, 3) if d else 1.0 for b, d in zip(put_back, drawn))
