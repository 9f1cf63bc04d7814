"""The Policy protocol, the random policy, and bot construction by name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, runtime_checkable

import numpy as np

from plunder.envs import game_class
from plunder.envs.core import InvalidArgumentError
from plunder.envs.core.registry import SpecTable
from plunder.envs.core.spec import resolve
from plunder.envs.core.strict import whole_number

#: env id -> "module:Class" of its heuristic bot (read from the games' specs; read-only)
HEURISTICS = SpecTable(lambda s: s.heuristic)

#: env id -> "module:Class" of a stronger scripted bot, where a game has one (the
#: ``planner`` bot spec; a warm start may imitate it: ``pretrain.teacher``)
PLANNERS = SpecTable(lambda s: s.planner)


#: spec kinds of an exported bot: greedy (``trained``, ``onnx``) or sampling (``sampled``)
TRAINED_KINDS = ("trained", "onnx", "sampled")

#: every kind of bot spec ``make_bot`` takes, as ``plunder eval --help`` and
#: ``plunder play --help`` list them (``onnx:PATH`` is an alias of ``trained:PATH``)
BOT_SPECS = ("random", "heuristic", "planner", "search[:SAMPLES]",
             "pretrained[:early|final][:sampled]", "trained:PATH.onnx", "sampled:PATH.onnx",
             "netsearch:PATH.onnx[:SAMPLES][:KEY=VALUE]", "level:novice|casual|strong|expert",
             "noisy:SHARE:SPEC")

#: the kinds of bot spec (a spec's part before its first colon), as the commands check them
BOT_KINDS = tuple(dict.fromkeys([s.partition(":")[0].partition("[")[0] for s in BOT_SPECS]
                                + list(TRAINED_KINDS)))


@runtime_checkable
class Policy(Protocol):
    """Anything that picks a legal action from an observation and its mask."""

    def reset(self) -> None:
        """Forget everything about the previous game."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A legal action (``action_mask[action] == 1``)."""


def check_mask(action_mask: np.ndarray) -> np.ndarray:
    """The legal action indices; raises if the mask has none (the bot is not acting)."""
    legal = np.flatnonzero(action_mask)
    if len(legal) == 0:
        raise InvalidArgumentError("act() called with an all-zero action mask")
    return legal


class RandomPolicy:
    """Uniformly random legal actions from its own seeded generator."""

    name = "random"

    def __init__(self, game=None, seed: int | None = None):
        self._seed = seed
        self.rng = np.random.default_rng(seed)

    def reset(self) -> None:
        """Nothing to forget (the generator keeps running)."""

    def act(self, observation, action_mask) -> int:
        """A uniformly random legal action."""
        return int(self.rng.choice(check_mask(action_mask)))


def ask_bot(bot, view, observation: np.ndarray, action_mask: np.ndarray) -> int:
    """``bot``'s move at a seat: ``act_view(view, mask)`` for a bot that ``needs_view``
    (the search bots), else ``act(observation, mask)``."""
    if getattr(bot, "needs_view", False):
        return int(bot.act_view(view, action_mask))
    return int(bot.act(observation, action_mask))


def choose_action(bot, env, agent: str, observation: dict) -> int:
    """Ask ``bot`` for ``agent``'s move in ``env`` (a view-based bot gets the seat's view,
    built only for it). Bots read the full observation they were built on: from an env made
    with ``derived_features=False`` they get it from ``full_observation(agent)``."""
    view = None
    raw = env.unwrapped
    if getattr(bot, "needs_view", False):
        view = raw.view(agent)
        vector = observation["observation"]
    elif getattr(raw, "derived_features", True):
        vector = observation["observation"]
    else:
        vector = raw.full_observation(agent)
    return ask_bot(bot, view, vector, observation["action_mask"])


def _registered_class(registry: Mapping[str, str], env_id: str, what: str):
    """The class ``registry`` names for ``env_id`` (a clear error when it names none)."""
    if env_id not in registry:
        raise InvalidArgumentError(f"no {what} bot for {env_id!r}; the games with one: "
                                   f"{', '.join(sorted(registry))}")
    return resolve(registry[env_id])


def heuristic_class(env_id: str):
    """The heuristic bot class of ``env_id``."""
    return _registered_class(HEURISTICS, env_id, "heuristic")


def planner_class(env_id: str):
    """The planner bot class of ``env_id`` (only some games have one)."""
    return _registered_class(PLANNERS, env_id, "planner")


def scripted_class(env_id: str, kind: str):
    """The ``heuristic`` or ``planner`` bot class of ``env_id``."""
    if kind == "heuristic":
        return heuristic_class(env_id)
    if kind == "planner":
        return planner_class(env_id)
    raise InvalidArgumentError(f"a scripted bot is 'heuristic' or 'planner', got {kind!r}")


