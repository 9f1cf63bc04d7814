"""``plunder.benchmark``, the deprecated name of ``plunder.training.benchmark``: the same
objects under the old path (submodules included), with a DeprecationWarning."""

from __future__ import annotations

import subprocess
import sys


def test_the_old_path_gives_the_same_objects_and_warns():
    code = (
        "import warnings\n"
        "warnings.simplefilter('always')\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    from plunder.benchmark import BenchmarkError, evaluate\n"
        "from plunder.benchmark.run import RESULT_SCHEMA_PATH\n"
        "import plunder.benchmark.tasks as old_tasks\n"
        "import plunder.training.benchmark as new\n"
        "import plunder.training.benchmark.tasks as new_tasks\n"
        "assert evaluate is new.evaluate and BenchmarkError is new.BenchmarkError\n"
        "assert old_tasks is new_tasks and old_tasks.__spec__.name == new_tasks.__name__\n"
        "assert RESULT_SCHEMA_PATH.exists()\n"
        "print([str(w.message) for w in caught if w.category is DeprecationWarning])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "plunder.benchmark is deprecated; import plunder.training.benchmark" in out.stdout
