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


if __name__ == "__main__":
    main()
