"""Shared fixtures and options for the plunder test suite."""

from __future__ import annotations

import importlib.util
import os

# one OpenMP thread per test process (unless the caller sets it): torch's threads spin
# while they wait, and with a pytest-xdist worker per core they take turns at several
# times the time; set before anything imports torch
os.environ.setdefault("OMP_NUM_THREADS", "1")

import pettingzoo  # noqa: E402
import pytest

from plunder.envs import ENV_IDS, game_class


def player_counts(env_id: str) -> list[int]:
    """Every supported player count of ``env_id``."""
    cls = game_class(env_id)
    return list(range(cls.min_players, cls.max_players + 1))


def pytest_report_header(config) -> list[str]:
    """Say which optional parts of the suite this install leaves out."""
    missing = [m for m in ("sb3_contrib", "onnxruntime") if importlib.util.find_spec(m) is None]
    if missing:
        return [f"tests/training not collected: {', '.join(missing)} missing (the train "
                f"extra); the envs' and bots' tests run"]
    return []


#: PettingZoo's registry (``pettingzoo.make``, ``register``, ``spec``) came with 1.27; the
#: core install admits pettingzoo 1.24, where importing plunder.envs registers nothing
HAS_PZ_REGISTRY = hasattr(pettingzoo, "register")
needs_pz_registry = pytest.mark.skipif(not HAS_PZ_REGISTRY,
                                       reason="PettingZoo's registry needs pettingzoo>=1.27")


#: (env_id, num_players) for every registered game and supported count
GAME_COUNTS = [(e, n) for e in ENV_IDS for n in player_counts(e)]
SIMULTANEOUS_COUNTS = [(e, n) for e, n in GAME_COUNTS if game_class(e).simultaneous]

