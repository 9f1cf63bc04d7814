"""envs/core/vector.py: the public vectorized env (make_vector) for every game, with its
games in Python and, where built, in the compiled engine."""

import numpy as np
import pytest

from plunder.envs import ENV_IDS, VectorStep, game_class, make_vector
from plunder.envs.core import IllegalActionError, InvalidArgumentError, UnknownEnvError
from plunder.envs.core.batch import engine_module

COMPILED = [e for e in ENV_IDS if engine_module(game_class(e)) is not None]
PATHS = [(e, False) for e in ENV_IDS] + [(e, True) for e in COMPILED]

pytestmark = pytest.mark.usefixtures("compiled_on")


def _random(rng, masks):
    return (rng.random(masks.shape) * masks).argmax(1)


def _same(a: VectorStep, b: VectorStep):
    for x, y in zip(a, b):
        assert x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes()


@pytest.mark.parametrize("env_id,compiled", PATHS, ids=str)
def test_rows_are_every_pending_decision_from_its_seats_view(env_id, compiled):
    """Each row is one decider of one table (tables in order, deciders in seat order),
    with that seat's observation and mask; rewards come with the end of a game, whose
    table then holds a new one (games cut at 40 turns, so that long ones end too)."""
    cls = game_class(env_id)
    rng = np.random.default_rng(0)
    for n in (cls.min_players, cls.max_players):
        venv = make_vector(env_id, 3, num_players=n, seed=4, compiled=compiled, max_turns=40)
        assert venv.compiled == compiled and venv.backend in repr(venv)
        step = venv.reset()
        ended = 0
        for count in range(600):
            if count >= 40 and ended:
                break
            states = venv.batch.states if count < 40 else None   # the full check: 40 steps
            if states is not None:
                want = [(i, p) for i, st in enumerate(states) for p in st.current_players()]
                assert list(zip(step.tables.tolist(), step.seats.tolist())) == want
                assert step.observations.shape == (len(want), venv.obs_size)
                for k, (i, p) in enumerate(want):
                    game = venv.batch.games[i]
                    np.testing.assert_array_equal(step.observations[k],
                                                  game.encode(states[i].view(p)))
                    np.testing.assert_array_equal(step.action_masks[k],
                                                  states[i].legal_actions_mask(p))
                    assert venv.single_observation_space.contains(step.observations[k])
            assert step.observations.dtype == np.float32 and step.action_masks.dtype == np.int8
            assert (np.diff(step.tables) >= 0).all()
            step = venv.step(_random(rng, step.action_masks))
            assert step.rewards.shape == (3, n) and step.rewards.dtype == np.float32
            done = step.terminations | step.truncations
            assert not step.rewards[~done].any()
            for i in np.flatnonzero(done):
                ended += 1
                assert venv.batch.states[i].turns == 0          # a new game already
                assert venv.ended(i).is_terminal() == step.terminations[i]
        assert ended > 0


@pytest.mark.parametrize("env_id", COMPILED)
def test_compiled_and_python_rows_are_the_same(env_id):
    """The same seed and actions give the same rows and outcomes in both paths (the
    compiled one split over threads too)."""
    cls = game_class(env_id)
    for n in (cls.min_players, cls.max_players):
        py = make_vector(env_id, 5, num_players=n, seed=9, compiled=False,
                         derived_features=False)
        c = make_vector(env_id, 5, num_players=n, seed=9, compiled=True, threads=2,
                        derived_features=False)
        a, b = py.reset(), c.reset()
        rng = np.random.default_rng(1)
        for _ in range(200):
            _same(a, b)
            actions = _random(rng, a.action_masks)
            a, b = py.step(actions), c.step(actions)


@pytest.mark.parametrize("env_id,compiled", PATHS, ids=str)
def test_seeded_batches_repeat_and_reset_deals_new_games(env_id, compiled):
    """One seed, one run: two batches seeded alike play the same games; reset(seed)
    replays them; a reset without a seed deals new games from the same seed's stream."""
    runs = []
    for _ in range(2):
        venv = make_vector(env_id, 4, seed=17, compiled=compiled)
        rng = np.random.default_rng(2)
        steps = [venv.reset()]
        for _ in range(30):
            steps.append(venv.step(_random(rng, steps[-1].action_masks)))
        runs.append((venv, steps))
    for a, b in zip(runs[0][1], runs[1][1]):
        _same(a, b)
    venv = runs[0][0]
    _same(venv.reset(seed=17), runs[0][1][0])
    first = [st.to_dict() for st in venv.batch.states]
    fresh = venv.reset()
    assert [st.to_dict() for st in venv.batch.states] != first      # other deals
    again = make_vector(env_id, 4, seed=17, compiled=compiled)
    again.reset()
    _same(again.reset(), fresh)


