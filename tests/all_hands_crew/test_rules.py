"""Scenario tests: one per rule of the rulebook and its completion."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from plunder.envs.all_hands_crew.components import (
    NUM_KINDS, Partitioner, load_components, parse_components)
from plunder.envs.core.config import load_game_data
from plunder.envs.core.errors import (IllegalActionError,
                                      InvalidArgumentError)
from plunder.envs.core.rewards import rank_rewards
from plunder.envs.all_hands_crew_v0 import Game, raw_env
from tests.support.components import assert_config_error

from .helpers import (ANCHOR, BOSUN, CARPENTER, COOK, CUTLASS, GUNNER, KRAKEN, LOOKOUT,
                      NAVIGATOR, act, crew, lay_index, make_state, pass_all_lays,
                      play_to_lay)


# -- cards and the deal -----------------------------------------------------------------
@pytest.mark.parametrize("n,total,per", [(2, 72, 20), (3, 72, 17), (4, 72, 15), (5, 81, 15),
                                         (6, 90, 15)])
def test_player_count_removals_and_deal(n, total, per):
    g = Game(n)
    assert sum(g.copies) == total
    s = g.new_initial_state(np.random.default_rng(1))
    assert [len(p) for p in s.piles] == [per] * n
    assert sum(s.out) == total - n * per          # the rest is out of the game, unseen
    assert s.card_counts() == list(g.copies)
    assert all(m == 0 for known in s.pile_known for m in known)   # nobody looked
    assert all(sum(c) == 0 for c in s.crew)


def test_ninety_cards_with_marks():
    c = load_components()
    assert c.copies[6] == (12,) * 6 + (6,) * 3
    assert c.copies[5] == (11,) * 6 + (5,) * 3
    assert c.copies[4] == (10,) * 6 + (4,) * 3


def test_start_player_is_random_and_moves_clockwise():
    starts = {Game(4).new_initial_state(np.random.default_rng(i)).start for i in range(30)}
    assert starts == {0, 1, 2, 3}
    s = make_state(3, start=2)
    play_to_lay(s)
    pass_all_lays(s)
    assert s.start == 0 and s.round == 2 and s.actor == 0


# -- the score sheet --------------------------------------------------------------------
def test_score_sheet_values():
    g = Game(2)
    pts = {cb.name: cb.points for cb in g.combos}
    assert len(g.combos) == 91
    assert pts["pair of Cooks"] == 1 and pts["pair of Navigators"] == 2
    assert pts["three Bosuns"] == 3 and pts["four Gunners"] == 6
    assert pts["street without Cook"] == 8 and pts["full street"] == 12
    assert pts["Captain Anchor's table (Cook+Gunner+Lookout)"] == 4
    assert pts["Captain Cutlass's table (Cook+Gunner+Lookout)"] == 5
    assert pts["Captain Kraken's table (Carpenter+Navigator+Bosun)"] == 6
    assert pts["three Captain Krakens"] == 5 and pts["pair of Captain Anchors"] == 0
    actions = {cb.name: cb.action for cb in g.combos if cb.action != "none"}
    assert actions == {"pair of Cooks": "double_hire", "pair of Gunners": "snatch",
                       "pair of Lookouts": "spyglass", "pair of Carpenters": "short_rations",
                       "pair of Bosuns": "curse"}
    assert [g.comps.single_value(k) for k in (ANCHOR, CUTLASS, KRAKEN)] == [-1, -2, -3]


def _brute(part: Partitioner, counts) -> int:
    """Exhaustive best partition (slow reference)."""
    combos = part.combos
    single = [part.c.single_value(k) for k in range(NUM_KINDS)]

    def best(c, start):
        value = sum(single[k] * c[k] for k in range(NUM_KINDS))
        for i in range(start, len(combos)):
            need = combos[i].counts
            if all(a >= b for a, b in zip(c, need)):
                rest = tuple(a - b for a, b in zip(c, need))
                value = max(value, combos[i].points + best(rest, i))
        return value
    return best(tuple(counts), 0)


def test_best_partition_matches_brute_force():
    part = Partitioner(load_components())
    rng = np.random.default_rng(0)
    for _ in range(60):
        counts = [0] * NUM_KINDS
        for k in rng.choice(NUM_KINDS, size=int(rng.integers(0, 10)),
                            p=[0.13] * 6 + [0.22 / 3] * 3):
            counts[k] += 1
        total, combos, left = part.partition(counts)
        assert total == _brute(part, counts) == part.value(counts)
        used = [sum(part.combos[c].counts[k] for c in combos) for k in range(NUM_KINDS)]
        assert [u + l for u, l in zip(used, left)] == counts      # a card in one combo only


def test_one_more_card_values_are_the_partitions_with_that_card():
    part = Partitioner(load_components())
    rng = np.random.default_rng(3)
    for _ in range(200):
        counts = [int(x) for x in rng.integers(0, 5, NUM_KINDS)]
        base, more = part.with_one_more(counts)
        assert base == part.value(counts)
        assert more == tuple(part.value([c + (j == k) for j, c in enumerate(counts)])
                             for k in range(NUM_KINDS))
        assert part.with_one_more(tuple(counts)) == (base, more)     # memo hit, same answer


def test_best_partition_examples():
    part = Partitioner(load_components())
    assert part.value(crew(cook=1, gunner=1, lookout=1, carpenter=1, navigator=1, bosun=1)) == 12
    assert part.value(crew(kraken=1)) == -3                       # a single captain
    assert part.value(crew(anchor=2)) == 0                        # a pair of captains: 0
    assert part.value(crew(kraken=1, cook=1, gunner=1, bosun=1)) == 6   # captain's table
    assert part.value(crew(cook=4)) == 6
    assert part.value(crew(cook=5)) == 6                          # four + a plain leftover
    assert part.value(crew(navigator=2)) == 2


# -- component data validation ----------------------------------------------------------
def _data():
    return copy.deepcopy(load_game_data("all_hands_crew"))


@pytest.mark.parametrize("mutate,match", [
    (lambda d: d.update(extra=1), "unknown key"),
    (lambda d: d["crew"][0].update(plain="ten"), "crew\\[0\\].plain"),
    (lambda d: d["crew"].pop(), "exactly 6 crew kinds"),
    (lambda d: d["captains"][1].pop("table"), "missing key"),
    (lambda d: d["crew"][2].update(pair_action="plunder"), "unknown action"),
    (lambda d: d["cards_in_game"].update({6: 89}), "add up to 90"),
    (lambda d: d["deal"].update({2: 40}), "needs 80 cards"),
    (lambda d: d["marks_used"].update({5: ["7"]}), "unknown mark"),
    (lambda d: d["deal"].pop(3), "player counts 2-6"),
    (lambda d: d["score_sheet"].update(street=True), "score_sheet.street"),
    (lambda d: d["crew"][1].update(name="Cook"), "unique"),
])
def test_config_errors_are_clear(mutate, match):
    assert_config_error(parse_components, _data(), mutate, match)


# -- phase 1: looking for candidates ----------------------------------------------------
def test_drawing_one_card_at_a_time_in_turn_order_from_any_pile():
    s = make_state(3, start=1)
    order = []
    while s.phase == "draw":
        p = s.actor
        order.append(p)
        mask = s.legal_actions_mask(p)
        assert mask[:3].all()                     # any non-empty pile, own included
        top = s.piles[(p + 2) % 3][-1]
        act(s, p, 2)                              # the pile two seats clockwise
        assert s.stock[p][-1] == top and s.stock_src[p][-1] == (p + 2) % 3
    assert order == [1, 2, 0] * 3
    assert [len(x) for x in s.stock] == [3, 3, 3]
    assert s.phase == "hire"


def test_empty_pile_cannot_be_drawn_and_stock_is_blind():
    s = make_state(2, piles=[[COOK, GUNNER, LOOKOUT, BOSUN], []], start=0)
    assert s.legal_actions_mask(0)[:2].tolist() == [1, 0]
    assert s.legal_actions_mask(1)[:2].tolist() == [0, 0]       # not its turn
    s.pile_known[0] = [0, 0, 0, 1]               # player 0 put the Bosun there
    assert s.view(0).pile(0)[-1] == (1, BOSUN)
    assert s.view(1).pile(0)[-1] == (1, -1)
    act(s, 0, 0)
    # drawn blind: not even the player who put it there sees it in the stock
    assert s.view(0).stock[0] == ((-1, 0),)
    assert s.view(1).stock[0] == ((-1, 0),)
    assert s.legal_actions_mask(1)[:2].tolist() == [0, 1]       # own pile empty


def test_fewer_stock_cards_when_piles_run_short():
    s = make_state(3, piles=[[COOK, GUNNER], [LOOKOUT], [BOSUN, NAVIGATOR]], start=0)
    while s.phase == "draw":
        mask = s.legal_actions_mask(s.actor)
        act(s, s.actor, int(np.flatnonzero(mask[:3])[0]))
    assert sorted(len(x) for x in s.stock) == [1, 2, 2]
    assert s.phase == "hire"


# -- phase 2: hiring --------------------------------------------------------------------
def test_hiring_is_simultaneous_and_unchosen_go_back_on_own_pile():
    s = make_state(2, piles=[[COOK] * 3 + [GUNNER, LOOKOUT, BOSUN],
                             [NAVIGATOR] * 3 + [CARPENTER, ANCHOR, CUTLASS]], start=0)
    for _ in range(3):
        act(s, 0, 1)       # player 0 draws from pile 1
        act(s, 1, 1)       # player 1 draws from pile 0
    assert s.stock[0] == [CUTLASS, ANCHOR, CARPENTER]
    assert s.current_players() == (0, 1)
    v0 = s.view(0)
    assert [k for k, _ in v0.stock[0]] == [CUTLASS, ANCHOR, CARPENTER]   # own, after signal
    assert [k for k, _ in v0.stock[1]] == [-1, -1, -1]                   # others' hidden
    g = s.game
    s.apply_joint({0: g.actions.hire + 2, 1: g.actions.hire + 0})   # 0 hires Carpenter, 1 hires Bosun
    assert s.crew[0][CARPENTER] == 1 and s.crew[1][BOSUN] == 1
    # the two others, in stock order, on top of the player's own pile
    assert s.piles[0][-2:] == [CUTLASS, ANCHOR]
    assert s.piles[1][-2:] == [LOOKOUT, GUNNER]
    assert s.pile_known[0][-2:] == [1, 1] and s.pile_known[1][-2:] == [2, 2]
    assert s.view(0).pile(0)[-1] == (1, ANCHOR)       # the owner knows them
    assert s.view(1).pile(0)[-1] == (1, -1)           # the others do not
    assert s.phase == "lay" and s.actor == 0


def test_empty_pile_restarts_with_discards():
    s = make_state(2, piles=[[COOK, GUNNER, LOOKOUT], [BOSUN, NAVIGATOR, CARPENTER]], start=0)
    for _ in range(3):
        act(s, 0, 0)
        act(s, 1, 0)       # each empties their own pile
    assert s.phase == "hire" and s.piles == [[], []]
    s.apply_joint({0: s.game.actions.hire, 1: s.game.actions.hire})
    assert len(s.piles[0]) == 2 and len(s.piles[1]) == 2


def test_aec_hides_pending_hire():
    env = raw_env(num_players=2)
    env.reset(seed=4)
    while env.unwrapped.game_state.phase != "hire":
        obs = env.observe(env.agent_selection)
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    first = env.agent_selection
    second = [a for a in env.possible_agents if a != first][0]
    before = env.observe(second)["observation"].copy()
    obs = env.observe(first)
    env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    assert env.agent_selection == second
    np.testing.assert_array_equal(env.observe(second)["observation"], before)


# -- phase 3: all hands on deck ----------------------------------------------------------
def test_laying_out_in_turn_order_only_complete_combinations():
    s = make_state(3, crews=[crew(cook=2), crew(gunner=1), crew(navigator=2)], start=1)
    play_to_lay(s)
    s.crew = [crew(cook=2), crew(gunner=1), crew(navigator=2)]
    g = s.game
    assert s.actor == 1
    mask = s.legal_actions_mask(1)
    assert not mask[g.actions.lay:g.actions.target].any() and mask[g.actions.pass_turn]   # asked anyway; may pass
    act(s, 1, g.actions.pass_turn)
    assert s.actor == 2
    act(s, 2, lay_index(g, "pair of Navigators"))
    assert s.laid[2] == [g.combos.index(next(c for c in g.combos
                                              if c.name == "pair of Navigators"))]
    assert s.points(2) == 2 and s.crew[2] == [0] * NUM_KINDS
    assert s.actor == 2                       # may lay more, then passes
    act(s, 2, g.actions.pass_turn)
    assert s.actor == 0
    mask = s.legal_actions_mask(0)
    assert mask[lay_index(g, "pair of Cooks")] and not mask[lay_index(g, "three Cooks")]


def test_laid_combinations_are_protected_from_snatch():
    s = make_state(2, start=0)
    play_to_lay(s)
    s.crew = [crew(gunner=2), crew(kraken=1, cook=1, gunner=1, bosun=1)]
    g = s.game
    act(s, 0, g.actions.pass_turn)
    act(s, 1, lay_index(g, "Captain Kraken's table (Cook+Gunner+Bosun)"))
    act(s, 1, g.actions.pass_turn)
    play_to_lay(s)
    s.crew[0] = crew(gunner=2)
    s.crew[1] = [0] * NUM_KINDS
    # round 2: player 1 starts; player 0 lays Gunners but player 1 has no crew: forfeited
    act(s, 1, g.actions.pass_turn)
    act(s, 0, lay_index(g, "pair of Gunners"))
    assert s.phase == "lay" and s.events[-1][1:3] == ["forfeit", "snatch"]
    assert s.points(1) == 6


# -- in-game actions --------------------------------------------------------------------
def test_double_hire_keeps_two_next_round_only():
    s = make_state(2, start=0)
    play_to_lay(s)
    s.crew[0] = crew(cook=2)
    g = s.game
    act(s, 0, lay_index(g, "pair of Cooks"))
    act(s, 0, g.actions.pass_turn)
    act(s, 1, g.actions.pass_turn)
    assert s.keep == [2, 1]
    play_to_lay_partial = s
    while s.phase in ("draw", "spyglass"):
        act(s, s.actor, 0)
    assert s.current_players() == (0, 1)
    s.apply_joint({0: g.actions.hire + 0, 1: g.actions.hire + 0})
    assert s.phase == "hire" and s.current_players() == (0,)    # second pick for player 0
    mask = s.legal_actions_mask(0)
    assert not mask[g.actions.hire] and mask[g.actions.hire + 1] and mask[g.actions.pass_turn]
    before = sum(s.crew[0])
    act(s, 0, g.actions.hire + 2)
    assert sum(s.crew[0]) == before + 2 and len(s.piles[0]) == 20 - 1 - 3 + 1
    assert play_to_lay_partial.phase == "lay"
    pass_all_lays(s)
    assert s.keep == [1, 1]                                    # one round only


def test_double_hire_second_pick_may_be_passed():
    s = make_state(2, start=0)
    play_to_lay(s)
    s.crew[0] = crew(cook=2)
    g = s.game
    act(s, 0, lay_index(g, "pair of Cooks"))
    pass_all_lays(s)
    while s.phase in ("draw", "spyglass"):
        act(s, s.actor, 0)
    s.apply_joint({0: g.actions.hire + 0, 1: g.actions.hire + 0})
    act(s, 0, g.actions.pass_turn)
    assert s.phase == "lay"
    assert [e for e in s.events if e[1] == "hire" and e[0] == 0][0][2:4] == [1, 2]


def test_snatch_takes_random_card_known_to_both():
    s = make_state(3, start=0, open_stock=True)
    play_to_lay(s)
    s.crew = [crew(gunner=2), crew(kraken=1), crew(cook=3)]
    s.crew_known = [[[0] * 9 for _ in range(3)] for _ in range(3)]
    s.crew_known[2][1] = crew(cook=3)        # player 1 knew player 2's crew (open stock)
    g = s.game
    act(s, 0, lay_index(g, "pair of Gunners"))
    assert s.phase == "target" and s.pending == "snatch"
    mask = s.legal_actions_mask(0)
    assert mask[g.actions.target] and mask[g.actions.target + 1] and mask[g.actions.pass_turn]
    act(s, 0, g.actions.target + 1)                # two seats clockwise: player 2
    assert s.crew[0] == crew(cook=1) and s.crew[2] == crew(cook=2)
    assert s.view(0).crew_known[2] == (0,) * 9
    assert s.view(2).crew_known[0] == tuple(crew(cook=1))    # the victim knows it
    assert s.view(1).crew_known[0] == (0,) * 9               # the third does not
    # the third still knows the victim's Cooks, but for one that may be the snatched card
    assert s.view(1).crew_known[2] == tuple(crew(cook=3))
    assert s.view(1).crew_maybe_gone[2] == 1
    assert s.phase == "lay" and s.actor == 0


def _fix_out(s):
    """Put the cards no zone holds out of the game (after a test scripted the crews)."""
    held = [c - o for c, o in zip(s.card_counts(), s.out)]
    s.out = [total - h for total, h in zip(s.game.copies, held)]
    assert min(s.out) >= 0


def _snatch_scene(seed):
    """Open stock, 3 players: everyone has seen player 2 hire a Cook, a Lookout and a
    Bosun; player 0 lays its Gunners and snatches from player 2 (``seed`` decides which
    card). Returns the state and the snatched kind (``_snatch_scene.before`` keeps the
    state just before the target is chosen)."""
    s = make_state(3, piles=[[CARPENTER] * 3] * 3, start=0, open_stock=True)
    play_to_lay(s)
    s.crew = [crew(gunner=2), crew(kraken=1), crew(cook=1, lookout=1, bosun=1)]
    s.crew_known = [[crew() for _ in range(3)] for _ in range(3)]
    for o in range(3):   # every hire was seen by all (separate lists: the engine edits them)
        for q, hired in enumerate(s.crew):
            if o != q:
                s.crew_known[q][o] = list(hired)
    _fix_out(s)
    s.validate()
    g = s.game
    act(s, 0, lay_index(g, "pair of Gunners"))
    s.rng = np.random.default_rng(seed)
    _snatch_scene.before = s.clone()
    act(s, 0, g.actions.target + 1)                # player 2
    s.validate()
    (kind,) = [k for k in range(NUM_KINDS) if s.crew[0][k]]
    return s, kind


def test_snatch_onlookers_keep_all_known_cards_but_the_snatched_one():
    """After a Snatch an onlooker still knows every card it knew in the victim's pile,
    except that one of them (it cannot tell which) is the snatched card; the snatcher sees
    the card it took, the victim knows where it went."""
    scenes = {}
    for seed in range(40):
        s, kind = _snatch_scene(seed)
        scenes.setdefault(kind, s)
    assert sorted(scenes) == [COOK, LOOKOUT, BOSUN]
    g = next(iter(scenes.values())).game
    seen_by_onlooker = set()
    for kind, s in scenes.items():
        left = tuple(crew(cook=1, lookout=1, bosun=1)[k] - (k == kind) for k in range(9))
        assert tuple(s.crew[2]) == left
        onlooker = s.view(1)
        assert onlooker.crew_known[2] == tuple(crew(cook=1, lookout=1, bosun=1))
        assert onlooker.crew_maybe_gone[2] == 1 and onlooker.crew_sizes[2] == 2
        assert onlooker.crew_known[0] == tuple(crew()) and onlooker.crew_maybe_gone[0] == 0
        assert [e[3] for e in onlooker.events if e[1] == "snatch"] == [-1]
        seen_by_onlooker.add((g.encode(onlooker).tobytes(), g.describe_view(onlooker),
                              s.legal_actions_mask(1).tobytes()))
        snatcher = s.view(0)
        assert snatcher.my_crew[kind] == 1
        assert [e[3] for e in snatcher.events if e[1] == "snatch"] == [kind]
        assert snatcher.crew_known[2] == left and snatcher.crew_maybe_gone[2] == 0
        victim = s.view(2)
        assert victim.crew_known[0][kind] == 1 and sum(victim.crew_known[0]) == 1
        assert victim.maybe_gone_about_me == (0, 1, 0)     # what player 1 can tell
        assert victim.known_about_me[1] == tuple(crew(cook=1, lookout=1, bosun=1))
    # whichever card was taken, the onlooker's observation, mask and text are the same
    assert len(seen_by_onlooker) == 1
    obs = g.encode(scenes[COOK].view(1))
    lay = g.layout
    assert lay.read(obs, "crew_maybe_gone")[1] == pytest.approx(1 / 6)      # seat 2
    assert list(lay.read(obs, "crew_known").reshape(3, 9)[1]) == pytest.approx(
        [x / 6 for x in crew(cook=1, lookout=1, bosun=1)])
    assert "1 of these may have been snatched" in g.describe_view(scenes[COOK].view(1))


def test_snatch_onlooker_counts_only_sure_cards_as_placed():
    """The onlooker's ``unseen`` counts place none of the three known cards for sure
    (any one may be gone), but two of three known Cooks are surely still there."""
    s, _ = _snatch_scene(0)
    g = s.game
    unseen = g.layout.read(g.encode(s.view(1)), "unseen") * 12
    before = _snatch_scene.before
    unseen_before = g.layout.read(g.encode(before.view(1)), "unseen") * 12
    for k in range(NUM_KINDS):
        assert unseen[k] == pytest.approx(unseen_before[k] + (k in (COOK, LOOKOUT, BOSUN)))
    # three known Cooks, one perhaps snatched: two are surely there
    s.crew[2] = crew(cook=2)
    s.crew_known[2][1] = crew(cook=3)
    s.crew_known[2][0] = crew(cook=2)
    _fix_out(s)
    s.validate()
    unseen = g.layout.read(g.encode(s.view(1)), "unseen") * 12
    assert unseen[COOK] == pytest.approx(unseen_before[COOK] + 1 - 2)


def test_snatch_onlooker_knowledge_shrinks_with_what_the_victim_lays_out():
    """Closed stock: player 1 knows of the Navigator player 2 snatched from it. A Snatch
    by player 0 from player 2 leaves player 1 knowing it, perhaps gone; once player 2 lays
    out its Navigators nothing known is left to doubt."""
    for seed in range(40):
        s = make_state(3, piles=[[CARPENTER] * 3] * 3, start=0)
        play_to_lay(s)
        s.crew = [crew(gunner=2), crew(), crew(navigator=2, cook=1)]
        s.crew_known = [[crew() for _ in range(3)] for _ in range(3)]
        s.crew_known[2][1] = crew(navigator=1)
        _fix_out(s)
        g = s.game
        act(s, 0, lay_index(g, "pair of Gunners"))
        s.rng = np.random.default_rng(seed)
        act(s, 0, g.actions.target + 1)
        if s.crew[2] == crew(navigator=2):       # the Cook was taken
            break
    s.validate()
    assert s.view(1).crew_known[2] == tuple(crew(navigator=1))
    assert s.view(1).crew_maybe_gone[2] == 1
    act(s, 0, g.actions.pass_turn)
    act(s, 1, g.actions.pass_turn)
    act(s, 2, lay_index(g, "pair of Navigators"))
    s.validate()
    assert s.view(1).crew_known[2] == (0,) * 9 and s.view(1).crew_maybe_gone[2] == 0


def test_sampled_states_redraw_which_known_card_was_snatched():
    """A state sampled from the onlooker's view keeps two of the three known cards in the
    victim's pile (it holds two), the two chosen at random."""
    s, _ = _snatch_scene(3)
    kept = set()
    for seed in range(30):
        sample = s.game.sample_state(s.view(1), np.random.default_rng(seed))
        sample.validate()
        assert sum(sample.crew[2]) == 2
        assert sum(min(a, b) for a, b in zip(sample.crew[2], crew(cook=1, lookout=1,
                                                                   bosun=1))) == 2
        assert sample.view(1).crew_maybe_gone == s.view(1).crew_maybe_gone
        kept.add(tuple(sample.crew[2]))
    assert len(kept) == 3


