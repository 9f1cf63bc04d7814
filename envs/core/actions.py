"""The single Discrete action space of a game, as named contiguous ranges.

Every game numbers its actions as a sequence of blocks: ``("play", 9), ("discard", 9),
("coin", 40), ("block", 1), ...``. :class:`ActionRanges` turns that list into the
indices (``index("coin", c)``), back (``decode(a) -> ("coin", c)``) and readable names.
The start of each range is also an attribute (``actions.coin``), read on the rules' hot
paths (``mask[actions.coin + c] = 1``) where a method call per index would cost time.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import InvalidArgumentError

#: names a range cannot take: they are the methods and attributes of ActionRanges
_RESERVED = frozenset({"start", "stop", "index", "decode", "size", "names", "ranges",
                       "action_name", "length"})


@dataclass(frozen=True)
class Label:
    """How the actions of one range are named: ``template`` formatted with the offset
    ``k`` within the range, ``k1`` (``k + 1``), ``item`` (``items[k]``, when ``items``
    is given) and, for a range laid out as rows of ``stride`` actions, ``row``/``col``,
    ``row1``/``col1`` (the same counted from 1) and, with ``items``,
    ``row_item``/``col_item`` (``items[row]``, ``items[col]``)."""

    template: str
    items: tuple[Any, ...] | None = None
    stride: int | None = None

    def __call__(self, k: int) -> str:
        extra: dict[str, Any] = {}
        if self.items is not None and not self.stride:
            extra["item"] = self.items[k]
        if self.stride:
            row, col = divmod(k, self.stride)
            extra.update(row=row, col=col, row1=row + 1, col1=col + 1)
            if self.items is not None:
                extra.update(row_item=self.items[row], col_item=self.items[col])
        return self.template.format(k=k, k1=k + 1, **extra)


class ActionRanges:
    """Named contiguous ranges of action indices, in the order given, from 0.

    ``labels`` optionally maps a range name to how its actions are named: a
    :class:`Label`, a template string (``"coin {k}"``, formatted as a ``Label``) or any
    picklable function of the offset ``k``. Ranges without one are named ``"<name>"``
    when they hold one action and ``"<name> <k>"`` otherwise.
    """

    def __init__(self, ranges: Iterable[tuple[str, int]],
                 labels: Mapping[str, Label | str | Callable[[int], str]] | None = None):
        self.ranges: tuple[tuple[str, int], ...] = tuple((str(n), int(c)) for n, c in ranges)
        starts, start = {}, 0
        for name, count in self.ranges:
            if name in _RESERVED or name.startswith("_") or name in starts:
                raise InvalidArgumentError(f"action range name {name!r} is reserved or repeated")
            if count < 0:
                raise InvalidArgumentError(f"action range {name!r} has {count} actions")
            starts[name] = start
            setattr(self, name, start)       # the hot paths read starts as attributes
            start += count
        self._starts = starts
        self._counts = dict(self.ranges)
        self.size = start
        # non-empty ranges by start, for decode
        self._bounds = [starts[n] for n, c in self.ranges if c]
        self._order = [n for n, c in self.ranges if c]
        self._labels = {name: Label(lab) if isinstance(lab, str) else lab
                        for name, lab in (labels or {}).items()}
        unknown = sorted(set(self._labels) - set(starts))
        if unknown:
            raise InvalidArgumentError(f"labels for unknown action range(s) {unknown}")

    @property
    def names(self) -> tuple[str, ...]:
        """The range names, in index order."""
        return tuple(n for n, _ in self.ranges)

    def start(self, name: str) -> int:
        """The first index of range ``name``."""
        try:
            return self._starts[name]
        except KeyError:
            raise InvalidArgumentError(f"no action range {name!r}; ranges: "
                                       f"{list(self._starts)}") from None

    def length(self, name: str) -> int:
        """How many actions range ``name`` holds."""
        self.start(name)
        return self._counts[name]

    def stop(self, name: str) -> int:
        """One past the last index of range ``name``."""
        return self.start(name) + self._counts[name]

    def index(self, name: str, k: int = 0) -> int:
        """The index of the ``k``-th action of range ``name``."""
        start = self.start(name)
        if not 0 <= k < self._counts[name]:
            raise InvalidArgumentError(f"action range {name!r} has {self._counts[name]} "
                                       f"actions, no offset {k}")
        return start + k

    def decode(self, action: int) -> tuple[str, int]:
        """``(range name, offset within it)`` of an action index."""
        a = int(action)
        if not 0 <= a < self.size:
            raise InvalidArgumentError(f"no action {a}; actions are 0..{self.size - 1}")
        i = bisect_right(self._bounds, a) - 1
        return self._order[i], a - self._bounds[i]

    def action_name(self, action: int) -> str:
        """A readable name of an action index (the range's label, or ``"<name> <k>"``)."""
        name, k = self.decode(action)
        label = self._labels.get(name)
        if label is not None:
            return label(k)
        return name if self._counts[name] == 1 else f"{name} {k}"

    def __repr__(self) -> str:
        return f"ActionRanges({list(self.ranges)!r})"


__all__ = ["ActionRanges", "Label"]
