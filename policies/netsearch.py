"""Determinized search guided by a trained network: ``netsearch:PATH.onnx[:SAMPLES][:KEY=VALUE]``.

Perfect Information Monte Carlo, as :mod:`plunder.policies.search` does, with an exported
network (a ``plunder export`` file, which has the critic's ``value`` output) in place of
random play:

1. **Candidates** (prior-guided pruning): the network's masked probabilities for the bot's
   own observation are its prior; only the ``top_k`` likeliest legal actions are searched,
   and the likeliest one is the *default*.
2. **Determinizations**: ``samples`` full states drawn with ``game.sample_state(view,
   rng)``, each consistent with everything the bot's seat knows. In each, every candidate
   is played; then every seat (the bot's included) plays the network's likeliest move for
   its own observation of that sampled world (``greedy_rollouts``; else a move drawn from
   the probabilities), until ``horizon`` more turns of the game have passed and the bot's
   seat is to decide again, or the game ends (``horizon=None``: always to the end).
3. **Leaf values**: the network's value for the bot's observation at that decision (at a
   game end, or at the game's turn limit, the game's reward under the network's
   ``reward_mode``).
4. **Choice**: the candidates share their determinizations, so their values are paired.
   Another candidate replaces the default only if its mean advantage over it exceeds
   ``confidence`` standard errors of the paired differences *and* ``min_gain`` (in the
   value's units; rewards run from -1 to 1), the best such one; with ``confidence=None``
   the best mean wins. The standard-error test keeps search noise among near-equal moves
   from overriding the network; the minimum gain keeps the critic's small systematic
   differences from doing so where the sampled worlds barely change the rollouts (the
   paired differences then have almost no spread). ``netsearch:`` specs take each game's
   ``default_settings``: a minimum gain of 0.2 in Anchors Aweigh!, 0.1 elsewhere; in All
   Hands crew two candidates and a confidence of 2 standard errors, since rollouts to the
   end make each paired difference a whole game's result.

All rollouts of one move advance in lockstep and each round's observations go through one
batched network run. Budget per move: ``samples`` × ``top_k`` rollouts of about
``horizon`` turns (the spec's ``SAMPLES`` sets ``samples``; its ``KEY=VALUE`` parts set
``samples``, ``top_k``, ``horizon``, ``confidence``, ``min_gain`` and ``belief`` by
name); ``max_seconds`` (Python API only) also stops adding determinizations once that
much time is spent, which makes play depend on the machine's speed, so it is off by
default.

Search is only as good as the value it maximises. ``DEFAULT_HORIZON`` holds the games
whose critics ask for another horizon than two turns: All Hands crew's barely predicts
results, so its rollouts go to the end of the game (about ten times the cost per move);
Anchors Aweigh!'s favours the moves its network would play, so its rollouts look 24 turns
ahead.

**Beliefs.** ``sample_state`` draws every card the seat does not know uniformly from the
unseen ones. A game may name other beliefs (``BELIEFS``; ``belief=NAME`` in a spec), each
fed every view the bot gets (:mod:`.all_hands_crew_belief`). All Hands crew's ``returns``
draws the Drawing Pile cards another player put back — which it knows and the searcher
does not — by kind, in proportion to how often the network puts a card of that kind back
rather than hiring it; its ``memory`` (the default) remembers the cards the seat saw after
its view has forgotten them (a card it put back and the opponent drew), follows them
through the public draws and hires, and pins them in the sampled worlds: what the opponent
knows is what the uniform draw gets wrong. A belief reads nothing but the seat's views and
fixed tables.

A network that remembers (trained with the game's perfect-recall variant, so the
exported bot carries an observation memory) is searched in that variant: the bot feeds its
seat's views to its own memory, and samples and encodes the variant's worlds from the
view with the remembered facts filled in.

The bot reads nothing but its view (the game loops hand it the seat's view because it sets
``needs_view``): a state that differs only in facts the seat cannot know, drawn with
``sample_state`` from its view, gets the same choice with the same seed (tested).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import numpy as np

from plunder.envs import spec as game_spec
from plunder.envs.core import InvalidArgumentError, ModelFileError
from plunder.envs.core.registry import SpecTable
from plunder.envs.core.rewards import final_rewards
from plunder.envs.core.spec import SearchDefaults, resolve
from plunder.envs.core.strict import is_decimal_number, is_whole_number

from .base import check_mask


# Each game's settings are declared in its spec (``GameSpec.search``); the tables below are
# read from the specs and list the games whose setting differs from the default.

#: turns rolled out before the critic's value is read, by game (default 2); None plays
#: every rollout to the end of the game (for networks whose critic predicts results poorly)
DEFAULT_HORIZON = SpecTable(lambda s: s.search.horizon,
                            where=lambda s: s.search.horizon != SearchDefaults.horizon)

#: the least mean advantage (value units) for which another candidate replaces the
#: network's favourite: the critic's systematic errors do not show in the paired spread
MIN_GAIN = SearchDefaults.min_gain
#: per-game minimum gains where the tuning games asked for another (docs/netsearch.md)
DEFAULT_MIN_GAIN = SpecTable(lambda s: s.search.min_gain
                             if s.search.min_gain != MIN_GAIN else None)


def default_horizon(env_id: str) -> int | None:
    """The rollout horizon ``netsearch`` uses for ``env_id`` unless told otherwise."""
    return game_spec(env_id).search.horizon


def default_min_gain(env_id: str) -> float:
    """The minimum gain ``netsearch`` uses for ``env_id`` unless told otherwise."""
    return game_spec(env_id).search.min_gain


#: per-game confidence (standard errors) and candidate count where the tuning games asked
#: for others: crew's rollouts end in whole-game results, so with 16 samples a one-error
#: margin among three candidates passed on sampling noise (docs/netsearch.md#all-hands-crew)
DEFAULT_CONFIDENCE = SpecTable(lambda s: s.search.confidence
                               if s.search.confidence != SearchDefaults.confidence else None)
DEFAULT_TOP_K = SpecTable(lambda s: s.search.top_k
                          if s.search.top_k != SearchDefaults.top_k else None)


class FixedBelief:
    """A belief whose ``sample_state`` arguments stay the same all game (``uniform``: none;
    crew's ``returns``: its table)."""

    def __init__(self, **kwargs):
        self.kwargs = kwargs

    def reset(self) -> None:
        """Nothing to forget."""

    def observe(self, view) -> None:
        """Nothing to remember."""

    def sample_kwargs(self, view, rng: np.random.Generator) -> dict:
        """The fixed arguments."""
        return self.kwargs


def beliefs(env_id: str) -> dict:
    """The beliefs ``env_id``'s search may sample its worlds with besides ``uniform``
    (every unknown card drawn uniformly from the unseen ones), as its spec names them
    (``GameSpec.beliefs``): name -> ``factory(game)``, an object with ``reset()``,
    ``observe(view)`` (every view the seat gets, in order) and ``sample_kwargs(view,
    rng)`` (extra ``sample_state`` arguments for one world)."""
    return {name: resolve(path) for name, path in game_spec(env_id).beliefs.items()}


#: env id -> its beliefs (``beliefs(env_id)``), for the games that have any
BELIEFS = SpecTable(lambda s: beliefs(s.env_id) if s.beliefs else None)


#: the settings a ``netsearch:`` spec may name as ``KEY=VALUE`` (NetSearchPolicy's
#: arguments; each game's defaults otherwise), with how each value is read
SPEC_SETTINGS = {"samples": "int", "top_k": "int", "horizon": "int or end",
                 "confidence": "float", "min_gain": "float", "belief": "name"}


#: per-game belief of ``netsearch:`` specs where one beat the uniform sampler on fresh
#: games, decided beforehand (docs/netsearch.md#all-hands-crew)
DEFAULT_BELIEF = SpecTable(lambda s: s.search.belief
                           if s.search.belief != SearchDefaults.belief else None)


def default_settings(env_id: str) -> dict:
    """The keyword arguments ``netsearch:`` specs give :class:`NetSearchPolicy` for
    ``env_id``: its horizon, minimum gain, confidence, candidate count and belief (the
    game's ``GameSpec.search``)."""
    return game_spec(env_id).search.as_kwargs()


def spec_settings(spec: str, arg: str) -> tuple[str, dict]:
    """Split a netsearch argument's trailing ``KEY=VALUE`` parts off: (the rest, settings).
    Unknown keys, repeated keys and unreadable values raise (the ranges are checked by
    NetSearchPolicy)."""
    parts = arg.split(":")
    settings: dict = {}
    # a setting's key is a plain name, so a path with "=" in it stays a path
    while parts and re.match(r"[A-Za-z_]\w*=", parts[-1]):
        key, _, text = parts.pop().partition("=")
        key, text = key.strip(), text.strip()
        if key not in SPEC_SETTINGS:
            known = ", ".join(f"{k}=<{t}>" for k, t in SPEC_SETTINGS.items())
            raise InvalidArgumentError(f"{spec!r}: unknown netsearch setting {key!r}; use "
                                       f"{known}")
        if key in settings:
            raise InvalidArgumentError(f"{spec!r} sets {key} twice")
        kind = SPEC_SETTINGS[key]
        try:
            if key == "horizon" and text == "end":
                settings[key] = None
            elif kind == "name":
                settings[key] = text
            elif kind.startswith("int"):
                if not is_whole_number(text):
                    raise ValueError(text)
                settings[key] = int(text)
            else:
                if not is_decimal_number(text):
                    raise ValueError(text)
                settings[key] = float(text)
        except ValueError:
            raise InvalidArgumentError(f"{spec!r}: {key} must be {kind} (written with the "
                                       f"digits 0-9), got {text!r}") from None
    return ":".join(parts), settings


class NetSearchPolicy:
    """PIMC search with network rollouts, network leaf values and top-k pruning (see the
    module doc)."""

    name = "netsearch"
    needs_view = True

    def __init__(self, game, net, seed=None, samples: int = 16, top_k: int = 3,
                 horizon: int | None = 2, confidence: float | None = 1.0,
                 min_gain: float = MIN_GAIN, greedy_rollouts: bool = True,
                 max_seconds: float | None = None, max_rounds: int | None = None,
                 belief: str = "uniform"):
        for label, value in (("samples", samples), ("top_k", top_k), ("horizon", horizon),
                             ("max_rounds", max_rounds)):
            if value is None and label in ("horizon", "max_rounds"):
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidArgumentError(f"netsearch: {label} must be a positive int"
                                           f"{' or None' if label in ('horizon', 'max_rounds') else ''}"
                                           f", got {value!r}")
        if isinstance(min_gain, bool) or not isinstance(min_gain, (int, float)) \
                or not min_gain >= 0:
            raise InvalidArgumentError(f"netsearch: min_gain must be a number >= 0, "
                                       f"got {min_gain!r}")
        for label, value in (("confidence", confidence), ("max_seconds", max_seconds)):
            if value is not None and not value >= 0:
                raise InvalidArgumentError(f"netsearch: {label} must be >= 0 or None, "
                                           f"got {value!r}")
        if not getattr(net, "has_value", False):
            raise ModelFileError(
                f"netsearch needs a network with a value output; {getattr(net, 'path', net)} "
                "has none (exported before values were added): re-export it with "
                "`plunder export RUN`")
        known_beliefs = beliefs(game.env_id())
        if belief != "uniform" and belief not in known_beliefs:
            raise InvalidArgumentError(
                f"netsearch: unknown belief {belief!r} for {game.env_id()}; one of "
                f"{', '.join(['uniform', *known_beliefs])}")
        self.belief = belief
        self.game, self.net = game, net
        # a network that remembers (trained with the game's perfect-recall variant) reads
        # that variant's observations: the bot keeps the memory of its seat's views and
        # samples and encodes worlds of the variant, so the remembered facts hold in them
        self.memory, self.world = None, game
        if getattr(net, "memory", None) is not None:
            self.memory = game.observation_memory()
            self.world = type(game)(game.num_players, **{**game.option_values,
                                                         type(game).recall_option: True})
            self.net = type(net)(net.path, game.env_id(), game.num_players,
                                 options=self.world.option_values)
        self.samples, self.top_k, self.horizon = samples, top_k, horizon
        self.confidence, self.greedy_rollouts = confidence, greedy_rollouts
        self.min_gain = float(min_gain)
        self.max_seconds = max_seconds
        #: asked after each sampled state but the last (None: never; then the states are
        #: searched in one batch): True ends the search with the samples so far (a
        #: caller's deadline); it may also raise to abandon the move
        self.stop_early: Callable[[], bool] | None = None
        # rounds per rollout: 200 by default with a horizon; rollouts to the end of the
        # game are bounded by the game's turn limit unless max_rounds is given
        self.max_rounds = max_rounds if max_rounds is not None or horizon is None else 200
        self.reward_mode = (net.meta.get("config") or {}).get("reward_mode", "rank")
        self.max_turns = type(game).default_max_turns
        self.rng = np.random.default_rng(seed)
        self.beliefs = known_beliefs[belief](self.world) if belief != "uniform" \
            else FixedBelief()

    def reset(self) -> None:
        """Forget the previous game (a remembering network's memory, the belief's)."""
        if self.memory is not None:
            self.memory.reset()
        self.beliefs.reset()

    def act(self, observation, action_mask) -> int:
        """Not usable without a view: raises with an explanation."""
        raise TypeError("NetSearchPolicy needs the player's view: call act_view(view, mask)")

    def act_view(self, view, action_mask) -> int:
        """The network's likeliest move unless search finds a clearly better candidate."""
        legal = check_mask(action_mask)
        if self.memory is not None:       # every view, so that no visible front is missed
            view = self.memory.recall_view(view)
        self.beliefs.observe(view)
        if len(legal) == 1:
            return int(legal[0])
        mask = np.asarray(action_mask).astype(np.int8, copy=False)
        probs, _ = self.net.evaluate(self.world.encode(view)[None], mask[None])
        prior = probs[0]
        candidates = legal[np.argsort(-prior[legal], kind="stable")][:self.top_k]
        seat = view.player
        values = []       # one row per determinization: each candidate's leaf value
        start = time.perf_counter()
        chunk = self.samples if self.max_seconds is None and self.stop_early is None else 1
        done = 0
        while done < self.samples:
            n = min(chunk, self.samples - done)
            roots = [self.world.sample_state(view, self.rng,
                                             **self.beliefs.sample_kwargs(view, self.rng))
                     for _ in range(n)]
            states = [root.clone() for root in roots for _ in candidates]
            firsts = [int(c) for _ in roots for c in candidates]
            values.append(self._rollouts(states, seat, firsts).reshape(n, -1))
            done += n
            if self.max_seconds is not None and time.perf_counter() - start >= self.max_seconds:
                break
            if done < self.samples and self.stop_early is not None and self.stop_early():
                break
        return int(candidates[self._choose(np.concatenate(values))])

    def _choose(self, values: np.ndarray) -> int:
        """Index of the candidate to play given each determinization's leaf values (rows):
        the default (0) unless another beats it by more than ``confidence`` standard
        errors of the paired differences and by more than ``min_gain``; the first best
        mean with ``confidence=None``."""
        if self.confidence is None:
            return int(np.argmax(values.mean(axis=0)))
        diff = values[:, 1:] - values[:, :1]
        mean = diff.mean(axis=0)
        se = diff.std(axis=0, ddof=1) / np.sqrt(len(diff)) if len(diff) > 1 \
            else np.full(len(mean), np.inf)
        ok = (mean > self.confidence * se) & (mean > self.min_gain)
        if not ok.any():
            return 0
        return 1 + int(np.argmax(np.where(ok, mean, -np.inf)))

    def _rollouts(self, states: list, seat: int, firsts: list[int]) -> np.ndarray:
        """Leaf value for ``seat`` of each state after it plays ``firsts[i]`` there."""
        values = np.zeros(len(states))
        start_turns = [st.turns for st in states]
        active = list(range(len(states)))
        first_round = True
        rounds = 0
        while active and (self.max_rounds is None or rounds < self.max_rounds):
            rounds += 1
            obs, masks, rows = [], [], []      # rows: (state index, player, is a leaf)
            moving = []
            for i in active:
                st = states[i]
                if st.is_terminal() or st.turns >= self.max_turns:
                    values[i] = self._final_reward(st, seat)
                    continue
                players = st.current_players()
                if not first_round and seat in players and self.horizon is not None \
                        and st.turns - start_turns[i] >= self.horizon:
                    rows.append((i, seat, True))
                    obs.append(self.world.encode(st.view(seat)))
                    masks.append(st.legal_actions_mask(seat))
                    continue
                moving.append(i)
                for p in players:
                    if first_round and p == seat:
                        if not st.legal_actions_mask(seat)[firsts[i]]:
                            raise InvalidArgumentError(
                                f"netsearch: {self.game.action_name(firsts[i])} is legal in "
                                "the view but not in a state sampled from it")
                        continue
                    rows.append((i, p, False))
                    obs.append(self.world.encode(st.view(p)))
                    masks.append(st.legal_actions_mask(p))
            joint: dict[int, dict[int, int]] = {i: {} for i in moving}
            if first_round:
                for i in moving:
                    joint[i][seat] = firsts[i]
            if rows:
                masks_arr = np.asarray(masks, np.int8)
                probs, leaf_values = self.net.evaluate(np.asarray(obs, np.float32), masks_arr)
                drawn = self._draw(probs, masks_arr)
                for r, (i, p, leaf) in enumerate(rows):
                    if leaf:
                        values[i] = float(leaf_values[r])
                    else:
                        joint[i][p] = int(drawn[r])
            for i in moving:
                states[i].apply_checked(joint[i])
            active = moving
            first_round = False
        for i in active:    # out of rounds: the value of where the seat stands now
            obs_i = self.world.encode(states[i].view(seat))[None]
            mask_i = np.ones((1, self.game.num_actions), np.int8)
            values[i] = float(self.net.evaluate(obs_i, mask_i)[1][0])
        return values

    def _draw(self, probs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """One legal action per row: the likeliest, or drawn from the probabilities."""
        if self.greedy_rollouts:
            return probs.argmax(axis=1)
        cdf = np.cumsum(probs, axis=1)
        target = self.rng.random(len(probs))[:, None] * cdf[:, -1:]
        drawn = np.minimum((cdf <= target).sum(axis=1), probs.shape[1] - 1)
        rows = np.arange(len(drawn))
        bad = masks[rows, drawn] == 0        # float round-off at the very edge of the cdf
        drawn[bad] = np.where(masks[bad] > 0, probs[bad], -1.0).argmax(axis=1)
        return drawn

    def _final_reward(self, state, seat: int) -> float:
        """The seat's reward for the game as it stands (finished or at the turn limit)."""
        return final_rewards(self.reward_mode, state.rank_keys(), state.scores(),
                             self.game.num_players)[seat]
