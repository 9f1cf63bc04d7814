"""What a person at the table is told (``plunder.envs.core.guide``): the rules page, the
decision line and the move labels, for every game.

The decision line and the labels are built from one seat's view: in states sampled to
fit that view (``Game.sample_state`` redraws every hidden card, coin, tile and deck order)
they stay the same, and they change when what the seat knows changes. Each label names
what its move acts on (the coin, card, stock card, crate, space or ship).
"""

from __future__ import annotations

import importlib.resources

import numpy as np
import pytest

from plunder.envs import ENV_IDS, game_class, rules_text, spec
from plunder.envs.core import InvalidArgumentError, UnknownEnvError
from plunder.envs.core.guide import (
    decision_prompt, forced_line, move_label, move_labels, only_move,
)

#: (env id, players) played at random; each game at its smallest and a larger count
TABLES = [(e, n) for e in ENV_IDS
          for n in sorted({game_class(e).min_players, min(game_class(e).max_players, 4)})]


def decisions(env_id, n, seed, steps=400, every=7):
    """(game, state, seat, legal) at every ``every``-th decision of a random game."""
    game = game_class(env_id)(n)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(rng)
    for t in range(steps):
        if state.is_terminal():
            break
        joint = {}
        for seat in state.current_players():
            legal = [int(a) for a in state.legal_actions(seat)]
            if t % every == 0:
                yield game, state, seat, legal
            joint[seat] = int(rng.choice(legal))
        state.apply_joint(joint)


def told(game, state, seat, legal):
    """The decision line and the labels ``seat`` is shown in ``state``."""
    view = state.view(seat)
    return decision_prompt(game, view, legal), move_labels(game, view, legal)


@pytest.mark.parametrize("env_id, n", TABLES)
def test_the_prompt_and_labels_come_from_the_seats_view_only(env_id, n):
    rng = np.random.default_rng(5)
    checked = 0
    for game, state, seat, legal in decisions(env_id, n, seed=n, every=3):
        prompt, labels = told(game, state, seat, legal)
        assert prompt and all(labels.values())
        assert len(set(labels.values())) == len(labels), "two moves share a label"
        assert "waiting" not in prompt.lower(), "the seat asked is told it waits"
        for _ in range(2):
            sampled = game.sample_state(state.view(seat), rng)
            assert sampled.view(seat) == state.view(seat)
            assert told(game, sampled, seat, sampled.legal_actions(seat)) == (prompt, labels)
        # another seat's line says whom the table waits for
        others = [q for q in range(n) if q not in state.current_players()]
        if others:
            assert "waiting for" in decision_prompt(game, state.view(others[0]), []).lower()
        checked += 1
    assert checked >= 8


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_every_game_names_its_prompt_labels_and_rules(env_id):
    game_spec = spec(env_id)
    assert game_spec.prompt and game_spec.move_label and game_spec.rules == "rules.md"
    game = game_class(env_id)(game_class(env_id).min_players)
    state = game.new_initial_state(np.random.default_rng(0))
    seat = state.current_players()[0]
    legal = state.legal_actions(seat)
    labels = move_labels(game, state.view(seat), legal)
    # the labels are the game's words, not the internal notation (which stays as it was)
    assert any(labels[a] != game.action_name(a) for a in legal)
    assert all(move_label(game, state.view(seat), a) == labels[a] for a in legal)


def test_scallywags_labels_name_the_coin_card_and_seat():
    game = game_class("scallywags_v0")(3)
    a = game.actions
    seen_known = seen_block = seen_give = False
    for game, state, seat, legal in decisions("scallywags_v0", 3, seed=11, steps=600, every=1):
        view = state.view(seat)
        labels = move_labels(game, view, legal)
        prompt = decision_prompt(game, view, legal)
        for action in legal:
            text = labels[action]
            if view.phase == "choose" and a.coin <= action < a.player:
                coin = action - a.coin
                assert text.startswith(f"take face-down coin #{coin} from the middle")
                if view.coin_values[coin] >= 0:    # a coin this seat has seen
                    assert text.endswith(f"(you have seen it: {view.coin_values[coin]})")
                    seen_known = True
            if a.play <= action < a.discard:
                assert game.action_name(action).removeprefix("play ") in text
            if a.player <= action < a.block:
                target = game.seat_name((view.actor + action - a.player + 1) % 3)
                assert text.startswith("give coin #") and target in text
                seen_give = True
        if view.phase == "block":
            card = game.action_name(a.play + view.card).removeprefix("play ")
            assert card in prompt and "#" in prompt
            assert ("block it" in prompt) == (a.block in legal)
            assert labels[a.allow] == f"allow the {card}"
            seen_block = True
    assert seen_known and seen_block and seen_give


