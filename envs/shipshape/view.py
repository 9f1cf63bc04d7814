"""What one ShipShape seat knows: the whole public table, and nothing pending.

Everything in ShipShape is public except the card each player picks before the reveal and
the order of the Cap'n's face-down deck. Picks are never in the state before the reveal
(the AEC env holds them until every decider is in), so a view is the public table (the
Cap'n's deck appears as its sorted contents) plus the seat and what it must decide now.

The table is one immutable snapshot shared by every seat's view of the same position, so
building views is cheap; ``encode`` caches derived arrays on it (``derived``, which takes
no part in comparisons).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class PublicTable:
    """The public facts of one position. Seats are absolute (the Cap'n is seat n)."""

    #: seats that must decide now
    acting: tuple[int, ...]
    voyage: int
    turn: int
    turns: int
    done: bool
    #: crew cards in each seat's hand (public knowledge from the revealed bids); the
    #: Cap'n's entry is his deck's contents, sorted (its order is hidden)
    hands: tuple[tuple[int, ...], ...]
    discards: tuple[tuple[int, ...], ...]
    coins: tuple[int, ...]
    #: hold number of every seat per voyage so far (last = current)
    hold_history: tuple[tuple[int, ...], ...]
    #: (crate id, orientation) on each seat's hold this voyage, bottom first
    placed: tuple[tuple[tuple[int, int], ...], ...]
    #: top-down cell codes of each seat's hold
    visible: tuple[tuple[int, ...], ...]
    #: each group's crate stack, top first: (crate id, orientation as it lies)
    stacks: tuple[tuple[tuple[int, int], ...], ...]
    #: crate ids not drawn yet in this game
    unused: tuple[int, ...]
    #: per group: seats still to get a crate this turn; the bidding stage (1 or 2)
    need: tuple[tuple[int, ...], ...]
    stage: tuple[int, ...]
    #: per group: (seat, crate id, orientation in the stack) taken, to be placed now
    placing: tuple[tuple[tuple[int, int, int], ...], ...]
    #: every revealed bid: (voyage, turn, stage, seat, card)
    bids: tuple[tuple[int, int, int, int, int], ...]
    #: per finished voyage, per seat: (gold, cannons, contraband, full_ship, raw, coins)
    voyage_scores: tuple[tuple[tuple[int, ...], ...], ...]
    #: encoder cache (not compared)
    derived: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def holds(self) -> tuple[int, ...]:
        """Every seat's current hold number."""
        return self.hold_history[-1]

    @classmethod
    def make(cls, **fields: Any) -> "PublicTable":
        """``PublicTable(**fields)``, every field but ``derived`` given, without the frozen
        dataclass's ``__init__`` (it sets each field through ``object.__setattr__``, most
        of the cost of a table built once per position)."""
        return cls.from_fields(fields)

    @classmethod
    def from_fields(cls, fields: dict[str, Any]) -> "PublicTable":
        """``make(**fields)`` from a dict, which the table takes over (``derived`` added)."""
        table = cls.__new__(cls)
        fields["derived"] = {}
        table.__dict__.update(fields)
        return table


@dataclass(frozen=True)
class ShipShapeView:
    """One seat's knowledge: the public table, the seat, and what it must decide now
    (``"bid"``, ``"place"`` or ``""``). Table fields read through: ``view.hands`` is
    ``view.table.hands``."""

    player: int
    decision: str
    table: PublicTable

    @classmethod
    def make(cls, player: int, decision: str, table: PublicTable) -> "ShipShapeView":
        """``ShipShapeView(player, decision, table)`` without the frozen dataclass's
        ``__init__`` (as ``PublicTable.make``): one view per decision."""
        view = object.__new__(cls)
        fields = view.__dict__
        fields["player"] = player
        fields["decision"] = decision
        fields["table"] = table
        return view

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "table":
            raise AttributeError(name)
        return getattr(self.table, name)
