"""All Hands on Deck's codes: the phases of a round and the action space.

Shared by the rules (``engine``, ``rounds``), the encoders and the bots.
"""

from __future__ import annotations

from enum import StrEnum

from plunder.envs.core.actions import ActionRanges, Label


class Phase(StrEnum):
    """A round's phases (str members: saved states and the C twins read the names)."""

    DRAW = "draw"
    SPYGLASS = "spyglass"
    HIRE = "hire"
    LAY = "lay"
    TARGET = "target"
    OVER = "over"


PHASES = tuple(Phase)


def _draw_name(k: int) -> str:
    """The name of drawing from the pile ``k`` seats clockwise."""
    return "draw from own pile" if k == 0 else f"draw from the pile {k} seat(s) clockwise"


def action_ranges(num_players: int, max_stock: int, combo_names: tuple[str, ...]) -> ActionRanges:
    """The single Discrete action space: draw from the pile d seats clockwise
    (``draw + d``), hire stock card i, lay out combination c, choose the player d seats
    clockwise (``target + d - 1``), pass."""
    return ActionRanges(
        [("draw", num_players), ("hire", max_stock), ("lay", len(combo_names)),
         ("target", num_players - 1), ("pass_turn", 1)],
        {"draw": _draw_name, "hire": "hire stock card {k1}",
         "lay": Label("lay out {item}", combo_names),
         "target": "choose the player {k1} seat(s) clockwise",
         "pass_turn": "pass (end / forfeit)"})
