"""The `plunder` command line: list, play (scripted input), bench."""

from __future__ import annotations

import json

import pytest

from click.testing import CliRunner

from plunder.envs import ENV_IDS
from plunder.training.cli import main
from plunder.training.play import parse_choice, play


def test_list_names_every_game():
    out = CliRunner().invoke(main, ["list"])
    assert out.exit_code == 0
    for env_id in ENV_IDS:
        assert env_id in out.output


def test_parse_choice_by_number_and_name():
    names = {3: "play ARRGH!", 20: "coin 2", 21: "coin 3"}
    legal = list(names)
    assert parse_choice("3", legal, names) == 3
    assert parse_choice("play a", legal, names) == 3
    assert parse_choice("coin 2", legal, names) == 20
    assert parse_choice("coin", legal, names) is None      # ambiguous
    assert parse_choice("99", legal, names) is None


def test_a_person_can_play_a_whole_game_against_bots():
    """Answers always pick the first legal action (by number); the game ends."""
    shown = []

    def ask(prompt):
        # the last listed move is on the line after "Your move:"
        idx = max(i for i, line in enumerate(shown) if line == "Your move:")
        return shown[idx + 1].split()[0]

    scores = play("scallywags_v0", seat=1, bots=["heuristic", "random"], num_players=3,
                  seed=4, ask=ask, say=shown.append)
    assert len(scores) == 3
    assert any("seen by player_1" in s for s in shown)
    assert not any("omniscient" in s for s in shown)
    assert "Game over" in shown[-1]


def test_play_command_stops_cleanly_without_input():
    out = CliRunner().invoke(main, ["play", "scallywags", "--seed", "1"], input="")
    assert out.exit_code == 0
    assert "no more input" in out.output


def test_play_rejects_an_unknown_game():
    out = CliRunner().invoke(main, ["play", "monopoly"])
    assert out.exit_code != 0 and "unknown game" in out.output


def test_bench_prints_a_table():
    out = CliRunner().invoke(main, ["bench", "--seconds", "0.2", "--no-train",
                                    "--game", "scallywags"])
    assert out.exit_code == 0, out.output
    assert "agent-steps/s" in out.output and "scallywags_v0" in out.output


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_every_game_can_be_played_by_a_person(env_id):
    shown = []

    def ask(prompt):
        idx = max(i for i, line in enumerate(shown) if line == "Your move:")
        return shown[idx + 1].split()[0]

    scores = play(env_id, seat=0, bots=["random"], num_players=2, seed=1, ask=ask,
                  say=shown.append, max_turns=15)
    assert len(scores) == 2
    assert any(line == "Your move:" for line in shown)
    assert "Game over" in shown[-1]
