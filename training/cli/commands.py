"""The `plunder` command line: list, play, serve, speed, benchmark (and train, eval, export)."""

from __future__ import annotations

import os

# numpy's BLAS threads only slow the small matrices used here (and fight the env workers)
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import click  # noqa: E402

from .options import (  # noqa: E402
    GAME, MAX_STEPS, PORT, SEED, Group, bots_option, count, finite, game_argument,
    players_option,
)


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="plunder", prog_name="plunder",
                      message="%(prog)s %(version)s")
def main():
    """plunder: pirate tabletop games as multi-agent RL environments."""


@main.command("list")
def list_games():
    """List the games, their player counts and variant options."""
    from plunder.envs import specs
    from plunder.training.tables import text_table, wrap

    from .options import typed_value

    rows = [(s.env_id, s.title, f"{s.min_players}-{s.max_players}",
             "simultaneous" if s.simultaneous else "in turn") for s in specs()]
    click.echo(text_table(("game (env id)", "name", "players", "moves"), rows, align="llll"))
    click.echo("\n" + wrap("Variant options, at their defaults (plunder eval GAME "
                           "--option KEY=VALUE, plunder train GAME --set "
                           "options.KEY=VALUE; e.g. --option rough_seas=true):"))
    for s in specs():
        opts = "  ".join(f"{k}={typed_value(v)}" for k, v in s.options().items())
        click.echo(wrap(opts or "none", indent=f"  {s.name:<18}", hang=" " * 20))


@main.command()
@game_argument()
@click.option("--seat", type=count(0), default=0, show_default=True,
              help="Your seat (0 moves first in seat order; the first player may be drawn "
                   "at random by the rules).")
@bots_option("Comma-separated bots for the other seats", "One name fills every seat",
             default="heuristic", show_default=True)
@players_option()
@click.option("--seed", type=SEED, default=None, help="Seed for a reproducible game.")
@click.option("--auto-play/--no-auto-play", default=True, show_default=True,
              help="Play a move for you when it is your only legal one (a line says so).")
def play(game, seat, bots, players, seed, auto_play):
    """Play GAME in the terminal against bots (type help at the move prompt)."""
    from plunder.training.play.terminal import main_play

    main_play(game, seat, bots, players, seed, auto_play=auto_play)


@main.command()
@click.option("--seconds", type=finite(0, 3600), default=3.0, show_default=True,
              help="Seconds of play per environment (at most an hour).")
@click.option("--game", "games", type=GAME, multiple=True,
              help="Only these games (repeatable).")
@click.option("--no-yardsticks", is_flag=True, help="Skip PettingZoo/OpenSpiel yardsticks.")
@click.option("--no-train", is_flag=True, help="Skip the training-throughput measurement.")
@players_option("Only these player counts (repeatable; default: every supported count).",
                game_param="games", multiple=True)
@click.option("--no-batched", is_flag=True, help="Skip the batched path (GameBatch).")
@click.option("--observation-cost", is_flag=True,
              help="Also play each game through env() (and the batched path) with the "
                   "observation's encoding left out (an all-zero vector), to show what share "
                   "of a step it takes, and on the rules alone (masks and moves, no view).")
@click.option("--threads", "threads", type=count(2, 64), multiple=True,
              help="Thread counts of the threaded rows, beside one thread (repeatable; "
                   "default: 2).")
@click.option("--no-threads", is_flag=True, help="Skip the threaded rows.")
@click.option("--markdown", is_flag=True,
              help="Print the tables in Markdown, one row per line (for the docs), not in "
                   "bands of 80 columns.")
def speed(seconds, games, no_yardsticks, no_train, players, no_batched, observation_cost,
          threads, no_threads, markdown):
    """Measure steps per second of random legal play, beside PettingZoo and OpenSpiel
    yardsticks, a compiled batch split over threads, and the trainer's throughput."""
    from plunder.training.speed.envs import (
        encoder_summary, format_table, format_text, format_threads, run_bench, run_threads,
    )
    from plunder.training.tables import wrap

    results = run_bench(seconds, list(games) or None, not no_yardsticks,
                        players=list(players) or None, batched=not no_batched,
                        observation_cost=observation_cost)
    click.echo(format_table(results) if markdown else format_text(results))
    click.echo("\n" + encoder_summary())
    if not no_threads:
        click.echo("\n" + format_threads(run_threads(seconds, list(games) or None,
                                                     list(players) or None,
                                                     list(threads) or [2]),
                                         markdown=markdown))
    if not no_train:
        try:
            from plunder.training.speed.trainer import bench_training
        except ImportError as exc:
            click.echo(wrap(f"(training throughput skipped: {exc})"))
        else:
            click.echo(wrap(bench_training(), hang="    "))


#: what ``plunder bench`` says before it runs ``plunder speed``
BENCH_DEPRECATED = "plunder: 'plunder bench' is deprecated; use 'plunder speed' (same options)"


