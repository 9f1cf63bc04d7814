"""A player's memory of the round's cards rebuilds the perfect_recall variant exactly.

Two copies of each game are played with the same seed and the same moves: one in the
standard game, one in the ``perfect_recall`` variant (the rules are the same; only the
observations differ). Every player's memory is fed its standard observations at its own
decisions only, as a bot receives them, and must return the variant's observation at each
of them, value for value; a memory fed the player's views (as netsearch reads them) must
return the variant's view.
"""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs.anchors_aweigh.engine import AnchorsAweighGame
from plunder.envs.core import InvalidArgumentError

CASES = [(2, {}), (3, {}), (4, {}), (4, {"rough_seas": True}),
         (3, {"meddlesome_monkey": (1,)})]


@pytest.mark.parametrize("n,options", CASES)
def test_memory_gives_the_perfect_recall_observations(n, options):
    plain = AnchorsAweighGame(n, **options)
    recall = AnchorsAweighGame(n, perfect_recall=True, **options)
    rng = np.random.default_rng(2)
    recalled = 0
    for seed in range(3):
        a = plain.new_game(np.random.default_rng(seed))
        b = recall.new_game(np.random.default_rng(seed))
        memories = [plain.observation_memory() for _ in range(n)]
        view_memories = [plain.observation_memory() for _ in range(n)]   # fed views
        while not a.is_terminal() and a.turns < 2000:
            assert a.current_players() == b.current_players()
            for p in a.current_players():
                seen = plain.encode(a.view(p))
                want = recall.encode(b.view(p))
                got = memories[p].recall(seen)
                np.testing.assert_array_equal(got, want)
                view = view_memories[p].recall_view(a.view(p))
                assert view == b.view(p)
                np.testing.assert_array_equal(recall.encode(view), want)
                recalled += not np.array_equal(seen, want)
            joint = {p: int(rng.choice(np.flatnonzero(a.legal_actions_mask(p))))
                     for p in a.current_players()}
            a.apply_joint(joint)
            b.apply_joint(joint)
    assert recalled > 20          # the memory did fill in hidden fronts


def test_memory_reads_only_its_own_observations_and_forgets_on_reset():
    game = AnchorsAweighGame(2)
    memory = game.observation_memory()
    s = game.new_game(np.random.default_rng(0))
    first = game.encode(s.view(0))
    assert np.array_equal(memory.recall(first), first)     # fronts visible: as it is
    hidden = first.copy()
    hidden[game.layout.slice("fronts_visible")] = 0
    hidden[game.layout.slice("round_cards")] = 0
    assert not np.array_equal(memory.recall(hidden), hidden)   # remembered
    memory.reset()
    assert np.array_equal(memory.recall(hidden), hidden)        # forgotten


def test_no_memory_where_the_fronts_stay_visible_or_for_other_games():
    with pytest.raises(InvalidArgumentError, match="without perfect_recall"):
        AnchorsAweighGame(2, perfect_recall=True).observation_memory()
    from plunder.envs import game_class
    with pytest.raises(InvalidArgumentError, match="no perfect-recall variant"):
        game_class("scallywags_v0")(2).observation_memory()
    assert AnchorsAweighGame.recall_option == "perfect_recall"
