"""The move log (``core.movelog.describe_step``) and the score breakdown, for every game.

- random games: every step's lines for every observer are text, never empty;
- hidden information: a state redrawn by ``sample_state`` from the observer's view, with
  the same joint action, gives the same lines whenever the observer's views agree; and a
  secret move (per the rulebooks, listed here independently of the games' code) replaced
  by another secret move of the same seat gives the same lines;
- scenarios: the events people need to see (a block, a swap, a battle, a bid reveal, a
  hire ...) appear;
- the breakdown adds up to the scores at the end of random games, every player count.
"""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs import ENV_IDS, game_class
from plunder.envs.core.movelog import TIE_BREAK, describe_step, format_breakdown

from .conftest import GAME_COUNTS

#: options that keep the long games short
SHORT = {"all_hands_battle_v0": {"target_score": 150}}


def new_game(env_id, n, seed, **options):
    """A game object and a fresh state."""
    game = game_class(env_id)(n, **{**SHORT.get(env_id, {}), **options})
    return game, game.new_initial_state(np.random.default_rng(seed))


def random_steps(game, state, seed, max_steps=3000):
    """(before, joint, after) of every step of a random playout from ``state``."""
    rng = np.random.default_rng(seed)
    steps = []
    while not state.is_terminal() and len(steps) < max_steps:
        joint = {p: int(rng.choice(state.legal_actions(p))) for p in state.current_players()}
        before = state.clone()
        state.apply_joint(joint)
        steps.append((before, joint, state.clone()))
    return steps


def find_step(env_id, n, condition, seeds=range(40), **options):
    """The first random step (before, joint, after) for which ``condition`` holds."""
    for seed in seeds:
        game, state = new_game(env_id, n, seed, **options)
        for before, joint, after in random_steps(game, state, seed):
            if condition(game, before, joint, after):
                return game, before, joint, after
    raise AssertionError("no such step in the random games tried")


# -- every game: lines for every step and observer ------------------------------------------

@pytest.mark.parametrize("env_id", ENV_IDS)
def test_every_step_has_lines_for_every_observer(env_id):
    n = game_class(env_id).min_players + 1
    game, state = new_game(env_id, n, 3)
    steps = random_steps(game, state, 3)
    assert steps[-1][2].is_terminal()
    for before, joint, after in steps:
        for observer in range(n):
            lines = describe_step(game, before, joint, after, observer)
            assert lines and all(isinstance(x, str) and x for x in lines), (joint, lines)


# -- hidden information -----------------------------------------------------------------------

@pytest.mark.parametrize("env_id", ENV_IDS)
def test_lines_do_not_depend_on_what_the_observer_cannot_know(env_id):
    n = 3
    game, state = new_game(env_id, n, 5)
    rng = np.random.default_rng(0)
    compared = tried = 0
    for before, joint, after in random_steps(game, state, 5)[::3]:
        for observer in range(n):
            tried += 1
            other = game.sample_state(before.view(observer), rng)
            if other.current_players() != before.current_players() or any(
                    not other.legal_actions_mask(p)[a] for p, a in joint.items()):
                continue
            other_after = other.clone()
            other_after.apply_joint(joint)
            if other_after.view(observer) != after.view(observer):
                continue                      # the step showed the observer a hidden fact
            compared += 1
            assert describe_step(game, other, joint, other_after, observer) == \
                describe_step(game, before, joint, after, observer)
    assert compared >= tried // 4, (compared, tried)


def _secret_moves(env_id, game, state, seat):
    """Per the rulebooks (not the games' code): the legal moves of ``seat`` that the other
    players cannot tell apart, or [] if its move now is public."""
    legal = state.legal_actions(seat)
    if env_id == "shipshape_v0":                     # a bid until the reveal
        return [a for a in legal if a < 10]
    if env_id == "all_hands_crew_v0":                # which stock card is hired
        return legal if state.phase == "hire" and not game.open_stock else []
    if env_id == "all_hands_battle_v0":              # a crew card goes aboard face down
        return legal if state.decision == "crew" else []
    if env_id == "anchors_aweigh_v0":                # card decisions until all have chosen
        from plunder.envs.anchors_aweigh.engine import A_SWAP, DECIDE, ENCOUNTER, PIRATE
        return [a for a in legal if a < A_SWAP] if state.phase in (DECIDE, ENCOUNTER,
                                                                   PIRATE) else []
    return []                                        # Scallywags: every move is public


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_secret_move_of_another_seat_is_not_told(env_id):
    n = 3
    compared = 0
    for seed in range(3):
        game, state = new_game(env_id, n, seed)
        for before, joint, after in random_steps(game, state, seed, max_steps=600):
            for seat, action in joint.items():
                secret = _secret_moves(env_id, game, before, seat)
                if action not in secret:
                    continue
                for alternative in secret:
                    changed = before.clone()
                    changed.apply_joint({**joint, seat: alternative})
                    for observer in range(n):
                        if observer == seat or changed.view(observer) != after.view(observer):
                            continue
                        compared += 1
                        assert describe_step(game, before, {**joint, seat: alternative},
                                             changed, observer) == \
                            describe_step(game, before, joint, after, observer)
    if env_id not in ("scallywags_v0", "shipshape_v0", "anchors_aweigh_v0"):
        assert compared > 0     # (a bid or a card decision is revealed in the same step)


