"""The env core and the bots need no training stack (torch, stable-baselines3)."""

from __future__ import annotations

import subprocess
import sys


def test_envs_and_bots_import_without_the_training_stack():
    code = (
        "import sys\n"
        "from plunder.envs import ENV_IDS, make\n"
        "from plunder.policies import make_bot\n"
        "for e in ENV_IDS:\n"
        "    env = make(e); env.reset(seed=0)\n"
        "    make_bot('heuristic', e, env.game.num_players)\n"
        "heavy = [m for m in ('torch', 'stable_baselines3', 'sb3_contrib', 'onnxruntime')\n"
        "         if m in sys.modules]\n"
        "print(heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
