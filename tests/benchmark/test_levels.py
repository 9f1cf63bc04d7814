"""Named strength levels (``level:NAME``), the noisy bot they start from, and the menu a
bot picker lists."""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs import game_class
from plunder.envs.core import InvalidArgumentError, ModelFileError
from plunder.policies import make_bot
from plunder.policies.base import spec_file
from plunder.policies.levels import (LEVELS, NoisyPolicy, level_menu, level_spec, level_table,
                                     load_levels)

pytest.importorskip("onnxruntime")


def _moves(bot, game, seed: int, decisions: int = 60) -> list[int]:
    """The bot's moves at the first decisions of random-play games."""
    rng = np.random.default_rng(seed)
    out = []
    state = game.new_game(rng)
    bot.reset()
    while len(out) < decisions:
        if state.is_terminal():
            state = game.new_game(rng)
            bot.reset()
        joint = {}
        for p in state.current_players():
            mask = state.legal_actions_mask(p)
            if p == 0:
                view = state.view(p)
                a = bot.act_view(view, mask) if getattr(bot, "needs_view", False) else \
                    bot.act(game.encode(view), mask)
                assert mask[a]
                out.append(a)
                joint[p] = a
            else:
                joint[p] = int(rng.choice(np.flatnonzero(mask)))
        state.apply_joint(joint)
    return out


def test_every_level_of_the_shipped_tables_is_the_bot_its_table_names():
    table = load_levels()
    assert list(table["levels"]) == list(LEVELS)
    for env_id, n in [("scallywags_v0", 2), ("shipshape_v0", 4)]:
        rows = level_table(env_id, n)
        assert [r["level"] for r in rows] == list(LEVELS)
        assert all(r["playable"] for r in rows), rows
        for r in rows:
            bot = make_bot(f"level:{r['level']}", env_id, n, seed=5)
            assert bot.name == f"level:{r['level']}"
            assert (r["bot"], r["sentence"]) == level_spec(r["level"], env_id, n)
        assert [name for name, _ in level_menu(env_id, n)] == list(LEVELS)
    strong = make_bot("level:strong", "scallywags_v0", 2)
    assert strong.path == make_bot("pretrained", "scallywags_v0", 2).path


def test_a_level_without_its_network_names_what_is_shipped_and_what_is_playable():
    with pytest.raises(InvalidArgumentError,
                       match=r"level strong \(pretrained\) cannot play scallywags_v0 with 3 "
                             r"players: no pretrained final bot .* shipped for scallywags_v0: "
                             r"2p, 4p\. Playable levels there: novice, casual"):
        make_bot("level:strong", "scallywags_v0", 3)
    with pytest.raises(InvalidArgumentError, match=r"and options \{'prize_crew': True\}"):
        make_bot("level:expert", "all_hands_battle_v0", 2, prize_crew=True)
    menu = level_menu("scallywags_v0", 3)
    assert [name for name, _ in menu] == ["novice", "casual"]
    assert all(sentence.endswith(".") for _, sentence in menu)
    why = {r["level"]: r["reason"] for r in level_table("scallywags_v0", 3)}
    assert why["casual"] is None and "no pretrained final bot" in why["expert"]
    with pytest.raises(InvalidArgumentError, match=r"unknown level 'hard'; the levels are "
                                                   r"novice, casual, strong, expert"):
        make_bot("level:hard", "scallywags_v0", 2)


def test_overrides_give_one_game_and_count_another_bot(tmp_path, monkeypatch):
    import plunder.policies.levels as levels

    text = levels.LEVELS_FILE.read_text() + (
        '\n[[override]]\ngame = "scallywags"\nplayers = [2]\nlevel = "casual"\n'
        'bot = "noisy:0.1:heuristic"\n'
        '\n[[override]]\ngame = "scallywags_v0"\nlevel = "novice"\nsentence = "Just learning."\n')
    path = tmp_path / "levels.toml"
    path.write_text(text)
    monkeypatch.setattr(levels, "LEVELS_FILE", path)
    assert level_spec("casual", "scallywags_v0", 2)[0] == "noisy:0.1:heuristic"
    assert level_spec("casual", "scallywags_v0", 4)[0] == "heuristic"
    assert level_spec("casual", "shipshape_v0", 2)[0] == "heuristic"
    assert level_spec("novice", "scallywags_v0", 5) == ("noisy:0.5:heuristic", "Just learning.")


