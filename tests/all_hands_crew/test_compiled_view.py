"""The compiled view builder (envs/all_hands_crew/_cview.c) returns exactly the state's
``python_view`` (same types and values all the way down) for every player count and
variant, the game binds it (not under PLUNDER_PURE_PYTHON, again after pickling), and junk
in any state field it reads raises a Python error, never a crash."""

from __future__ import annotations

import copy

import numpy as np
import pytest

cview = pytest.importorskip("plunder.envs.all_hands_crew._cview")

from plunder.envs.all_hands_crew.engine import (  # noqa: E402
    PHASES, AllHandsCrewState, view_params,
)
from plunder.envs.all_hands_crew.view import AllHandsCrewView  # noqa: E402
from plunder.envs.all_hands_crew_v0 import Game  # noqa: E402
from plunder.envs.core.compiled import PURE_PYTHON_VAR  # noqa: E402
from tests.support.compiled import (  # noqa: E402
    BAD_FIELD_VALUES, same_view, uses_compiled_view, view_difference,
)
from tests.support.obs_reference import VARIANTS  # noqa: E402

STATES = 300         # states of random play per player count and variant
ERRORS = (TypeError, ValueError, IndexError, KeyError)


def _game(monkeypatch, n, **opts):
    """A game built with compiled code switched on (also in a PLUNDER_PURE_PYTHON run)."""
    monkeypatch.delenv(PURE_PYTHON_VAR, raising=False)
    return Game(n, **opts)


def _play(game, rng, states, keep=0.25):
    """States of whole random games (each kept with probability ``keep``, the start and
    the end always) until ``states`` were kept. Half the games hoard (mostly pass instead
    of laying out), so crews and final layouts grow; a Lookout pair is laid whenever it
    can be, so Spyglass draws come often."""
    spyglass = [game.actions.lay + i for i, cb in enumerate(game.combos) if cb.action == "spyglass"]
    out = []
    while len(out) < states:
        s = game.new_game(rng)
        hoard = rng.random() < 0.5
        out.append(s.clone())
        while not s.is_terminal():
            joint = {}
            for p in s.current_players():
                mask = s.legal_actions_mask(p)
                legal = np.flatnonzero(mask)
                if s.phase == "lay" and any(mask[a] for a in spyglass):
                    joint[p] = next(a for a in spyglass if mask[a])
                elif hoard and s.phase == "lay" and legal[-1] == game.actions.pass_turn \
                        and rng.random() < 0.85:
                    joint[p] = game.actions.pass_turn
                else:
                    joint[p] = int(rng.choice(legal))
            s.apply_joint(joint)
            if s.is_terminal() or rng.random() < keep:
                out.append(s.clone())
    return out


def _assert_same(builder, s, where):
    for p in range(s.game.num_players):
        fast, want = builder.view(s, p), s.python_view(p)
        assert same_view(fast, want), (where, p, view_difference(fast, want))


def test_field_names_match_the_view_and_the_state():
    assert cview.VIEW_FIELDS == AllHandsCrewView._fields
    assert set(cview.STATE_FIELDS) <= set(AllHandsCrewState.FIELDS)


CASES = [(n, opts) for n in range(Game.min_players, Game.max_players + 1)
         for opts in VARIANTS["all_hands_crew_v0"]]


@pytest.mark.parametrize("n,opts", CASES, ids=lambda x: str(x))
def test_compiled_view_is_the_python_view(n, opts, monkeypatch):
    game = _game(monkeypatch, n, **opts)
    assert uses_compiled_view(game)
    builder = cview.ViewBuilder(*view_params(game))
    rng = np.random.default_rng(100 * n + len(opts))
    phases = set()
    for i, s in enumerate(_play(game, rng, STATES)):
        phases.add(s.phase)
        _assert_same(builder, s, (n, opts, i, s.phase))
        for p in range(n):      # the game's own binding answers the same
            assert same_view(s.view(p), s.python_view(p))
        if i % 10 == 0:         # a state sampled from a view, a state loaded from JSON
            v = s.python_view(int(rng.integers(n)))
            sampled = game.sample_state(v, rng)
            _assert_same(builder, sampled, (n, opts, i, "sampled"))
            loaded = game.state_from_json(s.to_json())
            _assert_same(builder, loaded, (n, opts, i, "loaded"))
    assert phases == set(PHASES), set(PHASES) - phases


