"""Scallywags component data: loaded from configs/games/scallywags.toml and validated."""

from __future__ import annotations

from dataclasses import dataclass

from plunder.envs.core.config import check_int, check_keys, check_type, packaged_components
from plunder.envs.core.errors import ConfigError

#: the nine cards, in action-index order; the code knows their effects
CARD_IDS = (
    "arrgh",
    "avast_me_hearties",
    "blow_me_down",
    "gives_us_me_booty",
    "shiver_me_timbers",
    "um_like_land_ho",
    "pieces_of_eight",
    "yo_ho_ho",
    "hands_off_me_booty",
)
CARD_NAMES = (
    "ARRGH!",
    "AVAST ME HEARTIES!",
    "BLOW ME DOWN!",
    "GIVES US ME BOOTY!",
    "SHIVER ME TIMBERS!",
    "UM, LIKE, LAND HO!",
    "PIECES OF EIGHT!",
    "YO HO HO!",
    "HANDS OFF ME BOOTY!",
)
(ARRGH, AVAST, BLOW, BOOTY, SHIVER, LAND_HO, PIECES, YO_HO, HANDS_OFF) = range(9)
NUM_CARDS = len(CARD_IDS)


@dataclass(frozen=True)
class Components:
    """Validated component data of one Scallywags set."""

    coin_values: tuple[int, ...]      # one entry per coin, sorted
    card_copies: tuple[int, ...]      # copies per card kind, in CARD_IDS order
    take_limit: dict[int, int]        # num_players -> coins per take at the end
    hand_size: int
    face_up_probability: float

    @property
    def distinct_values(self) -> tuple[int, ...]:
        """The coin values that occur, ascending."""
        return tuple(sorted(set(self.coin_values)))


def parse_components(data: dict, where: str = "configs/games/scallywags.toml") -> Components:
    """Validate raw component data; every problem raises ConfigError naming the key."""
    check_keys(data, where, ["coins", "cards", "take_limit", "hand_size",
                             "face_up_probability"])
    coins = data["coins"]
    check_type(coins, dict, f"{where}: coins")
    values = []
    for value, count in coins.items():
        check_int(value, f"{where}: coins key", 0, 100)
        check_int(count, f"{where}: coins[{value}]", 0, 200)
        values += [value] * count
    if not values:
        raise ConfigError(f"{where}: coins: there must be at least one coin")
    cards = data["cards"]
    check_keys(cards, f"{where}: cards", CARD_IDS)
    copies = tuple(check_int(cards[c], f"{where}: cards.{c}", 0, 100) for c in CARD_IDS)
    hand = check_int(data["hand_size"], f"{where}: hand_size", 1, 10)
    limits = data["take_limit"]
    check_keys(limits, f"{where}: take_limit", [2, 3, 4, 5, 6])
    take_limit = {}
    for n in range(2, 7):
        take_limit[n] = check_int(limits[n], f"{where}: take_limit[{n}]", 1, 40)
        if n * take_limit[n] > len(values):
            raise ConfigError(f"{where}: {n} takes of {take_limit[n]} coins need "
                              f"{n * take_limit[n]} coins, but there are {len(values)}")
    if sum(copies) < 6 * hand + 1:
        raise ConfigError(f"{where}: cards: {sum(copies)} cards cannot deal {hand} to 6 "
                          "players and leave a draw pile")
    p = data["face_up_probability"]
    check_type(p, (int, float), f"{where}: face_up_probability")
    if not 0.0 <= p <= 1.0:
        raise ConfigError(f"{where}: face_up_probability must be within 0..1, got {p}")
    return Components(tuple(sorted(values)), copies, take_limit, hand, float(p))


def default_components() -> Components:
    """The packaged component data (parsed once per process)."""
    return packaged_components("scallywags", parse_components)
