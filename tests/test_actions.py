"""core.actions.ActionRanges: named ranges of action indices, and every game's names."""

import pickle

import pytest

from plunder.envs import make
from plunder.envs.core.actions import ActionRanges, Label
from plunder.envs.core.errors import InvalidArgumentError


def _ranges() -> ActionRanges:
    return ActionRanges([("play", 3), ("coin", 4), ("pass_turn", 1), ("swap", 4)],
                        {"play": Label("play {item}", ("a", "b", "c")), "coin": "coin {k1}",
                         "swap": Label("swap {row_item} for {col_item}", ("x", "y"), 2)})


def test_indices_and_names():
    r = _ranges()
    assert r.size == 12 and r.names == ("play", "coin", "pass_turn", "swap")
    assert (r.start("coin"), r.coin, r.stop("coin"), r.length("coin")) == (3, 3, 7, 4)
    assert r.index("coin", 2) == 5 and r.decode(5) == ("coin", 2)
    assert [r.action_name(a) for a in (0, 2, 3, 7, 8, 11)] == [
        "play a", "play c", "coin 1", "pass_turn", "swap x for x", "swap y for y"]
    assert pickle.loads(pickle.dumps(r)).action_name(9) == "swap x for y"


@pytest.mark.parametrize("bad", [lambda r: r.decode(12), lambda r: r.decode(-1),
                                 lambda r: r.index("coin", 4), lambda r: r.start("nope")])
def test_bad_indices_raise(bad):
    with pytest.raises(InvalidArgumentError):
        bad(_ranges())


@pytest.mark.parametrize("ranges", [[("size", 1)], [("a", 1), ("a", 2)], [("a", -1)]])
def test_bad_ranges_raise(ranges):
    with pytest.raises(InvalidArgumentError):
        ActionRanges(ranges)


@pytest.mark.parametrize("env_id", ["scallywags_v0", "anchors_aweigh_v0", "all_hands_battle_v0",
                                    "all_hands_crew_v0", "shipshape_v0"])
def test_every_game_names_every_action_from_its_ranges(env_id):
    game = make(env_id).unwrapped.game
    ranges = game.actions
    assert game.num_actions == ranges.size
    for a in range(ranges.size):
        name, k = ranges.decode(a)
        assert ranges.index(name, k) == a
        assert game.action_name(a)
    with pytest.raises(InvalidArgumentError):
        game.action_name(ranges.size)
