"""Training configs: ``configs/train/<game>.yaml``, validated on load, with overrides.

A config is a :class:`TrainConfig` (nested dataclasses). Every field carries its meaning in
``metadata["doc"]``; ``describe_config()`` prints the whole schema with defaults (this is
the table in ``docs/training.md``). Loading checks every key and every type and raises
:class:`~plunder.envs.core.ConfigError` naming the offending key and what was expected.

Overrides use dotted keys with YAML values, e.g. ``ppo.learning_rate=1e-3`` or
``league.weights={random: 1, heuristic: 2, snapshots: 4}`` (``plunder train --set``).
"""

from __future__ import annotations

import dataclasses
import math
import re
import types
import typing
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from plunder.envs.core import ConfigError, UnknownEnvError
from plunder.envs.core.checks import MAX_INT
from plunder.policies.base import BOT_KINDS, PLANNERS
from plunder.training.games import game_name
from plunder.training.games import resolve_env_id as resolve_game


#: the most learner steps a run takes (and the longest interval between its events)
MAX_STEPS = 10**12


def _f(default, doc: str, **kw):
    """A dataclass field with a default and a documented meaning."""
    if isinstance(default, (list, dict)):
        return field(default_factory=lambda d=default: type(d)(d), metadata={"doc": doc, **kw})
    return field(default=default, metadata={"doc": doc, **kw})


@dataclass
class PolicyConfig:
    """The actor-critic network over the flat observation vector."""

    kind: str = _f("mlp", "mlp (SB3's MLP) or entity (weights shared across the game's "
                          "entity groups, e.g. coins; see docs/training.md)",
                   choices=("mlp", "entity"))
    entity_dim: int = _f(32, "with kind entity: width of each member's code", low=1)
    entity_groups: list[str] = _f([], "with kind entity: the names of the game's entity "
                                      "groups to use, in the game's order ([]: all of them)")
    net_arch: list[int] = _f([128, 128], "hidden layer sizes, shared by actor and critic "
                                         "shapes (separate weights)", item_low=1,
                             min_len=1)
    activation: str = _f("tanh", "hidden activation: tanh or relu", choices=("tanh", "relu"))
    ortho_init: bool = _f(True, "orthogonal weight initialisation (SB3 default)")


@dataclass
class PPOConfig:
    """MaskablePPO hyper-parameters (sb3-contrib names)."""

    learning_rate: float = _f(3e-4, "Adam step size at the start of training", low=0.0)
    lr_schedule: str = _f("linear", "constant, or linear decay to lr_final_fraction of the "
                                    "start value by the end", choices=("constant", "linear"))
    lr_final_fraction: float = _f(0.1, "final learning rate / start learning rate (linear)",
                                  low=0.0, high=1.0)
    n_steps: int = _f(256, "learner steps per env per rollout (rollout = n_steps * n_envs)",
                      low=1, high=65_536)
    batch_size: int = _f(1024, "minibatch size of the gradient steps", low=2)
    n_epochs: int = _f(4, "passes over each rollout", low=1)
    gamma: float = _f(0.995, "discount factor (rewards come only at the end of a game)",
                      low=0.0, high=1.0)
    gae_lambda: float = _f(0.95, "GAE lambda", low=0.0, high=1.0)
    clip_range: float = _f(0.2, "PPO clipping of the probability ratio", low=0.0)
    ent_coef: float = _f(0.01, "entropy bonus weight", low=0.0)
    vf_coef: float = _f(0.5, "value loss weight", low=0.0)
    max_grad_norm: float = _f(0.5, "gradient clipping norm", low=0.0)
    target_kl: float | None = _f(None, "stop an update early when the KL exceeds this "
                                       "(null: never)")
    truncation_reward: float | None = _f(
        None, "the learner's reward for a game cut off by the turn limit, in place of its "
              "standing ranks plus the discounted value of where it stopped (null: those, "
              "as SB3 bootstraps); e.g. -1 makes a stall pay a loss (needs vec_env batched)")


