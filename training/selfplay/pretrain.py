"""Optional warm start: imitate the game's heuristic bot before self-play (``pretrain``).

Every registered game ships a heuristic bot, so this is generic: play games with the
heuristic in every seat until ``pretrain.samples`` decisions are recorded (observation,
mask, the heuristic's action) and the deciding seat's final reward under the run's ``reward_mode``,
then fit the policy by cross-entropy on the heuristic's actions (masked distribution, as
PPO uses it) and the value head by regression on the discounted final reward. PPO then
starts from a bot that plays roughly like the heuristic instead of from random play; the
rewards PPO optimises are untouched (no shaping).

Why: in Scallywags the observation names 40 coins one by one, and a plain MLP needs many
games to tie "coin c is valuable" to "action take coin c" for every c; from scratch,
PPO takes a long time to get past random play.
``dagger_rounds`` adds DAgger rounds (the learner plays, the heuristic labels).
``teacher: planner`` imitates the game's planner bot instead (a stronger scripted bot,
where a game has one): it plays every seat of the first games and labels the DAgger
states, while the learner's DAgger opponents stay heuristic bots, as evaluations play.
``collect_parts`` plays each collection as independently seeded parts side by side
(:func:`collect_in_parts`), and ``torch_threads`` gives the fits more than the run's threads.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from plunder.envs import game_class
from plunder.envs.core.rewards import final_rewards


def collect_heuristic_decisions(env_id: str, num_players: int, options: dict,
                                samples: int, seed: int, reward_mode: str = "rank",
                                gamma: float = 0.995, max_turns: int | None = None,
                                teacher: str = "heuristic", contrast_weight: float = 1.0):
    """(observations, masks, actions, value targets, loss weights) of the ``teacher``
    bot's self-play decisions (``heuristic`` or ``planner``). A decision where the teacher
    is not the heuristic and chooses otherwise than the heuristic would weighs
    ``contrast_weight`` in the fit; every other decision weighs 1."""
    from plunder.policies.base import scripted_class

    cls = game_class(env_id)
    game = cls(num_players, **options)
    max_turns = int(max_turns or cls.default_max_turns)
    hcls = scripted_class(env_id, teacher)
    rng = np.random.default_rng(seed)
    bots = [hcls(game, seed=int(rng.integers(2**31 - 1))) for _ in range(num_players)]
    shadows = _shadows(env_id, game, teacher, num_players, contrast_weight)
    obs, masks, acts, targets, weights = [], [], [], [], []
    while len(acts) < samples:
        state = game.new_game(rng)
        for b in bots + shadows:
            b.reset()
        seats: list[int] = []
        while not state.is_terminal() and state.turns < max_turns:
            joint = {}
            for p in state.current_players():
                o = game.encode(state.view(p))
                m = state.legal_actions_mask(p)
                a = int(bots[p].act(o, m))
                joint[p] = a
                obs.append(o)
                masks.append(m.astype(bool))
                acts.append(a)
                weights.append(_weight(shadows, p, o, m, a, contrast_weight))
                seats.append(p)
            state.apply_joint(joint)
        rewards = final_rewards(reward_mode, state.rank_keys(), state.scores(), num_players)
        remaining = {p: 0 for p in range(num_players)}
        for p in reversed(seats):  # discount by the seat's own decisions still to come
            targets.append(rewards[p] * gamma ** remaining[p])
            remaining[p] += 1
        targets[len(targets) - len(seats):] = targets[len(targets) - len(seats):][::-1]
    n = samples
    return (np.asarray(obs[:n], np.float32), np.asarray(masks[:n]),
            np.asarray(acts[:n], np.int64), np.asarray(targets[:n], np.float32),
            np.asarray(weights[:n], np.float32))


def imitate(model, data, epochs: int, batch_size: int, learning_rate: float, seed: int,
            echo: Callable[[str], None] = print, label_smoothing: float = 0.0,
            what: str = "pretrain") -> dict:
    """Fit ``model.policy`` to the teacher's actions (each decision's policy loss weighted
    by ``data``'s weights) and the value targets; with ``label_smoothing`` e, each target
    is 1 - e on the teacher's action plus e spread evenly over the legal actions (the
    illegal ones stay impossible). ``what`` names the phase in the printed line."""
    import torch

    obs, masks, acts, targets, weights = data
    weighted = bool((weights != 1).any())
    policy = model.policy
    opt = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    gen = np.random.default_rng(seed)
    dev = policy.device     # the trainer's device (config key device)
    t_obs, t_acts = torch.as_tensor(obs, device=dev), torch.as_tensor(acts, device=dev)
    t_targets = torch.as_tensor(targets, device=dev)
    t_weights = torch.as_tensor(weights, device=dev)
    n = len(acts)
    stats = {}
    for epoch in range(epochs):
        order = gen.permutation(n)
        tot_pi = tot_v = 0.0
        for start in range(0, n, batch_size):
            idx = order[start:start + batch_size]
            if label_smoothing:
                values, log_prob, legal_mean = _smoothing_terms(policy, t_obs[idx],
                                                                t_acts[idx], masks[idx])
                fit = (1.0 - label_smoothing) * log_prob + label_smoothing * legal_mean
            else:   # the plain loss, computed as the shipped runs were
                values, fit, _ = policy.evaluate_actions(t_obs[idx], t_acts[idx],
                                                         action_masks=masks[idx])
            if weighted:    # a weighted mean: the loss keeps its scale
                w = t_weights[idx]
                pi_loss = -(w * fit).sum() / w.sum()
            else:
                pi_loss = -fit.mean()
            v_loss = torch.nn.functional.mse_loss(values.flatten(), t_targets[idx])
            loss = pi_loss + 0.5 * v_loss
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            opt.step()
            tot_pi += float(pi_loss.detach()) * len(idx)
            tot_v += float(v_loss.detach()) * len(idx)
        stats = {"epoch": epoch + 1, "policy_nll": tot_pi / n, "value_mse": tot_v / n}
    with torch.no_grad():
        dist = policy.get_distribution(t_obs[:4096], action_masks=masks[:4096])
        agree = float((dist.get_actions(deterministic=True) == t_acts[:4096])
                      .float().mean())
    stats["agreement"] = agree
    echo(f"{what}: imitated {n:,} decisions for {epochs} epochs; "
         f"greedy agreement {agree:.0%}, value mse {stats['value_mse']:.3f}")
    return stats


def _smoothing_terms(policy, obs, actions, masks):
    """(values, log-probability of ``actions``, mean log-probability over the legal
    actions) from one forward pass (MaskableActorCriticPolicy.evaluate_actions' path)."""
    import torch

    features = policy.extract_features(obs)
    if policy.share_features_extractor:
        latent_pi, latent_vf = policy.mlp_extractor(features)
    else:
        latent_pi = policy.mlp_extractor.forward_actor(features[0])
        latent_vf = policy.mlp_extractor.forward_critic(features[1])
    dist = policy._get_action_dist_from_latent(latent_pi)
    dist.apply_masking(masks)
    legal = torch.as_tensor(masks, dtype=torch.float32, device=obs.device)
    log_probs = dist.distribution.logits      # normalised; illegal actions at -1e8
    legal_mean = (log_probs * legal).sum(1) / legal.sum(1)
    return policy.value_net(latent_vf), dist.log_prob(actions), legal_mean


def collect_dagger_decisions(env_id: str, num_players: int, options: dict, actor,
                             samples: int, seed: int, reward_mode: str = "rank",
                             gamma: float = 0.995, max_turns: int | None = None,
                             greedy: bool = False, teacher: str = "heuristic",
                             contrast_weight: float = 1.0):
    """DAgger data: the *learner* (``actor``, sampling, or its likeliest move with
    ``greedy`` as the exported bot plays) plays one seat against heuristic bots; each of
    its decisions is labelled with what the ``teacher`` bot (``heuristic`` or ``planner``)
    would have done there, weighted as :func:`collect_heuristic_decisions` weighs. Value
    targets are the learner's own discounted final rewards."""
    from plunder.policies.base import heuristic_class, scripted_class

    cls = game_class(env_id)
    game = cls(num_players, **options)
    max_turns = int(max_turns or cls.default_max_turns)
    hcls = heuristic_class(env_id)
    rng = np.random.default_rng(seed)
    bots = [hcls(game, seed=int(rng.integers(2**31 - 1))) for _ in range(num_players)]
    shadows = _shadows(env_id, game, teacher, 1, contrast_weight)
    teacher = scripted_class(env_id, teacher)(game, seed=int(rng.integers(2**31 - 1)))
    obs, masks, acts, targets, weights = [], [], [], [], []
    while len(acts) < samples:
        state = game.new_game(rng)
        me = int(rng.integers(num_players))
        for b in bots + [teacher] + shadows:
            b.reset()
        mine = 0
        while not state.is_terminal() and state.turns < max_turns:
            joint = {}
            for p in state.current_players():
                o = game.encode(state.view(p))
                m = state.legal_actions_mask(p)
                if p == me:
                    obs.append(o)
                    masks.append(m.astype(bool))
                    acts.append(int(teacher.act(o, m)))
                    weights.append(_weight(shadows, 0, o, m, acts[-1], contrast_weight))
                    mine += 1
                    joint[p] = int(actor.act_batch(o[None], m[None], rng, greedy)[0])
                else:
                    joint[p] = int(bots[p].act(o, m))
            state.apply_joint(joint)
        r = final_rewards(reward_mode, state.rank_keys(), state.scores(), num_players)[me]
        targets += [r * gamma ** (mine - 1 - k) for k in range(mine)]
    n = samples
    return (np.asarray(obs[:n], np.float32), np.asarray(masks[:n]),
            np.asarray(acts[:n], np.int64), np.asarray(targets[:n], np.float32),
            np.asarray(weights[:n], np.float32))


def _shadows(env_id: str, game, teacher: str, seats: int, contrast_weight: float) -> list:
    """Heuristic bots that follow the teacher's seats (fed the same observations, so a
    heuristic with a memory keeps it), to name the decisions where the teacher differs;
    none when nothing is weighted."""
    if teacher == "heuristic" or contrast_weight == 1.0:
        return []
    from plunder.policies.base import heuristic_class

    return [heuristic_class(env_id)(game, seed=0) for _ in range(seats)]


def _weight(shadows: list, seat: int, obs, mask, action: int, contrast_weight: float) -> float:
    """``contrast_weight`` where the heuristic following ``seat`` would not play ``action``."""
    if not shadows:
        return 1.0
    return contrast_weight if int(shadows[seat].act(obs, mask)) != action else 1.0


def concat(a, b):
    """Join two datasets."""
    return tuple(np.concatenate([x, y]) for x, y in zip(a, b))


def collect_in_parts(collect: Callable, kwargs: dict, samples: int, seed: int,
                     parts: int = 1, workers: int = 1):
    """``collect(**kwargs, samples=..., seed=...)`` played as ``parts`` independently seeded
    parts on up to ``workers`` processes, joined in part order. One part is exactly
    ``collect(..., samples, seed)``; more parts split ``samples`` evenly and seed part
    ``i`` with child ``i`` of ``SeedSequence(seed)``, so the data depend on ``parts`` and
    never on ``workers``."""
    if parts == 1:
        return collect(**kwargs, samples=samples, seed=seed)
    from plunder.training.threads import map_in_processes

    sizes = [samples // parts + (i < samples % parts) for i in range(parts)]
    seeds = np.random.SeedSequence(seed).spawn(parts)
    jobs = [(collect, {**kwargs, "samples": n, "seed": s}) for n, s in zip(sizes, seeds)]
    datasets = map_in_processes(_collect_part, jobs, workers)
    return tuple(np.concatenate(columns) for columns in zip(*datasets))


def _collect_part(collect: Callable, kwargs: dict):
    """One part of :func:`collect_in_parts` (in a worker: one BLAS thread, as the run)."""
    from plunder.training.threads import limit_numpy_threads

    limit_numpy_threads(1)
    return collect(**kwargs)
