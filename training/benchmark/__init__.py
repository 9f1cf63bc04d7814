"""plunder's benchmark for multi-agent algorithms: named tasks, shipped opponent bots, one
score command (``plunder benchmark list|run|exploit|leaderboard|ship``; docs/benchmark.md).

>>> from plunder.training.benchmark import evaluate
>>> result = evaluate("scallywags-2p-heuristic", "pretrained:final", games=10)
>>> result.to_dict()["results"]["win_share"]

Evaluating needs only the core install and ``onnxruntime`` (the ``onnx`` extra): nothing on
that path imports torch (tested). ``exploit`` and ``ship`` need the ``train`` extra.
"""

from .policy_spec import BenchmarkError, resolve_policy
from .run import RESULT_SCHEMA_VERSION, BenchmarkResult, evaluate, render_result
from .tasks import TASKS, Task, get_task, held_out_specs

__all__ = ["BenchmarkError", "BenchmarkResult", "RESULT_SCHEMA_VERSION", "TASKS", "Task",
           "evaluate", "get_task", "held_out_specs", "render_result", "resolve_policy"]
