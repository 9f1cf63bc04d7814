"""The table of each game as things to draw and click: from one seat's view, or omniscient.

The board format and its helpers live in :mod:`plunder.envs.core.board`; each game's
builders are in its ``render`` module, the seat's builder named by its spec
(``GameSpec.board``), the others beside it:

- ``board(game, view, legal, end=None)``: what one seat sees (``seat_board`` here);
- ``full_board(game, state)``: everything face up, for a watched game or a replay only
  (``omniscient_board``): the one builder that reads the whole state;
- ``end_facts(state)``: what the rules show everyone when the game is over (coins turned
  over for the count), None for a game whose view already holds it;
- ``last_keys(game, view, seat, action)``: the things (their ``key``) a move touched, as
  the player of ``view`` learns of it.

``omniscient_lines`` writes the move log of a watched game with every move named;
``last_moves`` finds every player's last move in a game's record as one observer knows it
(the move itself only where the rules show it, ``core.movelog.action_is_public``), and
``deciding_line`` says in one sentence what decided a finished game.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Sequence
from typing import Any

from plunder.envs import env_ids, spec
from plunder.envs.core.board import count, item, legal_subset, seat_title, zone
from plunder.envs.core.movelog import action_is_public, describe_views, who
from plunder.envs.core.registry import SpecTable
from plunder.envs.core.spec import resolve

__all__ = ["BOARDS", "board", "count", "deciding_line", "end_facts", "item", "last_moves",
           "legal_subset", "omniscient_board", "seat_board", "seat_title", "zone"]

#: env id -> ``"module:function"`` of its board builder, read from the specs
BOARDS = SpecTable(lambda s: s.board)


def _builder(game, name: str):
    """The game's render function ``name`` beside its board builder (None: none)."""
    env_id = game.env_id()
    path = spec(env_id).board if env_id in env_ids() else None
    if path is None:
        return None
    if name == "board":
        return resolve(path)
    return getattr(importlib.import_module(path.partition(":")[0]), name, None)


def seat_board(game, view, legal: Iterable[int], end: Any = None) -> dict:
    """The board of ``view`` with ``legal`` moves clickable and, once the game is over,
    ``end`` (``end_facts``) shown (no zones for a game without a builder: the page then
    shows the text rendering and move buttons only)."""
    build = _builder(game, "board")
    if build is None:
        return {"zones": [], "headline": ""}
    legal = set(int(a) for a in legal)
    return build(game, view, legal) if end is None else build(game, view, legal, end=end)


#: the former name
board = seat_board


def omniscient_board(game, state) -> dict | None:
    """Every hidden fact face up (a watched game or a replay only; never a played one):
    the game's ``full_board``, None for a game without one."""
    build = _builder(game, "full_board")
    return None if build is None else build(game, state)


def end_facts(game, state) -> Any:
    """The facts a finished game shows everyone (``end_facts`` of the game's render
    module; None where the views already hold them)."""
    build = _builder(game, "end_facts")
    return None if build is None else build(state)


def last_moves(game, states: Sequence, moves: Sequence[dict[int, int]], upto: int,
               observer: int | None, lines: Sequence[Sequence[str]]) -> list[dict]:
    """Each player's last move before state ``upto``, as ``observer`` knows it (None:
    omniscient): ``{seat, step, lines, keys}``, where ``lines`` are the move log's lines of
    that step (``lines[i]`` of step ``i``) and ``keys`` name the things the move touched
    (for a move the observer does not see, only what the step showed of it: the game's
    ``last_keys`` is given no action)."""
    keys_of = _builder(game, "last_keys")
    found: dict[int, int] = {}
    for i in range(upto - 1, -1, -1):
        for seat in moves[i]:
            found.setdefault(int(seat), i)
        if len(found) == game.num_players:     # (env-driven seats make no moves)
            break
    out = []
    for seat in sorted(found):
        i = found[seat]
        action = int(moves[i][seat])
        before = states[i].view(seat if observer is None else observer)
        public = observer is None or action_is_public(game, before, seat, action)
        keys = keys_of(game, before, seat, action if public else None) if keys_of else []
        out.append({"seat": seat, "step": i + 1, "keys": list(keys),
                    "lines": list(lines[i]) if i < len(lines) else []})
    return out


def omniscient_lines(game, before, joint: dict[int, int], after) -> list[str]:
    """The move log's lines of one step for an omniscient watcher: the game's own lines
    as the first acting seat learns them (every move of the step named to it, since
    every move is shown), its "(you)" and "your" written as the seat's name."""
    seat = min(int(s) for s in joint)
    moves = {int(s): int(a) for s, a in joint.items()}
    lines = describe_views(game, before.view(seat), after.view(seat), tuple(sorted(moves)),
                           moves, seat)
    name = game.seat_name(seat)
    return [re.sub(r"\byour\b", f"{name}'s", line.replace(who(game, seat, seat), name))
            for line in lines]


def _number(value: float) -> str:
    """A score as the page writes it: whole numbers without a point."""
    return f"{value:g}" if float(value).is_integer() else f"{value:.2f}"


def deciding_line(seats: Sequence[str], total: Sequence[float],
                  tie_breaks: Sequence[dict], winners: Sequence[int],
                  truncated: bool = False) -> str:
    """One sentence saying who won and what decided it: the winning total against the
    runner-up's, or the tie-break that split equal totals."""
    names = [seats[w] for w in winners]
    best = max(total)
    how = "at the turn limit, " if truncated else ""
    if len(winners) == len(total):
        return f"{how}everybody ties with {_number(best)}"
    tied = [s for s, t in enumerate(total) if t == best]
    if len(tied) > 1:
        for row in tie_breaks:
            values = [row["values"][s] for s in tied]
            if len(set(values)) > 1:
                shown = ", ".join(f"{seats[s]} {_number(row['values'][s])}" for s in tied)
                return (f"{how}{' and '.join(names)} {'win' if len(names) > 1 else 'wins'}: "
                        f"{_number(best)} each for {', '.join(seats[s] for s in tied)}, "
                        f"split by the {row['label'].removeprefix('tie-break:').strip()} "
                        f"({shown})")
    if len(names) > 1:
        return f"{how}{' and '.join(names)} share the win with {_number(best)} each"
    second = max(t for s, t in enumerate(total) if s not in winners)
    runner = next(seats[s] for s, t in enumerate(total) if t == second and s not in winners)
    return (f"{how}{names[0]} wins with {_number(best)}, "
            f"{_number(best - second)} ahead of {runner} ({_number(second)})")
