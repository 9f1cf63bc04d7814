"""Training config loading and validation."""

from __future__ import annotations

from pathlib import Path

import pytest

from plunder.envs import ENV_IDS
from plunder.envs.core import ConfigError
from plunder.training.selfplay.config import (TrainConfig, _build, apply_overrides, config_from_dict,
                                     describe_config, load_config, parse_override)

CONFIG_DIR = Path(__file__).resolve().parents[2] / "configs" / "train"
GAMES = ("scallywags", "shipshape", "anchors_aweigh", "all_hands_battle", "all_hands_crew")


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_config_that_parses(game):
    import yaml

    data = yaml.safe_load((CONFIG_DIR / f"{game}.yaml").read_text())
    from plunder.training.selfplay.config import _fix_floats, resolve_player_settings
    for players in (2, 4):
        raw = resolve_player_settings(_fix_floats(data), [f"num_players={players}"], game)
        cfg = _build(TrainConfig, raw, "")
        assert cfg.game == f"{game}_v0"


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
