"""Checked reading of saved states (``Game.state_from_dict``): every error names its field.

A saved state is untrusted input (a replay file, a bug report, a web request). Each game's
``_load_state`` reads its fields through these helpers, which raise
:class:`~plunder.envs.core.errors.InvalidStateError` naming the field and what was wrong;
``Game.state_from_dict`` then runs the rules' invariants (``GameState.validate``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .errors import InvalidStateError


def check_keys(data: Any, where: str, required: Iterable[str],
               optional: Iterable[str] = ()) -> Mapping:
    """``data`` as a mapping with exactly the ``required`` (and ``optional``) keys."""
    if not isinstance(data, Mapping):
        raise InvalidStateError(f"{where}: expected an object, got {type(data).__name__}")
    required, optional = list(required), list(optional)
    missing = [k for k in required if k not in data]
    if missing:
        raise InvalidStateError(f"{where}: missing field(s) {missing}")
    unknown = sorted(map(str, set(data) - set(required) - set(optional)))
    if unknown:
        raise InvalidStateError(f"{where}: unknown field(s) {unknown}")
    return data


#: the widest int a saved state holds where its field names no bound of its own (turns,
#: totals): every count of a real game fits, and the compiled views read them as C longs
MAX_INT = 2**31 - 1


def check_int(value: Any, where: str, low: int | None = None,
              high: int | None = None) -> int:
    """An int (not a bool) within [low, high] (within +-``MAX_INT`` where not given)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidStateError(f"{where}: expected an integer, got {_short(value)}")
    low = -MAX_INT - 1 if low is None else low
    high = MAX_INT if high is None else high
    if not low <= value <= high:
        raise InvalidStateError(f"{where}: {_short(value)} is outside {low}..{high}")
    return value


def _short(value: Any) -> str:
    """``value`` for a message: its repr, cut short (junk can be huge or deeply nested)."""
    try:
        text = repr(value)
    except (RecursionError, ValueError):
        text = f"a {type(value).__name__}"
    return text if len(text) <= 80 else text[:77] + "..."


def check_bool(value: Any, where: str) -> bool:
    """A bool."""
    if not isinstance(value, bool):
        raise InvalidStateError(f"{where}: expected true or false, got {_short(value)}")
    return value


def check_choice(value: Any, where: str, choices: Iterable[Any]) -> Any:
    """One of ``choices``."""
    choices = list(choices)
    if isinstance(value, bool) or value not in choices:
        raise InvalidStateError(f"{where}: {_short(value)} is not one of {choices}")
    return value


def check_list(value: Any, where: str, length: int | None = None,
               min_len: int = 0, max_len: int | None = None) -> list:
    """A list, of exactly ``length`` items or between ``min_len`` and ``max_len``."""
    if not isinstance(value, list):
        raise InvalidStateError(f"{where}: expected a list, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise InvalidStateError(f"{where}: expected {length} entries, got {len(value)}")
    if len(value) < min_len or (max_len is not None and len(value) > max_len):
        raise InvalidStateError(f"{where}: {len(value)} entries is outside "
                                f"{min_len}..{max_len}")
    return value


def check_int_list(value: Any, where: str, length: int | None = None,
                   low: int | None = None, high: int | None = None,
                   max_len: int | None = None) -> list[int]:
    """A list of ints within [low, high]."""
    check_list(value, where, length, max_len=max_len)
    for i, item in enumerate(value):
        check_int(item, f"{where}[{i}]", low, high)
    return value


def check_int_lists(value: Any, where: str, length: int | None = None,
                    inner_length: int | None = None, low: int | None = None,
                    high: int | None = None, max_inner: int | None = None) -> list[list[int]]:
    """A list of lists of ints (one per seat, say) within [low, high]."""
    check_list(value, where, length)
    for i, item in enumerate(value):
        check_int_list(item, f"{where}[{i}]", inner_length, low, high, max_len=max_inner)
    return value
