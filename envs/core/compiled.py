"""Compiled observation encoders: optional C twins of the games' Python encoders.

Each game ships ``envs/<game>/_cencode.c``, built at install time into the extension
module ``plunder.envs.<game>._cencode`` (optional: without a C compiler the install
succeeds and every game uses its Python encoder). A compiled encoder writes the same
float32 vector as the game's Python encoder, bit for bit (tests/<game>/
test_compiled_encoder.py compares them over random states of every player count and
variant), and reads nothing but the view it is given (docs/architecture.md, Compiled
encoders). Set the environment variable ``PLUNDER_PURE_PYTHON=1`` before a
game is built to use the Python encoders only (for debugging, or to compare speeds).
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

#: set to anything but "" or "0" to use the Python encoders only
PURE_PYTHON_VAR = "PLUNDER_PURE_PYTHON"

GAME_PACKAGES = ("scallywags", "anchors_aweigh", "all_hands_battle", "all_hands_crew",
                 "shipshape")


def enabled() -> bool:
    """Whether compiled encoders may be used (``PLUNDER_PURE_PYTHON`` unset or 0)."""
    return os.environ.get(PURE_PYTHON_VAR, "") in ("", "0")


def load(game_package: str) -> ModuleType | None:
    """The compiled encoder module of a game package (``"scallywags"``), or None when it
    was not built or compiled encoders are switched off."""
    if not enabled():
        return None
    return _import(game_package)


_MODULES: dict[str, ModuleType | None] = {}


def _import(game_package: str) -> ModuleType | None:
    """The built module, or None (looked up once per process)."""
    if game_package not in _MODULES:
        try:
            module = importlib.import_module(f"plunder.envs.{game_package}._cencode")
        except ImportError:
            module = None
        _MODULES[game_package] = module if hasattr(module, "Encoder") else None
    return _MODULES[game_package]


def status() -> dict[str, bool]:
    """Per game package: whether its encoder runs compiled in this process."""
    return {g: enabled() and _import(g) is not None for g in GAME_PACKAGES}


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
