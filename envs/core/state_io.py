"""A state's persistent fields, declared once: ``to_dict``, ``clone`` and checked loading.

A game's state class lists its fields in ``STATE_FIELDS``, each with its kind and range
(:func:`field`), and the fields derived from them that a copy must not share
(:func:`derived`). The core then writes the state as a JSON-compatible dict
(``GameState.to_dict``), copies it (``GameState.clone``) and reads it back
(``Game.state_from_dict``), every persistent field checked by the readers of
``core.checks`` and raising :class:`~plunder.envs.core.errors.InvalidStateError` naming
the field; ``Game.state_from_dict`` then runs the rules' invariants (``validate``).

Ranges may depend on the game (``lambda g: g.num_players - 1``): a bound is an int, None
or a function of the game. The readers are importable from here for the checks a game's
``loaded`` hook makes itself (``check_int``, ``check_int_list``, ...).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field as dataclass_field
from typing import Any

from .checks import MAX_INT, STATE
from .errors import InvalidArgumentError

check_keys = STATE.check_keys
check_int = STATE.check_int
check_bool = STATE.check_bool
check_choice = STATE.check_choice
check_list = STATE.check_list
check_bool_list = STATE.check_bool_list
check_int_list = STATE.check_int_list
check_int_lists = STATE.check_int_lists


def check_enum(value: Any, where: str, enum: type) -> Any:
    """A member of ``enum`` (an IntEnum or StrEnum), read from its value."""
    return enum(check_choice(value, where, [m.value for m in enum]))


def copy_rows(rows: list) -> list:
    """A copy of a list of lists, one level deeper than ``list`` (hands, takes, ...)."""
    return [list(r) for r in rows]


#: kind -> (reader of (value, where, **bounds), copier or None to share the value)
_KINDS: dict[str, tuple[Callable | None, Callable | None]] = {
    "int": (check_int, None),
    "bool": (check_bool, None),
    "choice": (check_choice, None),
    "enum": (check_enum, None),
    "ints": (check_int_list, list),
    "bools": (check_bool_list, list),
    "int_lists": (check_int_lists, copy_rows),
    # read by the field's own reader; copied whole (nested lists and dicts)
    "custom": (None, copy.deepcopy),
    # read by the field's own reader; immutable (tuples, ints), so shared by copies
    "frozen": (None, None),
}


@dataclass(frozen=True)
class StateField:
    """One field of a state: its attribute name, kind (a key of ``_KINDS``), the bounds
    its reader takes (ints, None or functions of the game), an optional reader of its own
    (``read(game, value, where) -> value``, for ``custom`` and ``frozen`` fields) and an
    optional copier (``clone``) overriding the kind's. Derived fields are not saved."""

    name: str
    kind: str
    bounds: Mapping[str, Any] = dataclass_field(default_factory=dict)
    read: Callable | None = None
    copier: Callable | None = None
    persistent: bool = True
    #: kept as nested tuples (read from lists or tuples alike); clones share it
    frozen: bool = False
    #: saved and checked on loading, but not set on the state (a property of it, say)
    check_only: bool = False

    def copy_function(self) -> Callable | None:
        """How ``clone`` copies the field's value (None: the copy shares it)."""
        if self.frozen or self.check_only:
            return None
        return self.copier if self.copier is not None else _KINDS[self.kind][1]

    def load(self, game: Any, value: Any) -> Any:
        """The field's value read from saved data, checked."""
        if self.frozen:
            value = _listify(value)
        if self.read is not None:
            value = self.read(game, value, self.name)
        elif _KINDS[self.kind][0] is not None:
            bounds = {k: (b(game) if _is_bound_function(b) else b)
                      for k, b in self.bounds.items()}
            value = _KINDS[self.kind][0](value, self.name, **bounds)
        return _tuplify(value) if self.frozen else value


def _is_bound_function(bound: Any) -> bool:
    """Whether a bound is a function of the game (a class, such as an enum, is a value)."""
    return callable(bound) and not isinstance(bound, type)


def field(name: str, kind: str, *, read: Callable | None = None,
          copier: Callable | None = None, frozen: bool = False, check_only: bool = False,
          **bounds: Any) -> StateField:
    """A persistent field: ``field("hands", "int_lists", length=lambda g: g.num_players,
    inner_length=9, low=0, high=3)``. ``read(game, value, where)`` replaces the kind's
    reader; ``frozen`` keeps the value as nested tuples."""
    if kind not in _KINDS:
        raise InvalidArgumentError(f"no state field kind {kind!r}; kinds: {sorted(_KINDS)}")
    return StateField(name, kind, bounds, read, copier, True, frozen, check_only)


def _listify(value: Any) -> Any:
    """Tuples (as a frozen field holds them) as lists (as JSON gives them), all the way."""
    if isinstance(value, (list, tuple)):
        return [_listify(v) for v in value]
    return value


def _tuplify(value: Any) -> Any:
    """Lists as tuples, all the way down."""
    if isinstance(value, list):
        return tuple(_tuplify(v) for v in value)
    return value


def derived(name: str, copier: Callable | None = list) -> StateField:
    """A field computed from the persistent ones: never saved, copied by ``clone`` with
    ``copier`` (None: shared, for immutable values)."""
    return StateField(name, "frozen", {}, None, copier, persistent=False)


def cache(name: str) -> StateField:
    """A cache of something computed from the fields: never saved, None in a clone."""
    return StateField(name, "frozen", {}, None, _forget, persistent=False)


def _forget(value: Any) -> None:
    return None


def num_players(game: Any) -> int:
    """A bound: the game's player count (one entry per seat)."""
    return game.num_players


def last_seat(game: Any) -> int:
    """A bound: the highest seat number."""
    return game.num_players - 1


def persistent_names(fields: tuple[StateField, ...]) -> tuple[str, ...]:
    """The names ``to_dict`` writes (besides ``rng``)."""
    return tuple(f.name for f in fields if f.persistent)


def copiers(fields: tuple[StateField, ...]) -> tuple[tuple[str, Callable], ...]:
    """``(name, copy function)`` of every field a clone must not share."""
    return tuple((f.name, fn) for f in fields if (fn := f.copy_function()) is not None)


def load_fields(state: Any, data: Mapping, fields: tuple[StateField, ...]) -> None:
    """Set every persistent field of ``state`` from ``data``, checked, in declared order
    (``data`` is the caller's: values are deep-copied first, never shared)."""
    game = state.game
    for f in fields:
        if f.persistent:
            value = f.load(game, copy.deepcopy(data[f.name]))
            if not f.check_only:
                setattr(state, f.name, value)


__all__ = [
    "MAX_INT", "StateField", "cache", "check_bool", "check_bool_list", "check_choice", "check_enum",
    "check_int", "check_int_list", "check_int_lists", "check_keys", "check_list", "copiers",
    "copy_rows", "derived", "field", "last_seat", "load_fields", "num_players",
    "persistent_names",
]
