"""``plunder benchmark leaderboard``: every shipped bot in pairwise tournaments, ratings and
decision latency (measured and reported, never asserted as a timing)."""

from __future__ import annotations

import importlib.util
import json

import pytest

from plunder.training.benchmark.leaderboard import (LEADERBOARD_BOTS, leaderboard_markdown, pairings,
                                           run_leaderboard, write_leaderboard)

from .test_run import run_cli

pytest.importorskip("onnxruntime")


def test_pairings_are_unordered_for_two_players_and_ordered_for_more():
    assert pairings(3, 2) == [(0, 1), (0, 2), (1, 2)]
    assert len(pairings(3, 4)) == 6 and (1, 0) in pairings(3, 4)


@pytest.mark.slow
def test_the_default_leaderboard_plays_every_bot(tmp_path):
    board = run_leaderboard("shipshape", 2, games=2, search_games=1, echo=lambda s: None)
    assert board["bots"] == list(LEADERBOARD_BOTS)
    assert len(board["pairings"]) == 21
    for cell in board["pairings"]:
        slow = any(b.split(":")[0] in ("search", "netsearch") for b in (cell["bot"],
                                                                         cell["opponent"]))
        assert cell["games"] == (1 if slow else 2)
        assert cell["tournament_seed"] > 2**32
    for e in board["entries"]:
        assert e["latency"]["decisions"] > 0
        assert e["latency"]["p50_ms"] <= e["latency"]["p99_ms"]
        if importlib.util.find_spec("openskill"):
            assert e["rating"]["sigma"] > 0
        else:                   # openskill is in the train extra: no rating, not the prior
            assert e["rating"] is None
    md_path, json_path = write_leaderboard(board, tmp_path)
    md = md_path.read_text()
    assert md_path.name == "shipshape-2p.md"
    for bot in LEADERBOARD_BOTS:
        assert f"`{bot}`" in md
    assert "latency p99" in md
    # the warning stands exactly when a bot measured is a placeholder
    placeholder = any(v["placeholder"] for v in board["shipped_bots"].values())
    assert ("Placeholder bots" in md) == placeholder
    marked = dict(board, shipped_bots={k: dict(v, placeholder=True)
                                       for k, v in board["shipped_bots"].items()})
    assert "Placeholder bots" in write_leaderboard(marked, tmp_path / "p")[0].read_text()
    assert json.loads(json_path.read_text())["schema_version"] == "plunder-leaderboard/1"


def test_a_four_player_board_puts_the_row_bot_in_one_seat(tmp_path):
    res = run_cli(["benchmark", "leaderboard", "scallywags", "--players", "4", "--games", "4",
                   "--bots", "random,heuristic,pretrained:final", "--out-dir", str(tmp_path),
                   "--doc", "-"])
    assert res.exit_code == 0, res.output
    board = json.loads((tmp_path / "scallywags-4p.json").read_text())
    cells = {(c["bot"], c["opponent"]): c for c in board["pairings"]}
    assert ("random", "heuristic") in cells and ("heuristic", "random") in cells
    assert "in one seat against the column bot in the other 3" in leaderboard_markdown(board)
    assert board["command"].startswith("plunder benchmark leaderboard scallywags --players 4")


def test_a_board_needs_a_player_count_unless_all():
    res = run_cli(["benchmark", "leaderboard", "scallywags"])
    assert res.exit_code != 0 and "--players is required (or GAME 'all')" in res.output
    res = run_cli(["benchmark", "leaderboard", "scallywags", "--players", "3", "--bots",
                   "random,heuristic"])
    assert res.exit_code != 0 and "no default for scallywags_v0 at 3 players" in res.output
    res = run_cli(["benchmark", "leaderboard", "scallywags", "--players", "2", "--bots",
                   "random"])
    assert res.exit_code != 0 and "at least two bots" in res.output


def test_boards_are_embedded_in_the_doc_and_replaced_on_rerun(tmp_path):
    from plunder.training.benchmark.leaderboard import embed_in_doc

    doc = tmp_path / "doc.md"
    doc.write_text("# x\n\n<!-- leaderboards:begin -->\n<!-- leaderboards:end -->\ntail\n")
    board = run_leaderboard("shipshape", 2, games=2, bots=("random", "heuristic"),
                            command="cmd", echo=lambda s: None)
    embed_in_doc(board, doc)
    first = doc.read_text()
    assert first.count("### shipshape_v0, 2 players") == 1 and first.endswith("tail\n")
    board4 = run_leaderboard("scallywags", 4, games=4, bots=("random", "heuristic"),
                             command="cmd4", echo=lambda s: None)
    embed_in_doc(board4, doc)
    board["command"] = "cmd again"
    embed_in_doc(board, doc)
    text = doc.read_text()
    assert text.count("### shipshape_v0, 2 players") == 1 and "`cmd again`" in text
    assert "`cmd`" not in text and "`cmd4`" in text
    assert text.index("scallywags_v0, 4 players") < text.index("shipshape_v0, 2 players")
    with pytest.raises(Exception, match="has no <!-- leaderboards:begin -->"):
        (tmp_path / "bare.md").write_text("# nothing\n")
        embed_in_doc(board, tmp_path / "bare.md")
