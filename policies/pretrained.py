"""Pretrained bots shipped inside the package: ``make_bot("pretrained[:STRENGTH][:sampled]",
...)`` (greedy: the likeliest legal move; ``:sampled`` draws moves from the network's
probabilities with the bot's seeded generator).

Exported ONNX bots live in ``plunder/policies/pretrained/`` (``<game>_<n>p_<strength>.onnx``,
``<game>_<n>p_<variant>_<strength>.onnx`` for a named variant of the training config), for
every game at 2 and 4 players and for the other tables the training configs name as they
are trained (``plunder benchmark train-missing``). A bot is looked up by its game, player
count, strength and the variant options of the table (``find_entry``: the manifest entry
whose options, defaults filled in, are the table's). Two strengths come from each run:

- ``final``: the run's last policy (what ``plunder train`` exports as ``RUN/bot.onnx``);
- ``early``: the league snapshot of the same learner nearest 25% of its training steps
  (snapshots are the learner's actor weights, taken every ``league.snapshot_every`` steps,
  the first right after the imitation warm start; the run keeps the one nearest a
  quarter in ``RUN/early_snapshot.npz``). Snapshots keep no critic, so an early bot has
  no ``value`` output (format ``plunder-bot/1``): it plays, but ``netsearch`` cannot
  search with it. The manifest's ``snapshot_step`` says which snapshot a file is.

``manifest.json`` beside the files says, per file: game, players, variant options and the
variant's name (``variant``; empty for the default rules), strength,
the training config and the exact ``plunder train`` command, training steps (and the
snapshot's step), the git commit, sha256 and size, the final evaluation when known, and
whether it is a placeholder (a small development bot, to be replaced by
``plunder benchmark ship``; docs/benchmark.md). Loading needs only ``onnxruntime``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from plunder.envs.core import InvalidArgumentError, ModelFileError

#: folder of the shipped bots and their manifest
PRETRAINED_DIR = Path(__file__).resolve().parent / "pretrained"
#: the manifest's file name and format
MANIFEST_NAME = "manifest.json"
MANIFEST_FORMAT = "plunder-pretrained/1"
#: strengths, weakest first; ``pretrained`` alone means the last one
STRENGTHS = ("early", "final")


def bot_file_name(env_id: str, num_players: int, strength: str, variant: str = "") -> str:
    """``<game>_<n>p_<strength>.onnx``, or ``<game>_<n>p_<variant>_<strength>.onnx`` for a
    named variant (the game without its version suffix)."""
    if strength not in STRENGTHS:
        raise InvalidArgumentError(f"unknown strength {strength!r}; use one of "
                                   f"{', '.join(STRENGTHS)}")
    game = env_id.rsplit("_v", 1)[0]
    return f"{game}_{num_players}p{'_' + variant if variant else ''}_{strength}.onnx"


def load_manifest(folder: str | Path | None = None) -> dict:
    """The manifest of the shipped bots (an empty one when nothing is shipped)."""
    path = Path(folder or PRETRAINED_DIR) / MANIFEST_NAME
    if not path.is_file():
        return {"format": MANIFEST_FORMAT, "bots": {}}
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise ModelFileError(f"{path} is damaged: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != MANIFEST_FORMAT \
            or not isinstance(data.get("bots"), dict):
        raise ModelFileError(f"{path} is not a {MANIFEST_FORMAT} manifest")
    return data


def shipped(folder: str | Path | None = None) -> list[tuple[str, int, str]]:
    """(env id, players, strength) of every shipped bot of a game's default rules, sorted
    (:func:`shipped_variants` lists every bot, variants included)."""
    return sorted((e, n, s) for e, n, v, s in shipped_variants(folder) if not v)


def shipped_variants(folder: str | Path | None = None) -> list[tuple[str, int, str, str]]:
    """(env id, players, variant, strength) of every shipped bot, sorted (variant '' for
    the game's default rules)."""
    return sorted((e["env_id"], int(e["num_players"]), e.get("variant", ""), e["strength"])
                  for e in load_manifest(folder)["bots"].values())


def parse_spec(arg: str) -> tuple[str, bool]:
    """(strength, sampled) from the part of a ``pretrained[:STRENGTH][:sampled]`` spec
    after the first colon."""
    parts = arg.split(":") if arg else []
    sampled = bool(parts) and parts[-1] == "sampled"
    if sampled:
        parts = parts[:-1]
    strength = parts[0] if len(parts) == 1 else STRENGTHS[-1] if not parts else None
    if strength not in STRENGTHS:
        raise InvalidArgumentError(
            f"pretrained:{arg} names no strength; use pretrained, "
            f"{', '.join(f'pretrained:{s}' for s in STRENGTHS)} (add :sampled to draw moves "
            f"from the network's probabilities)")
    return strength, sampled


def _option_values(env_id: str, num_players: int, options: dict | None) -> dict:
    """The game's option values (defaults filled in) as JSON has them (the manifest's)."""
    from plunder.envs import game_class

    values = game_class(env_id).check_options(dict(options or {}))
    return json.loads(json.dumps(values))


def _changed_options(env_id: str, values: dict) -> dict:
    """The options of ``values`` that differ from the game's defaults."""
    defaults = _option_values(env_id, 2, {})
    return {k: v for k, v in values.items() if defaults.get(k) != v}


def find_entry(env_id: str, num_players: int, strength: str = "final",
               options: dict | None = None,
               folder: str | Path | None = None) -> tuple[str, dict] | None:
    """(file name, manifest entry) of the shipped bot for this game, player count and
    strength that plays the variant ``options`` (None: the game's default rules), or None
    when none is shipped. A bot plays the options its entry records, defaults filled in."""
    want = _option_values(env_id, num_players, options)
    for name, e in load_manifest(folder)["bots"].items():
        if e["env_id"] == env_id and int(e["num_players"]) == num_players \
                and e["strength"] == strength \
                and json.loads(json.dumps(e.get("options", {}))) == want:
            return name, e
    return None


def _shipped_listing(env_id: str, strength: str, folder) -> str:
    """``2p, 4p, 2p prize_crew``: the tables of ``env_id`` with a shipped bot of
    ``strength``, default rules first."""
    cells = [(v, n) for e, n, v, s in shipped_variants(folder) if e == env_id and s == strength]
    return ", ".join(f"{n}p{' ' + v if v else ''}" for v, n in sorted(cells)) or "none"


def pretrained_path(env_id: str, num_players: int, strength: str = "final",
                    folder: str | Path | None = None, verify: bool = False,
                    options: dict | None = None) -> Path:
    """The shipped bot file for (game, players, strength) and the variant ``options``
    (None: the default rules); a clear error listing what is shipped when there is none.
    ``verify`` also checks its sha256 against the manifest."""
    folder = Path(folder or PRETRAINED_DIR)
    if strength not in STRENGTHS:
        raise InvalidArgumentError(f"unknown strength {strength!r}; use one of "
                                   f"{', '.join(STRENGTHS)}")
    found = find_entry(env_id, num_players, strength, options, folder)
    if found is None or not (folder / found[0]).is_file():
        changed = _changed_options(env_id, _option_values(env_id, num_players, options))
        rules = f" and options {changed}" if changed else ""
        raise InvalidArgumentError(
            f"no pretrained {strength} bot for {env_id} with {num_players} players{rules}; "
            f"shipped for {env_id}: {_shipped_listing(env_id, strength, folder)}")
    name, entry = found
    path = folder / name
    if verify:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest != entry["sha256"]:
            raise ModelFileError(f"{path}: sha256 {digest} does not match the manifest's "
                                 f"{entry['sha256']} (damaged or replaced by hand)")
    return path


def manifest_entry(env_id: str, num_players: int, strength: str = "final",
                   folder: str | Path | None = None, options: dict | None = None) -> dict:
    """The manifest entry of one shipped bot (same errors as ``pretrained_path``)."""
    path = pretrained_path(env_id, num_players, strength, folder, options=options)
    return load_manifest(path.parent)["bots"][path.name]
