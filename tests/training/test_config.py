"""Training config loading and validation."""

from __future__ import annotations

from pathlib import Path

import pytest

from plunder.envs import ENV_IDS
from plunder.envs.core import ConfigError
from plunder.training.selfplay.config import (apply_overrides, check_device, config_from_dict,
                                              describe_config, load_config, parse_override,
                                              resolve_device)
from plunder.training.selfplay.train import default_run_dir

CONFIG_DIR = Path(__file__).resolve().parents[2] / "configs" / "train"
GAMES = ("scallywags", "shipshape", "anchors_aweigh", "all_hands_battle", "all_hands_crew")


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_config_for_every_player_count_and_its_variants(game):
    from plunder.envs import game_class
    from plunder.training.selfplay.cells import config_cells

    cells = config_cells(game)
    cls = game_class(f"{game}_v0")
    assert [c.num_players for c in cells if not c.variant] == \
        list(range(cls.min_players, cls.max_players + 1))
    for cell in cells:
        cfg = cell.config()
        assert (cfg.game, cfg.num_players, cfg.variant) == (f"{game}_v0", cell.num_players,
                                                            cell.variant)
        assert cfg.device == "cpu"      # the shipped bots are trained on the CPU
        assert bool(cell.variant) == (cls.check_options(cfg.options) != cls.check_options({}))
        assert cell.run_dir() == default_run_dir(cfg)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_registered_games_load_fully_validated(env_id):
    cfg = load_config(env_id)
    assert cfg.env_id == env_id and cfg.ppo.learning_rate > 0


def test_short_name_and_overrides():
    cfg = load_config("scallywags", overrides=["ppo.learning_rate=1e-3", "num_players=4",
                                               "league.weights={random: 1, snapshots: 3}",
                                               "policy.net_arch=[64, 64]"])
    assert cfg.ppo.learning_rate == 1e-3 and isinstance(cfg.ppo.learning_rate, float)
    assert cfg.num_players == 4 and cfg.league.weights == {"random": 1.0, "snapshots": 3.0}
    assert cfg.policy.net_arch == [64, 64]


@pytest.mark.parametrize("data, match", [
    ({"learning_rate": 1e-3}, r"unknown key\(s\) \['learning_rate'\]"),
    ({"ppo": {"n_epoch": 4}}, r"ppo: unknown key\(s\) \['n_epoch'\]"),
    ({"ppo": {"n_epochs": "four"}}, r"ppo.n_epochs: expected an int"),
    ({"ppo": {"n_epochs": 2.5}}, r"ppo.n_epochs: expected an int"),
    ({"n_envs": True}, r"n_envs: expected an int"),
    ({"progress_bar": "yes"}, r"progress_bar: expected true or false"),
    ({"vec_env": "threads"}, r"vec_env: 'threads' is not one of"),
    ({"n_envs": 0}, r"n_envs: 0 is below the minimum 1"),
    ({"n_envs": 10**20}, r"n_envs: 100000000000000000000 is above the maximum 4096"),
    ({"ppo": {"n_epochs": 2**40}}, r"ppo.n_epochs: 1099511627776 is above the maximum"),
    ({"total_timesteps": 10**13}, r"total_timesteps: 10000000000000 is above the maximum"),
    ({"ppo": {"learning_rate": float("nan")}}, r"ppo.learning_rate: expected a finite"),
    ({"ppo": {"ent_coef": float("inf")}}, r"ppo.ent_coef: expected a finite"),
    ({"ppo": {"vf_coef": 10**400}}, r"ppo.vf_coef: expected a finite"),
    ({"ppo": {"gamma": 1.5}}, r"ppo.gamma: 1.5 is above the maximum"),
    ({"policy": {"net_arch": [64, "x"]}}, r"policy.net_arch\[1\]: expected an int"),
    ({"policy": 3}, r"policy: expected a mapping"),
    ({"policy": {"net_arch": [0, -5]}}, r"policy.net_arch\[0\]: 0 is below the minimum 1"),
    ({"policy": {"net_arch": [64, -5]}}, r"policy.net_arch\[1\]: -5 is below the minimum 1"),
    ({"policy": {"net_arch": []}}, r"policy.net_arch: needs at least 1 entries"),
    ({"league": {"onnx_opponents": ["no/such/bot.onnx"]}},
     r"league.onnx_opponents\[0\]: no such file 'no/such/bot.onnx'"),
    ({"game": "nosuchgame_v0"}, r"unknown game 'nosuchgame_v0'"),
    ({"num_players": 9}, r"num_players: scallywags_v0 supports 2-6 players"),
    ({"options": {"nope": 1}}, r"options: unknown option"),
    ({"league": {"weights": {"bots": 1.0}}}, r"unknown opponent kind"),
    ({"league": {"weights": {"random": 0.0}}}, r"positive weight"),
    ({"eval": {"opponents": ["alphazero"]}}, r"unknown bot 'alphazero'"),
    ({"ppo": {"batch_size": 99999}}, r"batch_size \(99999\) is larger than a rollout"),
    ({"async_rollouts": True}, r"async_rollouts needs vec_env: batched with vec_workers >= 2"),
    ({"vec_env": "dummy", "ppo": {"truncation_reward": -1}},
     r"ppo.truncation_reward needs vec_env: batched"),
    ({"ppo": {"truncation_reward": "lose"}}, r"ppo.truncation_reward: expected a number"),
    ({"async_rollouts": True, "vec_workers": 2, "vec_env": "dummy"},
     r"async_rollouts needs .* \(got vec_env: dummy"),
])
def test_bad_configs_raise_clear_errors(data, match):
    with pytest.raises(ConfigError, match=match):
        config_from_dict(data)