@dataclass
class LeagueConfig:
    """The opponent pool: who sits in the other seats of each training game."""

    weights: dict[str, float] = _f(
        {"random": 1.0, "heuristic": 1.0, "snapshots": 2.0},
        "sampling weight of each opponent kind per seat and game: random, heuristic, "
        "snapshots (frozen copies of the learner), onnx (the files in onnx_opponents); "
        "kinds without members (no heuristic bot, no snapshot yet) are skipped")
    snapshot_every: int = _f(50_000, "learner steps between snapshots of the learner into "
                                     "the pool (one is taken at step 0)", low=1,
                             high=MAX_STEPS)
    max_snapshots: int = _f(10, "pool size; the oldest snapshot leaves first", low=1)
    recency: float = _f(0.8, "snapshot k places from the newest is drawn with weight "
                             "recency**k (1: uniform over the pool)", low=0.0, high=1.0)
    greedy_snapshots: bool = _f(False, "snapshots play their most likely action instead of "
                                       "sampling from their policy")
    onnx_opponents: list[str] = _f([], "exported .onnx bots (same game, players, variant) "
                                       "that join the pool under the 'onnx' weight")
    whole_table: float = _f(0.0, "probability that one draw fills every other seat of a "
                                 "game (say, a whole table of heuristic bots, as the final "
                                 "evaluation plays; with 3+ players); otherwise each seat draws its own",
                            low=0.0, high=1.0)


@dataclass
class EvalConfig:
    """Evaluation against random and heuristic opponents (learner plays greedily)."""

    every: int = _f(100_000, "learner steps between evaluations during training (0: none)",
                    low=0, high=MAX_STEPS)
    games: int = _f(100, "games per opponent kind in each periodic evaluation", low=1)
    final_games: int = _f(1000, "games per opponent kind in the final evaluation table "
                                "(its 95% interval is about ±3 points at 1,000)", low=1)
    opponents: list[str] = _f(["random", "heuristic"], "bots filling the other seats, one "
                                                        "evaluation each")
    final_workers: int = _f(1, "processes playing the final evaluation's opponents side by "
                               "side (1: all in the training process); same results; more "
                               "than 1 needs a game a new process can import", low=1)


@dataclass
class PretrainConfig:
    """Optional warm start by imitating a scripted bot, the game's heuristic or its planner
    (see training/selfplay/pretrain.py)."""

    samples: int = _f(0, "the teacher's decisions to imitate before PPO (0: start from "
                         "scratch; skipped for a game without a heuristic bot)", low=0)
    dagger_rounds: int = _f(0, "DAgger rounds after the first fit: the learner plays "
                               "`samples` decisions against heuristic bots, each labelled "
                               "with the teacher's choice, and the policy is refitted "
                               "on all data so far", low=0)
    dagger_greedy: bool = _f(False, "in DAgger rounds the learner plays its likeliest move (as "
                                    "the exported bot does) instead of sampling, so the "
                                    "labelled states include where the greedy bot goes wrong, "
                                    "loops included")
    collect_parts: int = _f(1, "each collection of decisions is played as this many "
                               "independently seeded parts, run side by side on up to "
                               "`vec_workers` processes (the data depend on the parts, not "
                               "on the workers; 1: one part seeded as before; with more "
                               "than one worker the game must be importable by a new "
                               "process)", low=1)
    torch_threads: int = _f(0, "torch intra-op threads of the imitation fits (0: the run's "
                               "`torch_threads`); nothing else runs during the warm start, "
                               "so 2 uses both cores of a 2-core machine", low=0)
    epochs: int = _f(8, "passes over the imitation data (each fit)", low=1)
    batch_size: int = _f(256, "minibatch size of the imitation steps", low=1)
    learning_rate: float = _f(1e-3, "Adam step size of the imitation", low=0.0)
    label_smoothing: float = _f(0.0, "share of each imitation target spread evenly over the "
                                     "legal actions (0: the heuristic's action alone); keeps "
                                     "the warm-started policy from becoming deterministic, "
                                     "so that PPO still tries the other moves",
                                low=0.0, high=0.999)
    teacher: str = _f("heuristic", "the scripted bot imitated: heuristic, or planner (a "
                                   "stronger one, where the game has one: Anchors Aweigh!, ShipShape); "
                                   "the DAgger opponents stay heuristic bots",
                      choices=("heuristic", "planner"))
    contrast_weight: float = _f(1.0, "with teacher planner: the weight in the imitation loss "
                                     "of each decision where the planner chooses otherwise "
                                     "than the heuristic would (1: every decision alike)",
                                low=0.0)


