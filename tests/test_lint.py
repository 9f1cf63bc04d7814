"""The code passes ruff with the rules in pyproject.toml ([tool.ruff.lint])."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _ruff() -> list[str]:
    """The ruff command of this environment (the dev extra installs it)."""
    exe = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if exe is None:
        pytest.skip("ruff is in the dev extra")
    return [exe]


def test_ruff_finds_nothing():
    folders = ["envs", "policies", "training", "benchmark", "configs", "tests", "examples"]
    result = subprocess.run([*_ruff(), "check", "--no-cache", "--output-format", "concise",
                             *folders],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