def test_snatch_target_needs_crew_cards():
    s = make_state(3, start=0)
    play_to_lay(s)
    s.crew = [crew(gunner=2), crew(), crew(cook=1)]
    g = s.game
    act(s, 0, lay_index(g, "pair of Gunners"))
    mask = s.legal_actions_mask(0)
    assert not mask[g.actions.target] and mask[g.actions.target + 1]


def test_spyglass_two_extra_cards_at_once_after_regular_draws():
    s = make_state(3, start=0)
    play_to_lay(s)
    g = s.game
    s.crew[1] = crew(lookout=2)
    s.crew[2] = crew(lookout=2)
    act(s, 0, g.actions.pass_turn)
    act(s, 1, lay_index(g, "pair of Lookouts"))
    act(s, 1, g.actions.pass_turn)
    act(s, 2, lay_index(g, "pair of Lookouts"))
    act(s, 2, g.actions.pass_turn)
    assert s.start == 1 and s.spy_left == [0, 1, 1]
    order = []
    while s.phase == "draw":
        order.append(s.actor)
        act(s, s.actor, 0)
    assert order == [1, 2, 0] * 3
    assert s.phase == "spyglass" and s.actor == 1           # clockwise from the start player
    top2 = s.piles[2][-2:]
    act(s, 1, 1)                                             # both from pile 2, at once
    assert s.stock[1][-2:] == top2[::-1] and len(s.stock[1]) == 5
    assert s.actor == 2
    act(s, 2, g.actions.pass_turn)                                      # forfeits its Spyglass
    assert s.phase == "hire" and len(s.stock[2]) == 3


