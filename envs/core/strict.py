"""Strict reading of untrusted text: numbers, and JSON of bounded nesting.

Every place that reads a number out of a string a user or a web page wrote (a bot spec's
``search:8``, a ``?seat=1`` query, a TOML key, a typed move) goes through
:func:`whole_number` / :func:`is_whole_number` (:func:`is_decimal_number` for a
fraction): ASCII digits only (``str.isdigit`` also accepts ``"²"`` and other digits
``int()`` refuses) and a bounded length, so a huge number string costs nothing to
refuse. :func:`load_json` reads JSON after checking its nesting depth on the raw text
(:func:`json_depth`), and :func:`nesting_depth` measures data already parsed, so a deeply
nested document is refused with a clear error instead of a ``RecursionError`` from the
parser or from the code that walks the result.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from .errors import InvalidArgumentError

#: at most this many digits: every count the project takes is far smaller
MAX_DIGITS = 18
_WHOLE_NUMBER = re.compile(r"[0-9]{1,%d}" % MAX_DIGITS)

#: deepest nesting of arrays and objects :func:`load_json` reads (a replay file or a
#: saved state is a handful of levels deep)
MAX_JSON_DEPTH = 64


def is_whole_number(text: Any) -> bool:
    """Whether ``text`` is a string of 1 to ``MAX_DIGITS`` ASCII digits."""
    return isinstance(text, str) and _WHOLE_NUMBER.fullmatch(text) is not None


def whole_number(text: Any, what: str, low: int = 0, high: int | None = None) -> int:
    """``text`` read as a whole number within [low, high]; an ``InvalidArgumentError``
    naming ``what`` otherwise."""
    if isinstance(text, str) and len(text) > MAX_DIGITS and text.isascii() and \
            re.fullmatch(r"[0-9]+", text):
        raise InvalidArgumentError(f"{what}: {text[:12]}... is too large ({len(text)} digits)")
    if not is_whole_number(text):
        raise InvalidArgumentError(f"{what} must be a whole number written with the digits "
                                   f"0-9, got {text!r}")
    value = int(text)
    if value < low or (high is not None and value > high):
        bound = f"{low}..{high}" if high is not None else f"{low} or more"
        raise InvalidArgumentError(f"{what} must be {bound}, got {value}")
    return value


_DECIMAL = re.compile(r"-?[0-9]{1,%d}(?:\.[0-9]{1,%d})?" % (MAX_DIGITS, MAX_DIGITS))


def is_decimal_number(text: Any) -> bool:
    """Whether ``text`` is a decimal number such as ``0.05`` or ``-2`` (ASCII digits, no
    exponent, no ``nan`` or ``inf``)."""
    return isinstance(text, str) and _DECIMAL.fullmatch(text) is not None


def json_depth(text: str | bytes | bytearray) -> int:
    """How deeply the arrays and objects of a JSON text nest (exact for valid JSON; any
    number for invalid JSON, which the parser refuses anyway). Linear and vectorized: it
    runs before the parser, on the raw text."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    chars = np.frombuffer(data, np.uint8)
    # work on the positions of the few characters that matter, not on every character
    quotes = np.flatnonzero(chars == 0x22)
    backslashes = np.flatnonzero(chars == 0x5C)
    if len(backslashes) and len(quotes):
        # a quote is escaped when an odd run of backslashes comes right before it
        run_key = backslashes - np.arange(len(backslashes))   # constant along a run
        run_start = np.searchsorted(run_key, run_key, "left")
        before = np.searchsorted(backslashes, quotes - 1)
        found = np.minimum(before, len(backslashes) - 1)
        touching = (before < len(backslashes)) & (backslashes[found] == quotes - 1)
        run_length = found - run_start[found] + 1
        quotes = quotes[~(touching & (run_length % 2 == 1))]
    opening = chars == 0x5B
    opening |= chars == 0x7B
    closing = chars == 0x5D
    closing |= chars == 0x7D
    brackets = np.flatnonzero(opening | closing)
    if not len(brackets):
        return 0
    # a bracket counts when an even number of string quotes comes before it
    outside = np.searchsorted(quotes, brackets) % 2 == 0
    brackets = brackets[outside]
    if not len(brackets):
        return 0
    step = np.where(opening[brackets], 1, -1)
    return max(0, int(np.cumsum(step).max()))


def nesting_depth(value: Any, limit: int = MAX_JSON_DEPTH) -> int:
    """How deeply the lists, tuples and mappings of already parsed data nest, counted up
    to ``limit + 1`` (then it stops: data over the limit costs no more to refuse). No
    recursion, so any depth is measured."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            children = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > limit:
            return deepest
        stack.extend((child, depth + 1) for child in children)
    return deepest


def load_json(text: str | bytes | bytearray, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads(text)`` for a text nested at most ``max_depth`` levels; a
    ``ValueError`` (as ``json.loads`` raises for malformed text) otherwise."""
    depth = json_depth(text)
    if depth > max_depth:
        raise ValueError(f"JSON nested {depth} levels deep; at most {max_depth} are read")
    try:
        return json.loads(text)
    except RecursionError:      # only reachable through a huge max_depth
        raise ValueError("JSON nested too deeply to read") from None
