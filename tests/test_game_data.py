"""The games' component files: TOML read by the standard library, digit keys as ints."""

from __future__ import annotations

from pathlib import Path

import pytest

from plunder.envs import ENV_IDS, game_class
from plunder.envs.core import ConfigError
from plunder.envs.core.config import load_game_data, parse_toml

GAMES_DIR = Path(__file__).resolve().parent.parent / "configs" / "games"


def test_every_game_has_its_data_file_and_nothing_else_is_there():
    names = {game_class(e).name for e in ENV_IDS}
    assert {p.stem for p in GAMES_DIR.iterdir() if p.suffix == ".toml"} == names
    assert not [p for p in GAMES_DIR.iterdir() if p.suffix in (".yaml", ".yml", ".json")]


def test_digit_keys_are_ints_and_other_keys_stay_strings():
    data = parse_toml('take_limit.2 = 8\ntake_limit.10 = 6\ncards.arrgh = 6\n'
                      'crates.7 = ["R  .  ."]\n[nested]\n"3" = {"4" = 1, x4 = 2}\n', "t")
    assert data == {"take_limit": {2: 8, 10: 6}, "cards": {"arrgh": 6},
                    "crates": {7: ["R  .  ."]}, "nested": {3: {4: 1, "x4": 2}}}
    assert load_game_data("scallywags")["take_limit"] == {2: 8, 3: 8, 4: 6, 5: 6, 6: 6}


@pytest.mark.parametrize("text", ["coins = ", "a = 1\na = 2", "x = [1, 2"])
def test_invalid_toml_names_the_file(text):
    with pytest.raises(ConfigError, match=r"configs/games/x\.toml: invalid TOML"):
        parse_toml(text, "configs/games/x.toml")
