"""The task registry: names, seeds, line-ups, the docs table, and held-out opponents that
no packaged training config names."""

from __future__ import annotations

import collections
import dataclasses
import re
from pathlib import Path

import pytest
import yaml

from plunder.training.benchmark import TASKS, get_task, held_out_specs
from plunder.training.benchmark.tasks import BENCHMARK_SEED_BASE, tasks_markdown
from plunder.envs import ENV_IDS
from plunder.envs.core import InvalidArgumentError
from plunder.training.evaluation import game_seed

ROOT = Path(__file__).resolve().parents[2]


def test_every_game_has_tasks_at_2_and_4_players_with_a_held_out_set():
    for env_id in ENV_IDS:
        for n in (2, 4):
            mine = [t for t in TASKS.values() if t.env_id == env_id and t.num_players == n]
            assert {"heuristic", "ladder", "heldout"} <= {t.name.rsplit("-", 1)[1] for t in mine}
            assert any(t.held_out for t in mine)


def test_seeds_are_distinct_and_above_every_training_runs_evaluation_seeds():
    seeds = [t.seed for t in TASKS.values()]
    assert len(set(seeds)) == len(seeds)
    assert min(seeds) >= BENCHMARK_SEED_BASE > 2**32
    assert all(game_seed(s, 0) >= 2**64 for s in seeds)


def test_tasks_are_frozen_and_unknown_names_are_refused():
    task = get_task("scallywags-2p-heuristic")
    with pytest.raises(dataclasses.FrozenInstanceError):
        task.games = 3
    with pytest.raises(InvalidArgumentError, match="unknown benchmark task 'scallywags-9p'"):
        get_task("scallywags-9p")


def test_lineups_rotate_the_seat_and_cover_every_opponent_combination_equally():
    task = get_task("shipshape-4p-ladder")
    k, n = len(task.opponents), task.num_players
    cycle = n * k ** (n - 1)
    counts = collections.Counter()
    for g in range(cycle):
        seat, lineup = task.lineup(g)
        assert lineup[seat] == -1 and sum(b < 0 for b in lineup) == 1
        counts[(seat, tuple(b for b in lineup if b >= 0))] += 1
    assert len(counts) == cycle and set(counts.values()) == {1}


def test_docs_table_matches_the_registry():
    text = (ROOT / "docs" / "benchmark.md").read_text()
    m = re.search(r"<!-- tasks:begin -->\n(.*?)<!-- tasks:end -->", text, re.S)
    assert m, "docs/benchmark.md lacks the tasks:begin/end markers"
    assert m.group(1) == tasks_markdown(), \
        "docs/benchmark.md is stale: paste `plunder benchmark list --markdown` between the markers"


# -- held-out opponents ---------------------------------------------------------------------

def named_held_out(config: dict) -> list[str]:
    """Held-out bots a training config names: as a string anywhere in it (eval opponents,
    onnx opponents, comments parsed away) or as a file among the shipped pretrained bots."""
    from plunder.policies.pretrained import PRETRAINED_DIR

    held = held_out_specs()
    kinds = {s.split(":", 1)[0] for s in held}
    found = []

    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                walk(k)
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
        elif isinstance(x, str):
            if x in held or x.split(":", 1)[0] in kinds or "pretrained" in x \
                    or Path(x).name.endswith(("_early.onnx", "_final.onnx")) \
                    or Path(x).resolve().parent == PRETRAINED_DIR:
                found.append(x)
    walk(config)
    return found


def test_the_held_out_scan_finds_a_held_out_bot():
    """The scan below can fail: a config naming a held-out bot is caught, however named."""
    assert named_held_out({"eval": {"opponents": ["random", "pretrained:final"]}})
    assert named_held_out({"league": {"onnx_opponents": ["x/scallywags_2p_final.onnx"]}})
    assert named_held_out({"eval": {"opponents": ["search:4"]}})
    assert not named_held_out({"eval": {"opponents": ["random", "heuristic"]}})


@pytest.mark.parametrize("path", sorted((ROOT / "configs" / "train").glob("*.yaml")),
                         ids=lambda p: p.stem)
def test_no_packaged_training_config_names_a_held_out_opponent(path):
    from plunder.training.selfplay.cells import config_cells

    raw = yaml.safe_load(path.read_text())
    assert named_held_out(raw) == []
    for cell in config_cells(path.stem):    # every player count and variant it names
        assert named_held_out(cell.config().to_dict()) == [], (path, cell.name)


def test_held_out_sets_hold_only_bots_outside_the_training_league():
    league_kinds = {"random", "heuristic", "snapshots", "onnx"}
    for spec in held_out_specs():
        assert spec.split(":", 1)[0] not in league_kinds


def test_tasks_that_play_shipped_bots_take_their_revision_as_version():
    from plunder.training.benchmark.ship import next_revision
    from plunder.training.benchmark.tasks import pretrained_revision
    from plunder.policies.pretrained import load_manifest

    manifest = load_manifest()
    for task in TASKS.values():
        plays_shipped = any(s.startswith("pretrained") for s in task.opponents)
        expected = pretrained_revision(task.env_id, task.num_players, manifest)
        assert task.version == (expected if plays_shipped else 1), task.name
    # shipping the same file keeps the revision; a different file counts it up
    entry = {"sha256": "a" * 64, "revision": 2}
    assert next_revision(None, "a" * 64) == 1
    assert next_revision(entry, "a" * 64) == 2
    assert next_revision(entry, "b" * 64) == 3
    assert next_revision({"sha256": "a" * 64}, "b" * 64) == 2
    fake = {"bots": {"x": {"env_id": "shipshape_v0", "num_players": 2, "revision": 3},
                     "y": {"env_id": "shipshape_v0", "num_players": 2}},
            "format": manifest["format"]}
    assert pretrained_revision("shipshape_v0", 2, fake) == 3
    assert pretrained_revision("shipshape_v0", 4, fake) == 1
