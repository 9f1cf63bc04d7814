"""The env forms, rendering, layout docs and the heuristic bot."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test

from plunder.envs import shipshape_v0
from plunder.envs.shipshape import ShipShapeGame
from plunder.envs.shipshape.engine import PLACE0
from plunder.envs.shipshape.geometry import NUM_CODES, code_good, totals
from plunder.policies.shipshape_heuristic import ShipShapeHeuristic, decode_tiles, measure

from .helpers import random_joint
from tests.support.parallel import MaskedSamplingParallelEnv


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_parallel_api(n):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(MaskedSamplingParallelEnv(shipshape_v0.parallel_env(num_players=n)),
                          num_cycles=300)


def test_parallel_env_plays_a_game_with_all_bidders_at_once():
    env = shipshape_v0.parallel_env(num_players=4)
    obs, _ = env.reset(seed=1)
    assert env.acting_agents() == env.possible_agents
    rng = np.random.default_rng(0)
    steps = 0
    while env.agents:
        acts = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"])))
                for a in env.acting_agents()}
        obs, rewards, terms, truncs, infos = env.step(acts)
        steps += 1
    assert all(terms.values()) and len(infos["player_0"]["scores"]) == 4
    assert sorted(rewards.values()) == sorted([-1.0, -1 / 3, 1 / 3, 1.0]) or \
        abs(sum(rewards.values())) < 1e-9


def test_render_from_a_seat_hides_the_capn_deck_order():
    env = shipshape_v0.raw_env(num_players=2, render_mode="ansi", render_seat=0)
    env.reset(seed=4)
    deck = env.game_state.hands[2]
    text = env.render()
    assert "player_0 (you)" in text and "capn" in text
    assert "deck of 10: 1 2 3 4 5 6 7 8 9 10" in text
    full = shipshape_v0.raw_env(num_players=2, render_mode="ansi")
    full.reset(seed=4)
    assert "deck " + " ".join(map(str, deck)) in full.render()
    assert "crate stack, top first" in text


def test_render_six_seats_shows_both_stacks_and_placing():
    game = ShipShapeGame(6)
    s = game.new_initial_state(np.random.default_rng(0))
    s.apply_joint({p: p for p in range(6)})
    text = game.describe_view(s.view(0))
    assert "group A crate stack" in text and "group B crate stack" in text
    assert "places crate" in text and "bids this turn" in text


def test_docstring_has_the_layout_table():
    doc = shipshape_v0.__doc__
    assert ShipShapeGame(4).layout.describe() in doc
    for word in ("Observation", "Action space", "Rewards", "Version history", "Cap'n"):
        assert word in doc


def test_layout_fields_read_back_the_view():
    game = ShipShapeGame(5)
    s = game.new_initial_state(np.random.default_rng(3))
    rng = np.random.default_rng(3)
    for _ in range(12):
        for p in range(5):
            obs = s.observation(p)
            lay = game.layout
            S = game.num_seats
            vis = decode_tiles(lay.read(obs, "seat_visible").reshape(S, 45))
            for k in range(S):
                assert tuple(vis[k]) == s.visible[(p + k) % S]
            assert np.allclose(lay.read(obs, "seat_coins") * 100,
                               [s.coins[(p + k) % S] for k in range(S)])
            tot = lay.read(obs, "seat_totals").reshape(S, 5)
            for k in range(S):
                g, c, x, r, full = totals(s.visible[(p + k) % S])
                assert np.allclose(tot[k, :4] * [27, 27, 27, 9], [g, c, x, r])
                assert (tot[k, 4] == 1.0) == full
            hand = np.flatnonzero(lay.read(obs, "my_hand")) + 1
            assert tuple(hand) == s.hands[p]
            assert lay.read(obs, "seat_is_capn")[(game.capn - p) % S] == 1
        s.apply_joint(random_joint(s, rng))


def test_heuristic_places_in_the_best_orientation_and_bids_legally():
    env = shipshape_v0.raw_env(num_players=3)
    env.reset(seed=2)
    bot = ShipShapeHeuristic(env.game, seed=0)

    def act(obs):
        a = bot.act(obs["observation"], obs["action_mask"])
        assert obs["action_mask"][a]
        return a

    _play(env, act)


def _play(env, act):
    """Play an AEC env to its end, each live agent's action from ``act(observation)``."""
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else act(obs))


