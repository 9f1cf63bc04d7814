"""The compiled encoders' and view builders' switch and availability
(envs/core/compiled.py).

Each game's own tests/<game>/test_compiled_encoder.py compares its compiled encoder with
the Python one, and tests/<game>/test_compiled_view.py its compiled view builder with
``python_view``; tests/test_obs_reference.py runs the reference digests both ways.
"""

import dataclasses
import os

import numpy as np
import pytest

from plunder.envs import ENV_IDS, game_class
from plunder.envs.core import compiled
from tests.support.compiled import (
    same_view, uses_compiled, uses_compiled_mask, uses_compiled_view, view_difference,
)

#: CI sets this (.ci/run): there a C compiler is present, so every encoder must be built
REQUIRE_VAR = "PLUNDER_REQUIRE_COMPILED"


def test_the_switch_reads_the_environment(monkeypatch):
    monkeypatch.delenv(compiled.PURE_PYTHON_VAR, raising=False)
    assert compiled.enabled()
    monkeypatch.setenv(compiled.PURE_PYTHON_VAR, "0")
    assert compiled.enabled()
    monkeypatch.setenv(compiled.PURE_PYTHON_VAR, "1")
    assert not compiled.enabled()
    assert all(g is None for g in map(compiled.load, compiled.GAME_PACKAGES))
    assert all(compiled.load(g, "view") is None for g in compiled.VIEW_PACKAGES)
    assert not any(compiled.status().values())
    assert not any(compiled.status("view").values())
    assert not any(compiled.status("mask").values())


def test_every_game_package_is_listed():
    assert sorted(compiled.GAME_PACKAGES) == sorted(
        game_class(e).__module__.split(".")[2] for e in ENV_IDS)
    assert set(compiled.VIEW_PACKAGES) <= set(compiled.GAME_PACKAGES)


def _package(env_id: str) -> str:
    return game_class(env_id).__module__.split(".")[2]


VIEW_ENV_IDS = [e for e in ENV_IDS if _package(e) in compiled.VIEW_PACKAGES]


@pytest.mark.parametrize("env_id", VIEW_ENV_IDS)
def test_views_follow_the_switch(env_id, monkeypatch):
    """``state.view`` asks the game: the compiled builder when built and switched on, else
    ``python_view``; either way the same view."""
    cls = game_class(env_id)
    monkeypatch.setenv(compiled.PURE_PYTHON_VAR, "1")
    assert not uses_compiled_view(cls(2))
    monkeypatch.delenv(compiled.PURE_PYTHON_VAR)
    game = cls(cls.max_players)
    assert uses_compiled_view(game) == (compiled.load(_package(env_id), "view") is not None)
    rng = np.random.default_rng(3)
    state = game.new_game(rng)
    for _ in range(60):
        if state.is_terminal():
            state = game.new_game(rng)
        for p in range(game.num_players):
            a, b = state.view(p), state.python_view(p)
            assert same_view(a, b), view_difference(a, b)
        state.apply_joint({p: int(rng.choice(np.flatnonzero(state.legal_actions_mask(p))))
                           for p in state.current_players()})


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_masks_follow_the_switch(env_id, monkeypatch):
    """``game.mask_into`` (the batch's way to a mask): the compiled view builder's when it
    has one, built and switched on, else the default; either way what
    ``state.legal_actions_mask`` returns, written into the row."""
    cls = game_class(env_id)
    monkeypatch.setenv(compiled.PURE_PYTHON_VAR, "1")
    assert not uses_compiled_mask(cls(2))
    monkeypatch.delenv(compiled.PURE_PYTHON_VAR)
    game = cls(cls.max_players)
    builder = compiled.load(_package(env_id), "view")
    assert uses_compiled_mask(game) == hasattr(getattr(builder, "ViewBuilder", None),
                                               "mask_into")
    rng = np.random.default_rng(5)
    state = game.new_game(rng)
    rows = np.full((3, game.num_actions), 7, np.int8)
    for _ in range(60):
        if state.is_terminal():
            state = game.new_game(rng)
        for p in range(game.num_players):
            game.mask_into(state, p, rows[1])
            want = state.legal_actions_mask(p)
            assert rows[1].tobytes() == want.tobytes()
            if uses_compiled_mask(game):
                assert want.tobytes() == state.python_legal_actions_mask(p).tobytes()
        state.apply_joint({p: int(rng.choice(np.flatnonzero(state.legal_actions_mask(p))))
                           for p in state.current_players()})
    assert (rows[0] == 7).all() and (rows[2] == 7).all()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_games_follow_the_switch(env_id, monkeypatch):
    package = _package(env_id)
    monkeypatch.setenv(compiled.PURE_PYTHON_VAR, "1")
    assert not uses_compiled(game_class(env_id)(2))
    monkeypatch.delenv(compiled.PURE_PYTHON_VAR)
    game = game_class(env_id)(2)
    assert uses_compiled(game) == (compiled.load(package) is not None)
    # either way encode_into writes what encode returns
    view = game.new_game(np.random.default_rng(0)).view(0)
    rows = np.full((2, game.layout.size), 7.0, np.float32)
    game.encode_into(view, rows[1])
    assert rows[1].tobytes() == game.encode(view).tobytes()
    assert (rows[0] == 7.0).all()


