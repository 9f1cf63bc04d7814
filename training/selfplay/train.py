"""Self-play training with MaskablePPO: ``plunder train GAME``.

One run = one game at one player count, in a run directory (default ``runs/<game>-<n>p``):

```
RUN/config.yaml                 the resolved config (every default filled in)
RUN/checkpoints/step_N.zip      model + optimizer, opponent pool, meta (atomic writes)
RUN/checkpoints/step_N.json     beside each: resolved config, git commit, steps, evals
RUN/tb/                         TensorBoard logs (``tensorboard --logdir RUN/tb``)
RUN/bot.onnx                    the exported bot (written at the end, with its evaluation)
RUN/eval.json                   the final evaluation
```

The learner plays one seat (drawn each game) against the league: random and heuristic bots
and frozen snapshots of itself taken every ``league.snapshot_every`` steps, sampled with
``league.weights`` (see :class:`~plunder.training.selfplay.selfplay_env.OpponentPool`). Snapshot
opponents of all N games are answered with one batched numpy forward pass per round.

Reproducibility: the same config and seed give the same run (same weights, same
evaluations) on the same machine, library versions and ``torch_threads``: the envs, pool
sampling, PPO minibatch order and network init are all seeded, and every vec env kind
collects results in env order. Not covered: identical numbers across torch builds or CPUs
(float reduction order differs), and ``--resume``: a resumed run restores weights,
optimizer, step counter, pool and evaluation history, but the games in flight at the
checkpoint are dropped and the env/torch seeds are re-derived from the step count, so it
continues on a different (still seeded and repeatable) path than an uninterrupted run.

Seeds. Everything a run with seed ``S`` (``0 <= S < 2**32``) draws is seeded below 2**64:
the games and opponents of the vec env (``SeedSequence(S)`` and its children; worker
processes get 32-bit seeds from it; ``S + steps`` on resume), the warm start's imitation
games and minibatches (``S + 7``, ``S + 11``, ``S + 13 + k``, ``S + 17 + k``; games played in
``pretrain.collect_parts`` parts take the children of ``SeedSequence`` of theirs), the
distillation's games and minibatches (``S + 101``, parts as the warm start's; ``S + 103``), the
opponents' own generators (31-bit draws), torch and SB3 (``S``). Evaluations are
tournaments (:mod:`plunder.training.evaluation`), whose game and bot seeds are 2**64 and
above: the periodic evaluation at step ``k`` is the tournament ``S + k`` (``k >= 1``), the
final evaluation the tournament ``S``, so it shares no game with training, the warm start
or any periodic evaluation. The final evaluation plays the exported ``RUN/bot.onnx``
through ``plunder eval``'s own code, and the summary prints the ``plunder eval`` command
that replays it game for game (``final_eval_command``).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import subprocess
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np
import yaml

from plunder.envs import game_class
from plunder.envs.core import InvalidArgumentError, ModelFileError, PlunderError

from plunder.training.atomic import atomic_write_bytes  # noqa: F401 - re-exported
from plunder.training.atomic import write_failure
from plunder.training.games import game_name
from plunder.training.tables import WIDTH, command_lines, text_table, wrap, wrapping

from .config import TrainConfig, entity_group_names, resolve_device
from .progress import TrainingProgress, latest_eval_text
from .selfplay_env import (Actor, ActorPolicy, OpponentPool, SelfPlayEnv, SelfPlayVecEnv,
                           actor_from_policy, limit_numpy_threads)
from plunder.training.threads import map_in_processes

CHECKPOINT_FORMAT = "plunder-checkpoint/1"
KEEP_CHECKPOINTS = 3


# -- small helpers -------------------------------------------------------------------------

def git_commit() -> str:
    """The source tree's commit (with ``+dirty`` for uncommitted changes), or 'unknown'."""
    here = Path(__file__).resolve().parent
    try:
        sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True,
                             text=True, timeout=10).stdout.strip()
        if not sha:
            return "unknown"
        dirty = subprocess.run(["git", "status", "--porcelain"], cwd=here,
                               capture_output=True, text=True, timeout=10).stdout.strip()
        return sha + ("+dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def run_platform() -> dict:
    """What a run's floating-point results depend on besides its config, seed and commit:
    the processor (PyTorch picks its CPU kernels by the instruction set, and kernels
    round differently) and the numeric libraries' versions. Recorded in every checkpoint,
    so that a run that does not repeat elsewhere can be told apart from a changed one."""
    import platform

    import sb3_contrib
    import stable_baselines3
    import torch

    return {"processor": _cpu_model(), "machine": platform.machine(),
            "torch_cpu_capability": torch.backends.cpu.get_cpu_capability(),
            "python": platform.python_version(), "torch": torch.__version__,
            "numpy": np.__version__, "stable_baselines3": stable_baselines3.__version__,
            "sb3_contrib": sb3_contrib.__version__}


def _cpu_model() -> str:
    """The processor's model name (Linux: /proc/cpuinfo), else what ``platform`` says."""
    import platform

    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def default_run_dir(cfg: TrainConfig) -> Path:
    """``runs/<game>-<n>p``, or ``runs/<game>-<n>p-<variant>`` for a named variant."""
    variant = f"-{cfg.variant}" if cfg.variant else ""
    return Path("runs") / f"{game_name(cfg.env_id)}-{cfg.num_players}p{variant}"


class LinearLR:
    """Learning rate decaying linearly to ``final`` times the start (picklable)."""

    def __init__(self, start: float, final_fraction: float):
        self.start, self.final_fraction = start, final_fraction

    def __call__(self, progress_remaining: float) -> float:
        f = self.final_fraction
        return self.start * (f + (1 - f) * progress_remaining)


# -- checkpoints ---------------------------------------------------------------------------

def checkpoint_paths(run_dir: Path) -> list[Path]:
    """Checkpoints of a run, oldest first."""
    folder = Path(run_dir) / "checkpoints"
    if not folder.is_dir():
        return []
    return sorted(folder.glob("step_*.zip"), key=lambda p: (len(p.stem), p.stem))


def save_checkpoint(run_dir: Path, model, pool: OpponentPool, meta: dict) -> Path:
    """Write ``checkpoints/step_N.zip`` (+ ``.json`` beside it) atomically."""
    steps = int(model.num_timesteps)
    buf = io.BytesIO()
    model.save(buf)
    league = io.BytesIO()
    np.savez(league, **pool.state_dict())
    meta = dict(meta, format=CHECKPOINT_FORMAT, steps=steps, saved_at=time.time())
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("model.zip", buf.getvalue())
        zf.writestr("league.npz", league.getvalue())
        zf.writestr("meta.json", json.dumps(meta, indent=2))
    path = Path(run_dir) / "checkpoints" / f"step_{steps:09d}.zip"
    atomic_write_bytes(path, out.getvalue())
    atomic_write_bytes(path.with_suffix(".json"), json.dumps(meta, indent=2).encode())
    for old in checkpoint_paths(run_dir)[:-KEEP_CHECKPOINTS]:
        old.unlink(missing_ok=True)
        old.with_suffix(".json").unlink(missing_ok=True)
    return path


@dataclass
class Checkpoint:
    """A loaded checkpoint file."""

    path: Path
    meta: dict
    model_bytes: bytes
    league: dict

    @property
    def config(self) -> TrainConfig:
        """The resolved config the run was trained with."""
        from .config import config_from_dict

        return config_from_dict(self.meta["config"], f"{self.path} (config)")

    def load_model(self, env=None, device: str = "cpu"):
        """The MaskablePPO model (optionally attached to ``env``)."""
        from .ppo import SelfPlayPPO

        try:
            return SelfPlayPPO.load(io.BytesIO(self.model_bytes), env=env, device=device)
        except Exception as exc:  # noqa: BLE001 - any failure means a damaged file
            raise ModelFileError(f"checkpoint {self.path}: the model inside cannot be "
                                 f"loaded ({type(exc).__name__}: {exc})") from None


def load_checkpoint(path: Path) -> Checkpoint:
    """Read a checkpoint; a damaged or foreign file raises ModelFileError."""
    path = Path(path)
    try:
        with zipfile.ZipFile(path) as zf:
            meta = json.loads(zf.read("meta.json"))
            model_bytes = zf.read("model.zip")
            with np.load(io.BytesIO(zf.read("league.npz"))) as npz:
                league = {k: npz[k] for k in npz.files}
    except FileNotFoundError:
        raise ModelFileError(f"no checkpoint at {path}") from None
    except (zipfile.BadZipFile, KeyError, ValueError, OSError, EOFError) as exc:
        raise ModelFileError(f"checkpoint {path} is damaged ({type(exc).__name__}: {exc}); "
                             "delete it to fall back to the previous one") from None
    if not isinstance(meta, dict) or meta.get("format") != CHECKPOINT_FORMAT:
        raise ModelFileError(f"{path} is not a plunder checkpoint "
                             f"(format {meta.get('format') if isinstance(meta, dict) else '?'})")
    return Checkpoint(path, meta, model_bytes, league)


def latest_checkpoint(run_dir: Path) -> Checkpoint:
    """The newest checkpoint of a run (ModelFileError if none or damaged)."""
    paths = checkpoint_paths(run_dir)
    if not paths:
        raise ModelFileError(f"no checkpoints in {Path(run_dir) / 'checkpoints'}")
    return load_checkpoint(paths[-1])


# -- environments --------------------------------------------------------------------------

def make_pool(cfg: TrainConfig) -> OpponentPool:
    """The league described by ``cfg.league``."""
    lg = cfg.league
    return OpponentPool(cfg.env_id, cfg.num_players, cfg.train_options(), weights=lg.weights,
                        max_snapshots=lg.max_snapshots, recency=lg.recency,
                        greedy_snapshots=lg.greedy_snapshots, onnx_paths=lg.onnx_opponents,
                        whole_table=lg.whole_table)


def _single_env(cfg: TrainConfig, seed: int):
    lg = cfg.league
    return SelfPlayEnv(cfg.env_id, cfg.num_players, opponents=dict(lg.weights),
                       options=cfg.train_options(), reward_mode=cfg.reward_mode,
                       max_turns=cfg.max_turns, seed=seed, max_snapshots=lg.max_snapshots,
                       recency=lg.recency, greedy_snapshots=lg.greedy_snapshots,
                       onnx_paths=lg.onnx_opponents, whole_table=lg.whole_table)


def make_vec_env(cfg: TrainConfig, pool: OpponentPool, seed: int):
    """The vectorized env of ``cfg.vec_env`` (batched, dummy or subproc)."""
    if cfg.vec_env == "batched" and cfg.vec_workers > 1:
        from .selfplay_env import ParallelSelfPlayVecEnv

        lg = cfg.league
        pool_kwargs = dict(env_id=cfg.env_id, num_players=cfg.num_players,
                           options=cfg.train_options(), weights=dict(lg.weights),
                           max_snapshots=lg.max_snapshots, recency=lg.recency,
                           greedy_snapshots=lg.greedy_snapshots,
                           onnx_paths=list(lg.onnx_opponents), whole_table=lg.whole_table)
        vec = ParallelSelfPlayVecEnv(cfg.env_id, cfg.num_players, cfg.n_envs, pool,
                                     pool_kwargs, cfg.vec_workers, cfg.train_options(),
                                     cfg.reward_mode, cfg.max_turns, seed)
        for snap in list(pool.snapshots):
            pool.snapshots.popleft()
            vec.add_snapshot(snap.actor, snap.step)
        return vec
    if cfg.vec_env == "batched":
        return SelfPlayVecEnv(cfg.env_id, cfg.num_players, cfg.n_envs, pool,
                              cfg.train_options(),
                              cfg.reward_mode, cfg.max_turns, seed)
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    fns = [lambda i=i: _single_env(cfg, seed * 1000 + i) for i in range(cfg.n_envs)]
    vec = DummyVecEnv(fns) if cfg.vec_env == "dummy" else SubprocVecEnv(fns)
    for snap in pool.snapshots:
        vec.env_method("add_snapshot", snap.actor, snap.step)
    return vec


def add_snapshot(vec, pool: OpponentPool, actor: Actor, step: int) -> None:
    """Freeze the learner into the league (and into every env's pool)."""
    if getattr(vec, "pool", None) is pool:
        vec.add_snapshot(actor, step)
    else:
        pool.add_snapshot(actor, step)
        vec.env_method("add_snapshot", actor, step)


# -- evaluation ----------------------------------------------------------------------------

def eval_opponents(cfg: TrainConfig, opponents: list[str] | None = None) -> list[str]:
    """The evaluation opponents (``cfg.eval.opponents`` by default) this game has."""
    out = []
    for spec in opponents or cfg.eval.opponents:
        if spec == "heuristic":
            from plunder.policies.base import heuristic_class
            try:
                heuristic_class(cfg.env_id)
            except (ImportError, InvalidArgumentError):
                continue
        out.append(spec)
    return out


def evaluate_actor(cfg: TrainConfig, actor: Actor, games: int, seed: int,
                   opponents: list[str] | None = None, progress=None) -> dict[str, Any]:
    """The greedy learner against each of ``opponents`` (others' seats all that bot);
    the periodic evaluations use it with the tournament seed ``cfg.seed + steps``."""
    from plunder.training.evaluation import bot_factories, run_tournament

    out = {}
    game = game_class(cfg.env_id)(cfg.num_players, **cfg.options)
    for spec in eval_opponents(cfg, opponents):
        # with recall the learner plays the configured game with its seat's memory
        bots = [("learner", lambda s: ActorPolicy(
            actor, greedy=True, seed=s,
            memory=game.observation_memory() if cfg.recall else None))]
        bots += bot_factories([spec], cfg.env_id, cfg.num_players, cfg.options)
        out[spec] = run_tournament(cfg.env_id, cfg.num_players, bots, games, seed,
                                   cfg.options, cfg.max_turns, progress=progress)
    return out


def final_eval_seed(cfg: TrainConfig) -> int:
    """The final evaluation's tournament seed: the run's seed (its games' seeds lie in the
    evaluation range, apart from every training seed; periodic evaluations use
    ``seed + steps`` with ``steps >= 1``)."""
    return cfg.seed


def final_eval_command(cfg: TrainConfig, bot_path: str | Path, opponent: str,
                       games: int) -> str:
    """The ``plunder eval`` command line that replays one cell of the final evaluation."""
    from plunder.training.evaluation.command import eval_command_line

    return eval_command_line(cfg.env_id, f"trained:{bot_path},{opponent}", cfg.num_players,
                             games, final_eval_seed(cfg), cfg.options, cfg.max_turns)


def final_evaluation(cfg: TrainConfig, bot_path: str | Path, games: int,
                     progress=None) -> dict[str, Any]:
    """The exported bot (``trained:PATH``, greedy) against each evaluation opponent, built
    and played exactly as ``plunder eval`` does (same bot specs, seed, options); with
    ``eval.final_workers > 1`` the opponents' tournaments run side by side in worker
    processes (each is seeded on its own, so the results are the same)."""
    specs = eval_opponents(cfg)
    if cfg.eval.final_workers <= 1:    # in this process, with the progress callback
        return {spec: _final_cell(cfg, str(bot_path), spec, games, progress)
                for spec in specs}
    jobs = [(cfg, str(bot_path), spec, games) for spec in specs]
    return dict(zip(specs, map_in_processes(_final_cell, jobs, cfg.eval.final_workers)))


def _final_cell(cfg: TrainConfig, bot_path: str, spec: str, games: int, progress=None):
    """One cell of the final evaluation: ``plunder eval --bots trained:BOT,SPEC``."""
    from plunder.training.evaluation import bot_factories, run_tournament

    bots = bot_factories([f"trained:{bot_path}", spec], cfg.env_id, cfg.num_players,
                         cfg.options)
    return run_tournament(cfg.env_id, cfg.num_players, bots, games, final_eval_seed(cfg),
                          cfg.options, cfg.max_turns, progress=progress)


def summarize(results: dict) -> dict:
    """{opponent: {win_share, ci95, ...}} of the learner (JSON-ready)."""
    out = {}
    for spec, t in results.items():
        me, opp = t.bots[0], t.bots[1]
        lo, hi = me.ci95
        out[spec] = {"num_players": t.num_players, "games": t.games, "seed": t.seed,
                     "win_share": round(me.win_share, 4), "ci95": [round(lo, 4), round(hi, 4)],
                     "parity": round(t.parity, 4),
                     "mean_score": round(me.mean_score, 3),
                     "opponent_mean_score": round(opp.mean_score, 3),
                     "rating": [round(me.mu, 2), round(opp.mu, 2)],
                     "truncated_games": t.truncated}
    return out


def render_summary(cfg: TrainConfig, summary: dict, steps: int,
                   echo: Callable[[str], None] = print, title: str | None = None,
                   width: int = WIDTH) -> None:
    """The final evaluation table (``width`` columns), the games that hit the turn limit
    and the command that replays each row."""
    rows = []
    parity = {s["parity"] for s in summary.values()}
    for spec, s in summary.items():
        lo, hi = s["ci95"]
        rows.append((spec, f"{s['games']:,}", f"{s['win_share']:.1%}",
                     f"{lo:.1%}–{hi:.1%}", f"{s['win_share'] - s['parity']:+.1%}",
                     f"{s['mean_score']:.1f} / {s['opponent_mean_score']:.1f}"))
    others = cfg.num_players - 1
    title = title or (f"{cfg.env_id}, {cfg.num_players} players: the trained bot after "
                      f"{steps:,} steps (greedy) against {others} of each opponent"
                      + (f"; parity {parity.pop():.0%}" if len(parity) == 1 else "")
                      + " (ratings: eval.json)")
    echo(text_table(("opponent", "games", "win share", "95% CI", "vs parity",
                     "score bot / opp"), rows, width=width, title=title))
    for spec, s in summary.items():
        if s.get("truncated_games"):
            echo(wrap(f"against {spec}: {s['truncated_games']} of {s['games']} games hit the "
                      "turn limit and were scored as they stood", width))
    rows = [(spec, s) for spec, s in summary.items() if s.get("command")]
    if rows:
        echo("\n" + wrap("The evaluation games are seeded apart from every game training saw. "
                  "Replay a row (same games, same seeds, same numbers) with:", width))
        for spec, s in rows:
            lo, hi = s["ci95"]
            echo(f"  # vs {spec}: {s['win_share']:.1%} (95% CI {lo:.1%}–{hi:.1%}, "
                 f"{s['games']:,} games)\n{command_lines(s['command'], width)}")


def next_commands(cfg: TrainConfig, run_dir: Path, bot: Path | None,
                  width: int = WIDTH) -> str:
    """What to do with a finished run: play against its bot, serve it, benchmark it, and
    where its TensorBoard logs are (the commands, ready to paste)."""
    from plunder.training.benchmark.tasks import TASKS

    name = game_name(cfg.env_id)
    n = cfg.num_players
    steps: list[tuple[str, str]] = []
    if bot is None:
        steps.append(("export the bot first (the run kept no bot.onnx)",
                      f"plunder export {run_dir}"))
        bot = Path(run_dir) / "bot.onnx"
    steps.append(("play against it in the terminal",
                  f"plunder play {name} --players {n} --bots trained:{bot}"))
    steps.append(("play against it in a browser (the page lists the bots of --bot-dir)",
                  f"plunder serve --bot-dir {Path(bot).parent}"))
    tasks = [t for t in TASKS.values() if t.env_id == cfg.env_id and t.num_players == n
             and not t.held_out and dict(t.option_dict) == dict(cfg.options)]
    task = next((t for t in tasks if t.name.endswith("-ladder")), tasks[0] if tasks else None)
    if task is not None:
        steps.append((f"benchmark it (the {task.name} task's fixed games and opponents)",
                      f"plunder benchmark run {task.name} --policy {bot}"))
    else:
        steps.append(("measure it against the scripted bot",
                      f"plunder eval {name} --players {n} --bots trained:{bot},heuristic"))
    if cfg.tensorboard:
        steps.append(("its training curves (TensorBoard logs)",
                      f"tensorboard --logdir {Path(run_dir) / 'tb'}"))
    lines = ["", "Next:"]
    for what, command in steps:
        lines += [wrap(what, width, indent="  # ", hang="  # "), command_lines(command, width)]
    return "\n".join(lines)


# -- the training loop ---------------------------------------------------------------------

def _make_model(cfg: TrainConfig, env, run_dir: Path):
    import torch.nn as nn

    from .ppo import SelfPlayPPO

    p = cfg.ppo
    lr = LinearLR(p.learning_rate, p.lr_final_fraction) if p.lr_schedule == "linear" \
        else p.learning_rate
    policy_kwargs = dict(net_arch=dict(pi=list(cfg.policy.net_arch),
                                       vf=list(cfg.policy.net_arch)),
                         activation_fn=nn.Tanh if cfg.policy.activation == "tanh" else nn.ReLU,
                         ortho_init=cfg.policy.ortho_init)
    policy: Any = "MlpPolicy"
    if cfg.policy.kind == "entity":
        from .entity_policy import EntityActorCriticPolicy, entity_groups_spec

        policy = EntityActorCriticPolicy
        policy_kwargs.update(entity_dim=cfg.policy.entity_dim, entity_groups=entity_groups_spec(
            game_class(cfg.env_id)(cfg.num_players, **cfg.options), cfg.policy.entity_groups))
    return SelfPlayPPO(
        policy, env, learning_rate=lr, n_steps=p.n_steps, batch_size=p.batch_size,
        n_epochs=p.n_epochs, gamma=p.gamma, gae_lambda=p.gae_lambda, clip_range=p.clip_range,
        ent_coef=p.ent_coef, vf_coef=p.vf_coef, max_grad_norm=p.max_grad_norm,
        target_kl=p.target_kl, policy_kwargs=policy_kwargs, seed=cfg.seed,
        device=resolve_device(cfg.device),
        async_rollouts=cfg.async_rollouts, truncation_reward=cfg.ppo.truncation_reward,
        tensorboard_log=str(run_dir / "tb") if cfg.tensorboard else None, verbose=0)


def _league_callback(cfg, run_dir, pool, state, echo):
    from stable_baselines3.common.callbacks import BaseCallback

    from .export import keep_early_snapshot

    class LeagueCallback(BaseCallback):
        """Snapshots into the league, periodic evaluation, checkpoints, win-rate logging."""

        def _on_step(self) -> bool:
            steps = self.num_timesteps
            for info in self.locals.get("infos", ()):
                if "win" in info:
                    state["wins"].append(info["win"])
            if steps >= state["next_snapshot"]:
                actor = actor_from_policy(self.model.policy)
                add_snapshot(self.training_env, pool, actor, steps)
                if run_dir is not None:  # the shipped early bot (the pool may drop it)
                    keep_early_snapshot(run_dir, actor, steps, cfg.total_timesteps)
                state["next_snapshot"] = steps + cfg.league.snapshot_every
                self.logger.record("league/snapshots", len(pool.snapshots))
            if cfg.eval.every and steps >= state["next_eval"]:
                state["next_eval"] = steps + cfg.eval.every
                res = summarize(evaluate_actor(cfg, actor_from_policy(self.model.policy),
                                               cfg.eval.games, cfg.seed + steps))
                state["evals"].append({"steps": steps, "results": res})
                parts = []
                for spec, s in res.items():
                    self.logger.record(f"eval/win_share_vs_{spec}", s["win_share"])
                    parts.append(f"vs {spec} {s['win_share']:.0%}")
                echo(f"[eval @ {steps:,}] " + ", ".join(parts))
            if steps >= state["next_checkpoint"]:
                state["next_checkpoint"] = steps + cfg.checkpoint_every
                save_checkpoint(run_dir, self.model, pool, _meta(cfg, state))
            return True

        def _on_rollout_end(self) -> None:
            wins = state["wins"][-2000:]
            state["wins"] = wins
            if wins:
                self.logger.record("league/win_rate", float(np.mean(wins)))

    return LeagueCallback()


def _meta(cfg: TrainConfig, state: dict) -> dict:
    cls = game_class(cfg.env_id)
    return {"env_id": cfg.env_id, "game": cls.name, "version": cls.version,
            "num_players": cfg.num_players, "options": cls.check_options(cfg.options),
            "config": cfg.to_dict(), "git_commit": state["commit"],
            "platform": state["platform"], "evals": state["evals"], "pretrain": state.get("pretrain"),
            "distill": state.get("distill"), "init_from": state.get("init_from"),
            "next": {k: state[k] for k in ("next_snapshot", "next_eval", "next_checkpoint")},
            "wall_seconds": state["wall"] + time.perf_counter() - state["t0"]}


def _pretrain(cfg: TrainConfig, model, state: dict, echo) -> None:
    pt = cfg.pretrain
    if pt.samples <= 0:
        return
    from plunder.policies.base import heuristic_class

    from .pretrain import (collect_dagger_decisions, collect_heuristic_decisions,
                           collect_in_parts, concat, imitate)

    try:
        heuristic_class(cfg.env_id)
    except (ImportError, InvalidArgumentError):
        echo(f"pretrain skipped: {cfg.env_id} has no heuristic bot")
        return
    import torch

    t0 = time.perf_counter()
    games = {"env_id": cfg.env_id, "num_players": cfg.num_players,
             "options": cfg.train_options(), "reward_mode": cfg.reward_mode,
             "gamma": cfg.ppo.gamma, "max_turns": cfg.max_turns, "teacher": pt.teacher,
             "contrast_weight": pt.contrast_weight}

    def collect(fn, kwargs, seed):
        return collect_in_parts(fn, kwargs, pt.samples, seed, pt.collect_parts,
                                cfg.vec_workers)

    torch.set_num_threads(pt.torch_threads or cfg.torch_threads)
    try:
        data = collect(collect_heuristic_decisions, games, cfg.seed + 7)
        state["pretrain"] = imitate(model, data, pt.epochs, pt.batch_size,
                                    pt.learning_rate, cfg.seed + 11, echo,
                                    pt.label_smoothing)
        for k in range(pt.dagger_rounds):
            actor = actor_from_policy(model.policy)
            more = collect(collect_dagger_decisions,
                           {**games, "actor": actor, "greedy": pt.dagger_greedy},
                           cfg.seed + 13 + k)
            echo(f"pretrain: DAgger round {k + 1}: learner agreed with the {pt.teacher} on "
                 f"{_agreement(actor, more):.0%} of its own decisions")
            data = concat(data, more)
            state["pretrain"] = imitate(model, data, pt.epochs, pt.batch_size,
                                        pt.learning_rate, cfg.seed + 17 + k, echo,
                                        pt.label_smoothing)
    finally:
        torch.set_num_threads(cfg.torch_threads)
    state["pretrain"]["seconds"] = round(time.perf_counter() - t0, 1)


def _distill(cfg: TrainConfig, model, state: dict, echo) -> None:
    """Fit the policy to the search's moves at its own greedy decisions
    (``cfg.distill``; training/selfplay/distill.py); a run that has done it once does not again."""
    ds = cfg.distill
    if ds.samples <= 0 or state.get("distill"):
        return
    from .actors import critic_from_policy
    from .distill import collect_search_decisions, critic_values
    from .export import export_actor
    from .pretrain import collect_in_parts, imitate

    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        net = export_actor(actor_from_policy(model.policy), cfg, int(model.num_timesteps), {},
                           Path(tmp) / "searched.onnx", state["commit"],
                           critic=critic_from_policy(model.policy))
        kwargs = {"env_id": cfg.env_id, "num_players": cfg.num_players,
                  "options": cfg.options, "bot_path": str(net), "opponents": ds.opponents,
                  "search": ds.search_settings, "max_turns": cfg.max_turns}
        obs, masks, labels, played = collect_in_parts(
            collect_search_decisions, kwargs, ds.samples, cfg.seed + 101, ds.collect_parts,
            cfg.vec_workers)
    overridden = float((labels != played).mean())
    echo(f"distill: the search chose otherwise than the network at {overridden:.1%} of "
         f"{len(labels):,} decisions")
    data = (obs, masks, labels, critic_values(model.policy, obs),
            np.ones(len(labels), np.float32))
    stats = imitate(model, data, ds.epochs, ds.batch_size, ds.learning_rate, cfg.seed + 103,
                    echo, what="distill")
    state["distill"] = {**stats, "search_overrode": overridden,
                        "seconds": round(time.perf_counter() - t0, 1)}


def _agreement(actor: Actor, data) -> float:
    obs, masks, acts = data[:3]
    return float((actor.act_batch(obs, masks, greedy=True) == acts).mean())


@dataclass
class TrainResult:
    """What ``train`` returns."""

    run_dir: Path
    steps: int
    seconds: float
    summary: dict
    onnx_path: Path | None


class RunLockedError(PlunderError, RuntimeError):
    """The run directory is being trained by another process."""


@contextlib.contextmanager
def lock_run(run_dir: Path):
    """Hold ``RUN/.lock`` while training: a second ``plunder train`` on the same run
    directory (``--resume`` twice, say) fails at once instead of overwriting the first."""
    from filelock import FileLock, Timeout

    run_dir.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(run_dir / ".lock"))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        raise RunLockedError(f"{run_dir} is in use by another training process (its lock "
                             f"file {run_dir / '.lock'} is held); wait for it to finish or "
                             "use --run-dir for a new run") from None
    try:
        yield
    finally:
        lock.release()


