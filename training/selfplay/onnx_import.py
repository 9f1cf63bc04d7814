"""Exported bots back into the trainer: an ONNX bot's weights loaded into a policy network
(config key ``init_from``; ``plunder benchmark exploit``'s warm start).

:mod:`plunder.training.selfplay.export` writes the actor (and critic) as named ONNX
initializers: ``W{i}`` / ``B{i}`` and ``Whead`` / ``Bhead`` for the actor's MLP and head,
``vW{i}`` / ``vB{i}`` and ``Wvalue`` / ``Bvalue`` for the critic, and for each entity group
``k`` its member index ``g{k}_index``, encoder ``g{k}_W{i}`` / ``g{k}_B{i}``, queries
``g{k}_q{r}W`` / ``g{k}_q{r}B`` and their action offsets ``g{k}_q{r}pads``; the observation
outside the groups is ``rest_index``. :func:`read_networks` reads them back (weights
shipped as float16 are read through the graph's Cast nodes, as float32, the values the
bot computes with) into the numpy :class:`~plunder.training.selfplay.actors.Actor` and
:class:`~plunder.training.selfplay.actors.Critic`, and :func:`load_bot_weights` copies
them into a MaskablePPO policy of the same shape.

An entity group with fixed member features (cards' kinds and suits) is stored with its
first encoder layer's bias folded per member, ``(members, width)``: the trainer's
projection of the features cannot always be recovered from it, so the warm-started
network gives each member its own first-layer bias instead (fixed features: one-hot
member ids, their projection that bias; the saved model keeps this shape). A file
without a critic (an early bot, format ``plunder-bot/1``) leaves the critic as
initialised. After loading, the policy's actor is checked to compute the file's logits.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from plunder.envs.core import ModelFileError

from .actors import Actor, Critic, EntityActor, EntityGroupWeights, MlpActor, actor_from_policy


def _initializers(model) -> dict[str, np.ndarray]:
    """Initializer arrays by name, with every Cast of one (float16 weights) read as its
    output's name and dtype."""
    from onnx import TensorProto, numpy_helper

    arrays = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    for node in model.graph.node:
        if node.op_type == "Cast" and node.input[0] in arrays:
            to = next((a.i for a in node.attribute if a.name == "to"), None)
            if to == TensorProto.FLOAT:
                arrays[node.output[0]] = arrays[node.input[0]].astype(np.float32)
    return arrays


def _layers(arrays: dict, w: str, b: str) -> list[tuple[np.ndarray, np.ndarray]]:
    out = []
    while f"{w}{len(out)}" in arrays:
        i = len(out)
        out.append((arrays[f"{w}{i}"], arrays[f"{b}{i}"]))
    return out


def read_networks(path: str | Path) -> tuple[Actor, Critic | None, dict]:
    """(actor, critic or None, metadata) of an exported bot; a file that is not a plunder
    bot, or whose graph lacks the weights its format names, is a ModelFileError."""
    import onnx

    from plunder.policies.onnx_policy import BOT_FORMATS, read_metadata

    path = Path(path)
    meta = read_metadata(path)      # a missing, damaged or foreign file fails here
    try:
        arrays = _initializers(onnx.load(str(path)))
        activation = (meta.get("config") or {}).get("policy", {}).get("activation", "tanh")
        head = (arrays["Whead"], arrays["Bhead"])
        layers = _layers(arrays, "W", "B")
        groups = []
        k = 0
        while f"g{k}_index" in arrays:
            p = f"g{k}_"
            queries, starts = [], []
            while f"{p}q{len(queries)}W" in arrays:
                r = len(queries)
                queries.append((arrays[f"{p}q{r}W"], arrays[f"{p}q{r}B"]))
                starts.append(int(arrays[f"{p}q{r}pads"][1]))
            groups.append(EntityGroupWeights(arrays[p + "index"], _layers(arrays, p + "W", p + "B"),
                                             starts, queries))
            k += 1
        if groups:
            actor: Actor = EntityActor(layers, activation, head, groups, arrays["rest_index"],
                                       int(meta["obs_size"]))
        else:
            actor = MlpActor(layers, activation, head)
        critic = None
        if BOT_FORMATS[meta["format"]]:
            critic = Critic(_layers(arrays, "vW", "vB"), activation,
                            (arrays["Wvalue"], arrays["Bvalue"]))
    except KeyError as exc:
        raise ModelFileError(f"{path}: the graph has no weight {exc} (not written by plunder "
                             "export?)") from None
    return actor, critic, meta


def _copy(module, w: np.ndarray, b: np.ndarray | None, where: str) -> None:
    """Set a torch Linear to (w as the export stores it: in x out, b)."""
    import torch

    want = tuple(module.weight.shape)
    if want != (w.shape[1], w.shape[0]) or (b is not None and module.bias is not None
                                            and tuple(module.bias.shape) != b.shape):
        raise ModelFileError(f"{where}: the file's weights are {w.shape[0]} x {w.shape[1]}, "
                             f"the network's {want[1]} x {want[0]} (another network shape)")
    with torch.no_grad():
        module.weight.copy_(torch.as_tensor(w.T.copy(), dtype=module.weight.dtype))
        if b is not None:
            module.bias.copy_(torch.as_tensor(np.array(b), dtype=module.bias.dtype))


