"""Named, documented layouts of flat observation vectors.

A layout is a list of fields; each field has a name, a size, value bounds and a one-line
meaning. ``layout.describe()`` prints the table index by index, ``layout.slice(name)``
finds a field, and ``layout.read(obs, name)`` reads it back (bots use this).

A field is either part of the *information state* (what the player knows: the table, its
hand, what it saw) or *derived*: computed from the player's view to help bots learn (odds,
outlooks, afterstate scores, sums of other fields). A game declares the derived fields with
``add(..., derived=True)`` or inside ``with builder.derived():``; they need not be
contiguous. ``layout.information_index`` and ``layout.derived_index`` select them from the
full vector, and ``layout.without_derived()`` is the layout of the information state alone
(what an env made with derived_features=False returns).
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from .errors import InvalidArgumentError

#: the heading ``describe()`` puts above the derived block
DERIVED_HEADING = ("Derived fields (computed from the view to help bots learn; "
                   "derived_features=False leaves them out):")


@dataclass(frozen=True)
class Field:
    """One named block of the observation vector (``derived``: computed from the view as a
    convenience, not part of the information state)."""

    name: str
    size: int
    low: float
    high: float
    doc: str
    derived: bool = False


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
        #: the fields of the information state, and the derived ones, in vector order
        self.information_fields = tuple(f for f in self.fields if not f.derived)
        self.derived_fields = tuple(f for f in self.fields if f.derived)
        #: their indices in this layout's vector (``obs[..., information_index]``)
        self.information_index = self._indices(self.information_fields)
        self.derived_index = self._indices(self.derived_fields)
        self.information_size = len(self.information_index)
        #: the layout this one was taken from, and where each of its values lies there
        #: (the layout itself and 0..size-1 unless made by ``without_derived()``)
        self.full_layout = self
        self.full_index = np.arange(self.size, dtype=np.intp)
        self._without_derived: ObservationLayout | None = None

    def _indices(self, fields) -> np.ndarray:
        parts = [np.arange(self._slices[f.name].start, self._slices[f.name].stop)
                 for f in fields]
        return np.concatenate(parts).astype(np.intp) if parts else np.zeros(0, np.intp)

    def slice(self, name: str) -> slice:
        """The index range of field ``name``."""
        try:
            return self._slices[name]
        except KeyError:
            raise KeyError(f"no observation field {name!r}; fields: {list(self._slices)}") from None

    def read(self, obs: np.ndarray, name: str) -> np.ndarray:
        """The values of field ``name`` in observation ``obs`` (a vector of this layout's
        size, or a batch of them)."""
        if obs.shape[-1] != self.size:
            raise InvalidArgumentError(self._size_message(obs.shape[-1]))
        return obs[..., self.slice(name)]

    def _size_message(self, got: int) -> str:
        full = self.full_layout
        hint = ""
        if got == full.information_size and full.derived_fields and self is full:
            hint = (" (that is the information state alone, as an env made with "
                    "derived_features=False returns it: read it with "
                    "env.unwrapped.layout, or give bots env.unwrapped.full_observation(agent))")
        elif got == full.size and self is not full:
            hint = " (that is the full vector: read it with layout.full_layout)"
        return f"observation has {got} values, this layout {self.size}{hint}"

    def without_derived(self) -> "ObservationLayout":
        """The layout of the information state alone: this one's fields less the derived
        ones, laid end to end (``full_layout`` and ``full_index`` lead back here). A layout
        without derived fields is its own."""
        if not self.derived_fields:
            return self
        if self._without_derived is None:
            reduced = ObservationLayout(list(self.information_fields))
            reduced.full_layout = self
            reduced.full_index = self.information_index
            self._without_derived = reduced
        return self._without_derived

    def information(self, obs: np.ndarray) -> np.ndarray:
        """The information state of full observation(s) ``obs``: the derived values left
        out (a new array)."""
        if obs.shape[-1] != self.size:
            raise InvalidArgumentError(self._size_message(obs.shape[-1]))
        return obs[..., self.information_index]

    def zeros(self) -> np.ndarray:
        """A blank observation vector."""
        return np.zeros(self.size, dtype=np.float32)

    def names(self) -> list[str]:
        """Field names in order."""
        return [f.name for f in self.fields]

    def describe(self) -> str:
        """A text table: index range, name, bounds and meaning of every field; the derived
        fields follow in a table of their own, under a heading (their indices are still
        those of the full vector)."""
        rows = self._table(self.information_fields)
        if self.derived_fields:
            rows += ["", DERIVED_HEADING, ""] + self._table(self.derived_fields)
        return "\n".join(rows)

    def _table(self, fields) -> list[str]:
        rows = ["| indices | field | range | meaning |", "|---|---|---|---|"]
        for f in fields:
            s = self._slices[f.name]
            idx = f"{s.start}" if f.size == 1 else f"{s.start}-{s.stop - 1}"
            rows.append(f"| {idx} | `{f.name}` | {f.low:g}..{f.high:g} | {f.doc} |")
        return rows


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
        self._derived = False

    def add(self, name: str, size: int, doc: str, low: float = 0.0, high: float = 1.0,
            derived: bool = False):
        """Append a field of ``size`` values in [low, high]; ``derived=True`` (or a
        ``with derived():`` block around the call) puts it in the derived block."""
        self._fields.append(Field(name, int(size), float(low), float(high), doc,
                                  bool(derived or self._derived)))
        return self

    @contextmanager
    def derived(self):
        """Fields added inside ``with builder.derived():`` are derived."""
        outer, self._derived = self._derived, True
        try:
            yield self
        finally:
            self._derived = outer

    def build(self) -> ObservationLayout:
        """The finished layout."""
        return ObservationLayout(self._fields)
