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
import functools
import json

import numpy as np
import pytest

from plunder.envs import ENV_IDS, game_class, make, make_parallel
from plunder.envs.core import PlunderError

from plunder.envs.core.testing import random_playout_states

from .conftest import GAME_COUNTS


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


def _with(data, path, value):
    """``data`` with the item at ``path`` replaced by ``value``, or removed when ``value``
    is ``_DELETE`` (the containers along the path are copied, the rest is shared: loading
    never changes the data it reads)."""
    top = copy.copy(data)
    target = top
    for key in path[:-1]:
        target[key] = copy.copy(target[key])
        target = target[key]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return top


_DELETE = object()


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


@functools.lru_cache(maxsize=None)
def _saved_texts(env_id, n, seed):
    states = random_playout_states(game_class(env_id)(n), seed)
    picks = (states[0], states[len(states) // 3], states[2 * len(states) // 3], states[-1])
    return tuple(s.to_json() for s in picks)


def _saved_states(game, seed):
    """Four saved states along a random playout: the start, two middles, the end."""
    return [json.loads(t) for t in _saved_texts(game.env_id(), game.num_players, seed)]


@pytest.mark.parametrize("env_id,n", GAME_COUNTS)
def test_junk_in_every_top_level_field(env_id, n):
    """Every field of a state in mid-game (the slow run: also the start, another middle and
    the end)."""
    _junk_top_level(env_id, n, picks=(1,))


@pytest.mark.slow
@pytest.mark.parametrize("env_id,n", GAME_COUNTS)
def test_junk_in_every_top_level_field_thoroughly(env_id, n):
    _junk_top_level(env_id, n, picks=(0, 1, 2, 3))


def _junk_top_level(env_id, n, picks):
    game = game_class(env_id)(n)
    saved = _saved_states(game, seed=n)
    for data in (saved[i] for i in picks):
        for key in list(data):
            if key == "rng":
                continue
            for junk in junk_values():
                _check_loads_or_refuses(game, _with(data, (key,), junk))
            _check_loads_or_refuses(game, _with(data, (key,), _DELETE))
        _check_loads_or_refuses(game, _with(data, ("not_a_field",), 1))


@pytest.mark.parametrize("env_id,n", GAME_COUNTS)
def test_junk_deep_inside_fields(env_id, n):
    """Items inside lists and nested objects (a sample of them, the same every run)."""
    _junk_deep_inside(env_id, n, samples=12, seed=0)


@pytest.mark.slow
@pytest.mark.parametrize("env_id,n", GAME_COUNTS)
def test_junk_deep_inside_fields_thoroughly(env_id, n):
    _junk_deep_inside(env_id, n, samples=400, seed=1)


def _junk_deep_inside(env_id, n, samples, seed):
    game = game_class(env_id)(n)
    rng = np.random.default_rng(seed)
    for data in _saved_states(game, seed=n):
        paths = [p for p in _paths(data) if len(p) >= 2 and p[0] != "rng"]
        if not paths:
            continue
        for i in rng.choice(len(paths), size=min(len(paths), samples), replace=False):
            path = paths[i]
            for junk in (None, -1, 2**63, 10**20, 1.5, float("nan"), "x", [], {}, _deep(40),
                         True):
                _check_loads_or_refuses(game, _with(data, path, junk))
            if isinstance(path[-1], int):
                _check_loads_or_refuses(game, _with(data, path, _DELETE))
            # plausible but wrong values: one off, or far off
            value = data
            for key in path:
                value = value[key]
            if isinstance(value, int) and not isinstance(value, bool):
                for delta in (-1, 1, 1000):
                    _check_loads_or_refuses(game, _with(data, path, value + delta))


@pytest.mark.parametrize("env_id,n", GAME_COUNTS)
def test_junk_rng_and_json_text(env_id, n):
    game = game_class(env_id)(n)
    data = _saved_states(game, seed=n)[1]
    for junk in junk_values():
        _check_loads_or_refuses(game, _with(data, ("rng",), junk))
    for key in list(data["rng"]):
        for junk in junk_values():
            _check_loads_or_refuses(game, _with(data, ("rng", key), junk))
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
    if game_class(env_id).simultaneous:
        env = make_parallel(env_id)
        env.reset(seed=0)
        acting = env.acting_agents()
        for junk in (-1, 10**20, 1.5, "0", [0], float("nan")):
            with pytest.raises(PlunderError):
                env.step({agent: junk for agent in acting})
        with pytest.raises(PlunderError):
            env.step({"nobody": 0})
