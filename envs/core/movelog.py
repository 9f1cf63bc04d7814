"""The move log and the final score breakdown, for people watching a game.

``describe_step`` turns one applied step (a joint action) into the lines of text one seat
learns from it: "player_2 plays ARRGH! on coin 17", "player_1 blocks", "the bids are
revealed: ...". It is built only from what that seat may know — its views before and
after the step, which seats acted (public) and the actions the rules make public — so a
log never tells more than the observation does. ``score_breakdown`` splits the final
scores into rows (coins per value, ships, bonuses, tie-break) that the table at the end
of ``plunder play`` and the web page show.

Each game writes its own lines in ``envs/<game>/movelog.py`` (found next to the game's
engine module), defining any of:

- ``describe_step(game, view_before, view_after, actors, public_actions, observer)``
  -> list of lines (default: ``"player_k: <action name>"`` per public action);
- ``action_is_public(game, view, seat, action)`` -> whether the view's player sees
  ``seat`` choose ``action`` in the decision the view shows (default: every action is
  public). It may look at the action only to say which *kind* of move is seen (a swap is
  public, a secret pick is not); the observer's own actions are always known;
- ``score_breakdown(state)`` -> rows ``(label, [value per scoring seat])`` of a finished
  game (default: one row "score"). Rows whose label starts with ``tie-break`` are not
  part of the score; all other rows add up to it where the game's score is a sum.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

#: rows of score_breakdown with this label prefix rank ties and are not added up
TIE_BREAK = "tie-break"

_HOOKS: dict[type, ModuleType | None] = {}


def game_hooks(game: Any) -> ModuleType | None:
    """The game's ``movelog`` module (beside its engine module), or None if it has none."""
    cls = type(game)
    if cls not in _HOOKS:
        package = cls.__module__.rpartition(".")[0]
        name = f"{package}.movelog" if package else "movelog"
        found = package and importlib.util.find_spec(name) is not None
        _HOOKS[cls] = importlib.import_module(name) if found else None
    return _HOOKS[cls]


def who(game: Any, seat: int, observer: int | None) -> str:
    """A seat's name in a log line: ``player_2``, or ``player_0 (you)`` for the observer."""
    name = game.seat_name(seat)
    return f"{name} (you)" if seat == observer else name


def whose(game: Any, seat: int, observer: int | None) -> str:
    """A seat's possessive in a log line: ``player_2's``, or ``your`` for the observer."""
    return "your" if seat == observer else f"{game.seat_name(seat)}'s"


def action_is_public(game: Any, view: Any, seat: int, action: int) -> bool:
    """Whether the player of ``view`` sees ``seat`` choose ``action`` (see the module doc)."""
    if seat == view_player(view):
        return True
    hooks = game_hooks(game)
    if hooks is not None and hasattr(hooks, "action_is_public"):
        return bool(hooks.action_is_public(game, view, seat, int(action)))
    return True


def view_player(view: Any) -> int | None:
    """The seat a view belongs to (every game's view names it ``player``)."""
    return getattr(view, "player", None)


def describe_step(game: Any, before: Any, joint: Mapping[int, int], after: Any,
                  observer: int) -> list[str]:
    """The lines seat ``observer`` learns when ``joint`` ({seat: action}) is applied to
    state ``before`` giving state ``after``; built only from the observer's views, the
    acting seats and the public actions."""
    view_before = before.view(observer)
    view_after = after.view(observer)
    actors = tuple(sorted(int(s) for s in joint))
    public = {int(s): int(a) for s, a in joint.items()
              if action_is_public(game, view_before, int(s), int(a))}
    return describe_views(game, view_before, view_after, actors, public, observer)


def describe_views(game: Any, view_before: Any, view_after: Any, actors: Sequence[int],
                   public_actions: Mapping[int, int], observer: int) -> list[str]:
    """``describe_step`` from the observer's side alone (the game's writer, or the
    default: one ``"player_k: <action name>"`` line per public action)."""
    hooks = game_hooks(game)
    if hooks is not None and hasattr(hooks, "describe_step"):
        return list(hooks.describe_step(game, view_before, view_after, tuple(actors),
                                        dict(public_actions), observer))
    return default_lines(game, actors, public_actions, observer)


def default_lines(game: Any, actors: Sequence[int], public_actions: Mapping[int, int],
                  observer: int | None) -> list[str]:
    """One line per acting seat: its action's name, or that it chose in secret."""
    lines = []
    for seat in actors:
        if seat in public_actions:
            lines.append(f"{who(game, seat, observer)}: {game.action_name(public_actions[seat])}")
        else:
            lines.append(f"{who(game, seat, observer)}: chooses in secret")
    return lines


def score_breakdown(state: Any) -> list[tuple[str, list[float]]]:
    """The rows of ``state.score_breakdown()`` as the game's movelog module writes them,
    or the default single row "score" (every scoring seat's first rank key)."""
    hooks = game_hooks(state.game)
    if hooks is not None and hasattr(hooks, "score_breakdown"):
        return [(str(label), [float(v) for v in values])
                for label, values in hooks.score_breakdown(state)]
    return [("score", [float(key[0]) for key in state.rank_keys()])]


def scoring_seat_names(game: Any, count: int, short: bool = False) -> list[str]:
    """Column headers for ``count`` scoring seats (``P0`` ... when ``short``)."""
    names = [game.seat_name(s) for s in range(count)]
    if short:
        names = [f"P{s}" if n == f"player_{s}" else n[:5] for s, n in enumerate(names)]
    return names


def format_breakdown(game: Any, state: Any, width: int = 80,
                     you: int | None = None) -> list[str]:
    """The final breakdown as a text table no wider than ``width``: one row per part, a
    total row (each seat's score) and the tie-break rows; seats abbreviated if needed."""
    rows = state.score_breakdown()
    keys = state.rank_keys()
    count = len(keys)
    parts = [r for r in rows if not r[0].startswith(TIE_BREAK)]
    ties = [r for r in rows if r[0].startswith(TIE_BREAK)]
    table = parts + [("total", [float(k[0]) for k in keys])] + ties
    cells = [[_number(v) for v in values] for _, values in table]
    for short in (False, True):
        heads = scoring_seat_names(game, count, short)
        if you is not None and 0 <= you < count:
            heads[you] += "*"
        cols = [max(len(heads[s]), *(len(c[s]) for c in cells)) for s in range(count)]
        label_w = max(len(label) for label, _ in table)
        room = width - sum(c + 2 for c in cols)
        if label_w <= room or short:
            break
    label_w = max(5, min(label_w, room))
    lines = [" " * label_w + "".join("  " + h.rjust(c) for h, c in zip(heads, cols))]
    for (label, _), values in zip(table, cells):
        if label == "total":
            lines.append("-" * min(width, label_w + sum(c + 2 for c in cols)))
        text = label if len(label) <= label_w else label[:label_w - 1] + "…"
        lines.append(text.ljust(label_w) + "".join("  " + v.rjust(c)
                                                    for v, c in zip(values, cols)))
    if you is not None and 0 <= you < count:
        lines.append("* you")
    return lines


def _number(value: float) -> str:
    """A score cell: integers without a decimal point."""
    return f"{value:g}" if float(value).is_integer() else f"{value:.2f}"
