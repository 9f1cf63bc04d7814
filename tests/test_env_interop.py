"""What other libraries rely on, for every game: PettingZoo's registry and its state and
parallel seed tests, copyable envs, the wait action, the observation key, the illegal-move
penalty of the parallel form, and clear errors for use in the wrong order."""

from __future__ import annotations

import copy
import inspect
import pickle
import re

import cloudpickle
import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import parallel_seed_test, state_test

from plunder.envs import (
    ENV_IDS, env_module, game_class, make, make_parallel, pettingzoo_id, specs,
)
from plunder.envs.core import IllegalActionError, InvalidArgumentError, NotActingError

from .conftest import SIMULTANEOUS_COUNTS, needs_pz_registry

SIMULTANEOUS_IDS = [e for e in ENV_IDS if game_class(e).simultaneous]


def _play_random(env, rng, steps):
    """Step an AEC env with random legal actions for up to ``steps`` steps."""
    for _, agent in zip(range(steps), env.agent_iter()):
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


# -- PettingZoo's registry ----------------------------------------------------------------
def test_registry_lists_exactly_the_simultaneous_games():
    # the specs say which games get a parallel entry (registering imports no game)
    assert {s.env_id for s in specs() if s.simultaneous} == set(SIMULTANEOUS_IDS)


@needs_pz_registry
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_pettingzoo_make_aec(env_id):
    env = pettingzoo.make("aec", pettingzoo_id(env_id), num_players=3, max_cycles=40)
    assert env.metadata["name"] == env_id and env.max_turns == 40
    assert env.illegal_reward == -1.0          # the registry hands out env(), as PettingZoo does
    env.reset(seed=0)
    _play_random(env, np.random.default_rng(0), 100)


@needs_pz_registry
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_pettingzoo_make_parallel(env_id):
    if env_id not in SIMULTANEOUS_IDS:
        with pytest.raises(pettingzoo.env_registry.exceptions.NameNotFound):
            pettingzoo.make("parallel", pettingzoo_id(env_id))
        return
    env = pettingzoo.make("parallel", pettingzoo_id(env_id), num_players=2)
    obs, _ = env.reset(seed=1)
    assert set(obs) == set(env.possible_agents)


def test_max_cycles_and_max_turns_together_is_an_error():
    with pytest.raises(InvalidArgumentError, match="max_cycles"):
        make("scallywags_v0", max_turns=5, max_cycles=5)


# -- PettingZoo's tests that need the global state or unmasked sampling -------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_pettingzoo_state_test(env_id):
    par = make_parallel(env_id, num_players=3) if env_id in SIMULTANEOUS_IDS else None
    env = make(env_id, num_players=3)
    if par is None:   # turn-based: state_test's parallel part needs a parallel env
        from pettingzoo.test.state_test import test_state, test_state_space
        test_state_space(env)
        test_state(env, 50)
    else:
        state_test(env, par, num_cycles=50)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_state_is_every_seat_observation(env_id):
    env = make(env_id, num_players=3)
    env.reset(seed=4)
    _play_random(env, np.random.default_rng(4), 30)
    state = env.state()
    assert env.state_space.contains(state)
    size = env.layout.size
    for seat, agent in enumerate(env.possible_agents):
        np.testing.assert_array_equal(state[seat * size:(seat + 1) * size],
                                      env.observe(agent)["observation"])


@pytest.mark.parametrize("env_id", SIMULTANEOUS_IDS)
def test_parallel_seed_test_with_unmasked_sampling(env_id):
    make_env = lambda: make_parallel(env_id, num_players=3)  # noqa: E731
    if "num_cycles" in inspect.signature(parallel_seed_test).parameters:   # not in 1.24
        parallel_seed_test(make_env, num_cycles=200)
    else:
        parallel_seed_test(make_env)


