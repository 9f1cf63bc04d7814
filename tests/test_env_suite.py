"""The shared suite: every registered game, every supported player count.

PettingZoo's own tests (api_test, seed_test, render_test, parallel_api_test) plus the
engine contract: clone and JSON round trips, determinism, masks that never dead-end,
spaces that hold every observation. The suites of ``plunder.envs.core.testing`` (compiled
code, state loading, fuzz, the hidden-information contract): tests/core/.
"""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test

from plunder.envs import ENV_IDS, env_module, game_class, make, make_parallel
from plunder.envs.core import IllegalActionError, InvalidArgumentError, UnknownEnvError

from plunder.envs.core.testing import random_playout_states
from tests.support.parallel import MaskedSamplingParallelEnv

from .conftest import GAME_COUNTS, SIMULTANEOUS_COUNTS


@pytest.mark.parametrize("env_id,n", GAME_COUNTS)
def test_pettingzoo_api(env_id, n):
    api_test(make(env_id, num_players=n), num_cycles=300)


@pytest.mark.parametrize("env_id,n", GAME_COUNTS)
def test_pettingzoo_seed(env_id, n):
    seed_test(lambda: make(env_id, num_players=n), num_cycles=200)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_pettingzoo_render(env_id):
    render_test(lambda render_mode=None: make(env_id, render_mode=render_mode))


@pytest.mark.parametrize("env_id,n", SIMULTANEOUS_COUNTS)
def test_pettingzoo_parallel_api(env_id, n):
    parallel_api_test(MaskedSamplingParallelEnv(make_parallel(env_id, num_players=n)),
                      num_cycles=300)


@pytest.mark.parametrize("env_id,n", GAME_COUNTS)
def test_random_games_finish_with_outcome(env_id, n):
    """Random legal play reaches the end; rewards and scores arrive in the last step."""
    env = make(env_id, num_players=n, raw=True)
    for seed in range(3):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        total = {a: 0.0 for a in env.possible_agents}
        for agent in env.agent_iter(200_000):
            obs, reward, term, trunc, info = env.last()
            total[agent] += reward
            assert env.observation_space(agent).contains(obs), "observation outside its space"
            if term or trunc:
                assert "scores" in info and len(info["scores"]) == n
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            assert len(legal), f"{agent} is asked to act with an empty mask"
            env.step(int(rng.choice(legal)))
        assert not env.agents
        if env.reward_mode == "rank":
            assert abs(sum(total.values())) < 1e-9 or game_class(env_id).simultaneous


@pytest.mark.parametrize("env_id,n", GAME_COUNTS)
def test_clone_and_json_round_trip(env_id, n):
    """A clone and a JSON round trip replay exactly like the original; clones are small."""
    game = game_class(env_id)(n)
    for state in random_playout_states(game, seed=7, every=11)[::3]:
        state.validate()
        text = state.to_json()
        # to_dict/state_from_dict must not share lists with the original
        alias = game.state_from_dict(state.to_dict())
        if not alias.is_terminal():
            joint = {q: int(np.flatnonzero(alias.legal_actions_mask(q))[0])
                     for q in alias.current_players()}
            alias.apply_joint(joint)
            assert state.to_json() == text, "state_from_dict(to_dict()) shares data"
        assert len(text.encode()) < 20_000 or env_id != "scallywags_v0"
        back = game.state_from_json(text)
        assert back.to_json() == text
        twin = state.clone()
        assert twin.to_json() == text
        rng = np.random.default_rng(3)
        for _ in range(30):
            if state.is_terminal():
                break
            joint = {p: int(rng.choice(np.flatnonzero(state.legal_actions_mask(p))))
                     for p in state.current_players()}
            for s in (state, back, twin):
                s.apply_joint(dict(joint))
            assert back.to_json() == state.to_json() == twin.to_json()


