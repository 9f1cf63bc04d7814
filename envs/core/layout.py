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


@dataclass(frozen=True)
class EntityGroup:
    """Interchangeable objects of one kind (say, coins) in the observation and actions.

    A field in ``fields`` is laid out member by member: member ``e`` owns the ``w = size /
    count`` values starting at ``e * w``. A field in ``strided_fields`` is laid out the
    other way round (say, one block of all members per seat): member ``e`` owns the values
    ``e, e + count, e + 2 * count, ...``. Every number in ``actions`` starts a range of
    ``count`` actions in which action ``start + e`` names member ``e``. A policy may then
    score the members with shared weights (``policy.kind: entity``, docs/training.md).

    ``static`` gives each member fixed features that are not in the observation because
    they never change (a card's kind, suit and value, say): one row of numbers per member.
    Without them a shared encoder could not tell apart members whose ids mean different
    things.
    """

    name: str
    count: int
    fields: tuple[str, ...] = ()
    actions: tuple[int, ...] = ()
    strided_fields: tuple[str, ...] = ()
    static: tuple[tuple[float, ...], ...] = ()

    def static_features(self) -> np.ndarray:
        """The members' fixed features, shape (count, k); k = 0 without ``static``."""
        if not self.static:
            return np.zeros((self.count, 0), np.float32)
        if len({len(row) for row in self.static}) != 1:
            raise ValueError(f"entity group {self.name!r}: static feature rows differ in "
                             "length")
        table = np.asarray(self.static, np.float32)
        if table.ndim != 2 or table.shape[0] != self.count:
            raise ValueError(f"entity group {self.name!r}: static features need one row per "
                             f"member ({self.count}), got shape {table.shape}")
        return table

    def feature_index(self, layout: "ObservationLayout") -> np.ndarray:
        """Observation indices of each member's features, shape (count, features)."""
        if self.count <= 0 or not (self.fields or self.strided_fields):
            raise ValueError(f"entity group {self.name!r} needs a count and fields")
        blocks = []
        for name, strided in [(f, False) for f in self.fields] + \
                [(f, True) for f in self.strided_fields]:
            s = layout.slice(name)
            size = s.stop - s.start
            if size % self.count:
                raise ValueError(f"entity group {self.name!r}: field {name!r} has {size} "
                                 f"values, not a multiple of {self.count} members")
            w = size // self.count
            grid = np.arange(size).reshape(w, self.count).T if strided else \
                np.arange(size).reshape(self.count, w)
            blocks.append(s.start + grid)
        return np.concatenate(blocks, axis=1)

    def check_actions(self, num_actions: int) -> None:
        """Raise ValueError unless every action range lies inside the action space."""
        for start in self.actions:
            if not 0 <= start <= num_actions - self.count:
                raise ValueError(f"entity group {self.name!r}: actions {start}.."
                                 f"{start + self.count - 1} exceed the {num_actions} actions")


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
