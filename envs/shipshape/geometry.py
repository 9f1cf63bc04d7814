"""Cells, the eight orientations of a 3x3 tile, stacking and voyage scoring.

A tile (crate or hold) is a tuple of 9 cell codes, row-major, top row first:

====== ======================================================
code   meaning
====== ======================================================
0      hole (crate) / blank space (hold)
1      rat
2-4    gold of value 1-3
5-7    cannons of value 1-3
8-10   contraband of value 1-3
====== ======================================================

An orientation is one of the 8 symmetries of the square: ``k % 4`` quarter turns
clockwise, then mirrored left-right when ``k >= 4`` (flipping a crate over mirrors it; its
holes go through). ``orient(cells, k)`` returns the tile as it then lies.
"""

from __future__ import annotations

from collections.abc import Sequence

HOLE = 0
RAT = 1
GOODS = ("gold", "cannon", "contraband")
GOLD, CANNON, CONTRABAND = 0, 1, 2
NUM_CODES = 11
FULL_SHIP_BONUS = 8
#: the parts of one seat's voyage scoring, in the order states store them
SCORE_PARTS = ("gold", "cannons", "contraband", "full_ship", "raw", "coins")

#: orientation names, index = orientation
ORIENTATION_NAMES = (
    "as shown", "turned 90° clockwise", "turned 180°", "turned 90° counter-clockwise",
    "flipped (mirrored)", "turned 90° clockwise, then flipped", "turned 180°, then flipped",
    "turned 90° counter-clockwise, then flipped",
)


def good_code(good: int, value: int) -> int:
    """The cell code of ``good`` (GOLD/CANNON/CONTRABAND) with ``value`` (1-3)."""
    return 2 + 3 * good + (value - 1)


def code_good(code: int) -> tuple[int, int] | None:
    """(good, value) of a goods code, None for a hole/blank or a rat."""
    if code < 2:
        return None
    return (code - 2) // 3, (code - 2) % 3 + 1


TOKENS = {".": HOLE, "R": RAT}
for _g, _letter in enumerate("GCX"):
    for _v in (1, 2, 3):
        TOKENS[f"{_letter}{_v}"] = good_code(_g, _v)
CODE_TOKEN = {c: t for t, c in TOKENS.items()}


def _rotate(perm: tuple[int, ...]) -> tuple[int, ...]:
    # new[r][c] = old[2 - c][r]  (a quarter turn clockwise)
    return tuple(perm[(2 - c) * 3 + r] for r in range(3) for c in range(3))


def _mirror(perm: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(perm[r * 3 + (2 - c)] for r in range(3) for c in range(3))


def _build_perms() -> tuple[tuple[int, ...], ...]:
    perms = []
    for k in range(8):
        p = tuple(range(9))
        for _ in range(k % 4):
            p = _rotate(p)
        if k >= 4:
            p = _mirror(p)
        perms.append(p)
    return tuple(perms)


#: PERMS[k][i] = index of the unoriented tile's cell that lands on cell i in orientation k
PERMS = _build_perms()
_PERM_INDEX = {p: k for k, p in enumerate(PERMS)}
#: COMPOSE[s][a] = orientation of "orientation s, then action a applied to that grid"
COMPOSE = tuple(
    tuple(_PERM_INDEX[tuple(PERMS[s][PERMS[a][i]] for i in range(9))] for a in range(8))
    for s in range(8)
)


def orient(cells: Sequence[int], k: int) -> tuple[int, ...]:
    """``cells`` as they lie in orientation ``k``."""
    p = PERMS[k]
    return tuple(cells[p[i]] for i in range(9))


def stack_visible(printed: Sequence[int], crates: Sequence[Sequence[int]]) -> list[int]:
    """Top-down view of a hold with ``crates`` (oriented, bottom first) stacked on it."""
    out = list(printed)
    for crate in crates:
        for i, c in enumerate(crate):
            if c != HOLE:
                out[i] = c
    return out


def totals(visible: Sequence[int]) -> tuple[int, int, int, int, bool]:
    """(gold, cannons, contraband, rats, full) of a top-down view.

    ``full``: every one of the 9 cells shows a good (a rat or a blank breaks it).
    """
    value = [0, 0, 0]
    rats = 0
    goods_cells = 0
    for c in visible:
        if c == RAT:
            rats += 1
        elif c >= 2:
            value[(c - 2) // 3] += (c - 2) % 3 + 1
            goods_cells += 1
    return value[0], value[1], value[2], rats, goods_cells == 9


def score_voyage(visibles: Sequence[Sequence[int]]) -> list[dict[str, int]]:
    """The voyage's coins of every scoring seat, with the breakdown.

    gold = gold - rats; cannons = cannons - the table's lowest cannons; contraband = its
    value unless it is the table's highest (every seat tied for highest gets 0); 8 for a
    full ship; a total below 0 counts as 0.
    """
    t = [totals(v) for v in visibles]
    low_cannon = min(x[1] for x in t)
    high_contra = max(x[2] for x in t)
    out = []
    for gold, cannon, contra, rats, full in t:
        parts = {
            "gold": gold - rats,
            "cannons": cannon - low_cannon,
            "contraband": 0 if contra == high_contra else contra,
            "full_ship": FULL_SHIP_BONUS if full else 0,
        }
        raw = sum(parts.values())
        parts["raw"] = raw
        parts["coins"] = max(0, raw)
        out.append(parts)
    return out


def grid_rows(cells: Sequence[int]) -> list[str]:
    """Three text rows of a tile, e.g. ``['G2 .  R ', ...]``."""
    return [" ".join(f"{CODE_TOKEN[c]:<2}" for c in cells[r * 3:r * 3 + 3]) for r in range(3)]
