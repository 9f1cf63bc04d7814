"""The README and the guide: short, current, generated where they can go stale, and free of
lab-notebook references.

- the README stays a short introduction and its results table is what
  ``docs/results/render.py`` prints from the committed results file;
- README, guide pages (docs/ except the lab log docs/lab/), configs and the module
  docstrings of envs/, policies/ and training/ name no issue numbers, experiment dates or
  commit hashes, and no file a user of the package does not have;
- the env modules' version histories are releases, not pre-release churn;
- the docs site's hook renders every env page and the config reference, and the site
  builds with warnings as errors (``mkdocs build --strict``, as CI does).
"""

from __future__ import annotations

import ast
import importlib.util
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
LAB = DOCS / "lab"

_MONTHS = ("January|February|March|April|May|June|July|August|September|October|"
           "November|December")
#: what a lab notebook cites and a user's guide does not
FORBIDDEN = {
    "an issue number": re.compile(r"\b[Ii]ssues? #?\d+"),
    "a date": re.compile(rf"\b20\d\d-[01]\d-[0-3]\d\b(?!T\d)|\b(?:{_MONTHS}) 20\d\d\b"
                         rf"|\b\d{{1,2}} (?:{_MONTHS})\b"),
    "a commit hash": re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b"),
}
#: files outside the repository that a reader of the docs cannot open
OUTSIDE = re.compile(r"DESIGN\.md|\.\./shared/|/work/|shared/rules/")


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def guide_texts() -> list[tuple[str, str]]:
    """(where, text) of the README, the guide pages, the configs and the module
    docstrings the rule covers."""
    texts = [("README.md", README.read_text(encoding="utf-8"))]
    for path in sorted(DOCS.rglob("*.md")):
        if LAB not in path.parents:
            texts.append((str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")))
    for path in sorted((ROOT / "envs").glob("*/rules.md")):     # the rules pages
        texts.append((str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")))
    for path in sorted((ROOT / "configs").rglob("*")):
        if path.suffix in (".yaml", ".toml"):
            texts.append((str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")))
    for folder in ("envs", "policies", "training"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
            if doc:
                texts.append((f"{path.relative_to(ROOT)} (docstring)", doc))
    return texts


def test_the_rule_sees_what_it_forbids():
    """The patterns catch the references they are for, and pass what is not one."""
    # the issue reference is put together here so that this file cites none itself
    for text in ("since issue " + "13", "on 2026-11-28, evening", "in November 2026",
                 "at commit 701f427"):
        assert any(p.search(text) for p in FORBIDDEN.values()), text
    for text in ("1000000 steps", "2026-11-27T22:01:38Z", "seed 31", "face-down"):
        assert not any(p.search(text) for p in FORBIDDEN.values()), text


@pytest.mark.parametrize("what", sorted(FORBIDDEN))
def test_no_lab_notebook_references_outside_the_lab_log(what):
    found = [f"{where}: {m.group(0)!r}" for where, text in guide_texts()
             for m in FORBIDDEN[what].finditer(text)]
    assert not found, f"{what} outside docs/lab/ (move the history there):\n" + "\n".join(found)


def test_the_docs_cite_no_file_outside_the_repository():
    found = [f"{where}: {m.group(0)!r}" for where, text in guide_texts()
             for m in OUTSIDE.finditer(text)]
    assert not found, "\n".join(found)


def test_the_env_version_histories_are_releases():
    """Pre-release churn is history (docs/lab/), not a version of the env."""
    for path in sorted((ROOT / "envs").glob("*_v0.py")):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        history = re.split(r"\nVersion history\n(?:-+\n)?", doc)[1]
        assert history.strip().removeprefix("- ") == "v0: first release.", path.name


# -- the README ---------------------------------------------------------------------------

def test_the_readme_is_short():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 200


def test_the_readme_results_table_is_the_results_file():
    """The table between the markers is what ``python docs/results/render.py`` prints;
    regenerate it with ``--write`` after changing docs/results/targets.json."""
    render = _load(DOCS / "results" / "render.py", "docs_results_render")
    text = README.read_text(encoding="utf-8")
    m = re.search(re.escape(render.BEGIN) + r"\n(.*?)" + re.escape(render.END), text, re.S)
    assert m, "README.md lacks the results:targets markers"
    assert m.group(1) == render.table(), \
        "README.md's results table is stale: python docs/results/render.py --write"


def test_the_results_file_names_the_commands_that_replay_it():
    render = _load(DOCS / "results" / "render.py", "docs_results_render")
    import json
    data = json.loads(render.RESULTS.read_text(encoding="utf-8"))
    for cell in data["cells"]:
        assert cell["command"] == (
            f"plunder eval {cell['env_id'].removesuffix('_v0')} --bots "
            f"{cell['bot']},{cell['opponent']} --players {cell['players']} "
            f"--games {cell['games']} --seed {cell['seed']}")
    assert data["met"] == sum(c["met"] for c in data["cells"])


def test_the_readme_links_exist():
    text = README.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if not re.match(r"[a-z]+:", target):
            assert (ROOT / target).exists(), f"README.md links to a missing {target}"


def test_ci_runs_the_readme_commands():
    """.ci/run installs the README's extras and runs its test command."""
    readme = README.read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    extras = re.search(r'pip install -c \.ci/constraints\.txt -e "\.\[([\w,]+)\]"', readme)
    assert extras and f'-e ".[{extras.group(1)}]"' in ci
    assert "docs" in extras.group(1).split(",")
    assert re.search(r"^\. \.venv/bin/activate && python -m pytest$", readme, re.M)
    assert re.search(r"^python -m pytest", ci, re.M)
    assert re.search(r"^mkdocs build --strict -d ", ci, re.M)


# -- the site -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def hooks():
    pytest.importorskip("mkdocs", reason="the docs extra builds the site")
    return _load(DOCS / "hooks.py", "docs_hooks")


def test_every_game_has_a_generated_env_page(hooks):
    from plunder.envs import ENV_IDS, make
    from plunder.envs.core.registry import game_class
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for env_id in ENV_IDS:
        page = hooks.env_page(env_id)
        cls = game_class(env_id)
        layout = make(env_id, num_players=cls.min_players).unwrapped.layout
        assert layout.describe() in page, env_id
        assert "LAYOUT_TABLE" not in page
        assert not re.search(r"(?<!`)``(?!`)", page), f"{env_id}: RST markup left"
        assert f"envs/{hooks.page_name(env_id)}.md" in nav, f"{env_id}'s page is not in the nav"


def test_the_config_reference_is_generated(hooks):
    """The training guide asks for the reference; the hook renders it from the config
    dataclass, wherever the config module lives."""
    assert hooks.CONFIG_MARKER in (DOCS / "training.md").read_text(encoding="utf-8")
    table = hooks.describe_config()
    assert table.startswith("| key | default | meaning |") and "`ppo.learning_rate`" in table


def test_the_site_builds_strict(tmp_path):
    """``mkdocs build --strict``, as CI runs it: a broken link or anchor, a page missing
    from the nav or a generated page that fails fails the build."""
    pytest.importorskip("mkdocs", reason="the docs extra builds the site")
    pytest.importorskip("material", reason="the docs extra builds the site")
    cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(tmp_path)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**__import__("os").environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, f"{shlex.join(cmd)} failed:\n{done.stdout}\n{done.stderr}"
    assert (tmp_path / "envs" / "scallywags" / "index.html").exists()
