"""``plunder benchmark leaderboard``: one round robin of a table's bots (the named levels by
default), OpenSkill ratings on an Elo-equivalent scale with intervals, the adjacent-level
check, win shares and decision latency (measured and reported, never asserted as a
timing)."""

from __future__ import annotations

import json
import math

import pytest

from plunder.training.benchmark.leaderboard import (ELO_PER_MU, LEVEL_GAP, default_bots, elo,
                                                    head_to_head_elo, leaderboard_markdown,
                                                    pairing_seed, pairings, rate_board,
                                                    run_leaderboard, write_leaderboard)

from .test_run import run_cli

pytest.importorskip("onnxruntime")
pytest.importorskip("openskill")

QUIET = {"echo": lambda s: None}


def test_pairings_are_unordered_for_two_players_and_ordered_for_more():
    assert pairings(3, 2) == [(0, 1), (0, 2), (1, 2)]
    assert len(pairings(3, 4)) == 6 and (1, 0) in pairings(3, 4)


def test_the_elo_scale_reads_the_plackett_luce_win_probability_as_elo():
    # two bots of small sigma: PL's first-place probability exp(mu_a/c) / (exp(mu_a/c) +
    # exp(mu_b/c)) with c = sqrt(2) beta is Elo's win probability of the converted ratings
    c = math.sqrt(2) * 25 / 6
    p = math.exp(27.0 / c) / (math.exp(27.0 / c) + math.exp(25.0 / c))
    assert elo(25.0) == 1500.0
    assert elo(27.0) - elo(25.0) == pytest.approx(head_to_head_elo(p), abs=1e-9)
    assert ELO_PER_MU == pytest.approx(400 / (math.log(10) * math.sqrt(2) * 25 / 6))
    assert head_to_head_elo(0.5) == 0.0 and head_to_head_elo(10 / 11) == pytest.approx(
        400 * math.log10(10))


@pytest.mark.parametrize("share", [0.6, 0.8])
def test_ratings_of_many_games_give_about_the_head_to_head_elo(share):
    plan, played = _synthetic({(0, 1): share}, games=2000)
    board = rate_board("scallywags_v0", 2, ("a", "b"), plan, played, **QUIET)
    gap = board["entries"][0]["rating"]["elo"] - board["entries"][1]["rating"]["elo"]
    assert gap == pytest.approx(head_to_head_elo(share), rel=0.15)


def _synthetic(shares: dict, games: int = 400):
    """A 2-player plan where the first bot of each pair wins ``shares[pair]`` of the games,
    spread evenly (seats alternate), in the form rate_board reads played games."""
    plan, played = [], []
    for (a, b), share in shares.items():
        lineups, keys = [], []
        for g in range(games):
            lineup = [0, 1] if g % 2 == 0 else [1, 0]
            first_wins = math.floor((g + 1) * share) > math.floor(g * share)
            keys.append([[1.0] if (lineup[s] == 0) == first_wins else [0.0] for s in range(2)])
            lineups.append(lineup)
        plan.append((a, b, games, 0))
        played.append({"lineups": lineups, "keys": keys, "truncated": 0,
                       "latency_ns": [[1000], [1000]], "seconds": 0.0})
    return plan, played


def test_ratings_follow_the_games_and_adjacent_levels_are_checked_against_100_points():
    bots = ("level:novice", "level:casual", "level:strong")
    # casual beats novice 80% (+241 head to head), strong beats casual 60% (+70)
    plan, played = _synthetic({(0, 1): 0.2, (0, 2): 0.1, (1, 2): 0.4})
    board = rate_board("scallywags_v0", 2, bots, plan, played, **QUIET)
    cells = {(c["bot"], c["opponent"]): c for c in board["pairings"]}
    assert cells[("level:novice", "level:casual")]["win_share"] == 0.2
    gaps = {(g["lower"], g["upper"]): g for g in board["level_gaps"]}
    assert set(gaps) == {("novice", "casual"), ("casual", "strong")}
    low, high = gaps[("novice", "casual")], gaps[("casual", "strong")]
    assert low["head_to_head_elo"] == pytest.approx(400 * math.log10(4), abs=0.1)
    assert low["elo_gap"] > LEVEL_GAP and low["apart"]
    assert high["elo_gap"] < LEVEL_GAP and not high["apart"] and not high["sure"]
    assert low["ci95"][0] < low["elo_gap"] < low["ci95"][1]
    # the rating gaps agree with the head-to-head Elo in sign and rough size
    assert 0 < high["elo_gap"] < low["elo_gap"]
    for e in board["entries"]:
        lo, hi = e["rating"]["elo_ci95"]
        assert lo < e["rating"]["elo"] < hi
        assert e["rating"]["elo"] == pytest.approx(elo(e["rating"]["mu"]), abs=0.06)
    md = leaderboard_markdown(dict(board, command="cmd", plunder_version="x", measured_at="t",
                                   wall_seconds=1.0, shipped_bots={}))
    assert "novice -> casual: +" in md and "casual -> strong: +" in md
    assert "NOT 100 apart" in md and "Elo-equivalent" in md


