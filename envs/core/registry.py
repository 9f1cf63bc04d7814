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


#: env ids whose games have simultaneous decisions (they also offer parallel_env());
#: kept here so registering with PettingZoo imports no game (a test checks it)
_SIMULTANEOUS = ("anchors_aweigh_v0", "all_hands_crew_v0", "shipshape_v0")


def pettingzoo_id(env_id: str) -> str:
    """The id in PettingZoo's registry: ``scallywags_v0`` -> ``plunder/scallywags-v0``."""
    name, version = env_id.rsplit("_v", 1)
    return f"plunder/{name}-v{version}"


def register_with_pettingzoo() -> bool:
    """Register every game in PettingZoo's registry (1.27+), so that
    ``pettingzoo.make("aec", "plunder/scallywags-v0", num_players=4)`` works; False where
    the installed PettingZoo has no registry."""
    try:
        from pettingzoo import aec_registry, parallel_registry, register
    except ImportError:
        return False
    for env_id, module in _MODULES.items():
        pz_id = pettingzoo_id(env_id)
        if pz_id not in aec_registry:
            register("aec", pz_id, entry_point=f"plunder.envs.{module}:env")
        if env_id in _SIMULTANEOUS and pz_id not in parallel_registry:
            register("parallel", pz_id, entry_point=f"plunder.envs.{module}:parallel_env")
    return True


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
