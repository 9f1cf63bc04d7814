"""MaskablePPO whose rollouts are played where the games are.

Stock MaskablePPO runs the learner's forward pass in the training process every env step:
one round trip to the env workers per step (pickled observations, masks and actions), the
training process busy between the workers' turns and both waiting on each other. For the
self-play vec envs (:class:`~plunder.training.selfplay.selfplay_env.SelfPlayVecEnv` and its
multi-process form) :class:`SelfPlayPPO` instead hands the env a numpy copy of the
current actor (:mod:`plunder.training.selfplay.actors`, the same copy snapshots use) and asks it to
``collect`` a whole rollout: every worker plays its games for ``n_steps`` learner steps,
sampling the learner's actions from that copy with its own seeded generator, and sends
back the observations, masks, actions, rewards and finished games in one message. The
training process then computes the values and log-probabilities of the whole rollout in
a few large batched forward passes and fills the rollout buffer exactly as the stock loop
would (same time-limit bootstrapping, episode starts, callbacks called once per env step,
episode info buffer). The data is on-policy: the actor copy is the policy PPO updates,
and its numpy probabilities agree with torch's to ~1e-6.

Other vec envs (``vec_env: dummy`` / ``subproc``) fall back to the stock loop.
"""

from __future__ import annotations

import numpy as np
import torch as th
from sb3_contrib import MaskablePPO

from .actors import actor_from_policy

#: rows per forward pass when scoring a collected rollout (bounds the memory of entity nets)
SCORE_CHUNK = 4096


