"""A shipped MLP bot re-implemented in numpy from its ONNX weights: the ``module:callable``
twin that tests/benchmark/test_run.py scores against the ONNX file itself.

``crew_2p_final(observation, action_mask) -> action`` is the plain-callable form;
``make_twin(env_id=, num_players=, seed=)`` the factory form (``module:make_twin()``).
Needs the ``onnx`` package (train extra) to read the weights.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np


@lru_cache(maxsize=None)
def twin_actor(env_id: str, num_players: int, strength: str = "final"):
    """The numpy MlpActor whose weights are the shipped bot's ONNX initializers."""
    import onnx
    from onnx import numpy_helper

    from plunder.policies.pretrained import pretrained_path
    from plunder.training.selfplay.actors import MlpActor

    model = onnx.load(str(pretrained_path(env_id, num_players, strength)))
    # float16-stored weights (plunder benchmark ship) become the float32 the graph casts
    weights = {i.name.removesuffix("__float16"): numpy_helper.to_array(i).astype(np.float32)
               for i in model.graph.initializer}
    if any(name.startswith("g0_") for name in weights):
        raise ValueError("the twin re-implements MLP bots only")
    activation = "tanh" if any(n.op_type == "Tanh" for n in model.graph.node) else "relu"
    layers, i = [], 0
    while f"W{i}" in weights:
        layers.append((weights[f"W{i}"], weights[f"B{i}"]))
        i += 1
    return MlpActor(layers, activation, (weights["Whead"], weights["Bhead"]))


class Twin:
    """The twin as an object with ``act`` (what ``make_twin`` returns)."""

    def __init__(self, env_id: str, num_players: int):
        self.actor = twin_actor(env_id, num_players)

    def reset(self) -> None:
        """No memory."""

    def act(self, observation, action_mask) -> int:
        """The likeliest legal action, as the ONNX graph's ArgMax picks it."""
        return int(self.actor.act_batch(np.asarray(observation, np.float32)[None],
                                        np.asarray(action_mask)[None], greedy=True)[0])


def crew_2p_final(observation, action_mask) -> int:
    """The shipped All Hands crew 2-player final bot's move (an MLP), computed in numpy."""
    return Twin("all_hands_crew_v0", 2).act(observation, action_mask)


def make_twin(env_id: str, num_players: int, seed: int | None = None) -> Twin:
    """Factory form: the twin of the shipped final bot of this game and player count."""
    return Twin(env_id, num_players)


def always_zero(observation, action_mask) -> int:
    """A broken policy: action 0, legal or not."""
    return 0


def not_an_int(observation, action_mask):
    """A broken policy: returns a string."""
    return "fold"
