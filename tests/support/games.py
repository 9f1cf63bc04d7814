"""What the shared suites (tests/core/) run over: every registered game, player count and
variant of tests/support/obs_reference.py, and each game's own data for them
(``tests/<game package>/suite.py``: its invariants under random play, the cases fuzzed and
loaded, the phases random play must reach). A game without such a module runs the suites
with their defaults."""

from __future__ import annotations

import importlib
from types import ModuleType

from plunder.envs import ENV_IDS, game_class
from plunder.envs.core.testing import player_counts

from .obs_reference import cases


def package_of(env_id: str) -> str:
    """The game package of ``env_id`` (``"scallywags"``): the package holding its Game."""
    parts = game_class(env_id).__module__.split(".")
    return parts[-2] if len(parts) > 1 else parts[0]


def suite_data(env_id: str) -> ModuleType | None:
    """``tests/<package>/suite.py`` of ``env_id``, or None."""
    try:
        return importlib.import_module(f"tests.{package_of(env_id)}.suite")
    except ModuleNotFoundError as exc:
        if exc.name not in (f"tests.{package_of(env_id)}", f"tests.{package_of(env_id)}.suite"):
            raise
        return None


def data(env_id: str, name: str, default=None):
    """The per-game value ``name`` of ``env_id``'s suite data, or ``default``."""
    return getattr(suite_data(env_id), name, default)


def case_id(case) -> str:
    env_id, n, opts = case[:3]
    return f"{env_id}-{n}p" + "".join(f"-{k}={v}" for k, v in sorted(opts.items()))


#: (env_id, players, options): every registered game, player count and variant
VARIANT_CASES = cases()


def cases_from(name: str) -> list[tuple[str, int, dict]]:
    """(env_id, players, options) of every game's ``name`` list of (players, options) in
    its suite data, or every player count without options where it has none."""
    out = []
    for env_id in ENV_IDS:
        listed = data(env_id, name)
        if listed is None:
            listed = [(n, {}) for n in player_counts(env_id)]
        out += [(env_id, n, dict(opts)) for n, opts in listed]
    return out
