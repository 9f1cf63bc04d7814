"""The code examples of docs/ecosystem.md, so that the tests run exactly what users read.

An example is the first ```python block after a ``<!-- example: NAME -->`` line.
"""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "ecosystem.md"
_EXAMPLE = re.compile(r"<!-- example: ([\w-]+) -->\s*```python\n(.*?)```", re.S)


def doc_examples() -> dict[str, str]:
    """Every named example of docs/ecosystem.md: name -> code."""
    examples: dict[str, str] = {}
    for name, code in _EXAMPLE.findall(DOC.read_text(encoding="utf-8")):
        if name in examples:
            raise ValueError(f"docs/ecosystem.md names two examples {name!r}")
        examples[name] = code
    return examples


def run_doc_example(name: str) -> dict:
    """Execute the example ``name`` in a fresh namespace; returns that namespace."""
    code = doc_examples()[name]
    namespace: dict = {"__name__": f"docs_ecosystem_{name.replace('-', '_')}"}
    exec(compile(code, f"docs/ecosystem.md <example: {name}>", "exec"), namespace)
    return namespace
