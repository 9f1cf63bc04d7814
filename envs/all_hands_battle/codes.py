"""All Hands On Deck's codes: the phases, the decisions and the action space.

Shared by the rules (``engine``, ``battles``), the encoders and the bots.
"""

from __future__ import annotations

from enum import StrEnum

from plunder.envs.core.actions import ActionRanges, Label


class Phase(StrEnum):
    """A round's phases (str members: saved states and the C twins read the names)."""

    RECRUIT = "recruit"
    BATTLE = "battle"
    OVER = "over"


RECRUIT, BATTLE, OVER = Phase
TURN, CREW, DISCARD, CLAIM, SELECT, AIM = "turn", "crew", "discard", "claim", "select", "aim"
DECISIONS = (TURN, CREW, DISCARD, CLAIM, SELECT, AIM, OVER)
MAX_EVENTS = 12


class BattleActions(ActionRanges):
    """The single Discrete action space.

    ``discard + c``: discard card c · ``master + c``: launch a ship led by card c ·
    ``crew + c``: put card c in the crew being launched · ``claim``/``no_claim``: Aargh! or
    pass · ``select + k``: attack with your ship k · ``attack + 3(d-1) + j``: attack ship j
    of the opponent d seats to your left · ``spy + 3(d-1) + j``: let your Spy look at that
    ship first · ``pass_battle``: stop attacking this round.
    """

    def __init__(self, card_names: tuple[str, ...], num_players: int, ships: int):
        C, targets = len(card_names), (num_players - 1) * ships
        super().__init__(
            [("discard", C), ("master", C), ("crew", C), ("claim", 1), ("no_claim", 1),
             ("select", ships), ("attack", targets), ("spy", targets), ("pass_battle", 1)],
            {"discard": Label("discard {item}", card_names),
             "master": Label("launch with {item}", card_names),
             "crew": Label("crew {item}", card_names),
             "claim": "Aargh! (claim the discard)", "no_claim": "pass (no claim)",
             "select": "attack with ship {k1}",
             "attack": Label("attack opponent +{row1} ship {col1}", stride=ships),
             "spy": Label("spy on opponent +{row1} ship {col1}", stride=ships),
             "pass_battle": "pass (no more attacks this round)"})
        self.ships = ships

    def target_index(self, offset: int, slot: int) -> int:
        """Index within the attack/spy blocks of ship ``slot`` of the seat ``offset`` left."""
        return (offset - 1) * self.ships + slot
