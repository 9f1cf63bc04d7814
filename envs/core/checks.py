"""Checked readers of untrusted data: saved states and component files.

One set of readers serves both: :data:`STATE` raises
:class:`~plunder.envs.core.errors.InvalidStateError` and calls a key a *field* (a saved
state: a replay file, a bug report, a web request); :data:`CONFIG` raises
:class:`~plunder.envs.core.errors.ConfigError` and calls it a *key* (the games'
``configs/games/<game>.toml``). Every error names where it was found and what was wrong.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .errors import ConfigError, InvalidStateError, PlunderError


#: the widest int a saved state holds where its field names no bound of its own (turns,
#: totals): every count of a real game fits, and the compiled views read them as C longs
MAX_INT = 2**31 - 1


def short_repr(value: Any) -> str:
    """``value`` for a message: its repr, cut short (junk can be huge or deeply nested)."""
    try:
        text = repr(value)
    except (RecursionError, ValueError):
        text = f"a {type(value).__name__}"
    return text if len(text) <= 80 else text[:77] + "..."


class Checks:
    """Readers raising ``error``; ``entry`` and ``mapping`` word their messages; an int
    without a bound of its own stays within +-``int_limit`` (None: unbounded)."""

    def __init__(self, error: type[PlunderError], entry: str, mapping: str,
                 int_limit: int | None = None):
        self.error, self.entry, self.mapping = error, entry, mapping
        self.int_limit = int_limit

    def check_keys(self, data: Any, where: str, required: Iterable[Any],
                   optional: Iterable[Any] = ()) -> Mapping:
        """``data`` as a mapping with exactly the ``required`` (and ``optional``) keys."""
        if not isinstance(data, Mapping):
            raise self.error(f"{where}: expected {self.mapping}, got {type(data).__name__}")
        required, optional = list(required), list(optional)
        missing = [k for k in required if k not in data]
        if missing:
            raise self.error(f"{where}: missing {self.entry}(s) {missing}")
        unknown = sorted(set(data) - set(required) - set(optional), key=str)
        if unknown:
            allowed = sorted(required + optional, key=str)
            raise self.error(f"{where}: unknown {self.entry}(s) {unknown}; allowed: {allowed}")
        return data

    def check_type(self, value: Any, kind: type | tuple, where: str) -> Any:
        """``value`` if it is of ``kind`` (bools are not ints)."""
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
            names = " or ".join(k.__name__ for k in kinds)
            raise self.error(f"{where}: expected {names}, got {short_repr(value)}")
        return value

    def check_int(self, value: Any, where: str, low: int | None = None,
                  high: int | None = None) -> int:
        """An int (not a bool) within [low, high] (within +-``int_limit`` where not given)."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(f"{where}: expected an integer, got {short_repr(value)}")
        if self.int_limit is not None:
            low = -self.int_limit - 1 if low is None else low
            high = self.int_limit if high is None else high
        if (low is not None and value < low) or (high is not None and value > high):
            raise self.error(f"{where}: {short_repr(value)} is outside {low}..{high}")
        return value

    def check_bool(self, value: Any, where: str) -> bool:
        """A bool."""
        if not isinstance(value, bool):
            raise self.error(f"{where}: expected true or false, got {short_repr(value)}")
        return value

    def check_choice(self, value: Any, where: str, choices: Iterable[Any]) -> Any:
        """One of ``choices``."""
        choices = list(choices)
        # 1.0 == 1 and True == 1: a float or a bool never stands for an int choice
        if isinstance(value, (bool, float, complex)) or value not in choices:
            raise self.error(f"{where}: {short_repr(value)} is not one of {choices}")
        return value

    def check_list(self, value: Any, where: str, length: int | None = None,
                   min_len: int = 0, max_len: int | None = None) -> list:
        """A list, of exactly ``length`` items or between ``min_len`` and ``max_len``."""
        if not isinstance(value, list):
            raise self.error(f"{where}: expected a list, got {type(value).__name__}")
        if length is not None and len(value) != length:
            raise self.error(f"{where}: expected {length} entries, got {len(value)}")
        if len(value) < min_len or (max_len is not None and len(value) > max_len):
            raise self.error(f"{where}: {len(value)} entries is outside {min_len}..{max_len}")
        return value

    def check_bool_list(self, value: Any, where: str, length: int | None = None) -> list[bool]:
        """A list of bools."""
        self.check_list(value, where, length)
        for i, item in enumerate(value):
            self.check_bool(item, f"{where}[{i}]")
        return value

    def check_int_list(self, value: Any, where: str, length: int | None = None,
                       low: int | None = None, high: int | None = None,
                       max_len: int | None = None) -> list[int]:
        """A list of ints within [low, high]."""
        self.check_list(value, where, length, max_len=max_len)
        for i, item in enumerate(value):
            self.check_int(item, f"{where}[{i}]", low, high)
        return value

    def check_int_lists(self, value: Any, where: str, length: int | None = None,
                        inner_length: int | None = None, low: int | None = None,
                        high: int | None = None,
                        max_inner: int | None = None) -> list[list[int]]:
        """A list of lists of ints (one per seat, say) within [low, high]."""
        self.check_list(value, where, length)
        for i, item in enumerate(value):
            self.check_int_list(item, f"{where}[{i}]", inner_length, low, high,
                                max_len=max_inner)
        return value


#: readers of saved states (InvalidStateError, "field")
STATE = Checks(InvalidStateError, "field", "an object", MAX_INT)
#: readers of component files (ConfigError, "key")
CONFIG = Checks(ConfigError, "key", "a mapping")

__all__ = ["CONFIG", "MAX_INT", "STATE", "Checks", "short_repr"]
