"""What one All Hands On Deck player knows (built only by ``AllHandsBattleState.view``).

Seats are absolute here (the observation encoder makes them relative). Card ids index the
game's card table (``game.cards``). Knowledge resets with every new deal: a view holds the
current round, the running totals and the previous round's scores.
"""

from __future__ import annotations

from typing import NamedTuple


class ShipView(NamedTuple):
    """One launched ship as the viewer sees it."""

    master: int                  # shipmaster card (face up: public)
    in_play: bool                # False once it has fought or been raided
    keeper: int                  # seat that scores it (the owner until a battle), -1 sunk
    crew_count: int              # face-down crew cards aboard (fewer after a raid)
    crew: tuple | None           # the crew cards if the viewer knows them (own ship, revealed
                                 # in battle, or seen by the viewer's Spy), else None
    revealed: bool               # crew shown to everyone in a battle
    spied: bool                  # the viewer's Spy has looked at it


class AllHandsBattleView(NamedTuple):
    """Public table plus the viewer's own secrets (an immutable, ``==``-comparable record;
    a NamedTuple because it is built at every env step)."""

    player: int
    num_players: int
    round: int                   # 1-based
    starter: int                 # seat that began this round's recruiting
    totals: tuple[int, ...]      # running scores per seat
    last_round: tuple[int, ...]  # per seat: score of the previous round (empty in round 1)
    phase: str                   # "recruit", "battle" or "over"
    decision: str                # "turn", "crew", "discard", "claim", "select", "aim", "over"
    actor: int                   # seat that must decide now (-1 at the end)
    turn_player: int             # whose recruiting or battle turn it is
    hand: tuple[int, ...]        # own hand (sorted card ids)
    hand_sizes: tuple[int, ...]  # per seat
    reserved: tuple[int, ...]    # per seat: the card it claimed with "Aargh!" (-1 none)
    known_with: tuple[tuple[int, ...], ...]  # per seat: claimed cards it took into hand and
                                             # has not shown since (in its hand or a crew)
    discard: tuple[int, ...]     # discard pile, bottom first (top = last)
    deck_size: int               # cards in the draw pile
    reshuffled: tuple[int, ...]  # the cards the current draw pile was shuffled from
                                 # (sorted; empty until the first reshuffle of the round)
    ships: tuple[tuple[ShipView, ...], ...]  # per seat, in launch order
    plunder: tuple[tuple[int, ...], ...]     # per seat: treasure taken by its Raiders
    launch_master: int           # shipmaster being launched right now (-1 none; public)
    launch_crew: tuple[int, ...] # crew placed so far if the viewer is the one launching
    launch_count: int            # crew cards placed so far (public)
    launched: bool               # the turn player launched a ship this turn
    claim_queue: tuple[int, ...] # seats still to be asked about the top discard, in order
    first_fleet: int             # seat that launched the fleet first (-1 none yet)
    last_turns: tuple[int, ...]  # seats still to take their last recruiting turn
    passed: tuple[bool, ...]     # per seat: passed in this round's battles
    forced: bool                 # the first fleet's compulsory attacks are under way
    selected: int                # attacking ship slot chosen by the turn player (-1 none)
    spies_used: int              # Spy looks taken by the selected ship this turn
    spied: tuple[tuple[int, int, int], ...]  # public: (spy owner, target owner, slot)
    events: tuple[str, ...]      # recent public events, oldest first
    turns: int

    @property
    def acting(self) -> tuple[int, ...]:
        """Seats that must decide now."""
        return () if self.actor < 0 else (self.actor,)
