"""The view's shared tuples (the compiled view builder's all-zero card rows and empty
layouts) hold exactly what a plain build of the view gives, in every phase, also for a
pickled game and re-observed states."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from plunder.envs.all_hands_crew_v0 import Game


def _plain_fields(s, player: int) -> dict:
    """The fields with shared tuples, built plainly from the state."""
    n = s.game.num_players
    if not any(s.stock_src):
        stock = ((),) * n
    else:
        stock = tuple(tuple(zip(cards, srcs)) if s.phase == "hire"
                      and (q == player or s.game.open_stock)
                      else tuple((-1, src) for src in srcs)
                      for q, (cards, srcs) in enumerate(zip(s.stock, s.stock_src)))
    return {
        "stock": stock,
        "crew_known": tuple(tuple(row[player]) for row in s.crew_known),
        "known_about_me": tuple(map(tuple, s.crew_known[player])),
        "final": tuple(map(tuple, s.final)),
        "final_left": tuple(map(tuple, s.final_left)),
    }


@pytest.mark.parametrize("num_players,open_stock", [(2, False), (4, True), (6, False)])
def test_shared_view_tuples_equal_plain_build(num_players, open_stock):
    game = Game(num_players, open_stock=open_stock)
    rng = np.random.default_rng(num_players)
    states = []
    for seed in range(3):
        g = pickle.loads(pickle.dumps(game)) if seed == 1 else game   # rebuilt constants
        s = g.new_game(np.random.default_rng(seed))
        while not s.is_terminal():
            states.append(s.clone())
            acts = {p: int(rng.choice(np.flatnonzero(s.legal_actions_mask(p))))
                    for p in s.current_players()}
            s.apply_checked(acts)
        states.append(s)
    for s in states[::-1]:     # re-observed out of order
        for player in range(num_players):
            v = s.view(player)
            for name, want in _plain_fields(s, player).items():
                assert getattr(v, name) == want, name

