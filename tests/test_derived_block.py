"""The derived observation block: declared per layout, left out by ``derived_features=False``.

The information-only observation must be the full one with the derived indices removed,
for every game and player count, in the AEC and parallel forms, in ``env.state()`` and in
``GameBatch``; the shorter vector's layout reads it by name; bots keep reading the full
vector they were trained on.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
from pettingzoo.test import api_test

from plunder.envs import env_ids, game_class, make, make_parallel
from plunder.envs.core import InvalidArgumentError
from plunder.envs.core.batch import GameBatch
from plunder.envs.core.layout import DERIVED_HEADING, LayoutBuilder

#: the games whose layouts declare derived fields (a game may have none; these five do)
GAMES_WITH_DERIVED = ("scallywags_v0", "anchors_aweigh_v0", "all_hands_battle_v0",
                      "all_hands_crew_v0", "shipshape_v0")

COUNTS = [(e, n) for e in env_ids()
          for n in range(game_class(e).min_players, game_class(e).max_players + 1)]
SIMULTANEOUS = [(e, n) for e, n in COUNTS if game_class(e).simultaneous]


@pytest.mark.parametrize("env_id", GAMES_WITH_DERIVED)
def test_every_game_declares_a_derived_block(env_id):
    cls = game_class(env_id)
    for n in range(cls.min_players, cls.max_players + 1):
        layout = cls(n).layout
        assert layout.derived_fields and layout.information_fields
        both = np.sort(np.concatenate([layout.information_index, layout.derived_index]))
        assert np.array_equal(both, np.arange(layout.size)), "the blocks must partition"
        assert layout.information_size + len(layout.derived_index) == layout.size


@pytest.mark.parametrize("env_id,n", COUNTS)
def test_layout_without_derived(env_id, n):
    full = game_class(env_id)(n).layout
    info = full.without_derived()
    assert info.size == full.information_size
    assert not info.derived_fields
    assert info.names() == [f.name for f in full.information_fields]
    assert info.full_layout is full and np.array_equal(info.full_index,
                                                       full.information_index)
    assert info.without_derived() is info and full.without_derived() is info
    assert np.array_equal(info.low, full.low[full.information_index])
    assert np.array_equal(info.high, full.high[full.information_index])
    text = full.describe()
    if full.derived_fields:
        head, tail = text.split(DERIVED_HEADING)
        assert all(f"`{f.name}`" in tail and f"`{f.name}`" not in head
                   for f in full.derived_fields)
        assert all(f"`{f.name}`" in head for f in full.information_fields)
    assert DERIVED_HEADING not in info.describe()


def _random_agent_steps(env, rng, steps):
    """Yield after each of up to ``steps`` random legal AEC steps (and once at the start)."""
    yield
    for _ in range(steps):
        if not env.agents:
            return
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(
            obs["action_mask"]))))
        yield


@pytest.mark.parametrize("env_id,n", COUNTS)
def test_information_only_observation_is_full_less_derived(env_id, n):
    full_env = make(env_id, num_players=n, raw=True)
    info_env = make(env_id, num_players=n, raw=True, derived_features=False)
    layout = full_env.unwrapped.layout
    info_layout = info_env.unwrapped.layout
    keep = layout.information_index
    assert info_layout.names() == layout.without_derived().names()
    assert info_layout is info_env.unwrapped.game.layout.without_derived()
    agent0 = full_env.possible_agents[0]
    assert info_env.observation_space(agent0)["observation"].shape == (info_layout.size,)
    assert full_env.observation_space(agent0)["observation"].shape == (layout.size,)
    assert info_env.state_space.shape == (n * info_layout.size,)
    full_env.reset(seed=3)
    info_env.reset(seed=3)
    rng_full, rng_info = np.random.default_rng(5), np.random.default_rng(5)
    steps = zip(_random_agent_steps(full_env, rng_full, 120),
                _random_agent_steps(info_env, rng_info, 120))
    for k, _ in enumerate(steps):
        for agent in full_env.possible_agents:
            big = full_env.observe(agent)
            small = info_env.observe(agent)
            assert np.array_equal(small["observation"], big["observation"][keep])
            assert np.array_equal(small["action_mask"], big["action_mask"])
            assert info_env.observation_space(agent).contains(small)
            assert np.array_equal(info_env.full_observation(agent), big["observation"])
        if k % 20 == 0:
            assert np.array_equal(info_env.state(), full_env.state().reshape(n, -1)[
                :, keep].ravel())
            for f in layout.information_fields:
                assert np.array_equal(info_layout.read(small["observation"], f.name),
                                      layout.read(big["observation"], f.name))


@pytest.mark.parametrize("env_id,n", SIMULTANEOUS)
def test_parallel_information_only(env_id, n):
    full_env = make_parallel(env_id, num_players=n)
    info_env = make_parallel(env_id, num_players=n, derived_features=False)
    keep = full_env.layout.information_index
    big, _ = full_env.reset(seed=2)
    small, _ = info_env.reset(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(60):
        for agent in full_env.possible_agents:
            assert np.array_equal(small[agent]["observation"],
                                  big[agent]["observation"][keep])
            assert info_env.observation_space(agent).contains(small[agent])
        if not full_env.agents:
            break
        actions = {a: int(rng.choice(np.flatnonzero(big[a]["action_mask"])))
                   for a in full_env.acting_agents()}
        big = full_env.step(actions)[0]
        small = info_env.step(actions)[0]


@pytest.mark.parametrize("env_id", env_ids())
def test_pettingzoo_api_information_only(env_id):
    cls = game_class(env_id)
    api_test(make(env_id, num_players=cls.max_players, derived_features=False),
             num_cycles=100)


@pytest.mark.parametrize("env_id", env_ids())
def test_batch_information_only(env_id):
    cls = game_class(env_id)
    n = cls.min_players
    full = GameBatch(cls, n, 3, seed=4)
    info = GameBatch(cls, n, 3, seed=4, derived_features=False)
    assert info.obs_size == full.layout.information_size == info.layout.size
    keep = full.layout.information_index
    rng = np.random.default_rng(1)
    for _ in range(30):
        tables, seats, obs, masks = full.decisions()
        tables_i, seats_i, obs_i, masks_i = info.decisions()
        assert np.array_equal(tables, tables_i) and np.array_equal(seats, seats_i)
        assert obs_i.shape == (len(tables), info.obs_size) and obs_i.dtype == np.float32
        assert np.array_equal(obs_i, obs[:, keep]) and np.array_equal(masks_i, masks)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks], np.int64)
        full.step(actions)
        info.step(actions)


@pytest.mark.parametrize("value", ["no", 0, 1, None, "False"])
def test_invalid_keyword_value_errors(value):
    for env_id in env_ids():
        with pytest.raises(InvalidArgumentError, match="derived_features"):
            make(env_id, derived_features=value)
        with pytest.raises(InvalidArgumentError, match="derived_features"):
            make(env_id, raw=True, derived_features=value)
        if game_class(env_id).simultaneous:
            with pytest.raises(InvalidArgumentError, match="derived_features"):
                make_parallel(env_id, derived_features=value)
        with pytest.raises(InvalidArgumentError, match="derived_features"):
            GameBatch(game_class(env_id), game_class(env_id).min_players, 1,
                      derived_features=value)


def test_read_refuses_a_vector_of_another_size():
    layout = game_class("shipshape_v0")(2).layout
    info = layout.without_derived()
    with pytest.raises(InvalidArgumentError, match="derived_features=False"):
        layout.read(info.zeros(), "my_hand")
    with pytest.raises(InvalidArgumentError, match="full_layout"):
        info.read(layout.zeros(), "my_hand")
    assert np.array_equal(layout.information(layout.zeros()), info.zeros())


def test_builder_derived_block_and_layout_without_one():
    b = LayoutBuilder().add("a", 2, "info")
    with b.derived():
        b.add("b", 1, "derived")
    b.add("c", 3, "info").add("d", 1, "derived too", derived=True)
    layout = b.build()
    assert [f.name for f in layout.derived_fields] == ["b", "d"]
    assert layout.information_index.tolist() == [0, 1, 3, 4, 5]
    assert layout.derived_index.tolist() == [2, 6]
    assert layout.without_derived().names() == ["a", "c"]
    plain = LayoutBuilder().add("x", 2, "info").build()
    assert plain.without_derived() is plain and plain.describe().count("\n") == 2
    assert plain.derived_index.size == 0


@pytest.mark.parametrize("env_id", GAMES_WITH_DERIVED)
def test_heuristic_bots_play_alike_in_either_form(env_id):
    """choose_action gives an observation-reading bot the full vector in both forms."""
    from plunder.policies import choose_action, make_bot

    moves = []
    for derived in (True, False):
        env = make(env_id, num_players=2, derived_features=derived)
        env.reset(seed=11)
        bots = [make_bot("heuristic", env_id, 2, seed=p) for p in range(2)]
        played = []
        for agent in env.agent_iter(200):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            action = choose_action(bots[env.agent_name_mapping[agent]], env, agent, obs)
            played.append(action)
            env.step(action)
        moves.append(played)
    assert moves[0] == moves[1]


@pytest.mark.skipif(importlib.util.find_spec("onnxruntime") is None,
                    reason="needs onnxruntime")
def test_network_bot_in_information_only_env():
    """A shipped network bot plays through choose_action in the shorter form, and refuses
    the shorter vector handed to it directly."""
    from plunder.policies import choose_action, make_bot

    env_id = "scallywags_v0"
    env = make(env_id, num_players=2, derived_features=False)
    env.reset(seed=0)
    bot = make_bot("pretrained", env_id, 2, seed=0)
    agent = env.agent_selection
    obs = env.observe(agent)
    action = choose_action(bot, env, agent, obs)
    assert obs["action_mask"][action]
    full = make(env_id, num_players=2)
    full.reset(seed=0)
    assert action == choose_action(make_bot("pretrained", env_id, 2, seed=0), full, agent,
                                   full.observe(agent))
    with pytest.raises(InvalidArgumentError, match="derived_features=False"):
        bot.act(obs["observation"], obs["action_mask"])
