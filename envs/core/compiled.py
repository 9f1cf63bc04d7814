"""Compiled observation encoders and view builders: optional C twins of Python code.

Each game whose spec declares the ``encoder`` part (``GameSpec.compiled``) ships
``envs/<game>/_cencode.c``, built at install time into the extension
module ``plunder.envs.<game>._cencode`` (optional: without a C compiler the install
succeeds and every game uses its Python encoder). A compiled encoder writes the same
float32 vector as the game's Python encoder, bit for bit (``testing.
check_compiled_equivalence`` compares them over random states of every player count and
variant), and reads nothing but the view it is given (docs/architecture.md, Compiled
encoders).

Games whose view is a large share of a step also ship ``envs/<game>/_cview.c``
(``plunder.envs.<game>._cview``): the C twin of the state's ``python_view``, which builds
the same view object (same types, same values; tests/<game>/test_compiled_view.py
compares them) from the same fields. It is still *the* view: the one function that reads
private fields, in two implementations kept equal by the tests, and the hidden-information
tests run against the one the game uses. Anchors Aweigh!'s builder also writes the
legal-action mask (``mask_into``, bound as ``Game.mask_into``; tests/anchors_aweigh/
test_compiled_mask.py).

A game whose spec declares the ``engine`` part ships ``envs/<game>/_engine.c``
(``plunder.envs.<game>._engine``): the whole game compiled (state, rules, view, encoder,
JSON round trip) with a ``Batch`` of games stepped in C, for which the Python engine is
the specification (tests/test_compiled_engine.py compares them). Where that module also
defines ``Encoder`` (its encoder fed any view, as ShipShape's and Scallywags'), it is the
game's compiled encoder and the game ships no ``_cencode.c``; such a game keeps no view
twin either (its Python states use ``python_view``).
``envs.core.batch.GameBatch`` steps its games through it where it is built
(``CompiledBatch``).

``Game.bind_compiled`` binds what is built. Set the environment variable
``PLUNDER_PURE_PYTHON=1`` before a game is built to use the Python code only (for
debugging, or to compare speeds).
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

#: set to anything but "" or "0" to use the Python encoders and views only
PURE_PYTHON_VAR = "PLUNDER_PURE_PYTHON"


def enabled() -> bool:
    """Whether compiled encoders may be used (``PLUNDER_PURE_PYTHON`` unset or 0)."""
    return os.environ.get(PURE_PYTHON_VAR, "") in ("", "0")


#: the compiled parts: the modules that may hold each, in the order they are looked for
#: (the first built one defining the class is used), and the class; a game whose compiled
#: engine holds its encoder (``_engine.Encoder``, fed any view) ships no ``_cencode.c``
PARTS = {"encoder": (("_cencode", "_engine"), "Encoder"), "view": (("_cview",), "ViewBuilder"),
         "engine": (("_engine",), "Engine")}


def packages(part: str = "encoder") -> tuple[str, ...]:
    """The game packages (``scallywags``) whose spec declares the compiled ``part``
    (``"encoder"``, ``"view"``, ``"mask"`` or ``"engine"``), in registration order."""
    from .registry import specs

    return tuple(s.package_name for s in specs() if part in s.compiled)


def __getattr__(name: str):
    # the packages with a compiled encoder / view builder, read from the specs
    if name == "GAME_PACKAGES":
        return packages("encoder")
    if name == "VIEW_PACKAGES":
        return packages("view")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _package_path(game_package: str, part: str) -> str | None:
    """The import path of the package named ``game_package`` whose spec declares
    ``part``, or None."""
    from .registry import specs

    for s in specs():
        if s.package_name == game_package and part in s.compiled:
            return s.package
    return None


def load(game_package: str, part: str = "encoder") -> ModuleType | None:
    """The compiled module of a game package (``"scallywags"``) for ``part``
    (``"encoder"``, ``"view"`` or ``"engine"``), or None when it was not built or compiled code is
    switched off."""
    if not enabled():
        return None
    return _import(game_package, part)


_MODULES: dict[tuple[str, str], ModuleType | None] = {}


def _import(game_package: str, part: str = "encoder") -> ModuleType | None:
    """The built module, or None (looked up once per process); None for a part the
    game's spec does not declare."""
    key = (game_package, part)
    if key not in _MODULES:
        names, cls = PARTS[part]
        package = _package_path(game_package, part)
        found = None
        for name in names if package is not None else ():
            try:
                module = importlib.import_module(f"{package}.{name}")
            except ImportError:
                continue
            if hasattr(module, cls):
                found = module
                break
        _MODULES[key] = found
    return _MODULES[key]


def status(part: str = "encoder") -> dict[str, bool]:
    """Per game package with that part: whether it runs compiled in this process
    (``"mask"``: the view builder's legal-action mask, ``ViewBuilder.mask_into``)."""
    if part == "mask":
        return {g: on and hasattr(_import(g, "view").ViewBuilder, "mask_into")
                for g, on in status("view").items()}
    return {g: enabled() and _import(g, part) is not None for g in packages(part)}


def bind(module: ModuleType, size: int, *params):
    """``(encode, encode_into)`` of a compiled ``module.Encoder(*params)``: ``encode(view)``
    returns a new float32 vector of ``size`` values, ``encode_into(view, out)`` writes one
    (a C-contiguous float32 vector of ``size`` values, e.g. a row of a batch array)."""
    import numpy as np

    into = module.Encoder(*params).encode_into
    empty, float32 = np.empty, np.float32

    def encode(view) -> "np.ndarray":
        out = empty(size, float32)
        into(view, out)
        return out

    return encode, into

