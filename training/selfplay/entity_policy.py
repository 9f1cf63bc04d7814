"""The entity network: a MaskablePPO policy that shares weights across interchangeable
objects (``policy.kind: entity`` in a training config).

A plain MLP sees Scallywags' 40 coins as 40 unrelated blocks of inputs and "take coin c"
as 40 unrelated outputs, so it must learn what makes a coin worth taking once per coin id
— though ids are arbitrary labels. A game lists such objects as
:class:`~plunder.envs.core.EntityGroup`\\ s (its ``entity_groups``); this network then

1. encodes every member of a group with one shared encoder (two layers, ``entity_dim``
   wide) from the member's own slice of the observation and its fixed features, if the
   group has any (``EntityGroup.static``: a card's kind, suit, value), which enter the
   first layer as a learned projection — a per-member bias, which is how the numpy and
   ONNX copies hold them;
2. runs the usual actor and critic MLPs (``net_arch``) on the rest of the observation
   (everything that belongs to no member) and the mean of each group's member codes — a
   DeepSets summary, so the MLP no longer sees 40 separate coin blocks (which also makes
   its first layer several times smaller);
3. scores an action that names member ``e`` as ``linear(hidden)[a] + code_e · query(hidden)``
   (a pointer-style logit with one query per action range); other actions get
   ``linear(hidden)`` alone.

The numpy twin for snapshots and export is :class:`~plunder.training.selfplay.actors.EntityActor`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch as th
import torch.nn as nn
import torch.nn.functional as F
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from plunder.envs.core import ConfigError


def entity_groups_spec(game, names=()) -> list[dict[str, Any]]:
    """The picklable description of ``game``'s entity groups the policy is built from
    (those named in ``names``, in the game's order; all of them without names)."""
    groups = game.entity_groups
    if not groups:
        raise ConfigError(f"policy.kind: entity needs a game with entity groups; "
                          f"{game.env_id()} declares none (use policy.kind: mlp)")
    if names:
        unknown = set(names) - {g.name for g in groups}
        if unknown:
            raise ConfigError(f"{game.env_id()} has no entity group {sorted(unknown)}; it "
                              f"declares {[g.name for g in groups]}")
        groups = tuple(g for g in groups if g.name in names)
    spec = []
    for g in groups:
        g.check_actions(game.num_actions)
        entry = {"name": g.name, "index": g.feature_index(game.layout).tolist(),
                 "actions": [int(a) for a in g.actions]}
        static = g.static_features()
        if static.shape[1]:
            entry["static"] = static.tolist()
        spec.append(entry)
    return spec


def rest_index(obs_dim: int, groups: list[dict]) -> np.ndarray:
    """Observation indices that belong to no entity group (they go to the MLP as they are)."""
    used = np.zeros(obs_dim, bool)
    for g in groups:
        used[np.asarray(g["index"], np.int64).reshape(-1)] = True
    return np.flatnonzero(~used)


def _mlp(sizes: list[int], activation_fn) -> nn.Sequential:
    layers: list[nn.Module] = []
    for a, b in zip(sizes, sizes[1:]):
        layers += [nn.Linear(a, b), activation_fn()]
    return nn.Sequential(*layers)


class EntityExtractor(nn.Module):
    """Member encoders plus the actor and critic MLPs (SB3's ``mlp_extractor`` slot).

    ``latent_pi`` is the actor's last hidden layer followed by every member code
    (flattened), so that the action head can score members; ``latent_vf`` is the critic's
    last hidden layer.
    """

    def __init__(self, obs_dim: int, groups: list[dict], entity_dim: int,
                 net_arch: dict[str, list[int]], activation_fn):
        super().__init__()
        self.encoders = nn.ModuleList()
        self.static_projections = nn.ModuleDict()   # group k -> fixed features -> layer 1
        self.shapes = []
        for k, g in enumerate(groups):
            index = np.asarray(g["index"], np.int64)
            self.register_buffer(f"index{k}", th.as_tensor(index.reshape(-1)), persistent=False)
            self.shapes.append(index.shape)
            self.encoders.append(_mlp([index.shape[1], entity_dim, entity_dim], activation_fn))
            if g.get("static"):
                static = th.as_tensor(np.asarray(g["static"], np.float32))
                self.register_buffer(f"static{k}", static, persistent=False)
                self.static_projections[str(k)] = nn.Linear(static.shape[1], entity_dim,
                                                            bias=False)
        rest = rest_index(obs_dim, groups)
        self.register_buffer("rest_index", th.as_tensor(rest), persistent=False)
        width = len(rest) + entity_dim * len(groups)
        self.policy_net = _mlp([width, *net_arch["pi"]], activation_fn)
        self.value_net = _mlp([width, *net_arch["vf"]], activation_fn)
        self.hidden_pi = net_arch["pi"][-1] if net_arch["pi"] else width
        self.latent_dim_pi = self.hidden_pi + sum(
            len(g["index"]) * entity_dim for g in groups)
        self.latent_dim_vf = net_arch["vf"][-1] if net_arch["vf"] else width

    def _inputs(self, obs: th.Tensor) -> tuple[th.Tensor, list[th.Tensor]]:
        """The MLP input (the observation outside the groups + each group's mean member
        code) and the member codes, each (batch, members, entity_dim)."""
        codes = [self._encode(k, obs.index_select(1, getattr(self, f"index{k}")).view(-1, *s))
                 for k, s in enumerate(self.shapes)]
        return th.cat([obs.index_select(1, self.rest_index)] + [c.mean(dim=1) for c in codes],
                      dim=1), codes

    def _encode(self, k: int, members: th.Tensor) -> th.Tensor:
        """Codes of group ``k``'s members (batch, members, features) -> (..., entity_dim)."""
        encoder = self.encoders[k]
        if str(k) not in self.static_projections:
            return encoder(members)
        # the sums in this order, as the shipped runs were trained (same seed, same run)
        return encoder[1:](encoder[0](members) + self.static_projections[str(k)](
            getattr(self, f"static{k}")))

    def member_bias(self, k: int) -> th.Tensor | None:
        """Group ``k``'s first-layer bias with its fixed features folded in, (members,
        entity_dim), or None for a group without them (the numpy and ONNX copies hold
        exactly this)."""
        if str(k) not in self.static_projections:
            return None
        return self.encoders[k][0].bias + self.static_projections[str(k)](
            getattr(self, f"static{k}"))

    def forward(self, obs: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        """(latent_pi, latent_vf)."""
        x, codes = self._inputs(obs)
        return self._actor_latent(x, codes), self.value_net(x)

    def _actor_latent(self, x: th.Tensor, codes: list[th.Tensor]) -> th.Tensor:
        return th.cat([self.policy_net(x)] + [c.flatten(1) for c in codes], dim=1)

    def forward_actor(self, obs: th.Tensor) -> th.Tensor:
        """latent_pi alone."""
        x, codes = self._inputs(obs)
        return self._actor_latent(x, codes)

    def forward_critic(self, obs: th.Tensor) -> th.Tensor:
        """latent_vf alone."""
        return self.value_net(self._inputs(obs)[0])


class PointerHead(nn.Module):
    """Action logits: a linear head, plus member code · query for actions naming members."""

    def __init__(self, hidden: int, num_actions: int, groups: list[dict], entity_dim: int):
        super().__init__()
        self.hidden, self.num_actions, self.entity_dim = hidden, num_actions, entity_dim
        self.base = nn.Linear(hidden, num_actions)
        self.counts = [len(g["index"]) for g in groups]
        self.starts = [list(g["actions"]) for g in groups]
        self.queries = nn.ModuleList(
            nn.ModuleList(nn.Linear(hidden, entity_dim) for _ in g["actions"]) for g in groups)

    def forward(self, latent: th.Tensor) -> th.Tensor:
        """Logits (B, num_actions) from EntityExtractor's latent_pi."""
        hidden = latent[:, :self.hidden]
        logits = self.base(hidden)
        offset = self.hidden
        for count, starts, queries in zip(self.counts, self.starts, self.queries):
            codes = latent[:, offset:offset + count * self.entity_dim]
            codes = codes.reshape(-1, count, self.entity_dim)
            offset += count * self.entity_dim
            for start, query in zip(starts, queries):
                scores = th.bmm(codes, query(hidden).unsqueeze(2)).squeeze(2)
                logits = logits + F.pad(scores, (start, self.num_actions - start - count))
        return logits


class EntityActorCriticPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's actor-critic with an EntityExtractor and a PointerHead."""

    def __init__(self, *args, entity_groups: list[dict] = (), entity_dim: int = 32,
                 **kwargs):
        if not entity_groups:
            raise ConfigError("EntityActorCriticPolicy needs entity_groups")
        self.entity_groups = [dict(g) for g in entity_groups]
        self.entity_dim = int(entity_dim)
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        arch = self.net_arch if isinstance(self.net_arch, dict) else \
            {"pi": list(self.net_arch), "vf": list(self.net_arch)}
        self.mlp_extractor = EntityExtractor(self.features_dim, self.entity_groups,
                                             self.entity_dim, arch, self.activation_fn)

    def _build(self, lr_schedule) -> None:
        super()._build(lr_schedule)
        # replace SB3's linear action head, then rebuild the optimizer over all parameters
        self.action_net = PointerHead(self.mlp_extractor.hidden_pi, int(self.action_space.n),
                                      self.entity_groups, self.entity_dim)
        if self.ortho_init:  # small outputs at the start, as SB3 does for its head
            self.action_net.apply(lambda m: self.init_weights(m, gain=0.01))
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1),
                                              **self.optimizer_kwargs)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data.update(entity_groups=self.entity_groups, entity_dim=self.entity_dim)
        return data