@dataclass
class DistillConfig:
    """Optional search distillation after PPO: the search with the run's network labels
    the network's own games and the policy is fitted to its moves (see
    training/selfplay/distill.py)."""

    samples: int = _f(0, "decisions of the trained network's own greedy games to label "
                         "with the search's moves and fit after PPO (0: no distillation)",
                      low=0)
    opponents: list[str] = _f(["random", "heuristic"], "bots in the other seats of those "
                                                       "games, taken in turn game by game",
                              min_len=1)
    search_settings: str = _f("", "netsearch settings as in a bot spec, KEY=VALUE parts "
                                  "joined by ':' (e.g. samples=32:top_k=2); empty: the "
                                  "game's defaults")
    collect_parts: int = _f(1, "the games are played as this many independently seeded "
                               "parts on up to `vec_workers` processes (as "
                               "pretrain.collect_parts)", low=1)
    epochs: int = _f(2, "passes over the labelled decisions", low=1)
    batch_size: int = _f(1024, "minibatch size of the fit", low=1)
    learning_rate: float = _f(3e-4, "Adam step size of the fit", low=0.0)


@dataclass
class TrainConfig:
    """One self-play training run of one game at one player count."""

    game: str = _f("scallywags_v0", "env id (or game name) from the registry")
    num_players: int = _f(2, "players at the table (one model per player count)", low=1)
    options: dict[str, Any] = _f({}, "variant options passed to the env")
    variant: str = _f("", "the named variant this run trains: the config file's `variants` "
                          "entry of that name is merged in on load (its options, and any "
                          "setting that differs there); '' trains the game as configured "
                          "(docs/training.md#variants)")
    recall: bool = _f(False, "train on the game's perfect-recall observations (its recall "
                             "option, e.g. Anchors Aweigh!'s perfect_recall: the round's "
                             "cards stay in view) and play the game as configured with a "
                             "memory of what the seat saw: the exported bot rebuilds those "
                             "observations from its own (Game.observation_memory); "
                             "evaluations play the configured game")
    reward_mode: str = _f("rank", "env reward mode: rank, win or score (no shaping)",
                          choices=("rank", "win", "score"))
    max_turns: int | None = _f(None, "truncation limit in game turns (null: game default)",
                               low=1)
    seed: int = _f(0, "seed of everything (envs, opponents, network init, sampling) and the "
                      "final evaluation's tournament seed, whose games are seeded apart from "
                      "all of training's (docs/training.md#evaluation)", low=0,
                   high=2**32 - 1)
    total_timesteps: int = _f(500_000, "learner env-steps to train for", low=1,
                              high=MAX_STEPS)
    n_envs: int = _f(16, "games played side by side", low=1, high=4096)
    vec_env: str = _f("batched", "batched (one process, opponents' forward passes batched "
                                 "across games), dummy or subproc (SB3 vec envs over "
                                 "SelfPlayEnv)", choices=("batched", "dummy", "subproc"))
    vec_workers: int = _f(1, "with vec_env batched: worker processes sharing the games "
                             "(1: all in the training process)", low=1, high=256)
    async_rollouts: bool = _f(False, "with vec_env batched and vec_workers > 1: the workers "
                                     "play the next rollout (with the policy as it was "
                                     "before this update) while PPO updates on the last one; "
                                     "each rollout's behaviour policy then lags one update, "
                                     "corrected as in decoupled PPO (docs/training.md)")
    torch_threads: int = _f(1, "torch intra-op threads (results depend on it)", low=1,
                            high=256)
    init_from: str | None = _f(None, "an exported bot (.onnx, this game, players and variant) "
                                     "whose weights the network starts from, in place of "
                                     "its random initialisation and of the imitation warm "
                                     "start (pretrain); the network settings (policy.*, "
                                     "recall) must be the bot's (null: none)")
    device: str = _f("auto", "where the network trains: auto (CUDA when torch sees a GPU, "
                             "else the CPU), cpu, cuda or cuda:N; the games and their "
                             "opponents always run on the CPU. The packaged configs say cpu: "
                             "the shipped bots repeat bit for bit only on the CPU "
                             "(docs/training.md#devices)")
    checkpoint_every: int = _f(100_000, "learner steps between checkpoints (the last one "
                                        "is always written)", low=1, high=MAX_STEPS)
    progress_bar: bool = _f(True, "show progress: a bar on a terminal, else a line every "
                                  "progress_every steps")
    progress_every: int = _f(0, "where the output is not a terminal: learner steps between "
                                "progress lines (0: about 50 lines a run)", low=0)
    tensorboard: bool = _f(True, "write TensorBoard logs under RUN/tb")
    policy: PolicyConfig = field(default_factory=PolicyConfig,
                                 metadata={"doc": "network"})
    ppo: PPOConfig = field(default_factory=PPOConfig, metadata={"doc": "PPO"})
    league: LeagueConfig = field(default_factory=LeagueConfig, metadata={"doc": "league"})
    eval: EvalConfig = field(default_factory=EvalConfig, metadata={"doc": "evaluation"})
    pretrain: PretrainConfig = field(default_factory=PretrainConfig,
                                     metadata={"doc": "warm start"})
    distill: DistillConfig = field(default_factory=DistillConfig,
                                   metadata={"doc": "search distillation"})

    def train_options(self) -> dict[str, Any]:
        """The variant training plays: ``options``, plus the game's recall option with
        ``recall`` (evaluations play ``options``)."""
        if not self.recall:
            return dict(self.options)
        from plunder.envs import game_class
        return {**self.options, game_class(self.env_id).recall_option: True}

    @property
    def env_id(self) -> str:
        """The resolved registry id (``scallywags`` -> ``scallywags_v0``)."""
        return resolve_env_id(self.game)

    def to_dict(self) -> dict:
        """Plain nested dict (what is written next to checkpoints)."""
        return dataclasses.asdict(self)


