"""Game names as the commands, configs and the web page accept them.

Every registered env id is ``<game>_v<N>``; a user may write the game alone
(``scallywags``) or the full env id (``scallywags_v0``). This is the one place that maps
either to the registered id, and back to the bare name (config files and run folders are
named by it).
"""

from __future__ import annotations

from plunder.envs.core import UnknownEnvError


def resolve_env_id(game: str) -> str:
    """``scallywags`` or ``scallywags_v0`` -> the registered env id; anything else raises
    :class:`~plunder.envs.core.UnknownEnvError` naming the games."""
    from plunder.envs import env_ids

    registered = env_ids()
    if game in registered:
        return game
    matches = [e for e in registered if e.rsplit("_v", 1)[0] == game]
    if len(matches) == 1:
        return matches[0]
    raise UnknownEnvError(f"unknown game {game!r}; games: {', '.join(registered)}")


def game_name(game: str) -> str:
    """``scallywags_v0`` -> ``scallywags`` (the config file stem)."""
    return game.rsplit("_v", 1)[0] if "_v" in game and game.rsplit("_v", 1)[1].isdigit() \
        else game
