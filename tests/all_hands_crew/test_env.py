"""The env forms of All Hands on Deck: simultaneous hiring in the AEC env, pickling (bad actions: tests/test_env_interop.py)."""

from __future__ import annotations

import copy
import pickle

import cloudpickle
import numpy as np
import pytest

from plunder.envs import make
from plunder.envs.all_hands_crew.components import partitioner
from plunder.envs.all_hands_crew_v0 import Game

from .helpers import COOK, lay_pairs


def _random_step(env, rng):
    """One random legal action of the selected agent (None once it is done)."""
    obs, _, term, trunc, _ = env.last()
    env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def _seen(env, agent):
    obs = env.observe(agent)
    return obs["observation"].tobytes(), obs["action_mask"].tobytes()


def _check_hiring_step(env):
    """In the hiring step ``env`` is at (nobody has picked yet), every later hirer's
    observation and mask are the same whatever the earlier hirers picked; its observation
    is the one it had before anyone picked (its mask then was all zero: not its turn)."""
    hirers = env.unwrapped.acting_agents()
    assert len(hirers) >= 2 and env.agent_selection == hirers[0]
    before = {a: _seen(env, a)[0] for a in hirers}
    checked = 0
    for i in range(1, len(hirers)):
        branches = [env]
        for earlier in hirers[:i]:        # every combination of the earlier picks
            grown = []
            for branch in branches:
                assert branch.agent_selection == earlier
                mask = branch.observe(earlier)["action_mask"]
                for action in np.flatnonzero(mask):
                    child = copy.deepcopy(branch)
                    child.step(int(action))
                    grown.append(child)
            branches = grown
        assert len(branches) > 1
        for later in hirers[i:]:
            seen = {_seen(branch, later) for branch in branches}
            assert len(seen) == 1, f"{later} sees a pending pick of {hirers[:i]}"
            (obs, mask), = seen
            assert obs == before[later], f"{later}'s observation changed before the hiring ended"
            assert any(mask) == (later == hirers[i])
            checked += 1
        for branch in branches:
            assert branch.agent_selection == hirers[i]
            assert branch.unwrapped.game_state.phase == "hire"
    return checked


@pytest.mark.parametrize("n,open_stock", [(3, False), (4, True), (4, False)])
def test_aec_later_hirer_never_sees_an_earlier_pending_pick(n, open_stock):
    env = make("all_hands_crew_v0", num_players=n, open_stock=open_stock)
    env.reset(seed=n)
    rng = np.random.default_rng(n)
    hiring_steps = checked = 0
    while hiring_steps < 3:                # the first hiring steps of three rounds
        while env.unwrapped.game_state.phase != "hire":
            _random_step(env, rng)
        checked += _check_hiring_step(env)
        hiring_steps += 1
        while env.unwrapped.game_state.phase == "hire":
            _random_step(env, rng)
    assert checked >= 3 * n * (n - 1) // 2      # every later hirer of every step


def test_aec_double_hire_picks_and_passes_stay_hidden():
    """The further (Double hire) picking steps, where a pick may be a pass, hide the
    earlier hirers' choices too."""
    game = Game(3)
    state = game.new_initial_state(np.random.default_rng(2))
    state.keep = [2, 2, 2]                 # everyone laid a Cook pair last round
    for seat in range(3):
        lay_pairs(state, seat, COOK)
    state.validate()
    rng = np.random.default_rng(0)
    while state.phase != "hire":
        state.apply_joint({p: int(rng.choice(np.flatnonzero(state.legal_actions_mask(p))))
                           for p in state.current_players()})
    env = make("all_hands_crew_v0", num_players=3)
    env.reset(seed=0)
    env.unwrapped.set_state(state)
    assert _check_hiring_step(env) > 0
    for _ in range(3):                     # everyone makes a first pick
        _random_step(env, rng)
    assert env.unwrapped.game_state.hire_step == 1
    mask = env.observe(env.agent_selection)["action_mask"]
    assert mask[game.actions.pass_turn]               # a further pick may be passed
    assert _check_hiring_step(env) > 0


def _play_to_pending_pick(env, rng, min_steps=150):
    """Random play until at least ``min_steps`` steps are done and an agent's hiring pick
    is pending (waiting for the others)."""
    steps = 0
    while steps < min_steps or not env.unwrapped._pending:
        _random_step(env, rng)
        steps += 1
        assert env.agents, "the game ended before a pending pick"


def _roundtrip_pickle(obj):
    return pickle.loads(pickle.dumps(obj))


def _roundtrip_cloudpickle(obj):
    return cloudpickle.loads(cloudpickle.dumps(obj))


@pytest.mark.parametrize("restore", [_roundtrip_pickle, copy.deepcopy, _roundtrip_cloudpickle],
                         ids=["pickle", "deepcopy", "cloudpickle"])
@pytest.mark.parametrize("open_stock", [False, True])
def test_pickled_mid_game_env_continues_identically(restore, open_stock):
    env = make("all_hands_crew_v0", num_players=4, open_stock=open_stock)
    env.reset(seed=11)
    _play_to_pending_pick(env, np.random.default_rng(5))
    twin = restore(env)
    assert twin.unwrapped.game_state.to_json() == env.unwrapped.game_state.to_json()
    assert twin.unwrapped._pending == env.unwrapped._pending
    rng_a, rng_b = np.random.default_rng(9), np.random.default_rng(9)
    steps = 0
    while env.agents:
        agent = env.agent_selection
        assert twin.agent_selection == agent
        for a in env.possible_agents:
            assert _seen(twin, a) == _seen(env, a)
        assert twin.rewards == env.rewards and twin.terminations == env.terminations
        _random_step(env, rng_a)
        _random_step(twin, rng_b)
        steps += 1
    assert not twin.agents and steps > 50
    assert twin.unwrapped.game_state.scores() == env.unwrapped.game_state.scores()
    assert twin.unwrapped.game_state.to_json() == env.unwrapped.game_state.to_json()


def test_every_game_object_pickles():
    """Game, state, view and solver pickle; a loaded game relinks to the shared solver
    and encodes exactly as the original."""
    game = Game(5, open_stock=True)
    state = game.new_initial_state(np.random.default_rng(3))
    rng = np.random.default_rng(3)
    for _ in range(60):
        state.apply_joint({p: int(rng.choice(np.flatnonzero(state.legal_actions_mask(p))))
                           for p in state.current_players()})
    views = [state.view(p) for p in range(5)]
    expected = [game.encode(v) for v in views]
    for obj in (game, state, views[0], game.partitioner, game.layout):
        for restore in (_roundtrip_pickle, copy.deepcopy, _roundtrip_cloudpickle):
            assert type(restore(obj)) is type(obj)
    for restore in (_roundtrip_pickle, copy.deepcopy):
        other = restore(state)
        assert other.game is not game and other.game.partitioner is partitioner()
        assert other.to_json() == state.to_json()
        for p in range(5):
            assert other.view(p) == views[p]
            np.testing.assert_array_equal(other.game.encode(other.view(p)), expected[p])
    # the solver's memo is not pickled (it may hold a million entries)
    assert len(_roundtrip_pickle(game.partitioner)._cache) == 0 < len(game.partitioner._cache)


