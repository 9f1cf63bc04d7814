"""``plunder benchmark targets``: the targets table, each cell a replayable ``plunder eval``."""

from __future__ import annotations

import json

import pytest

from plunder.training.benchmark.targets import many_players, targets
from plunder.envs import ENV_IDS
from plunder.envs.core import InvalidArgumentError
from plunder.training.evaluation import bot_factories, run_tournament

from .test_run import run_cli


def test_every_game_is_judged_at_two_and_at_four_players():
    assert {many_players(e) for e in ENV_IDS} == {4}   # every game seats 4 (else its cap)


def test_each_cell_is_the_plunder_eval_tournament_its_command_names():
    data = targets(games=6, seed=3, env_ids=["scallywags_v0"], bot="random", echo=lambda s: 0)
    cells = data["cells"]
    assert [(c["players"], c["opponent"]) for c in cells] == [
        (2, "random"), (2, "heuristic"), (4, "heuristic")]
    assert [c["target"] for c in cells] == pytest.approx([0.95, 0.60, 0.40])
    for c in cells:
        assert c["command"] == (f"plunder eval scallywags --bots random,{c['opponent']} "
                                f"--players {c['players']} --games 6 --seed 3")
        bots = bot_factories(["random", c["opponent"]], "scallywags_v0", c["players"])
        alone = run_tournament("scallywags_v0", c["players"], bots, games=6, seed=3,
                               rate=False)
        assert c["win_share"] == alone.bots[0].win_share
        assert c["met"] == (c["win_share"] >= c["target"])
    assert data["met"] == sum(c["met"] for c in cells) and data["total"] == 3
    json.dumps(data)


def test_cells_in_worker_processes_are_the_cells_of_one_process():
    """``--workers`` changes where the cells' tournaments run, not their games."""
    kwargs = dict(games=6, seed=4, env_ids=["scallywags_v0", "shipshape_v0"], bot="random")
    lines = []
    in_processes = targets(workers=2, echo=lines.append, **kwargs)
    assert in_processes == targets(workers=1, echo=lambda s: 0, **kwargs)
    assert lines == ["6 cells in 2 processes"]


def test_the_search_row_needs_its_interval_above_half():
    data = targets(games=2, seed=0, env_ids=["scallywags_v0"], bot="random",
                   search_games=2, echo=lambda s: 0)
    search = data["cells"][-1]
    assert (search["bot"], search["opponent"], search["players"]) == (
        "netsearch:pretrained", "random", 2)
    assert search["met"] == (search["ci95"][0] > 0.5)
    assert not search["met"]          # two games cannot put a Wilson interval above 50%


def test_bad_arguments_are_refused():
    with pytest.raises(InvalidArgumentError, match="unknown env id"):
        targets(games=2, env_ids=["chess_v0"], echo=lambda s: 0)
    with pytest.raises(InvalidArgumentError, match="games and workers must be"):
        targets(games=0, echo=lambda s: 0)
    with pytest.raises(InvalidArgumentError, match="games and workers must be"):
        targets(games=2, workers=0, echo=lambda s: 0)


def test_the_cli_prints_the_table_and_writes_json(tmp_path):
    out = tmp_path / "t.json"
    result = run_cli(["benchmark", "targets", "--game", "shipshape", "--bot", "heuristic",
                      "--games", "3", "--seed", "2", "--json-out", str(out)])
    assert result.exit_code == 0, result.output
    rows = [line.split() for line in result.output.splitlines()]
    assert ["shipshape", "4", "heuristic", "3"] in [r[:4] for r in rows]
    assert ["vs", "heuristic"] in [r[:2] for r in rows]
    assert "targets met" in result.output
    assert all(len(line) <= 80 for line in result.output.splitlines()
               if not line.startswith("wrote "))
    data = json.loads(out.read_text())
    assert data["command"] == ("plunder benchmark targets --game shipshape --bot heuristic "
                               "--games 3 --seed 2 --json-out " + str(out))
    assert len(data["cells"]) == 3
    bad = run_cli(["benchmark", "targets", "--game", "nosuchgame", "--games", "2"])
    assert bad.exit_code != 0 and "Error" in bad.output