def train(cfg: TrainConfig, run_dir: str | Path | None = None, resume: bool = False,
          overwrite: bool = False, echo: Callable[[str], None] = print,
          final_eval: bool = True, export: bool = True) -> TrainResult:
    """Train (or resume) a run; ends with the final evaluation table and ``bot.onnx``.
    The run directory is locked for the whole run."""
    run_dir = Path(run_dir) if run_dir is not None else default_run_dir(cfg)
    with lock_run(run_dir):
        return _train(cfg, run_dir, resume, overwrite, wrapping(echo), final_eval, export)


def _train(cfg: TrainConfig, run_dir: Path, resume: bool, overwrite: bool,
           echo: Callable[[str], None], final_eval: bool, export: bool) -> TrainResult:
    """The run itself (``train`` holds the run directory's lock)."""
    import torch

    ckpt = None
    if resume:
        ckpt = latest_checkpoint(run_dir)
        saved = ckpt.config
        if saved.env_id != cfg.env_id or saved.num_players != cfg.num_players:
            raise InvalidArgumentError(
                f"{run_dir} holds a {saved.env_id} {saved.num_players}-player run, not "
                f"{cfg.env_id} {cfg.num_players}-player")
    elif checkpoint_paths(run_dir):
        if not overwrite:
            raise InvalidArgumentError(
                f"{run_dir} already has checkpoints; use --resume to continue it, "
                "--overwrite to start over, or --run-dir for a new run")
        for p in checkpoint_paths(run_dir):
            p.unlink()
            p.with_suffix(".json").unlink(missing_ok=True)
    if cfg.policy.kind == "entity" and not cfg.policy.entity_groups:
        # record the groups by name: a game may declare more groups later
        cfg = copy.deepcopy(cfg)
        cfg.policy.entity_groups = entity_group_names(cfg)
    run_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(run_dir / "config.yaml",
                       yaml.safe_dump(cfg.to_dict(), sort_keys=False).encode())
    torch.set_num_threads(cfg.torch_threads)
    limit_numpy_threads(1)

    state: dict[str, Any] = {"commit": git_commit(), "platform": run_platform(),
                             "evals": [], "wins": [],
                             "next_snapshot": 0, "next_eval": cfg.eval.every,
                             "next_checkpoint": cfg.checkpoint_every, "wall": 0.0,
                             "t0": time.perf_counter()}
    pool = make_pool(cfg)
    if ckpt is not None:
        pool.load_state_dict(ckpt.league)
        state["evals"] = list(ckpt.meta.get("evals", []))
        state["pretrain"] = ckpt.meta.get("pretrain")
        state["distill"] = ckpt.meta.get("distill")
        state["init_from"] = ckpt.meta.get("init_from")
        state.update(ckpt.meta.get("next", {}))
        state["wall"] = float(ckpt.meta.get("wall_seconds", 0.0))
        steps0 = int(ckpt.meta["steps"])
        vec = make_vec_env(cfg, pool, cfg.seed + steps0)
        model = ckpt.load_model(env=vec, device=resolve_device(cfg.device))
        model.async_rollouts = cfg.async_rollouts
        model.truncation_reward = cfg.ppo.truncation_reward
        model.set_random_seed(cfg.seed + steps0)
        model.tensorboard_log = str(run_dir / "tb") if cfg.tensorboard else None
        echo(f"resuming {run_dir} from {ckpt.path.name} ({steps0:,} steps)")
        before = ckpt.meta.get("platform")
        if before is not None and before != state["platform"]:
            changed = ", ".join(f"{k} {before.get(k)} -> {v}"
                                for k, v in state["platform"].items() if before.get(k) != v)
            echo(f"note: this checkpoint was written on another platform ({changed}); "
                 "floating-point results may differ from a run resumed there")
    else:
        steps0 = 0
        vec = make_vec_env(cfg, pool, cfg.seed)
        model = _make_model(cfg, vec, run_dir)
        if cfg.init_from is not None:   # the bot's weights instead of the imitation
            from .onnx_import import load_bot_weights
            state["init_from"] = load_bot_weights(model, cfg.init_from)
            echo(f"the network starts from {cfg.init_from} (no imitation warm start)")
        else:
            _pretrain(cfg, model, state, echo)
        from .export import EARLY_SNAPSHOT, keep_early_snapshot

        first = actor_from_policy(model.policy)
        add_snapshot(vec, pool, first, 0)
        (run_dir / EARLY_SNAPSHOT).unlink(missing_ok=True)   # an overwritten run's
        keep_early_snapshot(run_dir, first, 0, cfg.total_timesteps)
        state["next_snapshot"] = cfg.league.snapshot_every
    remaining = cfg.total_timesteps - steps0
    progress = TrainingProgress(steps0, cfg.total_timesteps, cfg.ppo.n_steps * cfg.n_envs,
                                echo, every=cfg.progress_every, show=cfg.progress_bar,
                                latest=lambda: latest_eval_text(state["evals"]))
    callback = _league_callback(cfg, run_dir, pool, state, progress.say)
    t_learn = time.perf_counter()
    if remaining > 0:
        try:
            model.learn(total_timesteps=remaining, callback=[callback, progress.callback()],
                        reset_num_timesteps=ckpt is None, progress_bar=False,
                        tb_log_name="ppo")
        except KeyboardInterrupt:
            progress.close()
            path = save_checkpoint(run_dir, model, pool, _meta(cfg, state))
            vec.close()
            echo(f"interrupted at {model.num_timesteps:,} steps; saved {path}; continue "
                 f"with: plunder train {game_name(cfg.env_id)} --run-dir {run_dir} --resume")
            raise
    learn_s = time.perf_counter() - t_learn
    steps = int(model.num_timesteps)
    path = save_checkpoint(run_dir, model, pool, _meta(cfg, state))
    vec.close()
    if remaining > 0:
        echo(f"trained {steps - steps0:,} steps in {learn_s:.0f}s "
             f"({(steps - steps0) / max(learn_s, 1e-9):,.0f} learner steps/s); "
             f"checkpoint {path}")
    if cfg.distill.samples > 0 and not state.get("distill"):
        _distill(cfg, model, state, echo)
        # the same step, now distilled: a resumed run does not distill twice
        path = save_checkpoint(run_dir, model, pool, _meta(cfg, state))
        echo(f"distilled in {state['distill']['seconds']:.0f}s; checkpoint {path}")
    summary: dict = {}
    from .actors import critic_from_policy
    from .export import export_actor

    actor, critic = actor_from_policy(model.policy), critic_from_policy(model.policy)
    onnx_path = run_dir / "bot.onnx" if export else None
    if onnx_path is not None:   # the final evaluation plays this very file
        export_actor(actor, cfg, steps, {}, onnx_path, state["commit"], critic=critic,
                     platform=state["platform"])
    if final_eval:
        with tempfile.TemporaryDirectory() as tmp:
            bot_path = onnx_path or export_actor(actor, cfg, steps, {}, Path(tmp) / "bot.onnx",
                                                 state["commit"], critic=critic,
                                                 platform=state["platform"])
            summary = summarize(final_evaluation(cfg, bot_path, cfg.eval.final_games))
        if onnx_path is not None:
            for spec, row in summary.items():
                row["command"] = final_eval_command(cfg, onnx_path, spec, row["games"])
            # the same weights again, now with the evaluation in the metadata
            export_actor(actor, cfg, steps, summary, onnx_path, state["commit"], critic=critic,
                         platform=state["platform"])
        atomic_write_bytes(run_dir / "eval.json", json.dumps(
            {"steps": steps, "results": summary}, indent=2).encode())
    if final_eval:
        render_summary(cfg, summary, steps, echo=echo)
    total = state["wall"] + time.perf_counter() - state["t0"]
    echo(f"run {run_dir}: {steps:,} steps, {total:.0f}s" +
         (f"; bot {onnx_path}" if onnx_path else ""))
    echo(next_commands(cfg, run_dir, onnx_path))
    return TrainResult(run_dir, steps, total, summary, onnx_path)


