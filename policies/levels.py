"""Named strength levels: ``make_bot("level:NAME", env_id, num_players=n)``.

Every game and player count has four levels, weakest first (``LEVELS``): ``novice``,
``casual``, ``strong`` and ``expert``. What each one plays is declared in one table,
``pretrained/levels.toml`` beside the shipped bots' manifest: per level a bot spec (any
spec :func:`~plunder.policies.base.make_bot` takes) and the sentence a menu shows, with
``[[override]]`` entries that give one game (and optionally some player counts) another
bot or sentence for a level. By default:

- ``novice``: ``noisy:0.5:heuristic``, the game's scripted bot playing a uniformly random
  legal move at half its decisions (:class:`NoisyPolicy`);
- ``casual``: ``heuristic``;
- ``strong``: ``pretrained``, the shipped final network of that table;
- ``expert``: ``netsearch:pretrained``, the search with that network.

A level whose bot needs a network that is not shipped for the table (a player count or
variant not trained yet) is not playable there: ``make_bot`` raises an error naming the
shipped tables and the levels that are playable. :func:`level_menu` gives the playable
levels of a table as (name, sentence) pairs, for a bot menu; :func:`level_table` all four
with their bot specs and why a level is not playable. ``plunder benchmark leaderboard``
rates the levels on one scale (docs/benchmark.md#leaderboards).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np

from plunder.envs.core import InvalidArgumentError, ModelFileError, PlunderError

from .base import ask_bot, check_mask

#: the levels, weakest first
LEVELS = ("novice", "casual", "strong", "expert")
#: the table's file (package data beside the shipped bots) and format
LEVELS_FILE = Path(__file__).resolve().parent / "pretrained" / "levels.toml"
LEVELS_FORMAT = "plunder-levels/1"


class NoisyPolicy:
    """Another bot's moves, except that at a ``share`` of its decisions (drawn with its own
    seeded generator) it plays a uniformly random legal move instead: ``noisy:SHARE:SPEC``.
    The inner bot is asked at every decision, so a bot that remembers what it saw keeps
    its memory as if it played alone."""

    def __init__(self, inner, share: float, seed: int | None = None, name: str = "noisy"):
        if not 0.0 <= share <= 1.0:
            raise InvalidArgumentError(f"a noisy bot's share of random moves is within 0..1, "
                                       f"got {share!r}")
        self.inner, self.share, self.name = inner, float(share), name
        self.needs_view = bool(getattr(inner, "needs_view", False))
        seq = np.random.SeedSequence(seed)
        self.rng = np.random.default_rng(seq.spawn(1)[0])

    @property
    def samples(self):
        """The inner bot's search budget, if it searches (what a server limits)."""
        return getattr(self.inner, "samples", None)

    def reset(self) -> None:
        """The inner bot forgets the previous game (the generator keeps running)."""
        self.inner.reset()

    def _noisy(self, action: int, action_mask) -> int:
        if self.rng.random() < self.share:
            return int(self.rng.choice(check_mask(action_mask)))
        return int(action)

    def act(self, observation, action_mask) -> int:
        """The inner bot's move, or at random a random legal one."""
        return self._noisy(self.inner.act(observation, action_mask), action_mask)

    def act_view(self, view, action_mask) -> int:
        """The same for an inner bot that plays from the seat's view."""
        return self._noisy(ask_bot(self.inner, view, None, action_mask), action_mask)


def parse_noisy(spec: str) -> tuple[float, str]:
    """(share, inner spec) of ``noisy:SHARE:SPEC``; SHARE is a decimal number in 0..1."""
    _, _, rest = spec.partition(":")
    share, sep, inner = rest.partition(":")
    try:
        value = float(share) if share.strip() == share and share.isascii() else None
    except ValueError:
        value = None
    if value is None or not 0.0 <= value <= 1.0 or not sep or not inner:
        raise InvalidArgumentError(f"{spec!r}: use noisy:SHARE:SPEC, SHARE the share of "
                                   "random moves within 0..1 and SPEC the bot that plays the "
                                   "others, e.g. noisy:0.5:heuristic")
    if inner.partition(":")[0] == "level":
        raise InvalidArgumentError(f"{spec!r}: a noisy bot wraps a bot spec, not a level")
    return value, inner


# -- the table -------------------------------------------------------------------------------

