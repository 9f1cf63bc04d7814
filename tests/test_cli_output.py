"""The command line's numbers and what it prints: every numeric option is range-checked
with one ``Error:`` line before anything runs, ``plunder list`` shows options as they are
typed, and every table fits 80 columns without losing a cell (``plunder.training.tables``,
``plunder.training.selfplay.progress``)."""

from __future__ import annotations

import re

import click
import numpy as np
import pytest
from click.testing import CliRunner

from plunder.envs import specs
from plunder.training.cli.commands import main
from plunder.training.cli.options import FiniteRange, PlayersOption
from plunder.training.selfplay.progress import TrainingProgress, clock_text, planned_total
from plunder.training.tables import command_lines, text_table, wrap


def _commands(group=main, path=()):
    for name, cmd in sorted(group.commands.items()):
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, path + (name,))
        else:
            yield path + (name,), cmd


def _one_error(args, message, code=2):
    out = CliRunner().invoke(main, args, input="")
    assert out.exit_code == code, out.output
    errors = [line for line in out.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and message in errors[0], out.output
    assert "Traceback" not in out.output
    assert out.exception is None or isinstance(out.exception, SystemExit)


def test_every_numeric_option_of_every_command_is_bounded():
    numeric = 0
    for path, cmd in _commands():
        for param in cmd.params:
            kind = param.type
            if isinstance(param, PlayersOption):
                numeric += 1
                continue
            if isinstance(kind, click.types.FloatParamType):
                assert isinstance(kind, FiniteRange) and kind.max is not None, \
                    f"plunder {' '.join(path)} {param.opts[0]}: a float without finite bounds"
                numeric += 1
            elif isinstance(kind, click.types.IntParamType):
                assert isinstance(kind, click.IntRange) and kind.min is not None \
                    and kind.max is not None, \
                    f"plunder {' '.join(path)} {param.opts[0]}: an int without bounds"
                numeric += 1
    assert numeric >= 30


@pytest.mark.parametrize("args,message", [
    (["eval", "scallywags", "--bots", "random", "--max-turns", "-1"],
     "'--max-turns': -1 is not in the range x>=1"),
    (["eval", "scallywags", "--bots", "random", "--max-turns", "0"],
     "'--max-turns': 0 is not in the range x>=1"),
    (["eval", "scallywags", "--bots", "random", "--players", "0"],
     "scallywags is for 2-6 players, got 0"),
    (["eval", "--players", "7", "scallywags", "--bots", "random"],     # GAME after it
     "scallywags is for 2-6 players, got 7"),
    (["eval", "scallywags", "--bots", "random", "--games", "0"], "'--games': 0"),
    (["eval", "scallywags", "--bots", "random", "--games", str(10**20)], "'--games'"),
    (["eval", "scallywags", "--bots", "random", "--seed", "-3"], "'--seed': -3"),
    (["eval", "scallywags", "--bots", "random", "--seed", "1.5"], "'1.5' is not a valid"),
    (["bench", "--players", "99"], "no game is played by 99 players"),
    (["speed", "--players", "5", "--game", "anchors_aweigh"],
     "no chosen game is played by 5 players (anchors_aweigh 2-4)"),
    (["speed", "--seconds", "nan"], "'nan' is not a finite number"),
    (["speed", "--seconds", "0"], "'--seconds': 0"),
    (["speed", "--seconds", "1e9"], "'--seconds'"),
    (["serve", "--idle-minutes", "nan"], "'nan' is not a finite number"),
    (["serve", "--idle-minutes", "-inf"], "'-inf' is not a finite number"),
    (["serve", "--idle-minutes", "0"], "'--idle-minutes': 0"),
    (["serve", "--port", "0"], "'--port': 0"),
    (["serve", "--port", "70000"], "'--port': 70000"),
    (["serve", "--max-games", "0"], "'--max-games': 0"),
    (["train", "scallywags", "--steps", "0"], "'--steps': 0"),
    (["train", "scallywags", "--steps", "-5"], "'--steps': -5"),
    (["train", "scallywags", "--players", "9"], "scallywags is for 2-6 players, got 9"),
    (["train", "scallywags", "--seed", str(2**32)], "'--seed'"),
    (["play", "scallywags", "--seat", "-1"], "'--seat': -1"),
    (["play", "scallywags", "--players", "1"], "scallywags is for 2-6 players, got 1"),
    (["benchmark", "run", "scallywags-2p-ladder", "--policy", "random", "--games", "0"],
     "'--games': 0"),
    (["benchmark", "exploit", "random", "--game", "shipshape", "--players", "7"],
     "shipshape is for 2-6 players, got 7"),
    (["benchmark", "exploit", "random", "--game", "shipshape", "--players", "2",
      "--steps", "0"], "'--steps': 0"),
    (["benchmark", "diagnose", "scallywags", "--bot", "random", "--players", "2",
      "--games", "1"], "'--games': 1"),
    (["benchmark", "diagnose", "scallywags", "--bot", "random", "--players", "2",
      "--top", "0"], "'--top': 0"),
    (["benchmark", "targets", "--workers", "0"], "'--workers': 0"),
    (["benchmark", "targets", "--search-games", "-1"], "'--search-games': -1"),
    (["benchmark", "leaderboard", "all", "--players", "7"],
     "no chosen game is played by 7 players"),
    (["benchmark", "leaderboard", "scallywags", "--players", "2", "--games", "0"],
     "'--games': 0"),
    (["benchmark", "ship", "nowhere", "--game", "anchors_aweigh", "--players", "6"],
     "anchors_aweigh is for 2-4 players, got 6"),
])
def test_a_number_out_of_range_is_one_error_line(args, message):
    _one_error(args, message)


def test_list_shows_every_game_and_its_options_as_typed():
    from plunder.training.selfplay.config import parse_override

    out = CliRunner().invoke(main, ["list"])
    assert out.exit_code == 0, out.output
    text = out.output
    assert all(len(line) <= 80 for line in text.splitlines())
    assert "None" not in text and "False" not in text and "()" not in text
    for spec in specs():
        assert spec.env_id in text and spec.title in text
        for name, default in spec.options().items():
            typed = re.findall(rf"\b{name}=(\S+)", text)[-1]   # the list, after the example
            _, value = parse_override(f"{name}={typed}")
            cls = spec.load_game()
            back, want = cls.check_options({name: value})[name], default
            assert (list(back) if isinstance(back, tuple) else back) == \
                (list(want) if isinstance(want, tuple) else want), (name, typed)


@pytest.mark.parametrize("args", [
    ["list"],
    ["benchmark", "list"],
    ["eval", "anchors_aweigh", "--bots", "random,heuristic", "--games", "4", "--players",
     "3", "--max-turns", "40"],
    ["speed", "--seconds", "0.05", "--no-train", "--game", "scallywags", "--players", "2",
     "--observation-cost"],
], ids=lambda a: " ".join(a[:2]))
def test_what_a_command_prints_fits_80_columns(args):
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0, out.output
    wide = [line for line in out.output.splitlines() if len(line) > 80]
    assert not wide, wide
    assert "…" not in out.output


def test_the_speed_table_in_80_columns_keeps_every_cell_of_the_markdown_one():
    from plunder.training.speed.envs import BenchResult, format_table, format_text

    rows = [BenchResult("scallywags_v0", 2, 100_000, 9_000, 3.0, raw_steps=120_000,
                        raw_seconds=3.0, batch_steps=600_000, batch_seconds=3.0,
                        free_steps=130_000, free_seconds=3.0, state_bytes=1234),
            BenchResult("scallywags_v0 (compiled engine)", 2, 0, 0, 0.0,
                        batch_steps=900_000, batch_seconds=3.0)]
    text, markdown = format_text(rows), format_table(rows)
    assert all(len(line) <= 80 for line in text.splitlines())
    cells = {c.strip() for line in markdown.splitlines()[2:] for c in line.split("|")}
    assert all(c in text for c in cells if c)


# -- tables ---------------------------------------------------------------------------------

def test_a_table_too_wide_is_printed_in_bands_that_keep_every_cell():
    rng = np.random.default_rng(3)
    for _ in range(40):
        ncols = int(rng.integers(2, 14))
        heads = [" ".join("word" * int(rng.integers(1, 4)) for _ in range(int(rng.integers(1, 4))))
                 for _ in range(ncols)]
        rows = [[f"{int(rng.integers(10 ** int(rng.integers(1, 9)))):,}" for _ in range(ncols)]
                for _ in range(int(rng.integers(1, 5)))]
        rows = [[f"key{k}"] + r[1:] for k, r in enumerate(rows)]
        text = text_table(heads, rows)
        lines = text.splitlines()
        assert all(len(line) <= 80 for line in lines), text
        for row in rows:
            for cell in row:
                assert cell in text
        bands = text.split("\n\n")
        for band in bands:              # the key column in every band
            assert all(f"key{k}" in band for k in range(len(rows)))


def test_headings_wrap_before_a_table_is_split():
    heads = ["bot", "seat-games", "win share", "95% CI", "mean score", "rank reward",
             "rating (mu ± sigma)"]
    rows = [["heuristic", "20", "92.5%", "73.1%–98.2%", "31.30", "+0.850", "36.0 ± 6.0"]]
    text = text_table(heads, rows, title="a title")
    assert "\n\n" not in text and text.startswith("a title\n")
    assert all(len(line) <= 80 for line in text.splitlines())
    last = text.splitlines()[-1]
    assert last.split() == ["heuristic", "20", "92.5%", "73.1%–98.2%", "31.30", "+0.850",
                            "36.0", "±", "6.0"]


def test_a_long_command_breaks_before_an_option_and_pastes_as_one():
    import shlex

    cmd = ("plunder eval all_hands_battle --bots trained:runs/a/very/long/path/bot.onnx,"
           "heuristic --players 4 --games 1000 --seed 0 --option target_score=150")
    text = command_lines(cmd)
    lines = text.splitlines()
    assert len(lines) > 1 and all(len(line) <= 80 for line in lines)
    assert all(line.endswith(" \\") for line in lines[:-1])
    assert all(line.lstrip().startswith("--") for line in lines[1:])
    assert shlex.split(text.replace("\\\n", " ")) == shlex.split(cmd)
    assert wrap("x " * 100, indent="  ").count("\n") >= 2


# -- training progress ----------------------------------------------------------------------

class _Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_the_total_is_the_whole_rollouts_a_run_plays():
    assert planned_total(0, 1_050_000, 4096) == 1_052_672
    assert planned_total(0, 4096, 4096) == 4096
    assert planned_total(8192, 10_000, 4096) == 12_288       # resumed
    assert planned_total(5000, 4000, 4096) == 5000           # nothing left to do
    assert clock_text(3725) == "1h02m05s" and clock_text(65) == "1m05s"
    assert clock_text(4) == "4s"


def test_progress_lines_without_a_terminal():
    lines, clock = [], _Clock()
    evals = []
    p = TrainingProgress(0, 1_050_000, 4096, lines.append, tty=False, clock=clock,
                         latest=lambda: evals[-1] if evals else "")
    p.open()
    assert [" ".join(x.split()) for x in lines] == [
        "training to 1,052,672 steps: 1,050,000 asked for, rounded up to whole rollouts of "
        "4,096 steps"]
    steps = 0
    while steps < p.total:
        steps += 4096
        clock.now += 2.0
        if steps == 524_288:
            evals.append("eval at 524,288: vs heuristic 45%")
        p.update(steps)
    p.close()
    progress = [" ".join(x.split()) for x in lines[1:]]
    assert 40 <= len(progress) <= 60                        # about 50 lines a run
    assert progress[-1].startswith("1,052,672/1,052,672 steps (100%), 2,048 steps/s, "
                                   "8m34s elapsed, 0s left")
    assert "eval at 524,288: vs heuristic 45%" in progress[-1]
    assert not any("eval at" in line for line in progress[:20])
    assert all(len(line) <= 80 for text in lines for line in text.splitlines())
    assert len(lines[-1].splitlines()) == 2


def test_progress_every_n_steps_and_a_run_longer_than_planned_shows_its_real_count():
    lines, clock = [], _Clock()
    p = TrainingProgress(0, 1000, 500, lines.append, tty=False, every=1000, clock=clock)
    p.open()
    for steps in (500, 1000, 1500):
        clock.now += 1
        p.update(steps)
    p.close()
    assert [line.split(" steps")[0] for line in lines] == ["1,000/1,000", "1,500/1,500"]
    quiet = []
    p = TrainingProgress(0, 1000, 500, quiet.append, tty=False, show=False, clock=clock)
    p.open()
    p.update(1000)
    p.close()
    assert quiet == []