def train_command(game: str, config_path: str | None, overrides: list[str],
                  steps: int | None, players: int | None, seed: int | None,
                  run_dir: str | None, resume: bool, overwrite: bool,
                  no_progress: bool) -> TrainResult:
    """What ``plunder train`` does (the CLI stays thin)."""
    import click

    from plunder.envs.core import PlunderError

    from .config import apply_overrides, config_from_dict, load_config

    extra = list(overrides)
    if steps is not None:
        extra.append(f"total_timesteps={steps}")
    if players is not None:
        extra.append(f"num_players={players}")
    if seed is not None:
        extra.append(f"seed={seed}")
    if no_progress:
        extra.append("progress_bar=false")
    try:
        cfg = load_config(game, config_path, extra)
        rd = Path(run_dir) if run_dir else default_run_dir(cfg)
        if resume:
            saved = latest_checkpoint(rd).meta["config"]
            saved.setdefault("device", "cpu")   # runs from before the key trained on the CPU
            cfg = config_from_dict(apply_overrides(saved, extra), f"{rd} (saved config)")
        return train(cfg, rd, resume=resume, overwrite=overwrite, echo=click.echo)
    except PlunderError as exc:
        raise click.ClickException(str(exc)) from None
    except OSError as exc:      # a read-only or full disk, a run dir that is a file, ...
        raise click.ClickException(write_failure(exc, "the run")) from None
