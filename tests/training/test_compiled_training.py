"""The compiled code does not change training: the same command gives the same bot with
the compiled encoders and engine (the rollout's games stepped in the compiled batch) and
with the Python ones (``PLUNDER_PURE_PYTHON=1``).

Each run is its own process (the switch is read when games are built, in the trainer and
in its forkserver workers, so it must be set before either starts)."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from conftest import TINY, set_args

from plunder.envs.core import compiled
from plunder.policies.onnx_policy import OnnxPolicy

pytestmark = pytest.mark.skipif(compiled.load("scallywags") is None,
                                reason="the compiled Scallywags encoder is not built")


def _train(run, pure: bool):
    env = dict(os.environ, **{compiled.PURE_PYTHON_VAR: "1" if pure else "0"})
    args = [sys.executable, "-c", "from plunder.training.cli.console import main; main()",
            "train", "scallywags",
            "--steps", "1024", "--run-dir", str(run),
            *set_args(TINY + ["eval.final_games=4", "vec_workers=2"])]
    res = subprocess.run(args, env=env, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr
    return res.stdout


@pytest.mark.slow                   # a whole training run: in CI's full run
def test_compiled_and_python_encoders_train_the_same_bot(tmp_path):
    probs = []
    for name, pure in (("python", True), ("compiled", False)):
        out = _train(tmp_path / name, pure)
        bot = OnnxPolicy(tmp_path / name / "bot.onnx", env_id="scallywags_v0",
                         num_players=2)
        rng = np.random.default_rng(0)
        obs = rng.random((64, bot.meta["obs_size"]), dtype=np.float32)
        probs.append(bot.probs(obs, np.ones((64, bot.meta["num_actions"]), np.int8)))
        assert "bot.onnx" in out
    np.testing.assert_array_equal(probs[0], probs[1])
