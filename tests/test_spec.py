"""One declaration per game: every table reads the specs, and the specs are true.

Each shipped game's ``SPEC`` (envs/<game>/__init__.py) agrees with its Game class, names
bots and boards that exist, declares exactly the compiled parts it ships, and is what
pyproject.toml packages; reading the specs (and registering with PettingZoo) imports no
engine; ``register`` / ``unregister`` add and remove a game everywhere.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from plunder.envs import (
    ENV_IDS, GameSpec, env_ids, game_class, register, spec, specs, unregister,
)
from plunder.envs.core import InvalidArgumentError, UnknownEnvError, compiled
from plunder.envs.core.registry import GAMES

from .conftest import needs_pz_registry
from plunder.envs.core.spec import SearchDefaults, check_game_class, resolve
from tests.example_game import SPEC as SPEC_OF_EXAMPLE

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = [s for s in specs() if s.package.startswith("plunder.envs.")]
IDS = [s.env_id for s in SHIPPED]


def test_the_registry_is_the_games_line():
    assert [s.package for s in SHIPPED] == [f"plunder.envs.{g}" for g in GAMES]
    assert ENV_IDS == env_ids() == tuple(f"{g}_v0" for g in GAMES)


@pytest.mark.parametrize("env_id", IDS)
def test_spec_agrees_with_its_game_class(env_id):
    s, cls = spec(env_id), game_class(env_id)
    check_game_class(s, cls)                    # name, version, players, simultaneous
    assert cls.env_id() == s.env_id and s.options() == dict(cls.options)
    assert spec(s.name) is s                    # a game's name resolves too
    assert s.title and s.description.endswith(".")


@pytest.mark.parametrize("env_id", IDS)
def test_variant_sets_are_variants_of_the_game(env_id):
    s, cls = spec(env_id), game_class(env_id)
    assert dict(s.test_variants[0]) == {}
    for options in s.test_variants:
        cls.check_options(dict(options))


@pytest.mark.parametrize("env_id", IDS)
def test_the_bots_and_board_a_spec_names_exist(env_id):
    s = spec(env_id)
    game = game_class(env_id)(s.min_players)
    for path in filter(None, (s.heuristic, s.planner)):
        bot = resolve(path)(game, seed=0)
        assert callable(bot.act)
    assert s.heuristic is not None
    assert callable(resolve(s.board))
    for name, path in s.beliefs.items():
        assert name != "uniform" and callable(resolve(path))
    assert s.search.belief == "uniform" or s.search.belief in s.beliefs


def test_tables_derived_from_the_specs():
    pytest.importorskip("starlette", reason="the web page's tables need the web extra")
    from plunder.policies import base, netsearch
    from plunder.training.web import boards
    from plunder.training.web.app import TITLES

    assert set(base.HEURISTICS) == set(ENV_IDS)
    assert set(base.PLANNERS) == {"anchors_aweigh_v0", "shipshape_v0"}
    assert set(boards.BOARDS) == set(TITLES) == set(ENV_IDS)
    assert netsearch.default_settings("scallywags_v0") == SearchDefaults().as_kwargs()
    assert dict(netsearch.DEFAULT_HORIZON) == {"anchors_aweigh_v0": 24,
                                               "all_hands_crew_v0": None}
    with pytest.raises(TypeError):
        base.HEURISTICS["scallywags_v0"] = "elsewhere:Bot"      # read-only


@pytest.mark.parametrize("env_id", IDS)
def test_declared_compiled_parts_are_the_shipped_sources(env_id):
    s = spec(env_id)
    folder = ROOT / "envs" / s.package_name
    assert (folder / "_engine.c").exists() == ("engine" in s.compiled)
    # the encoder: its own module, or the compiled engine's (one or the other, never both)
    encoder_sources = (folder / "_cencode.c").exists() + (
        "engine" in s.compiled and '"Encoder", &' in (folder / "_engine.c").read_text())
    assert encoder_sources == ("encoder" in s.compiled)
    assert (folder / "_cview.c").exists() == ("view" in s.compiled)
    builder = compiled.load(s.package_name, "view")
    if builder is not None:                      # built: the mask is where declared
        assert hasattr(builder.ViewBuilder, "mask_into") == ("mask" in s.compiled)


def test_pyproject_packages_and_ext_modules_match_the_specs():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    packages = set(project["packages"])
    assert {s.package for s in SHIPPED} <= packages
    modules = {m["name"]: m for m in project["ext-modules"]}
    want = {f"{s.package}.{name}" for s in SHIPPED
            for part, (names, _) in compiled.PARTS.items() if part in s.compiled
            for name in names if (ROOT / "envs" / s.package_name / f"{name}.c").exists()}
    assert set(modules) == want
    for name, module in modules.items():
        folder = name.split(".")[2]
        assert module["sources"] == [f"envs/{folder}/{name.rsplit('.', 1)[1]}.c"]
        assert module.get("optional") is True


@needs_pz_registry
def test_reading_the_specs_and_registering_imports_no_game():
    """``import plunder.envs`` reads every spec and fills PettingZoo's registry without
    importing an engine, an env module or a bot."""
    code = ("import sys, pettingzoo\nimport plunder.envs as E\n"
            "assert E.pettingzoo_id(E.ENV_IDS[0]) in pettingzoo.aec_registry\n"
            "games = {s.package for s in E.specs()}\n"
            "print(sorted(m for m in sys.modules if m.startswith('plunder.') and "
            "(m.rsplit('.', 1)[0] in games or m.endswith('_v0') or "
            "m.startswith('plunder.policies'))))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def _spec(**changes) -> GameSpec:
    fields = dict(name="dice", package="elsewhere.dice", game="elsewhere.dice:DiceGame",
                  title="Dice", description="Roll.", min_players=2, max_players=4)
    return GameSpec(**{**fields, **changes})


def test_register_and_unregister():
    s = _spec()
    assert register(s) is s and register(s) is s          # again: a no-op
    try:
        assert "dice_v0" in env_ids() and spec("dice") is s
        with pytest.raises(InvalidArgumentError, match="already registered"):
            register(_spec(title="Other dice"))
    finally:
        unregister("dice_v0")
    assert "dice_v0" not in env_ids()
    with pytest.raises(UnknownEnvError):
        unregister("dice_v0")
    with pytest.raises(InvalidArgumentError, match="defines no SPEC"):
        register("plunder.envs.core")


@pytest.mark.parametrize("changes,match", [
    ({"min_players": 3, "max_players": 2}, "not a range"),
    ({"compiled": ("turbo",)}, "unknown compiled parts"),
    ({"compiled": ("mask",)}, "declare 'view'"),
    ({"name": "two words"}, "identifier"),
    ({"heuristic": object}, "import string"),
])
def test_bad_declarations_are_refused(changes, match):
    with pytest.raises(InvalidArgumentError, match=match):
        _spec(**changes)


def test_a_spec_that_disagrees_with_its_class_is_refused():
    register(_spec(name="scallywags_copy", game=spec("scallywags_v0").game))
    try:
        with pytest.raises(InvalidArgumentError, match="disagrees with the spec"):
            game_class("scallywags_copy_v0")
    finally:
        unregister("scallywags_copy_v0")


def _table_paths(doc: str, heading: str) -> list[str]:
    """The backticked paths in the first column of the table under ``heading``."""
    section = doc.split(heading, 1)[1].split("\n#", 1)[0]
    return [line.split("`")[1] for line in section.splitlines() if line.startswith("| `")]


def test_adding_a_game_names_files_that_exist():
    """docs/adding_a_game.md's file lists stay true: the example's files are exactly the
    ones it lists, every shipped game has every file it lists, and its declaration and
    registry line are the example's and the registry's."""
    doc = (ROOT / "docs" / "adding_a_game.md").read_text()
    example = _table_paths(doc, "### The example's files")
    assert sorted(example) == sorted(p.relative_to(ROOT).as_posix()
                                     for p in (ROOT / "tests" / "example_game").glob("*.py"))
    shipped = _table_paths(doc, "## Files every shipped game has")
    assert len(shipped) > 10
    for s in SHIPPED:
        missing = [p for p in shipped if not (ROOT / p.replace("<game>", s.package_name)).exists()]
        assert not missing, f"{s.name} lacks {missing}"
    declaration = doc.split("```python\n", 1)[1].split("```", 1)[0]
    assert declaration in (ROOT / "tests" / "example_game" / "__init__.py").read_text()
    line = doc.split("GAMES = ", 1)[1].split(")", 1)[0] + ")"
    assert ast.literal_eval(line) == (*GAMES, SPEC_OF_EXAMPLE.name)


@pytest.mark.parametrize("folder,forbidden", [("envs", ("plunder.policies", "plunder.training")),
                                              ("policies", ("plunder.training",))])
def test_import_rules(folder, forbidden):
    """envs imports neither the bots nor the trainer (a spec names them by strings);
    the bots do not import the trainer."""
    bad = []
    for path in (ROOT / folder).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            bad += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.startswith(forbidden)]
    assert not bad
