"""The bid outlook (envs/shipshape/bidding.py) and the planner bot that bids by it: each
bidder valued as the heuristic bot in its seat values the crates, the model of a bidder is
the heuristic's rule computed exactly, the crate a card wins is the engine's, the field is
what the observation's other fields give, and the planner beats the heuristic."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from plunder.envs.shipshape import bidding
from plunder.envs.shipshape.engine import BID0, ShipShapeGame
from plunder.envs.shipshape.observation import SCORE_SCALE
from plunder.policies import make_bot
from plunder.policies.shipshape_heuristic import ShipShapeHeuristic, decode_tiles
from plunder.policies.shipshape_planner import ShipShapePlanner
from tests.support.scripted import planner_win_share


def _bid_steps(players: int, games: int, seed: int):
    """(game, state, joint) at every step where seats bid, in games of one planner (seat 0)
    against heuristic bots; ``joint`` is every acting seat's move at that step."""
    game = ShipShapeGame(players)
    rng = np.random.default_rng(seed)
    for g in range(games):
        bots = [ShipShapePlanner(game, seed=g)] + [
            ShipShapeHeuristic(game, seed=g + s) for s in range(1, players)]
        state = game.new_game(rng)
        while not state.is_terminal():
            joint = {p: int(bots[p].act(game.encode(state.view(p)), state.legal_actions_mask(p)))
                     for p in state.current_players()}
            if any(state.decision(p) == "bid" for p in joint):
                yield game, state, joint
            state.apply_joint(joint)


def _next_crates(game, state, group):
    """The group's next crates, one per bidder, as they lie (cell codes, top first)."""
    m = len(state.need[group])
    return [list(game.oriented(c, o)) for c, o in state.stacks[group][:m]]


def _gains(game, state, seat, crates):
    contraband = [sum(bidding.CELL_PARTS[code][1] for code in state.visible[t])
                  for t in range(game.num_seats)]
    rivals = max(contraband[:seat] + contraband[seat + 1:])
    return bidding.crate_gains(list(state.visible[seat]), crates, rivals,
                               len(state.placed[seat]))


@pytest.mark.parametrize("players", [2, 4, 5])
def test_a_bidders_crate_gains_are_what_the_heuristic_in_its_seat_computes(players):
    checked = 0
    for game, state, joint in _bid_steps(players, 2, seed=4):
        for seat in joint:
            if state.decision(seat) != "bid":
                continue
            group = state.group_of(seat)
            crates = _next_crates(game, state, group)
            obs = game.encode(state.view(seat))
            heuristic = ShipShapeHeuristic(game)
            hold = decode_tiles(heuristic.layout.read(obs, "seat_visible")[:45])
            placed = int(round(heuristic.layout.read(obs, "seat_crates")[0] * 3))
            expected = heuristic._crate_values(np.asarray(crates), hold, obs, placed)
            assert _gains(game, state, seat, crates) == pytest.approx(expected.tolist())
            checked += 1
    assert checked > 40


def test_the_model_of_a_bidder_is_the_heuristic_rule_computed_exactly():
    """Scores over every combination of the others' cards, equally likely (the heuristic's
    own sampled estimate, taken over all of them), less its charge for high cards."""
    heuristic = ShipShapeHeuristic(ShipShapeGame(4))
    rng = np.random.default_rng(2)
    for _ in range(40):
        hands = [sorted(rng.choice(np.arange(1, 11), size=rng.integers(2, 11), replace=False)
                        .tolist()) for _ in range(rng.integers(2, 5))]
        m = len(hands)
        values = rng.integers(-8, 16, size=m).astype(float) / 4
        others = np.asarray(list(itertools.product(*hands[1:])))
        cards = np.asarray(hands[0])
        exact = heuristic._expected_gains(cards, others, values, m) \
            - bidding.card_cost(len(cards)) * (cards - 1)
        assert bidding.heuristic_scores(values.tolist(), hands[0], hands[1:]) \
            == pytest.approx(exact.tolist())
        probs = bidding.modelled_bid(values.tolist(), hands[0], hands[1:])
        assert sum(probs) == pytest.approx(1.0)
        best = int(np.argmax(exact))
        assert probs[best] == max(probs)
        assert all(p == 0.0 for p, s in zip(probs, exact) if s < exact[best] - bidding.WIDTH)