@main.command("bench")
@click.pass_context
def bench(ctx, **kwargs):
    """Deprecated name of `plunder speed` (kept for one release)."""
    click.echo(BENCH_DEPRECATED, err=True)
    ctx.invoke(speed, **kwargs)


bench.params = list(speed.params)


@main.command()
@game_argument()
@click.option("--config", "config_path", type=click.Path(dir_okay=False), default=None,
              help="Training config YAML (default: the packaged configs/train/GAME.yaml).")
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
              help="Override a config key, e.g. --set ppo.learning_rate=1e-3 (repeatable).")
@click.option("--steps", type=count(1, MAX_STEPS), default=None,
              help="Learner steps (total_timesteps).")
@players_option()
@click.option("--seed", type=SEED, default=None, help="Seed of the run.")
@click.option("--run-dir", type=click.Path(file_okay=False), default=None,
              help="Run directory (default runs/GAME-Np).")
@click.option("--resume", is_flag=True, help="Continue the run from its last checkpoint.")
@click.option("--overwrite", is_flag=True, help="Start over in a run dir with checkpoints.")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
def train(game, config_path, overrides, steps, players, seed, run_dir, resume, overwrite,
          no_progress):
    """Train a bot for GAME by self-play (MaskablePPO); ends with an evaluation table."""
    from plunder.training.selfplay.train import train_command

    train_command(game, config_path, list(overrides), steps, players, seed, run_dir, resume,
                  overwrite, no_progress)


@main.command("eval")
@game_argument()
@bots_option("Comma-separated bots", "With fewer bots than seats the last fills the rest",
             required=True)
@click.option("--games", type=count(), default=200, show_default=True, help="Games to play.")
@players_option("Number of players (default: the game's fewest).")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Tournament seed (game g is dealt from env seed (2*SEED+1)*2**64+g, "
                   "apart from every seed training uses).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="A variant option of the game (repeatable).")
@click.option("--max-turns", type=count(), default=None,
              help="Turn limit per game (default: the game's).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.option("--log-games", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write each game's result to FILE (JSON lines, after the command line) "
                   "as it ends, with the win shares so far: a long tournament cut short "
                   "keeps its first K games, which --games K replays.")
def evaluate(game, bots, games, players, seed, options, max_turns, as_json, log_games):
    """Play a tournament with seat rotation: win shares (95% CI), scores, ratings."""
    from plunder.training.evaluation.command import eval_command

    eval_command(game, bots, games, players, seed, list(options), as_json, max_turns,
                 log_games)


@main.command()
@click.argument("run", type=click.Path(exists=True, file_okay=False))
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="Output file (default RUN/bot.onnx).")
@click.option("--checkpoint", type=click.Path(dir_okay=False), default=None,
              help="A checkpoint file (default: the run's latest).")
def export(run, out, checkpoint):
    """Export a trained RUN as an ONNX bot (play it with --bots trained:FILE)."""
    from plunder.training.selfplay.export import export_command

    export_command(run, out, checkpoint)



@main.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (the default is this machine only; another "
                   "address lets others on the network play, with the bots of --bot-dir).")
@click.option("--port", type=PORT, default=8000, show_default=True,
              help="TCP port.")
@click.option("--bot-dir", type=click.Path(file_okay=False), default=None,
              help="Folder of trained bots (*.onnx, searched recursively) the page offers; "
                   "the only place it may open bot files from (default: none, the shipped "
                   "bots only).")
@click.option("--models", "models_dir", type=click.Path(file_okay=False), default=None,
              help="Deprecated: the former name of --bot-dir.")
@click.option("--max-games", type=count(1, 10_000), default=32, show_default=True,
              help="Games the server holds at once.")
@click.option("--idle-minutes", type=finite(0, 7 * 24 * 60), default=30.0,
              show_default=True, help="A game left alone this long is closed (at most a "
                                      "week).")
def serve(host, port, bot_dir, models_dir, max_games, idle_minutes):
    """Play, watch and replay the games in a browser (a local web server; docs/web.md)."""
    try:
        from plunder.training.web import serve as run_server
    except ImportError as exc:
        raise click.ClickException(f"plunder serve needs the web extra "
                                   f"(pip install 'plunder[web]'): {exc}") from None
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"plunder serve: open http://{shown}:{port}/ in a browser (Ctrl+C stops)")
    if models_dir is not None and bot_dir is None:
        click.echo("plunder serve: --models is deprecated; use --bot-dir", err=True)
        bot_dir = models_dir
    run_server(host=host, port=port, bot_dir=bot_dir, max_games=max_games,
               idle_minutes=idle_minutes)

def _add_benchmark() -> None:
    """``plunder benchmark ...`` (its own module: :mod:`.benchmark`)."""
    from .benchmark import benchmark

    main.add_command(benchmark)


_add_benchmark()

if __name__ == "__main__":
    main()