def resolve_env_id(game: str) -> str:
    """``scallywags`` or ``scallywags_v0`` -> the registered env id; an unknown game is a
    :class:`ConfigError` here (a config names it)."""
    try:
        return resolve_game(game)
    except UnknownEnvError as exc:
        raise ConfigError(str(exc)) from None


#: the devices a config may name (``cuda:N`` besides): ``auto`` picks one when training
DEVICES = ("auto", "cpu", "cuda")


def check_device(device: str, where: str = "device") -> str:
    """``device`` if it is ``auto``, ``cpu``, ``cuda`` or ``cuda:N`` (N a whole number),
    else a ConfigError; whether that GPU exists is asked only when a run starts
    (:func:`resolve_device`), so a config written on a GPU machine still loads elsewhere."""
    kind, sep, index = device.partition(":")
    if device in DEVICES or (kind == "cuda" and sep and index.isdigit() and index.isascii()):
        return device
    raise ConfigError(f"{where}: {device!r} is not a device; use auto (CUDA when torch "
                      "sees a GPU, else the CPU), cpu, cuda or cuda:N")


def resolve_device(device: str) -> str:
    """The torch device a run trains on: ``auto`` is ``cuda`` when torch sees a GPU, else
    ``cpu``; ``cuda`` or ``cuda:N`` without such a GPU is a ConfigError saying what torch
    sees."""
    import torch

    check_device(device)
    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cpu":
        return device
    count = torch.cuda.device_count() if torch.cuda.is_available() else 0
    index = int(device.partition(":")[2] or 0)
    if index >= count:
        seen = f"{count} CUDA device(s) (cuda:0..cuda:{count - 1})" if count else \
            "no CUDA device (torch.cuda.is_available() is False)"
        raise ConfigError(f"device: {device!r}, but torch sees {seen}; use device: auto or "
                          "cpu")
    return device


def entity_group_names(cfg: "TrainConfig") -> list[str]:
    """The entity groups a config's network uses, by name: ``policy.entity_groups``, or
    every group the game declares when that is empty."""
    if cfg.policy.entity_groups:
        return list(cfg.policy.entity_groups)
    from plunder.envs import game_class

    return [g.name for g in game_class(cfg.env_id)(cfg.num_players, **cfg.options)
            .entity_groups]


# -- validation ----------------------------------------------------------------------------

def _type_name(tp) -> str:
    return getattr(tp, "__name__", str(tp)).replace("typing.", "")


def _check_value(value: Any, tp, where: str, meta: dict) -> Any:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return _check_value(value, inner[0], where, meta)
    if dataclasses.is_dataclass(tp):
        return _build(tp, value, where)
    if origin is list:
        (item_tp,) = typing.get_args(tp)
        if not isinstance(value, list):
            raise ConfigError(f"{where}: expected a list, got {value!r}")
        if len(value) < meta.get("min_len", 0):
            raise ConfigError(f"{where}: needs at least {meta['min_len']} entries, got {value!r}")
        item_meta = {"low": meta["item_low"]} if "item_low" in meta else {}
        return [_check_value(v, item_tp, f"{where}[{i}]", item_meta)
                for i, v in enumerate(value)]
    if origin is dict:
        key_tp, val_tp = typing.get_args(tp)
        if not isinstance(value, dict):
            raise ConfigError(f"{where}: expected a mapping, got {value!r}")
        return {_check_value(k, key_tp, f"{where} key", {}):
                (v if val_tp is Any else _check_value(v, val_tp, f"{where}.{k}", {}))
                for k, v in value.items()}
    if tp is Any:
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"{where}: expected a number, got {value!r}")
        try:
            value = float(value)
        except OverflowError:
            value = float("inf")
        if not math.isfinite(value):     # nan compares false with every bound
            raise ConfigError(f"{where}: expected a finite number, got {value!r}")
    elif tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{where}: expected an int, got {value!r}")
        meta.setdefault("high", MAX_INT)       # the widest a count in a run gets
    elif tp is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: expected true or false, got {value!r}")
    elif tp is str:
        if not isinstance(value, str):
            raise ConfigError(f"{where}: expected a string, got {value!r}")
    if "choices" in meta and value not in meta["choices"]:
        raise ConfigError(f"{where}: {value!r} is not one of {list(meta['choices'])}")
    if "low" in meta and value < meta["low"]:
        raise ConfigError(f"{where}: {value!r} is below the minimum {meta['low']}")
    if "high" in meta and value > meta["high"]:
        raise ConfigError(f"{where}: {value!r} is above the maximum {meta['high']}")
    return value


