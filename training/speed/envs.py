"""`plunder speed`: random legal play through the full AEC API, beside yardsticks.

Every registered game plays random legal moves through ``env()`` (observation and mask
every step), and in the same run PettingZoo's ``texas_holdem_v4`` and ``leduc_holdem_v4``
and OpenSpiel's ``hearts`` (when the ``bench`` extra is installed) do the same. Prints
agent-steps/s and games/s with the ratio to ``texas_holdem_v4``, and the size of a cloned
state; with ``--observation-cost`` also each game's ``env()`` rate with the observation's
encoding left out, and the share of a step that encoding takes (and, beside the batched
path, its rate with the encoding left out: the ceiling of observations built for many games
at once; and the rules' moves and masks alone, with no view built). Rates are per second of
this process's CPU time, so that other load on a shared machine does not skew the
comparison. Numbers, never assertions: speed is not tested.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from plunder.training.tables import WIDTH, text_table, wrap


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
    batch_steps: int = 0        # the same through envs.core.batch.GameBatch (N games at once)
    batch_seconds: float = 0.0
    free_steps: int = 0         # the same through env() with the encoding left out
    free_seconds: float = 0.0
    free_batch_steps: int = 0   # the same through GameBatch with the encoding left out
    free_batch_seconds: float = 0.0
    rules_steps: int = 0        # decisions of the rules alone: mask, choice, move; no view
    rules_seconds: float = 0.0

    @property
    def rules_steps_per_s(self) -> float | None:
        """Decisions per second of the rules alone (no view, no observation), if measured."""
        return self.rules_steps / self.rules_seconds if self.rules_seconds else None

    @property
    def free_batch_steps_per_s(self) -> float | None:
        """Decisions per second through the batched path with a free observation, if
        measured."""
        return self.free_batch_steps / self.free_batch_seconds \
            if self.free_batch_seconds else None

    @property
    def free_steps_per_s(self) -> float | None:
        """Agent-steps per second through ``env()`` with a free observation, if measured."""
        return self.free_steps / self.free_seconds if self.free_seconds else None

    @property
    def batch_steps_per_s(self) -> float | None:
        """Agent-steps (decisions) per second through the batched path, if measured."""
        return self.batch_steps / self.batch_seconds if self.batch_seconds else None

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


def encoder_summary() -> str:
    """Which games encode observations, build views and write legal-action masks compiled
    (C) in this process, and which in Python."""
    from plunder.envs.core import compiled

    lines = []
    for part, label in (("encoder", "observation encoders"), ("view", "view builders")):
        status = compiled.status(part)
        c = [g for g, on in status.items() if on]
        py = [g for g, on in status.items() if not on]
        why = (f" ({compiled.PURE_PYTHON_VAR} is set)" if not compiled.enabled()
               else " (not built: no C compiler at install?)" if py else "")
        lines.append(f"{label}: compiled for " + (", ".join(c) or "no game")
                     + (f"; Python for {', '.join(py)}{why}" if py else ""))
    others = [g for g in compiled.GAME_PACKAGES if g not in compiled.VIEW_PACKAGES]
    if others:
        lines[-1] += f" ({', '.join(others)}: Python only)"
    masks = [g for g, on in compiled.status("mask").items() if on]
    lines.append("legal-action masks: compiled for " + (", ".join(masks) or "no game")
                 + "; Python for the rest")
    engines = [g for g, on in compiled.status("engine").items() if on]
    lines.append("engines (env() and the batched path): compiled for " + (", ".join(engines) or "no game")
                 + "; Python for the rest")
    return "\n".join(wrap(line, hang="    ") for line in lines)


def free_observation(game) -> None:
    """Replace ``game``'s encoder by a copy of one all-zero vector of the observation's size
    (the game flow does not depend on it): what a step would cost if building the
    observation were free. For ``plunder speed --observation-cost`` only; never train on
    it."""
    zeros = np.zeros(game.layout.size, np.float32)
    game.encode = lambda view: zeros.copy()    # an instance attribute shadows the method
    game.encode_into = lambda view, out: out.fill(0.0)


def free_observation_env(make_env):
    """``make_env(compiled=False)`` with a free observation (:func:`free_observation`):
    its game in Python, as a compiled engine encodes in C."""
    env = make_env(compiled=False)
    free_observation(env.unwrapped.game)
    return env


def free_observation_batch(batch):
    """A :class:`~plunder.envs.core.batch.GameBatch` whose games all have a free
    observation (:func:`free_observation`); the views are still built, as an encoder
    writing many games' observations at once would still read them. Only for a batch
    whose games run in Python (``compiled=False``): a compiled engine encodes in C."""
    if getattr(batch, "compiled", False):
        from plunder.envs.core.errors import InvalidArgumentError
        raise InvalidArgumentError("free_observation_batch needs a GameBatch built with "
                                   "compiled=False")
    for game in batch.games:
        free_observation(game)
    return batch


BATCH_GAMES = 16   # games per GameBatch: as many as one of the default training run's 2 workers


def bench_batch(batch, seconds: float, seed: int = 0) -> BenchResult:
    """Random legal play through a :class:`~plunder.envs.core.batch.GameBatch` (built
    once by the caller; its games carry on between calls): every step takes the
    observations and masks of all pending decisions as arrays and answers them with one
    array of actions, drawn uniformly among the legal ones (vectorised). Counts decisions
    (agent-steps); one process, so the rate is per core."""
    rng = np.random.default_rng(seed)
    start, cpu_start = time.perf_counter(), time.process_time()
    deadline = start + seconds
    steps = ended = 0
    while time.perf_counter() < deadline:
        for _ in range(10):
            _, _, _, masks = batch.decisions()
            # uniform among the legal actions: the largest of masked uniform draws
            actions = (rng.random(masks.shape) * masks).argmax(1)
            _, term, trunc = batch.step(actions)
            steps += len(actions)
            ended += int(term.sum() + trunc.sum())
    return BenchResult(batch.game.env_id(), batch.num_players, steps, ended,
                       time.process_time() - cpu_start)


THREAD_TABLES = 1024   # games per batch in the threaded rows: enough work to split


@dataclass
class ThreadResult:
    """Wall-clock rates of one compiled batch stepped on 1 and on more threads."""

    name: str
    players: int
    tables: int
    path: str                                   # "compiled" or "python"
    rates: dict[int, float]                     # threads -> agent-steps per wall second
    cpu_per_wall: dict[int, float]              # threads -> CPU seconds per wall second


def bench_threads(env_id: str, players: int, seconds: float, threads=(1, 2),
                  tables: int = THREAD_TABLES, rounds: int = 5) -> ThreadResult:
    """The engine's own step rate (agent-steps per wall second) of a large batch at each
    thread count, in interleaved rounds: each step answers every row with a legal action
    chosen before the clock starts (its first legal one), so only ``step`` is timed (the
    rules, masks and observations of every table). A game without a compiled engine is
    measured in Python, a ``GameBatch`` of ``BATCH_GAMES`` games on one thread (``path``:
    "python"; its timed step includes building the observations)."""
    from plunder.envs import game_class
    from plunder.envs.core.batch import CompiledBatch, GameBatch, engine_module

    cls = game_class(env_id)
    module = engine_module(cls)
    if module is None:
        counts, path = [1], "python"
        batches = {1: GameBatch(cls, players, BATCH_GAMES, seed=0, compiled=False)}
        tables = BATCH_GAMES
    else:
        counts, path = sorted({1, *threads}), "compiled"
        game = cls(players)
        batches = {t: CompiledBatch(game, module, tables, threads=t) for t in counts}
        for b in batches.values():
            b.reset(0)
    steps = {t: 0 for t in counts}
    wall = {t: 0.0 for t in counts}
    cpu = {t: 0.0 for t in counts}
    for _ in range(rounds):
        for t, b in batches.items():
            deadline = time.perf_counter() + seconds / rounds / len(counts)
            while time.perf_counter() < deadline:
                if path == "compiled":
                    actions = b.masks[:b.rows].argmax(1)
                else:
                    actions = b.decisions()[3].argmax(1)
                w0, c0 = time.perf_counter(), time.process_time()
                b.step(actions)
                if path == "python":
                    b.decisions()        # its observations and masks: built here
                wall[t] += time.perf_counter() - w0
                cpu[t] += time.process_time() - c0
                steps[t] += len(actions)
    return ThreadResult(env_id, players, tables, path,
                        {t: steps[t] / wall[t] if wall[t] else 0.0 for t in counts},
                        {t: cpu[t] / wall[t] if wall[t] else 0.0 for t in counts})


def thread_rows(results: list[ThreadResult]) -> tuple[list[str], list[list[str]]]:
    """The headings and rows of the threaded rows: each thread count's wall-clock rate,
    its ratio to one thread, and the CPU seconds the process got per wall second (below
    the thread count: the threads did not all find a free core)."""
    counts = sorted({t for r in results for t in r.rates})
    heads = ["env", "players", "tables", "path"]
    for t in counts:
        heads += [f"{t} thread{'s' if t > 1 else ''} agent-steps/s (wall)", "CPU/wall"]
        heads += ["x 1 thread"] if t > 1 else []
    rows = []
    for r in results:
        row = [r.name, str(r.players), str(r.tables), r.path]
        for t in counts:
            if t in r.rates:
                row += [f"{r.rates[t]:,.0f}", f"{r.cpu_per_wall[t]:.2f}"]
                if t > 1:
                    row.append(f"{r.rates[t] / r.rates[1]:.2f}x" if r.rates[1] else "-")
            else:               # the games in Python: one thread
                row += ["-", "-"] + (["-"] if t > 1 else [])
        rows.append(row)
    return heads, rows


def threads_note() -> str:
    """The line under the threaded rows: what they time, the cores and the load."""
    import os

    try:
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover
        load = "unknown"
    return wrap(f"(threads: the engine's step alone, a legal action per row chosen before "
                f"the clock starts; {os.cpu_count()} cores, load average {load}; a batch in "
                "Python runs on one thread)")


def format_threads(results: list[ThreadResult], markdown: bool = True,
                   width: int = WIDTH) -> str:
    """The threaded rows, in Markdown (``markdown``) or as plain text of ``width``
    columns, with the machine's load."""
    heads, rows = thread_rows(results)
    table = markdown_table(heads, rows) if markdown else text_table(heads, rows, width=width,
                                                                     keep=2)
    return f"{table}\n\n{threads_note()}"


