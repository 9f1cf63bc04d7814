"""`plunder bench`: random legal play through the full AEC API, beside yardsticks.

Every registered game plays random legal moves through ``env()`` (observation and mask
every step), and in the same run PettingZoo's ``texas_holdem_v4`` and ``leduc_holdem_v4``
and OpenSpiel's ``hearts`` (when the ``bench`` extra is installed) do the same. Prints
agent-steps/s and games/s with the ratio to ``texas_holdem_v4``, and the size of a cloned
state. Rates are per second of this process's CPU time, so that other load on a shared
machine does not skew the comparison. Numbers, never assertions: speed is not tested.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np


@dataclass
class BenchResult:
    """Throughput of one environment."""

    name: str
    players: int
    steps: int
    games: int
    seconds: float
    state_bytes: int | None = None
    raw_steps: int = 0          # the same through raw_env() (no PettingZoo wrappers)
    raw_seconds: float = 0.0

    @property
    def raw_steps_per_s(self) -> float | None:
        """Agent-steps per second through raw_env(), if measured."""
        return self.raw_steps / self.raw_seconds if self.raw_seconds else None

    @property
    def steps_per_s(self) -> float:
        """Agent-steps per second."""
        return self.steps / self.seconds

    @property
    def games_per_s(self) -> float:
        """Finished games per second."""
        return self.games / self.seconds


def bench_aec(make_env, name: str, players: int, seconds: float, seed: int = 0) -> BenchResult:
    """Random legal play through an AEC env for about ``seconds``.

    The harness is kept cheap (random numbers drawn in batches) so that it does not
    dilute the differences between environments.
    """
    env = make_env()
    rng = np.random.default_rng(seed)
    uniform = rng.random(1 << 16)
    u = 0
    steps = games = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        env.reset(seed=int(rng.integers(2**31)))
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                action = None
            else:
                legal = obs["action_mask"].nonzero()[0]
                u = (u + 1) & 0xFFFF
                action = int(legal[int(uniform[u] * len(legal))])
            env.step(action)
            steps += 1
        games += 1
    return BenchResult(name, players, steps, games, time.process_time() - cpu_start)


def bench_openspiel(game_name: str, seconds: float, seed: int = 0) -> BenchResult | None:
    """Random play in an OpenSpiel game with an observation (or info-state) tensor each decision."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(game_name)
    rng = np.random.default_rng(seed)
    kind = game.get_type()
    # hearts offers an information-state tensor rather than an observation tensor
    tensor = ("observation_tensor" if kind.provides_observation_tensor
              else "information_state_tensor")
    uniform = rng.random(1 << 16)
    u = 0
    steps = games = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            player = state.current_player()
            getattr(state, tensor)(player)
            legal = state.legal_actions(player)
            u = (u + 1) & 0xFFFF
            state.apply_action(legal[int(uniform[u] * len(legal))])
            steps += 1
        games += 1
    return BenchResult(f"openspiel:{game_name}", game.num_players(), steps, games,
                       time.process_time() - cpu_start)


def max_state_bytes(env_id: str, players: int, games: int = 3) -> int:
    """Largest cloned-state JSON seen along random games."""
    from plunder.envs import game_class

    game = game_class(env_id)(players)
    rng = np.random.default_rng(0)
    biggest = 0
    for g in range(games):
        state = game.new_initial_state(np.random.default_rng(g))
        while not state.is_terminal() and state.turns < 2000:
            biggest = max(biggest, len(state.clone().to_json().encode()))
            joint = {p: int(rng.choice(np.flatnonzero(state.legal_actions_mask(p))))
                     for p in state.current_players()}
            state.apply_joint(joint)
    return biggest


def default_players(env_id: str) -> int:
    """The player count benchmarked: 4, or the nearest supported count."""
    from plunder.envs import game_class

    cls = game_class(env_id)
    return min(max(4, cls.min_players), cls.max_players)


def run_bench(seconds: float = 3.0, games: list[str] | None = None,
              yardsticks: bool = True, rounds: int = 5) -> list[BenchResult]:
    """Benchmark the registered games (or ``games``) and the yardsticks.

    PettingZoo envs are measured twice: through ``env()`` (with PettingZoo's wrappers, as
    users run them) and through ``raw_env()``. Each measurement gets ``seconds`` in all,
    split into ``rounds`` slices played in turn, so that a change in the machine's load
    during the run hits every entry alike.
    """
    from plunder.envs import ENV_IDS, env_module

    entries = []          # (name, players, wrapped factory or None, raw factory or None)
    if yardsticks:
        try:
            from pettingzoo.classic import leduc_holdem_v4, texas_holdem_v4
        except ImportError:
            pass
        else:
            entries.append(("texas_holdem_v4", 2, texas_holdem_v4.env, texas_holdem_v4.raw_env))
            entries.append(("leduc_holdem_v4", 2, leduc_holdem_v4.env, leduc_holdem_v4.raw_env))
    for env_id in games or ENV_IDS:
        n = default_players(env_id)
        module = env_module(env_id)
        entries.append((env_id, n, lambda m=module, n=n: m.env(num_players=n),
                        lambda m=module, n=n: m.raw_env(num_players=n)))
    hearts = None
    if yardsticks:
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            pass
        else:
            hearts = BenchResult("openspiel:hearts", 4, 0, 0, 0.0)
    totals = {name: BenchResult(name, n, 0, 0, 0.0) for name, n, _, _ in entries}
    for _ in range(rounds):
        for name, n, wrapped, raw in entries:
            total = totals[name]
            part = bench_aec(wrapped, name, n, seconds / rounds)
            total.steps += part.steps
            total.games += part.games
            total.seconds += part.seconds
            part = bench_aec(raw, name, n, seconds / rounds)
            total.raw_steps += part.steps
            total.raw_seconds += part.seconds
        if hearts is not None:
            part = bench_openspiel("hearts", seconds / rounds)
            hearts.steps += part.steps
            hearts.games += part.games
            hearts.seconds += part.seconds
    results = list(totals.values()) + ([hearts] if hearts is not None else [])
    for res in results:
        if not res.name.startswith(("texas", "leduc", "openspiel")):
            res.state_bytes = max_state_bytes(res.name, res.players)
    return results


def format_table(results: list[BenchResult]) -> str:
    """A Markdown table with the ratios to texas_holdem_v4 (same API form)."""
    base = next((r for r in results if r.name == "texas_holdem_v4"), None)
    rows = ["| env | players | env() agent-steps/s | x texas | raw_env() agent-steps/s "
            "| x texas raw | games/s | cloned state |",
            "|---|---|---|---|---|---|---|---|"]
    for r in results:
        ratio = f"{r.steps_per_s / base.steps_per_s:.1f}x" if base else "-"
        raw = r.raw_steps_per_s
        raw_text = f"{raw:,.0f}" if raw else "-"
        raw_ratio = (f"{raw / base.raw_steps_per_s:.1f}x"
                     if raw and base and base.raw_steps_per_s else "-")
        size = f"{r.state_bytes / 1024:.1f} KB" if r.state_bytes is not None else "-"
        rows.append(f"| {r.name} | {r.players} | {r.steps_per_s:,.0f} | {ratio} | {raw_text} "
                    f"| {raw_ratio} | {r.games_per_s:,.1f} | {size} |")
    return "\n".join(rows)