def test_spyglass_prefers_piles_with_two_cards():
    s = make_state(2, piles=[[COOK], [GUNNER, LOOKOUT, BOSUN, NAVIGATOR, CARPENTER]], start=0)
    s.spy_left = [1, 0]
    s.draw_target = [1, 1]
    act(s, 0, 1)
    act(s, 1, 1)
    assert s.phase == "spyglass"
    mask = s.legal_actions_mask(0)
    assert mask[:2].tolist() == [0, 1] and mask[s.game.actions.pass_turn]


def test_short_rations_limits_next_round_and_cancels_spyglass():
    s = make_state(2, start=0)
    play_to_lay(s)
    g = s.game
    s.crew = [crew(carpenter=2), crew(lookout=2)]
    act(s, 0, lay_index(g, "pair of Carpenters"))
    assert s.phase == "target"
    mask = s.legal_actions_mask(0)
    assert mask[g.actions.target] and mask[g.actions.pass_turn]
    act(s, 0, g.actions.target)
    act(s, 0, g.actions.pass_turn)
    act(s, 1, lay_index(g, "pair of Lookouts"))
    act(s, 1, g.actions.pass_turn)
    assert s.draw_target == [3, 1] and s.spy_left == [0, 0]
    order = []
    while s.phase == "draw":
        order.append(s.actor)
        act(s, s.actor, 0)
    assert order == [1, 0, 0, 0] and [len(x) for x in s.stock] == [3, 1]
    assert s.phase == "hire"
    s.apply_joint({0: g.actions.hire, 1: g.actions.hire})
    assert len(s.piles[1]) == 20 - 1 - 1                    # nothing to discard


