"""``sample_state``: a full Anchors Aweigh! state consistent with one player's view.

What the player cannot know is redrawn, keeping every count: the tiles it has not seen
(face-down pile, opponents' face-down grabs in hand and below deck; after the starfish
tiles left the ships those below-deck tiles are known to carry no starfish), the deck
order, the fronts of unrevealed cards when they are hidden (drawn from the cards not yet
revealed, matching each back), and other players' pending choices.
"""

from __future__ import annotations

import numpy as np

from .components import NUM_SPACES
from .engine import (
    A_FLEE, A_PAY, A_PAY_NONE, A_SKIP, CARGO, CHEST, DECIDE, EMPTY, ENCOUNTER,
    AnchorsAweighState,
)
from .view import CELL_CARGO, CELL_CHEST, CELL_EMPTY, CELL_TILE, CELL_UNKNOWN


def sample_state(game, view, rng: np.random.Generator) -> AnchorsAweighState:
    n = game.num_players
    me = view.player
    s = AnchorsAweighState(game, np.random.default_rng(int(rng.integers(2**63 - 1))))
    s.turns = view.turns
    s.phase = view.phase
    s.round = view.round
    s.captain = view.captain
    s.supply = list(view.supply)
    s.chest_supply = view.chest_supply
    s.parrot_supply = view.parrot_supply
    s.coins = list(view.coins)
    s.chests = list(view.chests)
    s.parrots = list(view.parrots)
    s.encounter = list(view.encounter)
    s.outcome = list(view.outcome)
    s.cargo_queue = [list(x) for x in view.cargo_queue]
    s.unit_colour = view.unit_colour
    s.cleansed = view.cleansed
    s.fronts_hidden = view.fronts_hidden
    s.stor = [[list(x) for x in sp] for sp in view.storage]

    # ---- tiles --------------------------------------------------------------------------
    pools: dict[int, list[int]] = {}
    for t in range(game.num_tiles):
        pools.setdefault(game.tile_look[t], []).append(t)
    for lst in pools.values():
        rng.shuffle(lst)
    secret = [False] * game.num_tiles
    ships = [[EMPTY] * NUM_SPACES for _ in range(n)]
    unknown_cells = []
    for q in range(n):
        for sp, code in enumerate(view.ships[q]):
            if code == CELL_EMPTY:
                continue
            if code == CELL_CHEST:
                ships[q][sp] = CHEST
            elif code >= CELL_CARGO:
                ships[q][sp] = CARGO + code - CELL_CARGO
            elif code == CELL_UNKNOWN:
                unknown_cells.append((q, sp))
            else:
                t = pools[code - CELL_TILE].pop()
                ships[q][sp] = t
                if q == me and view.own_secret[sp]:
                    secret[t] = True
    hand = [-1] * n
    unknown_hands = []
    for q in range(n):
        code = view.hands[q]
        if code == CELL_UNKNOWN:
            unknown_hands.append(q)
        elif code != CELL_EMPTY:
            t = pools[code - CELL_TILE].pop()
            hand[q] = t
            if q == me and view.own_secret[NUM_SPACES]:
                secret[t] = True
    pile_up = []
    for lk, count in enumerate(view.pile_up):
        for _ in range(count):
            pile_up.append(pools[lk].pop())
    rest = [t for lst in pools.values() for t in lst]
    rng.shuffle(rest)
    if view.cleansed:
        plain = [t for t in rest if not game.tile_star[t]]
        for q, sp in unknown_cells:
            t = plain.pop()
            rest.remove(t)
            ships[q][sp] = t
            secret[t] = True
    else:
        for q, sp in unknown_cells:
            t = rest.pop()
            ships[q][sp] = t
            secret[t] = True
    for q in unknown_hands:
        t = rest.pop()
        hand[q] = t
        secret[t] = True
    assert len(rest) == view.pile_down, "view and tile counts disagree"
    s.ships, s.hand, s.secret = ships, hand, secret
    s.pile_up = sorted(pile_up)
    s.pile_down = sorted(rest)

    # ---- cards --------------------------------------------------------------------------
    cards = game.cards
    s.used = list(view.used)
    if view.fronts is not None:
        pool = list(view.fronts)
    else:
        gone = set(view.used) | ({view.current} if view.current >= 0 else set())
        pool = [c.index for c in cards if c.index not in gone]
    pool = [pool[i] for i in rng.permutation(len(pool))]

    def draw(back: int) -> int:
        for i, c in enumerate(pool):
            if cards[c].back == back:
                return pool.pop(i)
        raise AssertionError(f"no card with back {back} left to sample")  # pragma: no cover

    if view.current >= 0:
        s.current, s.revealed = view.current, True
    elif view.current_back >= 0:
        s.current, s.revealed = draw(view.current_back), False
    else:
        s.current, s.revealed = -1, False
    s.queue = [draw(5 + colour) for colour in view.queue]
    deck = [draw(back) for back, count in enumerate(view.backs_left) for _ in range(count)]
    s.deck = [deck[i] for i in rng.permutation(len(deck))]

    # ---- pending choices ------------------------------------------------------------------
    pending = [-1] * n
    for q in range(n):
        if not view.decided[q]:
            continue
        if q == me:
            pending[q] = view.own_pending
        elif view.phase == DECIDE:
            pending[q] = A_SKIP
        elif view.phase == ENCOUNTER:
            pending[q] = A_FLEE
        else:
            held = s._cargo_counts(q)
            pending[q] = next((A_PAY + c for c in range(4) if held[c]), A_PAY_NONE)
    s.pending = pending
    return s
