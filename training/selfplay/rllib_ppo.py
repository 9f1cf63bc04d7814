"""Train any plunder game with RLlib's PPO (new API stack) and action masking.

Every seat shares one policy (parameter sharing: the policy plays against itself). The
policy is RLlib's own action-masking module,
``ray.rllib.examples.rl_modules.classes.action_masking_rlm.ActionMaskingTorchRLModule``:
it reads the observation vector under ``observations`` and the legal moves under
``action_mask`` (the envs are made with ``observation_key="observations"``) and never
samples an illegal move. Each finished game reports ``illegal_action_endings`` (games
ended by an illegal move: 0 when masking works) and ``truncated_games`` among the
env-runner metrics; :func:`game_metrics` counts them per iteration (0 in an iteration
where no game ended, which RLlib reports as NaN).

    python -m plunder.training.selfplay.rllib_ppo --game scallywags --iterations 2
    python -m plunder.training.selfplay.rllib_ppo --game shipshape --form parallel --players 4
    # on a running Ray cluster (plunder installed on every node, see docs/ecosystem.md)
    python -m plunder.training.selfplay.rllib_ppo --game scallywags --address auto \\
        --num-env-runners 16 --train-batch-size 16000 --iterations 500 --checkpoint ckpt/

Forms: ``aec`` (default, every game) wraps ``pettingzoo.make("aec", ...)`` in RLlib's
``PettingZooEnv``: only the agent asked to act gets an observation. ``parallel``
(simultaneous games) wraps ``pettingzoo.make("parallel", ...)`` in
``ParallelPettingZooEnv``: every agent gets an observation each step, so the env is made
with ``wait_action=True`` and an agent that is not asked to act can only "wait".

Needs the ``rllib`` extra. ray[rllib] pins its own gymnasium version, so install it in a
virtualenv of its own (docs/ecosystem.md).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from typing import Any

ENV_NAME = "plunder"
POLICY_ID = "shared"
FORMS = ("aec", "parallel")


def env_id_of(game: str) -> str:
    """The env id of ``game``: 'scallywags' and 'scallywags_v0' both name scallywags_v0."""
    from plunder.training.games import resolve_env_id

    return resolve_env_id(game)


def make_rllib_env(env_config: dict[str, Any]):
    """An RLlib MultiAgentEnv over a plunder game (the creator given to ``register_env``).

    ``env_config`` holds ``game`` (e.g. "scallywags"), ``form`` ("aec" or "parallel",
    default "aec"), and any keyword of the plunder env (``num_players``, ``max_turns``,
    ``reward_mode``, variant options). Envs come from PettingZoo's registry, as any
    PettingZoo env would.
    """
    import pettingzoo
    from ray.rllib.env.wrappers.pettingzoo_env import ParallelPettingZooEnv, PettingZooEnv

    from plunder.envs import game_class, pettingzoo_id
    from plunder.envs.core import InvalidArgumentError

    kwargs = dict(env_config)
    env_id = env_id_of(kwargs.pop("game"))
    form = kwargs.pop("form", "aec")
    kwargs["observation_key"] = "observations"
    if form == "aec":
        return PettingZooEnv(pettingzoo.make("aec", pettingzoo_id(env_id), **kwargs))
    if form == "parallel":
        if not game_class(env_id).simultaneous:
            raise InvalidArgumentError(f"{env_id} is turn-based: use form 'aec'")
        kwargs["wait_action"] = True
        return ParallelPettingZooEnv(pettingzoo.make("parallel", pettingzoo_id(env_id),
                                                     **kwargs))
    raise InvalidArgumentError(f"form must be one of {FORMS}, got {form!r}")


def _metrics_callback_class():
    """RLlib callback class that counts games ended by an illegal move or truncated."""
    from ray.rllib.callbacks.callbacks import RLlibCallback

    class PlunderGameMetrics(RLlibCallback):
        """Per finished game: 1 if an illegal move ended it, 1 if it hit max_turns."""

        def on_episode_end(self, *, episode, metrics_logger=None, **kwargs):
            """Log illegal_action_endings and truncated_games for this game."""
            infos = episode.get_infos(indices=-1, env_steps=False)
            illegal = any("illegal_action_by" in info for info in infos.values())
            metrics_logger.log_value("illegal_action_endings", int(illegal), reduce="sum")
            metrics_logger.log_value("truncated_games", int(episode.is_truncated),
                                     reduce="sum")

    return PlunderGameMetrics


def build_config(game: str, *, num_players: int = 2, form: str = "aec",
                 num_env_runners: int = 0, train_batch_size: int = 4000,
                 minibatch_size: int = 128, num_epochs: int = 10,
                 hidden: tuple[int, ...] = (256, 256), lr: float = 3e-4,
                 seed: int | None = None, env_options: dict | None = None):
    """A PPOConfig that trains ``game`` with one masked policy shared by every seat."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )
    from ray.tune.registry import register_env

    register_env(ENV_NAME, make_rllib_env)
    env_config = {"game": env_id_of(game), "form": form, "num_players": num_players,
                  **(env_options or {})}
    config = (
        PPOConfig()
        .environment(ENV_NAME, env_config=env_config)
        .env_runners(num_env_runners=num_env_runners)
        .multi_agent(policies={POLICY_ID}, policy_mapping_fn=_shared_policy)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            POLICY_ID: RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                                    model_config={"fcnet_hiddens": list(hidden),
                                                  "head_fcnet_hiddens": [hidden[-1]]}),
        }))
        .training(train_batch_size_per_learner=train_batch_size,
                  minibatch_size=minibatch_size, num_epochs=num_epochs, lr=lr)
        .callbacks(_metrics_callback_class())
        .debugging(seed=seed)
    )
    return config


