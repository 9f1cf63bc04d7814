"""plunder environments: five pirate tabletop games as PettingZoo envs.

>>> from plunder.envs import make, ENV_IDS
>>> env = make("scallywags_v0", num_players=4)
"""

from .core.registry import env_ids, env_module, game_class, make, make_parallel

ENV_IDS = env_ids()

__all__ = ["ENV_IDS", "env_ids", "env_module", "game_class", "make", "make_parallel"]
