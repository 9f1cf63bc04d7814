"""The ONNX bot: parity with the torch policy, metadata checks, torch-free loading."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile

import numpy as np
import pytest

from plunder.envs.core import ModelFileError
from plunder.policies.onnx_policy import OnnxPolicy, read_metadata
from plunder.training.selfplay.selfplay_env import OpponentPool, SelfPlayVecEnv, actor_from_policy
from plunder.training.selfplay.export import export_run, export_snapshot
from plunder.training.selfplay.train import latest_checkpoint, run_platform


def _observations(n_obs=1000, seed=0):
    """Learner observations and masks from real 2-player Scallywags games."""
    pool = OpponentPool("scallywags_v0", 2, weights={"random": 1.0})
    vec = SelfPlayVecEnv("scallywags_v0", 2, 8, pool, seed=seed)
    rng = np.random.default_rng(seed)
    obs, out_o, out_m = vec.reset(), [], []
    while sum(len(o) for o in out_o) < n_obs:
        masks = vec.action_masks()
        out_o.append(obs)
        out_m.append(masks)
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, *_ = vec.step(acts)
    return np.concatenate(out_o)[:n_obs], np.concatenate(out_m)[:n_obs]


@pytest.mark.parametrize("run", ["scallywags_run", "scallywags_mlp_run"])
def test_onnx_matches_torch_policy_on_1000_observations(run, request):
    run = request.getfixturevalue(run)  # the entity network (Scallywags' default), an MLP
    model = latest_checkpoint(run).load_model()
    bot = OnnxPolicy(run / "bot.onnx", env_id="scallywags_v0", num_players=2)
    obs, masks = _observations()
    torch_actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
    onnx_actions = bot.act_batch(obs, masks.astype(np.int8))
    assert len(obs) == 1000
    np.testing.assert_array_equal(onnx_actions, torch_actions)
    assert masks[np.arange(1000), onnx_actions].all()
    import torch

    with torch.no_grad():
        t_obs = torch.as_tensor(obs)
        dist = model.policy.get_distribution(t_obs, action_masks=masks)
        t_probs = dist.distribution.probs.numpy()
    np.testing.assert_allclose(bot.probs(obs, masks), t_probs, atol=1e-5)
    # the value output is the critic's
    with torch.no_grad():
        t_values = model.policy.predict_values(t_obs).numpy()[:, 0]
    probs, values = bot.evaluate(obs, masks)
    assert values.shape == (1000,) and np.ptp(values) > 0
    np.testing.assert_allclose(values, t_values, atol=1e-5)
    np.testing.assert_allclose(probs, t_probs, atol=1e-5)
    # the numpy snapshot copy agrees as well
    actor = actor_from_policy(model.policy)
    np.testing.assert_array_equal(actor.act_batch(obs, masks, greedy=True), torch_actions)


def test_metadata(scallywags_run):
    meta = read_metadata(scallywags_run / "bot.onnx")
    assert meta["env_id"] == "scallywags_v0" and meta["version"] == 0
    assert meta["format"] == "plunder-bot/2"
    assert meta["num_players"] == 2 and meta["options"] == {}
    assert meta["obs_size"] > 0 and meta["num_actions"] == 65
    assert meta["training_steps"] == 2048
    assert {"random", "heuristic"} <= set(meta["evaluation"])


def test_the_bot_records_the_platform_it_was_trained_on(scallywags_run, tmp_path):
    ckpt = latest_checkpoint(scallywags_run)
    assert ckpt.meta["platform"] == run_platform() and ckpt.meta["platform"]["torch"]
    assert read_metadata(scallywags_run / "bot.onnx")["platform"] == ckpt.meta["platform"]
    # exported later, as a bot or a snapshot, on whatever machine: the checkpoint's platform
    # (the checkpoint copied with only its metadata's platform changed)
    moved = tmp_path / "run" / "checkpoints" / ckpt.path.name
    moved.parent.mkdir(parents=True)
    with zipfile.ZipFile(ckpt.path) as src, zipfile.ZipFile(moved, "w") as dst:
        for name in src.namelist():
            data = src.read(name)
            if name == "meta.json":
                data = json.dumps(dict(ckpt.meta, platform={"processor": "X"})).encode()
            dst.writestr(name, data)
    for path in (export_run(tmp_path / "run", tmp_path / "again.onnx"),
                 export_snapshot(tmp_path / "run", tmp_path / "snapshot.onnx")):
        assert read_metadata(path)["platform"] == {"processor": "X"}


def _rewrite(src, dst, **changes):
    """Copy the bot at ``src`` to ``dst`` with changed metadata."""
    import onnx

    model = onnx.load(str(src))
    meta = json.loads({p.key: p.value for p in model.metadata_props}["plunder"])
    meta.update(changes)
    onnx.helper.set_model_props(model, {"plunder": json.dumps(meta, sort_keys=True)})
    dst.write_bytes(model.SerializeToString())
    return dst


def test_refuses_other_game_players_version_variant(scallywags_run, tmp_path, toy):
    src = scallywags_run / "bot.onnx"
    with pytest.raises(ModelFileError, match="not for 'toyrace_v0'"):
        OnnxPolicy(src, env_id=toy, num_players=2)
    with pytest.raises(ModelFileError, match="2 players, not 3"):
        OnnxPolicy(src, env_id="scallywags_v0", num_players=3)
    bad = _rewrite(src, tmp_path / "v.onnx", version=7)
    with pytest.raises(ModelFileError, match="version 7"):
        OnnxPolicy(bad, env_id="scallywags_v0", num_players=2)
    bad = _rewrite(src, tmp_path / "o.onnx", options={"something": True})
    with pytest.raises(ModelFileError, match="variant"):
        OnnxPolicy(bad, env_id="scallywags_v0", num_players=2)
    bad = _rewrite(src, tmp_path / "f.onnx", format="plunder-bot/9")
    with pytest.raises(ModelFileError, match="unsupported bot format"):
        OnnxPolicy(bad, env_id="scallywags_v0", num_players=2)
    bad = _rewrite(src, tmp_path / "s.onnx", obs_size=3)
    with pytest.raises(ModelFileError, match="layout changed"):
        OnnxPolicy(bad, env_id="scallywags_v0", num_players=2)
    bad = _rewrite(src, tmp_path / "r.onnx", recall=True)   # Scallywags hides nothing once seen
    with pytest.raises(ModelFileError, match="no perfect-recall variant"):
        OnnxPolicy(bad, env_id="scallywags_v0", num_players=2)


def test_refuses_damaged_and_foreign_files(scallywags_run, tmp_path):
    data = (scallywags_run / "bot.onnx").read_bytes()
    cut = tmp_path / "cut.onnx"
    cut.write_bytes(data[: len(data) // 3])
    with pytest.raises(ModelFileError, match="damaged"):
        OnnxPolicy(cut, env_id="scallywags_v0", num_players=2)
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not a model at all")
    with pytest.raises(ModelFileError):
        OnnxPolicy(junk, env_id="scallywags_v0", num_players=2)
    with pytest.raises(ModelFileError, match="no bot file"):
        OnnxPolicy(tmp_path / "missing.onnx", env_id="scallywags_v0", num_players=2)
    import onnx
    from onnx import helper

    model = onnx.load(str(scallywags_run / "bot.onnx"))
    del model.metadata_props[:]
    plain = tmp_path / "plain.onnx"
    plain.write_bytes(model.SerializeToString())
    with pytest.raises(ModelFileError, match="not a plunder bot"):
        OnnxPolicy(plain, env_id="scallywags_v0", num_players=2)
    helper.set_model_props(model, {"plunder": "{broken"})
    plain.write_bytes(model.SerializeToString())
    with pytest.raises(ModelFileError, match="metadata is damaged"):
        OnnxPolicy(plain, env_id="scallywags_v0", num_players=2)


def test_onnx_policy_does_not_import_torch(scallywags_run):
    code = f"""
