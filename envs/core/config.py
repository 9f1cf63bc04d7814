"""Loading and validating config data: the games' component files and shared checks.

Component data is TOML (``configs/games/<game>.toml``), read with the standard library's
``tomllib``, so the envs need nothing beyond numpy, gymnasium and pettingzoo. TOML keys are
strings: a key made of digits only (``take_limit.2 = 8``) is read as that int, as the
games' tables (by player count, by coin value, by tile number) are keyed.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from importlib import resources
from typing import Any

from .errors import ConfigError
from .strict import is_whole_number


def parse_toml(text: str, where: str) -> dict:
    """Parse TOML text (digit-only keys as ints), naming ``where`` in errors."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where}: invalid TOML: {exc}") from None
    return _int_keys(data)


def _int_keys(value: Any) -> Any:
    """``value`` with every digit-only mapping key turned into an int."""
    if isinstance(value, dict):
        return {int(k) if is_whole_number(k) else k: _int_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_int_keys(v) for v in value]
    return value


def load_game_data(game: str) -> dict:
    """The packaged component data ``configs/games/<game>.toml``."""
    ref = resources.files("plunder.configs").joinpath("games", f"{game}.toml")
    return parse_toml(ref.read_text(encoding="utf-8"), f"configs/games/{game}.toml")


def check_keys(mapping: Any, where: str, required: Iterable[str],
               optional: Iterable[str] = ()) -> None:
    """Raise ConfigError unless ``mapping`` is a dict with exactly the allowed keys."""
    if not isinstance(mapping, Mapping):
        raise ConfigError(f"{where}: expected a mapping, got {type(mapping).__name__}")
    required, optional = list(required), list(optional)
    missing = [k for k in required if k not in mapping]
    unknown = sorted(set(mapping) - set(required) - set(optional))
    if missing:
        raise ConfigError(f"{where}: missing key(s) {missing}")
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {unknown}; allowed: "
                          f"{sorted(required + optional)}")


def check_type(value: Any, kind: type | tuple, where: str) -> Any:
    """Raise ConfigError unless ``value`` is of ``kind`` (bools are not ints)."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        raise ConfigError(f"{where}: expected {_names(kinds)}, got {value!r}")
    if not isinstance(value, kinds):
        raise ConfigError(f"{where}: expected {_names(kinds)}, got {value!r}")
    return value


def check_int(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    """An int within [low, high], else ConfigError."""
    check_type(value, int, where)
    if (low is not None and value < low) or (high is not None and value > high):
        raise ConfigError(f"{where}: {value} is outside {low}..{high}")
    return value


def _names(kinds) -> str:
    return " or ".join(k.__name__ for k in kinds)
