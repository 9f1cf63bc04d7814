"""The built wheel holds every subpackage and every config file."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOP = {"envs": "plunder/envs", "policies": "plunder/policies",
       "training": "plunder/training", "configs": "plunder/configs",
       "benchmark": "plunder/benchmark"}


def _is_data(path: Path) -> bool:
    """Package data the wheel must carry: configs, shipped bots and their manifest, the
    benchmark's JSON Schema, the games' rules pages."""
    return path.suffix in (".yaml", ".toml", ".onnx") or path.name == "manifest.json" \
        or path.name.endswith(".schema.json") or path.name == "rules.md"


def expected_files():
    """Every package __init__, config file, shipped bot, manifest and schema in the source
    tree, as wheel paths (a folder mapped to a package of its own counts only there)."""
    out = set()
    for folder, target in TOP.items():
        for path in (ROOT / folder).rglob("*"):
            if "__pycache__" in path.parts or path.name.startswith("."):
                continue
            if any(other != folder and other.startswith(folder + "/")
                   and (ROOT / other) in path.parents for other in TOP):
                continue
            rel = path.relative_to(ROOT / folder).as_posix()
            if path.name == "__init__.py" or _is_data(path):
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


def test_wheel_ships_the_pretrained_bots_and_the_benchmark(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "plunder/training/benchmark/__init__.py" in names
    assert "plunder/training/benchmark/result.schema.json" in names
    assert "plunder/benchmark/__init__.py" in names       # the deprecated alias
    assert "plunder/policies/pretrained/manifest.json" in names
    bots = [n for n in names if n.startswith("plunder/policies/pretrained/")
            and n.endswith(".onnx")]
    assert len(bots) >= 5 * 2 * 2   # every game, 2 and 4 players (more as trained), both strengths
    assert "plunder/policies/pretrained/levels.toml" in names
    size = Path(wheel).stat().st_size
    print(f"wheel {Path(wheel).name}: {size / 1e6:.1f} MB")
    assert size < 50e6              # the installed package stays small as tables are added


def test_wheel_has_the_plunder_command(wheel):
    entry = [n for n in zipfile.ZipFile(wheel).namelist() if n.endswith("entry_points.txt")]
    text = zipfile.ZipFile(wheel).read(entry[0]).decode()
    assert "plunder = plunder.training.cli.console:main" in text


def test_the_core_install_requires_only_numpy_gymnasium_and_pettingzoo(wheel):
    """The envs and bots install with these three alone; everything else is an extra."""
    meta = [n for n in zipfile.ZipFile(wheel).namelist() if n.endswith(".dist-info/METADATA")]
    lines = zipfile.ZipFile(wheel).read(meta[0]).decode().splitlines()
    requires = [line.split(":", 1)[1].strip() for line in lines
                if line.startswith("Requires-Dist:")]
    core = sorted(r.split(">")[0].split("=")[0].split("<")[0].strip()
                  for r in requires if "extra ==" not in r)
    assert core == ["gymnasium", "numpy", "pettingzoo"]
    assert any(r.startswith("click") and 'extra == "cli"' in r for r in requires)


def test_the_rules_pages_are_read_from_an_installed_package(wheel, tmp_path):
    """Unpacked from the wheel alone (no source tree), every game's rules page is found
    by ``plunder.envs.rules_text``: it is package data beside the game's engine."""
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = ("import plunder.envs as e, sys; "
            "assert e.__file__.startswith(sys.argv[1]), e.__file__; "
            "print(*(e.rules_text(i).splitlines()[0] for i in e.ENV_IDS), sep='\\n')")
    done = subprocess.run([sys.executable, "-c", code, str(site)], cwd=tmp_path,
                          env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 5 and all(line.startswith("# ") for line in lines)
