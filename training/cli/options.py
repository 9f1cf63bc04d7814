"""The arguments and numeric options the commands share, declared once.

GAME (a game name or env id, resolved by :func:`plunder.training.games.resolve_env_id`),
``--bots`` (its help lists the bot registry's specs, ``plunder.policies.base.BOT_SPECS``)
and every number a command takes: each numeric option names one of the types below
(:data:`SEED`, :func:`count`, :func:`finite`, :data:`PORT`), so a value out of range, a
float that is not finite or a word where a number belongs ends the command with one
``Error:`` line (click's usage error, exit status 2) before anything runs. A player
count (:func:`players_option`) is checked against the game the command plays once the
whole command line is read (:class:`Command`, the class of every ``plunder`` command):
``plunder eval scallywags --players 9`` names the game's range.
"""

from __future__ import annotations

import math

import click

from plunder.envs.core import UnknownEnvError

#: the largest count a command takes (games, turns, workers, ...): the widest int a
#: saved state or a compiled engine holds
MAX_COUNT = 2**31 - 1
#: the most learner steps one ``plunder train`` run takes
MAX_STEPS = 10**12


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


class CountRange(click.IntRange):
    """A whole number within bounds; the message leaves out an upper bound of
    :data:`MAX_COUNT` (``-1 is not in the range x>=0``)."""

    def _describe_range(self) -> str:
        if self.max == MAX_COUNT and self.min is not None:
            return f"x>={self.min}"
        return super()._describe_range()


def count(low: int = 1, high: int = MAX_COUNT) -> click.IntRange:
    """A whole number from ``low`` to ``high`` (games, turns, steps, workers, ...)."""
    return CountRange(low, high)


#: a seed: 0 to 2**32 - 1 (the range numpy's legacy seeding and the trainer take)
SEED = click.IntRange(0, 2**32 - 1)
#: a TCP port
PORT = click.IntRange(1, 65535)


class FiniteRange(click.FloatRange):
    """A finite number (never ``nan`` or ``inf``, which compare false with any bound)
    within the range of :class:`click.FloatRange`."""

    def convert(self, value, param, ctx):
        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return super().convert(number, param, ctx)


def finite(low: float = 0.0, high: float | None = None, *, low_open: bool = True) -> FiniteRange:
    """A finite number above ``low`` (or from ``low``, with ``low_open`` false), at most
    ``high``: seconds, minutes."""
    return FiniteRange(low, high, min_open=low_open)


def game_argument(**kwargs):
    """The GAME argument of a command."""
    return click.argument("game", type=kwargs.pop("type", GAME), **kwargs)


# -- player counts --------------------------------------------------------------------------

class PlayersOption(click.Option):
    """A player count (or counts, with ``multiple``), checked against the game(s) in the
    command's ``game_param`` once the command line is read: one game must be played by
    that many; of several chosen games (or ``all``), at least one; with no game chosen,
    some registered game."""

    def __init__(self, *args, game_param: str = "game", **kwargs):
        self.game_param = game_param
        super().__init__(*args, **kwargs)

    def check(self, ctx: click.Context) -> None:
        from plunder.envs import ENV_IDS, game_class
        from plunder.training.games import game_name

        value = ctx.params.get(self.name)
        if value is None or value == ():
            return
        games = ctx.params.get(self.game_param)
        every = isinstance(games, str) and games != "all"         # one game
        env_ids = list(ENV_IDS) if games in (None, (), "all") else \
            [games] if isinstance(games, str) else list(games)

        def ranges(ids) -> str:
            return ", ".join(f"{game_name(e)} {game_class(e).min_players}-"
                             f"{game_class(e).max_players}" for e in ids)

        for n in value if isinstance(value, tuple) else (value,):
            fits = [e for e in env_ids
                    if game_class(e).min_players <= n <= game_class(e).max_players]
            if every and not fits:
                cls = game_class(env_ids[0])
                raise click.BadParameter(f"{game_name(env_ids[0])} is for {cls.min_players}-"
                                         f"{cls.max_players} players, got {n}", ctx=ctx,
                                         param=self)
            if not fits:
                raise click.BadParameter(f"no {'chosen ' if games else ''}game is played by "
                                         f"{n} players ({ranges(env_ids)})", ctx=ctx,
                                         param=self)


def players_option(help: str = "Number of players.", game_param: str = "game", **kwargs):
    """``--players``: checked against the command's game (:class:`PlayersOption`)."""
    return click.option("--players", type=click.IntRange(-MAX_COUNT, MAX_COUNT),
                        cls=PlayersOption, game_param=game_param, help=help, **kwargs)


class Command(click.Command):
    """A ``plunder`` command: after the whole command line is read, its player counts
    are checked against its game (:class:`PlayersOption`)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        rest = super().parse_args(ctx, args)
        if not ctx.resilient_parsing:
            for param in self.params:
                if isinstance(param, PlayersOption):
                    param.check(ctx)
        return rest


class Group(click.Group):
    """A group of :class:`Command` commands (and groups of them)."""

    command_class = Command


Group.group_class = Group


# -- values as typed ------------------------------------------------------------------------

def typed_value(value) -> str:
    """A variant option's value as a person types it after ``--option KEY=`` (YAML, read
    back by ``plunder.training.selfplay.config.parse_override``): ``false``, ``500``,
    ``[0, 2]``, ``''``, ``null``."""
    import json

    if isinstance(value, str):
        return "''" if value == "" else value if value.isidentifier() else json.dumps(value)
    if value is None:
        return "null"
    if isinstance(value, tuple):
        value = list(value)
    return json.dumps(value)


# -- bots -----------------------------------------------------------------------------------

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