@pytest.mark.skipif(not os.environ.get(REQUIRE_VAR), reason=f"{REQUIRE_VAR} not set")
def test_every_encoder_is_built_where_required():
    assert compiled.enabled(), f"{compiled.PURE_PYTHON_VAR} is set"
    assert all(compiled.status().values()), compiled.status()
    assert all(compiled.status("view").values()), compiled.status("view")
    assert compiled.status("mask") == {g: g == "anchors_aweigh" for g in compiled.VIEW_PACKAGES}
    assert all(compiled.status("engine").values()), compiled.status("engine")
    for env_id in ENV_IDS:
        assert uses_compiled(game_class(env_id)(2)), env_id
    for env_id in VIEW_ENV_IDS:
        assert uses_compiled_view(game_class(env_id)(2)), env_id


_BAD_VALUES = [None, -5, 10**30, 3.5, (), (1, 2, 3), ((1,),), "x", (None,) * 14,
               tuple(range(200))]


def _malformed(view):
    """Copies of ``view`` with one field (or one item of a tuple field, or a field of a
    nested view) replaced by a value of the wrong type, length or range."""
    if dataclasses.is_dataclass(view):
        fields = [f.name for f in dataclasses.fields(view)]

        def replace(**kw):
            return dataclasses.replace(view, **kw)
    else:
        fields, replace = list(view._fields), view._replace
    for name in fields:
        for bad in _BAD_VALUES:
            yield replace(**{name: bad})
        inner = getattr(view, name)
        if dataclasses.is_dataclass(inner) or hasattr(inner, "_fields"):
            for w in _malformed(inner):
                yield replace(**{name: w})
        elif isinstance(inner, tuple) and inner:
            for bad in _BAD_VALUES[:4]:
                yield replace(**{name: (bad,) + inner[1:]})
                yield replace(**{name: inner[:-1] + (bad,)})


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_malformed_views_raise_or_encode_within_the_row(env_id):
    """Every field of real views replaced in turn by junk: the compiled encoder raises
    TypeError or ValueError or writes a vector, and never touches memory outside its row
    (a crash would end the test run; CI's build runs these too)."""
    package = _package(env_id)
    if compiled.load(package) is None:
        pytest.skip("the compiled encoder is not built")
    cls = game_class(env_id)
    for n in (cls.min_players, cls.max_players):
        game = cls(n)
        rng = np.random.default_rng(5)
        state, views = game.new_game(rng), []
        for _ in range(120):
            if state.is_terminal():
                state = game.new_game(rng)
            views.append(state.view(int(rng.integers(n))))
            state.apply_joint({p: int(rng.choice(np.flatnonzero(state.legal_actions_mask(p))))
                               for p in state.current_players()})
        rows = np.full((3, game.layout.size), 7.0, np.float32)
        for view in views[::40]:
            for bad in _malformed(view):
                try:
                    game.encode_into(bad, rows[1])
                except (TypeError, ValueError):
                    pass
        assert (rows[0] == 7.0).all() and (rows[2] == 7.0).all()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_bad_out_raises_a_clear_error(env_id, monkeypatch):
    """``encode_into`` takes only a writable C-contiguous float32 vector of the layout's
    size (a row of a batch array is one)."""
    package = _package(env_id)
    if compiled.load(package) is None:
        pytest.skip("the compiled encoder is not built")
    game = game_class(env_id)(2)
    view = game.new_game(np.random.default_rng(0)).view(0)
    size = game.layout.size
    read_only = np.zeros(size, np.float32)
    read_only.flags.writeable = False
    for out in (np.zeros(size, np.float64), np.zeros(size, np.int32),
                np.zeros(size - 1, np.float32), np.zeros(size + 1, np.float32),
                np.zeros((size, 2), np.float32)[:, 0], read_only, [0.0] * size,
                bytearray(4 * size), None):
        with pytest.raises((TypeError, ValueError, BufferError)):
            game.encode_into(view, out)
    rows = np.zeros((2, size), np.float32)
    game.encode_into(view, rows.reshape(-1)[size:])          # a contiguous slice is fine
    assert rows[1].tobytes() == game.encode(view).tobytes() and not rows[0].any()
