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
from plunder.training.selfplay.actors import EntityActor, actor_from_arrays, actor_from_policy
from plunder.training.selfplay.config import load_config
from plunder.training.selfplay.selfplay_env import OpponentPool
from plunder.training.selfplay.train import latest_checkpoint


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


def test_entity_kind_needs_a_game_with_entity_groups(tmp_path, monkeypatch):
    # every shipped game declares groups; take Anchors Aweigh!'s away (the default: none)
    monkeypatch.setattr(game_class("anchors_aweigh_v0"), "entity_groups",
                        property(lambda self: ()))
    with pytest.raises(ConfigError, match="anchors_aweigh_v0 declares none"):
        load_config("anchors_aweigh_v0", overrides=["policy.kind=entity"])
    res = run_cli(["train", "anchors_aweigh", "--steps", "512", "--run-dir", str(tmp_path / "r"),
                   *set_args(TINY + ["policy.kind=entity"])])
    assert res.exit_code != 0 and "declares none" in res.output


def test_scallywags_trains_an_entity_network_by_default(scallywags_run):
    """Parity of torch, numpy and ONNX for this network kind is in test_export.py."""
    model = latest_checkpoint(scallywags_run).load_model()
    assert type(model.policy).__name__ == "EntityActorCriticPolicy"
    assert isinstance(actor_from_policy(model.policy), EntityActor)
    policy = read_metadata(scallywags_run / "bot.onnx")["config"]["policy"]
    assert policy["kind"] == "entity"
    assert policy["entity_groups"] == ["coin"]   # recorded by name, not as "all of them"


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


@pytest.mark.slow                   # a whole training run: in CI's full run
def test_entity_run_resumes(tmp_path):
    args = ["train", "scallywags", "--run-dir", str(tmp_path / "run"),
            *set_args(TINY + ["policy.entity_dim=8"])]
    assert run_cli(args + ["--steps", "1024"]).exit_code == 0
    res = run_cli(args + ["--steps", "2048", "--resume"])
    assert res.exit_code == 0, res.output
    ckpt = latest_checkpoint(tmp_path / "run")
    assert ckpt.meta["steps"] >= 2048
    assert type(ckpt.load_model().policy).__name__ == "EntityActorCriticPolicy"


def test_battle_cards_are_an_entity_group_with_their_fixed_features():
    game = game_class("all_hands_battle_v0")(3)
    cards, _ships = game.entity_groups
    layout, C = game.layout, game.num_cards
    index = cards.feature_index(layout)
    assert index.shape[0] == C == cards.count
    # card c owns entry c of every per-card field and of every seat's and ship's block
    reserved = layout.slice("reserved").start
    c = 41
    assert reserved + c in index[c] and reserved + C + c in index[c]
    assert layout.slice("hand").start + c in index[c]
    ship_crew = layout.slice("ship_crew").start
    assert {ship_crew + k * C + c for k in range(9)} <= set(index[c].tolist())
    assert len(np.unique(index)) == index.size          # no entry belongs to two cards
    # actions: discard c, launch with c, crew c
    assert [game.action_name(s + c) for s in cards.actions] == [
        f"discard {game.card_name(c)}", f"launch with {game.card_name(c)}",
        f"crew {game.card_name(c)}"]
    static = cards.static_features()
    assert static.shape[0] == C
    same = [(card.kind, card.suit, card.level, card.value) for card in game.cards]
    for a in range(C):  # equal features exactly for cards that play alike
        for b in range(C):
            assert (static[a] == static[b]).all() == (same[a] == same[b] and game.cards[a]
                                                      .penalty == game.cards[b].penalty)


def test_static_features_need_one_row_per_member():
    with pytest.raises(ValueError, match="one row per member"):
        EntityGroup("m", 3, ("own",), static=((1.0,), (2.0,))).static_features()
    assert EntityGroup("m", 3, ("own",)).static_features().shape == (3, 0)
    with pytest.raises(ValueError, match="rows differ in length"):
        EntityGroup("m", 2, ("own",), static=((1.0,), (2.0, 3.0))).static_features()