class RulesOnly:
    """Random legal play on the engine alone: for each decider the mask, a uniform legal
    choice, then the joint move; no view, no observation, no env. Its games carry on
    between calls (:meth:`run`), as a batch's do."""

    def __init__(self, game_cls, num_players: int, seed: int = 0):
        self.game = game_cls(num_players)
        self.max_turns = game_cls.default_max_turns
        self.rng = np.random.default_rng(seed)
        self.uniform = self.rng.random(1 << 16)
        self.state = self.game.new_game(self.rng)

    def run(self, seconds: float) -> tuple[int, int, float]:
        """(decisions, finished games, CPU seconds) of ``seconds`` of play."""
        uniform, u = self.uniform, int(self.rng.integers(1 << 16))
        state = self.state
        steps = games = 0
        cpu_start = time.process_time()
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            joint = {}
            for p in state.current_players():
                legal = state.legal_actions_mask(p).nonzero()[0]
                u = (u + 1) & 0xFFFF
                joint[p] = int(legal[int(uniform[u] * len(legal))])
            steps += len(joint)
            state.apply_checked(joint)
            if state.is_terminal() or state.turns >= self.max_turns:
                state = self.game.new_game(self.rng)
                games += 1
        self.state = state
        return steps, games, time.process_time() - cpu_start


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


