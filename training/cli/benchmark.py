"""``plunder benchmark list|run|exploit|diagnose|targets|leaderboard|train-missing|ship``
(docs/benchmark.md)."""

from __future__ import annotations

import json
import shlex

import click

from plunder.envs.core import PlunderError

from .options import (
    GAME, MAX_STEPS, SEED, GameType, Group, count, game_argument, players_option,
)


def _fail(exc: Exception):
    """A plunder error as one ``Error:`` line."""
    raise click.ClickException(str(exc)) from None


def _command_line() -> str:
    """The running ``plunder benchmark`` command, rebuilt from its parsed parameters
    (arguments, then every option not at its default), ready to paste."""
    ctx = click.get_current_context()
    parts = ["plunder", "benchmark", ctx.command.name]
    options = []
    for param in ctx.command.params:
        value = ctx.params.get(param.name)
        if isinstance(param.type, GameType) and value is not None:
            value = _game_names(value)
        if isinstance(param, click.Argument):
            parts += [str(v) for v in value] if isinstance(value, tuple) else [str(value)]
        elif value not in (None, False, ()) and value != param.default:
            name = param.opts[0]
            if param.is_flag:
                options.append(name)
            else:
                for v in value if isinstance(value, tuple) else (value,):
                    options += [name, str(v)]
    return " ".join(shlex.quote(p) for p in parts + options)


def _game_names(value):
    """GAME values as a person types them (``scallywags``, not ``scallywags_v0``)."""
    from plunder.training.games import game_name

    return tuple(map(game_name, value)) if isinstance(value, tuple) else game_name(value)


def _report(data: dict, render, json_out) -> None:
    """Print a result with ``render`` and write its JSON to ``json_out`` (if given)."""
    from plunder.training.benchmark.run import write_json

    render(data, click.echo)
    if json_out:
        write_json(data, json_out)
        click.echo(f"wrote {json_out}")


@click.group("benchmark", cls=Group)
def benchmark():
    """Benchmark tasks, shipped opponent bots, one score command (docs/benchmark.md)."""


@benchmark.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print the registry as JSON.")
@click.option("--markdown", is_flag=True, help="Print the Markdown table of docs/benchmark.md.")
def list_tasks(as_json, markdown):
    """List the benchmark tasks."""
    from plunder.training.benchmark.tasks import TASKS, tasks_markdown

    if markdown:
        click.echo(tasks_markdown(), nl=False)
        return
    if as_json:
        click.echo(json.dumps([t.to_dict() for t in TASKS.values()], indent=2))
        return
    from plunder.training.tables import text_table

    rows = [(t.name, t.version, t.num_players, t.games, "yes" if t.held_out else "no",
             "\n".join(t.opponents)) for t in TASKS.values()]
    click.echo(text_table(("task", "v", "players", "games", "held out", "opponents"),
                          rows, align="lrrrll",
                          title="The benchmark tasks (v: the task's version; held out: "
                                "opponents no packaged training config names)"))


@benchmark.command("run")
@click.argument("task")
@click.option("--policy", required=True, metavar="SPEC",
              help="PATH.onnx, module:callable ((observation, action_mask) -> action), "
                   "module:factory() (called as factory(env_id=, num_players=, seed=), "
                   "returns an object with act), or a bot spec (heuristic, "
                   "pretrained:final, search:8, ...).")
@click.option("--games", type=count(), default=None,
              help="Play only the task's first N games (smoke tests; not a full result).")
@click.option("--json-out", type=click.Path(dir_okay=False), default=None,
              help="Also write the result JSON to this file (atomically).")
@click.option("--json", "as_json", is_flag=True, help="Print the JSON instead of the table.")
def run(task, policy, games, json_out, as_json):
    """Score POLICY on TASK: win share (95% CI), mean rank, score margin, rating, latency."""
    from plunder.training.benchmark.run import evaluate, render_result, write_json

    try:
        result = evaluate(task, policy, games=games, command=_command_line())
    except PlunderError as exc:
        _fail(exc)
    data = result.to_dict()
    if as_json:
        click.echo(json.dumps(data, indent=2))
    else:
        render_result(result, click.echo)
    if json_out:
        write_json(data, json_out)
        if not as_json:
            click.echo(f"wrote {json_out}")


