"""The board format: a game's table as clickable elements, built from one seat's view.

A board is plain JSON the page draws without knowing the game::

    {"zones": [{"title": "Middle", "note": "...", "actions": [...],
                "items": [{"label": "#17", "detail": "5", "kind": "coin",
                           "tags": ["face-up"], "actions": [35], "cells": null}, ...]}]}

A zone is a part of the table (the middle, a seat's take, your hand, a ship); an item is
a thing on it (a coin, a card, a crate, a tile, a ship's space). ``actions`` lists the
*legal* moves that name the thing (a coin the move picks, a card it plays or discards, a
space it places on): the page makes the thing clickable, and asks which move is meant when
there are several. ``cells`` is a small grid of cell tokens (ShipShape's crates and holds).

Each game's builder is ``board(game, view, legal)`` in its ``render`` module, named by its
spec (``GameSpec.board``); the web page calls it (``plunder.training.web.boards``). Every
builder reads only the view it is given (what that seat knows) and the game's
public tables (card names, action layout); the legal moves come from the caller. Moves no
thing names (pass, allow, resolve the card) are the page's move buttons, which always list
every legal move by its label (``plunder.envs.core.guide.move_labels``, from the same view).
"""

from __future__ import annotations

from collections.abc import Iterable


def item(label: str, detail: str = "", kind: str = "", tags: Iterable[str] = (),
         actions: Iterable[int] = (), cells: list[list[str]] | None = None) -> dict:
    """One thing on the table."""
    return {"label": label, "detail": detail, "kind": kind, "tags": list(tags),
            "actions": list(actions), "cells": cells}


def zone(title: str, items: list[dict], actions: Iterable[int] = (), note: str = "") -> dict:
    """One part of the table; ``actions`` are moves that name the part itself (a seat)."""
    return {"title": title, "note": note, "actions": list(actions), "items": items}


def legal_subset(legal: set[int], candidates: Iterable[int]) -> list[int]:
    """The candidates that are legal now, in the given order."""
    return [a for a in candidates if a in legal]


def count(number: int, noun: str) -> str:
    """``1 card``, ``3 cards``."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


def seat_title(game, seat: int, me: int) -> str:
    """A seat's name, ``(you)`` for the viewer."""
    return game.seat_name(seat) + (" (you)" if seat == me else "")
