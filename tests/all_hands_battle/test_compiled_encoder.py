"""The compiled All Hands On Deck (battles) encoder (envs/all_hands_battle/_cencode.c) writes
what the Python one writes, bit for bit, and rejects malformed views and outputs with a
clear error.

The Python encoder (observation.py) is the reference. Random play of every player count
and variant, ``encode_into``, the switch and pickling: the shared suite
(tests/core/test_compiled_equivalence.py); here, finished games, views with random hands
asked Aargh! (the claim outlook's best-ship search), views with every field drawn at
random, and the malformed views and constants this encoder must refuse.
"""

from __future__ import annotations


import numpy as np
import pytest

pytest.importorskip("plunder.envs.all_hands_battle._cencode")

from plunder.envs.all_hands_battle import _cencode                         # noqa: E402
from plunder.envs.all_hands_battle.engine import (                         # noqa: E402
    CLAIM, DECISIONS, AllHandsBattleGame,
)
from plunder.envs.all_hands_battle.observation import PHASES              # noqa: E402
from plunder.envs.all_hands_battle.view import AllHandsBattleView, ShipView  # noqa: E402
from tests.support.compiled import (                          # noqa: E402
    assert_view_refused, assert_view_shape_checked, same_bytes, uses_compiled,
)
from tests.support.obs_reference import VARIANTS                                   # noqa: E402

ENV_ID = "all_hands_battle_v0"
COUNTS = range(AllHandsBattleGame.min_players, AllHandsBattleGame.max_players + 1)


pytestmark = pytest.mark.usefixtures("compiled_on")   # also under PLUNDER_PURE_PYTHON=1


def test_field_names_match_the_views_and_the_layout():
    assert _cencode.VIEW_FIELDS == AllHandsBattleView._fields
    assert _cencode.SHIP_FIELDS == ShipView._fields
    # every layout field is written by the C code, each once
    for n in COUNTS:
        for opts in VARIANTS[ENV_ID]:
            names = AllHandsBattleGame(n, **opts).layout.names()
            assert sorted(_cencode.LAYOUT_FIELDS) == sorted(names)


@pytest.mark.parametrize("n", COUNTS)
def test_game_ends_are_bit_identical(games, n):
    """The views of finished games (phase and decision "over"), with a short target."""
    py, c = games(n, target_score=60)
    rng = np.random.default_rng(n)
    for _ in range(3):
        s = c.new_game(rng)
        while not s.is_terminal():
            s.apply_joint({p: int(rng.choice(np.flatnonzero(s.legal_actions_mask(p))))
                           for p in s.current_players()})
        for p in range(n):
            view = s.view(p)
            assert view.phase == view.decision == "over"
            assert same_bytes(py.encode(view), c.encode(view)), view


@pytest.mark.parametrize("opts", VARIANTS[ENV_ID], ids=str)
def test_claim_outlooks_of_random_hands_are_bit_identical(games, opts):
    """The best ship of a hand with and without the top discard: random hands of 3-14
    cards asked Aargh! (many shipmasters and crews, Prize Crews in the variant)."""
    py, c = games(3, **opts)
    rng = np.random.default_rng(11)
    base = c.new_game(rng).view(0)
    C, sl, found = c.num_cards, c.layout.slice("claim_outlook"), 0
    for _ in range(3000):
        k = int(rng.integers(3, 15))
        cards = rng.permutation(C)[:k + 1].tolist()
        view = base._replace(decision=CLAIM, actor=0, hand=tuple(sorted(cards[:k])),
                             discard=(cards[k],))
        a = c.encode(view)
        assert same_bytes(py.encode(view), a), view
        found += bool(a[sl][4])                         # the discard joins the best ship
    assert found > 100


