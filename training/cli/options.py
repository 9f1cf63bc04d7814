"""The arguments the commands share, written once: GAME (a game name or env id, resolved
by :func:`plunder.training.games.resolve_env_id`) and ``--bots`` (its help lists the bot
registry's specs, ``plunder.policies.base.BOT_SPECS``)."""

from __future__ import annotations

import click

from plunder.envs.core import UnknownEnvError


class GameType(click.ParamType):
    """A registered game, as a name (``scallywags``) or env id (``scallywags_v0``);
    converts to the env id. ``extra`` are words taken as they are (``all``)."""

    name = "game"

    def __init__(self, extra: tuple[str, ...] = ()):
        self.extra = extra

    def convert(self, value, param, ctx):
        from plunder.training.games import resolve_env_id

        if value in self.extra:
            return value
        try:
            return resolve_env_id(value)
        except UnknownEnvError as exc:
            self.fail(str(exc), param, ctx)


#: the GAME parameter type (converts to the env id)
GAME = GameType()


def game_argument(**kwargs):
    """The GAME argument of a command."""
    return click.argument("game", type=kwargs.pop("type", GAME), **kwargs)


def bots_help(lead: str, fill: str) -> str:
    """The ``--bots`` help: ``lead``, the bot specs ``make_bot`` takes, how seats are
    filled (``fill``), and what the kinds are."""
    from plunder.policies.base import BOT_SPECS, PLANNERS
    from plunder.training.games import game_name

    planner_games = ", ".join(game_name(e) for e in PLANNERS)
    return (f"{lead}, each one of: {', '.join(BOT_SPECS)}. {fill}; planner is a stronger "
            f"scripted bot ({planner_games}); trained plays the network's likeliest move, "
            f"sampled draws from its probabilities, search and netsearch search sampled "
            f"states (netsearch guided by the network; docs/training.md).")


def bots_option(lead: str, fill: str, **kwargs):
    """The ``--bots`` option of a command (``lead`` and ``fill``: see :func:`bots_help`)."""
    return click.option("--bots", help=bots_help(lead, fill), **kwargs)