def _build(cls, data: Any, where: str):
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: expected a mapping, got {data!r}")
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {unknown}; allowed: {sorted(fields)}")
    kwargs = {}
    for name, value in data.items():
        key = f"{where}.{name}" if where else name
        kwargs[name] = _check_value(value, hints[name], key, dict(fields[name].metadata))
    return cls(**kwargs)


def _cross_check(cfg: TrainConfig, where: str) -> TrainConfig:
    from plunder.envs import game_class
    from plunder.envs.core import PlunderError

    try:
        env_id = resolve_env_id(cfg.game)
    except ConfigError as exc:
        raise ConfigError(f"{where}: game: {exc}") from None
    cls = game_class(env_id)
    if not cls.min_players <= cfg.num_players <= cls.max_players:
        raise ConfigError(f"{where}: num_players: {env_id} supports "
                          f"{cls.min_players}-{cls.max_players} players, got {cfg.num_players}")
    try:
        cls.check_options(cfg.options)
    except PlunderError as exc:
        raise ConfigError(f"{where}: options: {exc}") from None
    if cfg.variant and not VARIANT_NAME.fullmatch(cfg.variant):
        raise ConfigError(f"{where}: variant: {cfg.variant!r} is not a variant name (lower-case "
                          "letters, digits and _, starting with a letter)")
    if cfg.variant and cls.check_options(cfg.options) == cls.check_options({}):
        raise ConfigError(f"{where}: variant {cfg.variant!r} plays the game's default rules; "
                          "a variant sets options")
    if cfg.recall and not cls.recall_option:
        raise ConfigError(f"{where}: recall: {env_id} has no perfect-recall variant (nothing "
                          "is hidden that a player saw before)")
    if cfg.recall and cfg.options.get(cls.recall_option):
        raise ConfigError(f"{where}: recall: options.{cls.recall_option} is already on; "
                          "recall trains with it and plays the game without it")
    if cfg.pretrain.teacher == "planner" and env_id not in PLANNERS:
        raise ConfigError(f"{where}: pretrain.teacher: {env_id} has no planner bot (games "
                          f"with one: {', '.join(sorted(PLANNERS))})")
    if cfg.pretrain.contrast_weight != 1.0 and cfg.pretrain.teacher == "heuristic":
        raise ConfigError(f"{where}: pretrain.contrast_weight weighs where the teacher differs "
                          "from the heuristic: it needs pretrain.teacher: planner")
    kinds = {"random", "heuristic", "snapshots", "onnx"}
    bad = sorted(set(cfg.league.weights) - kinds)
    if bad:
        raise ConfigError(f"{where}: league.weights: unknown opponent kind(s) {bad}; "
                          f"allowed: {sorted(kinds)}")
    if any(w < 0 for w in cfg.league.weights.values()):
        raise ConfigError(f"{where}: league.weights: weights must be >= 0")
    if not any(w > 0 for k, w in cfg.league.weights.items()
               if k != "onnx" or cfg.league.onnx_opponents):
        raise ConfigError(f"{where}: league.weights: at least one usable kind needs a "
                          "positive weight")
    for opp in cfg.eval.opponents:
        if opp.partition(":")[0] not in BOT_KINDS:
            raise ConfigError(f"{where}: eval.opponents: unknown bot {opp!r}")
    for opp in cfg.distill.opponents:
        if opp.partition(":")[0] not in BOT_KINDS:
            raise ConfigError(f"{where}: distill.opponents: unknown bot {opp!r}")
    if cfg.distill.samples and cfg.recall:
        raise ConfigError(f"{where}: distill: a recall run's network reads the remembered "
                          "observations, which the distillation's games do not record; "
                          "set distill.samples: 0 or recall: false")
    settings = cfg.distill.search_settings
    if settings:
        from plunder.envs.core import PlunderError
        from plunder.policies.netsearch import spec_settings

        try:
            rest, _ = spec_settings(f"netsearch:{settings}", settings)
        except PlunderError as exc:
            raise ConfigError(f"{where}: distill.search_settings: {exc}") from None
        if rest:
            raise ConfigError(f"{where}: distill.search_settings: {settings!r} must be "
                              "KEY=VALUE settings joined by ':' (the network is the run's)")
    if cfg.init_from is not None:
        _check_onnx_opponent(cfg.init_from, env_id, cfg, f"{where}: init_from")
        from plunder.policies.onnx_policy import read_metadata

        if bool(read_metadata(cfg.init_from).get("recall", False)) != cfg.recall:
            raise ConfigError(f"{where}: init_from: {cfg.init_from!r} was trained with "
                              f"recall: {not cfg.recall}, this run has recall: {cfg.recall}")
    # exported opponents are loaded (and checked against this game) before any training
    for i, path in enumerate(cfg.league.onnx_opponents):
        _check_onnx_opponent(path, env_id, cfg, f"{where}: league.onnx_opponents[{i}]")
    if cfg.policy.kind == "entity":
        declared = [g.name for g in cls(cfg.num_players, **cfg.options).entity_groups]
        if not declared:
            raise ConfigError(f"{where}: policy.kind: entity needs a game with entity groups; "
                              f"{env_id} declares none (use policy.kind: mlp)")
        unknown = [g for g in cfg.policy.entity_groups if g not in declared]
        if unknown or len(set(cfg.policy.entity_groups)) < len(cfg.policy.entity_groups):
            raise ConfigError(f"{where}: policy.entity_groups: {cfg.policy.entity_groups!r} "
                              f"must name distinct groups of {env_id}: {declared}")
    elif cfg.policy.entity_groups:
        raise ConfigError(f"{where}: policy.entity_groups needs policy.kind: entity")
    if cfg.async_rollouts and (cfg.vec_env != "batched" or cfg.vec_workers < 2):
        raise ConfigError(f"{where}: async_rollouts needs vec_env: batched with "
                          f"vec_workers >= 2 (got vec_env: {cfg.vec_env}, vec_workers: "
                          f"{cfg.vec_workers}); set async_rollouts: false")
    if cfg.ppo.truncation_reward is not None and cfg.vec_env != "batched":
        raise ConfigError(f"{where}: ppo.truncation_reward needs vec_env: batched (the "
                          f"dummy and subproc vec envs use MaskablePPO's own rollout loop)")
    check_device(cfg.device, f"{where}: device")
    if cfg.ppo.batch_size > cfg.ppo.n_steps * cfg.n_envs:
        raise ConfigError(f"{where}: ppo.batch_size ({cfg.ppo.batch_size}) is larger than a "
                          f"rollout (n_steps * n_envs = {cfg.ppo.n_steps * cfg.n_envs})")
    return cfg


