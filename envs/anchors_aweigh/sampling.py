"""``sample_state``: a full Anchors Aweigh! state consistent with one player's view.

What the player cannot know is redrawn, keeping every count: the tiles it has not seen
(face-down pile, opponents' face-down grabs in hand and below deck; after the starfish
tiles left the ships those below-deck tiles are known to carry no starfish), where things
lie below the other ships' decks (tiles on B1-B4, cargo on free spaces or storage tiles;
while loading, cargo sits on C1 then C2), the deck order, the fronts of unrevealed cards
when they are hidden (drawn from the cards not yet revealed, matching each back), and
other players' pending choices.
"""

from __future__ import annotations

import numpy as np

from plunder.envs.core.errors import InvalidArgumentError

from .components import ABOVE, BELOW, CARGO_ONLY, NUM_SPACES, STORAGE
from .engine import (
    A_FLEE, A_PAY, A_PAY_NONE, A_SKIP, CARGO, CHEST, DECIDE, EMPTY, ENCOUNTER, LOADING,
    SETUP, AnchorsAweighState,
)
from .view import CELL_CARGO, CELL_CHEST, CELL_EMPTY, CELL_TILE, CELL_UNKNOWN

#: below-deck spaces that take tiles (B1-B4)
_B_SPACES = tuple(sp for sp in BELOW if sp not in CARGO_ONLY)


def sample_state(game, view, rng: np.random.Generator) -> AnchorsAweighState:
    """A state matching ``view`` with everything the player cannot know redrawn."""
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
    s.returns = list(view.returns)
    s.outcome = list(view.outcome)
    s.cargo_queue = [list(x) for x in view.cargo_queue]
    s.unit_colour = view.unit_colour
    s.cleansed = view.cleansed
    s.fronts_hidden = view.fronts_hidden
    _sample_tiles(game, view, rng, s)
    _sample_cards(game, view, rng, s)
    _sample_pending(view, s)
    return s