@pytest.mark.parametrize("text, match", [
    ('format = "plunder-levels/9"', r"format must be 'plunder-levels/1'"),
    ('format = "plunder-levels/1"\n[levels.novice]\nbot = "random"\nsentence = "x"',
     r"\[levels\] must give novice, casual, strong, expert"),
    ('format = "plunder-levels/1"\n' + "".join(
        f'[levels.{n}]\nbot = "random"\nsentence = ""\n' for n in LEVELS),
     r"levels.novice: sentence must be a non-empty string"),
    ('format = "plunder-levels/1"\n' + "".join(
        f'[levels.{n}]\nbot = "random"\nsentence = "s"\n' for n in LEVELS)
     + '[[override]]\ngame = "scallywags"\nlevel = "master"\nbot = "random"\n',
     r"override\[0\]: needs game"),
    ('format = "plunder-levels/1"\n' + "".join(
        f'[levels.{n}]\nbot = "random"\nsentence = "s"\n' for n in LEVELS)
     + '[[override]]\ngame = "scallywags"\nlevel = "expert"\nbots = "random"\n',
     r"override\[0\]: unknown key\(s\) \['bots'\]"),
    ("format = [", r"is not valid TOML"),
])
def test_a_malformed_levels_table_is_one_clear_error(tmp_path, text, match):
    path = tmp_path / "levels.toml"
    path.write_text(text)
    with pytest.raises(ModelFileError, match=match):
        load_levels(path)


def test_noisy_bots_play_the_inner_bot_or_a_random_legal_move():
    game = game_class("scallywags_v0")(2)
    inner = _moves(make_bot("heuristic", "scallywags_v0", 2, seed=1), game, 7, 200)
    same = _moves(make_bot("noisy:0:heuristic", "scallywags_v0", 2, seed=1), game, 7, 200)
    assert same == inner            # no noise: the inner bot's moves exactly
    noisy = make_bot("noisy:0.5:heuristic", "scallywags_v0", 2, seed=1)
    assert isinstance(noisy, NoisyPolicy) and noisy.name == "noisy:0.5:heuristic"
    moves = _moves(noisy, game, 7, 200)
    assert moves != inner
    again = _moves(make_bot("noisy:0.5:heuristic", "scallywags_v0", 2, seed=1), game, 7, 200)
    assert again == moves           # seeded
    # a view-playing inner bot is asked with the view
    searching = make_bot("noisy:0.3:search:2", "scallywags_v0", 2, seed=1)
    assert searching.needs_view and searching.samples == 2
    assert len(_moves(searching, game, 3, 10)) == 10


@pytest.mark.parametrize("spec", ["noisy:1.5:heuristic", "noisy:-0.1:heuristic",
                                  "noisy:0.5", "noisy:half:heuristic", "noisy:nan:heuristic",
                                  "noisy:0.5:level:casual", "noisy::heuristic"])
def test_bad_noisy_specs_are_refused(spec):
    with pytest.raises(InvalidArgumentError):
        make_bot(spec, "scallywags_v0", 2)


def test_a_noisy_bot_names_the_file_of_the_bot_it_wraps():
    assert spec_file("noisy:0.2:trained:bots/x.onnx") == "bots/x.onnx"
    assert spec_file("noisy:0.2:netsearch:bots/y.onnx:4") == "bots/y.onnx"
    assert spec_file("noisy:0.2:heuristic") is None
