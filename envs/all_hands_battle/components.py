"""All Hands On Deck component data: loaded from configs/games/all_hands_battle.toml.

``parse_components`` validates the raw data (every problem raises ``ConfigError`` naming the
entry) and ``Components.deck(prize_crew)`` expands it into the card table of one game: card
ids ``0..C-1`` in file order, each with its kind, suit, duelling level, treasure value and
hand penalty. The Prize Crew variant's cards come last, so the base ids never move.
"""

from __future__ import annotations

from dataclasses import dataclass

from plunder.envs.core.config import check_int, check_keys, check_type, packaged_components
from plunder.envs.core.errors import ConfigError

# card kinds
ADMIRAL, CAPTAIN, PRIVATEER, CREW, TREASURE, DAUGHTER, BLACK_SPOT, RUTH, SPY, LADY, COOK = range(11)
KIND_NAMES = ("admiral", "captain", "privateer", "crew", "treasure", "daughter",
              "black_spot", "ruth", "spy", "lady", "cook")
KIND_OF_NAME = {name: k for k, name in enumerate(KIND_NAMES)}

# suits (index 4 = none: Privateers)
NAVY, MERCHANT, PIRATE, RAIDER, NO_SUIT = range(5)
SUIT_NAMES = ("navy", "merchant", "pirate", "raider", "none")
SUIT_OF_NAME = {name: s for s, name in enumerate(SUIT_NAMES[:4])}
ALLIANCES = ("mariners", "marauders")

#: shipmaster rank (sails)
RANK = {ADMIRAL: 3, CAPTAIN: 2, PRIVATEER: 1}
MASTER_KINDS = (ADMIRAL, CAPTAIN, PRIVATEER)
VARIANTS = ("prize_crew",)

#: fields each kind takes (besides name, kind, copies, variant)
_KIND_FIELDS = {
    "admiral": (["suit"], ["hand_penalty"]),
    "captain": (["suit"], ["hand_penalty"]),
    "privateer": (["level"], ["hand_penalty"]),
    "crew": (["suit"], ["level", "levels", "hand_penalty"]),
    "cook": (["suit"], ["level", "levels", "hand_penalty"]),
    "treasure": (["suit", "value"], ["hand_penalty"]),
    "daughter": (["suit", "value"], ["hand_penalty"]),
    "black_spot": (["suit"], ["hand_penalty"]),
    "ruth": (["suit", "level", "crew_bonus"], ["hand_penalty"]),
    "spy": (["suit", "attack_level", "defend_level"], ["hand_penalty"]),
    "lady": (["suit"], ["hand_penalty"]),
}
_TOP_KEYS = ["hand_size", "crew_per_ship", "ships_per_fleet", "ship_points",
             "first_fleet_bonus", "suits", "cards"]
MAX_PLAYERS = 5


@dataclass(frozen=True)
class Card:
    """One physical card."""

    id: int
    name: str
    kind: int
    suit: int          # NO_SUIT for Privateers
    level: int         # duelling level as crew (0 for treasure, specials and shipmasters)
    value: int         # treasure points (0 for non-treasure)
    penalty: int       # cost when left in hand at the end of recruiting
    attack_level: int  # Spy: level when her ship attacks (else = level)
    defend_level: int  # Spy: level when her ship defends (else = level)
    bonus: int         # Ruth: +bonus to every other duelling crew member

    @property
    def is_master(self) -> bool:
        """Admirals, Captains and Privateers can lead a ship."""
        return self.kind in MASTER_KINDS

    @property
    def is_treasure(self) -> bool:
        """Treasure cards (Jewels, Gold, Silver, Governor's Daughter) carry points."""
        return self.kind in (TREASURE, DAUGHTER)

    @property
    def rank(self) -> int:
        """Sails of a shipmaster (Admiral 3, Captain 2, Privateer 1), else 0."""
        return RANK.get(self.kind, 0)


@dataclass(frozen=True)
class Components:
    """Validated component data."""

    hand_size: int
    crew_per_ship: int
    ships_per_fleet: int
    ship_points: int
    first_fleet_bonus: int
    alliance: tuple[int, ...]          # per suit (navy..raider): 0 mariners, 1 marauders
    entries: tuple[tuple[dict, str | None], ...]   # expanded card dicts and their variant

    def deck(self, prize_crew: bool = False) -> tuple[Card, ...]:
        """The card table of a game with or without the Prize Crew variant."""
        cards = []
        for fields, variant in self.entries:
            if variant is None or (variant == "prize_crew" and prize_crew):
                cards.append(Card(id=len(cards), **fields))
        return tuple(cards)


def _int_field(entry: dict, key: str, where: str, low: int = 0, high: int = 1000) -> int:
    return check_int(entry[key], f"{where}: {key}", low, high)


