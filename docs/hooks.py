"""MkDocs hooks: the pages generated from the code when the site builds.

- ``envs/<game>.md``: one page per registered game, from its env module's docstring and
  its observation layout's ``describe()`` at every player count;
- ``rules/<game>.md``: each game's rules page, the file the package ships
  (``envs/<game>/rules.md``, read by ``plunder.envs.rules_text``);
- the training page's config reference, from the config dataclass (``describe_config``);
- the results table, from ``docs/results/targets.json`` (``docs/results/render.py``), on
  every page that has its markers.

Nothing generated is committed, so nothing generated can go stale.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import textwrap
from pathlib import Path

from mkdocs.structure.files import File

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
#: where the config dataclass and its table live
CONFIG_MODULE = "plunder.training.selfplay.config"
CONFIG_MARKER = "<!-- config-reference -->"
#: a docstring line that introduces a hand-kept copy of the layout table
_LAYOUT_INTRO = re.compile(r"layout\.describe\(\)")


def _results():
    """docs/results/render.py as a module (it lives outside the package)."""
    spec = importlib.util.spec_from_file_location("plunder_docs_results",
                                                  DOCS / "results" / "render.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def describe_config() -> str:
    """The config reference table, from the config dataclass."""
    return importlib.import_module(CONFIG_MODULE).describe_config()


# -- env pages ----------------------------------------------------------------------------

def _module_docstring(env_id: str) -> str:
    """The env module's docstring as written (before the module fills in its table)."""
    spec = importlib.util.find_spec(f"plunder.envs.{env_id}")
    source = Path(spec.origin).read_text(encoding="utf-8")
    return ast.get_docstring(ast.parse(source), clean=True) or ""


def _inline(text: str) -> str:
    """RST inline markup to Markdown: ``code`` to `code`, rules files to links."""
    text = re.sub(r"``envs/(\w+)/rules\.md``", r"[the rules page](../rules/\1.md)", text)
    return re.sub(r"``(.+?)``", r"`\1`", text)


def _is_heading(lines: list[str], i: int) -> bool:
    """A section title: a short unindented line followed by an indented body or an
    underline."""
    line = lines[i]
    if not line or line[0] == " " or line.startswith(("|", "-", "=")) or len(line) > 40:
        return False
    if line.rstrip().endswith((".", ",", ":", ";")):
        return False
    nxt = lines[i + 1] if i + 1 < len(lines) else ""
    return nxt.startswith("    ") or bool(re.fullmatch(r"-{3,}", nxt))


_RULE = re.compile(r"=+( +=+)+ *")


def _rst_table(lines: list[str], names: tuple[str, ...]) -> list[str]:
    """An RST simple table (rule, [header, rule,] rows, rule) as a Markdown table; a row
    whose first cell is blank continues the row above. ``names`` head a table without a
    header row."""
    rule = lines[0]
    starts = [m.start() for m in re.finditer(r"=+", rule)]
    def cells(line):
        bounds = [*starts[1:], None]
        return [line[a:b].strip() if b else line[a:].strip() for a, b in zip(starts, bounds)]
    rule_rows = [k for k, ln in enumerate(lines) if _RULE.fullmatch(ln.strip())]
    header = [*names, *[""] * len(starts)][:len(starts)]
    body = lines[1:-1]
    if len(rule_rows) >= 3:
        header = cells(lines[1])
        body = lines[rule_rows[1] + 1:-1]
    rows: list[list[str]] = []
    for line in body:
        if not line.strip():
            continue
        parts = cells(line)
        if rows and not parts[0]:
            rows[-1] = [f"{a} {b}".strip() for a, b in zip(rows[-1], parts)]
        else:
            rows.append(parts)
    def md(row):
        return "| " + " | ".join(_inline(c).replace("|", "\\|") for c in row) + " |"
    return ["", md(header), "|" + "---|" * len(starts), *map(md, rows), ""]


