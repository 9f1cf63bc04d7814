"""The `plunder` command line: list, play (scripted input), speed, --version."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from click.testing import CliRunner

from plunder.envs import ENV_IDS
from plunder.training.cli.commands import main
from plunder.training.play.terminal import parse_choice, play


def test_list_names_every_game():
    out = CliRunner().invoke(main, ["list"])
    assert out.exit_code == 0
    for env_id in ENV_IDS:
        assert env_id in out.output


def test_parse_choice_by_number_and_words():
    names = {3: "play ARRGH!", 20: "take face-down coin #2 from the middle",
             21: "take face-down coin #23 from the middle"}
    legal = list(names)
    assert parse_choice("1", legal, names) == 3            # the number shown beside it
    assert parse_choice("3", legal, names) == 21
    assert parse_choice("play a", legal, names) == 3
    assert parse_choice("take face-down coin #2 from the middle", legal, names) == 20
    assert parse_choice("#23", legal, names) == 21         # a word only one move has
    assert parse_choice("#2", legal, names) == 20          # not the start of #23
    assert parse_choice("take", legal, names) is None      # ambiguous
    assert parse_choice("99", legal, names) is None
    assert parse_choice("0", legal, names) is None


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
    assert "\nGame over." in shown and shown[-1].startswith("Scores:")


def test_play_command_stops_cleanly_without_input():
    out = CliRunner().invoke(main, ["play", "scallywags", "--seed", "1"], input="")
    assert out.exit_code == 0
    assert "no more input" in out.output


@pytest.mark.parametrize("args,message", [
    (["monopoly"], "unknown game 'monopoly'"),
    (["scallywags", "--players", "9"], "2-6 players, got 9"),
    (["scallywags", "--players", "1"], "2-6 players, got 1"),
    (["scallywags", "--players", "two"], "'two' is not a valid integer"),
    (["scallywags", "--seat", "5"], "--seat must be 0..1"),
    (["scallywags", "--seat", "-1"], "-1 is not in the range x>=0"),
    (["scallywags", "--players", "3", "--bots", "random,random,random"],
     "3 players need 2 bots"),
    (["scallywags", "--bots", "pirate"], "unknown bot 'pirate'"),
    (["scallywags", "--bots", "random,"], "--bots has an empty entry"),
    (["scallywags", "--bots", "search:lots"], "search:SAMPLES (a positive number of samples) must be a whole number"),
    (["scallywags", "--bots", "trained:no/such/bot.onnx"], "no bot file at no/such/bot.onnx"),
    (["scallywags", "--seed", "-1"], "-1 is not in the range 0<=x<=4294967295"),
    (["scallywags", "--players", "0"], "scallywags is for 2-6 players, got 0"),
])
def test_play_mistakes_are_one_error_line(args, message):
    if any(a.startswith("trained:") for a in args):
        pytest.importorskip("onnxruntime", reason="bots from ONNX files need the onnx extra")
    out = CliRunner().invoke(main, ["play", *args], input="")
    assert out.exit_code in (1, 2), out.output
    errors = [line for line in out.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and message in errors[0], out.output
    assert "Traceback" not in out.output and not isinstance(out.exception, Exception) or \
        isinstance(out.exception, SystemExit)


def _answers(env_id, seed):
    """The answers (first legal move, by number) of seat 0 in a 2-player game against a
    heuristic bot: the game is seeded, so the same answers replay it exactly."""
    shown, answers = [], []

    def ask(prompt):
        idx = max(i for i, line in enumerate(shown) if line == "Your move:")
        answers.append(shown[idx + 1].split()[0])
        return answers[-1]

    play(env_id, seat=0, bots=["heuristic"], num_players=2, seed=seed, ask=ask,
         say=shown.append)
    return answers


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_plunder_play_a_whole_game_from_typed_input(env_id):
    game = env_id.rsplit("_v", 1)[0]
    answers = _answers(env_id, seed=2)
    out = CliRunner().invoke(main, ["play", game, "--players", "2", "--seed", "2"],
                             input="\n".join(answers) + "\n")
    assert out.exit_code == 0, out.output
    text = out.output
    assert "no more input" not in text and "Game over." in text
    assert "Since your last move:" in text
    # the other player's moves are told (its seat's name starts log lines)
    log = [line for line in text.splitlines() if line.startswith("  player_1")
           or line.startswith("  capn")]
    assert log, text[-3000:]
    assert "total" in text and "* you" in text
    assert all(len(line) <= 80 for line in text.splitlines()), \
        [line for line in text.splitlines() if len(line) > 80][:3]


def test_wide_tables_and_tile_rows_fit_80_columns():
    from plunder.training.play.terminal import fit

    table = "| seat | coins | " + " | ".join(f"A{i}" for i in range(1, 15)) + " |\n" \
        + "|---|" * 16 + "\n| player_0 (you) | 3 | " + " | ".join(["rope"] * 14) + " |"
    text = fit(table)
    assert all(len(x) <= 80 for x in text.splitlines())
    assert text.startswith("- seat: player_0 (you); coins: 3; A1: rope;")
    tiles = "\n".join("".join(f"X{k} .  C{k}".ljust(11) for k in range(1, 10))
                      for _ in range(3))
    bands = fit(tiles).split("\n\n")
    assert len(bands) == 2 and all(len(x) <= 80 for b in bands for x in b.splitlines())
    assert bands[0].splitlines()[0].endswith("X7 .  C7")       # cut between tiles
    assert fit("short line") == "short line"


def test_version_is_the_package_version():
    from importlib.metadata import version

    out = CliRunner().invoke(main, ["--version"])
    assert out.exit_code == 0 and out.output == f"plunder {version('plunder')}\n"


def test_bench_is_a_deprecated_alias_of_speed():
    # click before 8.2 mixes stderr into the output unless told not to
    separate = ({"mix_stderr": False}
                if "mix_stderr" in inspect.signature(CliRunner).parameters else {})
    out = CliRunner(**separate).invoke(main, ["bench", "--seconds", "0.1", "--no-train",
                                    "--no-yardsticks", "--no-batched", "--game",
                                    "scallywags", "--players", "2"])
    assert out.exit_code == 0, out.output
    assert out.stderr.strip() == "plunder: 'plunder bench' is deprecated; use 'plunder speed' " \
        "(same options)"
    assert "scallywags_v0" in out.stdout and all(len(x) <= 80 for x in out.stdout.splitlines())


def test_speed_prints_a_table():
    out = CliRunner().invoke(main, ["speed", "--seconds", "0.2", "--no-train",
                                    "--game", "scallywags", "--markdown"])
    assert out.exit_code == 0, out.output
    assert "agent-steps/s" in out.output and "scallywags_v0" in out.output
    assert "observation encoders: compiled for" in out.output   # which encoders ran


def test_speed_threaded_rows_say_which_path_ran():
    """A row per game and count asked for: a compiled batch on 1 and 2 (and --threads)
    threads where the game has a compiled engine built, its games in Python otherwise."""
    from plunder.envs import ENV_IDS, game_class
    from plunder.envs.core.batch import engine_module

    compiled = {e for e in ENV_IDS if engine_module(game_class(e)) is not None}
    python = sorted(set(ENV_IDS) - compiled)
    games = sorted(compiled)[:1] + python[:1]
    out = CliRunner().invoke(main, ["speed", "--seconds", "0.1", "--no-train", "--no-batched",
                                    "--no-yardsticks", "--players", "2", "--threads", "2", "--threads", "3",
                                    *[x for g in games for x in ("--game", g)], "--markdown"])
    assert out.exit_code == 0, out.output
    head = next(line for line in out.output.splitlines() if "| path |" in line)
    assert "2 threads agent-steps/s (wall)" in head and "3 threads" in head
    rows = {r[0].strip("| "): r for r in (line.split(" | ") for line in out.output.splitlines()
                                         if line.startswith("|") and "| 2 |" in line
                                         and ("| compiled |" in line or "| python |" in line))}
    for g in games:
        assert rows[g][3] == ("compiled" if g in compiled else "python")
        assert float(rows[g][4].replace(",", "")) > 0
        if g in compiled:
            assert rows[g][8].endswith("x")            # 2 threads against 1
        else:
            assert rows[g][6] == "-"                   # one thread only
    assert "load average" in out.output


def test_speed_every_player_count_or_the_chosen_ones_with_the_batched_path():
    out = CliRunner().invoke(main, ["speed", "--seconds", "0.1", "--no-train", "--no-threads",
                                    "--no-yardsticks", "--game", "anchors_aweigh", "--markdown"])
    assert out.exit_code == 0, out.output
    rows = [line.split(" | ") for line in out.output.splitlines()
            if line.startswith("| anchors_aweigh_v0 |")]
    assert [r[1] for r in rows] == ["2", "3", "4"]          # every supported count
    assert "batched agent-steps/s per core" in out.output
    assert all(r[6] != "-" for r in rows)                   # the batched path measured
    out = CliRunner().invoke(main, ["speed", "--seconds", "0.1", "--no-train", "--no-threads",
                                    "--no-yardsticks", "--no-batched", "--game",
                                    "scallywags", "--players", "2", "--players", "5", "--markdown"])
    assert out.exit_code == 0, out.output
    rows = [line.split(" | ") for line in out.output.splitlines()
            if line.startswith("| scallywags_v0")]
    assert [r[1] for r in rows] == ["2", "5"] and all(r[6] == "-" for r in rows)


def test_speed_observation_cost_column_and_a_free_observation_leaves_the_game_alone():
    out = CliRunner().invoke(main, ["speed", "--seconds", "0.1", "--no-train", "--no-threads", "--no-batched",
                                    "--game", "shipshape", "--players", "4",
                                    "--observation-cost", "--markdown"])
    assert out.exit_code == 0, out.output
    assert "env() with a free observation" in out.output
    row, = [line.split(" | ") for line in out.output.splitlines()
            if line.startswith("| shipshape_v0")]
    assert float(row[10].replace(",", "")) > 0 and row[12].rstrip(" |").endswith("%")
    # the same seed gives the same game, with zeros for observations
    from plunder.envs import shipshape_v0
    from plunder.training.speed.envs import free_observation_env

    free = free_observation_env(lambda **kw: shipshape_v0.env(num_players=4, **kw))
    real = shipshape_v0.env(num_players=4)
    for env in (free, real):
        env.reset(seed=3)
    for agent, other in zip(free.agent_iter(60), real.agent_iter(60)):
        assert agent == other
        (obs, *_), (real_obs, *_) = free.last(), real.last()
        assert not obs["observation"].any() and real_obs["observation"].any()
        assert (obs["action_mask"] == real_obs["action_mask"]).all()
        action = int(obs["action_mask"].nonzero()[0][-1])
        free.step(action)
        real.step(action)
    # only that env's game object was changed: a new env's game encodes as ever
    game = shipshape_v0.env(num_players=4).unwrapped.game
    view = game.new_game(np.random.default_rng(0)).view(0)
    assert game.encode(view).any() and not free.unwrapped.game.encode(view).any()


def test_speed_batched_free_observation_column_leaves_the_games_alone():
    out = CliRunner().invoke(main, ["speed", "--seconds", "0.1", "--no-train", "--no-threads",
                                    "--no-yardsticks", "--game", "scallywags", "--players",
                                    "3", "--observation-cost", "--markdown"])
    assert out.exit_code == 0, out.output
    assert "batched with a free observation" in out.output
    row, = [line.split(" | ") for line in out.output.splitlines()
            if line.startswith("| scallywags_v0 |")]
    assert len(row) == 17 and float(row[13].replace(",", "")) > 0
    assert "rules and masks alone" in out.output and float(row[15].replace(",", "")) > 0
    # the same seed gives the same games, with zeros for observations
    from plunder.envs.core.batch import GameBatch
    from plunder.envs.scallywags_v0 import Game
    from plunder.training.speed.envs import free_observation_batch

    free = free_observation_batch(GameBatch(Game, 3, 4, seed=5, compiled=False))
    real = GameBatch(Game, 3, 4, seed=5, compiled=False)
    for _ in range(80):
        (tables, seats, obs, masks), (t2, s2, real_obs, m2) = free.decisions(), \
            real.decisions()
        assert (tables == t2).all() and (seats == s2).all() and (masks == m2).all()
        assert not obs.any() and real_obs.any()
        actions = masks.shape[1] - 1 - masks[:, ::-1].argmax(1)    # the last legal move
        r1, r2 = free.step(actions), real.step(actions)
        assert all((a == b).all() for a, b in zip(r1, r2))


def test_speed_rules_only_plays_whole_games_without_a_view(monkeypatch):
    from plunder.envs.shipshape.engine import ShipShapeState
    from plunder.envs.shipshape_v0 import Game
    from plunder.training.speed.envs import RulesOnly

    def no_view(self, player):
        raise AssertionError("the rules-only bench built a view")

    monkeypatch.setattr(ShipShapeState, "view", no_view)
    steps, games, cpu = RulesOnly(Game, 4).run(0.3)
    assert steps > 0 and games > 0 and cpu > 0


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
    assert ("\nThe turn limit is reached." in shown or "\nGame over." in shown)
    assert shown[-1].startswith("Scores:")
