"""Loading and validating YAML config files (component data and training configs)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from .errors import ConfigError


def load_yaml(path: str | Path) -> Any:
    """Parse a YAML file; a missing file or a syntax error raises ConfigError."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read config {path}: {exc}") from None
    return parse_yaml(text, str(path))


def parse_yaml(text: str, where: str) -> Any:
    """Parse YAML text, naming ``where`` in errors."""
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{where}: invalid YAML: {exc}") from None


def load_game_data(game: str) -> dict:
    """The packaged component data ``configs/games/<game>.yaml``."""
    ref = resources.files("plunder.configs").joinpath("games", f"{game}.yaml")
    data = parse_yaml(ref.read_text(encoding="utf-8"), f"configs/games/{game}.yaml")
    if not isinstance(data, dict):
        raise ConfigError(f"configs/games/{game}.yaml: expected a mapping at the top level")
    return data


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
