"""Ship pretrained bots into the package: ``plunder benchmark ship RUN_DIR [RUN_DIR ...]``.

Each RUN_DIR is a finished ``plunder train`` run (its latest checkpoint has reached the
config's ``total_timesteps`` and ``RUN/bot.onnx`` is that checkpoint's export). For each,
two files go to ``plunder/policies/pretrained/``:

- ``<game>_<n>p_final.onnx``: ``RUN/bot.onnx`` (the file the run's final evaluation
  played, with that evaluation in its metadata), its weight matrices stored as float16
  (``store_float16``: half the size; the graph casts them back and computes in float32;
  ``--float32`` keeps them as they are). The manifest's ``evaluation`` is the run's, of
  the float32 file; ``source_sha256`` names that file;
- ``<game>_<n>p_early.onnx``: the league snapshot nearest ``early_fraction`` (25%) of the
  training steps, exported from the same checkpoint (no extra training; no value output).

and ``manifest.json`` gets their entries: game, players, options, recall, strength, the packaged
config file and the exact ``plunder train`` command that reproduces the run (the packaged
config plus a ``--set`` for every key that differs from it; on the same platform), training
steps (and the snapshot's step), git commit, ``platform`` (where the run was trained, as its
checkpoint records it), sha256, size, the final evaluation, ``placeholder`` and
``revision`` (1 for a cell's first bot, one more each time a different file replaces it:
the benchmark tasks that play the shipped bots take it as their version).
Every file is written to a temporary name beside its target and moved into place with
``os.replace`` once all of them are written; the manifest goes last. A run of a named
variant of its config (``--set variant=NAME``) ships as ``<game>_<n>p_<variant>_<strength>.onnx``
with its ``variant`` and options in the manifest. A run of other options than the game's
defaults that names no variant, an unfinished run, a ``bot.onnx`` that is not the
checkpoint's, two runs for the same (game, players), or a run of another game than
``--game`` asks for are refused before anything is written.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import tempfile
import time
from pathlib import Path

from plunder.envs import game_class
from plunder.envs.core import InvalidArgumentError, ModelFileError
from plunder.policies.onnx_policy import read_metadata
from plunder.policies.pretrained import (MANIFEST_FORMAT, MANIFEST_NAME, PRETRAINED_DIR,
                                         bot_file_name, load_manifest)

from plunder.training.atomic import atomic_write_text
from plunder.training.selfplay.export import EARLY_FRACTION

#: config keys that never change what is learned (left out of the reproducing command;
#: periodic evaluations only watch, tested)
IGNORED_KEYS = {"progress_bar", "progress_every", "tensorboard", "eval.every", "eval.games"}
#: float32 weight tensors of at least this many numbers are stored as float16
FLOAT16_MIN_SIZE = 1024
#: suffix of a float16 initializer (a Cast node restores the float32 name)
FLOAT16_SUFFIX = "__float16"


def store_float16(data: bytes) -> bytes:
    """The ONNX bot ``data`` with its large float32 weights stored as float16, each followed
    by a Cast back to float32 (the graph still computes in float32, from weights rounded to
    float16: half the size). The metadata records it (``weights: float16``)."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load_from_string(data)
    graph = model.graph
    kept, casts = [], []
    for init in graph.initializer:
        if init.data_type != TensorProto.FLOAT or int(np.prod(init.dims)) < FLOAT16_MIN_SIZE:
            kept.append(init)
            continue
        half = numpy_helper.to_array(init).astype(np.float16)
        if not np.all(np.isfinite(half)):
            raise ModelFileError(f"weight {init.name} does not fit float16 (values beyond "
                                 f"65504); ship with --float32")
        kept.append(numpy_helper.from_array(half, init.name + FLOAT16_SUFFIX))
        casts.append(helper.make_node("Cast", [init.name + FLOAT16_SUFFIX], [init.name],
                                      to=TensorProto.FLOAT))
    nodes = casts + list(graph.node)
    del graph.initializer[:]
    graph.initializer.extend(kept)
    del graph.node[:]
    graph.node.extend(nodes)
    for prop in model.metadata_props:
        if prop.key == "plunder":
            meta = json.loads(prop.value)
            meta["weights"] = "float16"
            prop.value = json.dumps(meta, sort_keys=True)
    onnx.checker.check_model(model)
    return model.SerializeToString()