def test_curse_costs_a_point():
    s = make_state(2, start=0)
    play_to_lay(s)
    g = s.game
    s.crew[0] = crew(bosun=2)
    act(s, 0, lay_index(g, "pair of Bosuns"))
    act(s, 0, g.actions.target)
    assert s.curses == [0, 1] and s.points(1) == -1 and s.points(0) == 1


def test_action_can_be_forfeited():
    s = make_state(2, start=0)
    play_to_lay(s)
    g = s.game
    s.crew[0] = crew(bosun=2)
    act(s, 0, lay_index(g, "pair of Bosuns"))
    act(s, 0, g.actions.pass_turn)
    assert s.curses == [0, 0] and s.phase == "lay" and s.points(0) == 1


# -- the end ----------------------------------------------------------------------------
def test_game_ends_when_piles_hold_fewer_cards_than_players():
    s = make_state(3, piles=[[COOK, GUNNER], [LOOKOUT], [BOSUN]], start=0)
    s.crew = [crew(kraken=1, anchor=2), crew(cook=1, gunner=1, lookout=1, carpenter=1,
                                                 navigator=1, bosun=1, cutlass=1),
              crew(navigator=3)]
    s.out = [s.game.copies[k] - sum(c[k] for c in s.crew) - [1, 1, 1, 0, 0, 1, 0, 0, 0][k]
             for k in range(NUM_KINDS)]
    s.next_double = [1, 0, 0]
    assert s.card_counts() == list(s.game.copies)
    play_to_lay(s)                     # 4 cards: everyone draws, two go back
    assert sum(len(p) for p in s.piles) < 3 or s.phase == "lay"
    for p in range(3):
        s.crew[p] = [crew(kraken=1, anchor=2), crew(cook=1, gunner=1, lookout=1, carpenter=1,
                                                    navigator=1, bosun=1, cutlass=1),
                     crew(navigator=3)][p]
    s.piles = [[], [COOK], []]
    s.pile_known = [[], [0], []]
    s.next_double = [1, 0, 0]
    pass_all_lays(s)
    assert s.is_terminal() and s.current_players() == ()
    assert s.points(0) == -3 + 0       # single Kraken -3, pair of Anchors 0
    assert s.points(1) == 12 - 2       # full street, single Cutlass -2
    assert s.points(2) == 3
    assert s.captains(0) == 3 and s.captains(1) == 1
    assert s.keep == [1, 1, 1]         # in-game actions turned invalid
    assert all(sum(c) == 0 for c in s.crew)