def _check_onnx_opponent(path: str, env_id: str, cfg: TrainConfig, where: str) -> None:
    """Raise ConfigError unless ``path`` is an exported bot of this game and table."""
    from plunder.envs.core import PlunderError
    from plunder.policies.onnx_policy import OnnxPolicy

    if not Path(path).is_file():
        raise ConfigError(f"{where}: no such file {path!r}")
    try:
        OnnxPolicy(path, env_id=env_id, num_players=cfg.num_players,
                   options=cfg.train_options())
    except ImportError as exc:
        raise ConfigError(f"{where}: cannot load {path!r}: {exc}") from None
    except PlunderError as exc:
        raise ConfigError(f"{where}: {exc}") from None


def load_yaml(path: str | Path) -> Any:
    """Parse a YAML file; a missing file or a syntax error raises ConfigError."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read config {path}: {exc}") from None
    return parse_yaml(text, str(path))


def parse_yaml(text: str, where: str) -> Any:
    """Parse YAML text, naming ``where`` in errors."""
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{where}: invalid YAML: {exc}") from None


def config_from_dict(data: Any, where: str = "config") -> TrainConfig:
    """A validated TrainConfig from a nested dict (unknown keys and bad types raise)."""
    cfg = _build(TrainConfig, data, "")
    return _cross_check(cfg, where)


def parse_override(text: str) -> tuple[list[str], Any]:
    """``"ppo.learning_rate=1e-3"`` -> (["ppo", "learning_rate"], 0.001)."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise ConfigError(f"override {text!r}: expected KEY=VALUE, e.g. ppo.n_epochs=4")
    value = parse_yaml(raw, f"override {key}") if raw.strip() else None
    return key.strip().split("."), _fix_floats(value)


