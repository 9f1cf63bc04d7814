"""examples/ppo_vector.py, the single-file PPO example: it trains through the vectorized
env against a shipped bot without an illegal move and logs the learner's win share."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np

from plunder.envs.core.vector import VectorEnv

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "ppo_vector.py"


def _example():
    spec = importlib.util.spec_from_file_location("ppo_vector", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules["ppo_vector"] = module      # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_ppo_example_trains_against_the_heuristic_bot(monkeypatch, capsys):
    example = _example()
    checked = []
    step = VectorEnv.step

    def spy(self, actions):          # every action legal under the mask it was chosen from
        masks = self._last.action_masks
        actions = np.asarray(actions)
        checked.append(bool(masks[np.arange(len(actions)), actions].all()))
        return step(self, actions)

    monkeypatch.setattr(VectorEnv, "step", spy)
    cfg = example.Config(num_envs=8, total_steps=300, rollout_steps=32, minibatch_size=64,
                         hidden=32, opponent="heuristic", seed=3)
    result = example.main(cfg)
    out = capsys.readouterr().out
    assert checked and all(checked)
    assert result["learner_steps"] >= 300 and result["games"] > 0
    assert 0.0 <= result["win_share"] <= 1.0
    lines = [line for line in out.splitlines() if "win share" in line]
    assert lines and f"win share {result['win_share']:.3f}" in lines[-1]


def test_the_config_documents_every_field_and_parses_the_command_line(monkeypatch):
    example = _example()
    import dataclasses
    assert all(f.metadata.get("help") for f in dataclasses.fields(example.Config))
    monkeypatch.setattr("sys.argv", ["ppo_vector.py", "--num-envs", "4", "--opponent",
                                     "pretrained", "--learning-rate", "1e-3"])
    cfg = example.parse_args()
    assert (cfg.num_envs, cfg.opponent, cfg.learning_rate) == (4, "pretrained", 1e-3)
