"""PPO with action masking against plunder's shipped bots, through the vectorized env.

One file, in the style of CleanRL: read it top to bottom. The learner holds one seat of
every table (table ``i``: seat ``i % num_players``, so it plays every seat), the bot named
by ``--opponent`` every other seat; all tables step together in one
``plunder.envs.make_vector`` batch (the game's compiled engine where it is built).

    pip install "plunder[train]"
    python examples/ppo_vector.py --env-id scallywags_v0 --num-players 2 --opponent heuristic

Turn-based games give the learner a decision on some tables and not others at each step,
so its experience is kept per table, in order: a decision is closed (its reward and the
value of what follows known) when the learner is next asked at that table, or when the
game ends (reward: the learner's end-of-game reward; a game cut at the turn limit counts
as ended). Each update trains on the closed decisions; one still open at the end of a
rollout waits for the next. Advantages are GAE along each table's decisions.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections import deque
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn as nn

from plunder.envs import make_vector
from plunder.policies import make_bot


def _doc(text: str, default):
    return field(default=default, metadata={"help": text})


@dataclass
class Config:
    env_id: str = _doc("the game (an env id or a game's name)", "scallywags_v0")
    num_players: int = _doc("players at each table", 2)
    opponent: str = _doc("the bot in every other seat: heuristic, random, pretrained, "
                         "pretrained:early (any make_bot spec)", "heuristic")
    num_envs: int = _doc("tables stepped side by side", 64)
    total_steps: int = _doc("learner decisions to train on", 200_000)
    rollout_steps: int = _doc("vector-env steps per rollout", 128)
    learning_rate: float = _doc("Adam's step size", 2.5e-4)
    gamma: float = _doc("discount per learner decision", 0.99)
    gae_lambda: float = _doc("GAE's lambda", 0.95)
    update_epochs: int = _doc("passes over each rollout", 4)
    minibatch_size: int = _doc("decisions per gradient step", 512)
    clip_coef: float = _doc("PPO's ratio clip", 0.2)
    ent_coef: float = _doc("entropy bonus weight", 0.01)
    vf_coef: float = _doc("value loss weight", 0.5)
    max_grad_norm: float = _doc("gradient norm clip", 0.5)
    hidden: int = _doc("width of the two hidden layers", 256)
    seed: int = _doc("seeds the games, the bots and torch", 1)
    threads: int = _doc("threads a compiled batch's steps are split over", 1)
    torch_threads: int = _doc("torch's intra-op threads", 1)


def parse_args() -> Config:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for f in dataclasses.fields(Config):
        parser.add_argument("--" + f.name.replace("_", "-"), type=type(f.default),
                            default=f.default, help=f.metadata["help"])
    return Config(**vars(parser.parse_args()))


def layer(i: int, o: int, std: float = np.sqrt(2)) -> nn.Linear:
    out = nn.Linear(i, o)
    nn.init.orthogonal_(out.weight, std)
    nn.init.zeros_(out.bias)
    return out


class Agent(nn.Module):
    """Separate actor and critic MLPs; illegal actions get a logit of -1e9."""

    def __init__(self, obs_size: int, num_actions: int, hidden: int):
        super().__init__()
        self.critic = nn.Sequential(layer(obs_size, hidden), nn.Tanh(), layer(hidden, hidden),
                                    nn.Tanh(), layer(hidden, 1, 1.0))
        self.actor = nn.Sequential(layer(obs_size, hidden), nn.Tanh(), layer(hidden, hidden),
                                   nn.Tanh(), layer(hidden, num_actions, 0.01))

    def dist(self, obs, mask):
        logits = self.actor(obs).masked_fill(~mask, -1e9)
        return torch.distributions.Categorical(logits=logits)

    def act(self, obs, mask):
        d = self.dist(obs, mask)
        action = d.sample()
        return action, d.log_prob(action), self.critic(obs).squeeze(1)


class Bots:
    """The opponents: one bot per seat of every table (bots may remember a game), reset
    when its table's game ends; a bot that plays many seats at once (``act_batch``, no
    per-game memory, as the shipped networks) answers all its rows in one call."""

    def __init__(self, spec: str, venv, seed: int):
        make = lambda s: make_bot(spec, venv.env_id, venv.num_players, seed=s)  # noqa: E731
        self.shared = make(seed)
        self.batched = hasattr(self.shared, "act_batch") and \
            getattr(self.shared, "memory", None) is None
        self.seats = None if self.batched else [
            [make(seed + 1 + i * venv.num_players + p) for p in range(venv.num_players)]
            for i in range(venv.num_envs)]

    def act(self, step, rows: np.ndarray) -> np.ndarray:
        obs, masks = step.observations[rows], step.action_masks[rows]
        if self.batched:
            return self.shared.act_batch(obs, masks)
        return np.array([self.seats[i][p].act(o, m) for i, p, o, m in
                         zip(step.tables[rows], step.seats[rows], obs, masks)], np.int64)

    def game_over(self, table: int) -> None:
        if self.seats is not None:
            for bot in self.seats[table]:
                bot.reset()


def gae(decisions: list[dict], cfg: Config) -> None:
    """Advantages and returns along one table's closed decisions (in place)."""
    advantage = 0.0           # past the last closed decision: unknown, so 0 (truncated GAE)
    for d in reversed(decisions):
        live = 0.0 if d["done"] else 1.0
        delta = d["reward"] + cfg.gamma * d["next_value"] * live - d["value"]
        advantage = delta + cfg.gamma * cfg.gae_lambda * live * advantage
        d["advantage"], d["return"] = advantage, advantage + d["value"]


