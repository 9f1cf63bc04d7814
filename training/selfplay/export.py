"""Export a trained run as an ONNX bot: ``plunder export RUN [--out FILE]``.

The graph (opset 17) is built directly from the actor's weights (no torch exporter needed):

- inputs ``observation`` float32 ``[batch, obs_size]`` and ``action_mask`` int8
  ``[batch, num_actions]`` (the env's own dtypes; 1 = legal)
- outputs ``action`` int64 ``[batch]`` (the most likely legal action), ``action_probs``
  float32 ``[batch, num_actions]`` (softmax over legal actions; exactly 0 for illegal ones)
  and ``value`` float32 ``[batch]`` (the critic's estimate of the observing seat's
  discounted reward under the run's ``reward_mode``; it ignores the mask)

It computes the actor's logits — ``head(act(...act(obs @ W0 + b0)...))`` for an MLP; for
the entity network also the member encoders (Gather + MatMul), their mean, and the pointer
scores added to the actions that name members — replaces illegal logits by -1e9 and takes
argmax / softmax, the same as MaskablePPO's masked distribution. The value is the critic's
layers on the same trunk input (the observation, or the entity network's MLP input) and
its linear output.

Metadata (``custom_metadata_map`` in onnxruntime, key ``plunder``, JSON): format
(``plunder-bot/2``: with the value output), env id,
game name and version, num_players, variant options (defaults filled in; the game the bot
plays), ``recall`` (true: trained with the game's perfect-recall variant, the bot plays
with an observation memory), observation and
action sizes, the observation layout's field names and sizes, training steps, the final
evaluation, the git commit, the training config and the platform the network was trained
on (``platform``, as checkpoints record it: processor, torch's CPU capability, library
versions; null when unknown), since the same config and seed give other weights on
another platform. :class:`plunder.policies.onnx_policy.
OnnxPolicy` checks them before playing. The file is written atomically.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from plunder.envs import game_class
from plunder.envs.core import ModelFileError

from plunder.policies.onnx_policy import BOT_FORMAT, BOT_FORMATS

from .actors import Actor, Critic, EntityActor, actor_from_policy, critic_from_policy
from .config import TrainConfig

OPSET = 17
#: the format of a bot without the ``value`` output (a league snapshot, which has no critic)
VALUELESS_FORMAT = next(f for f, has_value in BOT_FORMATS.items() if not has_value)


def bot_metadata(cfg: TrainConfig, steps: int, evaluation: dict, commit: str,
                 platform: dict | None = None) -> dict:
    """The metadata dict stored in the ONNX file (``platform``: where it was trained)."""
    cls = game_class(cfg.env_id)
    game = cls(cfg.num_players, **cfg.options)
    layout = game.layout
    return {"format": BOT_FORMAT, "env_id": cfg.env_id, "game": cls.name,
            "version": cls.version, "num_players": cfg.num_players,
            "options": game.option_values, "obs_size": int(layout.size),
            "num_actions": int(game.num_actions),
            "layout": [[f.name, f.size] for f in layout.fields],
            "recall": bool(cfg.recall),
            "training_steps": int(steps), "evaluation": evaluation, "git_commit": commit,
            "config": cfg.to_dict(), "platform": platform,
            "exported_at": time.strftime("%Y-%m-%dT%H:%M:%S")}


def _mlp_nodes(x: str, layers, activation: str, prefix: str, inits: list, nodes: list,
               gemm: bool = True) -> str:
    """Gemm (2-D input) or MatMul + Add (any rank) and activation nodes for ``layers``;
    returns the output name."""
    from onnx import helper, numpy_helper

    act = "Tanh" if activation == "tanh" else "Relu"
    for i, (w, b) in enumerate(layers):
        inits += [numpy_helper.from_array(w, f"{prefix}W{i}"),
                  numpy_helper.from_array(b, f"{prefix}B{i}")]
        if not gemm:
            nodes += [helper.make_node("MatMul", [x, f"{prefix}W{i}"], [f"{prefix}m{i}"]),
                      helper.make_node("Add", [f"{prefix}m{i}", f"{prefix}B{i}"],
                                       [f"{prefix}h{i}"])]
        else:
            nodes.append(helper.make_node("Gemm", [x, f"{prefix}W{i}", f"{prefix}B{i}"],
                                          [f"{prefix}h{i}"]))
        nodes.append(helper.make_node(act, [f"{prefix}h{i}"], [f"{prefix}a{i}"]))
        x = f"{prefix}a{i}"
    return x


def _logit_nodes(actor: Actor, inits: list, nodes: list) -> tuple[str, str]:
    """The network from ``observation`` to unmasked logits; returns the logits' name and
    the name of the trunk input the actor's MLP (and the critic) read."""
    from onnx import helper, numpy_helper

    x = "observation"
    groups = actor.groups if isinstance(actor, EntityActor) else []
    codes = []
    for k, g in enumerate(groups):
        inits.append(numpy_helper.from_array(g.index, f"g{k}_index"))
        nodes.append(helper.make_node("Gather", ["observation", f"g{k}_index"],
                                      [f"g{k}_members"], axis=1))
        # members are (batch, members, features): MatMul, since Gemm takes 2-D inputs only
        code = _mlp_nodes(f"g{k}_members", g.encoder, actor.activation, f"g{k}_", inits, nodes,
                          gemm=False)
        nodes.append(helper.make_node("ReduceMean", [code], [f"g{k}_mean"], axes=[1],
                                      keepdims=0))
        codes.append(code)
    if groups:  # the MLP sees the observation outside the groups and the mean codes
        inits.append(numpy_helper.from_array(actor.rest, "rest_index"))
        nodes += [helper.make_node("Gather", ["observation", "rest_index"], ["rest"], axis=1),
                  helper.make_node("Concat", ["rest"] + [f"g{k}_mean" for k in range(len(groups))],
                                   ["mlp_input"], axis=1)]
        x = "mlp_input"
    hidden = _mlp_nodes(x, actor.layers, actor.activation, "", inits, nodes)
    hw, hb = actor.head
    inits += [numpy_helper.from_array(hw, "Whead"), numpy_helper.from_array(hb, "Bhead")]
    nodes.append(helper.make_node("Gemm", [hidden, "Whead", "Bhead"], ["logits0"]))
    logits = "logits0"
    if groups:
        inits.append(numpy_helper.from_array(np.array([2], np.int64), "axis2"))
    for k, (g, code) in enumerate(zip(groups, codes)):
        for r, (start, (qw, qb)) in enumerate(zip(g.starts, g.queries)):
            q = f"g{k}_q{r}"
            pads = np.array([0, start, 0, actor.num_actions - start - g.count], np.int64)
            inits += [numpy_helper.from_array(qw, q + "W"), numpy_helper.from_array(qb, q + "B"),
                      numpy_helper.from_array(pads, q + "pads")]
            out = f"logits_g{k}_{r}"
            nodes += [
                helper.make_node("Gemm", [hidden, q + "W", q + "B"], [q]),
                helper.make_node("Unsqueeze", [q, "axis2"], [q + "col"]),
                helper.make_node("MatMul", [code, q + "col"], [q + "scores3"]),
                helper.make_node("Squeeze", [q + "scores3", "axis2"], [q + "scores"]),
                helper.make_node("Pad", [q + "scores", q + "pads"], [q + "padded"]),
                helper.make_node("Add", [logits, q + "padded"], [out]),
            ]
            logits = out
    return logits, x


