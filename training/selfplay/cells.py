"""The tables a game's shipped bots are trained for, and training the ones still missing.

A *cell* is one shipped network: a game, a player count and a variant (``""`` for the
game's default rules). The packaged config ``configs/train/<game>.yaml`` names them: every
player count the game supports (its ``by_players`` settings tune each), and, for each
entry of its ``variants`` table, the player counts that entry's ``players`` lists.
``plunder benchmark train-missing`` trains every cell whose final bot is not in the
manifest yet, one after another, and ships each as it finishes
(:func:`train_missing`); a stopped call resumes where it stopped, since shipped cells are
skipped and a run directory with checkpoints is resumed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from plunder.envs import ENV_IDS, game_class

#: every packaged run should take less than this on 2 cores (its budget is set for it)
RUN_MINUTES = 30


@dataclass(frozen=True)
class Cell:
    """One shipped network: game, players, variant ('' for the default rules)."""

    env_id: str
    num_players: int
    variant: str = ""

    @property
    def name(self) -> str:
        """``scallywags-3p`` or ``all_hands_battle-2p-prize_crew`` (its run directory's)."""
        from plunder.training.games import game_name

        variant = f"-{self.variant}" if self.variant else ""
        return f"{game_name(self.env_id)}-{self.num_players}p{variant}"

    @property
    def overrides(self) -> list[str]:
        """The config overrides that make this cell's run from the packaged config."""
        return [f"num_players={self.num_players}"] + \
            ([f"variant={self.variant}"] if self.variant else [])

    def config(self):
        """The cell's resolved training config (packaged config, its count, its variant)."""
        from .config import load_config

        return load_config(self.env_id, None, self.overrides)

    def run_dir(self, runs: str | Path = "runs") -> Path:
        """``RUNS/<game>-<n>p[-<variant>]`` (``plunder train``'s default under ``runs``)."""
        return Path(runs) / self.name

    @property
    def command(self) -> str:
        """The ``plunder train`` command that trains this cell."""
        from plunder.training.games import game_name

        variant = f" --set variant={self.variant}" if self.variant else ""
        return f"plunder train {game_name(self.env_id)} --players {self.num_players}{variant}"


def config_cells(game: str) -> list[Cell]:
    """Every cell the packaged config of ``game`` names: each supported player count of the
    default rules, then each variant at its listed counts (in the file's order)."""
    from .config import default_config_path, load_yaml, resolve_env_id, variant_table

    env_id = resolve_env_id(game)
    cls = game_class(env_id)
    cells = [Cell(env_id, n) for n in range(max(2, cls.min_players), cls.max_players + 1)]
    path = default_config_path(env_id)
    if path is None:
        return cells
    data = load_yaml(path)
    for name, entry in variant_table(data if isinstance(data, dict) else {}, str(path)).items():
        cells += [Cell(env_id, int(n), name) for n in entry["players"]]
    return cells


def all_cells(games: list[str] | None = None) -> list[Cell]:
    """The cells of ``games`` (default: every registered game with a packaged config)."""
    from .config import default_config_path

    chosen = games or [e for e in ENV_IDS if default_config_path(e) is not None]
    return [c for g in chosen for c in config_cells(g)]


def shipped_entry(cell: Cell, folder: str | Path | None = None) -> dict | None:
    """The manifest entry of the cell's shipped final bot, or None."""
    from plunder.policies.pretrained import load_manifest

    for e in load_manifest(folder)["bots"].values():
        if (e["env_id"], int(e["num_players"]), e.get("variant", ""), e["strength"]) == \
                (cell.env_id, cell.num_players, cell.variant, "final"):
            return e
    return None


def cell_status(cell: Cell, runs: str | Path = "runs", folder=None) -> str:
    """``shipped``, ``trained`` (finished, not shipped), ``started`` (checkpoints, not
    finished) or ``missing``."""
    from .train import checkpoint_paths, load_checkpoint

    if shipped_entry(cell, folder) is not None:
        return "shipped"
    paths = checkpoint_paths(cell.run_dir(runs))
    if not paths:
        return "missing"
    steps = int(load_checkpoint(paths[-1]).meta["steps"])
    done = steps >= cell.config().total_timesteps and (cell.run_dir(runs) / "bot.onnx").is_file()
    return "trained" if done else "started"


def train_missing(games: list[str] | None = None, runs: str | Path = "runs",
                  dest: str | Path | None = None, dry_run: bool = False,
                  echo: Callable[[str], None] = print, early: bool = False) -> list[dict]:
    """Train and ship every cell of ``games`` whose final bot the manifest (in ``dest``,
    default the package's) lacks, one after another, in :func:`all_cells` order: a run
    directory with checkpoints is resumed (a finished one is shipped as it is), else the
    cell trains from its packaged config. With ``dry_run`` only the status of every cell
    and its command are printed. Each ships its final bot, and with ``early`` its early bot
    too (the levels need only the final one; the early bots would push the package past
    its size). Returns one row per cell: cell, status before, seconds."""
    from plunder.training.benchmark.ship import ship

    from .config import config_from_dict
    from .train import latest_checkpoint, train

    rows = []
    for cell in all_cells(games):
        status = cell_status(cell, runs, dest)
        rows.append({"cell": cell.name, "status": status, "command": cell.command,
                     "seconds": 0.0})
        if dry_run or status == "shipped":
            echo(f"{cell.name}: {status} ({cell.command})")
            continue
        echo(f"{cell.name}: {status}; {'resuming' if status != 'missing' else 'training'}: "
             f"{cell.command} --run-dir {cell.run_dir(runs)}")
        t0 = time.perf_counter()
        if status == "started":     # on with the run's own saved config, as --resume is
            saved = dict(latest_checkpoint(cell.run_dir(runs)).meta["config"])
            saved.setdefault("device", "cpu")
            train(config_from_dict(saved, f"{cell.run_dir(runs)} (saved config)"),
                  cell.run_dir(runs), resume=True, echo=echo)
        elif status == "missing":
            train(cell.config(), cell.run_dir(runs), echo=echo)
        ship([cell.run_dir(runs)], dest=dest, echo=echo, early=early)
        rows[-1]["seconds"] = round(time.perf_counter() - t0, 1)
        echo(f"{cell.name}: shipped after {rows[-1]['seconds']:.0f}s")
        if rows[-1]["seconds"] > RUN_MINUTES * 60 and status == "missing":
            echo(f"{cell.name}: took more than the {RUN_MINUTES} minutes its budget allows on "
                 f"2 cores; lower its by_players total_timesteps in the config")
    return rows