# -- the parallel form's illegal-move penalty ---------------------------------------------
@pytest.mark.parametrize("env_id", SIMULTANEOUS_IDS)
def test_parallel_illegal_action_ends_game_with_penalty(env_id):
    env = make_parallel(env_id, num_players=3)
    obs, _ = env.reset(seed=2)
    acting = env.acting_agents()
    offender = acting[0]
    illegal = int(np.flatnonzero(obs[offender]["action_mask"] == 0)[0])
    actions = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in acting}
    actions[offender] = illegal
    _, rewards, terms, truncs, infos = env.step(actions)
    assert rewards[offender] == -1.0
    assert all(r == 0.0 for a, r in rewards.items() if a != offender)
    assert all(terms.values()) and not any(truncs.values())
    assert all(i["illegal_action_by"] == offender for i in infos.values())
    assert env.agents == []
    with pytest.raises(IllegalActionError):   # out of the action space: always an error
        env.reset(seed=2)
        env.step({a: 10_000 for a in env.acting_agents()})
    raw = make_parallel(env_id, num_players=3, illegal_reward=None)
    raw.reset(seed=2)
    with pytest.raises(IllegalActionError):
        raw.step(actions)


# -- the wait action and the observation key ----------------------------------------------
@pytest.mark.parametrize("env_id,n", SIMULTANEOUS_COUNTS[:4] + [(e, 2) for e in ENV_IDS])
def test_wait_action_masks_are_never_empty(env_id, n):
    env = make(env_id, num_players=n, wait_action=True, observation_key="observations")
    num = env.game.num_actions
    assert env.action_space("player_0").n == num + 1
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _, agent in zip(range(300), env.agent_iter()):
        for other in env.possible_agents:
            o = env.observe(other)
            assert set(o) == {"observations", "action_mask"}
            assert env.observation_space(other).contains(o)
            mask = o["action_mask"]
            if other == agent and not (env.terminations[other] or env.truncations[other]):
                assert mask[num] == 0 and mask[:num].any()
            else:
                assert mask.tolist() == [0] * num + [1]
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_wait_action_is_illegal_for_the_acting_agent():
    env = make("scallywags_v0", raw=True, wait_action=True)
    env.reset(seed=0)
    with pytest.raises(IllegalActionError):
        env.step(env.game.num_actions)
    env = make("scallywags_v0", wait_action=True)
    env.reset(seed=0)
    agent = env.agent_selection
    env.step(env.game.num_actions)           # env(): ends the game, offender penalised
    assert env.rewards[agent] == -1.0


@pytest.mark.parametrize("env_id", SIMULTANEOUS_IDS)
def test_parallel_wait_action_plays_every_agent(env_id):
    """A sampler that asks every agent (TorchRL's view) plays whole games."""
    env = make_parallel(env_id, num_players=3, wait_action=True)
    num = env.game.num_actions
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(400):
        if not env.agents:
            break
        acting = set(env.acting_agents())
        for a, o in obs.items():
            assert o["action_mask"].any()
            assert bool(o["action_mask"][num]) == (a not in acting)
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()}
        obs, rewards, terms, truncs, _ = env.step(actions)
        assert not any(r == -1.0 and not terms[a] for a, r in rewards.items())


@pytest.mark.parametrize("bad", [123, "", "action_mask", None])
def test_bad_observation_key(bad):
    with pytest.raises(InvalidArgumentError, match="observation_key"):
        make("scallywags_v0", observation_key=bad)


def test_bad_wait_action_and_illegal_reward():
    with pytest.raises(InvalidArgumentError, match="wait_action"):
        make("scallywags_v0", wait_action="yes")
    with pytest.raises(InvalidArgumentError, match="illegal_reward"):
        make_parallel("shipshape_v0", illegal_reward="x")


# -- copyable envs ------------------------------------------------------------------------
@pytest.mark.parametrize("env_id,n", [(e, 2) for e in ENV_IDS] + [(e, 4) for e in ENV_IDS])
@pytest.mark.parametrize("copier", ["pickle", "deepcopy", "cloudpickle"])
def test_env_survives_copy_mid_game(env_id, n, copier):
    """A copy taken mid-game continues exactly like the original (SuperSuit's vector envs
    and Ray ship envs this way)."""
    copy_fn = {"pickle": lambda e: pickle.loads(pickle.dumps(e)),
               "deepcopy": copy.deepcopy,
               "cloudpickle": lambda e: cloudpickle.loads(cloudpickle.dumps(e))}[copier]
    env = make(env_id, num_players=n)
    env.reset(seed=11)
    _play_random(env, np.random.default_rng(11), 60)
    twin = copy_fn(env)
    for e in (env, twin):
        _play_random(e, np.random.default_rng(99), 300)
    assert twin.agent_selection == env.agent_selection
    assert twin.game_state.to_json() == env.game_state.to_json()
    for agent in env.possible_agents:
        np.testing.assert_array_equal(twin.observe(agent)["observation"],
                                      env.observe(agent)["observation"])
    fresh = copy_fn(make(env_id, num_players=n))     # before reset too
    fresh.reset(seed=1)