def parse_components(data: dict,
                     where: str = "configs/games/all_hands_battle.toml") -> Components:
    """Validate raw component data; every problem raises ConfigError naming the entry."""
    check_keys(data, where, _TOP_KEYS)
    hand_size = check_int(data["hand_size"], f"{where}: hand_size", 1, 60)
    crew_per_ship = check_int(data["crew_per_ship"], f"{where}: crew_per_ship", 1, 10)
    ships_per_fleet = check_int(data["ships_per_fleet"], f"{where}: ships_per_fleet", 1, 10)
    if ships_per_fleet * (crew_per_ship + 1) != hand_size:
        raise ConfigError(
            f"{where}: a fleet of {ships_per_fleet} ships of 1+{crew_per_ship} cards must use "
            f"exactly the hand of {hand_size} cards"
        )
    ship_points = check_int(data["ship_points"], f"{where}: ship_points", 0, 1000)
    bonus = check_int(data["first_fleet_bonus"], f"{where}: first_fleet_bonus", 0, 1000)
    suits = data["suits"]
    check_keys(suits, f"{where}: suits", list(SUIT_OF_NAME))
    alliance = []
    for name in SUIT_OF_NAME:
        value = suits[name]
        if value not in ALLIANCES:
            raise ConfigError(f"{where}: suits: {name}: alliance must be one of {list(ALLIANCES)}, "
                              f"got {value!r}")
        alliance.append(ALLIANCES.index(value))
    cards = data["cards"]
    check_type(cards, list, f"{where}: cards")
    entries = []
    names = set()
    for i, entry in enumerate(cards):
        at = f"{where}: cards[{i}]"
        if not isinstance(entry, dict):
            raise ConfigError(f"{at}: expected a mapping, got {entry!r}")
        kind_name = entry.get("kind")
        if kind_name not in _KIND_FIELDS:
            raise ConfigError(f"{at}: kind must be one of {sorted(_KIND_FIELDS)}, got {kind_name!r}")
        required, optional = _KIND_FIELDS[kind_name]
        check_keys(entry, at, ["name", "kind"] + required,
                   optional + ["copies", "variant"])
        name = check_type(entry["name"], str, f"{at}: name").strip()
        if not name:
            raise ConfigError(f"{at}: name is empty")
        at = f"{where}: cards[{i}] ({name})"
        kind = KIND_OF_NAME[kind_name]
        copies = check_int(entry.get("copies", 1), f"{at}: copies", 1, 40)
        variant = entry.get("variant")
        if variant is not None and variant not in VARIANTS:
            raise ConfigError(f"{at}: variant must be one of {list(VARIANTS)}, got {variant!r}")
        if kind == COOK and variant != "prize_crew":
            raise ConfigError(f"{at}: a Ship's Cook belongs to the Prize Crew variant "
                              "(add `variant: prize_crew`)")
        suit = NO_SUIT
        if "suit" in entry:
            if entry["suit"] not in SUIT_OF_NAME:
                raise ConfigError(f"{at}: suit must be one of {list(SUIT_OF_NAME)}, "
                                  f"got {entry['suit']!r}")
            suit = SUIT_OF_NAME[entry["suit"]]
        penalty = _int_field(entry, "hand_penalty", at) if "hand_penalty" in entry else 0
        value = _int_field(entry, "value", at) if "value" in entry else 0
        bonus_ = _int_field(entry, "crew_bonus", at, 0, 20) if "crew_bonus" in entry else 0
        if kind in (CREW, COOK):
            if ("level" in entry) == ("levels" in entry):
                raise ConfigError(f"{at}: give exactly one of level or levels")
            if "levels" in entry:
                levels = check_type(entry["levels"], list, f"{at}: levels")
                if not levels:
                    raise ConfigError(f"{at}: levels is empty")
                levels = [check_int(v, f"{at}: levels", 0, 50) for v in levels]
            else:
                levels = [_int_field(entry, "level", at, 0, 50)]
        elif kind in (PRIVATEER, RUTH):
            levels = [_int_field(entry, "level", at, 0, 50)]
        else:
            levels = [0]
        att = _int_field(entry, "attack_level", at, 0, 50) if kind == SPY else None
        dfd = _int_field(entry, "defend_level", at, 0, 50) if kind == SPY else None
        for level in levels:
            card_name = f"{name} {level}" if "levels" in entry else name
            for _ in range(copies):
                entries.append((dict(
                    name=card_name, kind=kind, suit=suit, level=level, value=value,
                    penalty=penalty, bonus=bonus_,
                    attack_level=level if att is None else att,
                    defend_level=level if dfd is None else dfd,
                ), variant))
            if card_name in names and "levels" in entry:
                raise ConfigError(f"{at}: duplicate card {card_name!r}")
            names.add(card_name)
    comp = Components(hand_size, crew_per_ship, ships_per_fleet, ship_points, bonus,
                      tuple(alliance), tuple(entries))
    for prize in (False, True):
        deck = comp.deck(prize)
        label = "with the Prize Crew variant" if prize else "without variants"
        if len(deck) < MAX_PLAYERS * hand_size + 2:
            raise ConfigError(
                f"{where}: the deck {label} has {len(deck)} cards; {MAX_PLAYERS} players need "
                f"{MAX_PLAYERS * hand_size} to deal plus at least 2 to draw"
            )
        if not any(c.is_master for c in deck):
            raise ConfigError(f"{where}: the deck {label} has no shipmaster")
    return comp


def default_components() -> Components:
    """The packaged component data (parsed once per process)."""
    return packaged_components("all_hands_battle", parse_components)
