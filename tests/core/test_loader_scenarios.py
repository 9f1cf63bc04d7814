"""Saved states the rules cannot reach, each refused by the Python loader and by the
game's compiled engine alike (found by the corrupted-state suite; kept here as scenarios)."""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs import game_class
from plunder.envs.anchors_aweigh.engine import A_PARROT, DECIDE
from plunder.envs.core.batch import engine_module
from plunder.envs.core.errors import InvalidStateError


def _refused_everywhere(env_id, n, data, match):
    game = game_class(env_id)(n)
    with pytest.raises(InvalidStateError, match=match):
        game.state_from_dict(data)
    module = engine_module(type(game))
    if module is not None:
        engine = module.Engine(*game.compiled_engine_params(module))
        with pytest.raises(InvalidStateError):
            engine.from_dict(data)


def _play_until(game, seed, found):
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(rng)
    while not state.is_terminal():
        if found(state):
            return state
        state.apply_joint({p: int(rng.choice(state.legal_actions(p)))
                           for p in state.current_players()})
    return None


def test_a_float_never_stands_for_an_int_choice():
    data = game_class("anchors_aweigh_v0")(2).new_initial_state(
        np.random.default_rng(0)).to_dict()
    _refused_everywhere("anchors_aweigh_v0", 2, dict(data, phase=float(data["phase"])),
                        "phase")


def test_a_reshuffled_pile_holds_no_more_copies_than_the_deck():
    game = game_class("scallywags_v0")(3)
    data = game.new_initial_state(np.random.default_rng(0)).to_dict()
    reshuffled = list(data["reshuffled"])
    reshuffled[0] = game.components.card_copies[0] + 1
    _refused_everywhere("scallywags_v0", 3, dict(data, reshuffled=reshuffled), "reshuffled")


def test_a_pending_choice_must_be_open_to_its_seat():
    """A seat with no parrot cannot have chosen to resolve a card with one."""
    game = game_class("anchors_aweigh_v0")(3)
    state = next(s for seed in range(50) if (s := _play_until(
        game, seed, lambda st: st.phase == DECIDE and any(
            st.parrots[p] == 0 for p in st.current_players()))) is not None)
    seat = next(p for p in state.current_players() if state.parrots[p] == 0)
    data = state.to_dict()
    pending = list(data["pending"])
    pending[seat] = A_PARROT
    _refused_everywhere("anchors_aweigh_v0", 3, dict(data, pending=pending), "pending")
