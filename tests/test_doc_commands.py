"""The README's Python blocks run, and every concrete `plunder ...` command in the README
and docs/ parses as the CLI would parse it: options and arguments through click, `plunder
train`'s config with its overrides through the config loader, `plunder eval`'s bots
through ``make_bot`` (those that name a file are left out: the file is a run's output).
Commands with placeholders (GAME, N, PATH, [--option]) are templates and are skipped.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
import pytest

from plunder.training.cli.commands import main

from .conftest import HAS_PZ_REGISTRY

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
_FENCE = re.compile(r"```(\w*)\n(.*?)```", re.S)
_INLINE = re.compile(r"`(plunder [^`]+)`")
#: GAME, N, PATH, K1, ... as a word of its own: a template, not a command
_PLACEHOLDER = re.compile(r"(?<![\w.:/-])[A-Z][A-Z0-9_]*(?![\w])|\[|\.\.\.")


def _fenced_commands(text: str):
    """`plunder ...` invocations of the shell blocks of ``text``."""
    for lang, block in _FENCE.findall(text):
        if lang not in ("", "bash", "sh", "console", "shell"):
            continue
        for line in block.replace("\\\n", " ").splitlines():
            line = line.split(" #")[0].strip().removeprefix("$ ")
            for part in re.split(r"&&|;|\|", line):
                if part.strip().startswith("plunder "):
                    yield part.strip()


def doc_commands() -> list[tuple[str, str]]:
    """(file, command) of every concrete `plunder ...` command in the README and docs."""
    found: dict[str, str] = {}
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        spans = [" ".join(s.split()) for s in _INLINE.findall(text)]
        for cmd in [*_fenced_commands(text), *spans]:
            if _PLACEHOLDER.search(cmd) or not _command(shlex.split(cmd)[1:])[2]:
                continue          # a template, or a command named in passing
            found.setdefault(cmd, str(path.relative_to(ROOT)))
    return sorted((where, cmd) for cmd, where in found.items())


def _command(args: list[str]) -> tuple[str, click.Command, list[str]]:
    """The (sub)command that ``plunder ARGS`` runs, its name and its own arguments."""
    cmd: click.Command = main
    names = []
    while isinstance(cmd, click.Group) and args and args[0] in cmd.commands:
        names.append(args[0])
        cmd, args = cmd.commands[args[0]], args[1:]
    return " ".join(names), cmd, args


def _parse(args: list[str]) -> tuple[str, dict]:
    """Parse ``plunder ARGS`` as the CLI does, without running it: (command, params)."""
    name, cmd, rest = _command(args)
    if isinstance(cmd, click.Group):
        raise click.UsageError(f"no such command: {' '.join(args)}")
    return name, cmd.make_context(f"plunder {name}", rest).params


COMMANDS = doc_commands()


def test_the_docs_show_commands():
    """The collector finds the commands (a broken pattern would skip them all)."""
    cmds = [cmd for _, cmd in COMMANDS]
    assert len(cmds) >= 40
    assert any(c.startswith("plunder train scallywags") for c in cmds)
    assert any(c.startswith("plunder eval") and "--seed 31" in c for c in cmds)


@pytest.mark.parametrize("where, command", COMMANDS, ids=[c for _, c in COMMANDS])
def test_doc_command_parses(where, command, tmp_path, monkeypatch):
    """The command's options exist and their values are valid."""
    monkeypatch.chdir(tmp_path)
    args = shlex.split(command)[1:]
    for arg in args:            # run directories that a command reads must exist
        if arg.startswith("runs/") and "." not in arg:
            (tmp_path / arg).mkdir(parents=True, exist_ok=True)
    try:
        name, params = _parse(args)
    except click.exceptions.Exit:        # --help
        return
    except click.ClickException as exc:
        pytest.fail(f"{where}: `{command}` does not parse: {exc.format_message()}")
    if name == "train":
        from plunder.training.selfplay.config import load_config
        extra = [*params["overrides"]]
        for key, opt in (("total_timesteps", "steps"), ("num_players", "players"),
                         ("seed", "seed")):
            if params[opt] is not None:
                extra.append(f"{key}={params[opt]}")
        load_config(params["game"], params["config_path"], extra)
    elif name == "eval":
        from plunder.envs.core.registry import game_class
        from plunder.policies import make_bot
        from plunder.training.games import resolve_env_id
        env_id = resolve_env_id(params["game"])
        players = params["players"] or game_class(env_id).min_players
        for spec in params["bots"].split(","):
            path = spec.split(":")[1] if ":" in spec else ""
            if path.endswith(".onnx"):
                continue                   # a run's bot file
            if spec.split(":")[0] in ("pretrained", "netsearch", "trained", "sampled"):
                pytest.importorskip("onnxruntime", reason="network bots need the onnx extra")
            make_bot(spec, env_id, players, seed=0)


def test_readme_python_blocks_run():
    """The README's quick start and bot examples run as printed."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [code for lang, code in _FENCE.findall(text) if lang == "python"]
    assert len(blocks) >= 3
    for i, code in enumerate(blocks):
        if "pettingzoo.make(" in code and not HAS_PZ_REGISTRY:
            continue      # the README says these need PettingZoo's registry (1.27+)
        namespace: dict = {"__name__": f"readme_block_{i}"}
        exec(compile(code, f"README.md <python block {i}>", "exec"), namespace)
        env = namespace.get("env")
        if i == 0:     # the quick start plays a whole game
            assert env is not None and not env.agents
