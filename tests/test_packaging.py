"""The built wheel holds every subpackage and every config file."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOP = {"envs": "plunder/envs", "policies": "plunder/policies",
       "training": "plunder/training", "configs": "plunder/configs"}


def expected_files():
    """Every package __init__ and config YAML in the source tree, as wheel paths."""
    out = set()
    for folder, target in TOP.items():
        for path in (ROOT / folder).rglob("*"):
            if "__pycache__" in path.parts:
                continue
            rel = path.relative_to(ROOT / folder).as_posix()
            if path.name == "__init__.py" or path.suffix == ".yaml":
                out.add(f"{target}/{rel}")
    return out


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation",
                    "--outdir", str(out), str(ROOT)], check=True, capture_output=True)
    return next(out.glob("plunder-*.whl"))


def test_wheel_contains_every_subpackage_and_config(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = sorted(expected_files() - names)
    assert not missing, f"missing from the wheel: {missing}"


def test_wheel_has_the_plunder_command(wheel):
    entry = [n for n in zipfile.ZipFile(wheel).namelist() if n.endswith("entry_points.txt")]
    text = zipfile.ZipFile(wheel).read(entry[0]).decode()
    assert "plunder = plunder.training.cli:main" in text
