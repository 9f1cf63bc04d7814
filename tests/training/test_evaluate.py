"""Tournaments: line-ups, statistics, the eval command."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest
from conftest import run_cli

from plunder.training.evaluation import bot_factories, run_tournament, schedule, wilson


def test_schedule_rotates_every_bot_through_every_seat():
    for k, n in [(2, 2), (2, 4), (3, 3), (3, 2), (4, 2)]:
        lineups = schedule(k, n)
        for seat in range(n):
            counts = Counter(l[seat] for l in lineups)
            total = Counter(b for l in lineups for b in l)
            # every seat sees each bot in proportion to how many seats the bot fills
            assert all(counts[b] * n == total[b] for b in range(k)), (k, n, seat, counts)
        if k <= n:
            assert all(l.count(k - 1) == n - k + 1 for l in lineups)
        else:
            assert all(len(set(l)) == n for l in lineups)


def test_wilson():
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == 1.0


def test_heuristic_beats_random_and_stats_add_up():
    facs = bot_factories(["heuristic", "random"], "scallywags_v0", 2)
    t = run_tournament("scallywags_v0", 2, facs, 40, seed=1)
    h, r = t.bots
    assert h.seat_games == r.seat_games == 40
    assert h.wins + r.wins == pytest.approx(40 - t.truncated, abs=1e-9) or t.truncated
    assert h.win_share > r.win_share and h.mu > r.mu
    data = t.to_dict()
    assert data["bots"][0]["ci95"][0] <= data["bots"][0]["win_share"] <= data["bots"][0]["ci95"][1]


def test_eval_command_table_and_json():
    res = run_cli(["eval", "scallywags", "--bots", "heuristic,random", "--games", "8",
                   "--players", "4"])
    assert res.exit_code == 0, res.output
    assert "heuristic" in res.output and "95% CI" in res.output
    res = run_cli(["eval", "scallywags", "--bots", "heuristic,random", "--games", "8",
                   "--players", "4", "--json"])
    data = json.loads(res.output)
    assert [b["seat_games"] for b in data["bots"]] == [8, 24] and data["parity"] == 0.25
    res = run_cli(["eval", "scallywags", "--bots", "nonsense", "--games", "2"])
    assert res.exit_code != 0 and "unknown bot" in res.output


def test_training_summary_says_how_many_games_hit_the_turn_limit():
    from types import SimpleNamespace

    from plunder.training.selfplay.train import render_summary

    row = {"num_players": 2, "games": 400, "win_share": 0.379, "ci95": [0.333, 0.427],
           "parity": 0.5, "mean_score": 30.0, "opponent_mean_score": 35.0,
           "rating": [20.0, 25.0]}
    summary = {"random": {**row, "truncated_games": 0},
               "heuristic": {**row, "truncated_games": 313}}
    shown = []
    render_summary(SimpleNamespace(env_id="anchors_aweigh_v0", num_players=2), summary,
                   1000, echo=shown.append)
    text = " ".join("\n".join(shown).split())
    assert "against heuristic: 313 of 400 games hit the turn limit" in text
    assert "against random" not in text


# -- seeds: evaluation games are never training games ----------------------------------

def test_tournament_seeds_are_distinct_and_above_every_training_seed():
    from plunder.training.evaluation import EVAL_SEED_FLOOR, bot_seed, game_seed

    seeds = [game_seed(t, g) for t in range(4) for g in range(300)]
    seeds += [bot_seed(t, b, s) for t in range(4) for b in range(5) for s in range(6)]
    assert len(set(seeds)) == len(seeds)
    assert min(seeds) >= EVAL_SEED_FLOOR
    # the packaged config seeds are below 2**32; a larger one is refused
    from plunder.envs.core import ConfigError
    from plunder.training.selfplay.config import load_config
    with pytest.raises(ConfigError, match="seed"):
        load_config("scallywags", overrides=[f"seed={2**32}"])
    with pytest.raises(Exception, match="non-negative"):
        game_seed(-1, 0)


def test_tournament_game_is_the_env_game_of_its_seed(monkeypatch):
    """Game g of tournament T is played from ``game_seed(T, g)``, which is what
    ``env.reset(seed=game_seed(T, g))`` deals."""
    from plunder.envs import game_class, make
    from plunder.training.evaluation import tournament as evaluate
    from plunder.training.evaluation import game_seed, play_game

    played = []
    real_play = evaluate.play_game
    monkeypatch.setattr(evaluate, "play_game",
                        lambda game, pols, seed, mt: played.append(seed) or
                        real_play(game, pols, seed, mt))
    facs = bot_factories(["random"], "scallywags_v0", 2)
    run_tournament("scallywags_v0", 2, facs, 3, seed=5, rate=False)
    assert played == [game_seed(5, g) for g in range(3)]

    seen = []

    class First:
        def reset(self):
            pass

        def act(self, obs, mask):
            seen.append(obs.copy())
            return int(np.flatnonzero(mask)[0])

    play_game(game_class("scallywags_v0")(2), [First(), First()], played[2], 1)
    env = make("scallywags_v0", raw=True, num_players=2)
    env.reset(seed=played[2])
    np.testing.assert_array_equal(seen[0], env.observe(env.agent_selection)["observation"])


def test_final_evaluation_seeds_are_disjoint_from_every_training_seed(tmp_path, monkeypatch):
    """Record every seed a tiny run uses (generators, torch, SB3's global numpy seed, the
    periodic evaluations' games) and the final evaluation's game and bot seeds."""
    import random

    import torch

    from plunder.training.evaluation import tournament as evaluate
    from plunder.training.selfplay import train as train_mod
    from plunder.training.evaluation import EVAL_SEED_FLOOR

    phase = ["training"]
    entropy = {"training": set(), "final": set()}      # ints every generator came from
    streams = {"training": set(), "final": set()}      # (entropy, spawn key) of each
    tournament = {"training": [], "final": []}         # games' and bots' seeds

    def note(seed, key=()):
        entropy[phase[0]].add(int(seed))
        streams[phase[0]].add((int(seed), tuple(key)))

    real_rng, real_np_seed = np.random.default_rng, np.random.seed
    real_torch_seed, real_random_seed = torch.manual_seed, random.seed

    def recording_rng(seed=None):
        if isinstance(seed, np.random.SeedSequence):
            note(seed.entropy, seed.spawn_key)
        elif not isinstance(seed, (np.random.Generator, np.random.BitGenerator)):
            assert seed is not None, "an unseeded generator"
            note(seed)
        return real_rng(seed)

    def recording(real):
        def seed_fn(seed=None, *args, **kwargs):
            if seed is not None:
                note(seed)
            return real(seed, *args, **kwargs)
        return seed_fn

    def recording_seeds(real):
        def fn(*args):
            value = real(*args)
            tournament[phase[0]].append(value)
            return value
        return fn

    real_final = train_mod.final_evaluation

    def final_phase(*args, **kwargs):
        phase[0] = "final"
        return real_final(*args, **kwargs)

    monkeypatch.setattr(np.random, "default_rng", recording_rng)
    monkeypatch.setattr(np.random, "seed", recording(real_np_seed))
    monkeypatch.setattr(torch, "manual_seed", recording(real_torch_seed))
    monkeypatch.setattr(random, "seed", recording(real_random_seed))
    monkeypatch.setattr(evaluate, "game_seed", recording_seeds(evaluate.game_seed))
    monkeypatch.setattr(evaluate, "bot_seed", recording_seeds(evaluate.bot_seed))
    monkeypatch.setattr(train_mod, "final_evaluation", final_phase)

    from conftest import TINY, set_args
    run = tmp_path / "run"
    tiny = [o for o in TINY if not o.startswith(("eval.", "pretrain."))]
    res = run_cli(["train", "scallywags", "--steps", "2048", "--run-dir", str(run),
                   "--seed", "3", *set_args(tiny + [
                       "eval.every=1024", "eval.games=4", "eval.final_games=6",
                       "eval.final_workers=1",   # in this process, where the seeds are seen
                       "pretrain.samples=200", "pretrain.epochs=1",
                       "pretrain.dagger_rounds=1"])])
    assert res.exit_code == 0, res.output
    assert phase == ["final"]
    trained, periodic = entropy["training"], set(tournament["training"])
    final = set(tournament["final"])
    # both opponents' tournaments deal the same 6 games (seed 3); 2 bots x 2 seats
    assert len(periodic) > 0 and len(final) == 6 + 4
    assert 3 in trained and max(trained - periodic) < EVAL_SEED_FLOOR
    assert not final & trained              # no seed of training, imitation or opponents
    assert not final & periodic             # nor of a periodic evaluation
    assert all(s >= EVAL_SEED_FLOOR for s in final)
    # the final games' generators are streams that training never created
    assert not {(s, ()) for s in final} & streams["training"]
    eval_ = json.loads((run / "eval.json").read_text())
    assert {r["seed"] for r in eval_["results"].values()} == {3}


def test_final_evaluation_in_worker_processes_matches_one_process(scallywags_run):
    """``eval.final_workers`` changes where the opponents' tournaments run, not their games."""
    from plunder.training.selfplay.config import load_config
    from plunder.training.selfplay.train import final_evaluation

    bot = scallywags_run / "bot.onnx"
    results = {}
    for workers in (1, 2):
        cfg = load_config("scallywags", str(scallywags_run / "config.yaml"),
                          [f"eval.final_workers={workers}"])
        results[workers] = {spec: t.to_dict() for spec, t in
                            final_evaluation(cfg, bot, 8).items()}
    assert list(results[1]) == ["random", "heuristic"]
    assert results[1] == results[2]


def test_printed_command_reproduces_the_final_evaluation_exactly(scallywags_run):
    """The training summary's ``plunder eval`` lines replay its numbers game for game."""
    import shlex

    import re

    output = (scallywags_run / "train-output.txt").read_text()
    results = json.loads((scallywags_run / "eval.json").read_text())["results"]
    joined = re.sub(r" \\\n\s*", " ", output)       # a command broken over lines, as pasted
    commands = [shlex.split(line) for line in joined.splitlines()
                if line.strip().startswith("plunder eval ")]
    assert sorted(commands) == sorted(shlex.split(r["command"]) for r in results.values())
    assert len(commands) == 2
    for row in results.values():
        args = shlex.split(row["command"])
        assert args[:2] == ["plunder", "eval"] and "--seed" in args and "--games" in args
        res = run_cli(args[1:] + ["--json"])
        assert res.exit_code == 0, res.output
        data = json.loads(res.output)
        bot, opp = data["bots"]
        assert bot["bot"] == f"trained:{scallywags_run / 'bot.onnx'}"
        assert (data["games"], data["seed"], data["truncated_games"]) == \
            (row["games"], row["seed"], row["truncated_games"])
        assert bot["win_share"] == row["win_share"] and bot["ci95"] == row["ci95"]
        assert bot["mean_score"] == row["mean_score"]
        assert opp["mean_score"] == row["opponent_mean_score"]
        assert [round(bot["rating_mu"], 2), round(opp["rating_mu"], 2)] == \
            pytest.approx(row["rating"], abs=0.011)


# -- every bot kind plays ---------------------------------------------------------------

def _listed_bots(help_text: str) -> list[str]:
    """The bot specs a ``--help`` text lists after 'each one of:'."""
    text = " ".join(help_text.split())
    return text.split("each one of: ", 1)[1].split(". ", 1)[0].split(", ")


@pytest.mark.parametrize("command", ["eval", "play"])
def test_help_lists_every_bot_kind(command):
    from plunder.policies.base import BOT_SPECS

    res = run_cli([command, "--help"])
    assert _listed_bots(res.output) == list(BOT_SPECS)


def test_every_bot_kind_the_help_lists_plays_a_tournament(scallywags_run):
    """Including the view-based search bots (``plunder eval`` gives them the view)."""
    path = scallywags_run / "bot.onnx"
    listed = _listed_bots(run_cli(["eval", "--help"]).output)
    assert {s.partition(":")[0].partition("[")[0] for s in listed} == \
        {"random", "heuristic", "planner", "search", "pretrained", "trained", "sampled",
         "netsearch", "level", "noisy"}
    for spec in listed:
        concrete = spec.replace("PATH.onnx", str(path)).replace("[:SAMPLES]", ":2") \
            .replace("[:early|final][:sampled]", ":early:sampled") \
            .replace("[:KEY=VALUE]", ":min_gain=0.05") \
            .replace("novice|casual|strong|expert", "novice") \
            .replace("SHARE:SPEC", "0.25:search:2")
        game = "anchors_aweigh" if spec == "planner" else "scallywags"   # its one game
        res = run_cli(["eval", game, "--bots", f"{concrete},random", "--games", "2",
                       "--json"])
        assert res.exit_code == 0, (spec, res.output)
        data = json.loads(res.output)
        assert data["bots"][0]["bot"] == concrete
        assert [b["seat_games"] for b in data["bots"]] == [2, 2]


@pytest.mark.parametrize("env_id, n, parity", [("shipshape_v0", 2, 1 / 3),
                                               ("shipshape_v0", 4, 1 / 4),
                                               ("shipshape_v0", 5, 1 / 6),
                                               ("scallywags_v0", 2, 1 / 2)])
def test_parity_counts_every_ranked_seat(env_id, n, parity):
    """ShipShape's Cap'n (with 2 or 5 players) is ranked too, so parity is one over the
    players plus one."""
    from plunder.training.evaluation import bot_factories, run_tournament

    t = run_tournament(env_id, n, bot_factories(["random"], env_id, n), games=1, rate=False)
    assert t.parity == pytest.approx(parity)
    assert t.to_dict()["parity"] == round(parity, 4)


def test_the_game_log_keeps_each_game_and_its_prefix_replays(tmp_path):
    """``--log-games``: a line per game as it ends; the first K lines are the tournament
    of ``--games K`` (bots keep their generators across games, so only whole prefixes
    replay)."""
    log = tmp_path / "games.jsonl"
    args = ["eval", "shipshape", "--bots", "random,heuristic", "--players", "3",
            "--seed", "5"]
    res = run_cli(args + ["--games", "6", "--log-games", str(log), "--json"])
    assert res.exit_code == 0, res.output
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert lines[0] == {"command": "plunder eval shipshape --bots random,heuristic "
                                  "--players 3 --games 6 --seed 5"}
    games = lines[1:]
    assert [g["game"] for g in games] == list(range(6))
    whole = json.loads(res.output)["bots"]
    assert [(s["bot"], s["win_share"], s["seat_games"]) for s in games[-1]["so_far"]] == [
        (b["bot"], b["win_share"], b["seat_games"]) for b in whole]
    prefix = run_cli(args + ["--games", "3", "--json"])
    assert [b["win_share"] for b in json.loads(prefix.output)["bots"]] == [
        s["win_share"] for s in games[2]["so_far"]]
    for g in games:      # winners are the seats with the best rank key
        best = max(map(tuple, g["rank_keys"]))
        assert g["winners"] == [s for s, k in enumerate(g["rank_keys"]) if tuple(k) == best]


def test_an_unwritable_game_log_is_a_clear_error(tmp_path):
    res = run_cli(["eval", "scallywags", "--bots", "random", "--games", "1",
                   "--log-games", str(tmp_path / "no" / "such" / "dir" / "g.jsonl")])
    assert res.exit_code != 0 and "cannot write the game log" in res.output
