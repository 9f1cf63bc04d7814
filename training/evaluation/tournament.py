"""Tournaments between bots: seat rotation, win shares with 95% CIs, scores, OpenSkill.

``plunder eval GAME --bots trained:PATH,heuristic,random --games N --players N`` plays one
(:mod:`.command`); the trainer's evaluations and the benchmark play theirs through
:func:`run_tournament` and :func:`play_game`.

Line-ups. With k bots for n seats:

- k <= n: the line-up is the bots in order, the *last* bot filling the remaining seats
  (``--bots trained:X,heuristic --players 4`` is one trained bot against three heuristic
  bots); game g rotates it by g seats, so every bot sits in every seat equally often.
- k > n: every combination of n distinct bots, each in all n rotations, in turn.

Per bot: the seats it filled ("seat-games"), its win share per seat-game (a shared win
counts 1/number of winners), a Wilson 95% confidence interval, its mean score, its mean
reward under ``rank`` mode, and an OpenSkill (Plackett-Luce) rating updated after every
game with the seats ranked by the game's rank keys (a bot in several seats of one game gets
the mean of its seats' updates). Games are played through the engine API exactly as the
AEC env plays them (seed -> game mapping included); a bot that plays from the seat's view
rather than the observation vector (``needs_view``, e.g. the search bots) gets the view.

Seeds. A tournament with seed ``T`` plays game ``g`` from the env seed
``game_seed(T, g) = (2T + 1) * 2**64 + g`` (``env.reset(seed=game_seed(T, g))`` deals the same
game) and seeds bot ``b`` in seat ``s`` with ``bot_seed(T, b, s) = (2T + 2) * 2**64 + 256 b
+ s``. These are distinct for distinct (T, g) and (T, b, s), and all are at least
``EVAL_SEED_FLOOR = 2**64``; a training run seeds everything below 2**64 (its seed is
below 2**32; see :mod:`plunder.training.selfplay.train`), so no evaluation game is one that
training played or imitated, by construction.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from plunder.envs import game_class
from plunder.envs.core import InvalidArgumentError
from plunder.envs.core.rewards import rank_rewards, winners
from plunder.policies.base import ask_bot

Factory = Callable[[int], Any]

#: every tournament seed (games and bots) is at least this; training seeds stay below it
EVAL_SEED_FLOOR = 2**64


def game_seed(seed: int, game: int) -> int:
    """The env seed of game ``game`` of the tournament with seed ``seed``."""
    check_seed(seed)
    if not 0 <= game < EVAL_SEED_FLOOR:
        raise InvalidArgumentError(f"game index must be 0..2**64-1, got {game}")
    return (2 * seed + 1) * EVAL_SEED_FLOOR + game


def bot_seed(seed: int, bot: int, seat: int) -> int:
    """The seed of bot ``bot`` in seat ``seat`` of the tournament with seed ``seed``."""
    check_seed(seed)
    if not 0 <= seat < 256 or not 0 <= bot < EVAL_SEED_FLOOR // 256:
        raise InvalidArgumentError(f"bot {bot} / seat {seat} out of range")
    return (2 * seed + 2) * EVAL_SEED_FLOOR + 256 * bot + seat


def check_seed(seed) -> None:
    """A tournament seed is a non-negative int."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InvalidArgumentError(f"a tournament seed must be a non-negative int, "
                                   f"got {seed!r}")


