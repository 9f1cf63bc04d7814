"""plunder environments: five pirate tabletop games as PettingZoo envs.

>>> from plunder.envs import make, ENV_IDS
>>> env = make("scallywags_v0", num_players=4)
>>> import pettingzoo                       # PettingZoo 1.27+: every game is registered
>>> env = pettingzoo.make("aec", "plunder/scallywags-v0", num_players=4)
>>> venv = make_vector("scallywags_v0", 64, num_players=2, seed=0)   # N games, batched

Each game is declared once, by the ``SPEC`` in its package (``plunder.envs.core.spec``);
a game from elsewhere joins with ``register("its.package")`` (docs/adding_a_game.md).
"""

from .core.registry import (
    env_ids, env_module, game_class, make, make_parallel, pettingzoo_id, register,
    register_with_pettingzoo, resolve_env_id, spec, specs, unregister,
)
from .core.guide import rules_text
from .core.spec import GameSpec
from .core.vector import VectorEnv, VectorStep, make_vector

register_with_pettingzoo()


def __getattr__(name: str):
    # ENV_IDS follows the registry, so a game registered later is listed too
    if name == "ENV_IDS":
        return env_ids()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ENV_IDS", "GameSpec", "VectorEnv", "VectorStep", "env_ids", "env_module",
           "game_class", "make", "make_parallel", "make_vector", "pettingzoo_id", "register",
           "resolve_env_id", "rules_text", "spec", "specs", "unregister"]
