"""The entity network (``policy.kind: entity``): entity groups, torch/numpy/ONNX parity,
checkpoints, and a clear error for games without entity groups."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import TINY, run_cli, set_args
from test_export import _observations

from plunder.envs import game_class
from plunder.envs.core import ConfigError, EntityGroup, LayoutBuilder
from plunder.policies.onnx_policy import read_metadata
from plunder.training.actors import EntityActor, actor_from_arrays, actor_from_policy
from plunder.training.config import load_config
from plunder.training.selfplay_env import OpponentPool
from plunder.training.train import latest_checkpoint


def test_scallywags_coin_features_are_each_coins_own_entries():
    game = game_class("scallywags_v0")(3)
    (coins,) = game.entity_groups
    index = coins.feature_index(game.layout)
    layout = game.layout
    assert index.shape[0] == game.num_coins == coins.count
    state = game.new_game(np.random.default_rng(4))
    for _ in range(30):  # a position with coins in takes, face up and seen
        p = state.current_players()[0]
        legal = np.flatnonzero(state.legal_actions_mask(p))
        state.apply_joint({p: int(legal[len(legal) // 2])})
    obs = game.encode(state.view(0))
    nv = len(game.components.distinct_values)
    for c in (0, 17, game.num_coins - 1):
        row = obs[index[c]]
        expected = np.concatenate([
            layout.read(obs, "coin_in_middle")[c:c + 1],
            layout.read(obs, "coin_in_take")[c * 6:c * 6 + 6],
            layout.read(obs, "coin_slot")[c:c + 1],
            layout.read(obs, "coin_face_up")[c:c + 1],
            layout.read(obs, "coin_value_known")[c:c + 1],
            layout.read(obs, "coin_value")[c * nv:(c + 1) * nv],
            layout.read(obs, "coin_known_by")[c * 6:c * 6 + 6],
            layout.read(obs, "coin_selected")[c:c + 1]])
        np.testing.assert_array_equal(row, expected)
    # action 'coin c' is the first coin action + c
    assert game.action_name(coins.actions[0] + 17) == "coin 17"


def test_member_major_and_strided_fields():
    layout = LayoutBuilder().add("per_seat", 6, "2 seats x 3 members").add(
        "own", 6, "3 members x 2").build()
    group = EntityGroup("m", 3, fields=("own",), strided_fields=("per_seat",))
    np.testing.assert_array_equal(group.feature_index(layout),
                                  [[6, 7, 0, 3], [8, 9, 1, 4], [10, 11, 2, 5]])


def test_entity_group_errors_name_the_problem():
    layout = game_class("scallywags_v0")(2).layout
    with pytest.raises(ValueError, match="not a multiple of 7"):
        EntityGroup("coin", 7, ("coin_in_middle",)).feature_index(layout)
    with pytest.raises(KeyError, match="no observation field 'nope'"):
        EntityGroup("coin", 40, ("nope",)).feature_index(layout)
    with pytest.raises(ValueError, match="exceed the 65 actions"):
        EntityGroup("coin", 40, ("coin_in_middle",), (30,)).check_actions(65)


def test_entity_kind_needs_a_game_with_entity_groups(tmp_path):
    with pytest.raises(ConfigError, match="shipshape_v0 declares none"):
        load_config("shipshape_v0", overrides=["policy.kind=entity"])
    res = run_cli(["train", "shipshape", "--steps", "512", "--run-dir", str(tmp_path / "r"),
                   *set_args(TINY + ["policy.kind=entity"])])
    assert res.exit_code != 0 and "declares none" in res.output


def test_scallywags_trains_an_entity_network_by_default(scallywags_run):
    """Parity of torch, numpy and ONNX for this network kind is in test_export.py."""
    model = latest_checkpoint(scallywags_run).load_model()
    assert type(model.policy).__name__ == "EntityActorCriticPolicy"
    assert isinstance(actor_from_policy(model.policy), EntityActor)
    assert read_metadata(scallywags_run / "bot.onnx")["config"]["policy"]["kind"] == "entity"


def test_entity_snapshots_survive_the_pool_state_dict(scallywags_run):
    model = latest_checkpoint(scallywags_run).load_model()
    actor = actor_from_policy(model.policy)
    pool = OpponentPool("scallywags_v0", 2, weights={"snapshots": 1.0})
    pool.add_snapshot(actor, 7)
    again = OpponentPool("scallywags_v0", 2, weights={"snapshots": 1.0})
    again.load_state_dict(pool.state_dict())
    obs, masks = _observations(n_obs=50, seed=5)
    restored = again.snapshots[0].actor
    assert isinstance(restored, EntityActor) and again.snapshots[0].step == 7
    np.testing.assert_array_equal(restored.logits(obs), actor.logits(obs))
    with pytest.raises(Exception, match="unknown actor kind"):
        actor_from_arrays(dict(actor.to_arrays(), kind=np.array("transformer")))


def test_entity_run_resumes(tmp_path):
    args = ["train", "scallywags", "--run-dir", str(tmp_path / "run"),
            *set_args(TINY + ["policy.entity_dim=8"])]
    assert run_cli(args + ["--steps", "1024"]).exit_code == 0
    res = run_cli(args + ["--steps", "2048", "--resume"])
    assert res.exit_code == 0, res.output
    ckpt = latest_checkpoint(tmp_path / "run")
    assert ckpt.meta["steps"] >= 2048
    assert type(ckpt.load_model().policy).__name__ == "EntityActorCriticPolicy"
