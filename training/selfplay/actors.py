"""Numpy copies of trained actor networks: observation -> masked action probabilities.

Used for frozen snapshots in the opponent pool (batched inference without torch
overhead), for evaluation during training, and as the source of the exported ONNX graph.
Two kinds, matching the two policy networks (``policy.kind`` in the training config):

- :class:`MlpActor` — SB3's MLP actor: hidden layers, then a linear head.
- :class:`EntityActor` — the entity network of :mod:`plunder.training.selfplay.entity_policy`: each
  member of an entity group (every coin, say) is encoded by one shared encoder; the MLP
  sees the observation outside the groups and the mean of the members' codes; an action that
  names member ``e`` adds the score ``code_e · query(hidden)`` to its logit.

``actor_from_policy`` and ``actor_from_arrays`` pick the kind; ``to_arrays`` gives a flat
dict of arrays (checkpoints, worker processes) whose ``kind`` entry says which.
:class:`Critic` holds the value network's own weights (its layers after the trunk the
actor computes, and its output) for the ONNX export's ``value`` output.
"""

from __future__ import annotations

import numpy as np

from plunder.envs.core import InvalidArgumentError

Layers = list[tuple[np.ndarray, np.ndarray]]


def _as_layers(layers) -> Layers:
    return [(np.ascontiguousarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers]


def _activate(x: np.ndarray, activation: str) -> np.ndarray:
    """tanh or ReLU, in place."""
    if activation == "tanh":
        return np.tanh(x, out=x)
    return np.maximum(x, 0.0, out=x)


def _mlp(x: np.ndarray, layers: Layers, activation: str) -> np.ndarray:
    """Hidden layers with the activation after each (in place where possible)."""
    for w, b in layers:
        x = x @ w
        x += b
        _activate(x, activation)
    return x


def _torch_layers(sequential) -> tuple[Layers, str | None]:
    """(weight.T, bias) of every Linear in an nn.Sequential, and its activation name."""
    import torch.nn as nn

    layers, activation = [], None
    for module in sequential:
        if isinstance(module, nn.Linear):
            layers.append((module.weight.detach().cpu().numpy().T.copy(),
                           module.bias.detach().cpu().numpy().copy()))
        elif isinstance(module, nn.Tanh):
            activation = "tanh"
        elif isinstance(module, nn.ReLU):
            activation = "relu"
        else:
            raise InvalidArgumentError(f"unsupported layer in the policy: {module}")
    return layers, activation


def _linear(module) -> tuple[np.ndarray, np.ndarray]:
    return (module.weight.detach().cpu().numpy().T.copy(),
            module.bias.detach().cpu().numpy().copy())


class Actor:
    """What every actor kind offers: logits, masked probabilities, batched actions."""

    kind = ""

    def logits(self, obs: np.ndarray) -> np.ndarray:  # pragma: no cover - overridden
        """Unmasked action logits, shape (batch, num_actions)."""
        raise NotImplementedError

    @property
    def obs_size(self) -> int:  # pragma: no cover - overridden
        """Length of the observation vector."""
        raise NotImplementedError

    @property
    def num_actions(self) -> int:  # pragma: no cover - overridden
        """Size of the action space."""
        raise NotImplementedError

    def to_arrays(self) -> dict[str, np.ndarray]:  # pragma: no cover - overridden
        """Flat dict of arrays (for ``np.savez``); ``actor_from_arrays`` inverts it."""
        raise NotImplementedError

    def probs(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Action probabilities with illegal actions at exactly zero."""
        logits = self.logits(obs)
        logits[np.asarray(masks) == 0] = -np.inf
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits, out=logits)
        p /= p.sum(axis=1, keepdims=True)
        return p

    def act_batch(self, obs: np.ndarray, masks: np.ndarray, rng=None,
                  greedy: bool = False) -> np.ndarray:
        """One legal action per row: the most likely one, or a sample (needs ``rng``)."""
        if greedy:
            logits = np.where(np.asarray(masks) > 0, self.logits(obs), -np.inf)
            return logits.argmax(axis=1)
        return _sample(self.probs(obs, masks), rng)

    def sample(self, obs: np.ndarray, masks: np.ndarray,
               rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Sampled legal actions and their log-probabilities (float32)."""
        p = self.probs(obs, masks)
        actions = _sample(p, rng)
        return actions, np.log(p[np.arange(len(p)), actions]).astype(np.float32)


def _sample(p: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action per row of the probability matrix ``p`` (inverse CDF)."""
    cdf = np.cumsum(p, axis=1)
    target = rng.random(len(p))[:, None] * cdf[:, -1:]
    return np.minimum((cdf <= target).sum(axis=1), p.shape[1] - 1)


class MlpActor(Actor):
    """The actor of an SB3 MLP policy: hidden layers, then a linear head."""

    kind = "mlp"

    def __init__(self, layers: Layers, activation: str, head: tuple[np.ndarray, np.ndarray]):
        if activation not in ("tanh", "relu"):
            raise InvalidArgumentError(f"activation must be tanh or relu, got {activation!r}")
        self.layers = _as_layers(layers)
        self.activation = activation
        self.head = (np.ascontiguousarray(head[0], np.float32),
                     np.asarray(head[1], np.float32))

    @classmethod
    def from_policy(cls, policy) -> "MlpActor":
        """Copy the actor of a (Maskable)ActorCriticPolicy with an MLP extractor."""
        layers, activation = _torch_layers(policy.mlp_extractor.policy_net)
        return cls(layers, activation or "tanh", _linear(policy.action_net))

    @property
    def obs_size(self) -> int:
        """Length of the observation vector."""
        return (self.layers[0][0] if self.layers else self.head[0]).shape[0]

    @property
    def num_actions(self) -> int:
        """Size of the action space."""
        return self.head[0].shape[1]

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """Unmasked action logits, shape (batch, num_actions)."""
        x = _mlp(np.asarray(obs, np.float32), self.layers, self.activation)
        return x @ self.head[0] + self.head[1]

    def to_arrays(self) -> dict[str, np.ndarray]:
        """Flat dict of arrays (for ``np.savez``)."""
        out = {"kind": np.array(self.kind), "activation": np.array(self.activation)}
        for i, (w, b) in enumerate(self.layers):
            out[f"w{i}"], out[f"b{i}"] = w, b
        out["head_w"], out["head_b"] = self.head
        return out

    @classmethod
    def from_arrays(cls, arrays) -> "MlpActor":
        """Inverse of ``to_arrays``."""
        return cls(_numbered(arrays, "w", "b"), str(arrays["activation"]),
                   (arrays["head_w"], arrays["head_b"]))


class EntityGroupWeights:
    """One entity group of an :class:`EntityActor`: where its members' features lie in
    the observation, the shared member encoder, and one query per action range. With
    fixed member features the encoder's first bias is (members, width), one row each."""

    def __init__(self, index: np.ndarray, encoder: Layers, starts: list[int],
                 queries: list[tuple[np.ndarray, np.ndarray]]):
        self.index = np.asarray(index, np.int64)
        self.encoder = _as_layers(encoder)
        self.starts = [int(s) for s in starts]
        self.queries = _as_layers(queries)
        if len(self.starts) != len(self.queries):
            raise InvalidArgumentError("an entity group needs one query per action range")

    @property
    def count(self) -> int:
        """Members in the group."""
        return self.index.shape[0]


def _encode_members(members: np.ndarray, group: "EntityGroupWeights",
                    activation: str) -> np.ndarray:
    """Member codes from member rows (batch * count, features); a first-layer bias of
    shape (count, width) (fixed member features folded in) is added member by member."""
    w, b = group.encoder[0]
    if b.ndim == 1:
        return _mlp(members, group.encoder, activation)
    x = (members @ w).reshape(-1, group.count, w.shape[1])
    x += b
    return _mlp(_activate(x.reshape(len(members), -1), activation), group.encoder[1:],
                activation)


class EntityActor(Actor):
    """The actor of :class:`~plunder.training.selfplay.entity_policy.EntityActorCriticPolicy`."""

    kind = "entity"

    def __init__(self, layers: Layers, activation: str, head: tuple[np.ndarray, np.ndarray],
                 groups: list[EntityGroupWeights], rest: np.ndarray, obs_size: int):
        if activation not in ("tanh", "relu"):
            raise InvalidArgumentError(f"activation must be tanh or relu, got {activation!r}")
        self.layers = _as_layers(layers)
        self.activation = activation
        self.head = (np.ascontiguousarray(head[0], np.float32),
                     np.asarray(head[1], np.float32))
        self.groups = groups
        self.rest = np.asarray(rest, np.int64)  # observation indices outside every group
        self._obs_size = int(obs_size)
        queries = [q for g in groups for q in g.queries]
        self._fused = (np.ascontiguousarray(np.concatenate(
            [self.head[0]] + [w for w, _ in queries], axis=1)),
            np.concatenate([self.head[1]] + [b for _, b in queries]))

    @classmethod
    def from_policy(cls, policy) -> "EntityActor":
        """Copy the actor of an EntityActorCriticPolicy."""
        ext, head = policy.mlp_extractor, policy.action_net
        layers, activation = _torch_layers(ext.policy_net)
        groups = []
        for k, encoder in enumerate(ext.encoders):
            enc_layers, _ = _torch_layers(encoder)
            bias = ext.member_bias(k)
            if bias is not None:  # fixed member features: a (members, width) first bias
                enc_layers[0] = (enc_layers[0][0], bias.detach().cpu().numpy().copy())
            groups.append(EntityGroupWeights(
                getattr(ext, f"index{k}").cpu().numpy().reshape(ext.shapes[k]), enc_layers,
                head.starts[k],
                [_linear(q) for q in head.queries[k]]))
        return cls(layers, activation or "tanh", _linear(head.base), groups,
                   ext.rest_index.cpu().numpy(), policy.observation_space.shape[0])

    @property
    def obs_size(self) -> int:
        """Length of the observation vector."""
        return self._obs_size

    @property
    def num_actions(self) -> int:
        """Size of the action space."""
        return self.head[0].shape[1]

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """Unmasked action logits, shape (batch, num_actions)."""
        obs = np.asarray(obs, np.float32)
        batch = len(obs)
        codes = []
        for g in self.groups:  # members as rows of one 2-D matrix: fewer, larger matmuls
            members = np.take(obs, g.index, axis=1).reshape(batch * g.count, -1)
            codes.append(_encode_members(members, g, self.activation).reshape(
                batch, g.count, -1))
        x = np.concatenate([np.take(obs, self.rest, axis=1)]
                           + [c.sum(axis=1) * (1.0 / c.shape[1]) for c in codes], axis=1)
        hidden = _mlp(x, self.layers, self.activation)
        # the head and every query in one product: [logits | query_1 | query_2 | ...]
        out = hidden @ self._fused[0]
        out += self._fused[1]
        logits = out[:, :self.num_actions]
        at = self.num_actions
        for g, c in zip(self.groups, codes):
            for start in g.starts:
                query = out[:, at:at + c.shape[2]]
                at += c.shape[2]
                logits[:, start:start + g.count] += np.matmul(c, query[:, :, None])[:, :, 0]
        return logits

    def to_arrays(self) -> dict[str, np.ndarray]:
        """Flat dict of arrays (for ``np.savez``)."""
        out = {"kind": np.array(self.kind), "activation": np.array(self.activation)}
        for i, (w, b) in enumerate(self.layers):
            out[f"w{i}"], out[f"b{i}"] = w, b
        out["head_w"], out["head_b"] = self.head
        out["rest_index"], out["obs_size"] = self.rest, np.array(self._obs_size, np.int64)
        for k, g in enumerate(self.groups):
            out[f"g{k}_index"] = g.index
            out[f"g{k}_starts"] = np.array(g.starts, np.int64)
            for i, (w, b) in enumerate(g.encoder):
                out[f"g{k}_ew{i}"], out[f"g{k}_eb{i}"] = w, b
            for i, (w, b) in enumerate(g.queries):
                out[f"g{k}_qw{i}"], out[f"g{k}_qb{i}"] = w, b
        return out

    @classmethod
    def from_arrays(cls, arrays) -> "EntityActor":
        """Inverse of ``to_arrays``."""
        groups = []
        k = 0
        while f"g{k}_index" in arrays:
            p = f"g{k}_"
            groups.append(EntityGroupWeights(
                arrays[p + "index"], _numbered(arrays, p + "ew", p + "eb"),
                np.asarray(arrays[p + "starts"]).tolist(),
                _numbered(arrays, p + "qw", p + "qb")))
            k += 1
        return cls(_numbered(arrays, "w", "b"), str(arrays["activation"]),
                   (arrays["head_w"], arrays["head_b"]), groups, arrays["rest_index"],
                   int(arrays["obs_size"]))


def _numbered(arrays, w: str, b: str) -> Layers:
    """[(arrays[w0], arrays[b0]), (arrays[w1], arrays[b1]), ...] while they exist."""
    out = []
    while f"{w}{len(out)}" in arrays:
        i = len(out)
        out.append((arrays[f"{w}{i}"], arrays[f"{b}{i}"]))
    return out


class Critic:
    """The value network's weights after the shared input: hidden layers and the linear
    output. Its input is the observation (MLP) or the entity network's MLP input (the
    observation outside the groups and the groups' mean member codes, computed by the
    encoders the actor and critic share)."""

    def __init__(self, layers: Layers, activation: str, head: tuple[np.ndarray, np.ndarray]):
        if activation not in ("tanh", "relu"):
            raise InvalidArgumentError(f"activation must be tanh or relu, got {activation!r}")
        self.layers = _as_layers(layers)
        self.activation = activation
        self.head = (np.ascontiguousarray(head[0], np.float32),
                     np.asarray(head[1], np.float32))
        if self.head[0].shape[1] != 1:
            raise InvalidArgumentError(f"a critic has one output, not {self.head[0].shape[1]}")

    @classmethod
    def from_policy(cls, policy) -> "Critic":
        """Copy the critic of a (Maskable)ActorCriticPolicy (MLP or entity extractor)."""
        layers, activation = _torch_layers(policy.mlp_extractor.value_net)
        return cls(layers, activation or "tanh", _linear(policy.value_net))


ACTOR_KINDS = {cls.kind: cls for cls in (MlpActor, EntityActor)}


def actor_from_policy(policy) -> Actor:
    """The numpy actor of a trained SB3 policy (MLP or entity network)."""
    from .entity_policy import EntityExtractor

    if isinstance(policy.mlp_extractor, EntityExtractor):
        return EntityActor.from_policy(policy)
    return MlpActor.from_policy(policy)


def critic_from_policy(policy) -> Critic:
    """The numpy copy of a trained SB3 policy's value network."""
    return Critic.from_policy(policy)


def actor_from_arrays(arrays) -> Actor:
    """Rebuild an actor from ``to_arrays()`` output (files from before the ``kind`` entry
    are MLP actors)."""
    kind = str(arrays["kind"]) if "kind" in arrays else "mlp"
    if kind not in ACTOR_KINDS:
        raise InvalidArgumentError(f"unknown actor kind {kind!r}; known: {sorted(ACTOR_KINDS)}")
    return ACTOR_KINDS[kind].from_arrays(arrays)