class _CardByCardHeuristic(ShipShapeHeuristic):
    """The bid valuation as first written (one crate, one card at a time), kept as the
    reference for the array version."""

    def _crate_values(self, stack, mine, obs, placed):
        now = self._hold_values(mine[None, :], obs, placed)[0]
        return np.array([self._placements(c, mine, obs, placed + 1).max() - now
                         for c in stack])

    def _expected_gains(self, cards, opp, crate_values, m):
        tie_value = 0.9 * crate_values.mean()
        expected = np.empty(len(cards))
        for i, c in enumerate(cards):
            higher = (opp > c).sum(axis=1)
            tied = (opp == c).any(axis=1)
            got = crate_values[np.minimum(higher, m - 1)]
            expected[i] = np.where(tied, tie_value, got).mean()
        return expected


@pytest.mark.parametrize("n", [2, 4, 6])
def test_heuristic_bids_as_the_card_by_card_valuation(n):
    # the array version must choose exactly what the loop chose, draw for draw
    env = shipshape_v0.raw_env(num_players=n)
    env.reset(seed=10 + n)
    bot = ShipShapeHeuristic(env.game, seed=3)
    ref = _CardByCardHeuristic(env.game, seed=3)
    bids = 0

    def act(obs):
        nonlocal bids
        a = bot.act(obs["observation"], obs["action_mask"])
        assert a == ref.act(obs["observation"], obs["action_mask"])
        legal = np.flatnonzero(obs["action_mask"])
        bids += legal[-1] < PLACE0 and len(legal) > 1
        return a

    _play(env, act)
    assert bids > 0


def _decode_tiles_as_first_written(features):
    f = features.reshape(features.shape[:-1] + (9, 5))
    values = np.rint(f[..., 2:5] * 3).astype(np.int64)
    good = values.argmax(axis=-1)
    code = np.where(values.max(axis=-1) > 0, 2 + 3 * good + values.max(axis=-1) - 1, 0)
    return np.where(f[..., 1] > 0.5, 1, code)


def _hold_values_as_first_written(bot, grids, obs, crates_after):
    gold, cannon, contra, rats, goods = (np.zeros(grids.shape[:-1]) for _ in range(5))
    for cell in np.moveaxis(grids, -1, 0):
        for code in np.unique(cell):
            at = cell == code
            if code == 1:
                rats[at] += 1
            elif code >= 2:
                good, value = code_good(int(code))
                (gold, cannon, contra)[good][at] += value
                goods[at] += 1
    totals = bot.layout.read(obs, "seat_totals").reshape(bot.S, 5)
    others_contra = (totals[1:, 2] * 27).max() if bot.S > 1 else 0.0
    contra_value = np.where(contra >= others_contra, 0.25 * contra, contra)
    fill = np.where(goods >= 9, 8.0, 0.5 * goods if crates_after < 3 else 0.0)
    return gold - rats + cannon + contra_value + fill