def test_bad_override_and_file_errors(tmp_path):
    with pytest.raises(ConfigError, match="KEY=VALUE"):
        parse_override("ppo.learning_rate")
    with pytest.raises(ConfigError, match="unknown key"):
        load_config("scallywags", overrides=["ppo.lr=1"])
    with pytest.raises(ConfigError, match="not a section"):
        apply_overrides({"seed": 1}, ["seed.x=2"])
    bad = tmp_path / "c.yaml"
    bad.write_text("ppo: [1, 2\n")
    with pytest.raises(ConfigError, match="invalid YAML"):
        load_config("scallywags", bad)
    other = tmp_path / "o.yaml"
    other.write_text("game: nosuch_v0\n")
    with pytest.raises(ConfigError, match="unknown game"):
        load_config("scallywags", other)
    with pytest.raises(ConfigError, match="cannot read"):
        load_config("scallywags", tmp_path / "missing.yaml")


def test_describe_config_lists_every_key():
    text = describe_config()
    for key in ("`seed`", "`ppo.learning_rate`", "`league.weights`", "`eval.final_games`",
                "`policy.net_arch`", "`vec_env`"):
        assert key in text


def test_settings_by_player_count(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("game: scallywags\ntotal_timesteps: 1000\nppo: {n_epochs: 3}\n"
                    "by_players:\n  4: {total_timesteps: 500, ppo: {ent_coef: 0.02}}\n"
                    "  3: {seed: 7}\n")
    two = load_config("scallywags", path)
    assert (two.total_timesteps, two.seed, two.ppo.ent_coef) == (1000, 0, 0.01)
    four = load_config("scallywags", path, ["num_players=4"])
    assert (four.total_timesteps, four.ppo.n_epochs, four.ppo.ent_coef) == (500, 3, 0.02)
    assert load_config("scallywags", path, ["num_players=3"]).seed == 7
    # the command line wins over the file's per-count settings
    assert load_config("scallywags", path, ["num_players=4", "total_timesteps=64"]) \
        .total_timesteps == 64
    # the resolved config has no by_players key (a run's saved config stands alone)
    assert "by_players" not in four.to_dict()


@pytest.mark.parametrize("table, match", [
    ("[4, 250000]", r"by_players: expected a mapping from player counts"),
    ("{four: {seed: 1}}", r"by_players.four: a player count must be an int"),
    ("{4: 250000}", r"by_players.4: expected a mapping of settings"),
    ("{4: {num_players: 2}}", r"by_players.4: may not set num_players"),
    ("{5: {ppo: {n_epoch: 2}}}", r"by_players.5: .*unknown key\(s\) \['n_epoch'\]"),
])
def test_bad_settings_by_player_count_are_refused_even_when_unused(tmp_path, table, match):
    path = tmp_path / "c.yaml"
    path.write_text(f"game: scallywags\nby_players: {table}\n")
    with pytest.raises(ConfigError, match=match):
        load_config("scallywags", path)


def test_empty_config_file_is_an_error(tmp_path):
    path = tmp_path / "empty.yaml"
    path.write_text("# nothing but a comment\n")
    with pytest.raises(ConfigError, match="empty"):
        load_config("scallywags", path)


def test_onnx_opponent_of_another_game_fails_on_load(scallywags_run, tmp_path):
    """An exported bot for another game is refused when the config loads, before any
    warm start or training."""
    bot = scallywags_run / "bot.onnx"
    with pytest.raises(ConfigError, match=r"onnx_opponents\[0\]: .*not for"):
        config_from_dict({"game": "shipshape", "league": {"onnx_opponents": [str(bot)]}})
    with pytest.raises(ConfigError, match=r"onnx_opponents\[0\]: .*3 players|players"):
        config_from_dict({"game": "scallywags", "num_players": 3,
                          "league": {"onnx_opponents": [str(bot)]}})
    cfg = config_from_dict({"game": "scallywags", "league": {"onnx_opponents": [str(bot)]}})
    assert cfg.league.onnx_opponents == [str(bot)]


def test_docs_schema_table_is_describe_config():
    """docs/training.md's config reference is describe_config()'s: the docs site's hook
    (docs/hooks.py) renders it there when the site builds, so it cannot go stale."""
    text = (CONFIG_DIR.parents[1] / "docs" / "training.md").read_text()
    assert "<!-- config-reference -->" in text
    assert describe_config().startswith("| key | default | meaning |")


def test_a_planner_teacher_needs_a_game_with_a_planner():
    cfg = config_from_dict({"game": "anchors_aweigh", "pretrain": {"teacher": "planner"}})
    assert cfg.pretrain.teacher == "planner"
    with pytest.raises(ConfigError, match="pretrain.teacher: scallywags_v0 has no planner"):
        config_from_dict({"game": "scallywags", "pretrain": {"teacher": "planner"}})
    with pytest.raises(ConfigError, match="teacher"):
        config_from_dict({"game": "anchors_aweigh", "pretrain": {"teacher": "search"}})


@pytest.mark.parametrize("device", ["auto", "cpu", "cuda", "cuda:0", "cuda:12"])
def test_devices_a_config_may_name(device):
    assert load_config("scallywags", overrides=[f"device={device}"]).device == device
    assert check_device(device) == device


@pytest.mark.parametrize("device", ["gpu", "CUDA", "cuda:", "cuda:x", "cuda:-1", "mps", "",
                                    "cpu:0", "cuda:١"])
def test_any_other_device_is_a_config_error(device):
    with pytest.raises(ConfigError, match=r"device: .* is not a device; use auto \(CUDA when "
                                          r"torch sees a GPU, else the CPU\), cpu, cuda or "
                                          r"cuda:N"):
        load_config("scallywags", overrides=[f"device={device!r}"])


def test_auto_picks_cuda_only_when_torch_sees_one_and_a_missing_gpu_is_an_error():
    import torch

    if torch.cuda.is_available():   # the GPU machine: auto trains there
        assert resolve_device("auto") == "cuda"
        count = torch.cuda.device_count()
        assert resolve_device(f"cuda:{count - 1}") == f"cuda:{count - 1}"
        with pytest.raises(ConfigError, match=f"torch sees {count} CUDA device"):
            resolve_device(f"cuda:{count}")
        return
    assert resolve_device("auto") == "cpu" and resolve_device("cpu") == "cpu"
    for device in ("cuda", "cuda:0"):
        with pytest.raises(ConfigError, match=r"torch sees no CUDA device .* use device: "
                                              r"auto or cpu"):
            resolve_device(device)


def test_a_run_trains_its_network_on_the_resolved_device():
    import torch

    from plunder.training.selfplay.train import _make_model, make_pool, make_vec_env

    cfg = load_config("scallywags", overrides=["device=auto", "n_envs=2", "vec_workers=1",
                                               "async_rollouts=false", "ppo.n_steps=8",
                                               "ppo.batch_size=16", "tensorboard=false"])
    vec = make_vec_env(cfg, make_pool(cfg), cfg.seed)
    try:
        model = _make_model(cfg, vec, None)
    finally:
        vec.close()
    expected = "cuda" if torch.cuda.is_available() else "cpu"
    assert model.device.type == expected
    assert {p.device.type for p in model.policy.parameters()} == {expected}


def test_named_variants_merge_their_settings_and_the_player_count_wins(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("game: all_hands_battle\ntotal_timesteps: 1000\n"
                    "by_players:\n  4: {total_timesteps: 500}\n"
                    "variants:\n  prize_crew:\n    players: [2, 4]\n"
                    "    options: {prize_crew: true}\n    seed: 3\n"
                    "    by_players: {4: {ppo: {n_epochs: 2}}}\n")
    plain = load_config("all_hands_battle", path)
    assert (plain.variant, plain.options, plain.seed) == ("", {}, 0)
    two = load_config("all_hands_battle", path, ["variant=prize_crew"])
    assert (two.variant, two.options, two.seed, two.total_timesteps) == \
        ("prize_crew", {"prize_crew": True}, 3, 1000)
    four = load_config("all_hands_battle", path, ["variant=prize_crew", "num_players=4"])
    assert (four.total_timesteps, four.ppo.n_epochs, four.seed) == (500, 2, 3)
    assert "variants" not in four.to_dict()
    assert default_run_dir(four).name == "all_hands_battle-4p-prize_crew"
    with pytest.raises(ConfigError, match=r"variant: no variant 'nope' in the config's "
                                          r"variants; it names: prize_crew"):
        load_config("all_hands_battle", path, ["variant=nope"])


@pytest.mark.parametrize("table, match", [
    ("[prize_crew]", r"variants: expected a mapping from variant names"),
    ("{Prize: {players: [2], options: {prize_crew: true}}}", r"variants.Prize: a variant name"),
    ("{pc: {players: [2]}}", r"variants.pc: expected a mapping with players and options"),
    ("{pc: {options: {prize_crew: true}}}", r"variants.pc.players: expected a list"),
    ("{pc: {players: [2, 2], options: {prize_crew: true}}}", r"variants.pc.players"),
    ("{pc: {players: [2], options: {prize_crew: true}, num_players: 3}}",
     r"variants.pc: may not set num_players"),
    ("{pc: {players: [7], options: {prize_crew: true}}}",
     r"variants.pc \(7 players\): num_players: all_hands_battle_v0 supports 2-5"),
    ("{pc: {players: [2], options: {prize_krew: true}}}",
     r"variants.pc \(2 players\): options: unknown option"),
    ("{pc: {players: [2], options: {prize_crew: false}}}",
     r"variants.pc \(2 players\): variant 'pc' plays the game's default rules"),
    ("{pc: {players: [2], options: {prize_crew: true}, ppo: {n_epoch: 1}}}",
     r"variants.pc \(2 players\): ppo: unknown key"),
])
def test_bad_variants_are_refused_even_when_unused(tmp_path, table, match):
    path = tmp_path / "c.yaml"
    path.write_text(f"game: all_hands_battle\nvariants: {table}\n")
    with pytest.raises(ConfigError, match=match):
        load_config("all_hands_battle", path)
