"""All Hands on Deck component data: the 90 cards and the score sheet.

Loaded from ``configs/games/all_hands_crew.toml`` and validated (every problem raises a
:class:`ConfigError` naming the key). From the data this module builds the list of
combinations (the action space's "lay" block) and the best-partition solver used for the
final layout.

Card kinds are indices 0..8: the six crew kinds (Cook, Gunner, Lookout, Carpenter,
Navigator, Bosun) then the three captains (Anchor, Cutlass, Kraken). Cards of one kind are
interchangeable in play; the "5"/"6" marks only decide which cards are in the game.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from plunder.envs.core.board import plural
from plunder.envs.core.config import check_int, check_keys, check_type, packaged_components
from plunder.envs.core.errors import ConfigError
from plunder.envs.core.memo import remember

NUM_CREW = 6
NUM_CAPTAINS = 3
NUM_KINDS = NUM_CREW + NUM_CAPTAINS
#: a row of card counts with no card: one shared tuple, so the views' rows and the
#: encoder's keys compare equal by identity first
NO_CARDS = (0,) * NUM_KINDS
PAIR_ACTIONS = ("none", "double_hire", "snatch", "spyglass", "short_rations", "curse")
#: actions that need a chosen player right after the pair is laid
TARGETED = ("snatch", "short_rations", "curse")
WHERE = "configs/games/all_hands_crew.toml"


@dataclass(frozen=True)
class Combo:
    """One combination of the score sheet."""

    name: str
    counts: tuple[int, ...]   # cards used per kind (NUM_KINDS entries)
    points: int
    action: str               # a PAIR_ACTIONS entry ("none" for most)
    category: str             # pair, three, four, street, full_street, table, captain_three, captain_pair

    @property
    def captains(self) -> int:
        """Captains in this combination (the tie-break counts them)."""
        return sum(self.counts[NUM_CREW:])


@dataclass(frozen=True)
class Components:
    """Validated component data of one All Hands on Deck set."""

    kind_names: tuple[str, ...]
    short_names: tuple[str, ...]
    copies: dict          # num_players -> tuple of cards per kind in the game
    deal: dict            # num_players -> cards per Drawing Pile
    stock_cards: int
    pair_points: tuple[int, ...]
    pair_actions: tuple[str, ...]
    table_points: tuple[int, ...]
    single_points: tuple[int, ...]
    three_of_a_kind: int
    four_of_a_kind: int
    street: int
    full_street: int
    captain_three: int
    captain_pair: int
    curse: int
    spyglass_extra: int
    short_rations_stock: int
    combos: tuple[Combo, ...]

    def single_value(self, kind: int) -> int:
        """Score of one card of ``kind`` left over at the end (captains are penalised)."""
        return self.single_points[kind - NUM_CREW] if kind >= NUM_CREW else 0


def _short(name: str) -> str:
    return name.replace("Captain ", "Cpt ")


def parse_components(data: dict, where: str = WHERE) -> Components:
    """Validate raw component data and build the combinations."""
    check_keys(data, where, ["crew", "captains", "marks_used", "cards_in_game", "deal",
                             "stock_cards", "score_sheet", "spyglass_extra",
                             "short_rations_stock"])
    crew = check_type(data["crew"], list, f"{where}: crew")
    caps = check_type(data["captains"], list, f"{where}: captains")
    if len(crew) != NUM_CREW:
        raise ConfigError(f"{where}: crew: the score sheet (streets of 5 and 6 kinds) needs "
                          f"exactly {NUM_CREW} crew kinds, got {len(crew)}")
    if len(caps) != NUM_CAPTAINS:
        raise ConfigError(f"{where}: captains: expected exactly {NUM_CAPTAINS} captain kinds, "
                          f"got {len(caps)}")
    names, plain, m5, m6 = [], [], [], []
    pair_points, pair_actions, table_points, single_points = [], [], [], []
    for i, entry in enumerate(crew):
        at = f"{where}: crew[{i}]"
        check_keys(entry, at, ["name", "plain", "marked_5", "marked_6", "pair", "pair_action"])
        names.append(check_type(entry["name"], str, f"{at}.name"))
        plain.append(check_int(entry["plain"], f"{at}.plain", 0, 40))
        m5.append(check_int(entry["marked_5"], f"{at}.marked_5", 0, 40))
        m6.append(check_int(entry["marked_6"], f"{at}.marked_6", 0, 40))
        pair_points.append(check_int(entry["pair"], f"{at}.pair", -100, 100))
        action = check_type(entry["pair_action"], str, f"{at}.pair_action")
        if action not in PAIR_ACTIONS:
            raise ConfigError(f"{at}.pair_action: unknown action {action!r}; "
                              f"choose one of {list(PAIR_ACTIONS)}")
        pair_actions.append(action)
    for i, entry in enumerate(caps):
        at = f"{where}: captains[{i}]"
        check_keys(entry, at, ["name", "plain", "marked_5", "marked_6", "table", "single"])
        names.append(check_type(entry["name"], str, f"{at}.name"))
        plain.append(check_int(entry["plain"], f"{at}.plain", 0, 40))
        m5.append(check_int(entry["marked_5"], f"{at}.marked_5", 0, 40))
        m6.append(check_int(entry["marked_6"], f"{at}.marked_6", 0, 40))
        table_points.append(check_int(entry["table"], f"{at}.table", -100, 100))
        single_points.append(check_int(entry["single"], f"{at}.single", -100, 100))
    if len(set(names)) != len(names):
        raise ConfigError(f"{where}: card kind names must be unique, got {names}")

    counts = range(2, 7)
    marks = check_type(data["marks_used"], dict, f"{where}: marks_used")
    in_game = check_type(data["cards_in_game"], dict, f"{where}: cards_in_game")
    deal_raw = check_type(data["deal"], dict, f"{where}: deal")
    for table, label in ((marks, "marks_used"), (in_game, "cards_in_game"), (deal_raw, "deal")):
        if sorted(table) != list(counts):
            raise ConfigError(f"{where}: {label} needs exactly the player counts 2-6 as keys, "
                              f"got {sorted(table, key=str)}")
    copies, deal = {}, {}
    for n in counts:
        used = check_type(marks[n], list, f"{where}: marks_used[{n}]")
        bad = [m for m in used if m not in ("5", "6")]
        if bad:
            raise ConfigError(f"{where}: marks_used[{n}]: unknown mark(s) {bad}; use \"5\"/\"6\"")
        kinds = tuple(plain[k] + (m5[k] if "5" in used else 0) + (m6[k] if "6" in used else 0)
                      for k in range(NUM_KINDS))
        total = check_int(in_game[n], f"{where}: cards_in_game[{n}]", 1, 1000)
        if sum(kinds) != total:
            raise ConfigError(f"{where}: cards_in_game[{n}] is {total} but the cards with "
                              f"marks {used} add up to {sum(kinds)}")
        per = check_int(deal_raw[n], f"{where}: deal[{n}]", 1, 1000)
        if per * n > total:
            raise ConfigError(f"{where}: deal[{n}]: {n} players x {per} cards needs {per * n} "
                              f"cards, only {total} are in the game")
        copies[n], deal[n] = kinds, per
    stock = check_int(data["stock_cards"], f"{where}: stock_cards", 1, 5)
    sheet = data["score_sheet"]
    keys = ["three_of_a_kind", "four_of_a_kind", "street", "full_street", "captain_three",
            "captain_pair", "curse"]
    check_keys(sheet, f"{where}: score_sheet", keys)
    values = {k: check_int(sheet[k], f"{where}: score_sheet.{k}", -100, 100) for k in keys}
    spy = check_int(data["spyglass_extra"], f"{where}: spyglass_extra", 1, 4)
    short = check_int(data["short_rations_stock"], f"{where}: short_rations_stock", 1, stock)

    partial = dict(kind_names=tuple(names), short_names=tuple(_short(x) for x in names),
                   copies=copies, deal=deal, stock_cards=stock,
                   pair_points=tuple(pair_points), pair_actions=tuple(pair_actions),
                   table_points=tuple(table_points), single_points=tuple(single_points),
                   spyglass_extra=spy, short_rations_stock=short, **values)
    return Components(combos=_build_combos(partial), **partial)


def _vec(**where) -> tuple[int, ...]:
    out = [0] * NUM_KINDS
    for k, c in where.items():
        out[int(k[1:])] += c
    return tuple(out)


def _build_combos(c: dict) -> tuple[Combo, ...]:
    names = c["kind_names"]
    out: list[Combo] = []

    def add(name, used: dict, points, category, action="none"):
        vec = [0] * NUM_KINDS
        for k, n in used.items():
            vec[k] += n
        out.append(Combo(name, tuple(vec), points, action, category))

    for k in range(NUM_CREW):
        add(f"pair of {plural(names[k])}", {k: 2}, c["pair_points"][k], "pair", c["pair_actions"][k])
    for k in range(NUM_CREW):
        add(f"three {plural(names[k])}", {k: 3}, c["three_of_a_kind"], "three")
    for k in range(NUM_CREW):
        add(f"four {plural(names[k])}", {k: 4}, c["four_of_a_kind"], "four")
    for k in range(NUM_CREW):
        add(f"street without {names[k]}", {j: 1 for j in range(NUM_CREW) if j != k},
            c["street"], "street")
    add("full street", {j: 1 for j in range(NUM_CREW)}, c["full_street"], "full_street")
    for cap in range(NUM_CAPTAINS):
        for trio in itertools.combinations(range(NUM_CREW), 3):
            who = "+".join(names[j] for j in trio)
            used = {NUM_CREW + cap: 1, **{j: 1 for j in trio}}
            add(f"{names[NUM_CREW + cap]}'s table ({who})", used, c["table_points"][cap],
                "table")
    for cap in range(NUM_CAPTAINS):
        add(f"three {plural(names[NUM_CREW + cap])}", {NUM_CREW + cap: 3}, c["captain_three"],
            "captain_three")
    for cap in range(NUM_CAPTAINS):
        add(f"pair of {plural(names[NUM_CREW + cap])}", {NUM_CREW + cap: 2}, c["captain_pair"],
            "captain_pair")
    return tuple(out)


def default_components() -> Components:
    """The packaged component data (validated once per process)."""
    return packaged_components("all_hands_crew", parse_components)


load_components = default_components  # the name the tests and older code use


class Partitioner:
    """Best partition of a multiset of cards into score-sheet combinations.

    Exact search: captains first (each either opens a captain's table with three different
    crew kinds, or the rest of that captain kind is settled with triples, pairs and single
    penalties), then crew (each lowest remaining kind either joins one more street, or the
    rest of it is settled with pairs, threes and fours). Memoised on the remaining counts.
    """

    def __init__(self, comps: Components):
        self.c = comps
        self.combos = comps.combos
        idx = {cb.name: i for i, cb in enumerate(self.combos)}
        names = comps.kind_names
        self._pair = [idx[f"pair of {plural(names[k])}"] for k in range(NUM_KINDS)]
        self._three = [idx[f"three {plural(names[k])}"] for k in range(NUM_KINDS)]
        self._four = {k: idx[f"four {plural(names[k])}"] for k in range(NUM_CREW)}
        self._streets = [i for i, cb in enumerate(self.combos)
                         if cb.category in ("street", "full_street")]
        self._tables = {cap: [i for i, cb in enumerate(self.combos)
                              if cb.category == "table" and cb.counts[cap]]
                        for cap in range(NUM_CREW, NUM_KINDS)}
        self._group = [self._same_kind_table(k) for k in range(NUM_KINDS)]
        self._cache: dict[int, tuple[int, int]] = {}
        self._more: dict[tuple, tuple[int, tuple[int, ...]]] = {}
        self._prepare()

    def __getstate__(self) -> dict:
        """Pickled without its memos (up to a million entries; refilled as they are used)."""
        state = self.__dict__.copy()
        state["_cache"], state["_more"] = {}, {}
        return state

    def _same_kind_table(self, k: int):
        """best[r] = (points, combos) settling r cards of kind k without other kinds."""
        single = self.c.single_value(k)
        if k < NUM_CREW:
            parts = [(2, self._pair[k]), (3, self._three[k]), (4, self._four[k])]
        else:
            parts = [(2, self._pair[k]), (3, self._three[k])]
        best = [(0, ())]
        for r in range(1, 41):
            cand = (best[r - 1][0] + single, best[r - 1][1])
            for size, ci in parts:
                if size <= r:
                    v = best[r - size][0] + self.combos[ci].points
                    if v > cand[0]:
                        cand = (v, best[r - size][1] + (ci,))
            best.append(cand)
        return best

    # counts are packed into one int, 5 bits per kind (a kind never exceeds 15 cards)
    @staticmethod
    def pack(counts) -> int:
        """Counts per kind packed 5 bits a kind."""
        key = 0
        for k in range(NUM_KINDS):
            key |= int(counts[k]) << (5 * k)
        return key

    def value(self, counts) -> int:
        """Best total score of the cards ``counts`` (per kind)."""
        return self._solve(self.pack(counts))[0]

    def with_one_more(self, counts) -> tuple[int, tuple[int, ...]]:
        """(best total of ``counts``, best total with one more card of each kind),
        memoised on the counts: what a one-card lookahead asks for (the heuristic bot asks
        it for the same crews many times a game)."""
        key = tuple(counts)
        hit = self._more.get(key)
        if hit is None:
            packed = self.pack(counts)
            hit = remember(self._more, key, (
                self._solve(packed)[0],
                tuple([self._solve(packed + (1 << (5 * k)))[0] for k in range(NUM_KINDS)])))
        return hit

    def partition(self, counts) -> tuple[int, list[int], list[int]]:
        """(best score, combo indices, leftover cards per kind) for ``counts``."""
        original = tuple(int(x) for x in counts)
        counts = list(original)
        chosen: list[int] = []
        total = self._solve(self.pack(counts))[0]
        while any(counts):
            choice = self._solve(self.pack(counts))[1]
            k = next(j for j in _ORDER if counts[j])
            if choice < 0:  # settle kind k with same-kind groups
                chosen.extend(self._group[k][counts[k]][1])
                counts[k] = 0
            else:
                chosen.append(choice)
                for j, n in enumerate(self.combos[choice].counts):
                    counts[j] -= n
        return total, sorted(chosen), counts_left(original, [self.combos[i] for i in chosen])

    def _prepare(self):
        self._packed = [self.pack(cb.counts) for cb in self.combos]
        self._cands = {}
        for k in range(NUM_KINDS):
            ids = self._tables[k] if k >= NUM_CREW else [
                i for i in self._streets if self.combos[i].counts[k]]
            self._cands[k] = [(self._packed[i], self.combos[i].points, i) for i in ids]
        self._groupv = [[v for v, _ in table] for table in self._group]

    def _solve(self, key: int) -> tuple[int, int]:
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        for k in _ORDER:
            c = (key >> (5 * k)) & 31
            if c:
                break
        else:
            return (0, -1)
        best_v = self._groupv[k][c] + self._solve(key & ~(31 << (5 * k)))[0]
        best_i = -1
        guarded = key + _GUARD
        for need, points, ci in self._cands[k]:
            if (guarded - need) & _GUARD == _GUARD:
                v = points + self._solve(key - need)[0]
                if v > best_v:
                    best_v, best_i = v, ci
        return remember(self._cache, key, (best_v, best_i), 1_000_000)


_ORDER = (6, 7, 8, 0, 1, 2, 3, 4, 5)
_GUARD = sum(16 << (5 * k) for k in range(NUM_KINDS))  # bit 4 of every 5-bit digit


def counts_left(counts, combos) -> list[int]:
    """Cards of ``counts`` not used by ``combos`` (per kind)."""
    left = list(counts)
    for cb in combos:
        for j, n in enumerate(cb.counts):
            left[j] -= n
    return left


def partitioner() -> Partitioner:
    """The shared solver of the packaged components (its memo lives for the process)."""
    return packaged_components("all_hands_crew", _packaged_partitioner)


def _packaged_partitioner(data: dict) -> Partitioner:
    """The solver of the packaged components (``data`` is theirs, already parsed once)."""
    return Partitioner(default_components())