# -- scenarios ----------------------------------------------------------------------------------

def test_scallywags_block_is_told_and_nothing_moves():
    game, before, joint, after = find_step(
        "scallywags_v0", 3, lambda g, b, j, a: b.phase == "block"
        and list(j.values()) == [g.actions.block])
    blocker = next(iter(joint))
    for observer in range(3):
        lines = describe_step(game, before, joint, after, observer)
        assert any("blocks with HANDS OFF ME BOOTY!" in x and "cancelled" in x for x in lines)
        assert not any("moves from" in x for x in lines)
    assert "player_%d (you) blocks" % blocker in describe_step(game, before, joint, after,
                                                               blocker)[0]


def test_scallywags_swap_shows_both_coins_moving():
    from plunder.envs.scallywags.components import AVAST
    game, before, joint, after = find_step(
        "scallywags_v0", 3, lambda g, b, j, a: b.card == AVAST and a.card == -1
        and a.takes != b.takes)
    mine, theirs = before.chosen
    owner = before.where[theirs]
    lines = describe_step(game, before, joint, after, owner)
    assert any(f"#{theirs} " in x and "to player_%d's take" % before.actor in x
               for x in lines)
    assert any(f"#{mine} " in x and "to your take" in x for x in lines)
    # the victim now knows the coin it received; a third player does not see its value
    third = ({0, 1, 2} - {owner, before.actor}).pop()
    if not after.face_up[mine] and not after.knowers[mine] >> third & 1:
        assert any(f"coin #{mine} (?)" in x for x in describe_step(game, before, joint,
                                                                    after, third))


def test_scallywags_taker_sees_the_value_others_do_not():
    game, before, joint, after = find_step(
        "scallywags_v0", 2, lambda g, b, j, a: b.phase == "choose"
        and list(j.values())[0] >= g.actions.coin and not b.knowers[
            list(j.values())[0] - g.actions.coin] and not b.face_up[
            list(j.values())[0] - g.actions.coin])
    (seat, action), = joint.items()
    coin = action - game.actions.coin
    assert f"#{coin} ({after.values[coin]})" in describe_step(game, before, joint, after,
                                                             seat)[0]
    assert f"#{coin} (?)" in describe_step(game, before, joint, after, 1 - seat)[0]


def test_shipshape_bids_are_revealed_with_their_cards():
    game, before, joint, after = find_step(
        "shipshape_v0", 3, lambda g, b, j, a: all(x < 10 for x in j.values()))
    for observer in range(3):
        lines = describe_step(game, before, joint, after, observer)
        reveal = next(x for x in lines if "are revealed" in x)
        for seat, action in joint.items():
            assert f"player_{seat}{' (you)' if seat == observer else ''} {action + 1}" \
                in reveal


def test_shipshape_ties_and_placements_are_told():
    game, before, joint, after = find_step(
        "shipshape_v0", 3, lambda g, b, j, a: len(a.bids) > len(b.bids) and any(
            a.need) and all(x < 10 for x in j.values()))
    assert any(x.startswith("tied:") for x in describe_step(game, before, joint, after, 0))
    game, before, joint, after = find_step(
        "shipshape_v0", 3, lambda g, b, j, a: all(x >= 10 for x in j.values()))
    lines = describe_step(game, before, joint, after, 0)
    for seat in joint:
        assert any(x.startswith(f"player_{seat}") and "places crate" in x for x in lines)


def test_anchors_aweigh_card_choices_are_revealed_together():
    from plunder.envs.anchors_aweigh.engine import ENCOUNTER
    game, before, joint, after = find_step(
        "anchors_aweigh_v0", 2, lambda g, b, j, a: b.phase == ENCOUNTER)
    for observer in range(2):
        lines = describe_step(game, before, joint, after, observer)
        reveal = next(x for x in lines if x.startswith("choices revealed"))
        for seat in range(2):
            assert f"player_{seat}" in reveal
        assert any(x in reveal for x in ("encounters", "fled"))