@pytest.mark.parametrize("env_id,n", GAME_COUNTS)
def test_clone_is_small(env_id, n):
    """A cloned state serializes to under 20 KB throughout a game."""
    game = game_class(env_id)(n)
    for state in random_playout_states(game, seed=11, every=5):
        assert len(state.clone().to_json().encode()) < 20_000


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_same_seed_same_game(env_id):
    """reset(seed) fixes the whole game."""
    def play(seed):
        env = make(env_id, raw=True)
        env.reset(seed=seed)
        rng = np.random.default_rng(0)
        trace = []
        for agent in env.agent_iter(2000):
            obs, _, term, trunc, _ = env.last()
            trace.append((agent, obs["observation"].tobytes()))
            if term or trunc:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return trace
    assert play(1) == play(1)
    assert play(1) != play(2)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_errors_are_clear(env_id):
    cls = game_class(env_id)
    with pytest.raises(InvalidArgumentError, match="players"):
        make(env_id, num_players=cls.max_players + 1)
    with pytest.raises(InvalidArgumentError, match="unknown option"):
        make(env_id, no_such_flag=True)
    with pytest.raises(InvalidArgumentError, match="reward_mode"):
        make(env_id, reward_mode="money")
    env = make(env_id, raw=True)
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0]) if (mask == 0).any() else None
    if illegal is not None:
        with pytest.raises(IllegalActionError, match="legal actions"):
            env.step(illegal)


def test_unknown_env_id():
    with pytest.raises(UnknownEnvError, match="registered"):
        make("treasure_island_v9")


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_wrapped_env_penalises_illegal_move(env_id):
    env = make(env_id)
    with pytest.raises(Exception, match="reset"):
        env.step(0)
    env.reset(seed=0)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    with pytest.raises(IllegalActionError):
        env.step(len(mask))                      # outside the action space: an error
    if (mask == 0).any():
        env.step(int(np.flatnonzero(mask == 0)[0]))
        assert env.rewards[agent] == -1
        assert all(env.terminations.values())
        assert sum(env.rewards.values()) == -1
        for a in env.agent_iter():
            assert env.last()[2]
            env.step(None)
        assert not env.agents


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_truncation(env_id):
    """max_turns truncates every agent with rewards from the current scores."""
    env = make(env_id, raw=True, max_turns=2)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter(10_000):
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            assert trunc and "scores" in info
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not env.agents


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_module_has_user_docs(env_id):
    """The env module's docstring is the user's page: spaces, actions, rewards, versions."""
    doc = env_module(env_id).__doc__ or ""
    for word in ("Observation", "Action", "Reward", "Version history"):
        assert word.lower() in doc.lower(), f"{env_id} docstring lacks {word!r}"
    layout = game_class(env_id)(game_class(env_id).min_players).layout
    assert layout.size > 0 and layout.describe().count("\n") >= len(layout.fields)


@pytest.mark.parametrize("env_id,n", SIMULTANEOUS_COUNTS)
def test_parallel_matches_aec(env_id, n):
    """The parallel env and the AEC env play the same game from the same seed."""
    par = make_parallel(env_id, num_players=n)
    aec = make(env_id, num_players=n, raw=True)
    obs, _ = par.reset(seed=3)
    aec.reset(seed=3)
    rng = np.random.default_rng(0)
    while par.agents:
        actions = {}
        for agent in par.acting_agents():
            legal = np.flatnonzero(obs[agent]["action_mask"])
            actions[agent] = int(rng.choice(legal))
        for agent in list(actions):
            assert aec.agent_selection == agent
            np.testing.assert_array_equal(aec.observe(agent)["observation"],
                                          obs[agent]["observation"])
            aec.step(actions[agent])
        obs, rewards, terms, truncs, infos = par.step(actions)
    assert all(aec.terminations.values()) or all(aec.truncations.values())


@pytest.mark.parametrize("env_id,n", SIMULTANEOUS_COUNTS)
def test_aec_hides_pending_choices(env_id, n):
    """In a simultaneous decision, a later decider's observation is the same whatever
    the earlier deciders chose (their choices are pending, not yet applied)."""
    game = game_class(env_id)(n)
    seen = 0
    for state in random_playout_states(game, seed=23, every=1):
        acting = state.current_players()
        if len(acting) < 2:
            continue
        env = make(env_id, num_players=n, raw=True)
        env.reset(seed=0)
        later = env.possible_agents[acting[-1]]
        firsts = acting[:-1]
        outcomes = set()
        for choice in range(2):
            env.set_state(state.clone())
            for p in firsts:
                legal = np.flatnonzero(state.legal_actions_mask(p))
                env.step(int(legal[choice % len(legal)] if choice else legal[-1]))
            assert env.agent_selection == later
            o = env.observe(later)
            outcomes.add((o["observation"].tobytes(), o["action_mask"].tobytes()))
        assert len(outcomes) == 1
        seen += 1
        if seen >= 10:
            break
    assert seen > 0, "no simultaneous decision reached"
