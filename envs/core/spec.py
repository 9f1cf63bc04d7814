"""The declaration of one game: everything the registry, the bots, the apps and the tests
need to know about it, in one place.

Each game package declares ``SPEC = GameSpec(...)`` in its ``__init__.py``; every table
that used to be kept by hand (env ids, PettingZoo registration, compiled parts, bots and
their search settings, the web page's titles and boards, the tests' variant sets) is read
from the specs. Code is named by import strings (``"module:attr"``) resolved only when
used, so that reading the specs imports no engine, and so that ``envs`` never imports the
bots (``policies``) that a spec names.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .errors import InvalidArgumentError

#: the compiled parts a game may ship (envs/core/compiled.py): ``encoder`` (``_cencode.c``),
#: ``view`` (``_cview.c``), ``mask`` (a legal-action mask written by the view builder) and
#: ``engine`` (``_engine.c``: the whole game, stepped in batches)
COMPILED_PARTS = ("encoder", "view", "mask", "engine")


def resolve(path: str) -> Any:
    """The object an import string ``"package.module:attr"`` names (imports the module)."""
    module, sep, attr = path.partition(":")
    if not sep or not module or not attr:
        raise InvalidArgumentError(f"an import string is 'module:attr', got {path!r}")
    target: Any = importlib.import_module(module)
    for part in attr.split("."):
        target = getattr(target, part)
    return target


@dataclass(frozen=True)
class SearchDefaults:
    """The settings a ``netsearch:`` bot uses for a game unless its spec names others
    (the keyword arguments of ``plunder.policies.netsearch.NetSearchPolicy``)."""

    #: turns rolled out before the network's value is read; None plays to the game's end
    horizon: int | None = 2
    #: the least mean advantage for which another candidate replaces the network's move
    min_gain: float = 0.1
    #: standard errors of the paired differences that advantage must also exceed
    confidence: float | None = 1.0
    #: how many of the network's likeliest moves are searched
    top_k: int = 3
    #: how unknown cards are sampled: ``uniform`` or one of the game's ``beliefs``
    belief: str = "uniform"

    def as_kwargs(self) -> dict[str, Any]:
        """The settings as keyword arguments."""
        return {"horizon": self.horizon, "min_gain": self.min_gain,
                "confidence": self.confidence, "top_k": self.top_k, "belief": self.belief}


@dataclass(frozen=True)
class GameSpec:
    """One game's declaration (``SPEC`` in its package's ``__init__.py``)."""

    #: short name, e.g. ``scallywags``; the env id is ``f"{name}_v{version}"``
    name: str
    #: the import path of the game's package (``__name__`` in its ``__init__.py``)
    package: str
    #: the engine's Game class, ``"module:Class"``; must agree with the fields below
    game: str
    #: the display name (the web page, ``plunder list``)
    title: str
    #: one line saying what the game is
    description: str
    min_players: int
    max_players: int
    version: int = 0
    #: whether some decisions are simultaneous (the env then also offers ``parallel_env``)
    simultaneous: bool = False
    #: the PettingZoo module (``env``, ``raw_env``, ``parallel_env``, ``Game``); None: the
    #: registry makes one from the Game class (``make_env_functions``)
    env_module: str | None = None
    #: the compiled parts the game ships, a subset of ``COMPILED_PARTS``
    compiled: tuple[str, ...] = ()
    #: the hand-written bot (``heuristic`` bot spec), ``"module:Class"``
    heuristic: str | None = None
    #: a stronger hand-written bot (``planner`` bot spec), where the game has one
    planner: str | None = None
    #: the ``netsearch:`` bot's settings for this game
    search: SearchDefaults = field(default_factory=SearchDefaults)
    #: beliefs the network search may sample worlds with besides ``uniform``: name ->
    #: ``"module:attr"`` of a ``factory(game)``
    beliefs: Mapping[str, str] = field(default_factory=dict)
    #: the web page's board builder, ``"module:function"`` of ``board(game, view, legal,
    #: end=None)``; ``full_board``, ``last_keys`` and ``end_facts`` beside it
    #: (``core.board``)
    board: str | None = None
    #: what is being decided, in words, from one seat's view: ``"module:function"`` of
    #: ``decision_prompt(game, view, legal)`` (``plunder.envs.core.guide``)
    prompt: str | None = None
    #: what a move does, naming what it acts on, from one seat's view: ``"module:function"``
    #: of ``move_label(game, view, action)``; None: ``game.action_name(action)``
    move_label: str | None = None
    #: the rules page, a Markdown file inside the game's package (package data, so an
    #: installed package has it): ``plunder.envs.rules_text(env_id)`` reads it
    rules: str | None = None
    #: the variant options the frozen observation digests and the per-variant tests cover
    test_variants: tuple[Mapping[str, Any], ...] = ({},)

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise InvalidArgumentError(f"a game's name is a Python identifier, got "
                                       f"{self.name!r}")
        if isinstance(self.version, bool) or not isinstance(self.version, int) \
                or self.version < 0:
            raise InvalidArgumentError(f"{self.name}: version must be an int >= 0, got "
                                       f"{self.version!r}")
        if not 1 <= self.min_players <= self.max_players:
            raise InvalidArgumentError(f"{self.name}: player counts {self.min_players}-"
                                       f"{self.max_players} are not a range")
        unknown = sorted(set(self.compiled) - set(COMPILED_PARTS))
        if unknown:
            raise InvalidArgumentError(f"{self.name}: unknown compiled parts {unknown}; "
                                       f"parts: {list(COMPILED_PARTS)}")
        if "mask" in self.compiled and "view" not in self.compiled:
            raise InvalidArgumentError(f"{self.name}: the compiled mask is written by the "
                                       "compiled view builder: declare 'view' too")
        for label in ("game", "env_module", "heuristic", "planner", "board", "prompt",
                      "move_label", "rules"):
            value = getattr(self, label)
            if value is not None and not isinstance(value, str):
                raise InvalidArgumentError(f"{self.name}: {label} is an import string "
                                           f"(rules: a file name), got {value!r}")
        # read-only copies, so a declared spec cannot change under its readers
        object.__setattr__(self, "compiled", tuple(self.compiled))
        object.__setattr__(self, "beliefs", MappingProxyType(dict(self.beliefs)))
        object.__setattr__(self, "test_variants",
                           tuple(MappingProxyType(dict(v)) for v in self.test_variants))

    @property
    def env_id(self) -> str:
        """The registered env id, e.g. ``scallywags_v0``."""
        return f"{self.name}_v{self.version}"

    @property
    def player_counts(self) -> range:
        """Every supported player count."""
        return range(self.min_players, self.max_players + 1)

    @property
    def package_name(self) -> str:
        """The last part of the package path (``scallywags``): the compiled loader's key."""
        return self.package.rpartition(".")[2]

    def load_game(self) -> type:
        """The Game class (imports the engine)."""
        return resolve(self.game)

    def options(self) -> dict[str, Any]:
        """The variant options and their defaults (declared once, on the Game class)."""
        return dict(self.load_game().options)


def check_game_class(spec: GameSpec, cls: type) -> None:
    """Raise when the Game class disagrees with its spec about what both declare."""
    fields = ("name", "version", "min_players", "max_players", "simultaneous")
    wrong = [f"{f}: spec {getattr(spec, f)!r}, class {getattr(cls, f, None)!r}"
             for f in fields if getattr(cls, f, None) != getattr(spec, f)]
    if wrong:
        raise InvalidArgumentError(f"the Game class {spec.game} disagrees with the spec of "
                                f"{spec.env_id}: {'; '.join(wrong)}")


def lazy_attributes(package: str, names: Mapping[str, str]):
    """A module ``__getattr__`` for a game package: ``names`` maps each attribute to the
    submodule defining it, imported on first use (so reading the package's ``SPEC``
    imports no engine)."""
    def __getattr__(name: str):
        if name not in names:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{names[name]}"), name)

    return __getattr__