@dataclass
class BotStats:
    """Results of one bot in a tournament."""

    name: str
    seat_games: int = 0
    wins: float = 0.0
    score_sum: float = 0.0
    reward_sum: float = 0.0
    mu: float = 25.0
    sigma: float = 25.0 / 3
    rated: bool = False         # whether a rating model updated mu and sigma (openskill)

    @property
    def win_share(self) -> float:
        """Wins per seat-game."""
        return self.wins / self.seat_games if self.seat_games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """Wilson score 95% interval of the win share."""
        return wilson(self.wins, self.seat_games)

    @property
    def mean_score(self) -> float:
        """Mean final score per seat-game."""
        return self.score_sum / self.seat_games if self.seat_games else 0.0

    @property
    def mean_reward(self) -> float:
        """Mean rank reward per seat-game."""
        return self.reward_sum / self.seat_games if self.seat_games else 0.0

    @property
    def ordinal(self) -> float:
        """Conservative rating mu - 3 sigma."""
        return self.mu - 3 * self.sigma

    def to_dict(self) -> dict:
        """JSON-ready summary."""
        lo, hi = self.ci95
        return {"bot": self.name, "seat_games": self.seat_games,
                "win_share": round(self.win_share, 4), "ci95": [round(lo, 4), round(hi, 4)],
                "mean_score": round(self.mean_score, 3),
                "mean_rank_reward": round(self.mean_reward, 4),
                # no rating without openskill (the train extra): None, not the prior
                "rating_mu": round(self.mu, 3) if self.rated else None,
                "rating_sigma": round(self.sigma, 3) if self.rated else None,
                "rating_ordinal": round(self.ordinal, 3) if self.rated else None}


@dataclass
class Tournament:
    """What ``run_tournament`` returns."""

    env_id: str
    num_players: int
    games: int
    options: dict
    bots: list[BotStats]
    truncated: int = 0
    seed: int | None = None
    lineups: list[tuple[int, ...]] = field(default_factory=list)
    #: seats the game ranks: the players plus env-driven seats (ShipShape's Cap'n)
    ranked_seats: int = 0

    @property
    def parity(self) -> float:
        """The win share of a bot no better than the rest: one over the ranked seats."""
        return 1 / (self.ranked_seats or self.num_players)

    def to_dict(self) -> dict:
        """JSON-ready summary."""
        return {"env_id": self.env_id, "num_players": self.num_players,
                "options": self.options, "games": self.games, "seed": self.seed,
                "truncated_games": self.truncated, "parity": round(self.parity, 4),
                "bots": [b.to_dict() for b in self.bots]}


def ranked_seats(env_id: str, num_players: int, options: dict | None = None) -> int:
    """Seats the game ranks (players, plus env-driven seats such as ShipShape's Cap'n)."""
    game = game_class(env_id)(num_players, **(options or {}))
    return len(game.new_game(np.random.default_rng(0)).rank_keys())


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def schedule(num_bots: int, num_players: int) -> list[tuple[int, ...]]:
    """Line-ups (bot index per seat) that games cycle through (see the module doc)."""
    if num_bots < 1:
        raise InvalidArgumentError("a tournament needs at least one bot")
    n = num_players
    if num_bots <= n:
        bases = [tuple(range(num_bots)) + (num_bots - 1,) * (n - num_bots)]
    else:
        bases = list(itertools.combinations(range(num_bots), n))
    out = []
    for base in bases:
        for r in range(n):
            out.append(tuple(base[(s - r) % n] for s in range(n)))
    return out


def play_game(game, policies: list, seed: int, max_turns: int) -> tuple[Any, bool]:
    """Play one game with one Policy per seat; returns (final state, truncated). A bot
    with ``needs_view`` is asked ``act_view(view, mask)``, the others ``act(obs, mask)``."""
    state = game.new_game(np.random.default_rng(seed))
    for pol in policies:
        pol.reset()
    while not state.is_terminal():
        if state.turns >= max_turns:
            return state, True
        joint = {}
        for p in state.current_players():
            view = state.view(p)
            pol = policies[p]
            # a view-based bot is not handed an encoded observation it would not read
            obs = None if getattr(pol, "needs_view", False) else game.encode(view)
            joint[p] = ask_bot(pol, view, obs, state.legal_actions_mask(p))
        state.apply_joint(joint)
    return state, False