@pytest.mark.parametrize("players", [3, 4])
def test_the_expected_crate_is_what_the_engine_hands_out(players):
    """For each card of the bidding seat and each combination of the others' cards that
    the model gives a chance, the engine's own resolution (a clone of the state stepped
    with those bids) gives the crate, or the tie; weighted by the model's chances, that
    is the outlook (here every seat is an agent, so every bid can be played)."""
    checked = 0
    for game, state, joint in _bid_steps(players, 2, seed=7):
        group = state.group_of(0)
        bidders = sorted(state.need[group], key=lambda s: s % game.num_seats)
        if 0 not in bidders or len(bidders) < 2:
            continue
        crates = _next_crates(game, state, group)
        m = len(bidders)
        values = {s: _gains(game, state, s, crates) for s in bidders}
        hands = {s: sorted(state.hands[s]) for s in bidders}
        others = [s for s in bidders if s != 0]
        model = {s: bidding.modelled_bid(values[s], hands[s],
                                         [hands[t] for t in bidders if t != s])
                 for s in others}
        stack = [c for c, _ in state.stacks[group]]
        outlook = game.encode(state.view(0))[game.layout.slice("bid_outlook")]
        for card in hands[0]:
            expected = 0.0
            for combo in itertools.product(*[[(c, p) for c, p in zip(hands[s], model[s])
                                              if p > 0] for s in others]):
                chance = float(np.prod([p for _, p in combo]))
                bids = {0: card, **{s: c for s, (c, _) in zip(others, combo)}}
                after = state.clone()
                after.apply_joint({s: BID0 + b - 1 for s, b in bids.items()})
                taken = [c for seat, c, _ in after.placing[group] if seat == 0]
                if taken:
                    worth = values[0][stack.index(taken[0])]
                else:       # tied at a first bid: a re-bid for what the untied leave
                    untied = m - len(after.need[group])
                    worth = float(np.mean(values[0][untied:])) - bidding.REBID_CHARGE
                expected += chance * worth
            assert outlook[card - 1] == pytest.approx(expected / SCORE_SCALE, abs=1e-6)
            checked += 1
    assert checked > 30


def _seat_gains_from_obs(layout, seats, slot, stack, obs):
    """Seat ``slot``'s crate gains, read from the observation's fields alone."""
    hold = decode_tiles(layout.read(obs, "seat_visible").reshape(seats, -1)[slot]).tolist()
    placed = int(round(layout.read(obs, "seat_crates")[slot] * 3))
    contraband = np.rint(layout.read(obs, "seat_totals").reshape(seats, 5)[:, 2] * 27)
    rivals = int(np.delete(contraband, slot).max())
    return bidding.crate_gains(hold, stack.tolist(), rivals, placed)


def _seat_hand_from_obs(layout, seats, slot, obs):
    """Seat ``slot``'s cards from the observation (the Cap'n's deck; all ten once empty)."""
    row = layout.read(obs, "seat_hand").reshape(seats, bidding.NUM_CARDS)[slot]
    return (np.flatnonzero(row > 0.5) + 1).tolist() or list(range(1, bidding.NUM_CARDS + 1))


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_field_is_computed_from_what_the_observation_shows(players):
    """Read back from the observation's other fields (holds, stack, hands, hold numbers),
    the bidders' crate gains and cards give the field exactly: it uses nothing else."""
    checked = 0
    for game, state, joint in _bid_steps(players, 2, seed=1):
        layout, S = game.layout, game.num_seats
        read = layout.read
        for seat in joint:
            obs = game.encode(state.view(seat))
            if state.decision(seat) != "bid":
                assert not read(obs, "bid_outlook").any()
                continue
            status = read(obs, "seat_status").reshape(S, 3)
            group = read(obs, "seat_in_my_group")
            slots = [k for k in range(S) if status[k, 0] > 0.5 and group[k] > 0.5]
            stack = decode_tiles(read(obs, "stack").reshape(-1, 45)[:len(slots)])
            holds = np.rint(read(obs, "seat_hold") * 18).astype(int)
            capn = read(obs, "seat_is_capn")
            outlook = bidding.bid_outlook(
                [_seat_gains_from_obs(layout, S, k, stack, obs) for k in slots],
                [_seat_hand_from_obs(layout, S, k, obs) for k in slots],
                [capn[k] > 0.5 for k in slots],
                read(obs, "rebid")[0] > 0.5, [int(holds[k]) for k in slots])
            expected = (np.asarray(outlook) / SCORE_SCALE).astype(np.float32)
            assert np.array_equal(read(obs, "bid_outlook"), expected)
            checked += 1
    assert checked > 30


def test_the_planner_bids_the_best_outlook_less_the_charge_for_high_cards():
    for game, state, joint in _bid_steps(4, 1, seed=3):
        if state.decision(0) != "bid":
            continue
        outlook = game.encode(state.view(0))[game.layout.slice("bid_outlook")] * SCORE_SCALE
        hand = np.asarray(sorted(state.hands[0]))
        score = outlook[hand - 1] - bidding.card_cost(len(hand)) * (hand - 1)
        assert joint[0] == BID0 + hand[int(np.argmax(score))] - 1


def test_the_planner_beats_the_heuristic_at_four_players():
    """200 games against three heuristic bots, seats rotating; parity is 25%."""
    assert planner_win_share("shipshape_v0", 4, 200, seed=3) > 0.38


def test_make_bot_builds_the_planner():
    bot = make_bot("planner", "shipshape_v0", 3, seed=1)
    assert isinstance(bot, ShipShapePlanner)
    game = ShipShapeGame(3)
    state = game.new_game(np.random.default_rng(0))
    action = bot.act(game.encode(state.view(0)), state.legal_actions_mask(0))
    assert BID0 <= action < BID0 + 10
