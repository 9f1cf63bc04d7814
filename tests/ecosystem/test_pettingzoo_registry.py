"""PettingZoo's registry hands out every plunder game, and PettingZoo's own tests pass on
envs made through it: api_test, parallel_api_test, seed_test, parallel_seed_test and
state_test. (tests/test_env_interop.py covers the same features through plunder's own
``make``; this file is the path a PettingZoo user takes.)"""

from __future__ import annotations

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import (api_test, parallel_api_test, parallel_seed_test, seed_test,
                             state_test)

from plunder.envs import ENV_IDS, game_class, pettingzoo_id

from ..conftest import HAS_PZ_REGISTRY
from .doc_examples import run_doc_example

if not HAS_PZ_REGISTRY:
    pytest.skip("PettingZoo's registry needs pettingzoo>=1.27", allow_module_level=True)

SIMULTANEOUS_IDS = [e for e in ENV_IDS if game_class(e).simultaneous]
TURN_BASED_IDS = [e for e in ENV_IDS if e not in SIMULTANEOUS_IDS]


def _aec(env_id, **kwargs):
    """An AEC env from PettingZoo's registry."""
    return pettingzoo.make("aec", pettingzoo_id(env_id), **kwargs)


def _parallel(env_id, **kwargs):
    """A parallel env from PettingZoo's registry."""
    return pettingzoo.make("parallel", pettingzoo_id(env_id), **kwargs)


def test_registry_holds_every_game_and_parallel_only_for_simultaneous_ones():
    assert {pettingzoo_id(e) for e in ENV_IDS} <= set(pettingzoo.aec_registry)
    plunder_parallel = {k for k in pettingzoo.parallel_registry if k.startswith("plunder/")}
    assert plunder_parallel == {pettingzoo_id(e) for e in SIMULTANEOUS_IDS}
    assert pettingzoo_id("all_hands_crew_v0") == "plunder/all_hands_crew-v0"


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_registry_passes_keywords_through(env_id):
    env = _aec(env_id, num_players=3, max_cycles=25, wait_action=True,
               observation_key="observations", reward_mode="win")
    assert (env.game.num_players, env.max_turns, env.reward_mode) == (3, 25, "win")
    assert env.action_space("player_1").n == env.game.num_actions + 1
    env.reset(seed=0)
    assert set(env.observe("player_1")) == {"observations", "action_mask"}
    if env_id in SIMULTANEOUS_IDS:
        par = _parallel(env_id, num_players=3, illegal_reward=None, max_cycles=7)
        assert par.illegal_reward is None and par.max_turns == 7
        assert _parallel(env_id).illegal_reward == -1.0
    else:
        with pytest.raises(pettingzoo.env_registry.exceptions.NameNotFound):
            _parallel(env_id)


@pytest.mark.parametrize("kwargs", [{}, {"wait_action": True, "observation_key": "observations"}],
                         ids=["plain", "wait-action"])
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_api_test_on_registry_env(env_id, kwargs):
    api_test(_aec(env_id, num_players=3, **kwargs), num_cycles=400)


@pytest.mark.parametrize("kwargs", [{}, {"wait_action": True}], ids=["plain", "wait-action"])
@pytest.mark.parametrize("env_id", SIMULTANEOUS_IDS)
def test_parallel_api_test_on_registry_env(env_id, kwargs):
    """PettingZoo's parallel_api_test samples with each agent's mask (an agent that is not
    asked to act sends an action that is ignored, or 'wait')."""
    parallel_api_test(_parallel(env_id, num_players=3, **kwargs), num_cycles=400)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_seed_test_on_registry_env(env_id):
    seed_test(lambda: _aec(env_id, num_players=3), num_cycles=300)


@pytest.mark.parametrize("env_id", SIMULTANEOUS_IDS)
def test_parallel_seed_test_on_registry_env(env_id):
    """parallel_seed_test samples unmasked actions: the illegal-move penalty ends those
    games, identically in both copies."""
    parallel_seed_test(lambda: _parallel(env_id, num_players=3), num_cycles=300)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_state_test_on_registry_envs(env_id):
    if env_id in SIMULTANEOUS_IDS:
        state_test(_aec(env_id, num_players=3), _parallel(env_id, num_players=3),
                   num_cycles=50)
    else:   # state_test's parallel half needs a parallel env: run its AEC half
        # (imported here: pytest would collect these test_* names at module level)
        from pettingzoo.test.state_test import test_state, test_state_space

        env = _aec(env_id, num_players=3)
        test_state_space(env)
        test_state(env, 50)


@pytest.mark.parametrize("env_id", SIMULTANEOUS_IDS)
def test_unmasked_parallel_sampler_ends_games_by_the_penalty(env_id):
    """What SuperSuit/SB3 and RLlib's env checker rely on: random unmasked actions from
    every agent end the game with -1 for an offender, never an exception."""
    env = _parallel(env_id, num_players=3)
    rng = np.random.default_rng(0)
    penalised = 0
    for game in range(20):
        env.reset(seed=game)
        while env.agents:
            actions = {a: int(rng.integers(env.action_space(a).n)) for a in env.agents}
            _, rewards, terms, truncs, infos = env.step(actions)
        offender = infos[env.possible_agents[0]].get("illegal_action_by")
        if offender is not None:
            penalised += 1
            assert rewards[offender] == -1.0 and all(terms.values())
    assert penalised > 0


def test_doc_example_pettingzoo():
    namespace = run_doc_example("pettingzoo")
    assert namespace["env"].agents == [] and namespace["par"].agents == []   # games over
