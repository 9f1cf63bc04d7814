"""Tournaments: line-ups, statistics, the eval command."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from conftest import run_cli

from plunder.training.evaluate import bot_factories, run_tournament, schedule, wilson


def test_schedule_rotates_every_bot_through_every_seat():
    for k, n in [(2, 2), (2, 4), (3, 3), (3, 2), (4, 2)]:
        lineups = schedule(k, n)
        for seat in range(n):
            counts = Counter(l[seat] for l in lineups)
            total = Counter(b for l in lineups for b in l)
            # every seat sees each bot in proportion to how many seats the bot fills
            assert all(counts[b] * n == total[b] for b in range(k)), (k, n, seat, counts)
        if k <= n:
            assert all(l.count(k - 1) == n - k + 1 for l in lineups)
        else:
            assert all(len(set(l)) == n for l in lineups)


def test_wilson():
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == 1.0


def test_heuristic_beats_random_and_stats_add_up():
    facs = bot_factories(["heuristic", "random"], "scallywags_v0", 2)
    t = run_tournament("scallywags_v0", 2, facs, 40, seed=1)
    h, r = t.bots
    assert h.seat_games == r.seat_games == 40
    assert h.wins + r.wins == pytest.approx(40 - t.truncated, abs=1e-9) or t.truncated
    assert h.win_share > r.win_share and h.mu > r.mu
    data = t.to_dict()
    assert data["bots"][0]["ci95"][0] <= data["bots"][0]["win_share"] <= data["bots"][0]["ci95"][1]


def test_eval_command_table_and_json():
    res = run_cli(["eval", "scallywags", "--bots", "heuristic,random", "--games", "8",
                   "--players", "4"])
    assert res.exit_code == 0, res.output
    assert "heuristic" in res.output and "95% CI" in res.output
    res = run_cli(["eval", "scallywags", "--bots", "heuristic,random", "--games", "8",
                   "--players", "4", "--json"])
    data = json.loads(res.output)
    assert [b["seat_games"] for b in data["bots"]] == [8, 24] and data["parity"] == 0.25
    res = run_cli(["eval", "scallywags", "--bots", "nonsense", "--games", "2"])
    assert res.exit_code != 0 and "unknown bot" in res.output


def test_training_summary_says_how_many_games_hit_the_turn_limit():
    import io
    from types import SimpleNamespace

    from rich.console import Console

    from plunder.training.train import render_summary

    row = {"num_players": 2, "games": 400, "win_share": 0.379, "ci95": [0.333, 0.427],
           "parity": 0.5, "mean_score": 30.0, "opponent_mean_score": 35.0,
           "rating": [20.0, 25.0]}
    summary = {"random": {**row, "truncated_games": 0},
               "heuristic": {**row, "truncated_games": 313}}
    out = io.StringIO()
    render_summary(SimpleNamespace(env_id="anchors_aweigh_v0", num_players=2), summary,
                   1000, console=Console(file=out, width=200))
    text = out.getvalue()
    assert "against heuristic: 313 of 400 games hit the turn limit" in text
    assert "against random" not in text