@benchmark.command("exploit")
@click.argument("bot")
@click.option("--game", type=GAME, required=True, help="The game (e.g. scallywags).")
@players_option(required=True)
@click.option("--steps", type=count(1, MAX_STEPS), default=None,
              help="Learner steps of each best response (default: the larger of 2,000,000 "
                   "and 4 times the steps BOT was trained for).")
@click.option("--start", "starts", type=click.Choice(["scratch", "warm"]), multiple=True,
              help="Which best responses to train (repeatable): scratch (a random start) "
                   "and warm (BOT's own weights); default both for an exported bot, scratch "
                   "for a scripted one.")
@click.option("--games", type=count(), default=None,
              help="Evaluation games of each best response against BOT (default 1000).")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the best response's training run.")
@click.option("--run-dir", type=click.Path(file_okay=False), default=None,
              help="Where the best responses train, in RUN_DIR/scratch and RUN_DIR/warm "
                   "(default runs/exploit-GAME-Np-BOT).")
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
              help="Another training config setting (repeatable; not league.*, "
                   "pretrain.* or distill.*).")
@click.option("--json-out", type=click.Path(dir_okay=False), default=None,
              help="Also write the result JSON to this file (atomically).")
def exploit(bot, game, players, steps, starts, games, seed, run_dir, overrides, json_out):
    """Train best responses against the frozen BOT, from scratch and from BOT's own
    weights, and report their win shares with 95% intervals."""
    from plunder.training.benchmark.exploit import exploit as run_exploit
    from plunder.training.benchmark.exploit import render_exploit

    try:
        data = run_exploit(bot, game, players, steps=steps, games=games, seed=seed,
                           run_dir=run_dir, command=_command_line(), echo=click.echo,
                           overrides=list(overrides), starts=tuple(starts) or None)
    except PlunderError as exc:
        _fail(exc)
    _report(data, render_exploit, json_out)


@benchmark.command("diagnose")
@game_argument()
@click.option("--bot", required=True, metavar="SPEC",
              help="The bot to diagnose (any bot spec: trained:PATH.onnx, pretrained, ...).")
@players_option(required=True)
@click.option("--helper", default="heuristic", show_default=True, metavar="SPEC",
              help="The bot that takes over one kind of decision at a time.")
@click.option("--against", "opponent", default="heuristic", show_default=True,
              metavar="SPEC", help="The bot in every other seat.")
@click.option("--games", type=count(2), default=200, show_default=True,
              help="Games per replay (the survey and each hybrid play the same games).")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Tournament seed (the deals of plunder eval --seed).")
@click.option("--kinds", default=None, metavar="K1,K2",
              help="Kinds of decision to hand over, one hybrid each; K1+K2 hands two over "
                   "together (default: the --top kinds where the two bots disagree most "
                   "often).")
@click.option("--top", type=count(), default=4, show_default=True,
              help="How many kinds to replay when --kinds is not given.")
@click.option("--json-out", type=click.Path(dir_okay=False), default=None,
              help="Also write the result JSON to this file (atomically).")
def diagnose(game, bot, players, helper, opponent, games, seed, kinds, top, json_out):
    """Which kind of decision BOT loses games by: replays the same games with one kind of
    decision at a time made by the helper bot (docs/benchmark.md#where-a-bot-loses)."""
    from plunder.training.benchmark.diagnose import diagnose as run_diagnose
    from plunder.training.benchmark.diagnose import render_diagnosis

    chosen = None if kinds is None else [k.strip() for k in kinds.split(",") if k.strip()]
    try:
        data = run_diagnose(game, players, bot, helper=helper,
                            opponent=opponent, games=games, seed=seed, kinds=chosen,
                            top=top, command=_command_line(), echo=click.echo)
    except PlunderError as exc:
        _fail(exc)
    _report(data, render_diagnosis, json_out)


@benchmark.command("targets")
@click.option("--game", "games_", type=GAME, multiple=True, metavar="GAME",
              help="Only this game (repeatable; default: all five).")
