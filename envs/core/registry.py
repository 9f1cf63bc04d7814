"""The registry of plunder environments: ids, lookup and construction.

Every game is declared once, by the ``SPEC`` (:class:`~plunder.envs.core.spec.GameSpec`)
in its package's ``__init__.py``; the registry reads the specs of the packages in
``GAMES`` and of any game registered with :func:`register`. Reading a spec imports no
engine: the Game class, env module and bots are import strings resolved when first used.
"""

from __future__ import annotations

import functools
import importlib
import types
from collections.abc import Callable, Iterator, Mapping
from types import ModuleType
from typing import Any

from .errors import InvalidArgumentError, UnknownEnvError
from .spec import GameSpec, check_game_class

#: the games shipped in the package, in registration order: their folders under envs/,
#: each with its ``SPEC`` in ``__init__.py``. Adding a game is its folder and its name here.
GAMES = ("scallywags", "anchors_aweigh", "all_hands_battle", "all_hands_crew", "shipshape")

#: env id -> spec, in registration order
_SPECS: dict[str, GameSpec] = {}
#: env id -> Game class, checked against its spec once
_CLASSES: dict[str, type] = {}
#: env id -> env module made from the Game class, for specs that name none
_MADE_MODULES: dict[str, ModuleType] = {}
#: whether PettingZoo's registry holds the games (then a game registered later joins it)
_PZ_REGISTERED = False
_GYM_REGISTERED = False


def _spec_of(spec_or_path: GameSpec | str) -> GameSpec:
    """A spec, or the ``SPEC`` of the module an import path names."""
    if isinstance(spec_or_path, GameSpec):
        return spec_or_path
    if not isinstance(spec_or_path, str):
        raise InvalidArgumentError(f"register() takes a GameSpec or the import path of a "
                                   f"module that defines SPEC, got {spec_or_path!r}")
    module = importlib.import_module(spec_or_path)
    spec = getattr(module, "SPEC", None)
    if not isinstance(spec, GameSpec):
        raise InvalidArgumentError(f"{spec_or_path} defines no SPEC (a GameSpec)")
    if spec.package != spec_or_path:
        raise InvalidArgumentError(f"the SPEC of {spec_or_path} names the package "
                                   f"{spec.package!r} (declare package=__name__)")
    return spec


def register(spec_or_path: GameSpec | str) -> GameSpec:
    """Register a game: its :class:`GameSpec`, or the import path of the package that
    declares it as ``SPEC`` (``register("mygames.dice")``). It is then made, listed and
    played like the shipped games (and registered with PettingZoo where it has a
    registry). Registering the same spec again is a no-op; another spec under a taken env
    id raises."""
    spec = _spec_of(spec_or_path)
    known = _SPECS.get(spec.env_id)
    if known is not None:
        if known == spec:
            return known
        raise InvalidArgumentError(f"{spec.env_id} is already registered (by "
                                   f"{known.package}); unregister it first")
    _SPECS[spec.env_id] = spec
    if _PZ_REGISTERED:
        _register_one_with_pettingzoo(spec)
    if _GYM_REGISTERED:
        register_with_gymnasium()
    return spec


def unregister(env_id: str) -> None:
    """Remove a game registered with :func:`register` (and its PettingZoo entries)."""
    spec = _SPECS.pop(env_id, None)
    if spec is None:
        raise UnknownEnvError(f"unknown env id {env_id!r}; registered: {list(_SPECS)}")
    _CLASSES.pop(env_id, None)
    _MADE_MODULES.pop(env_id, None)
    from gymnasium.envs.registration import registry as gym_registry

    gym_registry.pop(pettingzoo_id(env_id), None)
    try:
        from pettingzoo import aec_registry, parallel_registry
    except ImportError:
        return
    for registry in (aec_registry, parallel_registry):
        registry.pop(pettingzoo_id(env_id), None)


def _register_shipped() -> None:
    for name in GAMES:
        register(f"{__package__.rpartition('.')[0]}.{name}")


def specs() -> tuple[GameSpec, ...]:
    """Every registered game's spec, in registration order."""
    return tuple(_SPECS.values())


def shipped() -> tuple[GameSpec, ...]:
    """The specs of the package's own games (``GAMES``), in order; fixed suites such as
    the benchmark's tasks are built over these, whatever else is registered."""
    packages = [f"{__package__.rpartition('.')[0]}.{name}" for name in GAMES]
    return tuple(s for p in packages for s in _SPECS.values() if s.package == p)


def spec(env_id: str) -> GameSpec:
    """The spec of ``env_id`` (``scallywags_v0``; a game's name, ``scallywags``, also
    works when only one version is registered)."""
    return _SPECS[resolve_env_id(env_id)]


def resolve_env_id(game: str) -> str:
    """The env id a user's game argument means: an env id, or a game's name."""
    if game in _SPECS:
        return game
    matches = [e for e, s in _SPECS.items() if s.name == game]
    if len(matches) == 1:
        return matches[0]
    raise UnknownEnvError(f"unknown game {game!r}; games: {', '.join(_SPECS)}")


def pettingzoo_id(env_id: str) -> str:
    """The id in PettingZoo's registry: ``scallywags_v0`` -> ``plunder/scallywags-v0``."""
    name, version = env_id.rsplit("_v", 1)
    return f"plunder/{name}-v{version}"