def _sample_tiles(game, view, rng, s) -> None:
    """Ships, storage cargo, hands and the pile: seen tiles by look, the others drawn."""
    n = game.num_players
    me = view.player
    pools: dict[int, list[int]] = {}
    for t in range(game.num_tiles):
        pools.setdefault(game.tile_look[t], []).append(t)
    for lst in pools.values():
        rng.shuffle(lst)
    secret = [False] * game.num_tiles
    ships = [[EMPTY] * NUM_SPACES for _ in range(n)]
    stor = [[[] for _ in range(NUM_SPACES)] for _ in range(n)]

    def put(q, sp, code, hidden=False):
        """Put what ``code`` shows on space ``sp`` of ``q``'s ship."""
        if code == CELL_CHEST:
            ships[q][sp] = CHEST
        elif code >= CELL_CARGO:
            ships[q][sp] = CARGO + code - CELL_CARGO
        elif code >= CELL_TILE:
            t = pools[code - CELL_TILE].pop()
            ships[q][sp] = t
            secret[t] = hidden

    for sp, code in enumerate(view.own_ship):
        put(me, sp, code, view.own_secret[sp])
        stor[me][sp] = list(view.own_storage[sp])
    # other ships: above deck as seen; below deck its seen tiles on random B spaces
    unknown_cells = []
    for q in range(n):
        if q == me:
            continue
        for sp in ABOVE:
            put(q, sp, view.above[q][sp])
            stor[q][sp] = list(view.above_storage[q][sp])
        spaces = [_B_SPACES[i] for i in rng.permutation(len(_B_SPACES))]
        for lk, count in enumerate(view.below[q].looks):
            for _ in range(count):
                put(q, spaces.pop(), CELL_TILE + lk)
        unknown_cells += [(q, spaces.pop()) for _ in range(view.below[q].unknown)]
    hand = [-1] * n
    unknown_hands = []
    for q in range(n):
        code = view.hands[q]
        if code == CELL_UNKNOWN:
            unknown_hands.append(q)
        elif code != CELL_EMPTY:
            t = pools[code - CELL_TILE].pop()
            hand[q] = t
            secret[t] = q == me and view.own_secret[NUM_SPACES]
    pile_up = []
    for lk, count in enumerate(view.pile_up):
        for _ in range(count):
            pile_up.append(pools[lk].pop())
    rest = [t for lst in pools.values() for t in lst]
    rng.shuffle(rest)

    def draw(q, sp, storage=False):
        """An unseen tile for an unseen below-deck place (a storage when cargo needs one;
        none with a starfish once the starfish tiles have left the ships)."""
        t = next(t for t in rest if (not view.cleansed or not game.tile_star[t])
                 and (not storage or game.tile_kind[t] == STORAGE))
        rest.remove(t)
        ships[q][sp] = t
        secret[t] = True

    cap = game.comp.storage_capacity
    for q in range(n):
        if q == me:
            continue
        below = view.below[q]
        mine = [c for c in unknown_cells if c[0] == q]
        # cargo beyond the free spaces lies on storage tiles: unseen ones if need be
        free = len(BELOW) - below.tiles
        seen_storages = below.looks[2 * STORAGE] + below.looks[2 * STORAGE + 1]
        short = max(0, sum(below.cargo) - free - cap * seen_storages)
        for _ in range(-(-short // cap)):
            draw(*mine.pop(), storage=True)
        for cell in mine:
            draw(*cell)
        _stow_below(game, view, rng, q, ships[q], stor[q], below.cargo)
    for q in unknown_hands:
        t = rest.pop()
        hand[q] = t
        secret[t] = True
    if len(rest) != view.pile_down:
        raise InvalidArgumentError("sample_state: the view and the tile counts disagree")
    s.ships, s.stor, s.hand, s.secret = ships, stor, hand, secret
    s.pile_up = sorted(pile_up)
    s.pile_down = sorted(rest)


def _stow_below(game, view, rng, q, ship, stor, cargo) -> None:
    """Lay ``q``'s below-deck cargo (counts per colour) on free spaces and storage tiles:
    while loading on C1 then C2 (the only cargo spaces then), later anywhere with room."""
    colours = [c for c, count in enumerate(cargo) for _ in range(count)]
    rng.shuffle(colours)
    if view.phase in (SETUP, LOADING):
        places = [(sp, False) for sp in CARGO_ONLY]
    else:
        kind = game.tile_kind
        places = [(sp, False) for sp in BELOW if ship[sp] == EMPTY]
        for sp in BELOW:
            if 0 <= ship[sp] < CARGO and kind[ship[sp]] == STORAGE:
                places += [(sp, True)] * game.comp.storage_capacity
        places = [places[i] for i in rng.permutation(len(places))]
    if len(places) < len(colours):
        raise InvalidArgumentError("sample_state: no room below deck for the cargo in the "
                                   "view")
    for colour, (sp, on_storage) in zip(colours, places):
        if on_storage:
            stor[sp].append(colour)
            stor[sp].sort()
        else:
            ship[sp] = CARGO + colour


def _sample_cards(game, view, rng, s) -> None:
    """The deck, the queued contracts and the current card, matching the backs."""
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
        raise InvalidArgumentError(f"sample_state: no card with back {back} left to "
                                   "sample")  # pragma: no cover

    if view.current >= 0:
        s.current, s.revealed = view.current, True
    elif view.current_back >= 0:
        s.current, s.revealed = draw(view.current_back), False
    else:
        s.current, s.revealed = -1, False
    s.queue = [draw(5 + colour) for colour in view.queue]
    deck = [draw(back) for back, count in enumerate(view.backs_left) for _ in range(count)]
    s.deck = [deck[i] for i in rng.permutation(len(deck))]



def _sample_pending(view, s) -> None:
    """Other players' pending choices (hidden until everyone has chosen): any legal one."""
    n = len(view.decided)
    me = view.player
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