def test_stock_of_fewer_than_three_still_hires_one():
    s = make_state(2, piles=[[COOK], [GUNNER, BOSUN]], start=0)
    play_to_lay(s)
    assert sum(sum(c) for c in s.crew) == 2 and sum(len(p) for p in s.piles) == 1
    pass_all_lays(s)
    assert s.is_terminal()


def test_captains_break_ties():
    s = make_state(2, start=0)
    s.laid = [[next(i for i, c in enumerate(s.game.combos) if c.name == "pair of Cooks")],
              [next(i for i, c in enumerate(s.game.combos)
                    if c.name == "Captain Anchor's table (Cook+Gunner+Lookout)")]]
    s.curses = [0, 3]
    assert s.points(0) == s.points(1) == 1
    keys = s.rank_keys()
    assert keys[1] > keys[0]
    assert rank_rewards(keys, 2) == [-1.0, 1.0]
    s.laid[0].append(next(i for i, c in enumerate(s.game.combos)
                          if c.name == "pair of Captain Anchors"))
    s.final_left[1][KRAKEN] = 1
    s.curses[1] = 0
    s.laid[1] = [s.laid[1][0]]
    # 1 point vs 4 - 3 = 1 point; two captains each: a shared result
    assert s.rank_keys()[0] == s.rank_keys()[1]
    assert rank_rewards(s.rank_keys(), 2) == [0.0, 0.0]


