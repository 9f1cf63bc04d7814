"""The ``plunder`` console script: the command line, or which extra it needs.

The envs and bots install with numpy, gymnasium and pettingzoo alone; the command line
(click, with rich tables and tqdm progress) and the training configs (YAML) come with the
``cli`` extra, which the ``train``, ``bench``, ``web`` and ``dev`` extras include.
"""

from __future__ import annotations

import sys

#: what a core-only install says when ``plunder`` is run
MISSING_CLI = ("plunder: the command line needs the 'cli' extra ({module} is not "
               "installed): pip install 'plunder[cli]' (the train, bench and web extras "
               "include it)")

#: what a command says when a module of another extra is missing
MISSING_EXTRA = ("plunder: this command needs the '{extra}' extra ({module} is not "
                 "installed): pip install 'plunder[{extra}]'")

#: top-level module -> the extra that installs it (tests check the extras exist)
EXTRA_OF_MODULE = {
    "torch": "train", "stable_baselines3": "train", "sb3_contrib": "train", "onnx": "train",
    "tensorboard": "train", "openskill": "train", "filelock": "train",
    "tqdm": "cli", "rich": "cli",
    "onnxruntime": "onnx",          # bots from ONNX files (the train extra has it too)
    "rlcard": "bench", "pyspiel": "bench", "open_spiel": "bench",
    "starlette": "web", "uvicorn": "web",
}


def main() -> None:
    """Run :mod:`.commands`, or exit with a message naming the missing extra."""
    try:
        import click  # noqa: F401
        import yaml  # noqa: F401
    except ImportError as exc:
        sys.exit(MISSING_CLI.format(module=exc.name))
    from .commands import main as cli_main

    try:
        cli_main()
    except ModuleNotFoundError as exc:
        extra = EXTRA_OF_MODULE.get((exc.name or "").partition(".")[0])
        if extra is None:
            raise
        sys.exit(MISSING_EXTRA.format(extra=extra, module=exc.name))
