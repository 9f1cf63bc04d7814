"""The registry of plunder environments: ids, lookup and construction."""

from __future__ import annotations

import importlib
from types import ModuleType

from .errors import UnknownEnvError

#: env id -> module (under plunder.envs) exposing env(), raw_env(), parallel_env(), Game
_MODULES: dict[str, str] = {
    "scallywags_v0": "scallywags_v0",
    "anchors_aweigh_v0": "anchors_aweigh_v0",
    "all_hands_battle_v0": "all_hands_battle_v0",
    "all_hands_crew_v0": "all_hands_crew_v0",
    "shipshape_v0": "shipshape_v0",
}


def env_ids() -> tuple[str, ...]:
    """Registered env ids, in registration order."""
    return tuple(_MODULES)


def env_module(env_id: str) -> ModuleType:
    """The PettingZoo-style module of ``env_id``."""
    if env_id not in _MODULES:
        raise UnknownEnvError(f"unknown env id {env_id!r}; registered: {list(_MODULES)}")
    return importlib.import_module(f"plunder.envs.{_MODULES[env_id]}")


def game_class(env_id: str):
    """The engine's Game class of ``env_id``."""
    return env_module(env_id).Game


def make(env_id: str, *, raw: bool = False, **kwargs):
    """An AEC env of ``env_id`` (wrapped like PettingZoo's ``env()``; ``raw=True`` unwrapped)."""
    module = env_module(env_id)
    return module.raw_env(**kwargs) if raw else module.env(**kwargs)


def make_parallel(env_id: str, **kwargs):
    """A parallel env of ``env_id`` (only for games with simultaneous decisions)."""
    return env_module(env_id).parallel_env(**kwargs)
