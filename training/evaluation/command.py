"""``plunder eval``: a tournament from the command line, as a table or JSON, with an
optional per-game log."""

from __future__ import annotations

import contextlib
from typing import Callable

from plunder.envs import game_class
from plunder.envs.core import InvalidArgumentError

from plunder.training.tables import WIDTH, text_table, wrap

from .tournament import Tournament, bot_factories, check_seed, run_tournament


def render_table(t: Tournament, title: str | None = None, echo: Callable[[str], None] = print,
                 width: int = WIDTH) -> None:
    """Print a tournament as a table of ``width`` columns (``plunder.training.tables``)."""
    rows = []
    for b in t.bots:
        lo, hi = b.ci95
        rows.append((b.name, b.seat_games, f"{b.win_share:.1%}", f"{lo:.1%}–{hi:.1%}",
                     f"{b.mean_score:.2f}", f"{b.mean_reward:+.3f}",
                     f"{b.mu:.1f} ± {b.sigma:.1f}" if b.rated else "-"))
    echo(text_table(("bot", "seat-games", "win share", "95% CI", "mean score",
                     "rank reward", "rating (mu ± sigma)"), rows, width=width,
                    title=title or f"{t.env_id}, {t.num_players} players, {t.games} games "
                                   f"(parity {t.parity:.0%})"))
    if t.truncated:
        echo(wrap(f"{t.truncated} game(s) hit the turn limit and were scored as they "
                  "stood", width))


def eval_command_line(env_id: str, bots: str, players: int, games: int, seed: int,
                      options: dict | None = None, max_turns: int | None = None) -> str:
    """The ``plunder eval`` command line that replays a tournament, ready to paste."""
    import json
    import shlex

    from plunder.training.games import game_name

    parts = ["plunder", "eval", game_name(env_id), "--bots", bots, "--players",
             str(players), "--games", str(games), "--seed", str(seed)]
    for key, value in sorted((options or {}).items()):
        parts += ["--option", f"{key}={json.dumps(value)}"]
    if max_turns is not None:
        parts += ["--max-turns", str(max_turns)]
    return " ".join(shlex.quote(p) for p in parts)


def eval_command(game: str, bots: str, games: int, players: int | None, seed: int,
                 options: list[str], as_json: bool, max_turns: int | None,
                 log_games: str | None = None) -> dict:
    """What ``plunder eval`` does (kept here so the CLI stays thin)."""
    import click

    from plunder.envs.core import PlunderError

    from plunder.training.threads import limit_numpy_threads

    limit_numpy_threads(1)
    try:
        return _eval(game, bots, games, players, seed, options, as_json, max_turns,
                     log_games)
    except PlunderError as exc:
        raise click.ClickException(str(exc)) from None


def _eval(game, bots, games, players, seed, options, as_json, max_turns, log_games=None):
    """The tournament behind ``eval_command``."""
    import json

    import click

    from plunder.training.games import resolve_env_id
    from plunder.training.selfplay.config import parse_override

    env_id = resolve_env_id(game)
    cls = game_class(env_id)
    players = players or cls.min_players
    check_seed(seed)
    opts = {}
    for text in options:
        path, value = parse_override(text)
        opts[".".join(path)] = value
    specs = [s.strip() for s in bots.split(",") if s.strip()]
    facs = bot_factories(specs, env_id, players, opts)
    with contextlib.ExitStack() as stack:
        on_game = None
        if log_games is not None:
            on_game = _game_log(stack, log_games, eval_command_line(
                env_id, ",".join(specs), players, games, seed, opts, max_turns))
        if as_json:
            t = run_tournament(env_id, players, facs, games, seed, opts, max_turns,
                               on_game=on_game)
            click.echo(json.dumps(t.to_dict(), indent=2))
            return t.to_dict()
        from tqdm import tqdm

        # no bar where the output is not a terminal (disable=None)
        bar = stack.enter_context(tqdm(total=games, desc="games", unit="game", leave=False,
                                       disable=None))
        t = run_tournament(env_id, players, facs, games, seed, opts, max_turns,
                           progress=lambda k: bar.update(1), on_game=on_game)
    render_table(t, echo=click.echo)
    return t.to_dict()


def _game_log(stack: contextlib.ExitStack, path: str, command: str) -> Callable[[dict], None]:
    """``--log-games``: a JSON-lines file, opened in ``stack``, that starts with the
    tournament's command and gets each game's record (:func:`game_record`) as soon as the
    game ends, so a tournament cut short still tells its first K games, which the command
    with ``--games K`` replays."""
    import json

    try:
        out = stack.enter_context(open(path, "w", encoding="utf-8"))
    except OSError as exc:
        raise InvalidArgumentError(f"cannot write the game log {path!r}: {exc}") from None
    out.write(json.dumps({"command": command}) + "\n")
    out.flush()

    def write(record: dict) -> None:
        out.write(json.dumps(record) + "\n")
        out.flush()

    return write
