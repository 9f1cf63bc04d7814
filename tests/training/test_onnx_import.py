"""An exported bot's weights back in the trainer (``init_from``, exploit's warm start): the
loaded network computes the file's probabilities and values, keeps them through a saved
checkpoint, and a file that does not fit is one clear error."""

from __future__ import annotations

import io

import numpy as np
import pytest

from plunder.envs import game_class
from plunder.envs.core import ConfigError, ModelFileError
from plunder.policies.pretrained import pretrained_path
from plunder.training.selfplay.actors import actor_from_policy
from plunder.training.selfplay.config import load_config
from plunder.training.selfplay.onnx_import import (bot_policy_settings, load_bot_weights,
                                                   read_networks)

SMALL = ["n_envs=2", "vec_workers=1", "async_rollouts=false", "ppo.n_steps=8",
         "ppo.batch_size=16", "tensorboard=false", "progress_bar=false"]


def _model(env_id, n, path, extra=()):
    from plunder.training.selfplay.train import _make_model, make_pool, make_vec_env

    cfg = load_config(env_id, overrides=[f"num_players={n}", *SMALL, f"init_from={path}",
                                         *bot_policy_settings(path), *extra])
    vec = make_vec_env(cfg, make_pool(cfg), cfg.seed)
    try:
        return _make_model(cfg, vec, None)
    finally:
        vec.close()


def _observations(env_id, n, count=300):
    game = game_class(env_id)(n)
    rng = np.random.default_rng(4)
    obs, masks = [], []
    state = game.new_game(rng)
    while len(obs) < count:
        if state.is_terminal():
            state = game.new_game(rng)
        joint = {}
        for p in state.current_players():
            mask = state.legal_actions_mask(p)
            obs.append(game.encode(state.view(p)))
            masks.append(mask)
            joint[p] = int(rng.choice(np.flatnonzero(mask)))
        state.apply_joint(joint)
    return np.asarray(obs, np.float32), np.asarray(masks, np.int8)


def _onnx(path, obs, masks):
    import onnxruntime as ort

    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    names = [o.name for o in session.get_outputs()]
    return dict(zip(names, session.run(None, {"observation": obs, "action_mask": masks})))


# an entity network without fixed member features, one with them (a per-member bias in the
# file), an MLP early bot without a critic
@pytest.mark.parametrize("env_id, n, strength", [("shipshape_v0", 2, "final"),
                                                 ("anchors_aweigh_v0", 2, "final"),
                                                 ("all_hands_crew_v0", 2, "early")])
def test_the_loaded_network_computes_the_files_probabilities_and_values(env_id, n, strength):
    import torch

    path = pretrained_path(env_id, n, strength)
    model = _model(env_id, n, path)
    info = load_bot_weights(model, path)
    assert info["critic"] == (strength == "final") and info["sha256"]
    obs, masks = _observations(env_id, n)
    want = _onnx(path, obs, masks)
    probs = actor_from_policy(model.policy).probs(obs, masks)
    np.testing.assert_allclose(probs, want["action_probs"], atol=1e-5)
    assert (probs.argmax(1) == want["action"]).all()
    with torch.no_grad():       # the torch policy itself, not only its numpy copy
        dist = model.policy.get_distribution(torch.as_tensor(obs), action_masks=masks)
        assert (dist.get_actions(deterministic=True).numpy() == want["action"]).all()
        if "value" in want:
            values = model.policy.predict_values(torch.as_tensor(obs)).numpy().ravel()
            np.testing.assert_allclose(values, want["value"], atol=1e-5)
    # a checkpoint of the warm-started model loads back into the same network
    from plunder.training.selfplay.ppo import SelfPlayPPO

    buf = io.BytesIO()
    model.save(buf)
    buf.seek(0)
    again = SelfPlayPPO.load(buf, device="cpu")
    np.testing.assert_allclose(actor_from_policy(again.policy).probs(obs, masks), probs,
                               atol=1e-6)


def test_a_file_of_another_shape_is_a_clear_error():
    path = pretrained_path("shipshape_v0", 2)
    with pytest.raises(ModelFileError, match=r"actor layer 0: the file's weights are .* "
                                             r"\(another network shape\)"):
        load_bot_weights(_model("shipshape_v0", 2, path, ["policy.net_arch=[64, 64]"]), path)
    with pytest.raises(ModelFileError, match="holds an entity network; the run's is an MLP"):
        load_bot_weights(_model("shipshape_v0", 2, path, ["policy.kind=mlp",
                                                          "policy.entity_groups=[]"]), path)


def test_init_from_must_be_an_existing_bot_of_this_table(tmp_path):
    other = pretrained_path("scallywags_v0", 2)
    with pytest.raises(ConfigError, match=r"init_from: .* is a bot for 'scallywags_v0', not "
                                          r"for 'shipshape_v0'"):
        load_config("shipshape", overrides=[f"init_from={other}"])
    with pytest.raises(ConfigError, match=r"init_from: no such file"):
        load_config("shipshape", overrides=[f"init_from={tmp_path / 'gone.onnx'}"])
    with pytest.raises(ConfigError, match=r"init_from: .* trained for 2 players, not 4"):
        load_config("shipshape", overrides=["num_players=4",
                                            f"init_from={pretrained_path('shipshape_v0', 2)}"])
    recall_bot = pretrained_path("anchors_aweigh_v0", 2)    # trained with recall
    with pytest.raises(ConfigError, match=r"init_from: .* was trained with recall: True"):
        load_config("anchors_aweigh", overrides=[f"init_from={recall_bot}", "recall=false"])
    (tmp_path / "junk.onnx").write_bytes(b"not a model")
    with pytest.raises(ModelFileError, match="not a loadable ONNX model"):
        read_networks(tmp_path / "junk.onnx")
