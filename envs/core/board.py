"""The board format: a game's table as things to draw and click, built from one seat's view.

A board is plain JSON the page draws without knowing the game::

    {"zones": [{"title": "Middle", "note": "...", "actions": [...], "seat": null,
                "key": "middle", "layout": "",
                "items": [{"label": "#17", "detail": "5", "kind": "coin",
                           "tags": ["face-up"], "actions": [35], "cells": null,
                           "seat": null, "stats": [], "text": "", "key": "coin:17",
                           "group": "", "after": null}, ...]}]}

A zone is a part of the table (the middle, a seat's take, your hand, a ship); an item is
a thing on it (a coin, a card, a crate, a tile, a ship's space). What the page draws:

- ``kind`` says how (``coin``, ``card``, ``crate``, ``hold``, ``tile``, ``space``,
  ``cargo``, ``ship``, ``pile``, ``combo``, ``token``); ``tags`` refine it (``face-down``,
  ``known``, a suit or colour name, ``starfish``, ``revealed``...);
- ``label`` is the thing's name, ``detail`` a short line under it, ``stats`` the numbers
  that matter as ``[name, value]`` pairs (a card's level, a combination's points; the
  page writes ``20 points``, and ``stat`` makes a counted noun agree with its number, as
  ``count`` does in titles and notes: ``1 point``), ``text`` one sentence of what it does;
- ``seat`` is the seat it belongs to (drawn in that seat's colour), None for nobody's;
- ``cells`` a 3x3 grid of cell tokens (ShipShape's crates and holds), ``after`` the grid
  of the hold once this crate is placed (a preview);
- ``group`` splits a zone's items into rows (a ship's decks), ``layout`` names how the
  zone is drawn (``ship``: a hull around its rows).

``actions`` lists the *legal* moves that name the thing (a coin the move picks, a card it
plays or discards, a space it places on): the page makes the thing clickable (its tooltip
and accessible name the moves' labels), and asks which move is meant when there are
several. Moves no thing names (pass, allow, resolve the card) are the page's move
buttons, which always list every legal move by its label
(``plunder.envs.core.guide.move_labels``, from the same view).

``key`` names a thing or zone stably (``coin:17``, ``seat:2``): the page marks the things
each player's last move touched by these keys (each game's ``last_keys``), and the zone of
seat ``k`` is keyed ``seat:k``.

Each game's builders live in its ``render`` module: ``board(game, view, legal, end=None)``
(named by its spec, ``GameSpec.board``) reads only the view it is given (what that seat
knows), the game's public tables (card names, action layout) and ``end``, the facts the
rules make public once the game is over (``end_facts(state)``, None before); the legal
moves come from the caller. ``full_board(game, state)`` is the omniscient board of a
watched game or a replay: the only builder that reads the whole state.
``last_keys(game, view, seat, action)`` names the things a move touched, from the view
(before the move) of the player who learns of it; ``action`` is None for a move that
player does not see, and the keys then name only what the step shows of it. The web
page calls them through ``plunder.training.web.boards``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def item(label: str, detail: str = "", kind: str = "", tags: Iterable[str] = (),
         actions: Iterable[int] = (), cells: list[list[str]] | None = None, *,
         seat: int | None = None, stats: Iterable[tuple[str, int | str]] = (),
         text: str = "", key: str = "", group: str = "",
         after: list[list[str]] | None = None) -> dict:
    """One thing on the table."""
    return {"label": label, "detail": detail, "kind": kind, "tags": list(tags),
            "actions": list(actions), "cells": cells, "seat": seat,
            "stats": [[str(name), value] for name, value in stats], "text": text,
            "key": key, "group": group, "after": after}


def zone(title: str, items: list[dict], actions: Iterable[int] = (), note: str = "", *,
         seat: int | None = None, key: str = "", layout: str = "") -> dict:
    """One part of the table; ``actions`` are moves that name the part itself (a seat);
    ``seat`` the seat it belongs to (its zone is keyed ``seat:K`` unless ``key`` says
    otherwise)."""
    if not key and seat is not None:
        key = seat_key(seat)
    return {"title": title, "note": note, "actions": list(actions), "items": items,
            "seat": seat, "key": key, "layout": layout}


def seat_key(seat: int) -> str:
    """The key of a seat's zone."""
    return f"seat:{seat}"


def legal_subset(legal: set[int], candidates: Iterable[int]) -> list[int]:
    """The candidates that are legal now, in the given order."""
    return [a for a in candidates if a in legal]


def plural(noun: str) -> str:
    """The plural of an English noun (or of a name's last word): ``cards``, ``Captain
    Cutlasses``, ``boxes``, ``Bounties``."""
    last = noun.rsplit(" ", 1)[-1].lower()
    if last.endswith(("s", "x", "z", "ch", "sh")):
        return noun + "es"
    if len(last) > 1 and last.endswith("y") and last[-2] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


def count(number: int, noun: str) -> str:
    """``1 card``, ``3 cards``, ``2 Captain Cutlasses``."""
    return f"{number} {noun if abs(number) == 1 else plural(noun)}"


def stat(noun: str, value: int) -> tuple[str, int]:
    """A counted number of an item's ``stats``, its noun agreeing with it: ``("point", 1)``,
    ``("points", 20)``."""
    return (noun if abs(value) == 1 else plural(noun), value)


def seat_title(game, seat: int, me: int | None) -> str:
    """A seat's name, ``(you)`` for the viewer (None: an omniscient board, nobody's)."""
    return game.seat_name(seat) + (" (you)" if seat == me else "")


def grid(tokens: Sequence[str], width: int = 3) -> list[list[str]]:
    """A flat row-major list of cell tokens as rows of ``width``."""
    return [list(tokens[r:r + width]) for r in range(0, len(tokens), width)]


def board_of(zones: list[dict], headline: str = "") -> dict:
    """A board: its zones and a line saying where the game stands (optional)."""
    return {"zones": zones, "headline": headline}