def load_levels(path: str | Path | None = None) -> dict:
    """The checked levels table: ``{"levels": {name: {"bot", "sentence"}}, "override":
    [...]}``; a damaged or malformed file is a ModelFileError naming what is wrong."""
    path = Path(path or LEVELS_FILE)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ModelFileError(f"cannot read the levels table {path}: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ModelFileError(f"{path} is not valid TOML: {exc}") from None
    if data.get("format") != LEVELS_FORMAT:
        raise ModelFileError(f"{path}: format must be {LEVELS_FORMAT!r}, got "
                             f"{data.get('format')!r}")
    levels = data.get("levels")
    if not isinstance(levels, dict) or list(levels) != list(LEVELS):
        raise ModelFileError(f"{path}: [levels] must give {', '.join(LEVELS)}, in this order")
    for name, entry in levels.items():
        _check_entry(entry, f"{path}: levels.{name}", required=True)
    overrides = data.get("override", [])
    if not isinstance(overrides, list):
        raise ModelFileError(f"{path}: override must be a list of [[override]] tables")
    for i, entry in enumerate(overrides):
        where = f"{path}: override[{i}]"
        if not isinstance(entry, dict) or entry.get("level") not in LEVELS \
                or not isinstance(entry.get("game"), str):
            raise ModelFileError(f"{where}: needs game = \"...\" and level = one of "
                                 f"{', '.join(LEVELS)}")
        players = entry.get("players")
        if players is not None and (not isinstance(players, list) or not players or any(
                isinstance(n, bool) or not isinstance(n, int) for n in players)):
            raise ModelFileError(f"{where}: players must be a list of player counts")
        unknown = sorted(set(entry) - {"game", "players", "level", "bot", "sentence"})
        if unknown:
            raise ModelFileError(f"{where}: unknown key(s) {unknown}")
        _check_entry(entry, where, required=False)
    return {"levels": levels, "override": overrides}


def _check_entry(entry, where: str, required: bool) -> None:
    if not isinstance(entry, dict):
        raise ModelFileError(f"{where}: expected a table with bot and sentence")
    for key in ("bot", "sentence"):
        value = entry.get(key)
        if (required or key in entry) and (not isinstance(value, str) or not value.strip()):
            raise ModelFileError(f"{where}: {key} must be a non-empty string")
    if not required and "bot" not in entry and "sentence" not in entry:
        raise ModelFileError(f"{where}: an override gives a bot, a sentence or both")


def _env_id(game: str) -> str:
    from plunder.envs import ENV_IDS

    for env_id in ENV_IDS:
        if game in (env_id, env_id.rsplit("_v", 1)[0]):
            return env_id
    raise InvalidArgumentError(f"unknown game {game!r}; games: {', '.join(ENV_IDS)}")


def level_spec(level: str, env_id: str, num_players: int,
               table: dict | None = None) -> tuple[str, str]:
    """(bot spec, sentence) of ``level`` at this game and player count."""
    if level not in LEVELS:
        raise InvalidArgumentError(f"unknown level {level!r}; the levels are "
                                   f"{', '.join(LEVELS)} (level:NAME)")
    table = table or load_levels()
    entry = dict(table["levels"][level])
    for o in table["override"]:
        if o["level"] == level and _env_id(o["game"]) == env_id \
                and (o.get("players") is None or num_players in o["players"]):
            entry.update({k: o[k] for k in ("bot", "sentence") if k in o})
    return entry["bot"], entry["sentence"]


def level_table(env_id: str, num_players: int, options: dict | None = None) -> list[dict]:
    """Every level of this table, weakest first: name, bot spec, sentence, whether it is
    playable (its bot can be made for these players and options) and, if not, why."""
    from .base import make_bot

    table = load_levels()
    rows = []
    for level in LEVELS:
        spec, sentence = level_spec(level, env_id, num_players, table)
        reason = None
        try:
            make_bot(spec, env_id, num_players, seed=0, **dict(options or {}))
        except PlunderError as exc:
            reason = str(exc)
        except ImportError as exc:      # onnxruntime, for the network levels
            reason = f"needs onnxruntime (pip install 'plunder[onnx]'): {exc}"
        rows.append({"level": level, "bot": spec, "sentence": sentence,
                     "playable": reason is None, "reason": reason})
    return rows


def level_menu(env_id: str, num_players: int,
               options: dict | None = None) -> list[tuple[str, str]]:
    """(name, sentence) of every level playable at this table, weakest first: what a bot
    menu lists (``level:NAME`` makes the bot)."""
    return [(r["level"], r["sentence"]) for r in level_table(env_id, num_players, options)
            if r["playable"]]


def make_level_bot(level: str, env_id: str, num_players: int, seed: int | None = None,
                   **options):
    """The bot of ``level`` at this table (``make_bot("level:NAME", ...)``); a level that
    is not playable there is an InvalidArgumentError naming what it needs and the levels
    that are playable."""
    from .base import make_bot

    spec, _ = level_spec(level, env_id, num_players)
    try:
        bot = make_bot(spec, env_id, num_players, seed=seed, **options)
    except PlunderError as exc:
        playable = [name for name, _ in level_menu(env_id, num_players, options)]
        raise InvalidArgumentError(
            f"level {level} ({spec}) cannot play {env_id} with {num_players} players"
            f"{f' and options {options}' if options else ''}: {exc}. Playable levels there: "
            f"{', '.join(playable) or 'none'}") from None
    bot.name = f"level:{level}"
    return bot
