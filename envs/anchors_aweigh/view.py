"""What one Anchors Aweigh! player knows (built only by ``AnchorsAweighState.view``).

Ship cells and hands use small codes (see ``CELL_*``): a tile is shown by its *look*
(kind and starfish), never by its id, so tiles that look alike are interchangeable.

Below deck (B1-B4, C1-C2) is behind the ship's screen: the others see what goes in and
comes out (a tile seen face up, cargo of a public colour, a tile returned face up), never
where it lies. So a ship is public as its eight above-deck spaces plus a :class:`BelowDeck`
summary, and only its owner sees the 14 spaces (``own_ship``, ``own_storage``).

A view is the player's own secrets plus a :class:`PublicView` that is the same object for
every player of one position (built once per position, so observing n players costs one
public build). Attribute access falls through to the public part: ``view.coins``;
``view.hands`` is the public one with the player's own hand filled in.
"""

from __future__ import annotations

from typing import NamedTuple

#: ship cell codes in a view
CELL_EMPTY = 0
CELL_UNKNOWN = 1      # a tile this player cannot see (grabbed face down and held)
CELL_CHEST = 2
CELL_TILE = 3         # + look (kind * 2 + starfish), 20 looks
CELL_CARGO = 23       # + colour
NUM_CELLS = 27
#: hand codes: CELL_EMPTY, CELL_UNKNOWN, or CELL_TILE + look


def look(kind: int, star: bool) -> int:
    """The look code of a tile (what anyone seeing its face sees)."""
    return kind * 2 + int(star)


class BelowDeck(NamedTuple):
    """What everyone knows of one ship's below deck (B1-B4, C1-C2): its contents, not where
    they lie."""

    looks: tuple[int, ...]           # tiles everyone has seen there, count per look (20)
    unknown: int                     # tiles only the owner has seen (grabbed face down)
    cargo: tuple[int, ...]           # cargo per colour, on spaces or on storage tiles

    @property
    def tiles(self) -> int:
        """Tiles below deck, seen or not."""
        return sum(self.looks) + self.unknown


class PublicView(NamedTuple):
    """What everybody knows. Seats are absolute; hidden tiles show as CELL_UNKNOWN."""

    num_players: int
    round: int                       # 1 or 2
    phase: int                       # engine phase id (engine.PHASES)
    turns: int
    acting: tuple[int, ...]          # who must decide now (public)
    captain: int                     # -1 before the captain's call
    above: tuple[tuple[int, ...], ...]          # per seat: cell codes of A1-A8
    above_storage: tuple[tuple[tuple[int, ...], ...], ...]  # per seat, A1-A8: storage cargo
    below: tuple[BelowDeck, ...]                # per seat: what is known below deck
    hands: tuple[int, ...]           # per seat: hand code, as others see it
    coins: tuple[int, ...]
    chests: tuple[int, ...]
    parrots: tuple[int, ...]
    meddlesome: tuple[bool, ...]
    pile_up: tuple[int, ...]         # face-up tiles in the pile, count per look (20)
    pile_down: int                   # face-down tiles in the pile
    supply: tuple[int, ...]          # cargo per colour
    chest_supply: int
    parrot_supply: int
    fronts: tuple[int, ...] | None   # unrevealed card ids of this round (None: hidden)
    fronts_hidden: bool              # the captain has called this round
    backs_left: tuple[int, ...]      # cards still in the deck, count per back (9)
    queue: tuple[int, ...]           # featured colours of the contracts moved to the bottom
    current: int                     # current card id if revealed, else -1
    current_back: int                # back of the current card (-1 none)
    used: tuple[int, ...]            # card ids revealed and gone (public history)
    encounter: tuple[int, ...]       # per seat: -1 not asked/undecided, 0 fled, 1 encounter
    outcome: tuple[int, ...]         # per seat: last applied decision (engine.OUTCOMES)
    decided: tuple[bool, ...]        # per seat: has a pending choice in this decision
    cargo_queue: tuple[tuple[int, int], ...]   # (seat, unit) rewards still to hand out
    unit_colour: int                 # colour of the unit being stowed (-1 none)
    cleansed: bool                   # the starfish tiles left the ships this round
    full: tuple[bool, ...]           # per seat: ship full while loading (it waits)
    returns: tuple[int, ...]         # per seat: tiles returned since it last placed one


class AnchorsAweighView(NamedTuple):
    """Everything one player knows: its own secrets and the public table."""

    player: int
    own_ship: tuple[int, ...]        # own 14 cells, own hidden tiles shown
    own_storage: tuple[tuple[int, ...], ...]   # own 14 spaces: colours on a storage tile
    own_hand: int                    # own hand code
    own_secret: tuple[bool, ...]     # own spaces (14) + hand: tiles the others cannot see
    own_pending: int                 # own pending action (-1 none)
    pub: PublicView

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.pub, name)

    @property
    def hands(self) -> tuple[int, ...]:
        """Every seat's hand code as this player sees it (its own tile shown)."""
        h = list(self.pub.hands)
        h[self.player] = self.own_hand
        return tuple(h)
