"""The engine protocol every game implements: pure rules, no gymnasium or PettingZoo.

A :class:`Game` holds the parameters (player count, variant options, component data) and
knows the action space, the observation layout and how to encode a player's view. A
:class:`GameState` is one position: who must act, what they may do, what happens when they
do, and what each player knows (``view``). All randomness comes from the
``numpy.random.Generator`` held in the state, so a cloned state replays identically.

Simultaneous decisions: ``current_players()`` may name several players; the state then
waits for one action from each and applies them together with ``apply_joint``. A
sequential decision is the special case of one player.
"""

from __future__ import annotations

import copy
import importlib
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any, ClassVar, Protocol

import numpy as np

from .errors import (
    GameOverError, IllegalActionError, InvalidArgumentError, InvalidStateError,
    NotActingError, PlunderError,
)
from .actions import ActionRanges
from .layout import EntityGroup, ObservationLayout
from .state_io import MAX_INT
from .strict import MAX_JSON_DEPTH, load_json, nesting_depth


class Game(ABC):
    """Parameters of one game and everything that depends only on them."""

    #: short name, e.g. "scallywags"; the env id is f"{name}_v{version}"
    name: ClassVar[str]
    version: ClassVar[int] = 0
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: variant options and their defaults; values must keep the default's type
    options: ClassVar[Mapping[str, Any]] = {}
    #: whether some decisions are simultaneous (the env then also offers parallel_env())
    simultaneous: ClassVar[bool] = False
    #: the default truncation limit, in the game's own turns
    default_max_turns: ClassVar[int] = 1000
    #: the bool variant option whose observations keep in view what a player saw earlier
    #: and the rules then hide (a perfect-recall variant), if the game has one; a bot
    #: trained with it plays the game without it through ``observation_memory()``
    recall_option: ClassVar[str | None] = None

    def __init__(self, num_players: int, **options: Any):
        if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)):
            raise InvalidArgumentError(f"num_players must be an int, got {num_players!r}")
        if not self.min_players <= num_players <= self.max_players:
            raise InvalidArgumentError(
                f"{self.env_id()} supports {self.min_players}-{self.max_players} players, "
                f"got num_players={num_players}"
            )
        self.num_players = int(num_players)
        self.option_values = self.check_options(options)
        for key, value in self.option_values.items():
            setattr(self, key, value)

    @classmethod
    def env_id(cls) -> str:
        """The registered env id, e.g. ``scallywags_v0``."""
        return f"{cls.name}_v{cls.version}"

    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> dict[str, Any]:
        """Variant options with defaults filled in; unknown names or wrong types raise."""
        unknown = sorted(set(options) - set(cls.options))
        if unknown:
            raise InvalidArgumentError(
                f"unknown option(s) {unknown} for {cls.env_id()}; "
                f"options: {sorted(cls.options) or 'none'}"
            )
        values = dict(cls.options)
        for key, value in options.items():
            default = cls.options[key]
            if default is not None and not _same_kind(value, default):
                raise InvalidArgumentError(
                    f"option {key!r} of {cls.env_id()} must be {type(default).__name__}, "
                    f"got {value!r}"
                )
            if _is_int(value) and not -MAX_INT - 1 <= value <= MAX_INT:
                raise InvalidArgumentError(f"option {key!r} of {cls.env_id()}: {value} is "
                                           f"outside {-MAX_INT - 1}..{MAX_INT}")
            if isinstance(value, (float, np.floating)) and not np.isfinite(value):
                raise InvalidArgumentError(f"option {key!r} of {cls.env_id()} must be a "
                                           f"finite number, got {value!r}")
            values[key] = value
        cls.validate_options(values)
        return values

    @classmethod
    def validate_options(cls, values: dict[str, Any]) -> None:
        """Hook: raise InvalidArgumentError for combinations the rules forbid."""

    # -- spaces -------------------------------------------------------------------------
    #: the single Discrete action space as named ranges (``core.actions.ActionRanges``): a
    #: class attribute, or set by the constructor where its size depends on the game
    actions: "ActionRanges"

    @property
    def num_actions(self) -> int:
        """Size of the single Discrete action space (``actions.size``)."""
        return self.actions.size

    def action_name(self, action: int) -> str:
        """A readable name of an action index, for rendering, errors and `plunder play`
        (``actions.action_name``; InvalidArgumentError outside the action space)."""
        return self.actions.action_name(action)

    @property
    def layout(self) -> ObservationLayout:
        """The observation vector's named layout: the ``_layout`` the game built, or else
        built on first use by ``build_layout(game)`` of the game package's
        ``observation``."""
        if getattr(self, "_layout", None) is None:
            self._layout = self._package_function("observation", "build_layout",
                                                  "observation layout")(self)
        return self._layout

    @abstractmethod
    def encode(self, view: Any) -> np.ndarray:
        """The observation vector of a player's view (reads nothing but the view)."""

    def view_of(self, state: "GameState", player: int) -> Any:
        """``player``'s view of ``state`` by the Python view (``state.python_view``), for
        games whose ``state.view`` asks the game; a game whose compiled view builder is
        built replaces this with the C method on the instance (``bind_compiled``)."""
        return state.python_view(player)

    # -- compiled code (envs/core/compiled.py) ------------------------------------------
    #: instance attributes that hold compiled code: never pickled, bound again on loading
    COMPILED_ATTRS: ClassVar[tuple[str, ...]] = ("encode", "encode_into", "view_of",
                                                 "mask_into")
    #: instance attributes where the game's Python encoder keeps its tables and caches
    #: (dropped when the compiled encoder is bound: an unpickled game may carry them)
    python_encoder_attrs: ClassVar[tuple[str, ...]] = ()

    def bind_compiled(self) -> None:
        """Use the game's compiled encoder (``_cencode.c``) and view builder
        (``_cview.c``) where built and switched on: ``encode`` and ``encode_into`` (the C
        method itself, no Python frame between), ``view_of`` and, where the view builder
        has one, ``mask_into`` (the same builder's) become instance attributes; otherwise
        the class's Python methods answer. A game calls this at the end of its
        constructor; unpickling calls it again (``__setstate__``)."""
        from . import compiled

        for name in self.COMPILED_ATTRS:
            self.__dict__.pop(name, None)
        package = type(self).__module__.split(".")[-2]
        encoder = compiled.load(package)
        if encoder is not None:
            for name in self.python_encoder_attrs:
                self.__dict__.pop(name, None)
            self.encode, self.encode_into = compiled.bind(
                encoder, self.layout.size, *self.compiled_encoder_params(encoder))
        builder = compiled.load(package, "view")
        if builder is not None:
            views = builder.ViewBuilder(*self.compiled_view_params())
            self.view_of = views.view
            if hasattr(views, "mask_into"):
                self.mask_into = views.mask_into

    def compiled_encoder_params(self, module: Any) -> tuple:
        """The compiled encoder's constructor arguments (``module.Encoder(*params)``): by
        default ``compiled_params(game, module)`` of the game package's ``observation``."""
        return self._package_function("observation", "compiled_params",
                                      "compiled encoder")(self, module)

    def compiled_view_params(self) -> tuple:
        """The compiled view builder's constructor arguments (``ViewBuilder(*params)``): by
        default ``view_params(game)`` of the module that defines the game's class."""
        return self._package_function(None, "view_params", "compiled view builder")(self)

    def _package_function(self, module_name: str | None, name: str, what: str) -> Callable:
        """The function ``name`` of the game package's module ``module_name`` (None: the
        game class's own module); NotImplementedError naming ``what`` where there is none."""
        target = type(self).__module__
        if module_name is not None:
            target = f"{target.rpartition('.')[0]}.{module_name}"
        try:
            return getattr(importlib.import_module(target), name)
        except ModuleNotFoundError as exc:
            if exc.name != target:
                raise
        except AttributeError:
            pass
        raise NotImplementedError(f"{type(self).__name__} has no {what} ({target}.{name})")

    def __getstate__(self) -> dict:
        """Pickled without the compiled code (C objects do not pickle)."""
        state = self.__dict__.copy()
        for name in self.COMPILED_ATTRS:
            state.pop(name, None)
        return state

    def __setstate__(self, state: dict) -> None:
        """Restored, with the compiled code this process has bound again."""
        self.__dict__.update(state)
        self.bind_compiled()

    def mask_into(self, state: "GameState", player: int, out: np.ndarray) -> None:
        """Write ``state.legal_actions_mask(player)`` into ``out`` (an int8 row)."""
        out[:] = state.legal_actions_mask(player)

    def encode_into(self, view: Any, out: np.ndarray) -> None:
        """Write ``encode(view)`` into ``out`` (a float32 vector of the layout's size, e.g. a
        row of a batch array); a game with a compiled encoder writes it in place."""
        out[:] = self.encode(view)

    @property
    def entity_groups(self) -> tuple[EntityGroup, ...]:
        """Interchangeable objects in the observation and actions (none by default).

        Optional: a game whose coins or cards carry arbitrary ids declares them here so
        that a policy can share its weights across them (``policy.kind: entity``).
        """
        return ()

    def observation_memory(self) -> "ObservationMemory":
        """A fresh memory for one player of this game (played without ``recall_option``).

        Fed that player's observations in the order it receives them, it returns what the
        ``recall_option`` variant would show at the same moment: what the player saw
        earlier and still knows, rebuilt from its own earlier observations only. Games
        without a ``recall_option`` have none (InvalidArgumentError).
        """
        raise InvalidArgumentError(f"{self.env_id()} has no perfect-recall variant, so no "
                                   "observation memory")

    # -- states -------------------------------------------------------------------------
    @abstractmethod
    def new_initial_state(self, rng: np.random.Generator) -> "GameState":
        """A fresh game set up with randomness from ``rng``."""

    def new_game(self, rng: np.random.Generator) -> "GameState":
        """A new game with its own generator drawn from ``rng`` (how every env, the
        trainer and the evaluator turn one seed into a game)."""
        return self.new_initial_state(np.random.default_rng(int(rng.integers(2**63 - 1))))

    def state_from_dict(self, data: Mapping) -> "GameState":
        """Rebuild a state from ``GameState.to_dict()``; anything that is not a legal
        position of this game (a missing or mistyped field, a value out of range, a broken
        rule) raises InvalidStateError naming what is wrong."""
        where = f"{self.env_id()} state"
        if not isinstance(data, Mapping):
            raise InvalidStateError(f"{where}: expected an object, got {type(data).__name__}")
        if nesting_depth(data) > MAX_JSON_DEPTH:     # the loaders' copies would recurse
            raise InvalidStateError(f"{where}: nested deeper than {MAX_JSON_DEPTH} levels")
        try:
            state = self._load_state(data)
        except InvalidStateError:
            raise
        except PlunderError as exc:
            raise InvalidStateError(f"{where}: {exc}") from None
        except (KeyError, TypeError, ValueError, IndexError, AttributeError,
                OverflowError, RecursionError) as exc:
            raise InvalidStateError(f"{where}: unreadable ({type(exc).__name__}: {exc})") \
                from None
        try:
            state.validate()
        except InvalidStateError as exc:
            raise InvalidStateError(f"{where} breaks the rules: {exc}") from None
        except (KeyError, TypeError, ValueError, IndexError, AttributeError,
                OverflowError, RecursionError) as exc:
            # fields that load one by one may still not fit together (a list index that
            # another field's length does not have): the rules cannot be checked on them
            raise InvalidStateError(f"{where} breaks the rules: its fields do not fit "
                                    f"together ({type(exc).__name__}: {exc})") from None
        return state

    #: the game's state class; its ``STATE_FIELDS`` declare what ``_load_state`` reads
    state_class: ClassVar[type["GameState"]]

    def _load_state(self, data: Mapping) -> "GameState":
        """Build a state from a dict: exactly the declared fields and ``rng``, each read
        through its checked reader (``core.state_io``), then the state's ``loaded`` hook
        (``state_from_dict`` then runs ``validate``)."""
        from .state_io import check_keys, load_fields

        cls = getattr(self, "state_class", None)
        if cls is None or not cls.STATE_FIELDS:
            raise NotImplementedError(f"{type(self).__name__} declares no state_class with "
                                      "STATE_FIELDS, so it must write _load_state itself")
        check_keys(data, f"{self.env_id()} state", cls.FIELDS + ("rng",))
        state = cls(self, rng_from_dict(data["rng"]))
        load_fields(state, data, cls.STATE_FIELDS)
        state.loaded()
        return state

    def state_from_json(self, text: str) -> "GameState":
        """Rebuild a state from ``GameState.to_json()`` (checked as ``state_from_dict``)."""
        try:
            data = load_json(text)      # nesting bounded: no RecursionError
        except (TypeError, ValueError, RecursionError) as exc:
            raise InvalidStateError(f"{self.env_id()} state: not JSON text ({exc})") from None
        return self.state_from_dict(data)

    def package_module(self, name: str, optional: bool = False) -> ModuleType | None:
        """A module of the game's package (``envs/<game>/<name>.py``): every game has the
        same file set (``sampling``, ``render``, ``movelog``, ...). ``optional``: None
        for a game without that module (a minimal game need not render)."""
        module = f"{type(self).__module__.rsplit('.', 1)[0]}.{name}"
        try:
            return importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if optional and exc.name == module:
                return None
            raise

    def sample_state(self, view: Any, rng: np.random.Generator, **beliefs: Any) -> "GameState":
        """A full state consistent with everything the view's player knows (the game's
        ``sampling.sample_state``; ``beliefs``: the keyword arguments that game's sampler
        takes, if any)."""
        return self.package_module("sampling").sample_state(self, view, rng, **beliefs)

    def describe_view(self, view: Any) -> str:
        """Text rendering of what one player sees (the game's ``render.describe_view``)."""
        render = self.package_module("render", optional=True)
        return repr(view) if render is None else render.describe_view(self, view)

    def seat_name(self, seat: int) -> str:
        """A seat's name in text (``player_k``; games with env-driven seats name those)."""
        return f"player_{seat}"


