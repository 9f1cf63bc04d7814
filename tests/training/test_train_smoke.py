"""Smoke tests of the real ``plunder train`` / ``export`` / ``eval`` commands."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import TINY, run_cli, set_args, TOY_CONFIG

from plunder.envs import ENV_IDS, game_class, make
from plunder.policies.base import make_bot


def _play_with(bot, env_id, n, seed=0):
    """One AEC game where seat 0 is ``bot`` and the others random; returns the rewards."""
    env = make(env_id, num_players=n)
    env.reset(seed=seed)
    others = make_bot("random", env_id, n, seed=seed)
    final = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            final[agent] = reward
            env.step(None)
            continue
        pol = bot if agent == "player_0" else others
        env.step(pol.act(obs["observation"], obs["action_mask"]))
    return final


def test_scallywags_train_export_reload(scallywags_run, tmp_path):
    run = scallywags_run
    assert (run / "config.yaml").is_file() and (run / "bot.onnx").is_file()
    ckpts = sorted((run / "checkpoints").glob("step_*.zip"))
    assert ckpts and ckpts[-1].name == "step_000002048.zip"
    meta = json.loads(ckpts[-1].with_suffix(".json").read_text())
    assert meta["config"]["game"] == "scallywags_v0" and meta["git_commit"]
    eval_ = json.loads((run / "eval.json").read_text())
    assert {"random", "heuristic"} <= set(eval_["results"])
    out = tmp_path / "bot.onnx"
    res = run_cli(["export", str(run), "--out", str(out)])
    assert res.exit_code == 0, res.output
    bot = make_bot(f"trained:{out}", "scallywags_v0", 2, seed=1)
    rewards = _play_with(bot, "scallywags_v0", 2)
    assert set(rewards) == {"player_0", "player_1"}


def test_eval_cli_json(scallywags_run):
    res = run_cli(["eval", "scallywags", "--bots",
                   f"trained:{scallywags_run / 'bot.onnx'},random", "--games", "6",
                   "--players", "2", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert [b["seat_games"] for b in data["bots"]] == [6, 6]
    if not data["truncated_games"]:   # every finished game has winners (ties shared)
        assert abs(sum(b["win_share"] for b in data["bots"]) - 1.0) < 1e-3


def test_toy_simultaneous_game_trains(toy, tmp_path):
    """A game with multi-step turns and simultaneous decisions, 3 players."""
    run = tmp_path / "toy"
    res = run_cli(["train", "toyrace", "--config", TOY_CONFIG, "--players", "3",
                   "--steps", "2048", "--run-dir", str(run), *set_args(TINY),
                   "--set", "pretrain.samples=300", "--set", "pretrain.epochs=2"])
    assert res.exit_code == 0, res.output
    words = " ".join(res.output.split())         # the summary is wrapped at 80 columns
    assert "against 2 of each opponent" in words
    assert "\nrandom " in res.output and "\nheuristic " in res.output   # the table's rows
    assert "pretrain: imitated 300 decisions" in res.output
    bot = make_bot(f"trained:{run / 'bot.onnx'}", toy, 3)
    env = make(toy, num_players=3)
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else bot.act(obs["observation"], obs["action_mask"]))


def test_existing_run_needs_resume_or_overwrite(toy, tmp_path):
    run = tmp_path / "toy"
    args = ["train", toy, "--config", TOY_CONFIG, "--steps", "1024", "--run-dir", str(run),
            *set_args(TINY + ["eval.final_games=2"])]
    assert run_cli(args).exit_code == 0
    res = run_cli(args)
    assert res.exit_code != 0 and "--resume" in res.output
    assert run_cli(args + ["--overwrite"]).exit_code == 0


@pytest.mark.slow
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_every_game_trains_exports_and_reloads(env_id, tmp_path):
    """The real `plunder train` on every registered game's packaged config."""
    n = game_class(env_id).min_players
    run = tmp_path / env_id
    res = run_cli(["train", env_id, "--steps", "4096", "--players", str(n), "--run-dir",
                   str(run), *set_args(TINY)])
    assert res.exit_code == 0, res.output
    out = tmp_path / "bot.onnx"
    assert run_cli(["export", str(run), "--out", str(out)]).exit_code == 0
    bot = make_bot(f"trained:{out}", env_id, n, seed=0)
    _play_with(bot, env_id, n)


@pytest.mark.slow
def test_bench_training_reports_rate():
    from plunder.training.speed.trainer import measure_training

    r = measure_training(steps=4096, overrides=["n_envs=8", "ppo.n_steps=256",
                                                "ppo.batch_size=512"])
    assert r["steps"] == 4096 and r["steps_per_s"] > 0
    assert np.isfinite(r["steps_per_cpu_s"])
