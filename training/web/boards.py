"""The table of each game as clickable elements, built from one seat's view.

The board format and its helpers live in :mod:`plunder.envs.core.board`; each game's
builder is named by its spec (``GameSpec.board``: ``board(game, view, legal)`` in the
game's ``render`` module).
"""

from __future__ import annotations

from collections.abc import Iterable

from plunder.envs import env_ids, spec
from plunder.envs.core.board import count, item, legal_subset, seat_title, zone
from plunder.envs.core.registry import SpecTable
from plunder.envs.core.spec import resolve

__all__ = ["BOARDS", "board", "count", "item", "legal_subset", "seat_title", "zone"]

#: env id -> ``"module:function"`` of its board builder, read from the specs
BOARDS = SpecTable(lambda s: s.board)


def board(game, view, legal: Iterable[int]) -> dict:
    """The board of ``view`` with ``legal`` moves clickable (no zones for a game without a
    builder: the page then shows the text rendering and move buttons only)."""
    env_id = game.env_id()
    path = spec(env_id).board if env_id in env_ids() else None
    if path is None:
        return {"zones": []}
    return resolve(path)(game, view, set(int(a) for a in legal))