class ObservationMemory(Protocol):
    """One player's memory (``Game.observation_memory``): ``reset()`` before a game, then
    ``recall(observation)`` for each observation the player receives, in order (or
    ``recall_view(view)`` for each view)."""

    def reset(self) -> None:
        """Forget the previous game."""

    def recall(self, observation: np.ndarray) -> np.ndarray:
        """The observation with what the player remembers filled in (a new array)."""

    def recall_view(self, view: Any) -> Any:
        """The player's view with what it remembers filled in (for bots that read views;
        fed views instead of observations, one or the other per game)."""


class GameState(ABC):
    """One position of a game. Subclasses keep their fields plain (ints, lists, dicts)."""

    def __init__(self, game: Game, rng: np.random.Generator):
        self.game = game
        self.rng = rng
        #: completed turns, in the game's own sense (truncation counts these)
        self.turns = 0

    # -- whose decision -----------------------------------------------------------------
    @abstractmethod
    def current_players(self) -> tuple[int, ...]:
        """Players who must decide now, in seat order; empty when the game is over."""

    @abstractmethod
    def legal_actions_mask(self, player: int) -> np.ndarray:
        """int8 mask of ``game.num_actions`` entries; all zero for a player not acting."""

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Legal action indices of ``player`` (default: the single acting player)."""
        if player is None:
            player = self._single_actor()
        return np.flatnonzero(self.legal_actions_mask(player)).tolist()

    # -- moves --------------------------------------------------------------------------
    def apply_action(self, action: int) -> None:
        """Apply the action of the single acting player."""
        self.apply_joint({self._single_actor(): action})

    def apply_joint(self, actions: Mapping[int, int]) -> None:
        """Apply one action from every current player at once (checked for legality)."""
        if self.is_terminal():
            raise GameOverError("the game is over; no action can be applied")
        acting = self.current_players()
        if set(actions) != set(acting):
            raise NotActingError(
                f"expected actions from players {list(acting)}, got {sorted(actions)}"
            )
        checked = {}
        for player in acting:
            action = actions[player]
            mask = self.legal_actions_mask(player)
            if not _is_int(action) or not 0 <= int(action) < len(mask) or not mask[int(action)]:
                raise IllegalActionError(
                    action, np.flatnonzero(mask).tolist(), player=player,
                    describe=self.game.action_name,
                )
            checked[player] = int(action)
        self._apply(checked)

    def apply_checked(self, actions: dict[int, int]) -> None:
        """Apply one action per current player that the caller has already checked
        against ``legal_actions_mask`` of this very state (skips the second check)."""
        self._apply(actions)

    @abstractmethod
    def _apply(self, actions: dict[int, int]) -> None:
        """Apply already-checked actions of the current players."""

    def _single_actor(self) -> int:
        acting = self.current_players()
        if len(acting) != 1:
            raise NotActingError(
                f"apply_action needs exactly one acting player; acting now: {list(acting)}"
            )
        return acting[0]

    # -- outcome ------------------------------------------------------------------------
    @abstractmethod
    def is_terminal(self) -> bool:
        """Whether the game has ended by its rules."""

    @abstractmethod
    def scores(self) -> list[float]:
        """Current score of every agent seat (final scores once terminal)."""

    def rank_keys(self) -> list[Sequence[float]]:
        """Comparable keys of every scoring seat (agents first, then env-driven seats).

        Higher beats lower; equal keys tie. The default is the score alone; games with
        tie-breaks return (score, tie-break, ...).
        """
        return [(s,) for s in self.scores()]

    def score_breakdown(self) -> list[tuple[str, list[float]]]:
        """Rows ``(label, value per scoring seat)`` explaining the final scores (public at
        the end); rows labelled ``tie-break...`` rank ties, the others add up to the score
        where the game's score is a sum. Written per game in ``envs/<game>/movelog.py``
        (see ``core.movelog``); the default is one row "score"."""
        from .movelog import score_breakdown
        return score_breakdown(self)

    def validate(self) -> None:
        """Raise InvalidStateError if an invariant of the rules is broken (components
        created or lost, impossible placements), naming the broken rule; the checks are
        explicit (``core.errors.require``), never ``assert``, so they hold under
        ``python -O``. ``Game.state_from_dict`` runs it on every loaded state; fuzz tests
        and the shared suite call it, also on states made by ``Game.sample_state``. The
        default checks nothing."""

    # -- information --------------------------------------------------------------------
    def view(self, player: int) -> Any:
        """Everything ``player`` knows, and nothing else: the game's compiled view builder
        where built (``Game.view_of``, bound by ``bind_compiled``), else ``python_view``."""
        return self.game.view_of(self, player)

    def python_view(self, player: int) -> Any:
        """The view built in Python: the only reader of private fields (with its C twin,
        ``_cview.c``, where the game has one)."""
        raise NotImplementedError(f"{type(self).__name__} defines no python_view")

    def observation(self, player: int) -> np.ndarray:
        """Encoded observation of ``player`` (built from the view alone)."""
        return self.game.encode(self.view(player))

    # -- persistent fields (core.state_io) ----------------------------------------------
    #: the state's fields, declared once (``state_io.field`` / ``state_io.derived``): the
    #: persistent ones are what ``to_dict`` writes and ``Game._load_state`` reads checked;
    #: every field whose kind is not immutable is copied by ``clone``
    STATE_FIELDS: ClassVar[tuple] = ()
    #: names of the persistent fields (computed from STATE_FIELDS for each subclass)
    FIELDS: ClassVar[tuple[str, ...]] = ()
    _field_copiers: ClassVar[tuple] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "STATE_FIELDS" in cls.__dict__:
            from .state_io import copiers, persistent_names

            cls.FIELDS = persistent_names(cls.STATE_FIELDS)
            cls._field_copiers = copiers(cls.STATE_FIELDS)

    def loaded(self) -> None:
        """Hook run by ``Game._load_state`` once the declared fields are set: rebuild
        derived tables, check what the field readers cannot (the default does nothing)."""

    # -- copies and text ----------------------------------------------------------------
    def clone(self) -> "GameState":
        """An independent copy, generator included: the declared fields copied as their
        kinds say (``STATE_FIELDS``), everything else shared; without declared fields, every
        list, dict, set and object deep-copied."""
        if self.STATE_FIELDS:
            new = object.__new__(type(self))
            d = new.__dict__
            d.update(self.__dict__)
            d["rng"] = clone_rng(self.rng)
            for name, copier in self._field_copiers:
                d[name] = copier(d.get(name))   # a cache may not be set yet
            return new
        new = copy.copy(self)
        for key, value in self.__dict__.items():
            if key == "game":
                continue
            if key == "rng":
                new.rng = clone_rng(value)
            elif isinstance(value, (list, dict, set)) or hasattr(value, "__dict__"):
                setattr(new, key, copy.deepcopy(value))
        return new

    def to_dict(self) -> dict:
        """A JSON-compatible dict of the whole state: the persistent declared fields
        (copies, not aliases) and the generator."""
        if not self.FIELDS:
            raise NotImplementedError(f"{type(self).__name__} declares no STATE_FIELDS")
        data = {name: copy.deepcopy(getattr(self, name)) for name in self.FIELDS}
        data["rng"] = rng_to_dict(self.rng)
        return data

    def to_json(self) -> str:
        """The state as JSON text (replays, bug reports)."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    def render_text(self, player: int | None = None) -> str:
        """Text of the table from ``player``'s seat, or omniscient when ``player`` is None."""
        if player is None:
            return self.describe_full()
        return self.game.describe_view(self.view(player))

    def describe_full(self) -> str:
        """Omniscient text rendering, every hidden thing shown (the game's
        ``render.describe_full``)."""
        render = self.game.package_module("render", optional=True)
        return self.to_json() if render is None else render.describe_full(self)