def _shared_policy(agent_id, episode, **kwargs) -> str:
    """Every seat plays the shared policy."""
    return POLICY_ID


def _per_game_count(runners: dict, key: str, games_ended: int) -> int:
    """A count the callback logs once per finished game, summed over this iteration.

    RLlib reduces a metric that nobody logged in an iteration to NaN: when no game ended,
    that is a true 0. A missing count while games did end means the callback did not run,
    and that raises rather than reading as "no illegal endings".
    """
    value = runners.get(key, math.nan)
    if value == value:                              # not NaN
        return int(value)
    if games_ended == 0:
        return 0
    raise RuntimeError(f"RLlib reported no {key!r} for {games_ended} finished game(s): "
                       "is the PlunderGameMetrics callback set (build_config sets it)?")


def game_metrics(result: dict) -> dict[str, float]:
    """The numbers worth printing from one ``algo.train()`` result.

    ``games_ended``, ``illegal_action_endings`` and ``truncated_games`` count this
    iteration's finished games (0 in an iteration where no game ended; long games such
    as 3-player Anchors Aweigh! take about as many env steps as a small batch);
    ``games`` counts every game since the start.
    """
    runners = result.get("env_runners", {})
    learner = result.get("learners", {}).get(POLICY_ID, {})
    ended = runners.get("num_episodes", 0)
    games_ended = int(ended) if ended == ended else 0      # NaN when no game ended
    return {
        "env_steps": runners.get("num_env_steps_sampled_lifetime", 0),
        "games": runners.get("num_episodes_lifetime", 0),
        "games_ended": games_ended,
        "illegal_action_endings": _per_game_count(runners, "illegal_action_endings",
                                                  games_ended),
        "truncated_games": _per_game_count(runners, "truncated_games", games_ended),
        "mean_game_length": runners.get("episode_len_mean", float("nan")),
        "trained_steps": learner.get("num_module_steps_trained_lifetime", 0),
    }


def train(config, iterations: int, checkpoint: str | None = None,
          log=print) -> list[dict[str, float]]:
    """Build the algorithm, train ``iterations`` times, save to ``checkpoint`` if given;
    returns :func:`game_metrics` of every iteration."""
    algo = config.build_algo()
    history = []
    try:
        for i in range(iterations):
            metrics = game_metrics(algo.train())
            history.append(metrics)
            log(f"iteration {i + 1}/{iterations}: " +
                ", ".join(f"{k} {v:g}" for k, v in metrics.items()))
        if checkpoint:
            path = algo.save_to_path(os.path.abspath(checkpoint))
            log(f"checkpoint saved to {path}")
    finally:
        algo.stop()
    return history


