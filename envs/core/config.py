"""Loading and validating config data: the games' component files and shared checks.

Component data is TOML (``configs/games/<game>.toml``), read with the standard library's
``tomllib``, so the envs need nothing beyond numpy, gymnasium and pettingzoo. TOML keys are
strings: a key made of digits only (``take_limit.2 = 8``) is read as that int, as the
games' tables (by player count, by coin value, by tile number) are keyed.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Hashable
from importlib import resources
from typing import Any, TypeVar

from .checks import CONFIG
from .errors import ConfigError
from .strict import is_whole_number

T = TypeVar("T")


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


#: (game, parser, options) -> parsed components, for the life of the process
_COMPONENTS: dict[tuple, Any] = {}


def packaged_components(game: str, parse: Callable[..., T], *options: Hashable) -> T:
    """``parse(load_game_data(game), *options)``, parsed once per process and option set:
    every game of a kind shares one validated, immutable component set."""
    key = (game, parse, options)
    found = _COMPONENTS.get(key)
    if found is None:
        found = _COMPONENTS[key] = parse(load_game_data(game), *options)
    return found


# the component files' checked readers (ConfigError, "key"); core.checks holds them all
check_keys = CONFIG.check_keys
check_type = CONFIG.check_type
check_int = CONFIG.check_int