# -- the open-stock variant -------------------------------------------------------------
def test_open_stock_shows_stocks_hires_and_discards():
    s = make_state(2, start=0, open_stock=True)
    while s.phase == "draw":
        act(s, s.actor, 0)
    v1 = s.view(1)
    assert all(k >= 0 for k, _ in v1.stock[0])       # seen by everyone after the signal
    hired = s.stock[0][0]
    s.apply_joint({0: s.game.actions.hire, 1: s.game.actions.hire})
    assert s.view(1).crew_known[0][hired] >= 1
    assert s.pile_known[0][-1] == 3 and s.view(1).pile(0)[-1][1] >= 0


def test_closed_stock_hides_others_stock():
    s = make_state(2, start=0)
    while s.phase == "draw":
        act(s, s.actor, 0)
    assert all(k == -1 for k, _ in s.view(1).stock[0])


# -- errors and text --------------------------------------------------------------------
def test_illegal_action_names_the_legal_ones():
    s = make_state(2, piles=[[COOK, GUNNER], []], start=0)
    with pytest.raises(IllegalActionError, match="draw from own pile"):
        s.apply_joint({0: 1})


def test_text_renderings():
    s = make_state(3, start=0)
    play_to_lay(s)
    text = s.game.describe_view(s.view(1))
    assert "| seat |" in text and "1 (you)" in text and "hired" in text
    full = s.describe_full()
    assert "crew pile" in full and "out of the game" in full
    for a in range(s.game.num_actions):
        assert s.game.action_name(a)


