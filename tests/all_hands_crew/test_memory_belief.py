"""Crew's ``memory`` belief for the network search (policies/all_hands_crew_belief.py):
it follows every view it is given, what it remembers is true, and its sampled worlds
guess the cards the opponent put back far better than uniform draws."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from plunder.envs.all_hands_crew_v0 import Game
from plunder.policies.all_hands_crew_belief import CrewMemory
from plunder.policies.base import make_bot


def _play(game, seed, bots=None, seat=0):
    """States of one game at each decision of ``seat`` (random play unless ``bots``),
    yielded before the move is made."""
    s = game.new_game(np.random.default_rng(seed))
    rng = np.random.default_rng(1000 + seed)
    while not s.is_terminal():
        if seat in s.current_players():
            yield s
        if bots is None:
            joint = {p: int(rng.choice(np.flatnonzero(s.legal_actions_mask(p))))
                     for p in s.current_players()}
        else:
            joint = {p: int(bots[p].act(game.encode(s.view(p)), s.legal_actions_mask(p)))
                     for p in s.current_players()}
        s.apply_joint(joint)


def _possible(memory, tag) -> set:
    """Every kind ``tag`` can stand for over all choices of the remembered hires (None:
    a card never seen), as the rules allow: the cards not hired go back in stock order."""
    if tag is None or not isinstance(tag, tuple):
        return {tag}
    r, j = tag
    tags, hired = memory.records[r]
    out = set()
    for chosen in itertools.combinations(range(len(tags)), hired):
        put = [i for i in range(len(tags)) if i not in chosen]
        out |= _possible(memory, tags[put[j]])
    return out


@pytest.mark.parametrize("n,open_stock", [(2, False), (3, False), (4, False), (2, True)])
def test_the_memory_follows_every_view_and_remembers_only_true_cards(n, open_stock):
    """Fed one seat's views at its decisions, the replay of the public draws and hires
    always matches the view's piles and stocks (nothing dropped), and every card it
    remembers where the view shows none can be the card that is there."""
    game = Game(n, open_stock=open_stock)
    remembered = 0
    for seed in range(3):
        memory = CrewMemory(game)
        for s in _play(game, seed):
            view = s.view(0)
            memory.observe(view)
            assert memory.resyncs == 0
            places = [(memory.piles[q][i], s.piles[q][i])
                      for q, masks in enumerate(view.pile_masks) for i in range(len(masks))
                      if all(i != pos for pos, _ in view.pile_seen[q])]
            places += [(memory.stock[q][j], s.stock[q][j])
                       for q, slots in enumerate(view.stock)
                       for j, (kind, _) in enumerate(slots) if kind < 0]
            for tag, true in places:
                kinds = _possible(memory, tag)
                assert true in kinds or None in kinds
                remembered += kinds != {None}
    assert remembered > 0 or open_stock


def test_the_memory_guesses_the_opponents_put_back_cards():
    """Shipped 2-player networks in both seats: at the Drawing Pile positions the
    opponent knows and the seat does not, worlds sampled with the memory hold the true
    card about half the time (55% over 50 games), uniform draws about one time in ten;
    the sampled worlds still show the seat exactly its view."""
    pytest.importorskip("onnxruntime", reason="the shipped networks need the onnx extra")
    game = Game(2)
    bots = [make_bot("pretrained:final", "all_hands_crew_v0", 2, seed=p) for p in range(2)]
    rng = np.random.default_rng(0)
    places = memory_right = uniform_right = 0
    for seed in range(12):
        memory = CrewMemory(game)
        for s in _play(game, 90000 + seed, bots):
            view = s.view(0)
            memory.observe(view)
            with_memory = game.sample_state(view, rng, **memory.sample_kwargs(view, rng))
            assert with_memory.view(0) == view
            uniform = game.sample_state(view, rng)
            for i, m in enumerate(view.pile_masks[1]):
                if m == 0b10:
                    places += 1
                    memory_right += with_memory.piles[1][i] == s.piles[1][i]
                    uniform_right += uniform.piles[1][i] == s.piles[1][i]
    assert places > 500
    assert memory_right / places > 0.4 and uniform_right / places < 0.2


def test_the_memory_starts_again_for_another_seat_or_game():
    """``reset`` forgets; a view of another seat, or one it cannot follow from the last
    (a jump in the game), starts from that view, counting the jump."""
    game = Game(2)
    states = [s.clone() for s in _play(game, 7)]
    memory = CrewMemory(game)
    memory.observe(states[0].view(0))
    memory.observe(states[-1].view(0))          # rounds later: cannot be followed
    assert memory.resyncs == 1
    assert memory.records == [] and memory.evidence == []
    memory.reset()
    assert memory.last is None and memory.resyncs == 0
    with pytest.raises(ValueError, match="observe"):
        memory.sample_kwargs(states[0].view(0), np.random.default_rng(0))


def test_bad_put_back_weights_are_refused():
    """One share in [0, 1] per kind, or a clear error."""
    from plunder.envs.core import InvalidArgumentError

    for bad in ((0.5,) * 8, (0.5,) * 8 + (1.5,), (-0.1,) + (0.5,) * 8, "memory", None):
        with pytest.raises(InvalidArgumentError, match="put_back_weights"):
            CrewMemory(Game(2), put_back_weights=bad)