class RLlibPolicy:
    """A trained policy from a checkpoint of :func:`train`, as a plunder bot:
    ``act(observation, action_mask)`` plays the likeliest legal move."""

    name = "rllib"

    def __init__(self, module):
        self.module = module

    @classmethod
    def from_checkpoint(cls, checkpoint: str, policy_id: str = POLICY_ID) -> RLlibPolicy:
        """Load the shared policy saved by ``train(..., checkpoint=DIR)``."""
        from pathlib import Path

        from ray.rllib.core.rl_module.rl_module import RLModule

        path = Path(checkpoint).resolve() / "learner_group" / "learner" / "rl_module" / policy_id
        if not path.is_dir():
            raise FileNotFoundError(f"no policy {policy_id!r} in checkpoint {checkpoint}")
        return cls(RLModule.from_checkpoint(path))

    def reset(self) -> None:
        """Nothing to forget: the policy has no memory."""

    def act(self, observation, action_mask) -> int:
        """The legal move with the highest logit."""
        import numpy as np
        import torch
        from ray.rllib.core.columns import Columns

        from plunder.policies.base import check_mask

        legal = check_mask(action_mask)
        obs = {"observations": torch.as_tensor(np.asarray(observation, np.float32))[None],
               "action_mask": torch.as_tensor(np.asarray(action_mask, np.float32))[None]}
        with torch.no_grad():
            out = self.module.forward_inference({Columns.OBS: obs})
        logits = out[Columns.ACTION_DIST_INPUTS][0].numpy()
        return int(legal[np.argmax(logits[legal])])


def _parse_args(argv):
    """The command line's options, checked."""
    parser = argparse.ArgumentParser(
        prog="python -m plunder.training.selfplay.rllib_ppo",
        description="Train a plunder game with RLlib PPO and action masking.")
    parser.add_argument("--game", required=True, help="e.g. scallywags or scallywags_v0")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--form", choices=FORMS, default="aec",
                        help="aec (every game) or parallel (simultaneous games)")
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--train-batch-size", type=int, default=4000,
                        help="env steps per iteration (per learner)")
    parser.add_argument("--minibatch-size", type=int, default=128)
    parser.add_argument("--num-epochs", type=int, default=10)
    parser.add_argument("--hidden", default="256,256",
                        help="hidden layer sizes, comma-separated")
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--num-env-runners", type=int, default=0,
                        help="remote sampling workers (0: sample in this process)")
    parser.add_argument("--address", default=None,
                        help="Ray cluster to join ('auto', 'HOST:PORT' or "
                             "'ray://HOST:10001'); default: start Ray locally")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--checkpoint", default=None, help="directory to save the result")
    args = parser.parse_args(argv)
    try:
        args.hidden = tuple(int(h) for h in args.hidden.split(","))
    except ValueError:
        parser.error(f"--hidden must be comma-separated integers, got {args.hidden!r}")
    for name in ("players", "iterations", "train_batch_size", "minibatch_size", "num_epochs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.num_env_runners < 0 or min(args.hidden) < 1:
        parser.error("--num-env-runners must be >= 0 and --hidden sizes >= 1")
    return args


def main(argv: list[str] | None = None) -> list[dict[str, float]]:
    """Command line entry point (see the module docstring)."""
    args = _parse_args(sys.argv[1:] if argv is None else argv)
    import ray

    config = build_config(args.game, num_players=args.players, form=args.form,
                          num_env_runners=args.num_env_runners,
                          train_batch_size=args.train_batch_size,
                          minibatch_size=args.minibatch_size, num_epochs=args.num_epochs,
                          hidden=args.hidden, lr=args.lr, seed=args.seed)
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(address=args.address, include_dashboard=False)
    try:
        return train(config, args.iterations, checkpoint=args.checkpoint)
    finally:
        if started_here:
            ray.shutdown()


if __name__ == "__main__":
    main()
