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

# the test helpers' asserts are rewritten like the tests' own, so they still check under
# python -O (CI runs the state-loading and replay tests that way)
pytest.register_assert_rewrite("tests.support", "tests.all_hands_crew.helpers")

from plunder.envs import spec, specs  # noqa: E402

# the compiled-code fixtures (compiled_on, games), for every test module
pytest_plugins = ("tests.support.compiled",)


def player_counts(env_id: str) -> list[int]:
    """Every supported player count of ``env_id`` (its spec's)."""
    return list(spec(env_id).player_counts)


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
GAME_COUNTS = [(s.env_id, n) for s in specs() for n in s.player_counts]
SIMULTANEOUS_COUNTS = [(e, n) for e, n in GAME_COUNTS if spec(e).simultaneous]

