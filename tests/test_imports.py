"""The envs and bots run on the core install alone: numpy, gymnasium and pettingzoo."""

from __future__ import annotations

import subprocess
import sys

from tests.support.import_blocker import blocker


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", blocker() + code], capture_output=True,
                          text=True)


def test_envs_and_bots_run_without_the_extras():
    """Every game: made, reset, played to its end by random and heuristic bots."""
    out = _run(
        "import numpy as np\n"
        "from plunder.envs import ENV_IDS, make\n"
        "from plunder.policies import make_bot\n"
        "for e in ENV_IDS:\n"
        "    env = make(e)\n"
        "    env.reset(seed=0)\n"
        "    n = env.game.num_players\n"
        "    bots = [make_bot('heuristic' if i == 0 else 'random', e, n, seed=i)\n"
        "            for i in range(n)]\n"
        "    for agent in env.agent_iter(5000):\n"
        "        obs, _, term, trunc, _ = env.last()\n"
        "        bot = bots[env.possible_agents.index(agent)]\n"
        "        env.step(None if term or trunc else\n"
        "                 bot.act(obs['observation'], obs['action_mask']))\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & set(BLOCKED)))\n")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_the_command_without_the_cli_extra_names_it():
    out = _run("from plunder.training.cli.console import main\nmain()\n")
    assert out.returncode == 1
    assert "needs the 'cli' extra (click is not installed)" in out.stderr
    assert "pip install 'plunder[cli]'" in out.stderr


def _eval_without(modules: tuple[str, ...]) -> subprocess.CompletedProcess:
    """`plunder eval` (heuristic against random) with ``modules`` unimportable."""
    return subprocess.run(
        [sys.executable, "-c", blocker(modules) +
         "sys.argv = ['plunder', 'eval', 'scallywags', '--bots', 'heuristic,random',\n"
         "            '--players', '2', '--games', '4', '--seed', '1', '--json']\n"
         "from plunder.training.cli.console import main\nmain()\n"],
        capture_output=True, text=True)


def test_a_command_missing_another_extra_names_it():
    """`plunder play` of an ONNX bot without onnxruntime: which extra, not a traceback."""
    out = subprocess.run(
        [sys.executable, "-c", blocker(("onnxruntime",)) +
         "sys.argv = ['plunder', 'play', 'scallywags', '--bots', 'pretrained']\n"
         "from plunder.training.cli.console import main\nmain()\n"],
        capture_output=True, text=True, input="")
    assert out.returncode == 1
    assert out.stderr.strip().endswith(
        "needs the 'onnx' extra (onnxruntime is not installed): pip install 'plunder[onnx]'")


def test_eval_of_bots_needs_only_the_cli_extra_and_rates_only_with_openskill():
    """Without the train extra, `plunder eval` plays and reports win shares; with no
    openskill it gives no rating rather than the prior's 25 ± 8.3."""
    import json

    train_only = ("torch", "stable_baselines3", "sb3_contrib", "onnx", "onnxruntime",
                  "openskill", "tensorboard")
    out = _eval_without(train_only)
    assert out.returncode == 0, out.stderr
    bots = json.loads(out.stdout)["bots"]
    assert [b["seat_games"] for b in bots] == [4, 4]
    assert all(b["rating_mu"] is None and b["rating_ordinal"] is None for b in bots)


def test_every_module_named_for_an_extra_names_a_real_extra():
    import tomllib
    from pathlib import Path

    from plunder.training.cli.console import EXTRA_OF_MODULE

    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    extras = tomllib.loads(pyproject.read_text())["project"]["optional-dependencies"]
    assert set(EXTRA_OF_MODULE.values()) <= set(extras)