@pytest.mark.slow                   # a whole training run: in CI's full run
def test_fixed_member_features_keep_torch_numpy_and_onnx_equal(tmp_path):
    """A battle entity network: its cards' fixed features are a per-member first-layer
    bias in the numpy and ONNX copies, which must give the torch policy's outputs."""
    import torch

    from plunder.policies.onnx_policy import OnnxPolicy
    from plunder.training.selfplay.selfplay_env import SelfPlayVecEnv

    run = tmp_path / "battle"
    res = run_cli(["train", "all_hands_battle", "--steps", "1024", "--run-dir", str(run),
                   *set_args(TINY + ["policy.kind=entity", "policy.entity_dim=8"])])
    assert res.exit_code == 0, res.output
    model = latest_checkpoint(run).load_model()
    extractor = model.policy.mlp_extractor
    assert extractor.static_projections["0"].in_features == 26
    pool = OpponentPool("all_hands_battle_v0", 2, weights={"random": 1.0})
    vec = SelfPlayVecEnv("all_hands_battle_v0", 2, 4, pool, seed=3)
    rng = np.random.default_rng(3)
    obs, rows, masks = vec.reset(), [], []
    while len(rows) < 300:
        m = vec.action_masks()
        rows += list(obs)
        masks += list(m)
        obs, *_ = vec.step(np.array([rng.choice(np.flatnonzero(x)) for x in m]))
    obs, masks = np.array(rows[:300]), np.array(masks[:300])
    with torch.no_grad():
        t_obs = torch.as_tensor(obs)
        t_probs = model.policy.get_distribution(t_obs, action_masks=masks).distribution.probs
        t_values = model.policy.predict_values(t_obs).numpy()[:, 0]
    actor = actor_from_arrays(actor_from_policy(model.policy).to_arrays())
    assert actor.groups[0].encoder[0][1].shape == (game_class("all_hands_battle_v0")(2)
                                                   .num_cards, 8)
    np.testing.assert_allclose(actor.probs(obs, masks), t_probs.numpy(), atol=1e-5)
    bot = OnnxPolicy(run / "bot.onnx", env_id="all_hands_battle_v0", num_players=2)
    probs, values = bot.evaluate(obs, masks.astype(np.int8))
    np.testing.assert_allclose(probs, t_probs.numpy(), atol=1e-5)
    np.testing.assert_allclose(values, t_values, atol=1e-5)
    # cards that play alike share their bias row (to a float32 rounding: the matrix product
    # behind the rows may sum identical rows in another order); others do not
    bias, cards = actor.groups[0].encoder[0][1], game_class("all_hands_battle_v0")(2).cards
    privateers = [c.id for c in cards if c.kind == 2]          # eight identical cards
    np.testing.assert_allclose(bias[privateers[0]], bias[privateers[1]], rtol=1e-6, atol=1e-7)
    assert not np.allclose(bias[privateers[0]], bias[0])


