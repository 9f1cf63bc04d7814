"""Resume, damaged checkpoints, atomic writes and same-seed reproducibility."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import TINY, run_cli, set_args, TOY_CONFIG

from plunder.envs.core import ModelFileError
from plunder.policies.onnx_policy import OnnxPolicy
from plunder.training.selfplay.train import checkpoint_paths, latest_checkpoint, load_checkpoint


def _train(toy, run, steps, *extra):
    return run_cli(["train", toy, "--config", TOY_CONFIG, "--steps", str(steps),
                    "--run-dir", str(run), *set_args(TINY + ["eval.final_games=4"]), *extra])


def test_resume_continues_from_last_checkpoint(toy, tmp_path):
    run = tmp_path / "run"
    assert _train(toy, run, 2048, "--set", "eval.every=1024").exit_code == 0
    first = latest_checkpoint(run)
    assert first.meta["steps"] == 2048 and len(first.meta["evals"]) == 2
    res = _train(toy, run, 3072, "--resume")
    assert res.exit_code == 0, res.output
    assert "resuming" in res.output and "2,048" in res.output
    last = latest_checkpoint(run)
    assert last.meta["steps"] == 3072
    # history, league and git commit carried over; old checkpoints pruned to the last 3
    assert last.meta["evals"][:2] == first.meta["evals"]
    assert np.asarray(last.league["steps"]).tolist()[:3] == [0, 1024, 2048]
    assert last.meta["git_commit"]
    assert len(checkpoint_paths(run)) <= 3
    # resuming a finished run is a no-op apart from the final evaluation
    assert _train(toy, run, 3072, "--resume").exit_code == 0


def test_resume_without_checkpoint_is_a_clear_error(toy, tmp_path):
    res = _train(toy, tmp_path / "none", 1024, "--resume")
    assert res.exit_code != 0 and "no checkpoints" in res.output


def test_damaged_checkpoint_is_refused(toy, tmp_path):
    run = tmp_path / "run"
    assert _train(toy, run, 1024).exit_code == 0
    path = checkpoint_paths(run)[-1]
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ModelFileError, match="damaged"):
        load_checkpoint(path)
    res = _train(toy, run, 2048, "--resume")
    assert res.exit_code != 0 and "damaged" in res.output
    res = run_cli(["export", str(run)])
    assert res.exit_code != 0 and "damaged" in res.output
    # a zip that is not a checkpoint
    path.write_bytes(b"PK\x05\x06" + b"\0" * 18)
    with pytest.raises(ModelFileError):
        load_checkpoint(path)


def test_checkpoint_writes_leave_no_temp_files(toy, tmp_path):
    run = tmp_path / "run"
    assert _train(toy, run, 2048).exit_code == 0
    leftovers = [p for p in run.rglob("*") if p.name.endswith(".tmp")]
    assert leftovers == []
    meta = json.loads(checkpoint_paths(run)[-1].with_suffix(".json").read_text())
    assert meta["config"]["seed"] == 0 and "git_commit" in meta
    # what floating-point results depend on besides config, seed and commit
    import torch

    assert meta["platform"]["torch"] == torch.__version__
    assert meta["platform"]["torch_cpu_capability"] == torch.backends.cpu.get_cpu_capability()
    assert meta["platform"]["processor"] and meta["platform"]["numpy"] == np.__version__


def _probe(run, env_id):
    """The run's exported bot's probabilities on 64 fixed random inputs (2 players)."""
    bot = OnnxPolicy(run / "bot.onnx", env_id=env_id, num_players=2)
    rng = np.random.default_rng(0)
    obs = rng.random((64, bot.meta["obs_size"]), dtype=np.float32)
    masks = np.ones((64, bot.meta["num_actions"]), np.int8)
    return bot.probs(obs, masks)


def test_same_seed_same_run(toy, tmp_path):
    probs = []
    for name in ("a", "b"):
        run = tmp_path / name
        assert _train(toy, run, 1024).exit_code == 0
        probs.append(_probe(run, toy))
    np.testing.assert_array_equal(probs[0], probs[1])


@pytest.mark.slow                   # whole training runs, twice: in CI's full run
def test_a_warm_start_on_both_cores_repeats_itself(tmp_path):
    """``pretrain.collect_parts`` plays the warm start's games in worker processes and
    ``pretrain.torch_threads`` fits on two threads: the same seed still gives the same bot."""
    probs = []
    for name in ("a", "b"):
        run = tmp_path / name
        res = run_cli(["train", "scallywags", "--steps", "512", "--run-dir", str(run),
                       *set_args(TINY + ["eval.final_games=4", "vec_workers=2",
                                         "pretrain.dagger_rounds=1",
                                         "pretrain.dagger_greedy=true",
                                         "pretrain.collect_parts=2",
                                         "pretrain.torch_threads=2"])])
        assert res.exit_code == 0, res.output
        assert "DAgger round 1" in res.output
        probs.append(_probe(run, "scallywags_v0"))
    np.testing.assert_array_equal(probs[0], probs[1])


@pytest.mark.slow                   # whole training runs, twice: in CI's full run
def test_periodic_evaluations_change_nothing_in_the_run(tmp_path):
    """``eval.every`` only watches: the packaged configs switch it off to save time, and
    the bot must be the one a run with periodic evaluations gives (with the packaged
    configs' worker processes and asynchronous rollouts, where timing could leak in)."""
    probs = []
    for name, every in (("quiet", 0), ("watched", 256)):
        run = tmp_path / name
        res = run_cli(["train", "scallywags", "--steps", "1024", "--run-dir", str(run),
                       *set_args(TINY + ["eval.final_games=4", "eval.games=4",
                                         "vec_workers=2", "async_rollouts=true",
                                         "league.snapshot_every=256", f"eval.every={every}"])])
        assert res.exit_code == 0, res.output
        evals = latest_checkpoint(run).meta["evals"]
        assert len(evals) == (4 if every else 0)
        probs.append(_probe(run, "scallywags_v0"))
    np.testing.assert_array_equal(probs[0], probs[1])


def test_a_run_directory_is_locked_while_training(toy, tmp_path):
    """A second `plunder train` on a run in use fails at once with a clear error and
    leaves the run alone."""
    from plunder.training.selfplay.train import lock_run

    run = tmp_path / "run"
    assert _train(toy, run, 1024).exit_code == 0
    before = [p.read_bytes() for p in checkpoint_paths(run)]
    with lock_run(run):                       # another process is training this run
        res = _train(toy, run, 2048, "--resume")
        assert res.exit_code != 0
        assert "Error:" in res.output and "in use by another training process" in res.output
    assert [p.read_bytes() for p in checkpoint_paths(run)] == before
    assert _train(toy, run, 2048, "--resume").exit_code == 0   # released: resumes


def test_resuming_on_another_platform_says_so(toy, tmp_path, monkeypatch):
    """A checkpoint records the platform it was written on; resuming elsewhere (another
    processor or library version) is allowed but named, since the run will not repeat bit
    for bit there."""
    from plunder.training.selfplay import train as train_module

    run = tmp_path / "run"
    assert _train(toy, run, 1024).exit_code == 0
    here = latest_checkpoint(run).meta["platform"]
    res = _train(toy, run, 2048, "--resume")
    assert res.exit_code == 0 and "another platform" not in res.output
    monkeypatch.setattr(train_module, "run_platform",
                        lambda: {**here, "torch_cpu_capability": "OTHER"})
    res = _train(toy, run, 3072, "--resume")
    assert res.exit_code == 0, res.output
    assert "written on another platform" in res.output
    words = " ".join(res.output.split())         # the note is wrapped at 80 columns
    assert f"torch_cpu_capability {here['torch_cpu_capability']} -> OTHER" in words
    assert latest_checkpoint(run).meta["platform"]["torch_cpu_capability"] == "OTHER"