def player_counts(env_id: str, players: list[int] | None = None) -> list[int]:
    """The player counts benchmarked: every supported one, or those of ``players`` that
    the game supports."""
    from plunder.envs import game_class

    cls = game_class(env_id)
    counts = range(cls.min_players, cls.max_players + 1)
    return [n for n in counts if not players or n in players]


def run_bench(seconds: float = 3.0, games: list[str] | None = None,
              yardsticks: bool = True, rounds: int = 5, players: list[int] | None = None,
              batched: bool = True, observation_cost: bool = False) -> list[BenchResult]:
    """Benchmark the registered games (or ``games``) at every supported player count (or
    the counts in ``players``) and the yardsticks.

    PettingZoo envs are measured through ``env()`` (with PettingZoo's wrappers, as users
    run them) and through ``raw_env()``; plunder's games also through the batched path
    (``GameBatch`` with the games in Python, unless ``batched`` is false; a game with a
    compiled engine built gets a row of its own for ``GameBatch`` stepping it) and, with
    ``observation_cost``, through
    ``env()`` and the batched path with the encoding left out (:func:`free_observation`:
    how much of a step building the observation takes) and the rules alone
    (:class:`RulesOnly`: no view either). Each measurement gets ``seconds`` in
    all, split into ``rounds`` slices played in turn, so that a change in the machine's
    load during the run hits every entry alike.
    """
    from plunder.envs import ENV_IDS, env_module, game_class

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
        module = env_module(env_id)
        for n in player_counts(env_id, players):
            entries.append((env_id, n, lambda m=module, n=n, **kw: m.env(num_players=n, **kw),
                            lambda m=module, n=n: m.raw_env(num_players=n)))
    hearts = None
    if yardsticks:
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            pass
        else:
            hearts = BenchResult("openspiel:hearts", 4, 0, 0, 0.0)
    totals = {(name, n): BenchResult(name, n, 0, 0, 0.0) for name, n, _, _ in entries}
    batches, free_batches, compiled_batches = {}, {}, {}
    if batched:
        from plunder.envs.core.batch import GameBatch, engine_module

        batches = {(name, n): GameBatch(game_class(name), n, BATCH_GAMES, seed=0,
                                        compiled=False)
                   for name, n, _, _ in entries if name in ENV_IDS}
        # the same through the game's compiled engine, where built: a row of its own
        compiled_batches = {key: GameBatch(game_class(key[0]), key[1], BATCH_GAMES, seed=0)
                            for key in batches
                            if engine_module(game_class(key[0])) is not None}
        if observation_cost:
            free_batches = {key: free_observation_batch(
                GameBatch(game_class(key[0]), key[1], BATCH_GAMES, seed=0, compiled=False))
                for key in batches}
    rules = {}
    if observation_cost:
        rules = {(name, n): RulesOnly(game_class(name), n)
                 for name, n, _, _ in entries if name in ENV_IDS}
    for _ in range(rounds):
        for name, n, wrapped, raw in entries:
            total = totals[name, n]
            part = bench_aec(wrapped, name, n, seconds / rounds)
            total.steps += part.steps
            total.games += part.games
            total.seconds += part.seconds
            part = bench_aec(raw, name, n, seconds / rounds)
            total.raw_steps += part.steps
            total.raw_seconds += part.seconds
            if (name, n) in batches:
                part = bench_batch(batches[name, n], seconds / rounds)
                total.batch_steps += part.steps
                total.batch_seconds += part.seconds
            if (name, n) in compiled_batches:
                part = bench_batch(compiled_batches[name, n], seconds / rounds)
                row = totals.setdefault((f"{name} (compiled engine)", n),
                                        BenchResult(f"{name} (compiled engine)", n, 0, 0, 0.0))
                row.batch_steps += part.steps
                row.batch_seconds += part.seconds
            if (name, n) in free_batches:
                part = bench_batch(free_batches[name, n], seconds / rounds)
                total.free_batch_steps += part.steps
                total.free_batch_seconds += part.seconds
            if (name, n) in rules:
                steps, _, cpu = rules[name, n].run(seconds / rounds)
                total.rules_steps += steps
                total.rules_seconds += cpu
            if observation_cost and name in ENV_IDS:
                part = bench_aec(lambda w=wrapped: free_observation_env(w), name, n,
                                 seconds / rounds)
                total.free_steps += part.steps
                total.free_seconds += part.seconds
        if hearts is not None:
            part = bench_openspiel("hearts", seconds / rounds)
            hearts.steps += part.steps
            hearts.games += part.games
            hearts.seconds += part.seconds
    results = list(totals.values()) + ([hearts] if hearts is not None else [])
    for res in results:
        if res.seconds and not res.name.startswith(("texas", "leduc", "openspiel")):
            res.state_bytes = max_state_bytes(res.name, res.players)
    return results


