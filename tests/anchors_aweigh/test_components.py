"""The 52 adventure cards and other component data: design rules and load-time checks."""

from __future__ import annotations

import copy

import pytest

from plunder.envs.anchors_aweigh.components import (
    design_rule_violations, load_components,
)
from plunder.envs.core.config import load_game_data
from plunder.envs.core.errors import ConfigError


def test_committed_cards_meet_the_design_rules():
    comp = load_components()
    assert design_rule_violations(comp) == []
    assert len(comp.cards) == 52 and comp.num_tiles == 84


def test_design_rules_catch_violations():
    data = load_game_data("anchors_aweigh")
    data["cards"][0]["needs"] = ["shovel", "map", "rope"]       # discovery needs 1-2
    data["cards"][20]["reward"] = {"cargo": ["blue", "white"]}    # T01 gives its own colour
    data["cards"][28]["reward"] = {"coins": 5}                   # strength-1 pirates give 4
    data["cards"][40]["reward"] = {"coins": 6}                   # 2-cargo contract gives 5
    problems = design_rule_violations(load_components(data))
    text = "\n".join(problems)
    for card in ("D01", "T01", "P01", "C01"):
        assert card in text


def _broken(edit):
    data = copy.deepcopy(load_game_data("anchors_aweigh"))
    edit(data)
    return data


@pytest.mark.parametrize("edit,msg", [
    (lambda d: d.update(extra=1), "unknown key"),
    (lambda d: d["assets"].update(kinds=["cannon"]), "assets.kinds"),
    (lambda d: d["cargo"].update(per_colour="many"), "per_colour"),
    (lambda d: d["cards"][0].update(needs=["parrot"]), "not one of the asset kinds"),
    (lambda d: d["cards"][0].update(type="treasure"), "type must be one of"),
    (lambda d: d["cards"][1].update(id="D01"), "duplicate"),
    (lambda d: d["cards"][0].update(reward={}), "exactly one of"),
    (lambda d: d["cards"][0].update(reward={"cargo": ["gold"]}), "not a colour"),
    (lambda d: d["cards"][40].update(featured="white"), "featured"),
    (lambda d: d["cards"][28].pop("strength"), "strength"),
    (lambda d: d["round_mix"].update(trade=5), "two rounds"),
    (lambda d: d["round_mix"].update(contract=2), "13"),
    (lambda d: d.update(loading_cargo=3), "loading_cargo"),
    (lambda d: d["cards"][0].update(needs=[]), "1-6"),
])
def test_bad_data_raises_clear_config_errors(edit, msg):
    with pytest.raises(ConfigError, match=msg):
        load_components(_broken(edit))