# -- a belief about the cards put back (netsearch's ``belief=returns``) ------------------
def _returned_positions(view):
    """(pile, position) of the Drawing Pile cards another player knows and ``view``'s
    player does not: the stock cards that player put back."""
    bit = 1 << view.player
    return [(seat, i) for seat, masks in enumerate(view.pile_masks)
            for i, m in enumerate(masks) if m and not m & bit]


def _states_with_put_back_cards(n, games=4):
    """States of random games (every seat's view taken) where some seat's view has
    cards another player put back."""
    g = Game(n)
    out = []
    for seed in range(games):
        s = g.new_game(np.random.default_rng(seed))
        rng = np.random.default_rng(100 + seed)
        while not s.is_terminal():
            if any(_returned_positions(s.view(p)) for p in range(n)):
                out.append(s.clone())
            s.apply_joint({p: int(rng.choice(np.flatnonzero(s.legal_actions_mask(p))))
                           for p in s.current_players()})
    return g, out


@pytest.mark.parametrize("n", [2, 3, 4])
def test_sampling_with_a_belief_about_put_back_cards_matches_the_view(n):
    """With ``returned_weights`` the sampled states are still legal and show the player
    exactly its view."""
    g, states = _states_with_put_back_cards(n)
    assert states
    weights = (0.6, 0.5, 0.4, 0.4, 0.1, 0.6, 0.9, 0.9, 0.8)
    rng = np.random.default_rng(3)
    for s in states[::5]:
        for p in range(n):
            view = s.view(p)
            sampled = g.sample_state(view, rng, returned_weights=weights)
            sampled.validate()
            assert sampled.view(p) == view