def test_games_are_cut_at_max_turns():
    venv = make_vector("scallywags_v0", 2, seed=0, max_turns=5)
    step = venv.reset()
    rng = np.random.default_rng(0)
    cut = np.zeros(2, bool)
    for _ in range(60):
        step = venv.step(_random(rng, step.action_masks))
        assert not step.terminations.any()
        cut |= step.truncations
        for i in np.flatnonzero(step.truncations):   # the rank reward of the cut game
            assert sorted(step.rewards[i].tolist()) in ([-1.0, 1.0], [0.0, 0.0])
    assert cut.all()


@pytest.mark.parametrize("env_id,compiled", [PATHS[0], *[(e, True) for e in COMPILED[:1]]],
                         ids=str)
def test_bad_actions_are_refused_with_nothing_applied(env_id, compiled):
    venv = make_vector(env_id, 3, seed=0, compiled=compiled)
    with pytest.raises(InvalidArgumentError, match="reset"):
        venv.step(np.zeros(3, np.int64))
    step = venv.reset()
    masks = step.action_masks
    illegal = masks.argmin(1)
    assert not masks[np.arange(len(illegal)), illegal].any()
    for bad in (illegal, np.full(len(masks), -1), np.full(len(masks), venv.num_actions)):
        with pytest.raises(IllegalActionError):
            venv.step(bad)
    for bad in (np.zeros(len(masks) + 1, np.int64), masks.argmax(1).astype(float),
                masks.argmax(1)[:, None], masks.argmax(1) > 0, "0"):
        with pytest.raises(InvalidArgumentError):
            venv.step(bad)
    after = venv.step(masks.argmax(1).tolist())      # nothing was applied before
    reference = make_vector(env_id, 3, seed=0, compiled=compiled)
    reference.reset()
    _same(after, reference.step(masks.argmax(1)))


@pytest.mark.parametrize("kwargs,error", [
    (dict(num_envs=0), InvalidArgumentError), (dict(num_envs=True), InvalidArgumentError),
    (dict(num_envs="4"), InvalidArgumentError), (dict(num_envs=2.0), InvalidArgumentError),
    (dict(threads=0), InvalidArgumentError), (dict(threads=65), InvalidArgumentError),
    (dict(threads=True), InvalidArgumentError), (dict(threads=1.5), InvalidArgumentError),
    (dict(seed=-1), InvalidArgumentError), (dict(seed="1"), InvalidArgumentError),
    (dict(seed=1.0), InvalidArgumentError),
    (dict(num_players=1), InvalidArgumentError), (dict(num_players=99), InvalidArgumentError),
    (dict(reward_mode="ranked"), InvalidArgumentError),
    (dict(max_turns=0), InvalidArgumentError), (dict(max_turns=True), InvalidArgumentError),
    (dict(derived_features="no"), InvalidArgumentError),
    (dict(compiled="yes"), InvalidArgumentError),
    (dict(no_such_option=1), InvalidArgumentError),
    (dict(env_id="no_such_game_v0"), UnknownEnvError),
], ids=str)
def test_bad_arguments_are_refused(kwargs, error):
    args = dict(env_id="scallywags_v0", num_envs=2) | kwargs
    with pytest.raises(error):
        make_vector(**args)


def test_reset_seed_is_checked_and_compiled_true_needs_the_engine():
    venv = make_vector("scallywags_v0", 2)
    for bad in (-1, "3", 2.5, True):
        with pytest.raises(InvalidArgumentError):
            venv.reset(seed=bad)
    python_only = [e for e in ENV_IDS if e not in COMPILED]
    if python_only:
        with pytest.raises(InvalidArgumentError, match="compiled engine"):
            make_vector(python_only[0], 2, compiled=True)


def test_the_compiled_engine_is_used_where_built(monkeypatch):
    for env_id in ENV_IDS:
        venv = make_vector(env_id, 2)
        assert venv.compiled == (env_id in COMPILED)
        assert venv.backend == ("compiled" if env_id in COMPILED else "python")
    monkeypatch.setenv("PLUNDER_PURE_PYTHON", "1")
    for env_id in COMPILED:
        assert not make_vector(env_id, 2).compiled