def make_bot(spec: str, env_id: str, num_players: int, seed: int | None = None, **options):
    """A bot from a spec (``BOT_SPECS``):

    - ``random``: uniformly random legal moves;
    - ``heuristic``: the game's hand-written bot;
    - ``planner``: a stronger hand-written bot, where the game has one (``PLANNERS``:
      Anchors Aweigh!'s values its cargo by the contracts still open, ShipShape's bids
      against a model of the other bidders);
    - ``search[:SAMPLES]``: determinized search with random rollouts (default 6 sampled
      states per move; :mod:`plunder.policies.search`);
    - ``pretrained[:early|final][:sampled]``: the bot shipped in the package for this game
      and player count (``final`` by default; :mod:`plunder.policies.pretrained`), greedy,
      or drawing its moves from the network's probabilities with ``:sampled``;
    - ``trained:PATH.onnx``: an exported network's likeliest legal action;
    - ``sampled:PATH.onnx``: an action drawn from its masked probabilities (seeded);
    - ``netsearch:PATH.onnx[:SAMPLES][:KEY=VALUE]``: determinized search guided by that
      network — its top 3 moves (2 in All Hands crew) each played in SAMPLES states
      sampled from the bot's view (default 16), two turns of the network's own moves (in
      All Hands crew to the end of the game), its value at the leaf; the network's
      favourite stands unless another move is clearly better
      (:mod:`plunder.policies.netsearch`; needs a file with a value output, as ``plunder
      export`` writes them); ``netsearch:pretrained[:SAMPLES]`` searches with the shipped
      final bot. Trailing ``KEY=VALUE`` parts override the game's settings
      (``netsearch.SPEC_SETTINGS``: samples, top_k, horizon — a number of turns or ``end`` —,
      confidence, min_gain, belief), e.g. ``netsearch:pretrained:min_gain=0.05:top_k=2``;
    - ``level:novice|casual|strong|expert``: the named strength level of this game and
      player count (:mod:`plunder.policies.levels`: the bot its table gives that level);
    - ``noisy:SHARE:SPEC``: the bot SPEC, playing a uniformly random legal move instead at
      a SHARE (0..1) of its decisions, e.g. ``noisy:0.5:heuristic``.
    """
    game = game_class(env_id)(num_players, **options)
    kind, _, arg = spec.partition(":")
    if kind == "level":
        from .levels import make_level_bot
        return make_level_bot(arg, env_id, num_players, seed=seed, **options)
    if kind == "noisy":
        from .levels import NoisyPolicy, parse_noisy
        share, inner = parse_noisy(spec)
        return NoisyPolicy(make_bot(inner, env_id, num_players, seed=seed, **options), share,
                           seed=seed, name=spec)
    if kind == "random":
        return RandomPolicy(game, seed=seed)
    if kind in ("heuristic", "planner"):
        if arg:
            raise InvalidArgumentError(f"{kind!r} takes no argument, got {spec!r}")
        return scripted_class(env_id, kind)(game, seed=seed)
    if kind == "search":
        from .search import SearchPolicy
        samples = whole_number(arg, f"{spec!r}: search:SAMPLES (a positive number of "
                               "samples)", low=1) if arg else 6
        return SearchPolicy(game, seed=seed, samples=samples)
    if kind == "pretrained":
        from .onnx_policy import OnnxPolicy
        from .pretrained import parse_spec, pretrained_path
        strength, sampled = parse_spec(arg)
        path = pretrained_path(env_id, num_players, strength, options=options)
        bot = OnnxPolicy(path, env_id=env_id, num_players=num_players, options=options,
                         seed=seed, greedy=not sampled)
        bot.name = spec
        return bot
    if kind == "netsearch":
        from .netsearch import spec_settings
        arg, settings = spec_settings(spec, arg)
        path, samples = _path_and_count(spec, arg)
        if samples is not None and "samples" in settings:
            raise InvalidArgumentError(f"{spec!r} gives the samples twice (:N and :samples=N)")
        if samples is not None:
            settings["samples"] = samples
        if path == "pretrained":
            from .pretrained import pretrained_path
            path = str(pretrained_path(env_id, num_players, "final", options=options))
        from .netsearch import NetSearchPolicy, default_settings
        from .onnx_policy import OnnxPolicy
        net = OnnxPolicy(path, env_id=env_id, num_players=num_players, options=options,
                         seed=seed)
        return NetSearchPolicy(game, net, seed=seed, **{**default_settings(env_id), **settings})
    if kind in TRAINED_KINDS:
        if not arg:
            raise InvalidArgumentError(f"trained bots need a path: {kind}:PATH.onnx")
        from .onnx_policy import OnnxPolicy
        return OnnxPolicy(arg, env_id=env_id, num_players=num_players, options=options,
                          seed=seed, greedy=kind != "sampled")
    raise InvalidArgumentError(f"unknown bot {spec!r}; use one of {', '.join(BOT_SPECS)}")


def spec_file(spec: str) -> str | None:
    """The bot file a spec names (``trained:PATH``, ``sampled:PATH``, ``onnx:PATH``,
    ``netsearch:PATH[...]``) as written, or None for a spec that names none (the shipped
    bots included); read without opening anything, so that a caller can check the path
    first. A malformed ``netsearch`` argument raises as ``make_bot`` would."""
    kind, _, arg = spec.partition(":")
    if kind == "noisy":             # the file of the bot it wraps
        from .levels import parse_noisy
        return spec_file(parse_noisy(spec)[1])
    if kind in TRAINED_KINDS:
        return arg or None
    if kind == "netsearch":
        from .netsearch import spec_settings
        path, _ = _path_and_count(spec, spec_settings(spec, arg)[0])
        return None if path == "pretrained" else path
    return None


def _path_and_count(spec: str, arg: str) -> tuple[str, int | None]:
    """``PATH.onnx`` or ``PATH.onnx:N`` -> (path, N or None); N must be a positive int."""
    if not arg:
        raise InvalidArgumentError(f"{spec!r} needs a path: "
                                   "netsearch:PATH.onnx[:SAMPLES][:KEY=VALUE]")
    head, sep, tail = arg.rpartition(":")
    # a numeric last part is the sample count, read strictly ("²" is refused, not a path)
    if not sep or not tail.isnumeric():
        return arg, None
    return head, whole_number(tail, f"{spec!r}: SAMPLES (a positive whole number)", low=1)