def run_threads(seconds: float = 3.0, games: list[str] | None = None,
                players: list[int] | None = None, threads=(2,)) -> list[ThreadResult]:
    """The threaded rows of ``plunder speed``: every game (or ``games``) at the player
    counts asked for (default: its fewest and the benchmarked count), a compiled batch of
    ``THREAD_TABLES`` games on one thread and on each of ``threads``; a game without a
    compiled engine gets one Python row."""
    from plunder.envs import ENV_IDS, game_class

    out = []
    for env_id in games or ENV_IDS:
        cls = game_class(env_id)
        counts = player_counts(env_id, players) if players else \
            sorted({cls.min_players, default_players(env_id)})
        for n in counts:
            out.append(bench_threads(env_id, n, seconds, (1, *threads)))
    return out


def table_rows(results: list[BenchResult]) -> tuple[list[str], list[list[str]]]:
    """The headings and rows of the speed table: the ratios to texas_holdem_v4 (same API
    form; the batched path's ratio is to texas through ``env()``), and, where measured,
    the ``env()`` rate with a free observation, the share of a step that building it
    takes, the batched path's rate with a free observation and the rules' rate alone."""
    base = next((r for r in results if r.name == "texas_holdem_v4"), None)
    free = any(r.free_seconds for r in results)
    free_batch = any(r.free_batch_seconds for r in results)
    rules_only = any(r.rules_seconds for r in results)
    heads = ["env", "players", "env() agent-steps/s", "x texas", "raw_env() agent-steps/s",
             "x texas raw", "batched agent-steps/s per core", "x texas", "games/s",
             "cloned state"]
    heads += ["env() with a free observation", "x texas",
              "the observation's share of a step"] if free else []
    heads += ["batched with a free observation", "x texas"] if free_batch else []
    heads += ["rules and masks alone", "x texas"] if rules_only else []
    rows = []
    for r in results:
        if not r.seconds:        # a row of the batched path alone (the compiled engine)
            row = [r.name, str(r.players), "-", "-", "-", "-",
                   *_rate_cells(r.batch_steps_per_s, base), "-", "-"]
            row += ["-"] * (3 * free + 2 * free_batch + 2 * rules_only)
            rows.append(row)
            continue
        raw, batch = r.raw_steps_per_s, r.batch_steps_per_s
        row = [r.name, str(r.players), f"{r.steps_per_s:,.0f}",
               f"{r.steps_per_s / base.steps_per_s:.1f}x" if base else "-",
               f"{raw:,.0f}" if raw else "-",
               f"{raw / base.raw_steps_per_s:.1f}x"
               if raw and base and base.raw_steps_per_s else "-",
               *_rate_cells(batch, base), f"{r.games_per_s:,.1f}",
               f"{r.state_bytes / 1024:.1f} KB" if r.state_bytes is not None else "-"]
        rate = r.free_steps_per_s
        if rate:
            row += [f"{rate:,.0f}", f"{rate / base.steps_per_s:.1f}x" if base else "-",
                    f"{1 - r.steps_per_s / rate:.0%}"]
        elif free:
            row += ["-", "-", "-"]
        if free_batch:
            row += _rate_cells(r.free_batch_steps_per_s, base)
        if rules_only:
            row += _rate_cells(r.rules_steps_per_s, base)
        rows.append(row)
    return heads, rows


def markdown_table(heads: list[str], rows: list[list[str]]) -> str:
    """A Markdown table, one row per line (for the docs: ``plunder speed --markdown``)."""
    lines = ["| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


def format_table(results: list[BenchResult]) -> str:
    """The speed table in Markdown (``plunder speed --markdown``)."""
    return markdown_table(*table_rows(results))


def format_text(results: list[BenchResult], width: int = WIDTH) -> str:
    """The speed table as plain text of ``width`` columns, in bands that repeat the env
    and its player count (``plunder speed``)."""
    heads, rows = table_rows(results)
    return text_table(heads, rows, width=width, keep=2)


def _rate_cells(rate: float | None, base: BenchResult | None) -> list[str]:
    """Two table cells: a rate and its ratio to texas through ``env()`` ("-" if unknown)."""
    if not rate:
        return ["-", "-"]
    return [f"{rate:,.0f}", f"{rate / base.steps_per_s:.1f}x" if base else "-"]
