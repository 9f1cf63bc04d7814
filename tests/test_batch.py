"""envs/core/batch.py: N games stepped together (GameBatch) for every game."""

import numpy as np
import pytest

from plunder.envs import ENV_IDS, game_class
from plunder.envs.core import IllegalActionError, InvalidArgumentError
from plunder.envs.core.batch import GameBatch


def _random_actions(rng, masks):
    return (rng.random(masks.shape) * masks).argmax(1)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_decisions_are_every_current_player_with_its_view_and_mask(env_id):
    cls = game_class(env_id)
    for n in (cls.min_players, cls.max_players):
        batch = GameBatch(cls, n, 3, seed=1)
        rng = np.random.default_rng(0)
        ended = 0
        for _ in range(60):
            tables, seats, obs, masks = batch.decisions()
            want = [(i, p) for i, st in enumerate(batch.states) for p in st.current_players()]
            assert list(zip(tables.tolist(), seats.tolist())) == want
            assert obs.dtype == np.float32 and masks.dtype == np.int8
            for k, (i, p) in enumerate(want):
                game, state = batch.games[i], batch.states[i]
                np.testing.assert_array_equal(obs[k], game.encode(state.view(p)))
                np.testing.assert_array_equal(masks[k], state.legal_actions_mask(p))
            before = list(batch.states)
            rewards, term, trunc = batch.step(_random_actions(rng, masks))
            for i, st in enumerate(batch.states):
                if term[i] or trunc[i]:     # a new game in its place
                    ended += 1
                    assert st is not before[i] and before[i].is_terminal() == term[i]
                    assert st.turns == 0 and not st.is_terminal()
                else:
                    assert st is before[i] and not rewards[i].any()
        assert rewards.shape == (3, n)


def test_simultaneous_deciders_are_asked_from_one_state():
    """Anchors Aweigh!'s loading: every seat decides at once; nothing is applied until
    all have chosen (one joint action), so none sees another's choice."""
    batch = GameBatch(game_class("anchors_aweigh_v0"), 3, 2, seed=0)
    tables, seats, obs, masks = batch.decisions()
    assert tables.tolist() == [0, 0, 0, 1, 1, 1] and seats.tolist() == [0, 1, 2] * 2
    states = [st.clone() for st in batch.states]
    batch.step(_random_actions(np.random.default_rng(0), masks))
    for old, new in zip(states, batch.states):     # one joint action applied per table
        assert new.turns == old.turns + 1


def test_games_end_with_the_env_rewards_and_restart():
    batch = GameBatch(game_class("scallywags_v0"), 2, 4, seed=3, reward_mode="rank")
    rng = np.random.default_rng(1)
    finished = 0
    while finished < 6:
        *_, masks = batch.decisions()
        rewards, term, trunc = batch.step(_random_actions(rng, masks))
        for i in np.flatnonzero(term | trunc):
            finished += 1
            assert sorted(rewards[i].tolist()) in ([-1.0, 1.0], [0.0, 0.0])


def test_truncation_at_max_turns():
    batch = GameBatch(game_class("scallywags_v0"), 2, 2, seed=0, max_turns=5)
    rng = np.random.default_rng(0)
    cut = np.zeros(2, bool)
    for _ in range(200):
        before = [st.turns for st in batch.states]
        *_, masks = batch.decisions()
        _, term, trunc = batch.step(_random_actions(rng, masks))
        assert not term.any()
        for i in np.flatnonzero(trunc):
            assert before[i] < 5          # cut by the step that reached the limit
        cut |= trunc
    assert cut.all()


def test_illegal_and_malformed_actions_raise():
    batch = GameBatch(game_class("scallywags_v0"), 2, 2, seed=0)
    _, seats, _, masks = batch.decisions()
    bad = masks.argmin(1)
    assert not masks[np.arange(len(bad)), bad].any()
    with pytest.raises(IllegalActionError):
        batch.step(bad)
    with pytest.raises(IllegalActionError):
        batch.step(np.full(len(seats), -1))
    with pytest.raises(InvalidArgumentError):
        batch.step(np.zeros(len(seats) + 1, np.int64))
    with pytest.raises(InvalidArgumentError):
        batch.step(masks.argmax(1).astype(float))
    with pytest.raises(InvalidArgumentError):
        GameBatch(game_class("scallywags_v0"), 2, 0)
    batch.step(masks.argmax(1))     # nothing was applied by the failed calls


@pytest.mark.parametrize("derived", [True, False])
@pytest.mark.parametrize("env_id", [e for e in ENV_IDS
                                    if GameBatch(game_class(e), game_class(e).min_players,
                                                 1).compiled])
def test_compiled_rows_handed_out_are_never_written_again(env_id, derived):
    """The compiled GameBatch hands its observation rows out without a copy: later steps
    (held tables among them) write elsewhere, and the rows equal those of a batch writing
    in place."""
    from plunder.envs.core.batch import CompiledBatch, engine_module
    cls = game_class(env_id)
    batch = GameBatch(cls, cls.max_players, 5, seed=4, derived_features=derived)
    ref = CompiledBatch(batch.game, engine_module(cls), 5, kept=batch._kept)
    ref.reset(np.random.SeedSequence(4).spawn(5))
    rng = np.random.default_rng(2)
    handed = []
    for t in range(120):
        tables, seats, obs, masks = batch.decisions()
        np.testing.assert_array_equal(obs, ref.obs[:ref.rows])
        handed.append((obs, obs.copy()))
        actions = _random_actions(rng, masks)
        hold = rng.random(5) < 0.3 if t % 2 else None
        batch.step(actions, hold)
        ref.step(actions, hold)
    for obs, copy in handed:
        np.testing.assert_array_equal(obs, copy)
    with pytest.raises(IllegalActionError):      # nothing applied, the rows kept
        batch.step(np.full(len(batch.decisions()[0]), -1))
    np.testing.assert_array_equal(batch.decisions()[2], ref.obs[:ref.rows])
