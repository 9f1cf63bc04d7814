"""Anchors Aweigh! component data: load and validate ``configs/games/anchors_aweigh.toml``.

The engine's action space and observation are built on the fixed lists below (nine asset
kinds plus the monkey, four cargo colours, 14 ship spaces); the data must name them in this
order. Everything else (tile counts, supplies, round mix, the 52 adventure cards) is data.

Loading checks structure and what the engine needs (clear ``ConfigError`` on any problem);
:func:`design_rule_violations` checks the completion's balancing rules on the cards, which
the committed data meets (a user typing in other cards may break them on purpose).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from plunder.envs.core.config import check_int, check_keys, check_type, packaged_components
from plunder.envs.core.errors import ConfigError

#: asset kinds (index = kind id); kinds 0-7 can be needed by cards, 8 is storage, 9 monkey
KINDS = ("cannon", "sword", "sailor", "shovel", "spyglass", "rope", "compass", "map",
         "storage", "monkey")
NUM_KINDS = len(KINDS)
STORAGE = 8
MONKEY = 9
#: kinds a card may need (and a parrot or wild monkey may stand in for)
NEEDABLE = tuple(range(8))
COLOURS = ("blue", "white", "orange", "purple")
NUM_COLOURS = len(COLOURS)
#: ship spaces: A1-A8 above deck, B1-B4 below deck (asset or cargo), C1-C2 cargo only
SPACE_NAMES = tuple([f"A{i}" for i in range(1, 9)] + [f"B{i}" for i in range(1, 5)]
                    + ["C1", "C2"])
NUM_SPACES = 14
ABOVE = tuple(range(8))
ASSET_SPACES = tuple(range(12))
CARGO_ONLY = (12, 13)
#: below deck, behind the screen: B1-B4 and C1-C2
BELOW = tuple(range(8, NUM_SPACES))

#: card types (index = type id), in the order of the round mix
CARD_TYPES = ("discovery", "trade", "pirates", "contract")
DISCOVERY, TRADE, PIRATES, CONTRACT = range(4)
#: back categories: what the back of a card shows (type, and pirate strength or featured
#: contract colour): discovery, trade, pirates 1-3, contract blue/white/orange/purple
BACKS = ("discovery", "trade", "pirates 1", "pirates 2", "pirates 3",
         "contract blue", "contract white", "contract orange", "contract purple")
NUM_BACKS = len(BACKS)

_DECK_SIZES = {"discovery": 20, "trade": 8, "pirates": 12, "contract": 12}


@dataclass(frozen=True)
class Card:
    """One adventure card (index = position in the data's card list)."""

    index: int
    id: str
    type: int
    back: int                 # index into BACKS
    needs: tuple[int, ...]    # asset kinds (discovery, pirates) or colours (trade, contract)
    coins: int                # coin reward (0 if none)
    cargo: tuple[int, ...]    # named-colour cargo reward
    grey: int                 # cargo of any colour

    @property
    def needs_assets(self) -> bool:
        return self.type in (DISCOVERY, PIRATES)

    @property
    def strength(self) -> int:
        return self.back - 1 if self.type == PIRATES else 0

    def describe(self) -> str:
        names = KINDS if self.needs_assets else COLOURS
        need = "+".join(names[x] for x in self.needs)
        gets = []
        if self.coins:
            gets.append(f"{self.coins} coins")
        if self.cargo:
            gets.append("+".join(COLOURS[c] for c in self.cargo))
        if self.grey:
            gets.append(f"{self.grey} grey cargo")
        return f"{self.id} {BACKS[self.back]}: {need} -> {', '.join(gets)}"


@dataclass(frozen=True)
class Components:
    """Validated component data."""

    per_kind: int
    starfish_per_kind: int
    monkeys: int
    storage_capacity: int
    cargo_per_colour: int
    chests: int
    parrots: int
    pirate_penalty_coins: int
    round_mix: tuple[int, int, int, int]          # per CARD_TYPES
    custom_mix: tuple[int, int, int, int]
    cards: tuple[Card, ...]
    tile_kind: tuple[int, ...]                    # per tile id
    tile_star: tuple[bool, ...]                   # per tile id

    @property
    def num_tiles(self) -> int:
        return len(self.tile_kind)

    @property
    def type_counts(self) -> tuple[int, ...]:
        c = Counter(card.type for card in self.cards)
        return tuple(c[t] for t in range(4))


def default_components() -> Components:
    """The packaged components (validated once per process)."""
    return packaged_components("anchors_aweigh", parse_components)


def load_components(data: dict | None = None) -> Components:
    """Validated components from ``data`` (default: the packaged TOML)."""
    return default_components() if data is None else parse_components(data)


def parse_components(data: dict) -> Components:
    """Validate raw component data; every problem raises ConfigError naming the key."""
    where = "configs/games/anchors_aweigh.toml"
    check_keys(data, where, ["assets", "cargo", "chests", "parrots", "pirate_penalty_coins",
                             "round_mix", "cards"], ["open_ocean_custom_mix", "loading_cargo"])
    assets = data["assets"]
    check_keys(assets, f"{where}: assets",
               ["kinds", "per_kind", "starfish_per_kind", "monkeys", "storage_capacity"])
    if list(assets["kinds"] or []) != list(KINDS[:9]):
        raise ConfigError(f"{where}: assets.kinds must be exactly {list(KINDS[:9])} "
                          f"(the action space is built on them), got {assets['kinds']!r}")
    per_kind = check_int(assets["per_kind"], f"{where}: assets.per_kind", 6, 20)
    star = check_int(assets["starfish_per_kind"], f"{where}: assets.starfish_per_kind",
                     0, per_kind)
    monkeys = check_int(assets["monkeys"], f"{where}: assets.monkeys", 0, 9)
    cap = check_int(assets["storage_capacity"], f"{where}: assets.storage_capacity", 1, 4)
    cargo = data["cargo"]
    check_keys(cargo, f"{where}: cargo", ["colours", "per_colour"])
    if list(cargo["colours"] or []) != list(COLOURS):
        raise ConfigError(f"{where}: cargo.colours must be exactly {list(COLOURS)}, "
                          f"got {cargo['colours']!r}")
    per_colour = check_int(cargo["per_colour"], f"{where}: cargo.per_colour", 4, 64)
    chests = check_int(data["chests"], f"{where}: chests", 0, 100)
    parrots = check_int(data["parrots"], f"{where}: parrots", 0, 4)
    penalty = check_int(data["pirate_penalty_coins"], f"{where}: pirate_penalty_coins", 0, 20)
    if "loading_cargo" in data and data["loading_cargo"] != 2:
        raise ConfigError(f"{where}: loading_cargo must be 2 (the ship has two cargo-only "
                          f"spaces C1-C2), got {data['loading_cargo']!r}")

    cards = _load_cards(data["cards"], where, per_colour)
    counts = Counter(c.type for c in cards)
    mix = _load_mix(data["round_mix"], f"{where}: round_mix", counts)
    custom = mix
    if "open_ocean_custom_mix" in data:
        custom = _load_mix(data["open_ocean_custom_mix"], f"{where}: open_ocean_custom_mix",
                           counts)

    kinds, stars = [], []
    for k in range(9):
        for i in range(per_kind):
            kinds.append(k)
            stars.append(i < star)
    for _ in range(monkeys):
        kinds.append(MONKEY)
        stars.append(False)
    return Components(per_kind, star, monkeys, cap, per_colour, chests, parrots, penalty,
                      mix, custom, tuple(cards), tuple(kinds), tuple(stars))


def check_mix(mix: Any, where: str, type_counts: Counter | dict) -> tuple[int, int, int, int]:
    """A 13-card round mix {type: count}: every type >= 1, two rounds' worth available."""
    check_keys(mix, where, list(CARD_TYPES))
    out = []
    for t, name in enumerate(CARD_TYPES):
        n = check_int(mix[name], f"{where}.{name}", 1, 13)
        have = type_counts.get(t, 0)
        if 2 * n > have:
            raise ConfigError(f"{where}.{name}: {n} per round needs {2 * n} {name} cards "
                              f"for two rounds; the deck has {have}")
        out.append(n)
    if sum(out) != 13:
        raise ConfigError(f"{where}: a round uses 13 adventure cards, the mix sums to "
                          f"{sum(out)}")
    return tuple(out)


def _load_mix(mix, where, counts):
    return check_mix(mix, where, counts)


def _load_cards(raw: Any, where: str, per_colour: int) -> list[Card]:
    check_type(raw, list, f"{where}: cards")
    cards: list[Card] = []
    seen: set[str] = set()
    for i, c in enumerate(raw):
        w = f"{where}: cards[{i}]"
        check_type(c, dict, w)
        ctype = c.get("type")
        if ctype not in CARD_TYPES:
            raise ConfigError(f"{w}: type must be one of {list(CARD_TYPES)}, got {ctype!r}")
        t = CARD_TYPES.index(ctype)
        extra = {PIRATES: ["strength"], CONTRACT: ["featured"]}.get(t, [])
        check_keys(c, w, ["id", "type", "needs", "reward"] + extra)
        cid = check_type(c["id"], str, f"{w}.id")
        w = f"{where}: card {cid}"
        if cid in seen:
            raise ConfigError(f"{w}: duplicate card id")
        seen.add(cid)
        needs_raw = check_type(c["needs"], list, f"{w}.needs")
        if not 1 <= len(needs_raw) <= 6:
            raise ConfigError(f"{w}.needs: 1-6 entries, got {len(needs_raw)}")
        if t in (DISCOVERY, PIRATES):
            names = KINDS[:8]
            what = "asset kinds (not storage or monkey)"
        else:
            names = COLOURS
            what = "cargo colours"
        needs = []
        for x in needs_raw:
            if x not in names:
                raise ConfigError(f"{w}.needs: {x!r} is not one of the {what} {list(names)}")
            needs.append(names.index(x))
        reward = c["reward"]
        check_keys(reward, f"{w}.reward", [], ["coins", "cargo", "grey"])
        if len(reward) != 1:
            raise ConfigError(f"{w}.reward: exactly one of coins, cargo or grey, "
                              f"got {sorted(reward)}")
        coins = check_int(reward.get("coins", 0), f"{w}.reward.coins", 0, 50)
        grey = check_int(reward.get("grey", 0), f"{w}.reward.grey", 0, 8)
        cargo = []
        for x in check_type(reward.get("cargo", []), list, f"{w}.reward.cargo"):
            if x not in COLOURS:
                raise ConfigError(f"{w}.reward.cargo: {x!r} is not a colour {list(COLOURS)}")
            cargo.append(COLOURS.index(x))
        if len(cargo) > 8:
            raise ConfigError(f"{w}.reward.cargo: at most 8 tokens")
        if coins == 0 and grey == 0 and not cargo:
            raise ConfigError(f"{w}.reward: the reward is empty")
        if t == PIRATES:
            s = check_int(c["strength"], f"{w}.strength", 1, 3)
            back = 1 + s
        elif t == CONTRACT:
            f = c["featured"]
            if f not in COLOURS:
                raise ConfigError(f"{w}.featured: {f!r} is not a colour {list(COLOURS)}")
            if COLOURS.index(f) not in needs:
                raise ConfigError(f"{w}: a contract needs at least one cargo of its featured "
                                  f"colour {f}")
            back = 5 + COLOURS.index(f)
        else:
            back = t
        for colour, n in Counter(needs if t in (TRADE, CONTRACT) else []).items():
            if n > per_colour:
                raise ConfigError(f"{w}.needs: more {COLOURS[colour]} than exist")
        cards.append(Card(len(cards), cid, t, back, tuple(needs), coins, tuple(cargo), grey))
    if len(cards) < 8:
        raise ConfigError(f"{where}: cards: at least 8 cards needed, got {len(cards)}")
    return cards


def design_rule_violations(comp: Components) -> list[str]:
    """The completion's card design rules that ``comp.cards`` break (empty: all met)."""
    out = []
    cards = comp.cards
    counts = Counter(c.type for c in cards)
    for t, name in enumerate(CARD_TYPES):
        if counts[t] != _DECK_SIZES[name]:
            out.append(f"{_DECK_SIZES[name]} {name} cards expected, found {counts[t]}")
    if len(cards) != 52:
        out.append(f"52 cards expected, found {len(cards)}")
    discovery_kinds = (2, 3, 4, 5, 6, 7)          # sailor, shovel, spyglass, rope, compass, map
    need_count = Counter()
    for c in cards:
        tag = c.id
        if c.type == DISCOVERY:
            if not 1 <= len(c.needs) <= 2:
                out.append(f"{tag}: discovery needs 1-2 tiles")
            if any(k not in discovery_kinds for k in c.needs):
                out.append(f"{tag}: discovery needs only shovel/spyglass/rope/compass/map/sailor")
            for k in set(c.needs):
                need_count[k] += 1
            if c.grey:
                out.append(f"{tag}: discovery gives no grey cargo")
            if c.cargo and c.coins:
                out.append(f"{tag}: discovery gives cargo or coins, not both")
            if c.cargo and not 2 <= len(c.cargo) <= 3:
                out.append(f"{tag}: discovery gives 2-3 cargo")
            if not c.cargo and not 3 <= c.coins <= 5:
                out.append(f"{tag}: discovery gives 3-5 coins")
        elif c.type == TRADE:
            if len(c.needs) != 1:
                out.append(f"{tag}: trade needs exactly 1 cargo")
            if len(c.cargo) != 2 or c.coins or c.grey:
                out.append(f"{tag}: trade gives exactly 2 named cargo")
            if any(x in c.needs for x in c.cargo):
                out.append(f"{tag}: trade gives colours other than the one it needs")
        elif c.type == PIRATES:
            s = c.strength
            if len(c.needs) != s + 1:
                out.append(f"{tag}: strength {s} pirates need {s + 1} assets")
            if any(k not in (0, 1, 2) for k in c.needs):
                out.append(f"{tag}: pirates need only cannon/sword/sailor")
            ok_coins = c.coins == {1: 4, 2: 7, 3: 10}[s] and not c.cargo and not c.grey
            ok_grey = c.grey == s + 1 and not c.cargo and not c.coins
            if not (ok_coins or ok_grey):
                out.append(f"{tag}: strength {s} pirates give {({1: 4, 2: 7, 3: 10})[s]} "
                           f"coins or {s + 1} grey cargo")
        else:
            if not 2 <= len(c.needs) <= 4:
                out.append(f"{tag}: contract needs 2-4 cargo")
            want = {2: 5, 3: 8, 4: 12}.get(len(c.needs))
            if c.coins != want or c.cargo or c.grey:
                out.append(f"{tag}: a {len(c.needs)}-cargo contract gives {want} coins")
    for k in discovery_kinds:
        if need_count[k] < 3:
            out.append(f"{KINDS[k]} is needed by {need_count[k]} discovery cards (>= 3)")
    strengths = Counter(c.strength for c in cards if c.type == PIRATES)
    if any(strengths[s] != 4 for s in (1, 2, 3)):
        out.append(f"pirate strengths 1/2/3 need four cards each: {dict(strengths)}")
    featured = Counter(c.back for c in cards if c.type == CONTRACT)
    if any(featured[5 + i] != 3 for i in range(4)):
        out.append("contracts need three cards per featured colour")
    if comp.per_kind != 9 or comp.starfish_per_kind != 2 or comp.monkeys != 3:
        out.append("84 tiles: 9 of each of nine kinds (2 with a starfish) and 3 monkeys")
    if comp.cargo_per_colour != 16:
        out.append("64 cargo: 16 of each colour")
    if comp.round_mix != (5, 2, 3, 3):
        out.append("round mix 5 discovery, 2 trade, 3 pirates, 3 contract")
    return out
