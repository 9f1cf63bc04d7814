"""What ``plunder train`` prints where its output is not a terminal: the real total, a
progress line every so many steps, an 80-column summary that ends with the next
commands; and a run directory it cannot write ends with one ``Error:`` line."""

from __future__ import annotations

import errno
import shlex

from conftest import TINY, TOY_CONFIG, run_cli, set_args


def test_a_run_logged_to_a_file_shows_progress_and_what_to_do_next(toy, tmp_path,
                                                                  monkeypatch):
    monkeypatch.chdir(tmp_path)         # paths as short as a person's: runs/toy
    run = tmp_path / "runs" / "toy"
    res = run_cli(["train", toy, "--config", TOY_CONFIG, "--steps", "1500", "--run-dir",
                   "runs/toy", *set_args(TINY + ["progress_bar=true", "progress_every=512",
                                               "tensorboard=true"])])
    assert res.exit_code == 0, res.output
    text = res.output
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines), [x for x in lines if len(x) > 80]
    flat = " ".join(text.split())
    assert ("training to 1,536 steps: 1,500 asked for, rounded up to whole rollouts of 512 "
            "steps") in flat
    progress = [line for line in lines if line.endswith(" left") or " left; " in line]
    assert [line.split(" steps")[0] for line in progress] == \
        ["512/1,536", "1,024/1,536", "1,536/1,536"]
    assert all(" steps/s, " in line and " elapsed, " in line for line in progress)
    assert "1,536/1,500" not in text and "1,500/1,500" not in text
    # the summary ends with the commands to play, serve and measure the bot, and the logs
    nxt = text[text.index("\nNext:\n"):]
    commands = [shlex.split(c.replace("\\\n", " ")) for c in
                "\n".join(x for x in nxt.splitlines() if not x.lstrip().startswith("#")
                          and x.strip() != "Next:").split("\n  ") if c.strip()]
    bot = "runs/toy/bot.onnx"
    assert ["plunder", "play", toy.removesuffix("_v0"), "--players", "2", "--bots",
            f"trained:{bot}"] in commands
    assert ["plunder", "serve", "--bot-dir", "runs/toy"] in commands
    assert ["plunder", "eval", toy.removesuffix("_v0"), "--players", "2", "--bots",
            f"trained:{bot},heuristic"] in commands
    assert ["tensorboard", "--logdir", "runs/toy/tb"] in commands
    assert (run / "tb").is_dir()
    # each command runs as printed: the game and its bot file are real
    out = run_cli(commands[2][1:] + ["--games", "2"])
    assert out.exit_code == 0, out.output


def _one_error(res, words):
    errors = [line for line in res.output.splitlines() if line.startswith("Error:")]
    assert res.exit_code == 1 and len(errors) == 1 and words in errors[0], res.output
    assert "Traceback" not in res.output


def test_a_run_dir_that_cannot_be_made_is_one_error_line(toy, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    res = run_cli(["train", toy, "--config", TOY_CONFIG, "--steps", "512", "--run-dir",
                   str(blocker / "run"), *set_args(TINY)])
    _one_error(res, "cannot write the run")


def test_a_full_disk_is_one_error_line(toy, tmp_path, monkeypatch):
    from plunder.training.selfplay import train

    def full(path, data):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(train, "atomic_write_bytes", full)
    res = run_cli(["train", toy, "--config", TOY_CONFIG, "--steps", "512", "--run-dir",
                   str(tmp_path / "run"), *set_args(TINY)])
    _one_error(res, "No space left on device")
    assert "config.yaml" in res.output


def test_a_bot_that_cannot_be_written_is_one_error_line(scallywags_run, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    res = run_cli(["export", str(scallywags_run), "--out", str(blocker / "bot.onnx")])
    _one_error(res, "cannot read or write the run or its bot")
