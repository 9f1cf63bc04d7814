"""End-to-end training throughput: learner env-steps/s of MaskablePPO self-play.

``plunder speed`` calls :func:`bench_training` (4-player Scallywags, every opponent a
frozen snapshot of the learner, the game's default training config otherwise). The number
includes everything a real ``plunder train`` step costs: the games (stepped in a batch, in
the game's compiled engine where it is built: the line says which), the opponents' batched
forward passes, the learner's forward pass, rollout storage and the PPO updates (no
evaluation or checkpoints). ``python -m plunder.training.speed.trainer`` runs it alone.

With ``async_rollouts`` (every packaged config) the first rollout is collected before any
update can overlap it and the last update overlaps nothing; 60k steps (about 15 rollouts)
keep that start-up share small.
"""

from __future__ import annotations

import os
import time


def measure_training(env_id: str = "scallywags_v0", num_players: int = 4,
                     steps: int = 60_000, overrides: list[str] = (),
                     snapshots: int = 3) -> dict:
    """Train for ``steps`` learner steps against snapshot opponents; returns the rates."""
    import torch

    from plunder.training.selfplay.config import load_config
    from plunder.training.selfplay.selfplay_env import actor_from_policy, limit_numpy_threads
    from plunder.training.selfplay.train import _make_model, add_snapshot, make_pool, make_vec_env

    cfg = load_config(env_id, overrides=[f"num_players={num_players}",
                                         "league.weights={snapshots: 1.0}",
                                         "tensorboard=false", "progress_bar=false",
                                         *overrides])
    torch.set_num_threads(cfg.torch_threads)
    limit_numpy_threads(1)
    pool = make_pool(cfg)
    vec = make_vec_env(cfg, pool, cfg.seed)
    model = _make_model(cfg, vec, None)
    for k in range(snapshots):  # distinct snapshots, so batching spans several networks
        for p in model.policy.parameters():
            p.data.add_(torch.randn_like(p) * 0.01)
        add_snapshot(vec, pool, actor_from_policy(model.policy), k)
    rollout = cfg.ppo.n_steps * cfg.n_envs
    steps = max(rollout, steps - steps % rollout)
    import resource

    kids0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0, c0 = time.perf_counter(), time.process_time()
    model.learn(total_timesteps=steps, progress_bar=False)
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    vec.close()
    kids1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    kids = (kids1.ru_utime + kids1.ru_stime) - (kids0.ru_utime + kids0.ru_stime)
    kids += getattr(vec, "worker_cpu_seconds", 0.0)  # forkserver workers report their own
    try:
        load = round(os.getloadavg()[0], 2)
    except OSError:  # pragma: no cover
        load = float("nan")
    from plunder.envs import game_class
    from plunder.envs.core.batch import engine_module

    games = "compiled" if engine_module(game_class(env_id)) is not None else "python"
    return {"env_id": env_id, "num_players": num_players, "steps": int(model.num_timesteps),
            "games": games,
            "seconds": round(dt, 2), "steps_per_s": round(model.num_timesteps / dt, 1),
            "cpu_seconds": round(cpu, 2), "worker_cpu_seconds": round(kids, 2),
            "load_average": load,
            "steps_per_cpu_s": round(model.num_timesteps / max(cpu, 1e-9), 1),
            "n_envs": cfg.n_envs, "vec_env": cfg.vec_env, "vec_workers": cfg.vec_workers,
            "async_rollouts": cfg.async_rollouts, "torch_threads": cfg.torch_threads}


def bench_training(env_id: str = "scallywags_v0", num_players: int = 4,
                   steps: int = 60_000) -> str:
    """One line for ``plunder speed``: end-to-end learner env-steps/s."""
    r = measure_training(env_id, num_players, steps)
    total_cpu = r["cpu_seconds"] + r["worker_cpu_seconds"]
    mode = "async rollouts" if r["async_rollouts"] else "sync rollouts"
    return (f"training throughput ({r['env_id']}, {r['num_players']} players, snapshot "
            f"opponents, {r['n_envs']} envs, {r['vec_env']} vec env x{r['vec_workers']} "
            f"process(es), games in the {r['games']} engine, {mode}, MaskablePPO incl. "
            f"updates): {r['steps_per_s']:,.0f} learner "
            f"steps/s ({r['steps']:,} steps in {r['seconds']}s wall, load average "
            f"{r['load_average']}; {total_cpu:.1f} CPU-s in all processes)")


if __name__ == "__main__":  # pragma: no cover
    import sys

    print(bench_training(steps=int(sys.argv[1]) if len(sys.argv) > 1 else 60_000))
