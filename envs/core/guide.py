"""What a person at the table is told: the game's rules, what is being decided now, and
what each legal move does, in words.

- ``rules_text(env_id)``: the game's rules page (Markdown), read from the installed
  package (``GameSpec.rules``, package data beside the game's engine);
- ``decision_prompt(game, view, legal)``: one line saying what the view's player must
  decide now ("choose a face-down coin to take, or a card to play"), or who is deciding
  what when it is someone else's decision (``GameSpec.prompt``);
- ``move_labels(game, view, legal)``: a label per legal move that names what the move
  acts on ("take face-down coin #13 from the middle", "hire Gunner (stock card 1)")
  (``GameSpec.move_label``, one move at a time); labels are distinct, so a person can
  pick a move by its label;
- ``only_move(legal)``: the move a person has no choice about (front ends play it for
  them, saying so with ``forced_line``).

Every text is built from the view it is given (what that seat knows) and the game's
public tables, never from the state: a prompt or a label cannot tell a hidden fact. The
stable internal notation of a move (``game.action_name``: logs, errors, tests) is not
changed by any of this.
"""

from __future__ import annotations

import importlib.resources
from collections.abc import Iterable, Sequence
from typing import Any

from .errors import InvalidArgumentError
from .registry import env_ids, resolve_env_id, spec
from .spec import resolve


def rules_text(env_id: str) -> str:
    """The rules page of a game (its env id or name), as Markdown; InvalidArgumentError
    for a game that ships none."""
    game_spec = spec(resolve_env_id(env_id))
    if game_spec.rules is None:
        raise InvalidArgumentError(f"{game_spec.env_id} has no rules page (GameSpec.rules)")
    path = importlib.resources.files(game_spec.package).joinpath(game_spec.rules)
    if not path.is_file():
        raise InvalidArgumentError(f"{game_spec.env_id}: the rules page {game_spec.rules!r} "
                                   f"is missing from the package {game_spec.package}")
    return path.read_text(encoding="utf-8")


def _hook(game: Any, field: str):
    """The function a game's spec names in ``field`` (None for a game without one, or
    one not registered)."""
    env_id = type(game).env_id()
    if env_id not in env_ids():
        return None
    path = getattr(spec(env_id), field)
    return None if path is None else resolve(path)


def acting(view: Any) -> tuple[int, ...]:
    """The seats a view says must decide now (public in every game)."""
    return tuple(int(s) for s in getattr(view, "acting", ()) or ())


def waiting_for(game: Any, seats: Iterable[int]) -> str:
    """``player_2``, ``player_1 and player_3``: the seats being waited for."""
    names = [game.seat_name(s) for s in seats]
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def decision_prompt(game: Any, view: Any, legal: Sequence[int] | None = None) -> str:
    """One line: what the view's player decides now (``legal``: its legal moves, when it
    is asked), or whom the table waits for. A game without a prompt of its own says
    only whose decision it is."""
    hook = _hook(game, "prompt")
    legal = [] if legal is None else [int(a) for a in legal]
    if hook is not None:
        return str(hook(game, view, legal))
    if legal:
        return "Your decision: choose a move."
    seats = acting(view)
    if seats:
        return f"Waiting for {waiting_for(game, seats)} to decide."
    return "Nothing for you to decide now."


def move_label(game: Any, view: Any, action: int) -> str:
    """What ``action`` does, in words, as the view's player would read it (the game's
    ``move_label``, else ``game.action_name``)."""
    hook = _hook(game, "move_label")
    if hook is None:
        return game.action_name(int(action))
    return str(hook(game, view, int(action)))


def move_labels(game: Any, view: Any, legal: Iterable[int]) -> dict[int, str]:
    """A distinct label per legal move, in the order given: a label an earlier move has
    already (two copies of one card) gets ``(copy 2)``, ``(copy 3)``..."""
    labels: dict[int, str] = {}
    seen: dict[str, int] = {}
    for a in legal:
        text = move_label(game, view, int(a))
        seen[text] = seen.get(text, 0) + 1
        labels[int(a)] = text if seen[text] == 1 else f"{text} (copy {seen[text]})"
    return labels


def only_move(legal: Sequence[int]) -> int | None:
    """The single legal move, where there is exactly one."""
    return int(legal[0]) if len(legal) == 1 else None


def forced_line(label: str) -> str:
    """The line a front end shows when it plays a person's only move for them."""
    return f"only move: {label} — played for you"