def _made_env(env_id: str, kind: str, **kwargs):
    """``env()`` or ``parallel_env()`` of ``env_id``: an entry point that imports the
    game only when called."""
    return getattr(env_module(env_id), kind)(**kwargs)


def _entry_point(spec: GameSpec, kind: str):
    if spec.env_module is not None:
        return f"{spec.env_module}:{kind}"
    return functools.partial(_made_env, spec.env_id, kind)


def _register_one_with_pettingzoo(spec: GameSpec) -> None:
    from pettingzoo import aec_registry, parallel_registry, register as pz_register

    pz_id = pettingzoo_id(spec.env_id)
    if pz_id not in aec_registry:
        pz_register("aec", pz_id, entry_point=_entry_point(spec, "env"))
    if spec.simultaneous and pz_id not in parallel_registry:
        pz_register("parallel", pz_id, entry_point=_entry_point(spec, "parallel_env"))


def register_with_pettingzoo() -> bool:
    """Register every game in PettingZoo's registry (1.27+), so that
    ``pettingzoo.make("aec", "plunder/scallywags-v0", num_players=4)`` works; False where
    the installed PettingZoo has no registry. Imports no game (the specs say which games
    have a parallel env)."""
    global _PZ_REGISTERED
    try:
        import pettingzoo
    except ImportError:
        return False
    if not hasattr(pettingzoo, "register"):
        return False
    for s in _SPECS.values():
        _register_one_with_pettingzoo(s)
    _PZ_REGISTERED = True
    return True


#: what ``gymnasium.make("plunder/<game>-v0")`` builds: one learner seat against bots
GYMNASIUM_ENTRY_POINT = "plunder.policies.versus:VersusBotsEnv"


def register_with_gymnasium() -> None:
    """Register every game with Gymnasium as ``plunder/<game>-v0`` (the single-agent env
    :class:`plunder.policies.versus.VersusBotsEnv`, the learner against bots). Gymnasium
    1.x has no plugin discovery: importing ``plunder.envs`` calls this. Imports no game."""
    import gymnasium
    from gymnasium.envs.registration import registry

    global _GYM_REGISTERED
    _GYM_REGISTERED = True
    for env_id in _SPECS:
        gym_id = pettingzoo_id(env_id)
        if gym_id not in registry:
            gymnasium.register(gym_id, entry_point=GYMNASIUM_ENTRY_POINT,
                               kwargs={"env_id": env_id})


def env_ids() -> tuple[str, ...]:
    """Registered env ids, in registration order."""
    return tuple(_SPECS)


def _known(env_id: str) -> GameSpec:
    if env_id not in _SPECS:
        raise UnknownEnvError(f"unknown env id {env_id!r}; registered: {list(_SPECS)}")
    return _SPECS[env_id]


class SpecTable(Mapping):
    """A read-only table ``env id -> read(spec)`` over the registered games for which
    ``where(spec)`` holds (by default: those for which ``read`` gives a value, not None);
    read from the specs at each use, so a game registered later is in it. For code that
    indexes a table by env id."""

    def __init__(self, read: Callable[[GameSpec], Any],
                 where: Callable[[GameSpec], bool] | None = None):
        self._read = read
        self._where = where

    def _table(self) -> dict[str, Any]:
        if self._where is not None:
            return {e: self._read(s) for e, s in _SPECS.items() if self._where(s)}
        values = ((e, self._read(s)) for e, s in _SPECS.items())
        return {e: v for e, v in values if v is not None}

    def __getitem__(self, env_id: str) -> Any:
        return self._table()[env_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())

    def __repr__(self) -> str:
        return f"SpecTable({self._table()!r})"


def env_module(env_id: str) -> ModuleType:
    """The PettingZoo-style module of ``env_id`` (``env``, ``raw_env``, ``parallel_env``,
    ``Game``)."""
    spec = _known(env_id)
    if spec.env_module is not None:
        return importlib.import_module(spec.env_module)
    if env_id not in _MADE_MODULES:
        from .env import make_env_functions

        cls = game_class(env_id)
        # its user page: the engine module's docstring (else the spec's one line)
        doc = importlib.import_module(cls.__module__).__doc__ or spec.description
        module = types.ModuleType(f"{spec.package}.{env_id}", doc)
        module.Game = cls
        module.env, module.raw_env, module.parallel_env = make_env_functions(cls)
        _MADE_MODULES[env_id] = module
    return _MADE_MODULES[env_id]


def game_class(env_id: str):
    """The engine's Game class of ``env_id``."""
    spec = _known(env_id)
    if env_id not in _CLASSES:
        cls = spec.load_game()
        check_game_class(spec, cls)
        _CLASSES[env_id] = cls
    return _CLASSES[env_id]


def make(env_id: str, *, raw: bool = False, **kwargs):
    """An AEC env of ``env_id`` (wrapped like PettingZoo's ``env()``; ``raw=True`` unwrapped)."""
    module = env_module(env_id)
    return module.raw_env(**kwargs) if raw else module.env(**kwargs)


def make_parallel(env_id: str, **kwargs):
    """A parallel env of ``env_id`` (only for games with simultaneous decisions)."""
    return env_module(env_id).parallel_env(**kwargs)


_register_shipped()