def _flatten(d: dict, prefix: str = "") -> dict:
    """{"a.b": value} from nested dicts."""
    out = {}
    for k, v in d.items():
        if isinstance(v, dict) and k not in ("options",) and not k.endswith("weights"):
            out.update(_flatten(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def config_overrides(cfg) -> dict:
    """The keys of a run's resolved config that differ from the packaged config of its
    game at its player count, with the run's values."""
    from plunder.training.selfplay.config import entity_group_names, load_config

    packaged_cfg = load_config(cfg.env_id, None, [f"num_players={cfg.num_players}"]
                               + ([f"variant={cfg.variant}"] if cfg.variant else []))
    if packaged_cfg.policy.kind == "entity":
        # [] is all the groups the game declares, which a run records by name
        packaged_cfg.policy.entity_groups = entity_group_names(packaged_cfg)
    packaged = _flatten(packaged_cfg.to_dict())
    mine = _flatten(cfg.to_dict())
    return {k: v for k, v in sorted(mine.items())
            if k not in IGNORED_KEYS and packaged.get(k) != v}


def train_command(cfg, overrides: dict) -> str:
    """The ``plunder train`` command that reproduces a run from its packaged config."""
    from plunder.training.games import game_name

    parts = ["plunder", "train", game_name(cfg.env_id), "--players", str(cfg.num_players)]
    if cfg.variant:
        parts += ["--set", f"variant={cfg.variant}"]
    for key, value in overrides.items():
        if key in ("num_players", "variant"):
            continue
        parts += ["--set", f"{key}={json.dumps(value) if not isinstance(value, str) else value}"]
    return " ".join(shlex.quote(p) for p in parts)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def next_revision(previous: dict | None, sha256: str) -> int:
    """The revision of a bot file shipped over the manifest entry ``previous``: 1 for a new
    cell, the same for the same file, one more for a different file (the benchmark tasks
    that play this bot take its revision as their version)."""
    if previous is None:
        return 1
    revision = int(previous.get("revision", 1))
    return revision if previous.get("sha256") == sha256 else revision + 1


def inspect_run(run_dir: Path, game: str | None = None, players: int | None = None) -> dict:
    """Check a run directory can be shipped; what ``ship`` needs from it."""
    from plunder.training.games import resolve_env_id
    from plunder.training.selfplay.train import latest_checkpoint

    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise InvalidArgumentError(f"{run_dir} is not a run directory")
    ckpt = latest_checkpoint(run_dir)
    cfg = ckpt.config
    if cfg.policy.kind == "entity" and not cfg.policy.entity_groups:
        # a run from before groups were recorded by name: the groups its network has
        cfg.policy.entity_groups = [g["name"] for g in ckpt.load_model().policy.entity_groups]
    if game is not None and resolve_env_id(game) != cfg.env_id:
        raise InvalidArgumentError(f"{run_dir} is a {cfg.env_id} run, not {resolve_env_id(game)}"
                                   f" (--game {game})")
    if players is not None and players != cfg.num_players:
        raise InvalidArgumentError(f"{run_dir} is a {cfg.num_players}-player run, not "
                                   f"{players}-player (--players {players})")
    steps = int(ckpt.meta["steps"])
    if steps < cfg.total_timesteps:
        raise InvalidArgumentError(f"{run_dir} is unfinished ({steps:,} of "
                                   f"{cfg.total_timesteps:,} steps); finish it with "
                                   f"plunder train ... --run-dir {run_dir} --resume")
    defaults = game_class(cfg.env_id)(cfg.num_players).option_values
    full = game_class(cfg.env_id)(cfg.num_players, **cfg.options).option_values
    if full != defaults and not cfg.variant:
        raise InvalidArgumentError(f"{run_dir} was trained on options {cfg.options} that are "
                                   "not a named variant; shipped bots play the default rules "
                                   "or a variant of the game's config (train it with --set "
                                   "variant=NAME)")
    bot = run_dir / "bot.onnx"
    if not bot.is_file():
        raise ModelFileError(f"{run_dir} has no bot.onnx; export it first: plunder export "
                             f"{run_dir}")
    meta = read_metadata(bot)
    if (meta.get("env_id"), meta.get("num_players"), meta.get("training_steps")) != \
            (cfg.env_id, cfg.num_players, steps):
        raise ModelFileError(
            f"{bot} is a {meta.get('env_id')} {meta.get('num_players')}-player bot of "
            f"{meta.get('training_steps')} steps, but the run's checkpoint is {cfg.env_id} "
            f"{cfg.num_players}-player at {steps} steps; re-export it: plunder export {run_dir}")
    evaluation = None
    eval_file = run_dir / "eval.json"
    if eval_file.is_file():
        data = json.loads(eval_file.read_text())
        if data.get("steps") == steps:
            evaluation = data.get("results")
    return {"run_dir": run_dir, "ckpt": ckpt, "cfg": cfg, "steps": steps, "bot": bot,
            "evaluation": evaluation}


def ship(run_dirs: list, dest: str | Path | None = None, placeholder: bool = False,
         game: str | None = None, players: int | None = None,
         early_fraction: float = EARLY_FRACTION, float16: bool = True,
         echo=print, early: bool = True) -> list[Path]:
    """Export final + early bots of every run into ``dest`` (default the package's
    pretrained folder) and update its manifest, atomically (see the module doc); with
    ``float16`` (the default) large weights are stored as float16; with ``early=False``
    only the final bot (an early bot shipped before for the table is removed: it would be
    another run's)."""
    from plunder.training.selfplay.export import export_snapshot, nearest_snapshot_step

    if not run_dirs:
        raise InvalidArgumentError("ship needs at least one run directory")
    if not 0 <= early_fraction <= 1:
        raise InvalidArgumentError(f"early_fraction must be within 0..1, got {early_fraction}")
    dest = Path(dest or PRETRAINED_DIR)
    runs = [inspect_run(Path(r), game, players) for r in run_dirs]
    cells: dict[tuple[str, int, str], Path] = {}
    for r in runs:
        key = (r["cfg"].env_id, r["cfg"].num_players, r["cfg"].variant)
        if key in cells:
            variant = f" {key[2]}" if key[2] else ""
            raise InvalidArgumentError(f"{cells[key]} and {r['run_dir']} are both "
                                       f"{key[0]} {key[1]}-player{variant} runs; ship one")
        cells[key] = r["run_dir"]
    manifest = load_manifest(dest)
    dest.mkdir(parents=True, exist_ok=True)
    staged: list[tuple[Path, Path]] = []
    stale: list[Path] = []      # early bots of other runs, of tables shipped without one
    with tempfile.TemporaryDirectory(dir=dest, prefix=".ship-") as tmp:
        for r in runs:
            cfg, steps = r["cfg"], r["steps"]
            overrides = config_overrides(cfg)
            common = {
                "env_id": cfg.env_id, "game": game_class(cfg.env_id).name,
                "game_version": game_class(cfg.env_id).version,
                "num_players": cfg.num_players,
                "options": game_class(cfg.env_id)(cfg.num_players, **cfg.options).option_values,
                "variant": cfg.variant,
                "recall": bool(cfg.recall),
                "config_file": f"configs/train/{cfg.env_id.rsplit('_v', 1)[0]}.yaml",
                "config_overrides": overrides,
                "train_command": train_command(cfg, overrides),
                "training_steps": steps,
                "git_commit": r["ckpt"].meta.get("git_commit", "unknown"),
                "platform": r["ckpt"].meta.get("platform"),
                "source_run": r["run_dir"].name, "placeholder": bool(placeholder),
                "weights": "float16" if float16 else "float32",
                "shipped_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            }
            final_name = bot_file_name(cfg.env_id, cfg.num_players, "final", cfg.variant)
            final_tmp = Path(tmp) / final_name
            source = r["bot"].read_bytes()
            final_tmp.write_bytes(store_float16(source) if float16 else source)
            files = [(final_name, final_tmp, "final",
                      {"snapshot_step": None, "evaluation": r["evaluation"],
                       "source_sha256": _sha256(source)})]
            early_name = bot_file_name(cfg.env_id, cfg.num_players, "early", cfg.variant)
            if early:
                early_tmp = Path(tmp) / early_name
                snap = nearest_snapshot_step(r["ckpt"], early_fraction, r["run_dir"])
                export_snapshot(r["run_dir"], early_tmp, step=snap,
                                checkpoint=r["ckpt"].path)
                early_source = early_tmp.read_bytes()
                if float16:
                    early_tmp.write_bytes(store_float16(early_source))
                files.append((early_name, early_tmp, "early",
                              {"snapshot_step": snap, "evaluation": None,
                               "source_sha256": _sha256(early_source)}))
            elif manifest["bots"].pop(early_name, None) is not None:
                stale.append(dest / early_name)
            for name, path, strength, extra in files:
                data = path.read_bytes()
                meta = read_metadata(path)
                manifest["bots"][name] = dict(
                    common, file=name, strength=strength, format=meta["format"],
                    revision=next_revision(manifest["bots"].get(name), _sha256(data)),
                    sha256=_sha256(data), size_bytes=len(data), **extra)
                staged.append((path, dest / name))
        # every file is written: move them into place, then the manifest
        for src, target in staged:
            os.replace(src, target)
        manifest["format"] = MANIFEST_FORMAT
        manifest["bots"] = dict(sorted(manifest["bots"].items()))
        atomic_write_text(dest / MANIFEST_NAME, json.dumps(manifest, indent=2) + "\n")
    for path in stale:
        path.unlink(missing_ok=True)
        echo(f"removed {path} (another run's early bot)")
    for _, target in staged:
        echo(f"shipped {target} ({target.stat().st_size:,} bytes)")
    return [t for _, t in staged]
