"""The compiled engines (envs/<game>/_engine.c) against the Python engines, their
specification: the same trajectories, masks, views, observations, scores and rank keys
over random games (the same seeds give the same games: numpy's draws are reproduced),
over sampled (``sample_state``) and JSON-loaded states, and through the batched path
(GameBatch compiled and in Python); junk in a saved state, an action or a buffer is
refused with the project's errors.

Every game whose spec declares the ``engine`` part runs here, at every player count and
variant its spec tests (``GameSpec.test_variants``); a new one joins by declaring it (its
``State`` offers to_dict, current_players, is_terminal, mask, apply_joint, view,
encode_into, scores, rank_keys, clone and turns, as Scallywags' does). Simultaneous
decisions are played as joint actions of every seat asked, in seat order. Games differ
in length by two orders of magnitude, so the random games stop at a count of games or of
decisions, whichever comes first.
"""

from __future__ import annotations

import copy
import json
import os
from unittest import mock

import numpy as np
import pytest

from plunder.envs import ENV_IDS, game_class, spec
from plunder.envs.core import compiled
from plunder.envs.core.batch import GameBatch, engine_module
from plunder.envs.core.errors import (
    GameOverError, IllegalActionError, InvalidArgumentError, InvalidStateError, NotActingError,
)
from plunder.envs.core.testing import memory_growth

ENGINE_GAMES = [e for e in ENV_IDS if game_class(e).__module__.split(".")[-2]
                in compiled.packages("engine")]
GAMES = 100              # random games per player count in the default run
DECISIONS = 10_000       # ... unless they reach this many decisions first
#: in the slow suite: 5,000 per count keeps CI's run short; the full soak of 100,000 per
#: count runs with PLUNDER_ENGINE_GAMES=100000 PLUNDER_ENGINE_DECISIONS=100000000
SLOW_GAMES = int(os.environ.get("PLUNDER_ENGINE_GAMES", "5000"))
#: the slow suite's decision budget per count (PLUNDER_ENGINE_DECISIONS): all of
#: Scallywags' 5,000 games, about 750 of All Hands battle's
SLOW_DECISIONS = int(os.environ.get("PLUNDER_ENGINE_DECISIONS", "600000"))
LOADS = 50               # JSON-loaded (and as many sampled) states per count at most


pytestmark = pytest.mark.usefixtures("compiled_on")   # also under PLUNDER_PURE_PYTHON=1


def _engine(env_id, n, options=None):
    """(the game built in Python alone: the specification's views, masks and encoder; the
    compiled engine of the same game)."""
    cls = game_class(env_id)
    module = engine_module(cls)
    if module is None:
        pytest.skip(f"{env_id}: the compiled engine is not built")
    with mock.patch.dict(os.environ, {compiled.PURE_PYTHON_VAR: "1"}):
        game = cls(n, **(options or {}))
    return game, module.Engine(*game.compiled_engine_params(module))


def _counts(env_id):
    cls = game_class(env_id)
    return range(cls.min_players, cls.max_players + 1)


def _variants(env_id, n):
    """The options of the variants the game's spec tests that are offered at ``n``."""
    out = []
    for options in spec(env_id).test_variants:
        try:
            game_class(env_id)(n, **options)
        except InvalidArgumentError:           # not offered at this count
            continue
        out.append(dict(options))
    return out


def _params():
    """(env id, player count, variant options) of every case, with a readable id."""
    return [pytest.param(e, n, o, id=f"{e}-{n}-" + ",".join(f"{k}={v}" for k, v in o.items()))
            for e in ENGINE_GAMES for n in _counts(e) for o in _variants(e, n)]


def _joint(state, pick):
    """{seat: action} of every seat ``state`` asks (in seat order), each ``pick(legal
    actions)``."""
    return {p: pick(np.flatnonzero(state.legal_actions_mask(p)))
            for p in state.current_players()}


def _same_state(game, py, c, where=""):
    """Every comparison of one position: saved form, acting seats, every seat's mask,
    view and observation, scores and rank keys."""
    assert py.to_dict() == c.to_dict(), where
    _same_decision(game, py, c, where, every_seat=True)