def update(agent, optimizer, batch: list[dict], cfg: Config) -> dict:
    """PPO's clipped objective over the closed decisions of one rollout."""
    obs = torch.as_tensor(np.stack([d["obs"] for d in batch]))
    mask = torch.as_tensor(np.stack([d["mask"] for d in batch]))
    action = torch.as_tensor([d["action"] for d in batch])
    old_logp = torch.as_tensor([d["logp"] for d in batch])
    adv = torch.as_tensor([d["advantage"] for d in batch], dtype=torch.float32)
    ret = torch.as_tensor([d["return"] for d in batch], dtype=torch.float32)
    for _ in range(cfg.update_epochs):
        for idx in torch.randperm(len(batch)).split(cfg.minibatch_size):
            d = agent.dist(obs[idx], mask[idx])
            ratio = (d.log_prob(action[idx]) - old_logp[idx]).exp()
            a = adv[idx]
            a = (a - a.mean()) / (a.std() + 1e-8) if len(idx) > 1 else a
            pg_loss = torch.max(-a * ratio,
                                -a * ratio.clamp(1 - cfg.clip_coef, 1 + cfg.clip_coef)).mean()
            v_loss = 0.5 * (agent.critic(obs[idx]).squeeze(1) - ret[idx]).pow(2).mean()
            entropy = d.entropy().mean()
            loss = pg_loss - cfg.ent_coef * entropy + cfg.vf_coef * v_loss
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), cfg.max_grad_norm)
            optimizer.step()
    return {"value_loss": v_loss.item(), "entropy": entropy.item()}


def main(cfg: Config) -> dict:
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.torch_threads)
    venv = make_vector(cfg.env_id, cfg.num_envs, num_players=cfg.num_players, seed=cfg.seed,
                       threads=cfg.threads)
    print(f"{venv}: learner vs {cfg.opponent}")
    learner_seat = np.arange(venv.num_envs) % venv.num_players
    bots = Bots(cfg.opponent, venv, cfg.seed)
    agent = Agent(venv.obs_size, venv.num_actions, cfg.hidden)
    optimizer = torch.optim.Adam(agent.parameters(), lr=cfg.learning_rate, eps=1e-5)

    decisions = [[] for _ in range(venv.num_envs)]   # each table's learner decisions
    recent = deque(maxlen=500)                       # the learner's win share, last games
    trained = games = 0
    start = time.perf_counter()
    step = venv.reset()
    while trained < cfg.total_steps:
        for _ in range(cfg.rollout_steps):
            mine = step.seats == learner_seat[step.tables]
            rows = np.flatnonzero(mine)
            actions = np.empty(len(step.tables), np.int64)
            if len(rows):
                with torch.no_grad():
                    a, logp, value = agent.act(torch.as_tensor(step.observations[rows]),
                                               torch.as_tensor(step.action_masks[rows] != 0))
                actions[rows] = a.numpy()
            for k, (r, i) in enumerate(zip(rows, step.tables[rows])):
                mine_here = decisions[i]
                if mine_here and mine_here[-1]["next_value"] is None:
                    mine_here[-1]["next_value"] = float(value[k])   # asked again: closed
                mine_here.append({"obs": step.observations[r], "mask": step.action_masks[r] != 0,
                                  "action": int(a[k]), "logp": float(logp[k]),
                                  "value": float(value[k]), "reward": 0.0, "done": False,
                                  "next_value": None})
            others = np.flatnonzero(~mine)
            actions[others] = bots.act(step, others)
            step = venv.step(actions)                 # an illegal action would raise here
            for i in np.flatnonzero(step.terminations | step.truncations):
                seat, rewards = learner_seat[i], step.rewards[i]
                last = decisions[i][-1] if decisions[i] else None
                if last is not None and last["next_value"] is None:
                    last.update(reward=float(rewards[seat]), done=True, next_value=0.0)
                top = rewards == rewards.max()             # the winners (ties share)
                recent.append(top[seat] / top.sum())
                games += 1
                bots.game_over(i)
        batch = []
        for i, mine_here in enumerate(decisions):
            closed = mine_here[:-1] if mine_here and mine_here[-1]["next_value"] is None \
                else mine_here
            gae(closed, cfg)
            batch += closed
            decisions[i] = mine_here[len(closed):]   # the open one waits for the next rollout
        if not batch:
            continue
        stats = update(agent, optimizer, batch, cfg)
        trained += len(batch)
        win_share = float(np.mean(recent)) if recent else float("nan")
        print(f"learner steps {trained:>8,} | games {games:>6,} | win share {win_share:.3f} "
              f"| value loss {stats['value_loss']:.4f} | entropy {stats['entropy']:.3f} "
              f"| {trained / (time.perf_counter() - start):,.0f} learner steps/s")
    return {"learner_steps": trained, "games": games, "win_share": win_share}


if __name__ == "__main__":
    main(parse_args())