def test_heuristic_tables_value_holds_as_first_written():
    # decode_tiles and _hold_values read tables now; the results must be the same numbers
    rng = np.random.default_rng(4)
    every = np.zeros((64, 45), np.float32)          # every gold/cannon/contraband reading
    for i in range(64):
        every[i, 2:5] = [(i >> 4) / 3, (i >> 2 & 3) / 3, (i & 3) / 3]
    assert np.array_equal(decode_tiles(every), _decode_tiles_as_first_written(every))
    for n in (2, 4, 6):
        env = shipshape_v0.raw_env(num_players=n)
        env.reset(seed=30 + n)
        bot = ShipShapeHeuristic(env.game, seed=0)
        lay, checked = env.game.layout, 0
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            o = obs["observation"]
            tiles = np.concatenate([lay.read(o, "seat_visible").reshape(-1, 45),
                                    lay.read(o, "stack").reshape(-1, 45),
                                    lay.read(o, "pending_crate").reshape(-1, 45)])
            codes = decode_tiles(tiles)
            assert np.array_equal(codes, _decode_tiles_as_first_written(tiles))
            grids = np.concatenate([codes, rng.integers(0, NUM_CODES, (20, 9))])
            for after in (1, 3):
                assert np.array_equal(bot._hold_values(grids, o, after),
                                      _hold_values_as_first_written(bot, grids, o, after))
            checked += 1
            env.step(bot.act(o, obs["action_mask"]))
        assert checked > 20
    with pytest.raises(ValueError, match="out of range"):
        decode_tiles(np.full(45, 2.0, np.float32))


def test_heuristic_beats_random():
    for n in (2, 4):
        result = measure(n, games=24, seed=1)
        assert result["heuristic"] > 2 * result["random_each"]
        assert result["heuristic"] > 1.5 / (n + (1 if n == 2 else 0))


@pytest.mark.slow
def test_heuristic_win_share_200_games():
    assert measure(2, games=200)["heuristic"] > 0.6
    assert measure(4, games=200)["heuristic"] > 0.5


def test_a_person_can_play_against_the_bots():
    from plunder.training.play.terminal import play

    shown = []

    def ask(prompt):
        idx = max(i for i, line in enumerate(shown) if line == "Your move:")
        return shown[idx + 1].split()[0]

    scores = play("shipshape_v0", seat=0, bots=["heuristic"], num_players=2, seed=3,
                  ask=ask, say=shown.append)
    assert len(scores) == 2 and "\nGame over." in shown and shown[-1].startswith("Scores:")
    assert any("player_0 (you)" in s for s in shown)


@pytest.mark.parametrize("n", [5, 6])
def test_six_seats_see_the_other_groups_stack(n):
    """Every crate stack is public (rulebook: look down through it): with six seats each
    seat's observation holds the other group's stack too, under ``other_stack``, and
    follows the groups when they change between voyages."""
    game = ShipShapeGame(n)
    assert game.six_seat and {"other_stack", "other_stack_present"} <= set(game.layout.names())
    s = game.new_initial_state(np.random.default_rng(n))
    rng = np.random.default_rng(0)
    lay = game.layout
    checked_voyages = set()
    while not s.is_terminal():
        if s.decision(0) == "bid" and s.stage[0] == 1 and s.voyage not in checked_voyages:
            checked_voyages.add(s.voyage)
            for p in range(n):
                other = 1 - s.group_of(p)
                obs = s.observation(p)
                lying = decode_tiles(lay.read(obs, "other_stack").reshape(-1, 45))
                stack = s.stacks[other]
                assert [tuple(t) for t in lying[:len(stack)]] == \
                    [game.oriented(c, o) for c, o in stack]
                assert lay.read(obs, "other_stack_present").sum() == len(stack)
                # turn the other group's top crate and swap its next two: p sees it
                changed = s.clone()
                (c0, o0), (c1, o1), (c2, o2) = stack[:3]
                new = ((c0, (o0 + 1) % 8), (c2, o2), (c1, o1)) + stack[3:]
                changed.stacks = tuple(new if k == other else st
                                       for k, st in enumerate(s.stacks))
                changed.validate()
                after = changed.observation(p)
                assert not np.array_equal(after, obs)
                assert np.array_equal(lay.read(after, "stack"), lay.read(obs, "stack"))
                assert not np.array_equal(lay.read(after, "other_stack"),
                                          lay.read(obs, "other_stack"))
        s.apply_joint(random_joint(s, rng))
    assert checked_voyages == {0, 1, 2}
