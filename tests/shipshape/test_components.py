"""The committed crates and holds meet the design rules; bad data raises ConfigError."""

from __future__ import annotations

import copy

import pytest

from plunder.envs.core.config import load_game_data
from plunder.envs.core.errors import ConfigError
from tests.support.components import assert_config_error
from plunder.envs.shipshape.components import (
    components_from_dict, crate_stats, design_rule_problems, load_components)

from .helpers import components


def test_committed_data_meets_the_design_rules():
    comp = load_components()
    assert len(comp.crates) == 54 and len(comp.holds) == 18
    assert design_rule_problems(comp) == []


def test_design_rules_in_detail():
    comp = load_components()
    stats = [crate_stats(c) for c in comp.crates]
    mean = sum(s["icon_total"] for s in stats) / 54
    assert all(2 <= s["holes"] <= 4 and s["rats"] <= 1 for s in stats)
    assert all(abs(s["icon_total"] - mean) <= 2 for s in stats)
    assert len({sum(s[g] for s in stats) for g in ("gold", "cannon", "contraband")}) == 1
    for number in range(1, 7):
        h = crate_stats(comp.hold(number))
        assert h["icon_total"] == 0 and 1 <= h["rats"] <= 2
    for number in range(7, 19):
        h = crate_stats(comp.hold(number))
        assert h["icon_total"] > 0 and h["rats"] > 0


def test_design_rule_checker_finds_violations():
    bad = components(crates={1: "R R G1 / G1 G1 G1 / G1 G1 G1"},   # 2 rats, 0 holes
                     holds={8: ". . . / . . . / . . ."})          # no rats or goods
    problems = "\n".join(design_rule_problems(bad))
    assert "crate 1 has 0 holes" in problems and "crate 1 has 2 rats" in problems
    assert "hold 8" in problems
    easier = components(holds={12: "G2 G2 G2 / C2 . . / . . R"})
    assert any("hold 12 is easier" in p for p in design_rule_problems(easier))


def _data():
    return copy.deepcopy(load_game_data("shipshape"))


@pytest.mark.parametrize("change,message", [
    (lambda d: d.update(extra=1), "unknown key"),
    (lambda d: d.pop("holds"), "missing key"),
    (lambda d: d["crates"].pop(54), "missing \\[54\\]"),
    (lambda d: d["crates"].update({55: d["crates"][1]}), "unexpected \\[55\\]"),
    (lambda d: d["crates"].update({"x": d["crates"][1]}), "keys must be numbers"),
    (lambda d: d["crates"].update({3: ["G1 G1", ". . .", ". . ."]}), "crate 3, row 1"),
    (lambda d: d["crates"].update({3: ["G1 G1 G1", ". . ."]}), "crate 3: expected a list"),
    (lambda d: d["crates"].update({3: ["G1 Z9 G1", ". . .", ". . ."]}), "unknown cell 'Z9'"),
    (lambda d: d["crates"].update({3: ["G4 . .", ". . .", ". . ."]}), "unknown cell 'G4'"),
    (lambda d: d["crates"].update({3: [". . .", ". . .", ". . ."]}), "at least one icon"),
    (lambda d: d["holds"].update({9: ["G3 . .", ". . .", ". . R"]}), "highest value 2"),
    (lambda d: d["holds"].update({2: ["G1 . .", ". . .", ". . R"]}), "only rats"),
    (lambda d: d.update(holds=[1, 2]), "must map numbers"),
    (lambda d: d["crates"].update({3: [". . .", 5, ". . ."]}), "crate 3, row 2"),
])
def test_bad_data_raises_clear_config_errors(change, message):
    assert_config_error(components_from_dict, _data(), change, message)


def test_top_level_must_be_a_mapping():
    with pytest.raises(ConfigError, match="expected a mapping"):
        components_from_dict([1, 2])
