"""Game names as the commands, configs and the web page accept them.

Every registered env id is ``<game>_v<N>``; a user may write the game alone
(``scallywags``) or the full env id (``scallywags_v0``). ``resolve_env_id`` (the
registry's) maps either to the registered id, ``game_name`` back to the bare name (config
files and run folders are named by it).
"""

from __future__ import annotations

from plunder.envs.core.registry import resolve_env_id
from plunder.envs.core.strict import is_whole_number

__all__ = ["game_name", "resolve_env_id"]


def game_name(game: str) -> str:
    """``scallywags_v0`` -> ``scallywags`` (the config file stem)."""
    return game.rsplit("_v", 1)[0] \
        if "_v" in game and is_whole_number(game.rsplit("_v", 1)[1]) else game
