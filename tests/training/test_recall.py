"""``recall: true``: train in the perfect-recall variant, play the game with a memory.

A real Anchors Aweigh! run of a few hundred steps: its bot says it remembers, plays the
standard game through its seat's observation memory (and the variant without one), refuses
batched calls that would mix seats, and netsearch over it searches the variant's worlds.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from conftest import TINY, run_cli, set_args
from plunder.envs import game_class
from plunder.envs.core import ConfigError, InvalidArgumentError
from plunder.policies import make_bot
from plunder.policies.onnx_policy import OnnxPolicy, read_metadata
from plunder.training.selfplay.config import load_config

ENV = "anchors_aweigh_v0"


@pytest.fixture(scope="module")
def recall_run(tmp_path_factory):
    run = tmp_path_factory.mktemp("runs") / "aa"
    res = run_cli(["train", "anchors_aweigh", "--steps", "512", "--run-dir", str(run),
                   *set_args(TINY + ["recall=true", "eval.final_games=2", "max_turns=200",
                                     "pretrain.samples=200"])])
    assert res.exit_code == 0, res.output
    return run


def test_the_run_trains_the_variant_and_its_bot_plays_the_game(recall_run):
    meta = read_metadata(recall_run / "bot.onnx")
    assert meta["recall"] is True and meta["options"]["perfect_recall"] is False
    assert meta["config"]["recall"] is True and meta["config"]["options"] == {}
    # evaluated in the configured game; the replay command names no variant
    final = json.loads((recall_run / "eval.json").read_text())["results"]
    assert "perfect_recall" not in final["heuristic"]["command"]
    bot = OnnxPolicy(recall_run / "bot.onnx", ENV, 2)
    assert bot.memory is not None
    variant = OnnxPolicy(recall_run / "bot.onnx", ENV, 2, options={"perfect_recall": True})
    assert variant.memory is None
    # the bot's move in the standard game is the variant's bot's move on the variant's view
    plain, recall = game_class(ENV)(2), game_class(ENV)(2, perfect_recall=True)
    rng = np.random.default_rng(0)
    a, b = plain.new_game(np.random.default_rng(4)), recall.new_game(np.random.default_rng(4))
    bot.reset()
    differed = 0
    while not a.is_terminal() and a.turns < 400:
        joint = {}
        for p in a.current_players():
            mask = a.legal_actions_mask(p)
            if p == 0:
                seen, want = plain.encode(a.view(p)), recall.encode(b.view(p))
                differed += not np.array_equal(seen, want)
                joint[p] = bot.act(seen, mask)
                assert joint[p] == variant.act(want, mask)
            else:
                joint[p] = int(rng.choice(np.flatnonzero(mask)))
        a.apply_joint(joint)
        b.apply_joint(joint)
    assert differed > 0                    # the captain's call hid fronts it remembered
    with pytest.raises(InvalidArgumentError, match="remembers what its seat saw"):
        bot.act_batch(np.zeros((2, meta["obs_size"]), np.float32),
                      np.ones((2, meta["num_actions"]), np.int8))


def test_netsearch_over_a_remembering_network_searches_the_variant(recall_run):
    bot = make_bot(f"netsearch:{recall_run / 'bot.onnx'}:2", ENV, 2, seed=1)
    assert bot.memory is not None and bot.world.perfect_recall and bot.net.memory is None
    game = game_class(ENV)(2)
    s = game.new_game(np.random.default_rng(2))
    bot.reset()
    for _ in range(3):
        p = s.current_players()[0]
        mask = s.legal_actions_mask(p)
        action = bot.act_view(s.view(p), mask) if p == 0 else int(np.flatnonzero(mask)[0])
        assert mask[action]
        s.apply_joint({q: action if q == p else int(np.flatnonzero(s.legal_actions_mask(q))[0])
                       for q in s.current_players()})


def test_recall_needs_a_game_with_a_perfect_recall_variant():
    with pytest.raises(ConfigError, match="no perfect-recall variant"):
        load_config("scallywags_v0", overrides=["recall=true"])
    with pytest.raises(ConfigError, match="already on"):
        load_config(ENV, overrides=["recall=true", "options.perfect_recall=true"])
    cfg = load_config(ENV, overrides=["recall=true"])
    assert cfg.train_options() == {"perfect_recall": True} and cfg.options == {}