def apply_overrides(data: dict, overrides: list[str]) -> dict:
    """A copy of the raw config dict with dotted ``KEY=VALUE`` overrides applied."""
    import copy

    data = copy.deepcopy(data or {})
    for text in overrides:
        path, value = parse_override(text)
        node = data
        for part in path[:-1]:
            child = node.get(part)
            if child is None:
                child = node[part] = {}
            if not isinstance(child, dict):
                raise ConfigError(f"override {text!r}: {part!r} is not a section")
            node = child
        node[path[-1]] = value
    return data


def default_config_path(game: str) -> Path | None:
    """The packaged ``configs/train/<game>.yaml`` of a game (None if there is none)."""
    ref = resources.files("plunder.configs").joinpath("train", f"{game_name(game)}.yaml")
    return Path(str(ref)) if ref.is_file() else None


def load_config(game: str | None = None, path: str | Path | None = None,
                overrides: list[str] = ()) -> TrainConfig:
    """Load ``path`` (default: the game's packaged config), merge in its ``by_players``
    settings for the run's player count, apply overrides, validate.

    Floats written like ``3e-4`` (which YAML 1.1 reads as strings) are accepted.
    """
    if path is None:
        if game is None:
            raise ConfigError("give a game or a config path")
        path = default_config_path(resolve_env_id(game) if game else game)
        if path is None:
            raise ConfigError(f"no training config configs/train/{game_name(game)}.yaml")
    data = load_yaml(path)
    if data is None:   # an empty file is a mistake, not "train on the defaults"
        raise ConfigError(f"{path}: the config file is empty; write at least `game: ...` "
                          "(every other key has a documented default)")
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping at the top level")
    data = _fix_floats(data)
    if game is not None:
        env_id = resolve_env_id(game)
        if "game" in data and resolve_env_id(str(data["game"])) != env_id:
            raise ConfigError(f"{path}: is a config for {data['game']!r}, not {game!r}")
        data.setdefault("game", env_id)
    data = resolve_variant(data, list(overrides), str(path))
    data = resolve_player_settings(data, list(overrides), str(path))
    data = apply_overrides(data, list(overrides))
    return config_from_dict(data, str(path))


#: the config file key of named variants (resolved away on load)
VARIANTS_KEY = "variants"
#: how a variant is named (it becomes part of run directories and bot file names)
VARIANT_NAME = re.compile(r"[a-z][a-z0-9_]*")


def variant_table(data: dict, where: str) -> dict[str, dict]:
    """The checked ``variants`` table of a raw config dict: name -> its entry, a mapping
    with ``players`` (the player counts whose bots are trained and shipped, a list) and
    the settings that differ in the variant (``options`` at least), e.g. ``{prize_crew:
    {players: [2, 4], options: {prize_crew: true}}}``. Every entry is checked, used or
    not: its name, and that each of its player counts makes a valid run."""
    table = data.get(VARIANTS_KEY)
    if table is None:
        return {}
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: {VARIANTS_KEY}: expected a mapping from variant names to "
                          f"settings, e.g. {{prize_crew: {{players: [2], options: "
                          f"{{prize_crew: true}}}}}}, got {table!r}")
    base = {k: v for k, v in data.items() if k != VARIANTS_KEY}
    for name, entry in table.items():
        key = f"{where}: {VARIANTS_KEY}.{name}"
        if not isinstance(name, str) or not VARIANT_NAME.fullmatch(name):
            raise ConfigError(f"{key}: a variant name is lower-case letters, digits and _, "
                              "starting with a letter")
        if not isinstance(entry, dict) or not isinstance(entry.get("options"), dict) \
                or not entry["options"]:
            raise ConfigError(f"{key}: expected a mapping with players and options, e.g. "
                              f"{{players: [2, 4], options: {{...}}}}, got {entry!r}")
        players = entry.get("players")
        if not isinstance(players, list) or not players or any(
                isinstance(n, bool) or not isinstance(n, int) for n in players) \
                or len(set(players)) < len(players):
            raise ConfigError(f"{key}.players: expected a list of distinct player counts, got "
                              f"{players!r}")
        bad = sorted({"game", "num_players", "variant", VARIANTS_KEY} & set(entry))
        if bad:
            raise ConfigError(f"{key}: may not set {', '.join(bad)}")
        merged = _merge(base, _fix_floats({k: v for k, v in entry.items() if k != "players"}))
        for count in players:   # every cell it names is a valid run
            at = f"{key} ({count} players)"
            raw = resolve_player_settings(merged, [f"num_players={count}"], at)
            try:
                cfg = _build(TrainConfig, {**raw, "num_players": count, "variant": name}, "")
            except ConfigError as exc:
                raise ConfigError(f"{at}: {exc}") from None
            _cross_check(cfg, at)
    return table


