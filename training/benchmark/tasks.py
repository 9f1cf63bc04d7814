"""The registry of benchmark tasks: a game, a player count, a variant, the opponents that
fill the other seats, the number of evaluation games and the tournament seed.

A task is frozen and versioned: any change that could change its results (opponents,
games, seed, variant, turn limit) must bump ``version``, and results name the version they
were measured on. A task that plays shipped pretrained bots takes their revision in the
manifest as its version (``plunder benchmark ship`` counts it up whenever it replaces a
bot file), so replacing the bots of a cell makes new versions of exactly its tasks.
Opponent sets:

- ``heuristic``: every other seat is the game's heuristic bot (which every packaged
  training config trains against);
- ``ladder``: each other seat is drawn from a graded set (random < heuristic <
  pretrained early < pretrained final);
- ``heldout``: shipped bots no packaged training config names (the pretrained early and
  final bots, and the final one sampling its moves), which a method trained with
  plunder's configs has never met (tested: tests/benchmark/test_heldout.py scans
  configs/train/*.yaml);
- ``search``: held out too, the determinized search bot at a fixed budget (slow, so fewer
  games, and only for the games where it takes at most a few seconds per game).

Line-ups are not random: game ``g`` puts the evaluated policy in seat ``g mod n`` and fills
the other seats, in seat order, with combination ``(g div n) mod K`` of the opponents
(all ``K = k**(n-1)`` ordered choices of ``k`` opponents, in ``itertools.product`` order),
so every seat and every combination comes round equally often. The tournament seed of a
task is ``BENCHMARK_SEED_BASE + crc32(name)``: its games are seeded by
:func:`plunder.training.evaluation.game_seed`, above ``2**64`` like every evaluation game
(never a training game) and, with a tournament seed above ``2**32``, apart from every
training run's periodic and final evaluation games too.
"""

from __future__ import annotations

import itertools
import zlib
from dataclasses import dataclass, field

from plunder.envs import game_class
from plunder.envs.core.registry import shipped
from plunder.envs.core import InvalidArgumentError
from plunder.policies.pretrained import load_manifest

#: tournament seeds of benchmark tasks start here (training runs' evaluation tournaments
#: use seeds below 2**32 + their step count)
BENCHMARK_SEED_BASE = 2**40
#: the player counts every game has tasks (and shipped bots) for
TASK_PLAYER_COUNTS = (2, 4)
#: games per task (a 95% interval of about ±3 points) and for the slow search tasks
DEFAULT_GAMES = 1000
SEARCH_GAMES = 200
#: the search bot's budget in the search tasks (sampled states per move)
SEARCH_SAMPLES = 4
#: opponent sets: name -> (specs, held out, games, description)
OPPONENT_SETS: dict[str, tuple[tuple[str, ...], bool, int, str]] = {
    "heuristic": (("heuristic",), False, DEFAULT_GAMES,
                  "every other seat the game's heuristic bot"),
    "ladder": (("random", "heuristic", "pretrained:early", "pretrained:final"), False,
               DEFAULT_GAMES, "each other seat one of a graded set: random, heuristic, "
                              "pretrained early, pretrained final"),
    "heldout": (("pretrained:early", "pretrained:final", "pretrained:final:sampled"), True,
                DEFAULT_GAMES, "each other seat one of the shipped pretrained bots (early, "
                               "final, final drawing its moves from its probabilities), "
                               "which no packaged training config names"),
    "search": ((f"search:{SEARCH_SAMPLES}",), True, SEARCH_GAMES,
               f"every other seat the determinized search bot ({SEARCH_SAMPLES} sampled "
               "states per move; held out; slow, hence fewer games)"),
}
#: games with a ``search`` task: the search bot costs about 0.6-2.3 s per 2-player game
#: in these, but 14 s (Anchors Aweigh!) and 44 s (All Hands battle) in the others
#: (measured on the 2-core machine), too slow for a benchmark task
SEARCH_TASK_GAMES = ("scallywags_v0", "shipshape_v0", "all_hands_crew_v0")


