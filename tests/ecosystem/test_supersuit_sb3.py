"""SuperSuit's vector envs over plunder's parallel envs, and SB3's PPO trained on them
(unmasked: it relies on the illegal-move penalty)."""

from __future__ import annotations

import numpy as np
import pettingzoo
import pytest

ss = pytest.importorskip("supersuit", reason="SuperSuit is in the 'ecosystem' extra")
sb3 = pytest.importorskip("stable_baselines3", reason="Stable-Baselines3 is in the 'train' extra")

from plunder.envs import ENV_IDS, game_class, pettingzoo_id  # noqa: E402

from .doc_examples import run_doc_example  # noqa: E402

SIMULTANEOUS_IDS = [e for e in ENV_IDS if game_class(e).simultaneous]


class _EndingsCallback(sb3.common.callbacks.BaseCallback):
    """Counts finished games (one slot per seat: a game counts once, on seat 0's slot)
    and those ended by an illegal move."""

    def __init__(self, num_players):
        super().__init__()
        self.num_players = num_players
        self.games = 0
        self.illegal = 0

    def _on_step(self) -> bool:
        dones, infos = self.locals["dones"], self.locals["infos"]
        for slot in range(0, len(dones), self.num_players):
            if dones[slot]:
                self.games += 1
                self.illegal += "illegal_action_by" in infos[slot]
        return True


@pytest.mark.parametrize("env_id", SIMULTANEOUS_IDS)
def test_sb3_ppo_over_supersuit_vector_env(env_id):
    env = pettingzoo.make("parallel", pettingzoo_id(env_id), num_players=3)
    vec = ss.pettingzoo_env_to_vec_env_v1(env)
    vec = ss.concat_vec_envs_v1(vec, 2, num_cpus=0, base_class="stable_baselines3")
    try:
        assert vec.num_envs == 2 * 3
        model = sb3.PPO("MultiInputPolicy", vec, n_steps=64, batch_size=96, n_epochs=1,
                        policy_kwargs={"net_arch": [32]})
        before = [p.detach().clone() for p in model.policy.parameters()]
        endings = _EndingsCallback(num_players=3)
        model.learn(total_timesteps=384, callback=endings)
    finally:
        vec.close()
    assert model.num_timesteps >= 384
    assert endings.games > 0 and endings.illegal > 0   # unmasked: the penalty ends games
    changed = [not np.allclose(b, p.detach()) for b, p in zip(before, model.policy.parameters())]
    assert any(changed)


def test_vector_env_in_worker_processes_matches_in_process():
    """concat_vec_envs_v1(num_cpus=2) copies the env into worker processes with
    cloudpickle; seeded alike, the workers play exactly what one process plays."""
    def run(num_cpus, seed=7):
        env = pettingzoo.make("parallel", "plunder/all_hands_crew-v0", num_players=2)
        vec = ss.concat_vec_envs_v1(ss.pettingzoo_env_to_vec_env_v1(env), 2,
                                    num_cpus=num_cpus, base_class="stable_baselines3")
        try:
            vec.venv.reset(seed=seed)
            rng = np.random.default_rng(0)
            frames = []
            for _ in range(60):
                obs, rewards, dones, _ = vec.step(rng.integers(0, vec.action_space.n,
                                                               size=vec.num_envs))
                frames.append((obs["observation"].copy(), rewards.copy(), dones.copy()))
            return frames
        finally:
            vec.close()

    in_process = run(0)
    for (o1, r1, d1), (o2, r2, d2) in zip(in_process, run(2), strict=True):
        np.testing.assert_array_equal(o1, o2)
        np.testing.assert_array_equal(r1, r2)
        np.testing.assert_array_equal(d1, d2)
    assert sum(d.sum() for _, _, d in in_process) > 0              # games ended and restarted
    assert any(not np.array_equal(a[0], b[0]) for a, b in zip(in_process, run(0, seed=8)))


def test_doc_example_supersuit():
    namespace = run_doc_example("supersuit")
    assert namespace["model"].num_timesteps >= 384