def resolve_variant(data: dict, overrides: list[str], where: str) -> dict:
    """The raw config dict with its ``variants`` entry for the run's variant merged in (the
    variant is the file's ``variant`` key after the command-line overrides, e.g. ``--set
    variant=prize_crew``; '' merges nothing) and the table removed; an unknown variant is a
    ConfigError naming the known ones. The variant's ``by_players`` settings join the
    file's, count by count; the command line still wins over both."""
    table = variant_table(data, where)
    data = {k: v for k, v in data.items() if k != VARIANTS_KEY}
    name = apply_overrides(data, overrides).get("variant", "") or ""
    if not name:
        return data
    if not isinstance(name, str) or name not in table:
        known = ", ".join(sorted(table)) or "none"
        raise ConfigError(f"{where}: variant: no variant {name!r} in the config's "
                          f"{VARIANTS_KEY}; it names: {known}")
    settings = {k: v for k, v in table[name].items() if k != "players"}
    return {**_merge(data, _fix_floats(settings)), "variant": name}


#: the config file key of per-player-count settings (resolved away on load)
BY_PLAYERS_KEY = "by_players"


def _merge(base: dict, extra: dict) -> dict:
    """``base`` with ``extra`` merged in, section by section (``extra`` wins)."""
    out = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict) \
                and key not in ("options",) and not str(key).endswith("weights"):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def resolve_player_settings(data: dict, overrides: list[str], where: str) -> dict:
    """The raw config dict with its ``by_players`` entry for the run's player count merged
    in (and the key removed). ``by_players`` maps a player count to settings that differ at
    that count, e.g. ``{4: {total_timesteps: 250000}}``; the player count is the config's
    ``num_players`` after the command-line overrides, which still win over these settings.
    Every entry is checked, used or not."""
    data = dict(data)
    table = data.pop(BY_PLAYERS_KEY, None)
    if table is None:
        return data
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: {BY_PLAYERS_KEY}: expected a mapping from player counts "
                          f"to settings, e.g. {{4: {{total_timesteps: 250000}}}}, got {table!r}")
    for count, settings in table.items():
        key = f"{where}: {BY_PLAYERS_KEY}.{count}"
        if isinstance(count, bool) or not isinstance(count, int):
            raise ConfigError(f"{key}: a player count must be an int, got {count!r}")
        if not isinstance(settings, dict) or not settings:
            raise ConfigError(f"{key}: expected a mapping of settings, got {settings!r}")
        if "num_players" in settings or "game" in settings or BY_PLAYERS_KEY in settings:
            raise ConfigError(f"{key}: may not set num_players, game or {BY_PLAYERS_KEY}")
        try:
            _build(TrainConfig, _merge(data, _fix_floats(settings)), "")
        except ConfigError as exc:
            raise ConfigError(f"{key}: {exc}") from None
    players = apply_overrides(data, overrides).get("num_players", TrainConfig.num_players)
    return _merge(data, _fix_floats(table.get(players, {})))


def _fix_floats(node):
    if isinstance(node, dict):
        return {k: _fix_floats(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_fix_floats(v) for v in node]
    if isinstance(node, str):
        try:
            if any(c in node for c in "eE") and node[0] in "0123456789.-+":
                return float(node)
        except ValueError:
            return node
    return node


def describe_config(cls=TrainConfig, prefix: str = "") -> str:
    """A markdown table of every config key, its default and meaning."""
    rows = [] if prefix else ["| key | default | meaning |", "|---|---|---|"]
    default = cls()
    for f in dataclasses.fields(cls):
        value = getattr(default, f.name)
        if dataclasses.is_dataclass(value):
            rows.append(describe_config(type(value), f"{prefix}{f.name}."))
            continue
        doc = f.metadata.get("doc", "")
        if "choices" in f.metadata:
            doc += f" (one of {', '.join(map(str, f.metadata['choices']))})"
        rows.append(f"| `{prefix}{f.name}` | `{value!r}` | {doc} |")
    return "\n".join(rows)