def _copy_sequential(seq, layers, where: str) -> None:
    import torch.nn as nn

    linears = [m for m in seq if isinstance(m, nn.Linear)]
    if len(linears) != len(layers):
        raise ModelFileError(f"{where}: the file has {len(layers)} layers, the network "
                             f"{len(linears)} (another network shape)")
    for i, (module, (w, b)) in enumerate(zip(linears, layers)):
        _copy(module, w, b, f"{where} layer {i}")


def load_bot_weights(model, path: str | Path) -> dict:
    """Copy the exported bot's actor and critic into ``model.policy`` (a SelfPlayPPO of the
    same network shape; see the module doc) and check that its actor now computes the
    file's logits; returns what was loaded (file, sha256, training steps, whether it had a
    critic). A file of another shape or kind is a ModelFileError."""
    import hashlib

    from .entity_policy import EntityExtractor

    path = Path(path)
    actor, critic, meta = read_networks(path)
    policy = model.policy
    ext = policy.mlp_extractor
    entity = isinstance(ext, EntityExtractor)
    if entity != isinstance(actor, EntityActor):
        raise ModelFileError(f"{path} holds {'an entity' if not entity else 'an MLP'} "
                             f"network; the run's is {'an entity' if entity else 'an MLP'} "
                             "network (policy.kind)")
    _copy_sequential(ext.policy_net, actor.layers, f"{path}: actor")
    if critic is not None:
        _copy_sequential(ext.value_net, critic.layers, f"{path}: critic")
        _copy(policy.value_net, *critic.head, f"{path}: value head")
    if not entity:
        _copy(policy.action_net, *actor.head, f"{path}: action head")
    else:
        if len(actor.groups) != len(ext.encoders) or not np.array_equal(
                actor.rest, ext.rest_index.cpu().numpy()):
            raise ModelFileError(f"{path}: its entity groups ({len(actor.groups)}) do not "
                                 f"read the observation as the run's ({len(ext.encoders)}) "
                                 "(policy.entity_groups)")
        _copy(policy.action_net.base, *actor.head, f"{path}: action head")
        rebuilt = False
        for k, g in enumerate(actor.groups):
            where = f"{path}: entity group {k}"
            index = getattr(ext, f"index{k}").cpu().numpy().reshape(ext.shapes[k])
            if not np.array_equal(g.index, index) or \
                    g.starts != list(policy.action_net.starts[k]):
                raise ModelFileError(f"{where} reads other observation entries or actions "
                                     "than the run's")
            (w0, b0), rest = g.encoder[0], g.encoder[1:]
            encoder = ext.encoders[k]
            if b0.ndim == 2:       # fixed member features folded in: one bias per member
                _per_member_bias(policy, model, k, b0)
                rebuilt = True
                _copy(encoder[0], w0, np.zeros(b0.shape[1], np.float32), where)
            else:
                _copy(encoder[0], w0, b0, where)
            _copy_sequential(encoder[2:], rest, where)
            for r, (qw, qb) in enumerate(g.queries):
                _copy(policy.action_net.queries[k][r], qw, qb, f"{where} query {r}")
        if rebuilt:         # a new parameter: the optimizer must know it
            policy.optimizer = policy.optimizer_class(policy.parameters(), lr=1.0,
                                                      **policy.optimizer_kwargs)
    probe = np.random.default_rng(0).random((64, actor.obs_size), np.float32)
    got, want = actor_from_policy(policy).logits(probe), actor.logits(probe)
    if not np.allclose(got, want, rtol=1e-4, atol=1e-4):
        raise ModelFileError(f"{path}: the loaded network does not compute the file's "
                             f"logits (largest difference {np.abs(got - want).max():.3g})")
    return {"file": str(path), "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
            "training_steps": meta.get("training_steps"), "critic": critic is not None}


def _per_member_bias(policy, model, k: int, bias: np.ndarray) -> None:
    """Give group ``k`` one-hot member ids as its fixed features, whose projection is the
    file's per-member first-layer bias (in the policy and in the model's saved kwargs)."""
    import torch
    import torch.nn as nn

    ext = policy.mlp_extractor
    members, width = bias.shape
    device = next(policy.parameters()).device
    eye = torch.eye(members, dtype=torch.float32, device=device)
    ext.register_buffer(f"static{k}", eye, persistent=False)
    projection = nn.Linear(members, width, bias=False).to(device)
    with torch.no_grad():
        projection.weight.copy_(torch.as_tensor(bias.T.copy(), device=device))
    ext.static_projections[str(k)] = projection
    identity = np.eye(members, dtype=np.float32).tolist()
    policy.entity_groups[k]["static"] = identity
    groups = model.policy_kwargs.get("entity_groups")
    if groups is not None:
        groups[k] = dict(groups[k], static=identity)


def bot_training_steps(path: str | Path) -> int | None:
    """The training steps an exported bot's metadata records (None if it records none)."""
    from plunder.policies.onnx_policy import read_metadata

    steps = read_metadata(Path(path)).get("training_steps")
    return int(steps) if isinstance(steps, int) else None


def bot_policy_settings(path: str | Path) -> list[str]:
    """Config overrides that give a run the exported bot's network shape (``policy.*``)
    and observations (``recall``): what a run that starts from its weights needs."""
    from plunder.policies.onnx_policy import read_metadata

    meta = read_metadata(Path(path))
    policy = (meta.get("config") or {}).get("policy")
    if not isinstance(policy, dict):
        raise ModelFileError(f"{path} records no training config (exported before configs "
                             "were recorded): its network shape is unknown")
    out = [f"policy.{k}={json.dumps(v)}" for k, v in sorted(policy.items())]
    return out + [f"recall={json.dumps(bool(meta.get('recall', False)))}"]
