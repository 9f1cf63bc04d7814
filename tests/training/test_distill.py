"""Search distillation after PPO: the labelled games, the config, and a run that distills."""

from __future__ import annotations

import json

import numpy as np
import pytest

from plunder.envs.core import ConfigError
from plunder.policies.base import make_bot
from plunder.policies.pretrained import pretrained_path
from plunder.training.selfplay.config import config_from_dict
from plunder.training.selfplay.distill import collect_search_decisions
from plunder.training.selfplay.pretrain import collect_in_parts

from .conftest import TINY, run_cli, set_args

ENV = "shipshape_v0"


def _collect(search: str, samples: int = 40, seed: int = 3, opponents=("random", "heuristic")):
    return collect_search_decisions(ENV, 2, {}, str(pretrained_path(ENV, 2)), list(opponents),
                                    search, samples=samples, seed=seed)


def test_the_network_plays_greedily_and_the_search_labels_legal_moves():
    obs, masks, labels, played = _collect("samples=4")
    assert len(obs) == len(masks) == len(labels) == len(played) == 40
    assert masks[np.arange(40), labels].all() and masks[np.arange(40), played].all()
    net = make_bot(f"trained:{pretrained_path(ENV, 2)}", ENV, 2, seed=0)
    assert [net.act(o, m) for o, m in zip(obs, masks)] == played.tolist()


def test_the_search_settings_reach_the_search():
    # a minimum gain no value can reach: the search never overrides the network
    _, _, labels, played = _collect("samples=4:min_gain=5")
    assert np.array_equal(labels, played)
    # no standard-error test and no minimum gain: the best mean of each move wins
    _, _, labels, played = _collect("samples=4:min_gain=0:confidence=0", samples=60)
    assert (labels != played).any()


def test_same_seed_same_data_and_parts_split_the_games():
    kwargs = {"env_id": ENV, "num_players": 2, "options": {},
              "bot_path": str(pretrained_path(ENV, 2)), "opponents": ["random"],
              "search": "samples=2"}
    one = collect_in_parts(collect_search_decisions, kwargs, 30, 5)
    again = collect_in_parts(collect_search_decisions, kwargs, 30, 5)
    two = collect_in_parts(collect_search_decisions, kwargs, 30, 5, parts=2, workers=2)
    assert all(np.array_equal(a, b) for a, b in zip(one, again))
    assert len(two[0]) == 30 and not np.array_equal(one[0], two[0])


@pytest.mark.parametrize("distill, match", [
    ({"opponents": ["nobody"]}, "distill.opponents: unknown bot"),
    ({"opponents": []}, "at least 1"),
    ({"search_settings": "samples=many"}, "samples must be int"),
    ({"search_settings": "depth=3"}, "unknown netsearch setting"),
    ({"search_settings": "other.onnx:samples=4"}, "KEY=VALUE settings"),
    ({"samples": -1}, "below the minimum"),
])
def test_bad_distill_settings_are_refused(distill, match):
    with pytest.raises(ConfigError, match=match):
        config_from_dict({"game": "shipshape", "distill": distill})


def test_a_recall_run_cannot_distill():
    with pytest.raises(ConfigError, match="recall"):
        config_from_dict({"game": "anchors_aweigh", "recall": True,
                          "distill": {"samples": 100}})
    config_from_dict({"game": "anchors_aweigh", "recall": True})


@pytest.mark.slow                   # a whole training run: in CI's full run
def test_a_run_distills_once_and_exports_the_distilled_network(tmp_path):
    from plunder.policies.onnx_policy import OnnxPolicy

    run, plain = tmp_path / "ss2", tmp_path / "plain"
    base = ["train", "shipshape", "--steps", "1024", "--no-progress"]
    res = run_cli(base + ["--run-dir", str(run), *set_args(
        TINY + ["distill.samples=50", "distill.search_settings=samples=2:min_gain=0",
                "distill.learning_rate=0.01"])])
    assert res.exit_code == 0, res.output
    assert "distill: the search chose otherwise" in res.output
    meta = json.loads(next((run / "checkpoints").glob("step_*.json")).read_text())
    assert meta["distill"]["search_overrode"] > 0 and meta["distill"]["epoch"] == 2
    bot = (run / "bot.onnx").read_bytes()
    # resuming the finished run neither trains nor distills again
    res = run_cli(["train", "shipshape", "--run-dir", str(run), "--resume", "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "distill:" not in res.output
    assert json.loads(next((run / "checkpoints").glob("step_*.json")).read_text())[
        "distill"] == meta["distill"]
    a = OnnxPolicy(run / "bot.onnx", ENV, 2)
    (tmp_path / "before.onnx").write_bytes(bot)
    b = OnnxPolicy(tmp_path / "before.onnx", ENV, 2)
    obs, masks, _, _ = _collect("samples=2", samples=30)
    assert np.allclose(a.probs(obs, masks), b.probs(obs, masks), atol=1e-6)
    # the same run without distill.samples: the same PPO (same seed), nothing distilled,
    # so its bot is the network before the fit, and the distilled bot differs from it
    res = run_cli(base + ["--run-dir", str(plain), *set_args(TINY)])
    assert res.exit_code == 0, res.output
    assert "distill:" not in res.output and "distilled in" not in res.output
    meta = json.loads(next((plain / "checkpoints").glob("step_*.json")).read_text())
    assert meta["distill"] is None
    c = OnnxPolicy(plain / "bot.onnx", ENV, 2)
    assert not np.allclose(a.probs(obs, masks), c.probs(obs, masks), atol=1e-3)
