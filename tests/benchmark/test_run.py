"""``plunder benchmark run`` / ``plunder.training.benchmark.evaluate``: every task end to end, the
policy forms, errors, the JSON and its schema, no torch on the evaluation path."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from plunder.training.benchmark import TASKS, BenchmarkError, evaluate
from plunder.training.benchmark.run import RESULT_SCHEMA_PATH, RESULT_SCHEMA_VERSION
from plunder.envs.core import InvalidArgumentError, ModelFileError
from plunder.policies.pretrained import pretrained_path

from tests.support.import_blocker import blocker

from .schema_check import validate

pytest.importorskip("onnxruntime")

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads(RESULT_SCHEMA_PATH.read_text())


def run_cli(args):
    """``plunder`` in-process; the click Result."""
    from click.testing import CliRunner

    from plunder.training.cli.commands import main

    result = CliRunner().invoke(main, args, catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def _games(task) -> int:
    return 1 if task.name.endswith("-search") else 2


@pytest.mark.slow
@pytest.mark.parametrize("name", list(TASKS))
def test_every_task_runs_end_to_end(name):
    """A few games of every registered task, scored and valid against the schema."""
    task = TASKS[name]
    result = evaluate(name, "pretrained:final", games=_games(task))
    data = result.to_dict()
    assert validate(data, SCHEMA) == []
    assert data["games"] == _games(task) and data["full_task"] is False
    assert data["latency"]["decisions"] > 0
    assert len(result.records) == _games(task)


def test_result_json_has_schema_versions_and_seeds():
    result = evaluate("shipshape-2p-ladder", "heuristic", games=8)
    data = result.to_dict()
    assert validate(data, SCHEMA) == []
    assert data["schema_version"] == RESULT_SCHEMA_VERSION
    assert data["task_version"] == TASKS["shipshape-2p-ladder"].version == data["task"]["version"]
    assert data["plunder_version"] and data["plunder_version"] != "unknown"
    assert data["seeds"]["tournament_seed"] == TASKS["shipshape-2p-ladder"].seed
    assert data["seeds"]["first_game_seed"] >= 2**64
    assert data["command"] == "plunder benchmark run shipshape-2p-ladder --policy heuristic " \
                              "--games 8"
    # every ladder opponent met in 8 games of 2 seats x 4 opponents
    assert [o["games"] for o in data["results"]["per_opponent"]] == [2, 2, 2, 2]


def test_schema_check_rejects_a_broken_result():
    """The validation above can fail."""
    data = evaluate("shipshape-2p-heuristic", "random", games=2).to_dict()
    broken = dict(data, schema_version="other")
    del broken["latency"]
    broken["results"] = dict(data["results"], win_share=1.5)
    errs = validate(broken, SCHEMA)
    assert len(errs) >= 3


def test_metrics_follow_their_definitions():
    """Win share, rank and margin recomputed from the records."""
    result = evaluate("scallywags-4p-heuristic", "random", games=8)
    r = result.to_dict()["results"]
    recs = result.records
    assert r["win_share"] == pytest.approx(sum(x.win for x in recs) / 8, abs=1e-4)
    assert r["mean_rank"] == pytest.approx(sum(x.rank for x in recs) / 8, abs=1e-4)
    assert all(1 <= x.rank <= 4 for x in recs)
    assert all((x.margin > 0) <= (x.win == 1.0) for x in recs)
    assert [x.seat for x in recs] == [0, 1, 2, 3] * 2
    lat = result.latency
    assert lat["decisions"] > 0 and lat["p50_ms"] <= lat["p99_ms"] <= lat["max_ms"]


def test_same_task_same_policy_same_result():
    a = evaluate("scallywags-2p-heldout", "pretrained:early", games=4)
    b = evaluate("scallywags-2p-heldout", "pretrained:early", games=4)
    assert [vars(r) for r in a.records] == [vars(r) for r in b.records]


def test_onnx_file_callable_factory_and_bot_spec_give_identical_results():
    """The shipped All Hands crew bot as a .onnx path, as pretrained:final, and as its numpy
    twin through module:callable and module:factory() play the same games."""
    pytest.importorskip("onnx")
    path = str(pretrained_path("all_hands_crew_v0", 2, "final"))
    task = "all-hands-crew-2p-heldout"
    results = {spec: evaluate(task, spec, games=12) for spec in
               [path, "pretrained:final", "tests.benchmark.numpy_twin:crew_2p_final",
                "tests.benchmark.numpy_twin:make_twin()"]}
    kinds = [r.policy_kind for r in results.values()]
    assert kinds == ["onnx", "bot", "callable", "factory"]
    records = [[vars(x) for x in r.records] for r in results.values()]
    assert records[0] == records[1] == records[2] == records[3]
    scores = [r.to_dict()["results"] for r in results.values()]
    for s in scores:
        s["rating"] = {k: v for k, v in s["rating"].items() if k != "entrant"}
    assert scores[0] == scores[1] == scores[2] == scores[3]


def test_a_python_callable_can_be_passed_directly():
    pytest.importorskip("onnx")    # the numpy twin reads the shipped bot's weights with it
    from .numpy_twin import crew_2p_final

    a = evaluate("all-hands-crew-2p-heuristic", crew_2p_final, games=4)
    b = evaluate("all-hands-crew-2p-heuristic", "pretrained:final", games=4)
    assert [vars(r) for r in a.records] == [vars(r) for r in b.records]
    assert a.to_dict()["command"] is None


def test_an_illegal_action_is_an_error_naming_task_game_and_seat():
    with pytest.raises(BenchmarkError, match=r"task scallywags-2p-heuristic \(scallywags_v0\), "
                                             r"game \d+, seat \d: the policy returned the "
                                             r"illegal action 0; legal actions: "):
        evaluate("scallywags-2p-heuristic", "tests.benchmark.numpy_twin:always_zero", games=4)
    with pytest.raises(BenchmarkError, match="returned 'fold' .*not an integer action"):
        evaluate("scallywags-2p-heuristic", "tests.benchmark.numpy_twin:not_an_int", games=1)


@pytest.mark.parametrize("spec, error, match", [
    ("no_such_module_xyz:act", InvalidArgumentError, "cannot import module 'no_such_module_xyz'"),
    ("tests.benchmark.numpy_twin:missing", InvalidArgumentError, "has no attribute 'missing'"),
    ("justaword", InvalidArgumentError, "neither a .onnx file, a module:callable nor a bot"),
    ("search:x", InvalidArgumentError, "must be a whole number written with the digits 0-9"),
    ("pretrained:medium", InvalidArgumentError, "names no strength"),
    ("missing-file.onnx", ModelFileError, "no bot file at missing-file.onnx"),
])
def test_bad_policy_specs_are_refused_before_any_game(spec, error, match):
    with pytest.raises(error, match=match):
        evaluate("shipshape-2p-heuristic", spec, games=1)


def test_a_bot_of_another_game_or_player_count_is_refused():
    with pytest.raises(ModelFileError,
                       match="is a bot for 'shipshape_v0', not for 'scallywags_v0'"):
        evaluate("scallywags-2p-heuristic", str(pretrained_path("shipshape_v0", 2)), games=1)
    with pytest.raises(ModelFileError, match="trained for 4 players, not 2"):
        evaluate("shipshape-2p-heuristic", str(pretrained_path("shipshape_v0", 4)), games=1)


def test_games_must_fit_the_task():
    with pytest.raises(InvalidArgumentError, match="has 1000 games"):
        evaluate("shipshape-2p-heuristic", "random", games=1001)
    with pytest.raises(InvalidArgumentError, match="positive whole number"):
        evaluate("shipshape-2p-heuristic", "random", games=0)


def test_cli_run_prints_a_table_and_writes_json(tmp_path):
    out = tmp_path / "r.json"
    res = run_cli(["benchmark", "run", "shipshape-2p-heldout", "--policy", "heuristic",
                   "--games", "4", "--json-out", str(out)])
    assert res.exit_code == 0, res.output
    for word in ("win share", "95% CI", "mean rank", "score margin", "rating",
                 "latency p50 / p99"):
        assert word in res.output
    assert all(len(line) <= 80 for line in res.output.splitlines()
               if not line.startswith("wrote "))
    data = json.loads(out.read_text())
    assert validate(data, SCHEMA) == []
    assert data["command"].startswith("plunder benchmark run shipshape-2p-heldout")
    res = run_cli(["benchmark", "run", "shipshape-2p-heldout", "--policy", "heuristic",
                   "--games", "2", "--json"])
    assert json.loads(res.output)["games"] == 2


def test_cli_errors_are_one_line():
    res = run_cli(["benchmark", "run", "nope", "--policy", "heuristic"])
    assert res.exit_code != 0 and "Error: unknown benchmark task 'nope'" in res.output
    res = run_cli(["benchmark", "run", "scallywags-2p-heuristic", "--policy",
                   "tests.benchmark.numpy_twin:always_zero", "--games", "2"])
    assert res.exit_code != 0 and "Error: task scallywags-2p-heuristic" in res.output


def test_cli_list_shows_every_task():
    res = run_cli(["benchmark", "list"])
    assert res.exit_code == 0
    for name in TASKS:
        assert name in res.output
    listed = json.loads(run_cli(["benchmark", "list", "--json"]).output)
    assert [t["name"] for t in listed] == list(TASKS)


#: the modules the evaluation path must not need: torch, SB3, onnx and the `cli` extra's
NOT_NEEDED = ("torch", "stable_baselines3", "sb3_contrib", "onnx", "yaml", "click", "tqdm", "rich")
EVALUATE = """
from plunder.training.benchmark import evaluate
r = evaluate('scallywags-2p-ladder', 'pretrained:final', games=4).to_dict()
r2 = evaluate('shipshape-2p-heldout', {path!r}, games=2).to_dict()
assert r['results']['rating'] is not None or r['rating_model'] is None
print('OK', sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'sb3_contrib')))
"""


def test_evaluating_needs_no_torch():
    """The evaluation path in a fresh interpreter with torch, SB3, onnx and the `cli`
    extra's click and PyYAML unimportable."""
    code = blocker(NOT_NEEDED) + EVALUATE.format(path=str(pretrained_path("shipshape_v0", 2)))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "OK []"