def _same_decision(game, py, c, where="", every_seat=False, rng=None):
    acting = py.current_players()
    assert c.current_players() == acting and c.is_terminal() == py.is_terminal(), where
    assert c.turns == py.turns, where
    seats = range(game.num_players) if every_seat else acting
    out = np.empty(game.layout.size, np.float32)
    for p in seats:
        assert np.frombuffer(c.mask(p), np.int8).tobytes() == \
            py.legal_actions_mask(p).tobytes(), (where, p)
        view = py.view(p)
        assert c.view(p) == view, (where, p)
        c.encode_into(p, out)
        assert out.tobytes() == game.encode(view).tobytes(), (where, p)
    assert c.scores() == py.scores() and c.rank_keys() == py.rank_keys(), where


def _joint(state, pick):
    """{seat: action} of every seat ``state`` asks, each ``pick(legal actions)``."""
    return {p: pick(np.flatnonzero(state.legal_actions_mask(p)))
            for p in state.current_players()}


def _play(game, engine, seed, rng, uniform, check_every=20):
    """One random game from ``seed`` in both engines, compared step by step: the masks
    of the acting seats every step, everything every ``check_every`` steps and at the end.
    Returns the number of decisions."""
    py = game.new_initial_state(np.random.default_rng(seed))
    c = engine.new_game(seed)
    _same_state(game, py, c, (seed, 0))
    steps = 0
    u = int(rng.integers(len(uniform)))
    while not py.is_terminal() and py.turns < game.default_max_turns:
        joint = {}
        for p in py.current_players():
            mask = py.legal_actions_mask(p)
            assert c.mask(p) == mask.tobytes(), (seed, steps)
            legal = mask.nonzero()[0]
            u = (u + 1) % len(uniform)
            joint[p] = int(legal[int(uniform[u] * len(legal))])
        py.apply_checked(joint)
        c.apply_joint(joint)
        steps += 1
        if steps % check_every == 0:
            _same_state(game, py, c, (seed, steps))
    _same_state(game, py, c, (seed, steps))
    return steps


def _random_games(env_id, n, options, games, decisions):
    """Random games compared step by step: ``games`` of them, or fewer once they have
    taken ``decisions`` decisions."""
    game, engine = _engine(env_id, n, options)
    rng = np.random.default_rng(100 + n)
    uniform = rng.random(1 << 12)
    ended = taken = 0
    while ended < games and taken < decisions:
        seed = int(rng.integers(2**63 - 1))
        taken += _play(game, engine, seed, rng, uniform)
        ended += 1
    assert ended == games or taken >= decisions


@pytest.mark.parametrize("env_id", ENGINE_GAMES)
def test_default_rng_is_numpys(env_id):
    """The engine seeds PCG64 through numpy's SeedSequence for any int seed."""
    _, engine = _engine(env_id, game_class(env_id).min_players)
    rng = np.random.default_rng(0)
    seeds = [0, 1, 2**32 - 1, 2**32, 2**63 - 2, 2**64 - 1]
    seeds += [int(x) for x in rng.integers(0, 2**63 - 1, 50)]
    for seed in seeds:
        assert engine.rng_state(seed) == np.random.default_rng(seed).bit_generator.state
    for bad in (-1, 2**64, 1.0, "3", None, True):
        with pytest.raises(InvalidArgumentError):
            engine.rng_state(bad)


