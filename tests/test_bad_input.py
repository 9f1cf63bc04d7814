"""Bad input raises plunder's own errors, never a bare Python one, in every game.

Saved states from random playouts have their fields replaced with junk (wrong types, huge
or negative ints, NaN, deep nesting, missing and extra keys); loading them through
``state_from_dict``/``state_from_json`` either refuses with a ``PlunderError`` or gives a
state that validates and encodes an observation for every player. Env constructors get
junk keyword arguments and envs get junk actions, with the same rule. The state-loading
part also runs under ``python -O`` in CI: no check here may rest on ``assert`` in envs.
"""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from plunder.envs import ENV_IDS, game_class, make
from plunder.envs.core import PlunderError

from .conftest import GAME_COUNTS, random_playout_states


def _deep(depth: int):
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


def junk_values() -> tuple:
    """Values that are wrong for some field of every game's saved state (new objects each
    call, so that no loaded state shares them)."""
    return (None, True, False, -1, 0, 2**31, 2**63, -(2**63) - 1, 10**20, 1.5,
            float("nan"), float("inf"), "", "x", "0", [], [None], [-1], [2**63], [10**20],
            [[]], [1.5], [float("nan")], {}, {"x": 1}, _deep(60), _deep(3000))


def _paths(data, prefix=()):
    """Every path into ``data`` (dict keys and list indexes), parents before children."""
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, prefix + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _paths(value, prefix + (i,))


def _set(data, path, value):
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


def _check_loads_or_refuses(game, data):
    """Loading ``data`` raises a PlunderError, or the state validates and is observable."""
    try:
        state = game.state_from_dict(data)
    except PlunderError:
        return
    state.validate()
    for p in range(game.num_players):
        state.observation(p)
    for p in state.current_players():
        state.legal_actions_mask(p)


def _saved_states(game, seed):
    states = random_playout_states(game, seed)
    picks = (states[0], states[len(states) // 3], states[2 * len(states) // 3], states[-1])
    return [s.to_dict() for s in picks]


@pytest.mark.parametrize("env_id,n", GAME_COUNTS)
def test_junk_in_every_top_level_field(env_id, n):
    game = game_class(env_id)(n)
    for data in _saved_states(game, seed=n):
        for key in list(data):
            if key == "rng":
                continue
            for junk in junk_values():
                bad = copy.deepcopy(data)
                bad[key] = junk
                _check_loads_or_refuses(game, bad)
            bad = copy.deepcopy(data)
            del bad[key]
            _check_loads_or_refuses(game, bad)
        bad = copy.deepcopy(data)
        bad["not_a_field"] = 1
        _check_loads_or_refuses(game, bad)


@pytest.mark.parametrize("env_id,n", GAME_COUNTS)
def test_junk_deep_inside_fields(env_id, n):
    """Items inside lists and nested objects (a sample of them, the same every run)."""
    game = game_class(env_id)(n)
    rng = np.random.default_rng(n)
    for data in _saved_states(game, seed=100 + n):
        paths = [p for p in _paths(data) if len(p) >= 2 and p[0] != "rng"]
        if not paths:
            continue
        for i in rng.choice(len(paths), size=min(len(paths), 150), replace=False):
            path = paths[i]
            for junk in (None, -1, 2**63, 10**20, 1.5, float("nan"), "x", [], {}, _deep(40),
                         True):
                bad = copy.deepcopy(data)
                _set(bad, path, junk)
                _check_loads_or_refuses(game, bad)
            # a plausible but wrong value: a neighbour's, or one off
            bad = copy.deepcopy(data)
            target = bad
            for key in path[:-1]:
                target = target[key]
            value = target[path[-1]]
            if isinstance(value, int) and not isinstance(value, bool):
                for delta in (-1, 1, 1000):
                    bad2 = copy.deepcopy(data)
                    _set(bad2, path, value + delta)
                    _check_loads_or_refuses(game, bad2)


@pytest.mark.parametrize("env_id,n", GAME_COUNTS)
def test_junk_rng_and_json_text(env_id, n):
    game = game_class(env_id)(n)
    data = _saved_states(game, seed=7)[1]
    for junk in junk_values():
        bad = copy.deepcopy(data)
        bad["rng"] = junk
        _check_loads_or_refuses(game, bad)
    for key in list(data["rng"]):
        for junk in junk_values():
            bad = copy.deepcopy(data)
            bad["rng"][key] = junk
            _check_loads_or_refuses(game, bad)
    text = json.dumps(data)
    for bad_text in ("", "{", "[]", "null", "NaN", "1e400", "[" * 100_000 + "]" * 100_000,
                     '{"a": ' * 5000 + "1" + "}" * 5000, text[: len(text) // 2],
                     text.replace("]", "]]", 1), b"\xff\xfe", 12, None):
        try:
            state = game.state_from_json(bad_text)
        except PlunderError:
            continue
        state.validate()
    for junk in junk_values():
        with pytest.raises(PlunderError):
            game.state_from_dict(junk)


def _junk_options(env_id):
    cls = game_class(env_id)
    for name in ("num_players", "reward_mode", "max_turns", "render_mode", "render_seat",
                 "illegal_reward", "max_cycles", "observation_key", *cls.options):
        for junk in (None, -1, 0, 2**63, 10**20, 1.5, float("nan"), "x", [], {}, True):
            yield {name: junk}
    yield {"not_an_option": 1}


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_junk_constructor_arguments(env_id):
    for kwargs in _junk_options(env_id):
        try:
            env = make(env_id, **kwargs)
            env.reset(seed=0)
            env.observe(env.agent_selection)
        except PlunderError:
            continue
    for junk in (None, -1, 2**63, 10**20, 1.5, float("nan"), "2", [], True):
        with pytest.raises(PlunderError):
            game_class(env_id)(junk)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_junk_actions(env_id):
    game = game_class(env_id)(game_class(env_id).min_players)
    state = game.new_initial_state(np.random.default_rng(0))
    actor = state.current_players()[0]
    for junk in (None, -1, game.num_actions, 2**63, 10**20, 1.5, float("nan"), "0", [0],
                 np.int64(2**62), np.float32(0), True):
        with pytest.raises(PlunderError):
            state.clone().apply_joint({actor: junk})
    env = make(env_id, raw=True)
    env.reset(seed=0)
    for junk in (-1, 10**20, 1.5, "0", [0], float("nan")):
        with pytest.raises(PlunderError):
            env.step(junk)