def _same_kind(value: Any, default: Any) -> bool:
    if isinstance(default, bool):
        return isinstance(value, (bool, np.bool_))
    if isinstance(default, int):
        return _is_int(value)
    if isinstance(default, float):
        return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)
    if isinstance(default, (list, tuple)):
        return isinstance(value, (list, tuple))
    return isinstance(value, type(default))


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def clone_rng(rng: np.random.Generator) -> np.random.Generator:
    """An independent generator in the same state (for ``GameState.clone``)."""
    bit_gen = type(rng.bit_generator)()
    bit_gen.state = rng.bit_generator.state
    return np.random.Generator(bit_gen)


_clone_rng = clone_rng  # old private name


def rng_to_dict(rng: np.random.Generator) -> dict:
    """JSON-compatible state of a generator."""
    return rng.bit_generator.state


_BIT_GENERATORS = ("PCG64", "PCG64DXSM", "Philox", "SFC64", "MT19937")


def rng_from_dict(data: dict) -> np.random.Generator:
    """A generator restored from ``rng_to_dict`` (InvalidStateError if it is not one)."""
    import numpy.random as npr

    name = data.get("bit_generator") if isinstance(data, Mapping) else None
    if name not in _BIT_GENERATORS:
        raise InvalidStateError(f"rng: not a saved numpy generator state: {data!r:.80}")
    bit_gen = getattr(npr, name)()
    try:
        bit_gen.state = data
    except (TypeError, ValueError, KeyError, OverflowError) as exc:
        raise InvalidStateError(f"rng: bad {name} state ({exc})") from None
    return np.random.Generator(bit_gen)
