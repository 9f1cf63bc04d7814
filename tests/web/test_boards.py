"""The clickable tables (``plunder.training.web.boards``): on every game and player count,
every clickable thing names only legal moves, and every legal move that names a thing
(a coin, card, crate, tile, space, pile or ship) is clickable on it."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("starlette", reason="plunder serve needs the web extra")

from plunder.envs import game_class  # noqa: E402
from plunder.training.web.boards import board  # noqa: E402

from ..conftest import GAME_COUNTS  # noqa: E402

#: moves that name no thing on the table (the move buttons offer them), by name prefix
THINGLESS = {
    "scallywags": (),
    "shipshape": (),
    "anchors_aweigh": ("swap",),
    "all_hands_battle": ("pass",),
    "all_hands_crew": ("pass",),
}


def clickable(table: dict) -> dict[int, list[dict]]:
    """Every clickable move of a board -> the things (or zones) it is on."""
    out: dict[int, list[dict]] = {}
    for zone in table["zones"]:
        for action in zone["actions"]:
            out.setdefault(action, []).append(zone)
        for thing in zone["items"]:
            for action in thing["actions"]:
                out.setdefault(action, []).append(thing)
    return out


@pytest.mark.parametrize("env_id, n", GAME_COUNTS)
def test_every_legal_move_that_names_a_thing_is_clickable(env_id, n):
    game = game_class(env_id)(n)
    state = game.new_game(np.random.default_rng(n))
    rng = np.random.default_rng(0)
    for _ in range(400):
        if state.is_terminal():
            break
        for seat in range(n):
            legal = state.legal_actions(seat) if seat in state.current_players() else []
            table = board(game, state.view(seat), legal)
            assert json.loads(json.dumps(table)) == table
            on = clickable(table)
            assert set(on) <= set(legal), "a clickable thing names an illegal move"
            for action in set(legal) - set(on):
                name = game.action_name(action)
                assert name.startswith(THINGLESS[game.name]), f"{name!r} is on no thing"
        state.apply_joint({p: int(rng.choice(state.legal_actions(p)))
                           for p in state.current_players()})


def test_scallywags_coins_and_cards_carry_their_moves():
    game = game_class("scallywags_v0")(3)
    state = game.new_game(np.random.default_rng(0))
    seat = state.current_players()[0]
    legal = state.legal_actions(seat)
    on = clickable(board(game, state.view(seat), legal))
    for action in legal:
        name = game.action_name(action)
        labels = [thing.get("label", thing.get("title")) for thing in on[action]]
        if name.startswith("coin "):
            assert labels == [f"#{name.split()[1]}"]
        elif name.startswith(("play ", "discard ")):
            assert labels == [name.split(" ", 1)[1]]


def test_a_seat_not_asked_has_nothing_to_click():
    for env_id in ("scallywags_v0", "all_hands_battle_v0"):
        game = game_class(env_id)(3)
        state = game.new_game(np.random.default_rng(0))
        idle = next(s for s in range(3) if s not in state.current_players())
        assert clickable(board(game, state.view(idle), [])) == {}
