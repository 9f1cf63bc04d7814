"""``plunder benchmark diagnose`` and the hybrid bot it replays games with."""

from __future__ import annotations

import json

import numpy as np
import pytest

from plunder.training.benchmark.diagnose import diagnose, play_hybrid
from plunder.envs import ENV_IDS, game_class
from plunder.envs.core import InvalidArgumentError
from plunder.policies.base import RandomPolicy
from plunder.policies.hybrid import HybridPolicy, decision_kind
from plunder.training.evaluation import bot_factories, run_tournament

from .test_run import run_cli


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_decision_kind_is_the_sorted_verbs_of_its_legal_actions(env_id):
    game = game_class(env_id)(2)
    state = game.new_game(np.random.default_rng(3))
    seat = state.current_players()[0]
    mask = state.legal_actions_mask(seat)
    verbs = {game.action_name(int(a)).split()[0] for a in np.flatnonzero(mask)}
    assert decision_kind(game, mask) == "/".join(sorted(verbs))
    with pytest.raises(InvalidArgumentError, match="legal action"):
        decision_kind(game, np.zeros_like(mask))


def test_the_hybrid_plays_the_helpers_moves_at_its_kinds_and_the_bases_elsewhere():
    game = game_class("scallywags_v0")(2)
    hybrid = HybridPolicy(game, RandomPolicy(seed=1), RandomPolicy(seed=2), kinds={"coin"})
    # twins asked at every decision too, as the hybrid asks both of its bots
    base_twin, helper_twin = RandomPolicy(seed=1), RandomPolicy(seed=2)
    other = RandomPolicy(seed=3)
    played = {"coin": 0, "other": 0}
    for g in range(3):
        state = game.new_game(np.random.default_rng(g))
        hybrid.reset()
        while not state.is_terminal():
            joint = {}
            for p in state.current_players():
                view, mask = state.view(p), state.legal_actions_mask(p)
                obs = game.encode(view)
                if p == 1:
                    joint[p] = other.act(obs, mask)
                    continue
                mine, theirs = base_twin.act(obs, mask), helper_twin.act(obs, mask)
                kind = decision_kind(game, mask)
                joint[p] = hybrid.act_view(view, mask)
                assert joint[p] == (theirs if kind == "coin" else mine)
                if mine != theirs:
                    played["coin" if kind == "coin" else "other"] += 1
            state.apply_joint(joint)
    assert played["coin"] > 0 and played["other"] > 0   # both branches were told apart
    assert sum(hybrid.decisions.values()) > 0
    assert all(hybrid.disagreements[k] <= n for k, n in hybrid.decisions.items())


def test_the_survey_is_plunder_eval_of_the_bot_alone():
    wins, hybrids, _ = play_hybrid("scallywags_v0", 2, "random", "heuristic", "heuristic",
                                   kinds=(), games=8, seed=5)
    bots = bot_factories(["random", "heuristic"], "scallywags_v0", 2)
    alone = run_tournament("scallywags_v0", 2, bots, games=8, seed=5, rate=False)
    assert sum(wins) == alone.bots[0].wins
    assert sum(sum(h.decisions.values()) for h in hybrids) > 0


def test_diagnose_replays_the_kinds_with_the_most_disagreements(tmp_path):
    data = diagnose("scallywags_v0", 2, "random", games=6, top=2, seed=1)
    kinds = {k["kind"]: k for k in data["kinds"]}
    ranked = sorted(kinds.values(), key=lambda k: -k["disagreements"])
    assert [h["kind"] for h in data["hybrids"]] == [k["kind"] for k in ranked[:2]]
    for h in data["hybrids"]:
        lo, hi = h["delta_ci95"]
        assert lo <= h["delta"] <= hi
        assert h["delta"] == pytest.approx(h["win_share"] - data["baseline"]["win_share"])
    json.dumps(data)
    with pytest.raises(InvalidArgumentError, match="never came up"):
        diagnose("scallywags_v0", 2, "random", games=2, kinds=["no-such-kind"])
    with pytest.raises(InvalidArgumentError, match="at least 2 games"):
        diagnose("scallywags_v0", 2, "random", games=1)


def test_the_cli_prints_both_tables_and_writes_json(tmp_path):
    out = tmp_path / "d.json"
    result = run_cli(["benchmark", "diagnose", "shipshape", "--bot", "random", "--players",
                      "2", "--games", "2", "--kinds", "place,bid+place", "--json-out",
                      str(out)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert any(line.split()[:1] == ["place"] for line in lines if line.strip())
    assert "heuristic makes these" in result.output
    assert all(len(line) <= 80 for line in lines if not line.startswith("wrote "))
    data = json.loads(out.read_text())
    assert data["command"].startswith("plunder benchmark diagnose shipshape --bot random")
    assert [h["kind"] for h in data["hybrids"]] == ["place", "bid+place"]
    bad = run_cli(["benchmark", "diagnose", "shipshape", "--bot", "nosuchbot", "--players",
                   "2", "--games", "2"])
    assert bad.exit_code != 0 and "Error" in bad.output