@pytest.mark.slow
def test_the_default_board_rates_the_levels(tmp_path):
    bots = default_bots("shipshape_v0", 2, **QUIET)
    assert bots == ("random", "level:novice", "level:casual", "level:strong", "level:expert",
                    "planner")
    board = run_leaderboard("shipshape", 2, games=2, search_games=1, cache_dir=tmp_path,
                            **QUIET)
    assert board["bots"] == list(bots) and len(board["pairings"]) == 15
    for cell in board["pairings"]:
        slow = "level:expert" in (cell["bot"], cell["opponent"])
        assert cell["games"] == (1 if slow else 2)
        assert cell["tournament_seed"] == pairing_seed("shipshape_v0", 2, cell["bot"],
                                                       cell["opponent"]) >= 2**40
    plays = {e["bot"]: e["plays"] for e in board["entries"]}
    assert plays["level:expert"] == "netsearch:pretrained" and plays["random"] == "random"
    assert [g["lower"] for g in board["level_gaps"]] == ["novice", "casual", "strong"]
    for e in board["entries"]:
        assert e["latency"]["decisions"] > 0
        assert e["latency"]["p50_ms"] <= e["latency"]["p99_ms"]
    md_path, json_path = write_leaderboard(board, tmp_path)
    md = md_path.read_text()
    assert md_path.name == "shipshape-2p.md"
    for bot in bots:
        assert f"`{bot}`" in md
    placeholder = any(v["placeholder"] for v in board["shipped_bots"].values())
    assert ("Placeholder bots" in md) == placeholder
    assert json.loads(json_path.read_text())["schema_version"] == "plunder-leaderboard/2"


def test_a_table_without_its_networks_rates_the_levels_it_has():
    lines = []
    bots = default_bots("scallywags_v0", 3, echo=lines.append)
    assert bots == ("random", "level:novice", "level:casual")
    assert any("level strong (pretrained) is left out: no pretrained final bot" in line
               for line in lines)


def test_chunks_workers_and_a_resumed_cache_give_the_same_board(tmp_path):
    kw = dict(games=5, bots=("random", "heuristic"), chunk_size=2, **QUIET)
    one = run_leaderboard("scallywags", 2, cache_dir=tmp_path, **kw)
    folder = tmp_path / one["cache"].rsplit("/", 1)[-1]
    files = sorted(folder.glob("0-1-*.json"))
    assert len(files) == 3                       # 2 + 2 + 1 games
    files[1].unlink()                            # as if stopped before that chunk
    resumed = run_leaderboard("scallywags", 2, cache_dir=tmp_path, **kw)
    parallel = run_leaderboard("scallywags", 2, workers=2, **kw)
    for board in (resumed, parallel):
        assert board["entries"][0]["rating"] == one["entries"][0]["rating"]
        assert board["pairings"][0]["win_share"] == one["pairings"][0]["win_share"]
    other = run_leaderboard("scallywags", 2, seed=3, **kw)
    assert other["pairings"][0]["tournament_seed"] != one["pairings"][0]["tournament_seed"]


def test_a_four_player_board_puts_the_row_bot_in_one_seat(tmp_path):
    res = run_cli(["benchmark", "leaderboard", "scallywags", "--players", "4", "--games", "4",
                   "--bots", "random,heuristic,pretrained:final", "--out-dir", str(tmp_path),
                   "--doc", "-", "--cache-dir", "-"])
    assert res.exit_code == 0, res.output
    board = json.loads((tmp_path / "scallywags-4p.json").read_text())
    cells = {(c["bot"], c["opponent"]): c for c in board["pairings"]}
    assert ("random", "heuristic") in cells and ("heuristic", "random") in cells
    assert "in one seat against the column bot in the other 3" in leaderboard_markdown(board)
    assert board["command"].startswith("plunder benchmark leaderboard scallywags --players 4")
    assert "Elo-equivalent, 95% interval" in res.output


def test_check_fails_the_command_when_levels_are_too_close(tmp_path, monkeypatch):
    import plunder.training.benchmark.leaderboard as lb

    args = ["benchmark", "leaderboard", "scallywags", "--players", "2", "--games", "2",
            "--bots", "level:novice,level:casual", "--out-dir", str(tmp_path), "--doc", "-",
            "--cache-dir", "-"]
    monkeypatch.setattr(lb, "LEVEL_GAP", 1e9)       # no two levels are that far apart
    res = run_cli([*args, "--check"])
    assert res.exit_code == 1, res.output
    assert "levels less than 100 points apart: scallywags_v0 2p novice -> casual" in res.output
    assert run_cli(args).exit_code == 0             # without --check it only reports


def test_a_board_needs_a_player_count_unless_all_and_two_bots():
    res = run_cli(["benchmark", "leaderboard", "scallywags"])
    assert res.exit_code != 0 and "--players is required (or GAME 'all')" in res.output
    res = run_cli(["benchmark", "leaderboard", "scallywags", "--players", "2", "--bots",
                   "random"])
    assert res.exit_code != 0 and "at least two bots" in res.output
    res = run_cli(["benchmark", "leaderboard", "scallywags", "--players", "2", "--bots",
                   "random,level:hard", "--cache-dir", "-", "--doc", "-"])
    assert res.exit_code != 0 and "unknown level 'hard'" in res.output


def test_boards_are_embedded_in_the_doc_and_replaced_on_rerun(tmp_path):
    from plunder.training.benchmark.leaderboard import embed_in_doc

    doc = tmp_path / "doc.md"
    doc.write_text("# x\n\n<!-- leaderboards:begin -->\n<!-- leaderboards:end -->\ntail\n")
    board = run_leaderboard("shipshape", 2, games=2, bots=("random", "heuristic"),
                            command="cmd", **QUIET)
    embed_in_doc(board, doc)
    first = doc.read_text()
    assert first.count("### shipshape_v0, 2 players") == 1 and first.endswith("tail\n")
    board4 = run_leaderboard("scallywags", 4, games=4, bots=("random", "heuristic"),
                             command="cmd4", **QUIET)
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