def test_crew_stock_slots_are_an_entity_group():
    game = game_class("all_hands_crew_v0")(4)
    (stock,) = game.entity_groups
    index = stock.feature_index(game.layout)
    width = game.layout.slice("my_stock").stop - game.layout.slice("my_stock").start
    assert index.shape == (game.max_stock, width // game.max_stock)
    start = game.layout.slice("my_stock").start
    np.testing.assert_array_equal(index[2], start + 2 * index.shape[1] + np.arange(
        index.shape[1]))
    assert game.action_name(stock.actions[0] + 2) == "hire stock card 3"


def test_shipshape_orientations_are_an_entity_group():
    game = game_class("shipshape_v0")(2)
    orientations, cards = game.entity_groups
    lay = game.layout
    index = cards.feature_index(lay)   # card 3: in my hand, then in each seat slot's
    assert index[2].tolist() == [lay.slice("my_hand").start + 2] + [
        lay.slice("seat_hand").start + 2 + 10 * k for k in range(game.num_seats)]
    assert game.action_name(cards.actions[0] + 2) == "bid 3"
    index = orientations.feature_index(game.layout)
    start = game.layout.slice("place_outcomes").start
    assert index.shape == (8, 6)
    np.testing.assert_array_equal(index[3], start + 18 + np.arange(6))
    assert game.action_name(orientations.actions[0] + 3).startswith("place ")
    assert orientations.actions[0] + 8 == game.num_actions


def test_anchors_aweigh_tile_kinds_are_an_entity_group():
    game = game_class("anchors_aweigh_v0")(3)
    kinds, cards = game.entity_groups
    index, lay = kinds.feature_index(game.layout), game.layout
    assert index.shape == (10, 4 + 3)
    # kind 4 (spyglass): its face-up and face-up starfish counts, what the visible cards
    # need of it, whether you hold one, then its count per seat
    seen = lay.slice("assets_seen").start
    assert index[4].tolist() == [lay.slice("pile_up").start + 4,
                                 lay.slice("pile_up_starfish").start + 4,
                                 lay.slice("round_asset_needs").start + 4,
                                 lay.slice("held_kind").start + 4,
                                 seen + 4, seen + 14, seen + 24]
    assert game.action_name(kinds.actions[0] + 4) == "grab a face-up spyglass"
    static = kinds.static_features()
    assert static.shape == (10, 11) and static[4, 4] == 1 and static[8, 10] == 0
    # the round's card slots: slot 2 owns the third block of round_cards, no actions
    start = lay.slice("round_cards").start
    assert cards.feature_index(lay)[2].tolist() == list(range(start + 62, start + 93))
    assert cards.actions == () and cards.static_features().shape == (13, 0)


def test_policy_entity_groups_picks_groups_by_name():
    game = game_class("all_hands_battle_v0")(2)
    from plunder.training.selfplay.entity_policy import entity_groups_spec
    names = [g.name for g in game.entity_groups]
    assert [g["name"] for g in entity_groups_spec(game, names[:1])] == names[:1]
    assert [g["name"] for g in entity_groups_spec(game)] == names
    cfg = load_config("all_hands_battle_v0", overrides=[f"policy.entity_groups=[{names[0]}]"])
    assert cfg.policy.entity_groups == names[:1]
    with pytest.raises(ConfigError, match="must name distinct groups"):
        load_config("all_hands_battle_v0", overrides=["policy.entity_groups=[coins]"])
    with pytest.raises(ConfigError, match="needs policy.kind: entity"):
        load_config("all_hands_crew_v0", overrides=["policy.entity_groups=[stock]"])
    with pytest.raises(ConfigError, match="no entity group"):
        entity_groups_spec(game, ["coins"])


def test_battle_ship_slots_are_an_entity_group_named_by_select_and_attack():
    game = game_class("all_hands_battle_v0")(3)
    _cards, ships = game.entity_groups
    S, lay, a = game.components.ships_per_fleet, game.layout, game.actions
    index = ships.feature_index(lay)
    assert index.shape[0] == 3 * S
    # member k = relative seat k // S, slot k % S: its suit, its crew cards, ...
    k = S + 1
    suit = lay.slice("ship_suit").start + 5 * k + np.arange(5)
    crew = lay.slice("ship_crew").start + game.num_cards * k + np.arange(game.num_cards)
    assert set(suit) <= set(index[k]) and set(crew) <= set(index[k])
    # one action range from select: your ships, then every opponent ship in attack order
    assert ships.actions == (a.select,)
    assert game.action_name(a.select + 1) == "attack with ship 2"
    assert game.action_name(a.select + S) == "attack opponent +1 ship 1"
    assert a.select + S == a.attack
    assert a.select + k == a.attack + a.target_index(1, 1)
    static = ships.static_features()
    assert static[k].tolist() == [0, 1, 0] + [float(j == 1) for j in range(S)]
