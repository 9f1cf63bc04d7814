"""The `plunder` command line: list, play, bench (and train, eval, export)."""

from __future__ import annotations

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main():
    """plunder: pirate tabletop games as multi-agent RL environments."""


@main.command("list")
def list_games():
    """List the games, their player counts and variant options."""
    from plunder.envs import ENV_IDS, game_class

    for env_id in ENV_IDS:
        cls = game_class(env_id)
        opts = ", ".join(f"{k}={v!r}" for k, v in cls.options.items()) or "-"
        kind = "simultaneous" if cls.simultaneous else "turn-based"
        click.echo(f"{env_id:22s} {cls.min_players}-{cls.max_players} players  {kind:12s} "
                   f"options: {opts}")


def _env_id(game: str) -> str:
    """Accept 'scallywags' as well as 'scallywags_v0'."""
    from plunder.envs import ENV_IDS

    if game in ENV_IDS:
        return game
    matches = [e for e in ENV_IDS if e.rsplit("_v", 1)[0] == game]
    if len(matches) == 1:
        return matches[0]
    raise click.BadParameter(f"unknown game {game!r}; games: {', '.join(ENV_IDS)}")


@main.command()
@click.argument("game")
@click.option("--seat", default=0, show_default=True, help="Your seat (0 moves first in "
              "seat order; the first player may be drawn at random by the rules).")
@click.option("--bots", default="heuristic", show_default=True,
              help="Comma-separated bots for the other seats: random, heuristic, "
                   "trained:PATH.onnx (one name fills every seat).")
@click.option("--players", type=int, default=None, help="Number of players.")
@click.option("--seed", type=int, default=None, help="Seed for a reproducible game.")
def play(game, seat, bots, players, seed):
    """Play GAME in the terminal against bots."""
    from .play import main_play

    main_play(_env_id(game), seat, bots, players, seed)


@main.command()
@click.option("--seconds", type=float, default=3.0, show_default=True,
              help="Seconds of play per environment.")
@click.option("--game", "games", multiple=True, help="Only these env ids (repeatable).")
@click.option("--no-yardsticks", is_flag=True, help="Skip PettingZoo/OpenSpiel yardsticks.")
@click.option("--no-train", is_flag=True, help="Skip the training-throughput measurement.")
def bench(seconds, games, no_yardsticks, no_train):
    """Benchmark random legal play against PettingZoo and OpenSpiel yardsticks."""
    from .bench import format_table, run_bench

    results = run_bench(seconds, [_env_id(g) for g in games] or None, not no_yardsticks)
    click.echo(format_table(results))
    if not no_train:
        try:
            from .bench_train import bench_training
        except ImportError as exc:
            click.echo(f"(training throughput skipped: {exc})")
        else:
            click.echo(bench_training())


if __name__ == "__main__":
    main()