@click.option("--bot", default="pretrained:final", show_default=True, metavar="SPEC",
              help="The trained bot to judge (any bot spec).")
@click.option("--games", type=count(), default=1000, show_default=True,
              help="Games per cell.")
@click.option("--seed", type=SEED, default=31, show_default=True,
              help="Tournament seed (the deals of plunder eval --seed); 0 is the training "
                   "runs' final evaluation, on which variants were compared.")
@click.option("--search-games", type=count(0), default=0, show_default=True,
              help="Also play netsearch:pretrained against the bot at 2 players, this many "
                   "games per game (slow: crew and Anchors Aweigh! take seconds a game).")
@click.option("--workers", type=count(1, 256), default=1, show_default=True,
              help="Processes playing the cells side by side (the same numbers as one).")
@click.option("--json-out", type=click.Path(dir_okay=False), default=None,
              help="Also write the result JSON to this file (atomically).")
def targets_command(games_, bot, games, seed, search_games, workers, json_out):
    """The trained bots against their targets: every game at 2 and 4 players, each
    cell with its 95% interval and the plunder eval command that replays it."""
    from plunder.training.benchmark.targets import render_targets, targets

    try:
        env_ids = list(games_) or None
        data = targets(games=games, seed=seed, env_ids=env_ids, bot=bot,
                       search_games=search_games, workers=workers, echo=click.echo)
    except PlunderError as exc:
        _fail(exc)
    data["command"] = _command_line()
    _report(data, render_targets, json_out)


@benchmark.command("leaderboard")
@game_argument(type=GameType(extra=("all",)))
@players_option("Number of players (required unless GAME is 'all', which rates every "
                "table with a shipped network; with 'all' it keeps that count only).")
@click.option("--games", type=count(), default=1000, show_default=True,
              help="Games per pairing.")
@click.option("--search-games", type=count(), default=None,
              help="Games per pairing that has a search bot (default: --games).")
@click.option("--bots", default=None,
              help="Comma-separated bot specs (default: random, the table's playable "
                   "levels level:novice .. level:expert, and planner where the game has one).")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the pairings' tournaments: 0 the published boards' games, "
                   "another a fresh set (choose levels on one, publish another).")
@click.option("--workers", type=count(1, 256), default=1, show_default=True,
              help="Processes playing the games side by side (the same numbers as one).")
@click.option("--cache-dir", default="runs/leaderboards", show_default=True,
              help="Where finished chunks of games are kept, so that a stopped board "
                   "resumes ('-' for none).")
@click.option("--check", is_flag=True,
              help="Exit with status 1 when adjacent levels stand less than 100 points apart.")
@click.option("--out-dir", type=click.Path(file_okay=False), default="docs/leaderboards",
              show_default=True, help="Where GAME-Np.md and GAME-Np.json go.")
@click.option("--doc", type=click.Path(dir_okay=False), default="docs/benchmark.md",
              show_default=True, help="Also embed the board in this Markdown file's "
                                      "leaderboards section ('-' for none).")
def leaderboard(game, players, games, search_games, bots, seed, workers, cache_dir, check,
                out_dir, doc):
    """One round robin of the table's bots: ratings on one Elo-equivalent scale with 95%
    intervals, whether adjacent levels stand 100 points apart, win shares, latency. GAME
    'all' rates every table with a shipped network."""
    from plunder.training.benchmark.leaderboard import (embed_in_doc, render_gaps,
                                                        run_leaderboard, shipped_tables,
                                                        write_leaderboard)

    chosen = {}
    if bots is not None:
        chosen["bots"] = tuple(b.strip() for b in bots.split(",") if b.strip())
        if len(chosen["bots"]) < 2:
            raise click.BadParameter("a leaderboard needs at least two bots",
                                     param_hint="'--bots'")
    if game == "all":
        cells = [(e, n) for e, n in shipped_tables() if players in (None, n)]
    elif players is None:
        raise click.BadParameter("--players is required (or GAME 'all')",
                                 param_hint="'--players'")
    else:
        cells = [(game, players)]
    command = _command_line()
    short = []
    for env_id, n in cells:
        try:
            board = run_leaderboard(env_id, n, games=games, search_games=search_games,
                                    command=command, echo=click.echo, seed=seed,
                                    workers=workers,
                                    cache_dir=None if cache_dir == "-" else cache_dir,
                                    **chosen)
        except PlunderError as exc:
            _fail(exc)
        render_gaps(board, click.echo)
        short += [f"{env_id} {n}p {r['lower']} -> {r['upper']}" for r in board["level_gaps"]
                  if not r["apart"]]
        for path in write_leaderboard(board, out_dir):
            click.echo(f"wrote {path}")
        if doc != "-":
            try:
                click.echo(f"updated {embed_in_doc(board, doc)}")
            except (PlunderError, OSError) as exc:
                _fail(exc)
    if check and short:
        click.echo(f"levels less than 100 points apart: {'; '.join(short)}")
        raise SystemExit(1)


