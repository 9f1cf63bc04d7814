"""Fixtures for the training tests: a toy simultaneous game and one trained Scallywags run."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

#: these tests need the train extra; without it (the envs alone, on any Python) they are
#: not collected, rather than failing at this file's imports (tests/conftest.py says so
#: in the report's header)
TRAIN_EXTRA = all(importlib.util.find_spec(m) for m in ("sb3_contrib", "onnxruntime"))
if not TRAIN_EXTRA:
    collect_ignore_glob = ["test_*.py"]

sys.path.insert(0, str(Path(__file__).parent))

import toy_game  # noqa: E402

#: a config that names the toy game and keeps every default (an empty file is an error)
TOY_CONFIG = str(Path(__file__).parent / "toy.yaml")

#: settings that make a run take a few seconds
TINY = ["n_envs=4", "ppo.n_steps=128", "ppo.batch_size=256", "ppo.n_epochs=2",
        "eval.every=0", "eval.games=10", "eval.final_games=20", "league.snapshot_every=1024",
        "checkpoint_every=1024", "progress_bar=false", "tensorboard=false",
        "policy.net_arch=[32, 32]", "pretrain.samples=300", "pretrain.epochs=1",
        "distill.samples=0"]


def set_args(overrides):
    """--set options for the CLI."""
    out = []
    for o in overrides:
        out += ["--set", o]
    return out


def run_cli(args):
    """Invoke ``plunder`` in-process; returns the click Result (raising on crashes)."""
    from click.testing import CliRunner

    from plunder.training.cli.commands import main

    result = CliRunner().invoke(main, args, catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


@pytest.fixture
def toy():
    """``toyrace_v0`` registered for the duration of a test."""
    toy_game.install()
    yield "toyrace_v0"
    toy_game.uninstall()


@pytest.fixture(scope="session")
def scallywags_run(tmp_path_factory):
    """A real ``plunder train scallywags`` run of 2,048 steps (shared by several tests)."""
    run = tmp_path_factory.mktemp("runs") / "sw"
    res = run_cli(["train", "scallywags", "--steps", "2048", "--run-dir", str(run),
                   *set_args(TINY)])
    assert res.exit_code == 0, res.output
    (run / "train-output.txt").write_text(res.output)   # what the user saw
    return run


@pytest.fixture(scope="session")
def scallywags_mlp_run(tmp_path_factory):
    """The same run with a plain MLP policy (the default for games without entity groups)."""
    run = tmp_path_factory.mktemp("runs") / "sw-mlp"
    res = run_cli(["train", "scallywags", "--steps", "2048", "--run-dir", str(run),
                   *set_args(TINY + ["policy.kind=mlp"])])
    assert res.exit_code == 0, res.output
    return run
