"""Exported bots: play a ``plunder export`` ONNX file with onnxruntime alone (no torch).

>>> bot = OnnxPolicy("runs/scallywags-2p/bot.onnx", env_id="scallywags_v0", num_players=2)
>>> action = bot.act(observation, action_mask)

The file's metadata names the game, its version, the player count, the variant options and
the observation/action sizes it was trained on; a file that does not match the game you ask
for (or whose observation layout changed since) is refused with a ``ModelFileError`` that
says what differs, as is a damaged file. By default the bot plays the most likely legal
action (``greedy=True``); with ``greedy=False`` it samples from the masked probabilities
with its own seeded generator.

A bot trained with its game's perfect-recall variant (metadata ``recall: true``; training
config key ``recall``) plays the game without that variant through a memory of what its
seat saw (``Game.observation_memory()``): ``act`` turns each observation into the one the
variant would show before the network reads it, and ``reset`` forgets the game. Such a bot
is per seat and per game, so ``act_batch``, ``probs`` and ``evaluate`` (many seats or
states at once) refuse it; in the perfect-recall variant itself it needs no memory.

Formats: ``plunder-bot/2`` files (written since the value output was added) also output
``value``, the critic's estimate of the seat's discounted reward from its observation
(what :mod:`plunder.policies.netsearch` evaluates positions with); ``plunder-bot/1``
files have no value output and still play as ``trained:`` / ``sampled:`` bots. Any other
format is refused.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from plunder.envs import game_class
from plunder.envs.core import InvalidArgumentError, ModelFileError, PlunderError

#: the format ``plunder export`` writes
BOT_FORMAT = "plunder-bot/2"
#: formats this loader reads -> whether the graph has the ``value`` output
BOT_FORMATS = {"plunder-bot/1": False, "plunder-bot/2": True}


def read_metadata(path: str | Path) -> dict:
    """The plunder metadata of an exported bot (ModelFileError if damaged or foreign)."""
    return _open(Path(path))[1]


def _open(path: Path):
    import onnxruntime as ort

    if not path.is_file():
        raise ModelFileError(f"no bot file at {path}")
    try:
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        opts.log_severity_level = 4
        session = ort.InferenceSession(str(path), sess_options=opts,
                                       providers=["CPUExecutionProvider"])
        raw = session.get_modelmeta().custom_metadata_map.get("plunder")
    except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own exception types
        raise ModelFileError(f"{path} is not a loadable ONNX model (damaged?): "
                             f"{str(exc).strip().splitlines()[0][:300]}") from None
    if raw is None:
        raise ModelFileError(f"{path} is an ONNX model but not a plunder bot "
                             "(no 'plunder' metadata)")
    try:
        meta = json.loads(raw)
    except json.JSONDecodeError:
        raise ModelFileError(f"{path}: the plunder metadata is damaged") from None
    if not isinstance(meta, dict) or meta.get("format") not in BOT_FORMATS:
        raise ModelFileError(f"{path}: unsupported bot format "
                             f"{meta.get('format') if isinstance(meta, dict) else meta!r}; "
                             f"expected one of {sorted(BOT_FORMATS)}")
    names = {i.name for i in session.get_inputs()}
    outs = {o.name for o in session.get_outputs()}
    needed = {"action", "action_probs", "value"} if BOT_FORMATS[meta["format"]] \
        else {"action", "action_probs"}
    if names != {"observation", "action_mask"} or not needed <= outs:
        raise ModelFileError(f"{path}: unexpected graph inputs {sorted(names)} / outputs "
                             f"{sorted(outs)}")
    return session, meta


class OnnxPolicy:
    """A trained bot from an exported ONNX file (see the module doc)."""

    def __init__(self, path: str | Path, env_id: str, num_players: int,
                 options: dict | None = None, seed: int | None = None, greedy: bool = True):
        self.path = Path(path)
        self.session, self.meta = _open(self.path)
        try:
            cls = game_class(env_id)
            game = cls(num_players, **(options or {}))
        except PlunderError as exc:
            raise InvalidArgumentError(f"OnnxPolicy: {exc}") from None
        self.memory = self._check(cls, game)
        self.env_id, self.num_players = env_id, game.num_players
        self.options = game.option_values
        self.greedy = greedy
        self.rng = np.random.default_rng(seed)
        self.name = f"trained:{self.path}"
        #: whether the file has the critic's ``value`` output (format plunder-bot/2)
        self.has_value = BOT_FORMATS[self.meta["format"]]
        self._probe()

    def __getstate__(self) -> dict:
        """Everything but the onnxruntime session (which cannot be pickled): a pickled
        bot reopens its file when loaded, so envs holding one survive worker processes."""
        state = dict(self.__dict__)
        state.pop("session")
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.session, _ = _open(self.path)

    def _probe(self) -> None:
        """Run the network once on a blank observation with every action allowed: a
        graph that does not take and give the sizes its metadata names (another game's
        network under copied metadata) or whose outputs are not finite numbers (NaN
        weights) is refused now, not in the middle of a game."""
        size, actions = self.meta["obs_size"], self.meta["num_actions"]
        outputs = ["action", "action_probs"] + (["value"] if self.has_value else [])
        try:
            result = self.session.run(outputs, {
                "observation": np.zeros((1, size), np.float32),
                "action_mask": np.ones((1, actions), np.int8)})
        except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own exception types
            raise ModelFileError(
                f"{self.path}: the network does not run on the {size} observation values "
                f"and {actions} actions its metadata names (trained for another game?): "
                f"{str(exc).strip().splitlines()[0][:300]}") from None
        action, probs = np.asarray(result[0]), np.asarray(result[1])
        if action.shape != (1,) or probs.shape != (1, actions):
            raise ModelFileError(
                f"{self.path}: the network answers {probs.shape[-1] if probs.ndim else '?'} "
                f"action probabilities, but its metadata names {actions} actions (trained "
                "for another game?)")
        if not all(np.isfinite(np.asarray(r, np.float64)).all() for r in result[1:]):
            raise ModelFileError(f"{self.path}: the network's outputs are not finite numbers "
                                 "(NaN or infinite weights?)")

    def _check(self, cls, game):
        """Refuse a file for another game, version, player count, variant or layout;
        return the observation memory the bot plays with (None: it needs none)."""
        m, where = self.meta, str(self.path)
        if m.get("game") != cls.name:
            raise ModelFileError(f"{where} is a bot for {m.get('env_id')!r}, not for "
                                 f"{cls.env_id()!r}")
        if m.get("version") != cls.version:
            raise ModelFileError(f"{where} was trained on {m.get('env_id')} (version "
                                 f"{m.get('version')}); this is version {cls.version} "
                                 f"({cls.env_id()}): retrain or use the matching version")
        if m.get("num_players") != game.num_players:
            raise ModelFileError(f"{where} was trained for {m.get('num_players')} players, "
                                 f"not {game.num_players}")
        memory = None
        options = _jsonable(game.option_values)
        recall = bool(m.get("recall", False))
        if recall and not cls.recall_option:
            raise ModelFileError(f"{where} says it remembers (recall), but {cls.env_id()} "
                                 "has no perfect-recall variant")
        if recall and options.get(cls.recall_option) and m.get("options") == {
                **options, cls.recall_option: False}:
            pass        # the perfect-recall variant shows what the bot would remember
        elif m.get("options") != options:
            raise ModelFileError(f"{where} was trained on variant {m.get('options')}, not "
                                 f"{game.option_values}")
        elif recall:
            memory = game.observation_memory()
        layout = [[f.name, f.size] for f in game.layout.fields]
        if m.get("obs_size") != game.layout.size or m.get("num_actions") != game.num_actions \
                or m.get("layout", layout) != layout:
            raise ModelFileError(
                f"{where} expects observations of size {m.get('obs_size')} and "
                f"{m.get('num_actions')} actions, but {cls.env_id()} now has "
                f"{game.layout.size} and {game.num_actions} (the observation layout changed)")
        return memory

    def reset(self) -> None:
        """Forget the previous game (a bot without memory has nothing to forget)."""
        if self.memory is not None:
            self.memory.reset()

    def _stateless(self, what: str) -> None:
        if self.memory is not None:
            raise InvalidArgumentError(
                f"{self.path} remembers what its seat saw (trained with "
                f"{game_class(self.env_id).recall_option}): {what} would mix seats or "
                "states; call act() once per decision of one seat")

    def probs(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """Masked action probabilities for a batch."""
        self._stateless("probs()")
        return self._run(observations, action_masks)[1]

    def evaluate(self, observations: np.ndarray,
                 action_masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Masked action probabilities and the critic's values for a batch (one run)."""
        self._stateless("evaluate()")
        if not self.has_value:
            raise ModelFileError(
                f"{self.path} has no value output (format {self.meta['format']}, exported "
                f"before values were added); re-export it with `plunder export RUN`")
        obs = np.asarray(observations, np.float32)
        self._check_size(obs.shape)
        masks = np.asarray(action_masks).astype(np.int8, copy=False)
        probs, values = self.session.run(["action_probs", "value"],
                                         {"observation": obs, "action_mask": masks})
        self._check_finite(probs, values)
        return probs, values

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """One legal action per row."""
        self._stateless("act_batch()")
        return self._act_rows(observations, action_masks)

    def _act_rows(self, observations, action_masks) -> np.ndarray:
        actions, probs = self._run(observations, action_masks)
        if self.greedy:
            return actions.astype(np.int64)
        cdf = np.cumsum(probs, axis=1)
        target = self.rng.random(len(probs))[:, None] * cdf[:, -1:]
        return np.minimum((cdf <= target).sum(axis=1), probs.shape[1] - 1)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A legal action for one observation."""
        if not np.any(action_mask):
            raise InvalidArgumentError("act() called with an all-zero action mask")
        self._check_size(np.shape(observation))
        if self.memory is not None:
            observation = self.memory.recall(observation)
        return int(self._act_rows(np.asarray(observation)[None],
                                  np.asarray(action_mask)[None])[0])

    def _check_size(self, shape) -> None:
        """Refuse observations that are not the full vector the network was trained on."""
        if not shape or shape[-1] != self.meta["obs_size"]:
            raise InvalidArgumentError(
                f"{self.path} reads full observations of {self.meta['obs_size']} values, got "
                f"shape {tuple(shape)}; an env made with derived_features=False returns the "
                "information state alone: give the bot env.unwrapped.full_observation(agent) "
                "(choose_action does)")

    def _run(self, obs, masks):
        obs = np.asarray(obs, np.float32)
        self._check_size(obs.shape)
        masks = np.asarray(masks).astype(np.int8, copy=False)
        action, probs = self.session.run(["action", "action_probs"],
                                         {"observation": obs, "action_mask": masks})
        self._check_finite(probs)
        return action, probs

    def _check_finite(self, *outputs) -> None:
        """Refuse outputs that are not finite numbers (a network that gives NaN for some
        observations would otherwise pick an arbitrary move)."""
        if not all(np.isfinite(out).all() for out in outputs):
            raise ModelFileError(f"{self.path}: the network's outputs are not finite "
                                 "numbers (NaN) for this observation")


def _jsonable(value):
    return json.loads(json.dumps(value))