def test_what_the_seat_learns_changes_the_label():
    """The same face-down coin reads unseen, then with its value once the seat saw it."""
    game = game_class("scallywags_v0")(2)
    state = game.new_initial_state(np.random.default_rng(3))
    seat = state.actor
    coin = next(c for c in state.middle if not state.face_up[c])
    action = game.actions.coin + coin
    before = move_label(game, state.view(seat), action)
    state.learn(coin, seat)
    after = move_label(game, state.view(seat), action)
    assert before == f"take face-down coin #{coin} from the middle"
    assert after == f"{before} (you have seen it: {state.values[coin]})"


def test_crew_labels_name_the_stock_card_pile_and_pass():
    hired = passes = 0
    for game, state, seat, legal in decisions("all_hands_crew_v0", 3, seed=2, steps=900,
                                               every=1):
        view = state.view(seat)
        labels = move_labels(game, view, legal)
        acts = game.actions
        for action in legal:
            if acts.hire <= action < acts.lay:
                i = action - acts.hire
                kind = view.stock[seat][i][0]
                assert labels[action].startswith(f"hire {game.comps.kind_names[kind]} "
                                                 f"(stock card {i + 1}")
                hired += 1
            if acts.draw <= action < acts.hire:
                assert "pile" in labels[action]
            if action == acts.pass_turn:
                assert labels[action].startswith("pass: ") and labels[action] != "pass: "
                passes += 1
    assert hired and passes


@pytest.mark.parametrize("env_id, word", [
    ("all_hands_battle_v0", "ship"), ("shipshape_v0", "crate #"), ("anchors_aweigh_v0", "A")])
def test_labels_name_the_ship_crate_or_space(env_id, word):
    found = 0
    for game, state, seat, legal in decisions(env_id, 2, seed=4, steps=1500, every=3):
        view = state.view(seat)
        labels = move_labels(game, view, legal)
        for action in legal:
            name = game.action_name(action)
            if env_id == "shipshape_v0" and name.startswith("place"):
                crate = next(c for p in view.placing for s, c, _ in p if s == seat)
                assert f"crate #{crate}" in labels[action] and "then G" not in labels[action]
                found += 1
            elif env_id == "all_hands_battle_v0" and name.startswith(("attack opp", "spy")):
                assert "'s ship" in labels[action] and "(" in labels[action]
                found += 1
            elif env_id == "all_hands_battle_v0" and name.startswith(("discard", "crew")):
                card = name.split(" ", 1)[1]
                assert card in labels[action]
            elif env_id == "anchors_aweigh_v0" and name.startswith("place the held tile"):
                space = name.rsplit(" ", 1)[1]
                assert labels[action].endswith(f"on {space}") and "hold" in labels[action]
                found += 1
    assert found, word


def test_only_move_and_the_forced_line():
    assert only_move([17]) == 17 and only_move([]) is None and only_move([1, 2]) is None
    assert forced_line("allow the ARRGH!") == "only move: allow the ARRGH! — played for you"


# -- the rules pages ------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_every_game_ships_its_rules_page(env_id):
    text = rules_text(env_id)
    short = spec(env_id).name
    assert text.startswith("# ") and f"`{env_id}`" in text.splitlines()[0]
    assert rules_text(short) == text
    # package data beside the engine, so an installed package has it
    packaged = importlib.resources.files(spec(env_id).package).joinpath("rules.md")
    assert packaged.read_text(encoding="utf-8") == text


def test_rules_of_an_unknown_game_or_a_game_without_rules_are_refused():
    with pytest.raises(UnknownEnvError, match="unknown game 'monopoly'"):
        rules_text("monopoly")
    from plunder.envs import register, unregister
    register("tests.example_game")
    from plunder.envs import env_ids
    env_id = next(e for e in env_ids() if e.startswith("doubloons"))
    try:
        with pytest.raises(InvalidArgumentError, match="no rules page"):
            rules_text(env_id)
        game = game_class(env_id)(2)
        state = game.new_initial_state(np.random.default_rng(0))
        seat = state.current_players()[0]
        legal = state.legal_actions(seat)
        # a game without prompts and labels of its own: whose decision, the action names
        assert decision_prompt(game, state.view(seat), legal) == "Your decision: choose a move."
        assert move_labels(game, state.view(seat), legal) == \
            {int(a): game.action_name(int(a)) for a in legal}
    finally:
        unregister(env_id)