def _value_nodes(critic: Critic, trunk: str, inits: list, nodes: list) -> str:
    """The critic from the trunk input to ``value`` [batch]; returns its name."""
    from onnx import helper, numpy_helper

    hidden = _mlp_nodes(trunk, critic.layers, critic.activation, "v", inits, nodes)
    hw, hb = critic.head
    inits += [numpy_helper.from_array(hw, "Wvalue"), numpy_helper.from_array(hb, "Bvalue"),
              numpy_helper.from_array(np.array([1], np.int64), "value_axis")]
    nodes += [helper.make_node("Gemm", [hidden, "Wvalue", "Bvalue"], ["value_column"]),
              helper.make_node("Squeeze", ["value_column", "value_axis"], ["value"])]
    return "value"


def build_model(actor: Actor, critic: Critic | None, meta: dict):
    """The ONNX ModelProto of ``actor`` and ``critic`` (MLP or entity network) with
    ``meta`` attached; without a critic (a league snapshot keeps none) the graph has no
    ``value`` output and ``meta`` must say format ``plunder-bot/1``."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    if (critic is None) != (meta["format"] == VALUELESS_FORMAT):
        raise ModelFileError(f"a bot without a critic is format {VALUELESS_FORMAT}, with "
                             f"one {BOT_FORMAT}; got format {meta['format']!r}")
    inits, nodes = [], []
    logits, trunk = _logit_nodes(actor, inits, nodes)
    if critic is not None:
        _value_nodes(critic, trunk, inits, nodes)
    inits.append(numpy_helper.from_array(np.array(-1e9, np.float32), "illegal"))
    nodes += [
        helper.make_node("Cast", ["action_mask"], ["legal"], to=TensorProto.BOOL),
        helper.make_node("Where", ["legal", logits, "illegal"], ["masked_logits"]),
        helper.make_node("Softmax", ["masked_logits"], ["action_probs"], axis=-1),
        helper.make_node("ArgMax", ["masked_logits"], ["action"], axis=1, keepdims=0),
    ]
    d, a = actor.obs_size, actor.num_actions
    graph = helper.make_graph(
        nodes, "plunder_bot",
        [helper.make_tensor_value_info("observation", TensorProto.FLOAT, ["batch", d]),
         helper.make_tensor_value_info("action_mask", TensorProto.INT8, ["batch", a])],
        [helper.make_tensor_value_info("action", TensorProto.INT64, ["batch"]),
         helper.make_tensor_value_info("action_probs", TensorProto.FLOAT, ["batch", a])]
        + ([helper.make_tensor_value_info("value", TensorProto.FLOAT, ["batch"])]
           if critic is not None else []),
        initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                              producer_name="plunder",
                              doc_string=f"plunder bot for {meta['env_id']}, "
                                         f"{meta['num_players']} players")
    model.ir_version = 9
    helper.set_model_props(model, {"plunder": json.dumps(meta, sort_keys=True)})
    onnx.checker.check_model(model)
    return model


def export_actor(actor: Actor, cfg: TrainConfig, steps: int, evaluation: dict,
                 out: str | Path, commit: str = "unknown", *, critic: Critic | None,
                 extra_meta: dict | None = None, platform: dict | None = None) -> Path:
    """Write ``actor`` and ``critic`` as an ONNX bot to ``out`` (atomically); with
    ``critic=None`` (a league snapshot) the file has no value output (``plunder-bot/1``).
    ``extra_meta`` adds keys to the metadata (e.g. the snapshot's step); ``platform`` is
    the training platform of the checkpoint the network comes from."""
    from .train import atomic_write_bytes

    meta = bot_metadata(cfg, steps, evaluation, commit, platform)
    if critic is None:
        meta["format"] = VALUELESS_FORMAT
    meta.update(extra_meta or {})
    if meta["obs_size"] != actor.obs_size or meta["num_actions"] != actor.num_actions:
        raise ModelFileError(
            f"the network ({actor.obs_size} inputs, {actor.num_actions} actions) does not "
            f"fit {cfg.env_id} with {cfg.num_players} players ({meta['obs_size']} inputs, "
            f"{meta['num_actions']} actions): the game changed since training")
    model = build_model(actor, critic, meta)
    out = Path(out)
    atomic_write_bytes(out, model.SerializeToString())
    return out


def export_run(run_dir: str | Path, out: str | Path | None = None,
               checkpoint: str | Path | None = None) -> Path:
    """Export a run's latest (or the given) checkpoint; default ``RUN/bot.onnx``."""
    from .train import latest_checkpoint, load_checkpoint

    run_dir = Path(run_dir)
    ckpt = load_checkpoint(Path(checkpoint)) if checkpoint else latest_checkpoint(run_dir)
    cfg = ckpt.config
    model = ckpt.load_model()
    actor, critic = actor_from_policy(model.policy), critic_from_policy(model.policy)
    steps = int(ckpt.meta["steps"])
    evaluation: dict = {}
    eval_file = run_dir / "eval.json"
    if eval_file.is_file():
        data = json.loads(eval_file.read_text())
        if data.get("steps") == steps:
            evaluation = data.get("results", {})
    if not evaluation and ckpt.meta.get("evals"):
        last = ckpt.meta["evals"][-1]
        evaluation = dict(last.get("results", {}), at_steps=last.get("steps"))
    return export_actor(actor, cfg, steps, evaluation, out or run_dir / "bot.onnx",
                        ckpt.meta.get("git_commit", "unknown"), critic=critic,
                        platform=ckpt.meta.get("platform"))


#: the shipped "early" bot is the league snapshot nearest this fraction of a run's steps
EARLY_FRACTION = 0.25
#: the run directory's copy of that snapshot: the league pool keeps only the newest
#: ``max_snapshots``, so in a long run it is gone from the final checkpoint
EARLY_SNAPSHOT = "early_snapshot.npz"


def keep_early_snapshot(run_dir: Path, actor: Actor, step: int, total_steps: int) -> bool:
    """Write ``actor`` (a league snapshot taken at ``step``) to ``RUN/early_snapshot.npz``
    if it is nearer ``EARLY_FRACTION`` of ``total_steps`` than the one there (the earlier
    one on a tie); True if written. Atomic."""
    import io

    from plunder.training.atomic import atomic_write_bytes

    path = Path(run_dir) / EARLY_SNAPSHOT
    target = EARLY_FRACTION * total_steps
    kept = _early_snapshot_step(path)
    if kept is not None and (abs(kept - target), kept) <= (abs(step - target), step):
        return False
    buf = io.BytesIO()
    np.savez(buf, snapshot_step=np.int64(step), **actor.to_arrays())
    atomic_write_bytes(path, buf.getvalue())
    return True


def _early_snapshot_step(path: Path) -> int | None:
    if not path.is_file():
        return None
    with np.load(path) as data:
        return int(data["snapshot_step"])


def snapshot_steps(ckpt, run_dir: str | Path | None = None) -> list[int]:
    """The learner steps of the league snapshots a checkpoint holds, oldest first, and of
    the run's kept early snapshot (``run_dir``) if the pool no longer holds it."""
    steps = [int(s) for s in np.asarray(ckpt.league.get("steps", [])).tolist()]
    early = _early_snapshot_step(Path(run_dir) / EARLY_SNAPSHOT) if run_dir else None
    return sorted(set(steps) | {early}) if early is not None else steps


def snapshot_actor(ckpt, step: int, run_dir: str | Path | None = None) -> Actor:
    """The actor of the league snapshot taken at ``step``: from the checkpoint's pool, or
    the run's kept early snapshot (``run_dir``)."""
    from .actors import actor_from_arrays

    steps = snapshot_steps(ckpt)
    if step in steps:
        prefix = f"s{steps.index(step)}_"
        return actor_from_arrays({k[len(prefix):]: v for k, v in ckpt.league.items()
                                  if k.startswith(prefix)})
    path = Path(run_dir) / EARLY_SNAPSHOT if run_dir else None
    if path is not None and _early_snapshot_step(path) == step:
        with np.load(path) as data:
            return actor_from_arrays({k: data[k] for k in data.files if k != "snapshot_step"})
    raise ModelFileError(f"{ckpt.path} holds no league snapshot at step {step}; it has "
                         f"{snapshot_steps(ckpt, run_dir)}")


def nearest_snapshot_step(ckpt, fraction: float, run_dir: str | Path | None = None) -> int:
    """The snapshot step nearest ``fraction`` of the checkpoint's training steps (the
    earlier one on a tie), among the pool's and the run's kept early snapshot."""
    steps = snapshot_steps(ckpt, run_dir)
    if not steps:
        raise ModelFileError(f"{ckpt.path} holds no league snapshots")
    target = fraction * int(ckpt.meta["steps"])
    return min(steps, key=lambda s: (abs(s - target), s))


def export_snapshot(run_dir: str | Path, out: str | Path, step: int | None = None,
                    fraction: float = EARLY_FRACTION, checkpoint: str | Path | None = None) -> Path:
    """Export the league snapshot taken at ``step`` (default: the one nearest ``fraction``
    of training) of a run's latest (or the given) checkpoint, as a bot without a value
    output; its metadata's ``snapshot_step`` says which."""
    from .train import latest_checkpoint, load_checkpoint

    ckpt = load_checkpoint(Path(checkpoint)) if checkpoint else latest_checkpoint(Path(run_dir))
    step = nearest_snapshot_step(ckpt, fraction, run_dir) if step is None else int(step)
    actor = snapshot_actor(ckpt, step, run_dir)
    return export_actor(actor, ckpt.config, step, {}, out,
                        ckpt.meta.get("git_commit", "unknown"), critic=None,
                        extra_meta={"snapshot_step": step,
                                    "run_steps": int(ckpt.meta["steps"])},
                        platform=ckpt.meta.get("platform"))


def export_command(run: str, out: str | None, checkpoint: str | None) -> Path:
    """What ``plunder export`` does (the CLI stays thin)."""
    import click

    from plunder.envs.core import PlunderError

    from plunder.training.atomic import write_failure

    try:
        path = export_run(run, out, checkpoint)
    except PlunderError as exc:
        raise click.ClickException(str(exc)) from None
    except OSError as exc:       # a read-only folder, a full disk
        raise click.ClickException(write_failure(exc, "the run or its bot", "read or write")) \
            from None
    click.echo(f"wrote {path}")
    return path
