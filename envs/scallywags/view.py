"""What one Scallywags player knows (built only by ``ScallywagsState.python_view`` and, for
the compiled engine's states, its ``State.view``, _engine.c)."""

from __future__ import annotations

from typing import NamedTuple


class ScallywagsView(NamedTuple):
    """Public table plus the player's own secrets. Seats are absolute; -1 is the middle.

    An immutable named tuple: cheap to build every step, compared with ``==``."""

    player: int
    num_players: int
    take_limit: int
    coin_values: tuple[int, ...] # per coin: value if face up or known to player, else -1
    face_up: tuple[bool, ...]    # per coin (public)
    coin_owner: tuple[int, ...]  # per coin: seat whose take holds it, -1 in the middle
    coin_slot: tuple[int, ...]   # per coin: 1-based position in its take, 0 in the middle
    knowers: tuple[int, ...]     # per coin: bitmask of seats who have seen it (public)
    hand: tuple[int, ...]        # own hand: count of each card kind
    hand_sizes: tuple[int, ...]  # per seat
    discard: tuple[int, ...]     # discard pile: count of each card kind
    reshuffled: tuple[int, ...]  # the last reshuffled draw pile, per kind (all 0 before)
    draw_size: int
    actor: int                   # whose turn it is
    phase: str                   # "choose", "target" or "block"
    card: int                    # card being played (-1 none)
    chosen: tuple[int, ...]      # its targets chosen so far (coin ids, then seats)
    block_queue: tuple[int, ...] # touched seats still to be asked
    acting: tuple[int, ...]      # who must decide now
    turns: int

    @property
    def takes(self) -> tuple[tuple[int, ...], ...]:
        """Per seat: coin ids in order of arrival (from ``coin_owner`` and ``coin_slot``)."""
        takes = [[] for _ in range(self.num_players)]
        for coin, (seat, slot) in enumerate(zip(self.coin_owner, self.coin_slot)):
            if seat >= 0:
                takes[seat].append((slot, coin))
        return tuple(tuple(c for _, c in sorted(t)) for t in takes)