def run_tournament(env_id: str, num_players: int, bots: list[tuple[str, Factory]],
                   games: int, seed: int = 0, options: dict | None = None,
                   max_turns: int | None = None, rate: bool = True,
                   progress: Callable[[int], None] | None = None,
                   on_game: Callable[[dict], None] | None = None) -> Tournament:
    """Play ``games`` games of ``env_id`` among ``bots`` ((name, factory(seed)) pairs),
    seeded as the module doc says; ``on_game`` gets each finished game's record
    (:func:`game_record`)."""
    check_seed(seed)
    if games < 0:
        raise InvalidArgumentError(f"games must be >= 0, got {games}")
    options = dict(options or {})
    cls = game_class(env_id)
    game = cls(num_players, **options)
    max_turns = int(max_turns or cls.default_max_turns)
    stats = [BotStats(name) for name, _ in bots]
    lineups = schedule(len(bots), num_players)
    instances: dict[tuple[int, int], Any] = {}
    model = rating_model() if rate else None
    truncated = 0
    for g in range(games):
        lineup = lineups[g % len(lineups)]
        seats = []
        for s, b in enumerate(lineup):
            key = (b, s)
            if key not in instances:
                instances[key] = bots[b][1](bot_seed(seed, b, s))
            seats.append(instances[key])
        state, trunc = play_game(game, seats, game_seed(seed, g), max_turns)
        truncated += trunc
        keys = [tuple(k) for k in state.rank_keys()]
        scores = state.scores()
        rewards = rank_rewards(keys, num_players)
        win = winners(keys)
        for s, b in enumerate(lineup):
            st = stats[b]
            st.seat_games += 1
            st.wins += 1.0 / len(win) if s in win else 0.0
            st.score_sum += float(scores[s])
            st.reward_sum += rewards[s]
        if model is not None:
            update_ratings(model, stats, lineup, keys[:num_players])
        if on_game is not None:
            on_game(game_record(g, game_seed(seed, g), lineup, keys, scores, win, trunc, stats))
        if progress is not None:
            progress(g + 1)
    return Tournament(env_id, num_players, games, options, stats, truncated, seed, lineups,
                      ranked_seats(env_id, num_players, options))


def game_record(game: int, env_seed: int, lineup: tuple, keys: list, scores, win,
                truncated: bool, stats: list[BotStats]) -> dict:
    """One finished game of a tournament, JSON-ready: its index and env seed, the bot
    index in each seat, the seats' rank keys and scores, the winning seats, whether the
    turn limit cut it, and each bot's wins and seat-games over the games so far (games
    ``0..game``: what ``plunder eval --games game+1`` reports)."""
    return {"game": game, "env_seed": env_seed, "lineup": list(lineup),
            "rank_keys": [[float(x) for x in k] for k in keys],     # Sequence[float]
            "scores": [float(x) for x in scores],
            "winners": sorted(int(s) for s in win), "truncated": bool(truncated),
            "so_far": [{"bot": st.name, "wins": st.wins, "seat_games": st.seat_games,
                        "win_share": round(st.win_share, 4)} for st in stats]}


def rating_model():
    try:
        from openskill.models import PlackettLuce
    except ImportError:  # pragma: no cover - openskill is in the train extra
        return None
    return PlackettLuce()


def update_ratings(model, stats: list[BotStats], lineup: tuple, keys: list) -> None:
    """Rate one game: the bots of ``lineup`` (one per seat) ranked by the seats' rank
    ``keys``; a bot in several seats gets the mean of its seats' updates."""
    ratings = [model.rating(mu=stats[b].mu, sigma=stats[b].sigma) for b in lineup]
    ranks = [1 + sum(1 for k2 in keys if k2 > k) for k in keys]
    new = model.rate([[r] for r in ratings], ranks=ranks)
    per_bot: dict[int, list] = {}
    for s, b in enumerate(lineup):
        per_bot.setdefault(b, []).append((new[s][0].mu - stats[b].mu, new[s][0].sigma))
    for b, updates in per_bot.items():
        stats[b].mu += float(np.mean([u[0] for u in updates]))
        stats[b].sigma = float(np.mean([u[1] for u in updates]))
        stats[b].rated = True


def bot_factories(specs: list[str], env_id: str, num_players: int,
                  options: dict | None = None) -> list[tuple[str, Factory]]:
    """(name, factory) pairs from bot specs (any spec ``make_bot`` takes)."""
    from plunder.policies.base import make_bot

    options = dict(options or {})
    out = []
    for spec in specs:
        make_bot(spec, env_id, num_players, seed=0, **options)  # fail early on bad specs
        out.append((spec, lambda seed, s=spec: make_bot(s, env_id, num_players, seed=seed,
                                                           **options)))
    return out
