"""Named, documented layouts of flat observation vectors.

A layout is a list of fields; each field has a name, a size, value bounds and a one-line
meaning. ``layout.describe()`` prints the table index by index, ``layout.slice(name)``
finds a field, and ``layout.read(obs, name)`` reads it back (bots use this).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Field:
    """One named block of the observation vector."""

    name: str
    size: int
    low: float
    high: float
    doc: str


class ObservationLayout:
    """Ordered fields making up one flat float32 observation vector."""

    def __init__(self, fields: list[Field]):
        names = [f.name for f in fields]
        if len(set(names)) != len(names):
            dup = sorted({n for n in names if names.count(n) > 1})
            raise ValueError(f"duplicate observation field names: {dup}")
        self.fields = tuple(fields)
        self._slices: dict[str, slice] = {}
        start = 0
        for f in fields:
            if f.size <= 0:
                raise ValueError(f"field {f.name!r} has size {f.size}")
            self._slices[f.name] = slice(start, start + f.size)
            start += f.size
        self.size = start
        self.low = np.concatenate([np.full(f.size, f.low, np.float32) for f in fields])
        self.high = np.concatenate([np.full(f.size, f.high, np.float32) for f in fields])

    def slice(self, name: str) -> slice:
        """The index range of field ``name``."""
        try:
            return self._slices[name]
        except KeyError:
            raise KeyError(f"no observation field {name!r}; fields: {list(self._slices)}") from None

    def read(self, obs: np.ndarray, name: str) -> np.ndarray:
        """The values of field ``name`` in observation ``obs``."""
        return obs[..., self.slice(name)]

    def zeros(self) -> np.ndarray:
        """A blank observation vector."""
        return np.zeros(self.size, dtype=np.float32)

    def names(self) -> list[str]:
        """Field names in order."""
        return [f.name for f in self.fields]

    def describe(self) -> str:
        """A text table: index range, name, bounds and meaning of every field."""
        rows = ["| indices | field | range | meaning |", "|---|---|---|---|"]
        for f in self.fields:
            s = self._slices[f.name]
            idx = f"{s.start}" if f.size == 1 else f"{s.start}-{s.stop - 1}"
            rows.append(f"| {idx} | `{f.name}` | {f.low:g}..{f.high:g} | {f.doc} |")
        return "\n".join(rows)


class LayoutBuilder:
    """Collects fields in order; ``build()`` returns the layout."""

    def __init__(self):
        self._fields: list[Field] = []

    def add(self, name: str, size: int, doc: str, low: float = 0.0, high: float = 1.0):
        """Append a field of ``size`` values in [low, high]."""
        self._fields.append(Field(name, int(size), float(low), float(high), doc))
        return self

    def build(self) -> ObservationLayout:
        """The finished layout."""
        return ObservationLayout(self._fields)