@pytest.mark.parametrize("env_id", SIMULTANEOUS_IDS)
def test_parallel_env_survives_pickle(env_id):
    env = make_parallel(env_id, num_players=3)
    obs, _ = env.reset(seed=0)
    twin = pickle.loads(pickle.dumps(env))
    rng = np.random.default_rng(0)
    actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"])))
               for a, o in obs.items() if o["action_mask"].any()}
    a, b = env.step(actions), twin.step(actions)
    for agent in env.possible_agents:
        np.testing.assert_array_equal(a[0][agent]["observation"], b[0][agent]["observation"])


# -- use in the wrong order, bad arguments ------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_use_before_reset_is_a_clear_error(env_id):
    env = make(env_id)
    with pytest.raises(NotActingError, match="reset"):
        env.last()
    with pytest.raises(NotActingError, match="reset"):
        env.agent_iter()
    with pytest.raises(NotActingError, match="reset"):
        env.state()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_bad_agent_seed_and_float_action(env_id):
    env = make(env_id, raw=True)
    with pytest.raises(InvalidArgumentError, match="seed"):
        env.reset(seed=-1)
    with pytest.raises(InvalidArgumentError, match="seed"):
        env.reset(seed=1.5)
    env.reset(seed=0)
    with pytest.raises(InvalidArgumentError, match="player_9"):
        env.observe("player_9")
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    with pytest.raises(IllegalActionError, match=r"illegal action 3\.0|illegal action"):
        env.step(float(legal))
    with pytest.raises(IllegalActionError):
        env.step(np.float32(legal))
    env.step(np.int64(legal))                  # numpy ints are ints


@needs_pz_registry
def test_module_functions_are_importable_by_name():
    for env_id in ENV_IDS:
        module = env_module(env_id)
        assert pettingzoo.spec("aec", pettingzoo_id(env_id)).entry_point == \
            f"{module.__name__}:env"


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_final_infos_have_fixed_shapes(env_id):
    """Every game's final infos have the same keys, lengths and types whoever wins, ties
    included (Tianshou allocates its info buffers from the first values it sees)."""
    shapes = set()
    for seed in range(6):
        env = make(env_id, num_players=3)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                break
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        mask = info["winner_mask"]
        assert all(isinstance(w, bool) for w in mask) and any(mask)
        assert all(isinstance(s, float) for s in info["scores"])
        shapes.add((tuple(sorted(info)), len(mask), len(info["scores"])))
    assert len(shapes) == 1


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize("action", [3.0, np.float64(0.0), np.float32(3.0), "3", None, [0]])
def test_non_integer_action_is_reported_not_converted(env_id, action):
    """A float, string, list or None is an illegal action whatever its value: the error
    names it and the legal actions by name, and nothing changes."""
    env = make(env_id, num_players=3, raw=True)
    env.reset(seed=0)
    state = env.game_state.to_json()
    with pytest.raises(IllegalActionError) as info:
        env.step(action)
    message = str(info.value)
    assert f"illegal action {action!r}" in message
    assert re.search(r"legal actions: \[\d+ \(", message)   # indices with their names
    assert env.game_state.to_json() == state                 # nothing happened
    with pytest.raises(IllegalActionError, match="illegal action 3.0"):
        st = env.game_state
        joint = {p: st.legal_actions(p)[0] for p in st.current_players()}
        joint[st.current_players()[0]] = 3.0
        st.apply_joint(joint)
    env.last()                                               # the env is still usable