def test_the_belief_draws_put_back_cards_by_weight():
    """All weight on one kind: the cards put back by another player are drawn first, so
    each is that kind unless no unseen copy of it was left (then none lies anywhere
    unknown: not out of the game, not in a pile position nobody knows)."""
    g, states = _states_with_put_back_cards(2)
    weights = [0.0] * NUM_KINDS
    weights[KRAKEN] = 1.0
    rng = np.random.default_rng(4)
    all_kraken = some_other = 0
    for s in states:
        for p in range(2):
            view = s.view(p)
            where = _returned_positions(view)
            if not where:
                continue
            sampled = g.sample_state(view, rng, returned_weights=weights)
            kinds = [sampled.piles[q][i] for q, i in where]
            if kinds == [KRAKEN] * len(where):
                all_kraken += 1
                continue
            some_other += 1
            assert sampled.out[KRAKEN] == 0
            assert KRAKEN not in [sampled.piles[q][i] for q, masks in
                                  enumerate(view.pile_masks) for i, m in enumerate(masks)
                                  if m == 0]
    # uniform draws give an all-Kraken put-back set in about 2% of these views
    assert all_kraken >= 0.9 * (all_kraken + some_other)


def test_belief_weights_are_checked():
    g, states = _states_with_put_back_cards(2, games=1)
    view = states[0].view(0)
    for bad in ([1.0] * (NUM_KINDS - 1), [-1.0] + [1.0] * (NUM_KINDS - 1),
                [float("nan")] * NUM_KINDS, "returns", 3):
        with pytest.raises(InvalidArgumentError, match="returned_weights"):
            g.sample_state(view, np.random.default_rng(0), returned_weights=bad)


def _unknown_places(view):
    """The keys ``sample_state(pinned=...)`` takes for ``view``: every Drawing Pile
    position and stock slot whose card the player does not know."""
    piles = [("pile", q, i) for q, masks in enumerate(view.pile_masks)
             for i in range(len(masks)) if all(i != pos for pos, _ in view.pile_seen[q])]
    stocks = [("stock", q, j) for q, slots in enumerate(view.stock)
              for j, (kind, _) in enumerate(slots) if kind < 0]
    return piles + stocks


def test_unseen_counts_are_the_cards_whose_place_the_player_does_not_know():
    """What is out of the game, in unknown pile positions and stock slots, and in others'
    Crew Piles beyond the cards surely known there, per kind."""
    g, states = _states_with_put_back_cards(3, games=2)
    for s in states[::7]:
        for p in range(3):
            view = s.view(p)
            expected = list(s.out)
            for where, q, i in _unknown_places(view):
                expected[s.piles[q][i] if where == "pile" else s.stock[q][i]] += 1
            for q in range(3):
                if q != p:
                    for k in range(NUM_KINDS):
                        expected[k] += s.crew[q][k] - max(
                            0, view.crew_known[q][k] - view.crew_maybe_gone[q])
            assert g.unseen_counts(view) == expected


@pytest.mark.parametrize("n", [2, 3])
def test_pinned_cards_are_where_the_belief_put_them(n):
    """Kinds pinned on unknown pile positions and stock slots are there in the sampled
    state, which still shows the player exactly its view."""
    g, states = _states_with_put_back_cards(n)
    rng = np.random.default_rng(5)
    pinned_some = 0
    for s in states[::3]:
        for p in range(n):
            view = s.view(p)
            places = _unknown_places(view)
            if not places:
                continue
            # pin the true cards of every other unknown place: they fit the unseen pool
            pins = {key: (s.piles if key[0] == "pile" else s.stock)[key[1]][key[2]]
                    for key in places[::2]}
            sampled = g.sample_state(view, rng, pinned=pins)
            sampled.validate()
            assert sampled.view(p) == view
            for (where, q, i), kind in pins.items():
                assert (sampled.piles if where == "pile" else sampled.stock)[q][i] == kind
            pinned_some += any(key[0] == "stock" for key in pins)
    assert pinned_some


def test_pins_are_checked():
    """A place the view does not have, a card the player knows, something that is no
    kind, and more pinned copies of a kind than are unseen are refused."""
    g, states = _states_with_put_back_cards(2, games=1)
    s = states[len(states) // 3]
    view = s.view(0)
    unknown = _unknown_places(view)[0]
    seen = next((("pile", q, i) for q, seen in enumerate(view.pile_seen) for i, _ in seen))
    pool = g.unseen_counts(view)
    scarce = min(range(NUM_KINDS), key=lambda k: pool[k])
    too_many = {key: scarce for key in _unknown_places(view)[:pool[scarce] + 1]}
    assert len(too_many) == pool[scarce] + 1
    for bad, message in (({("pile", 0, 99): 0}, "no \\('pile'"),
                         ({("hand", 0, 0): 0}, "no \\('pile'"),
                         ({"pile": 0}, "no \\('pile'"),
                         ({seen: 0}, "known to the viewer"),
                         ({unknown: NUM_KINDS}, "no card kind"),
                         ({unknown: True}, "no card kind"),
                         (too_many, "no unseen card of kind")):
        with pytest.raises(InvalidArgumentError, match=message):
            g.sample_state(view, np.random.default_rng(0), pinned=bad)
