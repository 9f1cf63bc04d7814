"""The README's results table, from the committed results file ``docs/results/targets.json``.

``python docs/results/render.py`` prints the table; ``--write`` puts it between the
``results:targets`` markers of README.md (the docs site's hook fills the same markers in
its pages when it builds, and a test checks the README's copy). The results file is what
``plunder benchmark targets --json-out docs/results/targets.json`` writes: the shipped
bots on 1,000 games a cell of tournament seed 31, which no training run or comparison used.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "targets.json"
README = HERE.parent.parent / "README.md"
BEGIN, END = "<!-- results:targets:begin -->", "<!-- results:targets:end -->"
MARKED = re.compile(re.escape(BEGIN) + r"\n.*?" + re.escape(END), re.S)

#: the games' names as the table shows them, in the results file's order otherwise
TITLES = {"scallywags_v0": "Scallywags", "anchors_aweigh_v0": "Anchors Aweigh!",
          "all_hands_battle_v0": "All Hands battle", "all_hands_crew_v0": "All Hands crew",
          "shipshape_v0": "ShipShape"}


def _cell(c: dict) -> str:
    share = f"{c['win_share']:.1%}"
    text = f"**{share}**" if c["met"] else share
    return f"{text} ({c['ci95'][0] * 100:.1f}–{c['ci95'][1] * 100:.1f})"


def table(results: Path = RESULTS) -> str:
    """The Markdown table of the results file: one row per game, a column per target."""
    data = json.loads(results.read_text(encoding="utf-8"))
    columns, rows = [], {}
    for c in data["cells"]:
        if c["kind"] == "search":
            continue
        column = (f"{c['players']} players: vs {c['opponent']}" if c["players"] == 2 else
                  f"{c['players']} players: vs {c['players'] - 1} {c['opponent']} bots")
        column += f" (target {c['target']:.0%})"
        if column not in columns:
            columns.append(column)
        rows.setdefault(c["env_id"], {})[column] = _cell(c)
    lines = ["| game | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
    for env_id, cells in rows.items():
        lines.append(f"| {TITLES.get(env_id, env_id)} | "
                     + " | ".join(cells.get(col, "–") for col in columns) + " |")
    lines.append("")
    lines.append(f"`{data['bot']}` on {data['games']:,} games a cell of tournament seed "
                 f"{data['seed']}; win share with its 95% interval, bold where the target is "
                 f"met ({data['met']} of {data['total']}).")
    return "\n".join(lines) + "\n"


def marked(text: str, body: str) -> str:
    """``text`` with ``body`` between its results markers."""
    if not MARKED.search(text):
        raise SystemExit(f"no {BEGIN} ... {END} markers")
    return MARKED.sub(lambda _: f"{BEGIN}\n{body}{END}", text, count=1)


def main(argv: list[str]) -> None:
    body = table()
    if "--write" in argv:
        README.write_text(marked(README.read_text(encoding="utf-8"), body), encoding="utf-8")
    else:
        sys.stdout.write(body)


if __name__ == "__main__":
    main(sys.argv[1:])