@pytest.mark.parametrize("env_id, n, options", _params())
def test_random_games_are_identical(env_id, n, options):
    share = len(_variants(env_id, n))
    _random_games(env_id, n, options, GAMES // share, DECISIONS // share)


@pytest.mark.slow
@pytest.mark.parametrize("env_id, n, options", _params())
def test_random_games_are_identical_slow(env_id, n, options):
    share = len(_variants(env_id, n))
    _random_games(env_id, n, options, SLOW_GAMES // share, SLOW_DECISIONS // share)


@pytest.mark.parametrize("env_id, n, options", _params())
def test_json_loaded_and_sampled_states_play_on_identically(env_id, n, options):
    """States saved to JSON and loaded into the compiled engine, and states dealt by
    ``sample_state`` from a player's view, then played on in both engines (LOADS of each
    at most: a long game offers hundreds)."""
    game, engine = _engine(env_id, n, options)
    rng = np.random.default_rng(7 + n)
    uniform = rng.random(1 << 10)
    loaded = g = 0
    cap = LOADS // len(_variants(env_id, n))     # loads per variant at most
    wanted = min(100, cap)
    # 40 games over the variants, more where the games are short
    while g < 40 // len(_variants(env_id, n)) or loaded < wanted and g < 400:
        g += 1
        py = game.new_game(rng)
        while not py.is_terminal() and loaded < cap:
            if rng.random() < 0.1:
                text = py.to_json()
                c = engine.from_dict(json.loads(text))
                _same_state(game, py, c, ("json", g, py.turns))
                _play_on(game, py.clone(), c, rng, uniform)
                view = py.view(int(rng.integers(n)))
                sampled = game.sample_state(view, rng)
                c = engine.from_dict(sampled.to_dict())
                _same_state(game, sampled, c, ("sampled", g, py.turns))
                _play_on(game, sampled, c, rng, uniform)
                loaded += 1
            py.apply_joint(_joint(py, lambda legal: int(rng.choice(legal))))
    assert loaded >= wanted


def _play_on(game, py, c, rng, uniform, steps=30):
    for k in range(steps):
        if py.is_terminal():
            break
        joint = _joint(py, lambda legal: int(
            legal[int(uniform[int(rng.integers(len(uniform)))] * len(legal))]))
        py.apply_checked(joint)
        c.apply_joint(joint)
        _same_decision(game, py, c, ("on", k))
    _same_state(game, py, c, "played on")
    copy_ = c.clone()
    assert copy_.to_dict() == c.to_dict()


# -- junk -------------------------------------------------------------------------------

_JUNK = [None, True, 1.5, "x", -1, 10**30, [], {}, [0], [[0]], [None], [-5], [10**6]]


def _mutations(data):
    """Saved states with one thing wrong (or just odd): each field replaced by junk, one
    item of a list replaced, a list cut or lengthened, a key missing or added."""
    for key in data:
        for junk in _JUNK:
            bad = copy.deepcopy(data)
            bad[key] = junk
            yield bad
        value = data[key]
        if isinstance(value, list) and value:
            for junk in _JUNK[:8]:
                for i in (0, len(value) - 1):
                    bad = copy.deepcopy(data)
                    bad[key][i] = junk
                    yield bad
            bad = copy.deepcopy(data)
            bad[key] = value[:-1]
            yield bad
            bad = copy.deepcopy(data)
            bad[key] = value + value[-1:]
            yield bad
            if isinstance(value[0], list) and value[0]:
                bad = copy.deepcopy(data)
                bad[key][0] = value[0][:-1]
                yield bad
                bad = copy.deepcopy(data)
                bad[key][0][0] = (value[0][0] + 1) if isinstance(value[0][0], int) else 0
                yield bad
            elif isinstance(value[0], int) and not isinstance(value[0], bool):
                for delta in (1, -1):
                    bad = copy.deepcopy(data)
                    bad[key][0] = value[0] + delta
                    yield bad
        elif isinstance(value, int) and not isinstance(value, bool):
            for delta in (1, -1, 2):
                bad = copy.deepcopy(data)
                bad[key] = value + delta
                yield bad
    for key in data:
        bad = copy.deepcopy(data)
        del bad[key]
        yield bad
    bad = copy.deepcopy(data)
    bad["extra"] = 1
    yield bad
    for rng_junk in ({"bit_generator": "MT19937"}, {"bit_generator": "PCG64"},
                     {**data["rng"], "state": {"state": -1, "inc": 1}},
                     {**data["rng"], "state": {"state": 2**128, "inc": 1}},
                     {**data["rng"], "state": {"state": 0, "inc": 0}},
                     {**data["rng"], "has_uint32": 5}, {**data["rng"], "uinteger": -3}):
        bad = copy.deepcopy(data)
        bad["rng"] = rng_junk
        yield bad


@pytest.mark.parametrize("env_id", ENGINE_GAMES)
def test_junk_states_are_refused_or_load_as_python_loads_them(env_id):
    """A saved state with junk in it: the compiled engine refuses it with
    InvalidStateError whenever the Python engine does (and never crashes); where the
    Python engine loads it, the compiled one loads the same position or refuses it."""
    cls = game_class(env_id)
    rng = np.random.default_rng(3)
    tried = refused = 0
    for n in (cls.min_players, cls.max_players):
        game, engine = _engine(env_id, n)
        states = []
        for _ in range(4):
            s = game.new_game(rng)
            while not s.is_terminal():
                states.append(s.to_dict())
                s.apply_joint(_joint(s, lambda legal: int(rng.choice(legal))))
        # six positions spread over the games (every step of a turn comes up)
        for data in states[::max(1, len(states) // 6)]:
            for bad in _mutations(data):
                tried += 1
                try:
                    py = game.state_from_dict(bad)
                except InvalidStateError:
                    py = None
                try:
                    c = engine.from_dict(bad)
                except InvalidStateError:
                    refused += 1
                    continue
                assert py is not None, ("the compiled engine loaded what Python refuses", bad)
                _same_state(game, py, c, "junk that loads")
    assert tried > 400 and refused > tried // 2
    for junk in (None, [], "{}", 3):
        with pytest.raises(InvalidStateError):
            engine.from_dict(junk)


@pytest.mark.parametrize("env_id", ENGINE_GAMES)
def test_junk_actions_players_and_buffers_are_refused(env_id):
    cls = game_class(env_id)
    game, engine = _engine(env_id, cls.min_players)
    state = engine.new_game(5)
    acting = state.current_players()
    p = acting[0]
    mask = np.frombuffer(state.mask(p), np.int8)
    others = {q: int(np.flatnonzero(np.frombuffer(state.mask(q), np.int8))[0])
              for q in acting[1:]}
    before = state.to_dict()
    for bad in (-1, game.num_actions, int(mask.argmin()), 2**70, 1.0, "0", None, True):
        with pytest.raises(IllegalActionError):
            state.apply_joint({p: bad, **others})
    for bad_joint in ({}, {**others}, {p: 0, game.num_players: 0, **others}, [0], None):
        with pytest.raises(NotActingError):
            state.apply_joint(bad_joint)
    assert state.to_dict() == before
    for bad in (-1, game.num_players, 2**70, 0.0, None, False):
        with pytest.raises(InvalidArgumentError):
            state.view(bad)
        with pytest.raises(InvalidArgumentError):
            state.mask(bad)
    size = game.layout.size
    read_only = np.zeros(size, np.float32)
    read_only.flags.writeable = False
    for out in (np.zeros(size, np.float64), np.zeros(size - 1, np.float32),
                np.zeros((size, 2), np.float32)[:, 0], read_only, None, [0.0] * size):
        with pytest.raises((ValueError, TypeError, BufferError)):
            state.encode_into(p, out)
    # a finished game takes no action; on the way, each decider of a simultaneous step is
    # checked against its own mask (nothing applied when one is illegal)
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        seats = state.current_players()
        masks = {q: np.frombuffer(state.mask(q), np.int8) for q in seats}
        joint = {q: int(rng.choice(np.flatnonzero(m))) for q, m in masks.items()}
        if len(seats) > 1 and rng.random() < 0.2:
            before = state.to_dict()
            for q in seats:
                for bad in (-1, int(masks[q].argmin()), None):
                    with pytest.raises(IllegalActionError):
                        state.apply_joint({**joint, q: bad})
            with pytest.raises(NotActingError):
                state.apply_joint(dict(list(joint.items())[1:]))
            assert state.to_dict() == before
        state.apply_joint(joint)
    with pytest.raises(GameOverError):
        state.apply_joint({0: 0})
    assert state.current_players() == ()
    # the batch's arrays (room for every seat of every table): each of the wrong kind in turn
    module = engine_module(cls)
    n, P, A = 3, game.num_players, game.num_actions
    good = dict(obs=np.zeros((n * P, size), np.float32), masks=np.zeros((n * P, A), np.int8),
                tables=np.zeros(n * P, np.int64), seats=np.zeros(n * P, np.int64),
                rewards=np.zeros((n, P), np.float32), terminated=np.zeros(n, bool),
                truncated=np.zeros(n, bool))
    wrong = dict(obs=np.zeros((n * P, size), np.float64),
                 masks=np.zeros((n * P, A + 1), np.int8), tables=np.zeros(n, np.int64),
                 seats=np.zeros(n * P, np.int32), rewards=np.zeros((n, P + 1), np.float32),
                 terminated=np.zeros(n, np.int64), truncated=np.zeros(n - 1, bool))
    for key in good:
        arrays = {**good, key: wrong[key]}
        with pytest.raises(InvalidArgumentError):
            module.Batch(engine, n, *arrays.values(), 100, "rank", None)
    for threads in (0, 65):
        with pytest.raises(InvalidArgumentError):
            module.Batch(engine, n, *good.values(), 100, "rank", None, threads)
    batch = module.Batch(engine, n, *good.values(), 100, "rank", None)
    with pytest.raises(InvalidArgumentError):          # no games before reset()
        batch.step(np.zeros(0, np.int64))
    for bad_words in (np.zeros((n, 3), np.uint64), np.ones((n, 4), np.float64),
                      np.zeros((n, 4), np.uint64)):      # an even increment
        with pytest.raises(InvalidArgumentError):
            batch.reset(bad_words)
    rows = batch.reset(np.ones((n, 4), np.uint64))
    assert n <= rows <= n * P and rows == batch.rows
    for bad_actions in (np.zeros(rows + 1, np.int64), np.zeros(rows, np.int32),
                        np.zeros(rows, np.float64)):
        with pytest.raises(InvalidArgumentError):
            batch.step(bad_actions)
    assert batch.step(np.full(rows, -1, np.int64)) == -1    # -1 - the first illegal row
    assert batch.rows == rows
    for bad in (None, [], 7, "ranked"):
        with pytest.raises((InvalidArgumentError, TypeError)):
            module.Batch(engine, n, *good.values(), 100, bad, None)


# -- the batched path -------------------------------------------------------------------

@pytest.mark.parametrize("env_id", ENGINE_GAMES)
@pytest.mark.parametrize("options", [
    dict(), dict(derived_features=False), dict(max_turns=7), dict(reward_mode="win"),
    dict(reward_mode="score"), dict(threads=3),
], ids=str)
def test_the_compiled_batch_steps_the_python_batchs_games(env_id, options):
    """GameBatch compiled and in Python, from one seed and fed the same actions: the same
    decisions (tables, seats, observations, masks) and outcomes every step (compiled
    steps split over threads too), for 400 steps and on until a game has ended."""
    cls = game_class(env_id)
    rng = np.random.default_rng(11)
    for n in (cls.min_players, cls.max_players):
        c = GameBatch(cls, n, 6, seed=21, compiled=True, **options)
        py = GameBatch(cls, n, 6, seed=21, compiled=False, **options)
        assert c.compiled and not py.compiled and c.obs_size == py.obs_size
        ended = step = 0
        while step < 400 or not ended and step < 20_000:
            step += 1
            dc, dp = c.decisions(), py.decisions()
            for a, b in zip(dc, dp):
                assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), step
            actions = (rng.random(dp[3].shape) * dp[3]).argmax(1)
            outcome = py.step(actions)
            for a, b in zip(c.step(actions), outcome):
                assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), step
            ended += int(outcome[1].sum() + outcome[2].sum())
        for sc, sp in zip(c.states, py.states):
            assert sc.to_dict() == sp.to_dict()
        assert ended > 0


@pytest.mark.parametrize("env_id", ENGINE_GAMES)
@pytest.mark.parametrize("threads", [1, 2])
def test_held_tables_keep_their_games_and_rows(env_id, threads):
    """step(actions, hold): the held tables' games and pending rows stay as they were
    (their actions unread: junk there is not refused), the others move on, compiled as
    in Python (the same rows and outcomes every step), with the final observation and
    outcome of every ended game alike."""
    cls = game_class(env_id)
    rng = np.random.default_rng(5)
    for n in (cls.min_players, cls.max_players):
        # games cut at 150 turns, so that long games (battle) end within the test too
        c = GameBatch(cls, n, 7, seed=3, compiled=True, threads=threads,
                      derived_features=False, max_turns=150)
        py = GameBatch(cls, n, 7, seed=3, compiled=False, derived_features=False,
                       max_turns=150)
        ended = held_rows = 0
        for step in range(3000):       # 300 steps, or on until a game ended (long games)
            if step >= 300 and ended:
                break
            dc, dp = c.decisions(), py.decisions()
            for a, b in zip(dc, dp):
                assert a.tobytes() == b.tobytes(), step
            hold = rng.random(7) < 0.4
            actions = (rng.random(dp[3].shape) * dp[3]).argmax(1)
            actions[hold[dp[0]]] = -7                # not read
            before = [(dp[1][dp[0] == i].tobytes(), dp[2][dp[0] == i].tobytes())
                      for i in range(7)]
            out_c, out_p = c.step(actions, hold), py.step(actions, hold)
            for a, b in zip(out_c, out_p):
                assert a.tobytes() == b.tobytes(), step
            after = py.decisions()
            for i in np.flatnonzero(hold):
                held_rows += 1
                assert (after[1][after[0] == i].tobytes(),
                        after[2][after[0] == i].tobytes()) == before[i]
                assert not out_p[0][i].any() and not out_p[1][i] and not out_p[2][i]
            for i in np.flatnonzero(out_p[1] | out_p[2]):
                ended += 1
                assert not hold[i]
                assert c.ended(i).to_dict() == py.ended(i).to_dict()
                for what in ("rank_keys", "scores"):
                    np.testing.assert_array_equal(np.asarray(getattr(c.ended(i), what)()),
                                                  np.asarray(getattr(py.ended(i), what)()))
                for seat in range(n):
                    assert c.final_observation(i, seat).tobytes() == \
                        py.final_observation(i, seat).tobytes()
        assert ended > 0 and held_rows > 0
        for bad in (np.zeros(6, bool), np.zeros(7, np.int8), np.zeros((7, 1), bool)):
            with pytest.raises(InvalidArgumentError):
                c.step(c.decisions()[3].argmax(1), bad)
        for bad in (-1, 7, True, 1.0):
            with pytest.raises(InvalidArgumentError):
                c.ended(bad)
        with pytest.raises(InvalidArgumentError):
            c.final_observation(0, n)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
@pytest.mark.parametrize("env_id", ENGINE_GAMES)
def test_a_threaded_batch_steps_on_in_a_forked_process(env_id):
    """The batch's worker threads are the parent's: a forked child starts its own and
    steps the same games as the parent (no wait for threads it does not have)."""
    import select
    import signal

    cls = game_class(env_id)
    batch = GameBatch(cls, cls.min_players, 40, seed=2, threads=2)
    rng = np.random.default_rng(0)
    for _ in range(5):
        batch.step((rng.random(batch.decisions()[3].shape) * batch.decisions()[3]).argmax(1))
    actions = [batch.decisions()[3].argmax(1)]
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:                                   # the child: step, send the rows, leave
        try:
            batch.step(actions[0])
            os.write(write, batch.decisions()[2].tobytes()[:4096])
        finally:
            os._exit(0)
    os.close(write)
    ready, _, _ = select.select([read], [], [], 60)
    if not ready:
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    child = os.read(read, 4096) if ready else b""
    os.close(read)
    assert ready, "the forked child's step did not finish"
    batch.step(actions[0])
    assert child == batch.decisions()[2].tobytes()[:4096]


def test_the_compiled_batch_is_used_where_built():
    for env_id in ENGINE_GAMES:
        batch = GameBatch(game_class(env_id), 2, 2, seed=0)
        assert batch.compiled
    other = [e for e in ENV_IDS if e not in ENGINE_GAMES]
    for env_id in other[:1]:
        assert not GameBatch(game_class(env_id), game_class(env_id).min_players, 1).compiled
        with pytest.raises(InvalidArgumentError):
            GameBatch(game_class(env_id), game_class(env_id).min_players, 1, compiled=True)


def test_compiled_code_switched_off_keeps_the_batch_in_python(monkeypatch):
    monkeypatch.setenv(compiled.PURE_PYTHON_VAR, "1")
    for env_id in ENGINE_GAMES:
        assert not GameBatch(game_class(env_id), 2, 2, seed=0).compiled


# -- env() on the compiled engine ---------------------------------------------------------

@pytest.mark.parametrize("env_id", ENGINE_GAMES)
@pytest.mark.parametrize("options", [dict(), dict(derived_features=False),
                                     dict(max_turns=9, reward_mode="score")], ids=str)
def test_env_plays_the_compiled_engine_as_the_python_one(env_id, options):
    """env() compiled and in Python, one seed and the same moves: the same agents asked,
    observations, masks, rewards, ends and global state; ``game_state`` is a Python copy
    equal to the Python env's game."""
    from plunder.envs import make

    cls = game_class(env_id)
    for n in (cls.min_players, cls.max_players):
        c = make(env_id, num_players=n, compiled=True, **options)
        py = make(env_id, num_players=n, compiled=False, **options)
        assert c.unwrapped.compiled and not py.unwrapped.compiled
        rng = np.random.default_rng(n)
        for game in range(3):
            c.reset(seed=game)
            py.reset(seed=game)
            for agent in py.agent_iter():
                assert c.agent_selection == agent
                obs_c, rew_c, term_c, trunc_c, _ = c.last()
                obs_p, rew_p, term_p, trunc_p, _ = py.last()
                assert (rew_c, term_c, trunc_c) == (rew_p, term_p, trunc_p)
                for key in obs_p:
                    assert obs_c[key].tobytes() == obs_p[key].tobytes(), (game, agent, key)
                assert c.unwrapped.state().tobytes() == py.unwrapped.state().tobytes()
                assert c.unwrapped.view(agent) == py.unwrapped.view(agent)
                action = None
                if not (term_p or trunc_p):
                    action = int(rng.choice(np.flatnonzero(obs_p["action_mask"])))
                c.step(action)
                py.step(action)
            assert c.unwrapped.game_state.to_dict() == py.unwrapped.game_state.to_dict()


@pytest.mark.parametrize("env_id", ENGINE_GAMES)
def test_env_game_state_is_a_copy_and_assigning_one_replaces_the_game(env_id):
    import pickle

    from plunder.envs import make

    env = make(env_id, compiled=True)
    env.reset(seed=4)
    copy_ = env.unwrapped.game_state
    before = copy_.to_dict()
    for agent in env.unwrapped.acting_agents():           # every decider of a joint move
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
    assert copy_.to_dict() == before                      # a copy: it did not move on
    assert env.unwrapped.game_state.to_dict() != before
    env.unwrapped.set_state(copy_)                        # back to where it was
    assert env.unwrapped.game_state.to_dict() == before
    twin = pickle.loads(pickle.dumps(env))                # the compiled game travels
    assert twin.unwrapped.compiled
    assert twin.unwrapped.game_state.to_dict() == before
    with pytest.raises(InvalidArgumentError):
        make(env_id, compiled="yes")


@pytest.mark.parametrize("env_id", ENGINE_GAMES)
def test_no_memory_growth(env_id):
    """Every call frees what it allocates: states made, saved, loaded and refused, viewed,
    encoded, masked, played (illegal actions refused) and copied, and a batch stepped."""
    cls = game_class(env_id)
    game, engine = _engine(env_id, cls.max_players)
    bad = {**engine.new_game(0).to_dict(), "turns": -1}
    out = np.empty(game.layout.size, np.float32)
    batch = GameBatch(cls, cls.max_players, 4, seed=0, compiled=True)
    rng = np.random.default_rng(0)

    def run(count):
        for k in range(count):
            state = engine.from_dict(engine.new_game(k).to_dict())
            with pytest.raises(InvalidStateError):
                engine.from_dict(bad)
            for _ in range(k % 7):
                joint = {p: int(np.flatnonzero(np.frombuffer(state.mask(p), np.int8))[-1])
                         for p in state.current_players()}
                for p in joint:
                    state.view(p)
                    state.encode_into(p, out)
                with pytest.raises(IllegalActionError):
                    state.apply_joint({p: -1 for p in joint})
                state.apply_joint(joint)
            state.clone().to_dict()
            state.scores(), state.rank_keys()
            masks = batch.decisions()[3]
            batch.step((rng.random(masks.shape) * masks).argmax(1))

    grown = memory_growth(run, 300, 1500)
    assert grown < 20000, grown