def test_views_keep_the_shared_constants(monkeypatch):
    game = _game(monkeypatch, 3)
    s = game.new_game(np.random.default_rng(1))
    v = s.view(0)
    assert v.final is game.no_combos and v.final_left is game.no_card_rows
    assert v.known_about_me is game.no_card_rows


def test_bad_player_and_arguments_raise(monkeypatch):
    game = _game(monkeypatch, 3)
    builder = cview.ViewBuilder(*view_params(game))
    s = game.new_game(np.random.default_rng(0))
    assert same_view(builder.view(s, np.int64(2)), s.python_view(np.int64(2)))
    for bad in (-1, 3, 10**30, 1.0, "0", None):
        with pytest.raises(ERRORS):
            builder.view(s, bad)
    with pytest.raises(TypeError):
        builder.view(s)
    with pytest.raises(AttributeError):
        builder.view(object(), 0)
    params = view_params(game)
    named = type("T", (tuple,), {"_fields": ()})
    for i, junk in ((0, 0), (0, 99), (1, 0), (3, tuple), (3, named), (3, list),
                    (4, (0,) * 8), (4, (1,) * 9), (5, ((),) * 3), (6, ((1,),) * 3)):
        with pytest.raises((TypeError, ValueError)):
            cview.ViewBuilder(*params[:i], junk, *params[i + 1:])


def test_errors_name_the_field(monkeypatch):
    game = _game(monkeypatch, 2)
    s = game.new_game(np.random.default_rng(4))
    for field, value, word in (("crew", [[0] * 9], "crew"), ("phase", 5, "phase"),
                               ("pile_known", [[None], []], "pile_known"),
                               ("events", [[0, "draw", 0, -1]], "events")):
        bad = s.clone()
        setattr(bad, field, value)
        with pytest.raises((TypeError, ValueError), match=word):
            game.view_of(bad, 0)


def _some(seq) -> list:
    """Indices to fuzz in a list: all of a short one, else first, middle and last."""
    return list(range(len(seq))) if len(seq) <= 5 else [0, len(seq) // 2, len(seq) - 1]


def _fuzz_paths(s):
    """Paths ``(field, index, ...)``: each state field the view reads, and single items
    of its list fields, nested ones too."""
    for name in cview.STATE_FIELDS:
        yield (name,)
        value = getattr(s, name)
        if not isinstance(value, list):
            continue
        for i in _some(value):
            yield (name, i)
            if isinstance(value[i], list):
                for j in _some(value[i]):
                    yield (name, i, j)
                    if isinstance(value[i][j], list) and value[i][j]:
                        yield (name, i, j, 0)


def _put(state, path, value):
    """Set the field or item at ``path`` of ``state`` to ``value``; return what was there."""
    if len(path) == 1:
        old = getattr(state, path[0])
        setattr(state, path[0], value)
        return old
    target = getattr(state, path[0])
    for i in path[1:-1]:
        target = target[i]
    old = target[path[-1]]
    target[path[-1]] = value
    return old


def test_junk_fields_raise_or_return(monkeypatch):
    calls = 0
    for n, opts in ((2, {}), (4, {"open_stock": True})):
        game = _game(monkeypatch, n, **opts)
        rng = np.random.default_rng(7)
        states = _play(game, rng, 400)
        picked = {}
        for s in states:            # one state of each phase, and one late in a round
            picked.setdefault(s.phase, s)
            if s.events and len(s.events) > 5 and any(map(any, s.crew_known)):
                picked["late"] = s
        for s in picked.values():
            want = [s.python_view(p) for p in range(n)]
            for path in list(_fuzz_paths(s)):
                for junk in BAD_FIELD_VALUES:
                    old = _put(s, path, copy.deepcopy(junk))
                    for p in range(n):
                        calls += 1
                        try:
                            v = game.view_of(s, p)
                        except ERRORS:
                            continue
                        assert type(v) is AllHandsCrewView, path
                    _put(s, path, old)
            for p in range(n):      # restored, and the builder still answers right
                assert same_view(game.view_of(s, p), want[p])
    assert calls > 10_000