def _random_view(game, rng) -> AllHandsBattleView:
    """A view with every field drawn at random within its range (not a reachable state:
    cards anywhere, any scores, counts, seats and flags)."""
    n, C, S = game.num_players, game.num_cards, game.components.ships_per_fleet

    def cards(lo, hi):
        return tuple(int(x) for x in rng.choice(C, int(rng.integers(lo, hi + 1)),
                                                replace=False))

    def seat(lo=-1):
        return int(rng.integers(lo, n))

    def flag():
        return bool(rng.random() < 0.5)

    masters = [c.id for c in game.cards if c.is_master]
    ships = tuple(tuple(ShipView(int(rng.choice(masters)), flag(), seat(), int(rng.integers(4)),
                                 cards(0, 3) if flag() else None, flag(), flag())
                        for _ in range(int(rng.integers(S + 1))))
                  for _ in range(n))
    big = [0, 1, 7, 99, 100, 499, 500, 799, 1000, 10**6]
    hand = tuple(sorted(cards(0, 14)))
    discard = cards(0, 6)
    return AllHandsBattleView(
        player=seat(0), num_players=n, round=int(rng.choice([1, 2, 49, 50, 51, 1000])),
        starter=seat(0), totals=tuple(int(rng.choice(big)) for _ in range(n)),
        last_round=tuple(int(rng.choice(big)) for _ in range(n)) if flag() else (),
        phase=PHASES[int(rng.integers(3))], decision=DECISIONS[int(rng.integers(7))],
        actor=seat(), turn_player=seat(), hand=hand,
        hand_sizes=tuple(int(x) for x in rng.integers(0, 15, n)),
        reserved=tuple(int(x) if rng.random() < 0.3 else -1 for x in rng.integers(0, C, n)),
        known_with=tuple(cards(0, 2) for _ in range(n)), discard=discard,
        deck_size=int(rng.choice([0, 0, 1, 5, 40])), reshuffled=cards(0, 20) if flag() else (),
        ships=ships, plunder=tuple(cards(0, 3) if rng.random() < 0.3 else () for _ in range(n)),
        launch_master=int(rng.choice(masters)) if flag() else -1,
        launch_crew=cards(0, 2), launch_count=int(rng.integers(3)), launched=flag(),
        claim_queue=tuple(int(x) for x in rng.choice(n, int(rng.integers(n)), replace=False)),
        first_fleet=seat(), last_turns=tuple(int(x) for x in rng.integers(0, n, rng.integers(n))),
        passed=tuple(flag() for _ in range(n)), forced=flag(), selected=int(rng.integers(-1, S)),
        spies_used=int(rng.integers(3)),
        spied=tuple((seat(0), seat(0), int(rng.integers(S))) for _ in range(rng.integers(4))),
        events=(), turns=int(rng.integers(1000)))


@pytest.mark.parametrize("n", COUNTS)
def test_random_views_are_bit_identical(games, n):
    py, c = games(n, prize_crew=n % 2 == 0)
    rng = np.random.default_rng(77 + n)
    for _ in range(600):
        view = _random_view(c, rng)
        if rng.random() < 0.3:                  # ask the viewer Aargh! on the top discard
            view = view._replace(decision=CLAIM, actor=view.player)
        assert same_bytes(py.encode(view), c.encode(view)), view


def _view():
    """A compiled game and a view of a recruiting turn with ships on the table."""
    game = AllHandsBattleGame(3)
    rng = np.random.default_rng(7)
    s = game.new_game(rng)
    while not (any(s.ships) and s.discard and any(s.known_with)):
        p = s.current_players()[0]
        s.apply_action(int(rng.choice(np.flatnonzero(s.legal_actions_mask(p)))))
    return game, s.view(s.current_players()[0])


def _with_first_ship(view, ship):
    """``view.ships`` with its first ship replaced by ``ship``."""
    q = next(q for q, fleet in enumerate(view.ships) if fleet)
    return view.ships[:q] + ((ship,) + view.ships[q][1:],) + view.ships[q + 1:]


