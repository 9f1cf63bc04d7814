"""The pruned, memoised best-ship search (``ShipRules.best_ship``, used by ``best_launch``
and the observation's ``claim_outlook``) gives exactly what enumerating every legal crew
gives: the same values, and ties resolved to the same ship."""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs import game_class
from plunder.envs.all_hands_battle.observation import claim_outlook


def _every_ship(rules, cards, masters=None):
    """(launch value, master, crew) of every legal ship from ``cards`` (shipmasters from
    ``masters`` if given), in the order the search before ``best_ship`` enumerated them."""
    for m in (masters if masters is not None else cards):
        if rules.is_master[m]:
            for crew in rules.legal_crews(m, cards):
                yield rules.launch_value(m, crew), m, crew


def _best_launch_by_enumeration(rules, hand, masters=None):
    """``best_launch`` as it was before the search: the first best of every ship."""
    best = None
    for ship in _every_ship(rules, hand, masters):
        if best is None or ship[0] > best[0]:
            best = ship
    return best


def _claim_outlook_by_enumeration(rules, hand, card):
    """``claim_outlook`` as it was before the search (one pass over every ship)."""
    after, before = None, None
    for v, m, crew in _every_ship(rules, [*hand, card]):
        if after is None or v > after[0]:
            after = (v, m, crew)
        if m != card and card not in crew and (before is None or v > before):
            before = v
    return (float(before is not None), float(after is not None),
            min(before / 50.0, 2.0) if before is not None else 0.0,
            min(after[0] / 50.0, 2.0) if after else 0.0,
            float(after is not None and (card == after[1] or card in after[2])))


def _hands(rules, rng, count):
    """Random sorted hands (sizes 0-16) and an offered card outside each; every fourth
    hand is drawn from few cards of one suit plus Privateers and specials, so that ties
    and dominated cards are common."""
    C = rules.C
    for i in range(count):
        if i % 4 == 3:
            suit = int(rng.integers(4))
            pool = [c for c in range(C) if rules.suit[c] in (suit, 4) or rules.value[c]
                    or not rules.is_master[c] and rules.rank[c] == 0 and rng.random() < 0.3]
            pool = sorted(set(pool))
        else:
            pool = list(range(C))
        size = int(rng.integers(0, min(17, len(pool))))
        picked = rng.choice(len(pool), size=size + 1, replace=False)
        cards = [pool[int(j)] for j in picked]
        yield sorted(cards[:-1]), cards[-1]


@pytest.mark.parametrize("opts", [{}, {"prize_crew": True}])
def test_best_launch_and_claim_outlook_match_enumeration(opts):
    rules = game_class("all_hands_battle_v0")(4, **opts).rules
    rng = np.random.default_rng(7)
    launched = 0
    for hand, card in _hands(rules, rng, 6000):
        want = _best_launch_by_enumeration(rules, hand)
        assert rules.best_launch(hand) == want, (hand, want)
        launched += want is not None
        masters = [m for m in hand if rules.is_master[m] and rng.random() < 0.5]
        assert rules.best_launch(hand, masters) == \
            _best_launch_by_enumeration(rules, hand, masters)
        assert rules.best_launch(hand + [card]) == \
            _best_launch_by_enumeration(rules, hand + [card])
        assert claim_outlook(rules, tuple(hand), card) == \
            _claim_outlook_by_enumeration(rules, hand, card), (hand, card)
    assert launched > 1000


def test_best_ship_accepts_numpy_card_ids():
    rules = game_class("all_hands_battle_v0")(2).rules
    hand = [int(c) for c in np.flatnonzero(np.arange(rules.C) % 5 == 0)]
    assert rules.best_launch(list(np.array(hand))) == _best_launch_by_enumeration(rules, hand)


@pytest.mark.parametrize("opts", [{}, {"prize_crew": True}])
def test_launch_masks_match_completable(opts):
    """``can_launch`` and ``crew_choices`` (the turn and crew masks) agree with asking
    ``completable`` card by card."""
    rules = game_class("all_hands_battle_v0")(3, **opts).rules
    rng = np.random.default_rng(3)
    launchable = chosen = 0
    for hand, card in _hands(rules, rng, 4000):
        for m in hand:
            if rules.is_master[m]:
                want = rules.completable(m, (), [c for c in hand if c != m])
                assert rules.can_launch(m, hand) == want
                launchable += want
        # a launch under way: a master (maybe the offered card) and part of a crew
        m = card if rules.is_master[card] else next(
            (c for c in hand if rules.is_master[c]), None)
        if m is None:
            continue
        rest = [c for c in hand if c != m]
        crew = [rest.pop(int(rng.integers(len(rest)))) for _ in range(
            min(len(rest), int(rng.integers(rules.crew_per_ship))))]
        want = [c for i, c in enumerate(rest)
                if rules.completable(m, crew + [c], rest[:i] + rest[i + 1:])]
        assert rules.crew_choices(m, crew, rest) == want
        chosen += bool(want)
    assert launchable > 500 and chosen > 200, (launchable, chosen)


def test_memos_are_shared_by_games_of_one_deck_and_survive_pickling():
    import pickle

    cls = game_class("all_hands_battle_v0")
    a, b, prize = cls(2).rules, cls(5).rules, cls(2, prize_crew=True).rules
    assert a._best_ships is b._best_ships and a._crew_worths is b._crew_worths
    assert a._best_ships is not prize._best_ships     # another deck: other memos
    hand = list(range(40, 66))
    want = _best_launch_by_enumeration(a, hand)
    assert a.best_launch(hand) == want and a._best_ships
    twin = pickle.loads(pickle.dumps(a))
    assert twin._best_ships is a._best_ships and twin.best_launch(hand) == want
