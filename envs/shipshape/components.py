"""ShipShape's component data: the 54 crates and 18 holds of ``configs/games/shipshape.toml``.

``default_components()`` reads and validates the packaged file (once per process);
``components_from_dict(data)`` validates any mapping of the same shape and raises
:class:`ConfigError` naming the bad entry. ``design_rule_problems(components)`` lists where
the data breaks this project's design rules (the committed data has none; a user who types
in the real tiles may break them on purpose, so the loader does not enforce them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from plunder.envs.core.config import check_keys, packaged_components
from plunder.envs.core.errors import ConfigError

from .geometry import HOLE, RAT, TOKENS, code_good

NUM_CRATES = 54
NUM_HOLDS = 18
HOLDS_PER_VOYAGE = 6
#: hold numbers of each voyage's set
VOYAGE_HOLDS = (tuple(range(1, 7)), tuple(range(7, 13)), tuple(range(13, 19)))


@dataclass(frozen=True)
class Components:
    """Tiles by number: ``crates[i]`` is crate ``i + 1``, ``holds[i]`` is hold ``i + 1``."""

    crates: tuple[tuple[int, ...], ...]
    holds: tuple[tuple[int, ...], ...]

    def crate(self, crate_id: int) -> tuple[int, ...]:
        """The cells of crate ``crate_id`` (1-54), unoriented."""
        return self.crates[crate_id - 1]

    def hold(self, number: int) -> tuple[int, ...]:
        """The printed cells of hold ``number`` (1-18)."""
        return self.holds[number - 1]


def _parse_tile(rows: Any, where: str, max_value: int) -> tuple[int, ...]:
    if not isinstance(rows, list) or len(rows) != 3:
        raise ConfigError(f"{where}: expected a list of 3 rows, got {rows!r}")
    cells: list[int] = []
    for r, row in enumerate(rows):
        if not isinstance(row, str):
            raise ConfigError(f"{where}, row {r + 1}: expected a string of 3 tokens, got {row!r}")
        tokens = row.split()
        if len(tokens) != 3:
            raise ConfigError(f"{where}, row {r + 1}: expected 3 tokens, got {row!r}")
        for tok in tokens:
            code = TOKENS.get(tok.upper())
            if code is None:
                raise ConfigError(
                    f"{where}, row {r + 1}: unknown cell {tok!r}; use . R G1-G3 C1-C3 X1-X3"
                )
            good = code_good(code)
            if good is not None and good[1] > max_value:
                raise ConfigError(
                    f"{where}, row {r + 1}: cell {tok!r} exceeds the highest value {max_value}"
                )
            cells.append(code)
    return tuple(cells)


def _numbered(section: Any, name: str, count: int) -> dict[int, Any]:
    if not isinstance(section, dict):
        raise ConfigError(f"configs/games/shipshape.toml: {name!r} must map numbers to tiles")
    bad = [k for k in section if isinstance(k, bool) or not isinstance(k, int)]
    if bad:
        raise ConfigError(f"{name}: keys must be numbers 1-{count}, got {bad[:5]!r}")
    expected = set(range(1, count + 1))
    if set(section) != expected:
        missing = sorted(expected - set(section))
        extra = sorted(set(section) - expected)
        raise ConfigError(
            f"{name}: need exactly {count} entries numbered 1-{count}"
            + (f"; missing {missing}" if missing else "")
            + (f"; unexpected {extra}" if extra else "")
        )
    return section


def components_from_dict(data: Any) -> Components:
    """Validated components from a parsed TOML mapping (raises ConfigError)."""
    check_keys(data, "configs/games/shipshape.toml", ["crates", "holds"])
    crates_in = _numbered(data["crates"], "crates", NUM_CRATES)
    holds_in = _numbered(data["holds"], "holds", NUM_HOLDS)
    crates = tuple(_parse_tile(crates_in[i], f"crate {i}", 3) for i in range(1, NUM_CRATES + 1))
    holds = tuple(_parse_tile(holds_in[i], f"hold {i}", 2) for i in range(1, NUM_HOLDS + 1))
    for i, cells in enumerate(crates, 1):
        if all(c == HOLE for c in cells):
            raise ConfigError(f"crate {i}: a crate needs at least one icon")
    for number in VOYAGE_HOLDS[0]:
        if any(c not in (HOLE, RAT) for c in holds[number - 1]):
            raise ConfigError(f"hold {number}: Voyage 1 holds (1-6) show only rats")
    return Components(crates=crates, holds=holds)


def default_components() -> Components:
    """The packaged component data, validated (parsed once per process)."""
    return packaged_components("shipshape", components_from_dict)


load_components = default_components  # the name the tests and older code use


def crate_stats(cells) -> dict[str, int]:
    """Holes, rats, icon total (sum of goods values), and value per good of one tile."""
    holes = sum(1 for c in cells if c == HOLE)
    rats = sum(1 for c in cells if c == RAT)
    per_good = [0, 0, 0]
    count = [0, 0, 0]
    for c in cells:
        g = code_good(c)
        if g is not None:
            per_good[g[0]] += g[1]
            count[g[0]] += 1
    return {"holes": holes, "rats": rats, "icon_total": sum(per_good),
            "gold": per_good[0], "cannon": per_good[1], "contraband": per_good[2],
            "gold_icons": count[0], "cannon_icons": count[1], "contraband_icons": count[2]}


def design_rule_problems(comp: Components) -> list[str]:
    """Where ``comp`` breaks the completion's design rules (empty list: none).

    Crates: 2-4 holes each; at most one rat each; every icon total (sum of goods values)
    within ±2 of the set's mean; the three goods balanced across the set (value totals
    within 3 of each other, icon counts within 6). Holds: Voyage 1 holds show only rats,
    1-2 each; Voyage 2 and 3 holds show rats and printed goods; within each set a higher
    number is harder (never fewer rats, never more printed goods value).
    """
    problems = []
    stats = [crate_stats(c) for c in comp.crates]
    mean = sum(s["icon_total"] for s in stats) / len(stats)
    for i, s in enumerate(stats, 1):
        if not 2 <= s["holes"] <= 4:
            problems.append(f"crate {i} has {s['holes']} holes (need 2-4)")
        if s["rats"] > 1:
            problems.append(f"crate {i} has {s['rats']} rats (at most 1)")
        if abs(s["icon_total"] - mean) > 2:
            problems.append(f"crate {i} icon total {s['icon_total']} is not within 2 of "
                            f"the mean {mean:.2f}")
    values = [sum(s[g] for s in stats) for g in ("gold", "cannon", "contraband")]
    if max(values) - min(values) > 3:
        problems.append(f"goods value totals unbalanced: gold/cannon/contraband = {values}")
    icons = [sum(s[f"{g}_icons"] for s in stats) for g in ("gold", "cannon", "contraband")]
    if max(icons) - min(icons) > 6:
        problems.append(f"goods icon counts unbalanced: gold/cannon/contraband = {icons}")
    for voyage, numbers in enumerate(VOYAGE_HOLDS, 1):
        prev = None
        for number in numbers:
            s = crate_stats(comp.hold(number))
            printed = s["icon_total"]
            if voyage == 1:
                if printed or not 1 <= s["rats"] <= 2:
                    problems.append(f"hold {number}: Voyage 1 holds show only 1-2 rats")
            elif printed == 0 or s["rats"] == 0:
                problems.append(f"hold {number}: Voyage {voyage} holds show rats and goods")
            if prev is not None and (s["rats"] < prev[0] or printed > prev[1]):
                problems.append(f"hold {number} is easier than hold {number - 1}")
            prev = (s["rats"], printed)
    return problems
