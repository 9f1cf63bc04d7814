"""The shipped pretrained bots: every game at 2 and 4 players, early and final, the manifest,
and clear errors for what is not shipped."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from plunder.envs import ENV_IDS, game_class
from plunder.envs.core import InvalidArgumentError, ModelFileError
from plunder.policies import make_bot
from plunder.policies.onnx_policy import read_metadata
from plunder.policies.pretrained import (PRETRAINED_DIR, STRENGTHS, load_manifest,
                                         pretrained_path, shipped)

pytest.importorskip("onnxruntime")

CELLS = [(e, n) for e in ENV_IDS for n in (2, 4)]
MANIFEST_KEYS = {"env_id", "game", "game_version", "num_players", "options", "strength",
                 "config_file", "config_overrides", "train_command", "training_steps",
                 "snapshot_step", "git_commit", "sha256", "size_bytes", "evaluation",
                 "placeholder", "format", "file", "source_run", "shipped_at"}


def test_every_game_ships_both_counts_and_strengths():
    assert set(shipped()) >= {(e, n, s) for e, n in CELLS for s in STRENGTHS}


def test_every_shipped_bot_is_a_table_the_training_configs_name():
    from plunder.policies.pretrained import shipped_variants
    from plunder.training.selfplay.cells import all_cells

    tables = {(c.env_id, c.num_players, c.variant) for c in all_cells()}
    strengths: dict[tuple, set] = {}
    for env_id, n, variant, strength in shipped_variants():
        assert (env_id, n, variant) in tables, (env_id, n, variant)
        strengths.setdefault((env_id, n, variant), set()).add(strength)
    assert all("final" in s for s in strengths.values())    # an early bot only beside one


@pytest.mark.parametrize("env_id, n", CELLS)
def test_pretrained_bots_load_and_play_legal_moves(env_id, n):
    game = game_class(env_id)(n)
    state = game.new_game(np.random.default_rng(3))
    bots = {s: make_bot(f"pretrained:{s}", env_id, n, seed=1) for s in STRENGTHS}
    assert make_bot("pretrained", env_id, n).path == bots["final"].path
    for p in state.current_players():
        obs, mask = game.encode(state.view(p)), state.legal_actions_mask(p)
        for bot in bots.values():
            assert mask[bot.act(obs, mask)]
    assert bots["final"].has_value and not bots["early"].has_value


@pytest.mark.parametrize("env_id, n", CELLS)
def test_manifest_entries_match_their_files(env_id, n):
    entries = load_manifest()["bots"]
    for strength in STRENGTHS:
        path = pretrained_path(env_id, n, strength, verify=True)
        e = entries[path.name]
        assert MANIFEST_KEYS <= set(e)
        assert (e["env_id"], e["num_players"], e["strength"]) == (env_id, n, strength)
        assert e["size_bytes"] == path.stat().st_size
        meta = read_metadata(path)
        assert meta["format"] == e["format"]
        if strength == "early":
            assert meta["snapshot_step"] == e["snapshot_step"] <= e["training_steps"]
        assert e["train_command"].startswith(f"plunder train {env_id.rsplit('_v', 1)[0]} "
                                             f"--players {n}")


def test_a_player_count_or_strength_not_shipped_is_a_clear_error():
    with pytest.raises(InvalidArgumentError,
                       match=r"no pretrained final bot for scallywags_v0 with 3 players; "
                             r"shipped for scallywags_v0: 2p, 4p"):
        make_bot("pretrained", "scallywags_v0", 3)
    with pytest.raises(InvalidArgumentError, match="names no strength"):
        make_bot("pretrained:best", "scallywags_v0", 2)


def test_a_damaged_file_fails_the_sha256_check(tmp_path):
    import shutil

    for f in PRETRAINED_DIR.iterdir():
        if f.name.startswith("shipshape_2p") or f.name == "manifest.json":
            shutil.copy(f, tmp_path / f.name)
    target = tmp_path / "shipshape_2p_final.onnx"
    target.write_bytes(target.read_bytes()[:-1] + b"\0")
    with pytest.raises(ModelFileError, match="does not match the manifest"):
        pretrained_path("shipshape_v0", 2, "final", folder=tmp_path, verify=True)
    pretrained_path("shipshape_v0", 2, "early", folder=tmp_path, verify=True)


def test_play_eval_and_netsearch_accept_pretrained_bots():
    from plunder.training.evaluation import bot_factories, run_tournament

    specs = ["pretrained:final", "pretrained:early:sampled", "netsearch:pretrained:2"]
    t = run_tournament("shipshape_v0", 2, bot_factories(specs, "shipshape_v0", 2), 6,
                       seed=1)
    assert [b.seat_games for b in t.bots] == [4, 4, 4]
    with pytest.raises(ModelFileError, match="no value output"):
        bot = make_bot("pretrained:early", "shipshape_v0", 2)
        bot.evaluate(np.zeros((1, bot.meta["obs_size"]), np.float32),
                     np.ones((1, bot.meta["num_actions"]), np.int8))


def test_manifest_is_valid_json_with_its_format():
    data = json.loads((PRETRAINED_DIR / "manifest.json").read_text())
    assert data["format"] == "plunder-pretrained/1"
    for name, e in data["bots"].items():
        assert hashlib.sha256((PRETRAINED_DIR / name).read_bytes()).hexdigest() == e["sha256"]
