"""Plain-text tables, prose and commands that fit a terminal of 80 columns, written once
for every command that prints them (``plunder list``, ``eval``, ``speed``, ``train``,
``benchmark ...``).

:func:`text_table` sizes each column to its cells and wraps the headings onto more
lines before it narrows anything else; a table still too wide is printed in bands of
columns, each repeating the first (key) columns, so that nothing is ever cut. Prose goes
through :func:`wrap`, shell commands through :func:`command_lines` (broken before an
option, with ``\\`` continuations, so they still paste as one command).
"""

from __future__ import annotations

import shlex
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

#: the width every command's output fits
WIDTH = 80
#: the space between two columns
GAP = "  "


def wrap(text: str, width: int = WIDTH, indent: str = "", hang: str | None = None) -> str:
    """``text`` wrapped at spaces to ``width`` columns (words are never broken); lines
    start with ``indent``, lines after the first with ``hang`` (default: ``indent``)."""
    return textwrap.fill(text, width=width, initial_indent=indent,
                         subsequent_indent=indent if hang is None else hang,
                         break_long_words=False, break_on_hyphens=False)


def wrapping(echo: Callable[[str], None], width: int = WIDTH) -> Callable[[str], None]:
    """``echo`` with each message of one line wrapped as prose (:func:`wrap`, later lines
    indented); a message of several lines is taken as laid out already (a table, a
    command)."""
    def say(text: str) -> None:
        echo(text if "\n" in text or len(text) <= width else wrap(text, width, hang="    "))
    return say


def command_lines(command: str, width: int = WIDTH, indent: str = "  ") -> str:
    """A shell command laid out in ``width`` columns: broken before an option (a word
    starting with ``-``) where a line would be too long, each broken line ending in
    ``\\``, so the lines paste as the one command."""
    words = shlex.split(command)
    quoted = [shlex.quote(w) for w in words]
    lines: list[str] = []
    line = indent
    for i, word in enumerate(quoted):
        sep = "" if line == indent else " "
        # keep an option with its value: break before an option when both do not fit
        unit = word
        if word.startswith("-") and i + 1 < len(quoted) and not quoted[i + 1].startswith("-"):
            unit = f"{word} {quoted[i + 1]}"
        if line != indent and words[i].startswith("-") and \
                len(line) + len(sep) + len(unit) + 2 > width:
            lines.append(line + " \\")
            line = indent + "    "
            sep = ""
        line += sep + word
    lines.append(line)
    return "\n".join(lines)


def text_table(headers: Sequence[str], rows: Sequence[Sequence[Any]], *,
               align: str | None = None, width: int = WIDTH, keep: int = 1,
               title: str | None = None) -> str:
    """``rows`` under ``headers`` as plain text no wider than ``width``: columns two
    spaces apart, headings wrapped at spaces when that makes room, numbers right-aligned
    (``align``: one ``l``, ``r`` or ``w`` per column, ``w`` a left-aligned column whose
    cells wrap at spaces to the room left; default the first column left, the others
    right). A table that still does not fit is printed in bands of columns, each band
    repeating the first ``keep`` columns. ``title`` (wrapped) goes above."""
    cells = [[_text(c) for c in row] for row in rows]
    n = len(headers)
    if any(len(row) != n for row in cells):
        raise ValueError("every row needs one cell per heading")
    align = align or "l" + "r" * (n - 1)
    out = [wrap(title, width)] if title else []
    keep = min(keep, n)
    bands = _bands(list(headers), cells, width, keep, align)
    for k, cols in enumerate(bands):
        if k:
            out.append("")
        out.append(_render([headers[i] for i in cols], [[r[i] for i in cols] for r in cells],
                           "".join(align[i] for i in cols), width))
    return "\n".join(out)


def _text(cell: Any) -> str:
    return "-" if cell is None else str(cell)


def _cell_width(cells: list[list[str]], i: int) -> int:
    return max((len(line) for row in cells for line in row[i].split("\n")), default=0)


def _least_width(header: str, cells: list[list[str]], i: int, kind: str = "l") -> int:
    """The narrowest a column gets: its widest cell (its longest word, for a wrapping
    column), and its heading's longest word."""
    widest = max((len(w) for row in cells for w in row[i].split()), default=0) \
        if kind == "w" else _cell_width(cells, i)
    return max(widest, max((len(w) for w in header.split()), default=0), 1)


def _bands(headers: list[str], cells: list[list[str]], width: int, keep: int,
           align: str) -> list[list[int]]:
    """The columns of each band: every column once, the first ``keep`` in every band."""
    least = [_least_width(h, cells, i, align[i]) for i, h in enumerate(headers)]
    key = list(range(keep))
    key_width = sum(least[i] + len(GAP) for i in key)
    if sum(least) + len(GAP) * (len(headers) - 1) <= width:
        return [list(range(len(headers)))]
    bands: list[list[int]] = []
    band: list[int] = []
    used = key_width
    for i in range(keep, len(headers)):
        if band and used + least[i] > width:
            bands.append(key + band)
            band, used = [], key_width
        band.append(i)
        used += least[i] + len(GAP)
    bands.append(key + band)
    return bands


def _render(headers: list[str], cells: list[list[str]], align: str, width: int) -> str:
    """One band: each column as wide as its cells, headings wrapped to fit ``width``."""
    n = len(headers)
    widths = [_least_width(h, cells, i, align[i]) for i, h in enumerate(headers)]
    room = width - len(GAP) * (n - 1)
    # headings on one line where there is room, the ones that need least of it first
    for i in sorted(range(n), key=lambda j: len(headers[j]) - widths[j]):
        if len(headers[i]) > widths[i] and sum(widths) - widths[i] + len(headers[i]) <= room:
            widths[i] = len(headers[i])
    # the room left goes to the wrapping columns, up to their widest cells
    for i in (j for j in range(n) if align[j] == "w"):
        widths[i] = max(widths[i], min(_cell_width(cells, i), room - sum(widths) + widths[i]))
    # a column wider than the room left for it (a long cell) wraps its cells
    over = sum(widths) - room
    if over > 0:
        i = max(range(n), key=lambda j: widths[j])
        widths[i] = max(widths[i] - over, 8)
    head = [textwrap.wrap(h, widths[i], break_long_words=True) or [""]
            for i, h in enumerate(headers)]
    depth = max(len(h) for h in head)
    head = [[""] * (depth - len(h)) + h for h in head]      # headings sit on the rule
    lines = [_line([head[i][d] for i in range(n)], widths, align) for d in range(depth)]
    lines.append(GAP.join("-" * w for w in widths))
    for row in cells:
        parts = [_cell_lines(c, widths[i]) for i, c in enumerate(row)]
        for d in range(max(len(p) for p in parts)):
            lines.append(_line([p[d] if d < len(p) else "" for p in parts], widths, align))
    return "\n".join(lines)


def _cell_lines(cell: str, w: int) -> list[str]:
    out = []
    for part in cell.split("\n"):
        out += textwrap.wrap(part, w, break_long_words=True, break_on_hyphens=False) \
            if len(part) > w else [part]
    return out or [""]


def _line(parts: list[str], widths: list[int], align: str) -> str:
    return GAP.join(p.rjust(w) if a == "r" else p.ljust(w)
                    for p, w, a in zip(parts, widths, align)).rstrip()


__all__ = ["GAP", "WIDTH", "command_lines", "text_table", "wrap", "wrapping"]