class SelfPlayPPO(MaskablePPO):
    """MaskablePPO that collects rollouts through ``env.collect(actor, n_steps)`` where the
    env offers it (see the module docstring); otherwise MaskablePPO itself.

    With ``async_rollouts=True`` (and an env with ``collect_async`` / ``collect_wait``) the
    workers start the next rollout, played by the policy as it is now, before this
    rollout's PPO update begins, so the update and the games run side by side. The data of
    each update then comes from the policy one update older (the first from the current
    one). The update corrects for that lag as decoupled PPO does (Hilton et al., 2021,
    "Batch size-invariance for policy optimization"): PPO's clipped ratio is taken against
    the policy at the start of the update (the *proximal* policy), and each sample's
    advantage is weighted by ``min(1, pi_proximal / pi_behaviour)`` (a truncated
    importance weight, as in IMPALA's V-trace).

    With ``truncation_reward`` set, a game cut off by the turn limit pays the learner that
    reward instead of its standing ranks plus the discounted value of where it stopped (the
    stock bootstrap), so a stall cannot pay better than playing on (Anchors Aweigh!'s
    grab-and-return loops, whose 0:0 standing counts as a tie).
    """

    def __init__(self, *args, async_rollouts: bool = False,
                 truncation_reward: float | None = None, **kwargs):
        self.async_rollouts = bool(async_rollouts)
        self.truncation_reward = truncation_reward
        super().__init__(*args, **kwargs)

    def _excluded_save_params(self) -> list[str]:
        # run settings, set from the config when a checkpoint is loaded
        return [*super()._excluded_save_params(), "async_rollouts", "truncation_reward"]

    def collect_rollouts(self, env, callback, rollout_buffer, n_rollout_steps: int,
                         use_masking: bool = True) -> bool:
        """Fill ``rollout_buffer`` with ``n_rollout_steps`` steps of every env."""
        if not hasattr(env, "collect") or not use_masking:
            return super().collect_rollouts(env, callback, rollout_buffer, n_rollout_steps,
                                            use_masking)
        if self._last_obs is None:
            raise RuntimeError("collect_rollouts before the first reset: no observation yet")
        self.policy.set_training_mode(False)
        rollout_buffer.reset()
        callback.on_rollout_start()

        overlap = self.async_rollouts and hasattr(env, "collect_async")
        if overlap:
            if not env.collecting:  # the first rollout: nothing in flight yet
                env.collect_async(actor_from_policy(self.policy), n_rollout_steps)
            data = env.collect_wait()
        else:
            data = env.collect(actor_from_policy(self.policy), n_rollout_steps)
        obs, masks, actions = data["obs"], data["masks"], data["actions"]
        rewards, dones = data["rewards"], data["dones"]
        steps, n = actions.shape
        if obs.shape[0] != n_rollout_steps:
            raise RuntimeError(f"the env collected {obs.shape[0]} steps per env, expected "
                               f"{n_rollout_steps} (a rollout left in flight by another "
                               f"run?)")

        # the callbacks and the episode info buffer see every step, as in MaskablePPO
        infos_at: dict[int, list[tuple[int, dict]]] = {}
        for t, i, info in data["ended"]:
            infos_at.setdefault(t, []).append((i, info))
        for t in range(steps):
            infos = [{} for _ in range(n)]
            for i, info in infos_at.get(t, ()):
                infos[i] = info
            self.num_timesteps += n
            callback.update_locals({"infos": infos, "dones": dones[t],
                                    "rewards": rewards[t], "actions": actions[t]})
            if not callback.on_step():
                return False
            self._update_info_buffer(infos, dones[t])

        if overlap and self.num_timesteps < self._total_timesteps:
            # the next rollout starts now, with the policy PPO is about to update
            env.collect_async(actor_from_policy(self.policy), n_rollout_steps)

        values, log_probs = self._score(obs.reshape(steps * n, -1), actions.reshape(-1),
                                        masks.reshape(steps * n, -1))
        values, log_probs = values.reshape(steps, n), log_probs.reshape(steps, n)
        truncated = [(t, i, info["terminal_observation"]) for t, i, info in data["ended"]
                     if info["TimeLimit.truncated"]]
        if truncated and self.truncation_reward is not None:  # a fixed pay, no bootstrap
            for t, i, _ in truncated:
                rewards[t, i] = self.truncation_reward
        elif truncated:  # bootstrap cut-off games with the value of where they stopped
            term_values = self._values(np.stack([o for _, _, o in truncated]))
            for (t, i, _), v in zip(truncated, term_values.tolist()):
                rewards[t, i] += self.gamma * v
        for t in range(steps):
            rollout_buffer.add(obs[t], actions[t].reshape(-1, 1), rewards[t],
                               self._last_episode_starts, values[t], log_probs[t],
                               action_masks=masks[t])
            self._last_episode_starts = dones[t]

        self._last_obs = data["last_obs"]
        last_values = th.as_tensor(self._values(data["last_obs"]))
        rollout_buffer.compute_returns_and_advantage(last_values=last_values,
                                                     dones=dones[-1])
        if overlap:
            # decoupled PPO: the ratio is taken against the policy at the start of this
            # update (the log-probs stored above), and each sample's advantage is weighted
            # by min(1, pi_now / pi_played), the truncated importance weight of the lag
            weight = np.exp(np.minimum(log_probs.cpu().numpy() - data["log_probs"], 0.0))
            rollout_buffer.advantages *= weight
            self.logger.record("rollout/lag_weight_mean", float(weight.mean()))
        callback.on_rollout_end()
        return True

    def _score(self, obs: np.ndarray, actions: np.ndarray,
               masks: np.ndarray) -> tuple[th.Tensor, th.Tensor]:
        """Values and log-probabilities of ``actions`` under the current policy."""
        values, log_probs = [], []
        with th.no_grad():
            for s in range(0, len(obs), SCORE_CHUNK):
                sl = slice(s, s + SCORE_CHUNK)
                v, lp, _ = self.policy.evaluate_actions(
                    th.as_tensor(obs[sl], device=self.device),
                    th.as_tensor(actions[sl], device=self.device), action_masks=masks[sl])
                values.append(v.flatten())
                log_probs.append(lp)
        return th.cat(values), th.cat(log_probs)

    def _values(self, obs: np.ndarray) -> np.ndarray:
        """Value estimates of a batch of observations."""
        with th.no_grad():
            return np.concatenate([
                self.policy.predict_values(th.as_tensor(obs[s:s + SCORE_CHUNK],
                                                        device=self.device)).cpu().numpy().ravel()
                for s in range(0, len(obs), SCORE_CHUNK)])