def _ship_change(view, **change):
    """A change of ``view`` replacing fields of its first ship."""
    ship = next(fleet[0] for fleet in view.ships if fleet)
    return dict(ships=_with_first_ship(view, ship._replace(**change)))


def _bad_changes(view, C, S):
    """Changes that make ``view`` malformed: wrong types, lengths and ranges."""
    other = (view.player + 1) % view.num_players          # (the viewer's own looks are
    ship = next(fleet[0] for fleet in view.ships if fleet)  # not read)
    return [
        dict(player=0.0), dict(player=3), dict(player=-1), dict(num_players=4),
        dict(round="1"), dict(totals=(0, 0)), dict(totals=[0, 0, 0]), dict(totals=(0, 0, 1.5)),
        dict(last_round=(1, 2)), dict(phase=1), dict(phase="dance"), dict(decision="nap"),
        dict(actor=None), dict(turn_player="0"), dict(hand=[0, 1]), dict(hand=(C,)),
        dict(hand=(-1,)), dict(hand=(0.0,)), dict(hand_sizes=(3, 3)),
        dict(reserved=(C, -1, -1)), dict(reserved=(-1, -1)), dict(known_with=((), ())),
        dict(known_with=((C,), (), ())), dict(known_with=(None, (), ())), dict(discard=(C,)),
        dict(discard=None), dict(deck_size=None), dict(reshuffled=(C,), deck_size=3),
        dict(ships=view.ships[:2]), dict(ships=((ship,) * (S + 1), (), ())),
        dict(ships=(None, (), ())), dict(plunder=((), ())), dict(plunder=((C,), (), ())),
        dict(launch_master=C), dict(launch_crew=(C,)), dict(launch_count=1.0),
        dict(launched=None), dict(claim_queue=(0.5,)), dict(first_fleet="x"),
        dict(last_turns=None), dict(passed=(False, False)), dict(forced="no"),
        dict(selected=S), dict(spies_used=[]), dict(spied=((other, 1),)),
        dict(spied=((other, 0, S),)), dict(spied=((other, 0, -1),)), dict(spied=(None,)),
        _ship_change(view, master=C), _ship_change(view, master=-1),
        _ship_change(view, in_play=None), _ship_change(view, keeper=0.5),
        _ship_change(view, crew_count="3"), _ship_change(view, crew=(C,)),
        _ship_change(view, crew=[0, 1, 2]), _ship_change(view, revealed=()),
        _ship_change(view, spied=None),
        dict(ships=_with_first_ship(view, tuple(ship)[:-1])),
        dict(ships=_with_first_ship(view, tuple(ship) + (0,))),
        dict(ships=_with_first_ship(view, list(ship))),
    ]


def test_a_malformed_view_raises_a_clear_error():
    game, view = _view()
    assert uses_compiled(game)
    claim = view._replace(decision=CLAIM, actor=view.player)
    for change in _bad_changes(view, game.num_cards, game.components.ships_per_fleet):
        for v in (view, claim):
            assert_view_refused(game, v._replace(**change))
    assert same_bytes(game.encode(view), game.encode(view))      # still fine afterwards


def test_a_view_of_the_wrong_shape_raises_a_clear_error():
    assert_view_shape_checked(*_view())


def test_bad_constants_raise_a_clear_error():
    from plunder.envs.all_hands_battle.observation import compiled_params
    game = AllHandsBattleGame(2)
    params = list(compiled_params(game, _cencode))
    _cencode.Encoder(*params)
    blocks = list(params[7])
    blocks[0] = (blocks[0][0], blocks[0][1] + 1)             # a block of the wrong size
    for i, bad in ((7, tuple(blocks)), (7, params[7][:-1]), (0, 0), (2, 99), (8, ("turn",)),
                   (10, "nap"), (11, params[11][:-1]), (12, params[12][:-1]), (13, ())):
        with pytest.raises((TypeError, ValueError)):
            _cencode.Encoder(*params[:i], bad, *params[i + 1:])