def test_anchors_aweigh_face_down_grab_is_seen_only_by_the_grabber():
    from plunder.envs.anchors_aweigh.engine import A_GRAB_DOWN
    game, before, joint, after = find_step(
        "anchors_aweigh_v0", 2, lambda g, b, j, a: list(j.values()).count(A_GRAB_DOWN) == 1
        and a.hand[[p for p, x in j.items() if x == A_GRAB_DOWN][0]] >= 0)
    seat = next(p for p, x in joint.items() if x == A_GRAB_DOWN)
    own = describe_step(game, before, joint, after, seat)
    theirs = describe_step(game, before, joint, after, 1 - seat)
    assert any("grabs a face-down tile (a " in x for x in own)
    assert any(x == f"player_{seat} grabs a face-down tile" for x in theirs)


def test_all_hands_battle_battle_result_and_crews_are_told():
    game, before, joint, after = find_step(
        "all_hands_battle_v0", 2, lambda g, b, j, a: b.decision == "aim"
        and list(j.values())[0] < g.actions.spy)
    for observer in range(2):
        lines = describe_step(game, before, joint, after, observer)
        assert any(" attacks " in x and ("wins" in x or "sink" in x or "raid" in x)
                   for x in lines), lines


def test_all_hands_battle_hidden_crew_and_own_draw():
    game, before, joint, after = find_step(
        "all_hands_battle_v0", 2, lambda g, b, j, a: b.decision == "crew")
    (seat, action), = joint.items()
    card = game.card_name(action - game.actions.crew)
    assert any(card in x for x in describe_step(game, before, joint, after, seat))
    other = describe_step(game, before, joint, after, 1 - seat)
    assert other == [f"player_{seat} puts a crew card aboard face down"] or \
        not any(card in x for x in other[:1])


def test_all_hands_crew_hire_is_secret_but_the_count_is_public():
    game, before, joint, after = find_step(
        "all_hands_crew_v0", 3, lambda g, b, j, a: b.phase == "hire" and a.phase != "hire")
    kinds = game.comps.kind_names
    for observer in range(3):
        lines = describe_step(game, before, joint, after, observer)
        assert sum(" hires " in x and "card" in x for x in lines) == 3
        own = [x for x in lines if x.startswith(f"player_{observer} (you) hires ")
               and "card" not in x]
        assert own and any(k in own[0] for k in kinds)
        assert not any(x.startswith("player_") and "(you)" not in x.split(" hires ")[0]
                       and any(x.endswith(k) for k in kinds) for x in lines)


def test_all_hands_crew_open_stock_shows_every_hire():
    game, before, joint, after = find_step(
        "all_hands_crew_v0", 3, lambda g, b, j, a: b.phase == "hire" and a.phase != "hire",
        open_stock=True)
    kinds = game.comps.kind_names
    lines = describe_step(game, before, joint, after, 0)
    for seat in (1, 2):
        assert any(x.startswith(f"player_{seat} hires ") and any(x.endswith(k) for k in kinds)
                   for x in lines)


def test_all_hands_crew_snatch_kind_is_known_to_the_two_players_only():
    game, before, joint, after = find_step(
        "all_hands_crew_v0", 3, lambda g, b, j, a: any(
            e[1] == "snatch" for e in a.events[len(b.events):]) and a.round == b.round)
    event = next(e for e in after.events[len(before.events):] if e[1] == "snatch")
    thief, victim = event[0], event[2]
    bystander = ({0, 1, 2} - {thief, victim}).pop()
    kind = game.comps.kind_names[event[3]]
    for observer in (thief, victim):
        assert any("snatches " + kind in x for x in describe_step(game, before, joint, after,
                                                                  observer))
    assert any("snatches a card" in x
               for x in describe_step(game, before, joint, after, bystander))


# -- the breakdown ------------------------------------------------------------------------------

@pytest.mark.parametrize("env_id,n", GAME_COUNTS)
def test_breakdown_adds_up_to_the_scores(env_id, n):
    game, state = new_game(env_id, n, 11 + n)
    steps = random_steps(game, state, 11 + n, max_steps=20000)
    end = steps[-1][2]
    assert end.is_terminal()
    rows = end.score_breakdown()
    keys = end.rank_keys()
    assert rows and all(len(values) == len(keys) for _, values in rows)
    totals = [sum(v[s] for label, v in rows if not label.startswith(TIE_BREAK))
              for s in range(len(keys))]
    assert totals == [k[0] for k in keys]
    assert totals[:n] == end.scores()
    table = format_breakdown(game, end, you=0)
    assert all(len(line) <= 80 for line in table), table


def test_breakdown_default_is_one_score_row():
    from tests.training.toy_game import ToyGame  # a game without a movelog module

    game = ToyGame(2)
    state = game.new_initial_state(np.random.default_rng(0))
    assert state.score_breakdown() == [("score", [float(k[0]) for k in state.rank_keys()])]