import sys
import numpy as np
from plunder.policies.base import make_bot
from plunder.envs import make
bot = make_bot("trained:{scallywags_run / 'bot.onnx'}", "scallywags_v0", 2, seed=0)
env = make("scallywags_v0", num_players=2)
env.reset(seed=0)
obs, *_ = env.last()
a = bot.act(obs["observation"], obs["action_mask"])
assert obs["action_mask"][a] == 1
banned = ("torch", "stable_baselines3", "sb3_contrib", "plunder.training")
bad = sorted(m for m in sys.modules if any(m == b or m.startswith(b + ".") for b in banned))
assert not bad, bad
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_sampled_bot_draws_from_the_masked_probabilities(scallywags_run):
    from plunder.policies.base import make_bot

    path = scallywags_run / "bot.onnx"
    obs, masks = _observations(200, seed=3)
    greedy = make_bot(f"trained:{path}", "scallywags_v0", 2, seed=0)
    probs = greedy.probs(obs, masks)
    assert np.array_equal(greedy.act_batch(obs, masks), probs.argmax(axis=1))
    first = make_bot(f"sampled:{path}", "scallywags_v0", 2, seed=7)
    again = make_bot(f"sampled:{path}", "scallywags_v0", 2, seed=7)
    drawn = first.act_batch(obs, masks)
    assert np.array_equal(drawn, again.act_batch(obs, masks))          # seeded
    assert masks[np.arange(len(drawn)), drawn].all()                   # legal
    # one observation drawn 4,000 times: the frequencies follow its probabilities
    row = int(np.argmax(-np.sort(probs, axis=1)[:, -1]))                # the flattest one
    counts = np.bincount(first.act_batch(np.repeat(obs[row:row + 1], 4000, axis=0),
                                         np.repeat(masks[row:row + 1], 4000, axis=0)),
                         minlength=probs.shape[1])
    assert np.abs(counts / 4000 - probs[row]).max() < 0.03
    assert (counts[probs[row] == 0] == 0).all()
