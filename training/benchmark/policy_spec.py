"""What ``--policy SPEC`` (and ``evaluate(task, policy)``) accepts, turned into per-seat bots.

- a path ending in ``.onnx``: an exported bot (``plunder export``), played greedily
  (the same as ``trained:PATH.onnx``);
- ``package.module:name``: ``name`` is
  - a function ``(observation, action_mask) -> action`` (an int; observation float32
    ``[obs_size]``, mask int8 ``[num_actions]``, exactly what the PettingZoo env gives),
  - or an object with ``act(observation, action_mask)`` (and optionally ``reset()``),
    shared by every seat it plays;
- ``package.module:name()`` (with the parentheses): ``name`` is a factory, called once per
  seat it plays as ``name(env_id=..., num_players=..., seed=...)``; it returns an object
  with ``act(observation, action_mask)`` and optionally ``reset()`` (called before each
  game);
- any bot spec ``make_bot`` takes (``heuristic``, ``pretrained:final``, ``search:8``,
  ``trained:PATH.onnx``, ...). A spec whose part before the colon is a bot kind is a bot
  spec, never a module.

A Python object (a callable or an object with ``act``) can be passed to
:func:`plunder.training.benchmark.evaluate` directly. Every action is checked against the mask
before the game sees it: an illegal one stops the run with a ``BenchmarkError`` naming the
task, game, seat and the legal actions (nothing is silently replaced).
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from plunder.envs.core import InvalidArgumentError, PlunderError
from plunder.policies.base import BOT_KINDS


class BenchmarkError(PlunderError, RuntimeError):
    """A benchmark run that cannot go on: an illegal action, a broken policy."""


@dataclass
class PolicySource:
    """A resolved policy spec: its label, what kind it is, and a per-seat factory."""

    label: str
    kind: str            # onnx, callable, factory, object or bot
    factory: Callable[[int], Any]


class _CallablePolicy:
    """A plain ``(observation, action_mask) -> action`` function as a Policy."""

    def __init__(self, fn: Callable, name: str):
        self.fn, self.name = fn, name

    def reset(self) -> None:
        """A function has no memory to forget."""

    def act(self, observation, action_mask):
        """Whatever the function returns (checked by the runner)."""
        return self.fn(observation, action_mask)


def resolve_policy(policy, env_id: str, num_players: int,
                   options: dict | None = None) -> PolicySource:
    """A :class:`PolicySource` from a spec string or a Python object (see the module doc);
    bad specs fail here, before any game is played."""
    from plunder.policies.base import make_bot

    options = dict(options or {})
    if not isinstance(policy, str):
        return _from_object(policy, repr(policy))
    spec = policy.strip()
    if not spec:
        raise InvalidArgumentError("the policy spec is empty")
    kind = spec.split(":", 1)[0]
    if spec.endswith(".onnx") and kind not in BOT_KINDS:
        spec = f"trained:{spec}"
        make_bot(spec, env_id, num_players, seed=0, **options)
        return PolicySource(policy, "onnx", lambda seed: make_bot(spec, env_id, num_players,
                                                                  seed=seed, **options))
    if kind in BOT_KINDS:
        make_bot(spec, env_id, num_players, seed=0, **options)  # fail early
        return PolicySource(spec, "bot", lambda seed: make_bot(spec, env_id, num_players,
                                                               seed=seed, **options))
    if ":" not in spec:
        raise InvalidArgumentError(
            f"policy {spec!r} is neither a .onnx file, a module:callable nor a bot spec "
            f"(bot kinds: {', '.join(BOT_KINDS)})")
    module_name, attr = spec.split(":", 1)
    is_factory = attr.endswith("()")
    attr = attr[:-2] if is_factory else attr
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # noqa: BLE001 - any import failure is the user's module's
        raise InvalidArgumentError(f"policy {spec!r}: cannot import module {module_name!r} "
                                   f"({type(exc).__name__}: {exc})") from None
    obj = module
    for part in attr.split("."):
        if not part.isidentifier() or not hasattr(obj, part):
            raise InvalidArgumentError(f"policy {spec!r}: module {module_name!r} has no "
                                       f"attribute {attr!r}")
        obj = getattr(obj, part)
    if is_factory:
        if not callable(obj):
            raise InvalidArgumentError(f"policy {spec!r}: {attr} is not callable")

        def build(seed, _f=obj):
            """One seat's object from the factory."""
            made = _f(env_id=env_id, num_players=num_players, seed=seed)
            if not callable(getattr(made, "act", None)):
                raise InvalidArgumentError(f"policy {spec!r}: the factory returned "
                                           f"{type(made).__name__}, which has no act()")
            return made
        build(0)
        return PolicySource(spec, "factory", build)
    return _from_object(obj, spec)


def _from_object(obj, label: str) -> PolicySource:
    """A function or an object with ``act`` as a PolicySource."""
    if callable(getattr(obj, "act", None)):
        return PolicySource(label, "object", lambda seed: obj)
    if callable(obj):
        return PolicySource(label, "callable", lambda seed: _CallablePolicy(obj, label))
    raise InvalidArgumentError(f"policy {label}: not a callable (observation, action_mask) "
                               f"-> action and has no act() method")


class MeasuredPolicy:
    """Wraps the evaluated policy in a seat: times every decision and refuses an illegal
    action with a :class:`BenchmarkError` naming the task, game and seat."""

    def __init__(self, inner, task_name: str, env_id: str, seat: int):
        self.inner, self.task_name, self.env_id, self.seat = inner, task_name, env_id, seat
        self.needs_view = bool(getattr(inner, "needs_view", False))
        self.game_index = -1
        self.latencies_ns: list[int] = []

    def reset(self) -> None:
        """Reset the wrapped policy (when it has ``reset``)."""
        reset = getattr(self.inner, "reset", None)
        if callable(reset):
            reset()

    def act(self, observation, action_mask) -> int:
        """The wrapped policy's action, timed and checked."""
        t0 = time.perf_counter_ns()
        action = self.inner.act(observation, action_mask)
        self.latencies_ns.append(time.perf_counter_ns() - t0)
        return self._check(action, action_mask)

    def act_view(self, view, action_mask) -> int:
        """The wrapped view-based bot's action, timed and checked."""
        t0 = time.perf_counter_ns()
        action = self.inner.act_view(view, action_mask)
        self.latencies_ns.append(time.perf_counter_ns() - t0)
        return self._check(action, action_mask)

    def _check(self, action, action_mask) -> int:
        where = (f"task {self.task_name} ({self.env_id}), game {self.game_index}, seat "
                 f"{self.seat}")
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            if isinstance(action, np.ndarray) and action.shape == () and \
                    np.issubdtype(action.dtype, np.integer):
                action = int(action)
            else:
                raise BenchmarkError(f"{where}: the policy returned {action!r} "
                                     f"({type(action).__name__}), not an integer action")
        action = int(action)
        legal = np.flatnonzero(action_mask)
        if not 0 <= action < len(action_mask) or not action_mask[action]:
            shown = ", ".join(map(str, legal[:20])) + (" ..." if len(legal) > 20 else "")
            raise BenchmarkError(f"{where}: the policy returned the illegal action {action}; "
                                 f"legal actions: {shown}")
        return action
