"""The terminal's play screen (`plunder play`): every line fits 80 columns over random
games of every game, the moves are shown by their labels with the decision line, a
forced move is played for the person unless asked not to, and the ``help``, ``rules``,
``table`` and ``quit`` commands."""

from __future__ import annotations

import re

import numpy as np
import pytest

from click.testing import CliRunner

from plunder.envs import ENV_IDS, game_class, rules_text
from plunder.training.cli.commands import main
from plunder.training.play.terminal import WIDTH, play

#: what the text tables wrote before they said things in words
INTERNAL = re.compile(r"pending: |targets \[|asking \[|acting \[|\?<\d|\d to play \(|"
                      r"\b1 (coins|points|cards)\b|FULL[gG]")


def random_answers(shown, rng, commands=()):
    """``ask``: the number of a random listed move (after any ``commands`` once each)."""
    queue = list(commands)

    def ask(prompt):
        if queue:
            return queue.pop(0)
        idx = max(i for i, line in enumerate(shown) if line == "Your move:")
        numbers = [int(m.group(1)) for line in shown[idx + 1:]
                   for m in [re.match(r"\s+(\d+)  ", line)] if m]
        return str(rng.choice(numbers))
    return ask


def played(env_id, n, seed, auto_play=True, commands=(), max_turns=None):
    """Every line the person is shown in one random game."""
    shown: list[str] = []
    play(env_id, seat=seed % n, bots=["random"], num_players=n, seed=seed,
         ask=random_answers(shown, np.random.default_rng(seed), commands),
         say=shown.append, max_turns=max_turns, auto_play=auto_play,
         **({"target_score": 150} if env_id == "all_hands_battle_v0" else {}))
    return "\n".join(shown).split("\n")


GAMES = [(e, n, seed) for e in ENV_IDS
         for n, seed in ((game_class(e).min_players, 1), (game_class(e).max_players, 2))]


@pytest.mark.parametrize("env_id, n, seed", GAMES)
def test_every_line_fits_80_columns_and_says_things_in_words(env_id, n, seed):
    lines = played(env_id, n, seed, max_turns=None if n <= 3 else 120)
    long = [line for line in lines if len(line) > WIDTH]
    assert not long, long[:3]
    internal = [line for line in lines if INTERNAL.search(line)]
    assert not internal, internal[:3]
    asked = [i for i, line in enumerate(lines) if line == "Your move:"]
    assert asked
    for i in asked:      # the decision line is just above the moves, the moves numbered
        assert lines[i - 1].rstrip().endswith((".", "?")), lines[i - 1]
        assert re.match(r"\s+1  \S", lines[i + 1])


def test_a_forced_move_is_played_for_the_person_unless_asked_not_to():
    auto = played("scallywags_v0", 4, 3)
    assert any(line.startswith("only move: ") and line.endswith(" — played for you")
               for line in auto)
    # every decision shown has a choice; with --no-auto-play the single moves are asked
    def single_moves(lines):
        """How many move lists shown hold a single move."""
        out = 0
        for i, line in enumerate(lines):
            if line == "Your move:":
                numbers = []
                for move in lines[i + 1:]:
                    if not move.startswith(" "):
                        break
                    numbers += re.findall(r"^\s+(\d+)  ", move)
                out += numbers == ["1"]
        return out
    assert single_moves(auto) == 0
    manual = played("scallywags_v0", 4, 3, auto_play=False)
    assert single_moves(manual) > 0 and not any("played for you" in x for x in manual)


def test_help_rules_and_table_commands():
    lines = played("shipshape_v0", 2, 1, commands=["help", "rules", "table", "nonsense"],
                   max_turns=3)
    text = "\n".join(lines)
    for word in ("help", "rules", "table", "quit"):
        assert re.search(rf"^  {word}\s+\S", text, re.M), word
    first_rules_line = rules_text("shipshape_v0").splitlines()[0]
    assert first_rules_line in lines
    assert text.count("Your move:") >= 2        # the table command shows the moves again
    assert "not a move: type a number 1-" in text
    assert all(len(line) <= WIDTH for line in lines)


def test_quit_leaves_the_game():
    shown: list[str] = []
    scores = play("scallywags_v0", seat=0, bots=["random"], num_players=2, seed=1,
                  ask=lambda prompt: "quit", say=shown.append)
    assert scores == [] and "leaving the game" in shown[-1]


def test_plunder_play_no_auto_play_flag():
    out = CliRunner().invoke(main, ["play", "--help"])
    assert "--no-auto-play" in out.output
    out = CliRunner().invoke(main, ["play", "scallywags", "--seed", "1", "--no-auto-play"],
                             input="help\n")
    assert out.exit_code == 0 and "rules" in out.output and "no more input" in out.output
