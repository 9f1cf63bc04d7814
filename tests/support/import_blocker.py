"""Code for a fresh interpreter in which some modules cannot be imported (as on an install
without the extras that bring them): the tests of what runs on which install use it."""

from __future__ import annotations

#: what only the extras bring: importing any of these from the envs or bots is an error
EXTRAS_ONLY = ("yaml", "click", "torch", "stable_baselines3", "sb3_contrib", "onnxruntime",
               "onnx", "starlette", "rich", "tqdm")


def blocker(modules: tuple[str, ...] = EXTRAS_ONLY) -> str:
    """Code that makes ``modules`` unimportable in a subprocess (as on a core install)."""
    return (
        "import sys\n"
        "from importlib.abc import MetaPathFinder\n"
        f"BLOCKED = {tuple(modules)!r}\n"
        "class Block(MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in BLOCKED:\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, Block())\n"
    )