@benchmark.command("train-missing")
@click.option("--game", "games_", type=GAME, multiple=True, metavar="GAME",
              help="Only this game (repeatable; default: every game).")
@click.option("--runs-dir", type=click.Path(file_okay=False), default="runs",
              show_default=True, help="Where the runs train (RUNS/GAME-Np[-VARIANT]).")
@click.option("--dest", type=click.Path(file_okay=False), default=None,
              help="The shipped bots' folder (default: the package's plunder/policies/"
                   "pretrained).")
@click.option("--dry-run", is_flag=True,
              help="Only list every table with its status and its plunder train command.")
@click.option("--early", is_flag=True,
              help="Also ship each table's early bot (default: the final bot alone, which "
                   "the levels play; early bots add about 60% to a table's weight).")
def train_missing(games_, runs_dir, dest, dry_run, early):
    """Train and ship, one after another, every table the training configs name (every
    player count, every variant) whose network is not shipped yet; run again to go on
    after a stop (shipped tables are skipped, started runs resumed)."""
    try:
        from plunder.training.selfplay.cells import train_missing as run_missing
    except ImportError as exc:
        raise click.ClickException(f"plunder benchmark train-missing needs the train extra "
                                   f"(pip install 'plunder[train]'): {exc}") from None
    try:
        rows = run_missing(list(games_) or None, runs=runs_dir, dest=dest, dry_run=dry_run,
                           echo=click.echo, early=early)
    except PlunderError as exc:
        _fail(exc)
    todo = [r for r in rows if r["status"] != "shipped"]
    click.echo(f"{len(rows) - len(todo)} of {len(rows)} tables were shipped already; "
               + (f"{len(todo)} to train" if dry_run else f"{len(todo)} trained and shipped"))


@benchmark.command("ship")
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path(file_okay=False))
@click.option("--dest", type=click.Path(file_okay=False), default=None,
              help="Target folder (default: the package's plunder/policies/pretrained).")
@click.option("--game", type=GAME, default=None, help="Refuse runs of any other game.")
@players_option("Refuse runs of any other player count.")
@click.option("--placeholder", is_flag=True,
              help="Mark the bots as placeholders (small development runs).")
@click.option("--float32", "keep_float32", is_flag=True,
              help="Store the weights as trained (default: float16, half the size).")
@click.option("--no-early", is_flag=True,
              help="Ship the final bot alone (no early snapshot: about 40% less weight).")
def ship(run_dirs, dest, game, players, placeholder, keep_float32, no_early):
    """Export finished training runs' final and early bots into the package."""
    try:
        from plunder.training.benchmark.ship import ship as run_ship
    except ImportError as exc:
        raise click.ClickException(f"plunder benchmark ship needs the train extra "
                                   f"(pip install 'plunder[train]'): {exc}") from None
    try:
        run_ship(list(run_dirs), dest=dest, placeholder=placeholder, game=game,
                 players=players, float16=not keep_float32, echo=click.echo,
                 early=not no_early)
    except ImportError as exc:
        raise click.ClickException(f"plunder benchmark ship needs the train extra "
                                   f"(pip install 'plunder[train]'): {exc}") from None
    except PlunderError as exc:
        _fail(exc)