def _block(lines: list[str], names: tuple[str, ...] = ("", "meaning")) -> list[str]:
    """Markdown for a dedented run of lines: RST simple tables become Markdown tables and
    indented examples fenced blocks; everything else is Markdown already."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if _RULE.fullmatch(line.strip()):
            j = i + 1
            while j < len(lines) and not (_RULE.fullmatch(lines[j].strip()) and (
                    j + 1 == len(lines) or not lines[j + 1].strip())):
                j += 1
            indent = len(line) - len(line.lstrip())
            out += _rst_table([ln[indent:] for ln in lines[i:j + 1]], names)
            i = j + 1
            continue
        if line.startswith("    ") and (not out or not out[-1].strip()
                                         or out[-1].rstrip().endswith("::")):
            j = i
            while j < len(lines) and (lines[j].startswith("    ") or not lines[j].strip()):
                j += 1
            code = textwrap.dedent("\n".join(lines[i:j])).strip("\n")
            lang = "python" if re.search(r"\bimport\b|=", code) else "text"
            last = next((k for k in range(len(out) - 1, -1, -1) if out[k].strip()), None)
            if last is not None and out[last].rstrip().endswith("::"):
                out[last] = out[last].rstrip()[:-1]               # RST's literal marker
            out += ["", f"```{lang}", *code.splitlines(), "```", ""]
            i = j
            continue
        if line.startswith("- ") and out and out[-1].strip() and not out[-1].startswith(
                ("- ", "  ")):
            out.append("")                                       # Markdown lists need it
        out.append(_inline(line))
        i += 1
    return out


def _dedent(lines: list[str]) -> list[str]:
    """Strip the indent of a section's first line from every line of it."""
    first = next((ln for ln in lines if ln.strip()), "")
    base = len(first) - len(first.lstrip())
    return [ln[min(base, len(ln) - len(ln.lstrip())):] for ln in lines]


def _drop_layout_copy(lines: list[str]) -> list[str]:
    """Leave out a hand-kept copy of the layout table: the page renders describe()."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        out.append(lines[i])
        if _LAYOUT_INTRO.search(lines[i]) and lines[i].rstrip().endswith(":"):
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            if j < len(lines) and lines[j].lstrip().startswith("| indices"):
                while j < len(lines) and lines[j].lstrip().startswith("|"):
                    j += 1
                out.append("")
                out.append("(The table for every player count: "
                           "[the observation, index by index](#the-observation-index-by-index).)")
                i = j
                continue
        i += 1
    return out


def env_page(env_id: str) -> str:
    """The Markdown page of one env: its docstring, then its observation at every count."""
    from plunder.envs import make
    from plunder.envs.core.registry import game_class

    doc = _module_docstring(env_id)
    title, _, body = doc.partition("\n")
    lines = body.strip("\n").splitlines()
    lines = [("(The table: [the observation, index by index]"
              "(#the-observation-index-by-index).)" if ln.strip() == "LAYOUT_TABLE" else ln)
             for ln in lines]
    lines = _drop_layout_copy(lines)
    out = [f"# {_inline(title.strip())}", "",
           f"Generated from the module docstring of `plunder.envs.{env_id}` and its "
           "observation layout.", ""]
    i = 0
    section: list[str] = []
    heading = [""]

    def flush():
        names = ("actions" if "action" in heading[0].lower() else "option", "meaning")
        out.extend(_block(_dedent(section), names))
        section.clear()

    while i < len(lines):
        if _is_heading(lines, i):
            flush()
            heading[0] = lines[i].strip()
            out += ["", f"## {heading[0]}", ""]
            i += 1
            if i < len(lines) and re.fullmatch(r"-{3,}", lines[i]):
                i += 1
            continue
        section.append(lines[i])
        i += 1
    flush()
    cls = game_class(env_id)
    out += ["", "## The observation, index by index", "",
            "`env.unwrapped.layout.describe()` at every player count; read a field with "
            "`env.unwrapped.layout.read(obs[\"observation\"], NAME)`.", ""]
    for n in range(cls.min_players, cls.max_players + 1):
        env = make(env_id, num_players=n)
        layout = env.unwrapped.layout
        out += [f"### {n} players ({layout.size} entries)", "", layout.describe(), ""]
        env.close()
    text = "\n".join(out)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def env_ids() -> tuple[str, ...]:
    from plunder.envs import ENV_IDS
    return tuple(ENV_IDS)


def page_name(env_id: str) -> str:
    return env_id.removesuffix("_v0")


# -- hooks --------------------------------------------------------------------------------

def rules_page(env_id: str) -> str | None:
    """A game's rules page as the package ships it (None for a game without one)."""
    from plunder.envs import spec
    from plunder.envs.core.guide import rules_text

    return rules_text(env_id) if spec(env_id).rules is not None else None


def on_files(files, config):
    """Add the generated env pages and the rules pages."""
    for env_id in env_ids():
        files.append(File.generated(config, f"envs/{page_name(env_id)}.md",
                                    content=env_page(env_id)))
        rules = rules_page(env_id)
        if rules is not None:
            files.append(File.generated(config, f"rules/{page_name(env_id)}.md",
                                        content=rules))
    return files


def on_page_markdown(markdown, page, config, files):
    """Fill the config reference and the results table where a page asks for them."""
    if CONFIG_MARKER in markdown:
        markdown = markdown.replace(CONFIG_MARKER, describe_config())
    results = _results()
    if results.BEGIN in markdown:
        markdown = results.marked(markdown, results.table())
    return markdown
