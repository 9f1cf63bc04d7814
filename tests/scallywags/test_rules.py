"""Scenario tests: one per rule of the Scallywags rulebook and its completion."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from plunder.envs import make
from plunder.envs.core import ConfigError, IllegalActionError
from plunder.envs.scallywags.components import (
    ARRGH, AVAST, BLOW, BOOTY, HANDS_OFF, LAND_HO, PIECES, SHIVER, YO_HO, parse_components,
)
from plunder.envs.core.config import load_game_data
from plunder.envs.scallywags.engine import BLOCK, CHOOSE, ScallywagsGame

from .helpers import act, forget, legal_names, position

PLAY = {k: f"play {n}" for k, n in zip(range(9), [
    "ARRGH!", "AVAST ME HEARTIES!", "BLOW ME DOWN!", "GIVES US ME BOOTY!",
    "SHIVER ME TIMBERS!", "UM, LIKE, LAND HO!", "PIECES OF EIGHT!", "YO HO HO!",
    "HANDS OFF ME BOOTY!"])}


# -- components and setup -------------------------------------------------------------------
def test_components_match_the_completion():
    game = ScallywagsGame(2)
    comp = game.components
    assert Counter(comp.coin_values) == {0: 8, 1: 12, 3: 10, 5: 6, 8: 4}
    assert sum(comp.coin_values) == 104 and len(comp.coin_values) == 40
    assert comp.card_copies == (6,) * 9 and sum(comp.card_copies) == 54


@pytest.mark.parametrize("n,limit", [(2, 8), (3, 8), (4, 6), (5, 6), (6, 6)])
def test_setup_deals_three_cards_and_sets_take_limit(n, limit):
    s = ScallywagsGame(n).new_initial_state(np.random.default_rng(1))
    assert s.limit == limit
    assert all(sum(h) == 3 for h in s.hands)
    assert len(s.draw_pile) == 54 - 3 * n and s.discard == []
    assert sorted(s.middle) == list(range(40)) and all(t == [] for t in s.takes)


def test_coins_land_face_up_about_half_the_time_and_ids_hide_values():
    ups, first_values = 0, set()
    for seed in range(200):
        s = ScallywagsGame(2).new_initial_state(np.random.default_rng(seed))
        ups += sum(s.face_up)
        first_values.add(s.values[0])
    assert 0.45 < ups / (200 * 40) < 0.55
    assert first_values == {0, 1, 3, 5, 8}   # coin id 0 can be any value


def test_first_player_is_drawn_at_random():
    firsts = {ScallywagsGame(4).new_initial_state(np.random.default_rng(s)).actor
              for s in range(50)}
    assert firsts == {0, 1, 2, 3}


# -- the three turn options -----------------------------------------------------------------
def test_take_face_down_coin_goes_to_end_of_take_without_drawing():
    s = position(2, face_up={5: False, 6: False}, takes={0: [6]})
    forget(s, 5, 0, 1)
    act(s, "coin 5")
    assert s.takes[0] == [6, 5] and 5 not in s.middle
    assert s.knowers[5] & 1            # you may look at the coins in your take
    assert sum(s.hands[0]) == 3 and s.actor == 1 and s.turns == 1


def test_face_up_coins_cannot_be_taken_without_a_card():
    s = position(2, face_up={5: True}, hands={0: [ARRGH, ARRGH, ARRGH]})
    assert "coin 5" not in legal_names(s)


def test_no_face_down_take_when_take_is_full():
    s = position(2, takes={0: list(range(8))}, hands={0: [HANDS_OFF] * 3})
    names = legal_names(s)
    assert not any(n.startswith("coin") for n in names)
    # nothing else possible: discard and pass is the only option
    assert names == {"discard HANDS OFF ME BOOTY!"}
    act(s, "discard HANDS OFF ME BOOTY!")
    assert s.discard == [HANDS_OFF] and sum(s.hands[0]) == 3 and s.actor == 1


def test_discard_only_when_nothing_else_is_possible():
    s = position(2, hands={0: [HANDS_OFF, ARRGH, BLOW]})
    assert not any(n.startswith("discard") for n in legal_names(s))


def test_hands_off_cannot_be_played_on_your_own_turn():
    s = position(2, hands={0: [HANDS_OFF] * 3})
    assert PLAY[HANDS_OFF] not in legal_names(s)


def test_a_card_that_cannot_be_fully_executed_cannot_be_played():
    s = position(2, hands={0: [ARRGH, PIECES, AVAST]})      # nobody holds coins yet
    names = legal_names(s)
    assert PLAY[ARRGH] not in names and PLAY[PIECES] not in names and PLAY[AVAST] not in names


# -- card effects ---------------------------------------------------------------------------
def test_arrgh_returns_an_opponents_coin_to_the_middle_with_its_orientation():
    s = position(2, hands={0: [ARRGH] * 3, 1: [BOOTY] * 3}, face_up={3: False},
                 takes={1: [3, 4]})
    act(s, PLAY[ARRGH])
    act(s, "coin 3")
    assert s.phase == BLOCK and s.current_players() == (1,)
    act(s, "allow")
    assert 3 in s.middle and s.takes[1] == [4] and s.face_up[3] is False
    assert s.discard == [ARRGH] and sum(s.hands[0]) == 3


def test_avast_swaps_positions_and_works_at_the_take_limit():
    s = position(2, hands={0: [AVAST] * 3, 1: [BOOTY] * 3},
                 face_up={c: False for c in range(16)},
                 takes={0: list(range(8)), 1: [8, 9, 10]})
    forget(s, 9, 0)
    act(s, PLAY[AVAST])
    act(s, "coin 2")
    act(s, "coin 9")
    act(s, "allow")
    assert s.takes[0][2] == 9 and s.takes[1][1] == 2
    assert s.knowers[9] & 1 and s.knowers[2] & 2   # both have now held both coins


def test_avast_needs_face_down_coins_on_both_sides():
    s = position(2, hands={0: [AVAST] * 3}, face_up={0: True, 1: False},
                 takes={0: [0], 1: [1]})
    assert PLAY[AVAST] not in legal_names(s)


def test_blow_me_down_looks_then_gives_both_to_one_or_splits():
    s = position(3, hands={0: [BLOW] * 3, 1: [BOOTY] * 3, 2: [BOOTY] * 3},
                 face_up={10: False, 11: False})
    forget(s, 10, 0, 1, 2)
    forget(s, 11, 0, 1, 2)
    act(s, PLAY[BLOW])
    act(s, "coin 10")
    act(s, "coin 11")
    assert s.knowers[10] & 1 and s.knowers[11] & 1       # the actor looked at both
    act(s, "opponent +1")
    act(s, "opponent +2")
    assert s.block_queue == [1, 2]
    act(s, "allow")
    act(s, "allow")
    assert s.takes[1] == [10] and s.takes[2] == [11]


def test_blow_me_down_receivers_need_room():
    # 4 players, limit 6: +1 has room 1, +2 and +3 are full
    s = position(4, hands={0: [BLOW] * 3},
                 face_up={c: c < 30 for c in range(40)},
                 takes={1: [0, 1, 2, 3, 4], 2: [5, 6, 7, 8, 9, 20], 3: [21, 22, 23, 24, 25, 26]})
    assert PLAY[BLOW] not in legal_names(s)     # only one slot among the opponents
    s.takes[2].pop()
    s.middle.append(20)
    s.middle.sort()
    act(s, PLAY[BLOW])
    act(s, "coin 30")
    act(s, "coin 31")
    assert legal_names(s) == {"opponent +1", "opponent +2"}
    act(s, "opponent +1")
    assert legal_names(s) == {"opponent +2"}    # +1 is now full


def test_gives_us_me_booty_takes_a_face_up_coin():
    s = position(2, hands={0: [BOOTY] * 3}, face_up={c: c == 7 for c in range(40)})
    act(s, PLAY[BOOTY])
    assert legal_names(s) == {"coin 7"}
    act(s, "coin 7")
    assert s.takes[0] == [7] and s.phase == CHOOSE and s.actor == 1


def test_shiver_me_timbers_takes_one_face_down_and_one_face_up_and_needs_room_for_two():
    s = position(2, hands={0: [SHIVER] * 3}, face_up={c: c >= 20 for c in range(40)},
                 takes={0: [0, 1, 2, 3, 4, 5, 6]})
    assert PLAY[SHIVER] not in legal_names(s)
    s = position(2, hands={0: [SHIVER] * 3}, face_up={c: c >= 20 for c in range(40)})
    act(s, PLAY[SHIVER])
    assert all(int(n.split()[1]) < 20 for n in legal_names(s))
    act(s, "coin 3")
    assert all(int(n.split()[1]) >= 20 for n in legal_names(s))
    act(s, "coin 25")
    assert s.takes[0] == [3, 25]


def test_land_ho_looks_at_one_coin_and_takes_any_face_down_coin():
    s = position(2, hands={0: [LAND_HO] * 3, 1: [BOOTY] * 3},
                 face_up={c: False for c in range(40)}, takes={0: [0], 1: [1, 2]})
    for c in (1, 2, 5):
        forget(s, c, 0)
    act(s, PLAY[LAND_HO])
    assert "coin 0" not in legal_names(s)       # not a coin of your own take
    act(s, "coin 1")
    assert s.knowers[1] & 1                     # looked at
    act(s, "coin 2")                            # take a different one, from the opponent
    act(s, "allow")
    assert s.takes[0] == [0, 2] and s.takes[1] == [1]


def test_pieces_of_eight_takes_any_coin_from_an_opponent_and_needs_room():
    s = position(2, hands={0: [PIECES] * 3, 1: [BOOTY] * 3}, face_up={4: True},
                 takes={1: [4]})
    act(s, PLAY[PIECES])
    act(s, "coin 4")
    act(s, "allow")
    assert s.takes[0] == [4] and s.takes[1] == []
    s = position(2, hands={0: [PIECES] * 3}, takes={0: list(range(8)), 1: [9]})
    assert PLAY[PIECES] not in legal_names(s)


def test_yo_ho_ho_gives_a_face_up_coin_to_an_opponent_with_room():
    s = position(3, hands={0: [YO_HO] * 3, 1: [BOOTY] * 3, 2: [BOOTY] * 3},
                 face_up={c: c == 12 for c in range(40)},
                 takes={1: list(range(20, 28))})
    act(s, PLAY[YO_HO])
    act(s, "coin 12")
    assert legal_names(s) == {"opponent +2"}
    act(s, "opponent +2")
    act(s, "allow")
    assert s.takes[2] == [12]


# -- HANDS OFF ME BOOTY! --------------------------------------------------------------------
def test_hands_off_cancels_the_action_and_blocker_draws_back_to_three():
    s = position(2, hands={0: [PIECES] * 3, 1: [HANDS_OFF, BOOTY, BOOTY]}, takes={1: [4]})
    act(s, PLAY[PIECES])
    act(s, "coin 4")
    assert legal_names(s) == {"block (HANDS OFF ME BOOTY!)", "allow"}
    act(s, "block (HANDS OFF ME BOOTY!)")
    assert s.takes[1] == [4] and s.takes[0] == []
    assert Counter(s.discard) == {PIECES: 1, HANDS_OFF: 1}
    assert sum(s.hands[1]) == 3 and sum(s.hands[0]) == 3   # both drew
    assert s.actor == 1 and s.phase == CHOOSE


def test_every_touched_player_is_asked_even_without_the_card():
    s = position(2, hands={0: [PIECES] * 3, 1: [BOOTY] * 3}, takes={1: [4]})
    act(s, PLAY[PIECES])
    act(s, "coin 4")
    assert s.current_players() == (1,)
    assert legal_names(s) == {"allow"}


def test_untouched_players_are_not_asked():
    s = position(3, hands={0: [BOOTY] * 3, 1: [HANDS_OFF] * 3, 2: [HANDS_OFF] * 3},
                 face_up={7: True})
    act(s, PLAY[BOOTY])
    act(s, "coin 7")
    assert s.actor == 1 and s.phase == CHOOSE      # nobody was asked


def test_first_block_of_a_split_blow_cancels_it_and_keeps_the_look():
    s = position(3, hands={0: [BLOW] * 3, 1: [HANDS_OFF] * 3, 2: [HANDS_OFF] * 3},
                 face_up={10: False, 11: False})
    forget(s, 10, 0, 1, 2)
    forget(s, 11, 0, 1, 2)
    act(s, PLAY[BLOW])
    act(s, "coin 10")
    act(s, "coin 11")
    act(s, "opponent +2")
    act(s, "opponent +1")
    assert s.block_queue == [1, 2]                   # turn order from the actor
    act(s, "block (HANDS OFF ME BOOTY!)")
    assert 10 in s.middle and 11 in s.middle
    assert s.knowers[10] & 1 and s.knowers[11] & 1   # the look stays known
    assert s.phase == CHOOSE and s.actor == 1


# -- deck, end, outcome ---------------------------------------------------------------------
def test_empty_draw_pile_reshuffles_the_discard_pile():
    s = position(2, hands={0: [BOOTY] * 3}, face_up={7: True})
    s.discard, s.draw_pile = s.draw_pile, []
    size = len(s.discard)
    act(s, PLAY[BOOTY])
    act(s, "coin 7")
    assert s.discard == [] and len(s.draw_pile) == size   # size+1 shuffled, one drawn


def test_game_ends_when_every_take_is_full_and_highest_total_wins():
    # a hand-made position edited in place: the env's game must be the Python state
    env = make("scallywags_v0", num_players=2, raw=True, compiled=False)
    env.reset(seed=0)
    s = env.game_state
    s.face_up = [False] * 40
    for c in range(15):
        s._move_to_take(c, c % 2)
    s.actor = 1
    s.values[15] = s.values[14]
    s.refresh()
    # player 1 takes the last coin; both takes hold 8 now
    obs = env.observe("player_1")
    assert obs["action_mask"][env.game.actions.coin + 15]
    env.step(env.game.actions.coin + 15)
    assert all(env.terminations.values())
    scores = s.scores()
    assert env.infos["player_0"]["scores"] == scores
    best = max(scores)
    for i, a in enumerate(env.possible_agents):
        others = [x for j, x in enumerate(scores) if j != i]
        expected = (sum(scores[i] > o for o in others) - sum(scores[i] < o for o in others))
        assert env.rewards[a] == expected
        assert env.infos[a]["winner_mask"][i] == (scores[i] == best)


def test_ties_share_the_win():
    from plunder.envs.core.rewards import rank_rewards, win_rewards
    keys = [(10,), (10,), (3,)]
    assert win_rewards(keys, 3) == [1.0, 1.0, 0.0]
    assert rank_rewards(keys, 3) == [0.5, 0.5, -1.0]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_opponents_are_the_other_seats_in_turn_order(n):
    s = ScallywagsGame(n).new_initial_state(np.random.default_rng(n))
    for seat in range(n):
        assert list(s.opponents(seat)) == [(seat + d) % n for d in range(1, n)]
        s.actor = seat      # the choose step's opponents' takes follow the same order
        assert s._choice_facts()[3] == [s.takes[q] for q in s.opponents(seat)]


def test_the_game_ends_only_when_every_take_is_full():
    s = position(2, takes={0: list(range(8)), 1: list(range(8, 15))})
    s._end_turn(draw=False)
    assert not s.is_terminal()          # one take is full, the other one short
    s._move_to_take(15, 1)
    s._end_turn(draw=False)
    assert s.is_terminal()


def test_illegal_action_raises_naming_it_and_the_legal_ones():
    s = position(2, hands={0: [BOOTY] * 3}, face_up={7: True, 8: False})
    with pytest.raises(IllegalActionError, match=r"play PIECES OF EIGHT!.*legal actions"):
        s.apply_action(PIECES)


def test_config_validation_errors_are_clear():
    data = load_game_data("scallywags")
    bad = dict(data, cards=dict(data["cards"], grog=3))
    with pytest.raises(ConfigError, match="unknown key"):
        parse_components(bad)
    bad = dict(data, coins={0: 2, 8: 3})
    with pytest.raises(ConfigError, match="need .* coins"):
        parse_components(bad)
    bad = dict(data, hand_size="three")
    with pytest.raises(ConfigError, match="hand_size"):
        parse_components(bad)
    bad = dict(data, face_up_probability=1.5)
    with pytest.raises(ConfigError, match="face_up_probability"):
        parse_components(bad)
