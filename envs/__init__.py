"""plunder environments: five pirate tabletop games as PettingZoo envs.

>>> from plunder.envs import make, ENV_IDS
>>> env = make("scallywags_v0", num_players=4)
>>> import pettingzoo                       # PettingZoo 1.27+: every game is registered
>>> env = pettingzoo.make("aec", "plunder/scallywags-v0", num_players=4)
"""

from .core.registry import (
    env_ids, env_module, game_class, make, make_parallel, pettingzoo_id,
    register_with_pettingzoo,
)

ENV_IDS = env_ids()
register_with_pettingzoo()

__all__ = ["ENV_IDS", "env_ids", "env_module", "game_class", "make", "make_parallel",
           "pettingzoo_id"]