@dataclass(frozen=True)
class Task:
    """One benchmark task (see the module doc); frozen, versioned."""

    name: str
    env_id: str
    num_players: int
    opponents: tuple[str, ...]
    games: int
    held_out: bool
    description: str
    options: tuple[tuple[str, object], ...] = ()
    max_turns: int | None = None
    version: int = 1
    seed: int = field(default=-1)

    def __post_init__(self):
        cls = game_class(self.env_id)
        if not cls.min_players <= self.num_players <= cls.max_players:
            raise InvalidArgumentError(f"task {self.name}: {self.env_id} takes "
                                       f"{cls.min_players}-{cls.max_players} players")
        if not self.opponents or self.games < 1:
            raise InvalidArgumentError(f"task {self.name}: needs opponents and games >= 1")
        if self.seed == -1:
            object.__setattr__(self, "seed", task_seed(self.name))

    @property
    def option_dict(self) -> dict:
        """The variant options as a dict."""
        return dict(self.options)

    def lineup(self, game: int) -> tuple[int, list[int]]:
        """(the evaluated policy's seat, the opponent index of every seat; -1 for the
        policy's) of game ``game``."""
        n = self.num_players
        combos = opponent_combinations(len(self.opponents), n)
        seat = game % n
        combo = combos[(game // n) % len(combos)]
        others = iter(combo)
        return seat, [-1 if s == seat else next(others) for s in range(n)]

    def to_dict(self) -> dict:
        """JSON-ready description (what results cite)."""
        return {"name": self.name, "version": self.version, "env_id": self.env_id,
                "num_players": self.num_players, "options": self.option_dict,
                "opponents": list(self.opponents), "held_out": self.held_out,
                "games": self.games, "seed": self.seed, "max_turns": self.max_turns,
                "description": self.description}


def task_seed(name: str) -> int:
    """The tournament seed of the task called ``name``."""
    return BENCHMARK_SEED_BASE + zlib.crc32(name.encode())


def opponent_combinations(k: int, num_players: int) -> list[tuple[int, ...]]:
    """Every ordered choice of the ``k`` opponents for the ``num_players - 1`` other
    seats, in ``itertools.product`` order."""
    return list(itertools.product(range(k), repeat=num_players - 1))


def _short(env_id: str) -> str:
    return env_id.rsplit("_v", 1)[0].replace("_", "-")


def pretrained_revision(env_id: str, num_players: int, manifest: dict | None = None) -> int:
    """The highest manifest revision of the shipped bots of (game, players) for its default
    rules: the version of the tasks that play them (1 when none is shipped)."""
    bots = (manifest or load_manifest())["bots"].values()
    return max((int(e.get("revision", 1)) for e in bots
                if e["env_id"] == env_id and int(e["num_players"]) == num_players
                and not e.get("variant")), default=1)


def _build() -> dict[str, Task]:
    tasks = {}
    manifest = load_manifest()
    for env_id in [s.env_id for s in shipped()]:     # a game registered later joins none
        for n in TASK_PLAYER_COUNTS:
            for set_name, (specs, held_out, games, what) in OPPONENT_SETS.items():
                if set_name == "search" and env_id not in SEARCH_TASK_GAMES:
                    continue
                name = f"{_short(env_id)}-{n}p-{set_name}"
                plays_shipped = any(s.startswith("pretrained") for s in specs)
                version = pretrained_revision(env_id, n, manifest) if plays_shipped else 1
                tasks[name] = Task(name, env_id, n, specs, games, held_out,
                                   f"{game_class(env_id).env_id()}, {n} players: {what}",
                                   version=version)
    return tasks


#: every task, by name
TASKS: dict[str, Task] = _build()


def get_task(name: str) -> Task:
    """The task called ``name`` (a clear error listing similar names otherwise)."""
    if isinstance(name, Task):
        return name
    if name not in TASKS:
        near = [t for t in TASKS if name and name.split("-")[0] in t] or list(TASKS)[:8]
        raise InvalidArgumentError(f"unknown benchmark task {name!r}; e.g. "
                                   f"{', '.join(near)} (`plunder benchmark list`)")
    return TASKS[name]


def held_out_specs() -> set[str]:
    """Every opponent spec of a held-out opponent set."""
    return {s for t in TASKS.values() if t.held_out for s in t.opponents}


def tasks_markdown() -> str:
    """The task table of docs/benchmark.md, generated from the registry."""
    rows = ["| task | version | game | players | opponents (per other seat) | held out | "
            "games | tournament seed |", "|---|---|---|---|---|---|---|---|"]
    for t in TASKS.values():
        rows.append(f"| `{t.name}` | {t.version} | `{t.env_id}` | {t.num_players} | "
                    f"{', '.join(f'`{o}`' for o in t.opponents)} | "
                    f"{'yes' if t.held_out else 'no'} | {t.games} | {t.seed} |")
    return "\n".join(rows) + "\n"
