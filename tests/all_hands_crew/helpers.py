"""Helpers for the All Hands on Deck tests: scripted states and random play."""

from __future__ import annotations

import numpy as np

from plunder.envs.all_hands_crew.components import NUM_KINDS
from plunder.envs.all_hands_crew_v0 import Game

COOK, GUNNER, LOOKOUT, CARPENTER, NAVIGATOR, BOSUN, ANCHOR, CUTLASS, KRAKEN = range(9)


def crew(**counts) -> list[int]:
    """A crew vector from names: crew(cook=2, kraken=1)."""
    names = ["cook", "gunner", "lookout", "carpenter", "navigator", "bosun", "anchor",
             "cutlass", "kraken"]
    out = [0] * NUM_KINDS
    for name, c in counts.items():
        out[names.index(name)] = c
    return out


def make_state(n=2, piles=None, crews=None, start=0, open_stock=False, seed=0):
    """A fresh round-1 state with scripted piles (bottom->top) and crews.

    Cards not placed anywhere go out of the game so the totals still add up.
    """
    game = Game(n, open_stock=open_stock)
    s = game.new_initial_state(np.random.default_rng(seed))
    if piles is not None:
        s.piles = [list(p) for p in piles]
        s.pile_known = [[0] * len(p) for p in piles]
    if crews is not None:
        s.crew = [list(c) for c in crews]
    s.start = start
    s.actor = start
    used = [0] * NUM_KINDS
    for p in range(n):
        for k in s.piles[p]:
            used[k] += 1
        for k in range(NUM_KINDS):
            used[k] += s.crew[p][k]
    s.out = [game.copies[k] - used[k] for k in range(NUM_KINDS)]
    assert min(s.out) >= 0, "scripted cards exceed the deck"
    return s


def lay_pairs(state, seat, kind, count=1):
    """Record ``count`` pairs of ``kind`` as laid out by ``seat`` earlier (so that a test
    may grant the actions they give); the cards come out of the game, else off the
    bottom of the Drawing Piles."""
    g = state.game
    (ci,) = [i for i, cb in enumerate(g.combos)
             if cb.category == "pair" and cb.counts[kind] == 2]
    for _ in range(2 * count):
        if state.out[kind]:
            state.out[kind] -= 1
            continue
        pile = next(p for p in state.piles if kind in p)
        i = pile.index(kind)
        del pile[i]
        del state.pile_known[state.piles.index(pile)][i]
    state.laid[seat] += [ci] * count


def act(state, player, name_or_index):
    """Apply one action of ``player`` (an index, or a name as ``Game.action_name`` gives)."""
    g = state.game
    if isinstance(name_or_index, str):
        matches = [a for a in range(g.num_actions) if g.action_name(a) == name_or_index]
        assert matches, f"no action named {name_or_index!r}"
        name_or_index = matches[0]
    state.apply_joint({player: int(name_or_index)})


def lay_index(game, name):
    """The action index laying combination ``name``."""
    names = [cb.name for cb in game.combos]
    return game.actions.lay + names.index(name)


def random_joint(state, rng):
    """A random legal action for every current player."""
    return {p: int(rng.choice(np.flatnonzero(state.legal_actions_mask(p))))
            for p in state.current_players()}


def play_to_lay(state, hire_slot=0):
    """Draw from own pile for everyone and hire ``hire_slot``; stop at the laying phase."""
    g = state.game
    while state.phase in ("draw", "spyglass"):
        p = state.actor
        mask = state.legal_actions_mask(p)
        a = 0 if mask[0] else int(np.flatnonzero(mask)[0])
        state.apply_joint({p: a})
    while state.phase == "hire":
        joint = {}
        for p in state.current_players():
            mask = state.legal_actions_mask(p)
            slot = g.actions.hire + hire_slot
            joint[p] = slot if mask[slot] else int(np.flatnonzero(mask)[0])
        state.apply_joint(joint)


def pass_all_lays(state):
    """Everyone passes in the laying phase (ends the round)."""
    g = state.game
    while state.phase == "lay":
        state.apply_joint({state.actor: g.actions.pass_turn})
