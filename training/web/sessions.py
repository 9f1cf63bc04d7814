"""The games a `plunder serve` server holds: played by a person, watched, or replayed.

Every game on the server is a :class:`Session`: a record of engine states and the joint
moves between them (what a replay file holds), a cursor (the position shown) and a lock
(one request changes it at a time). Three kinds:

- ``play``: one person in one seat against bots. The server runs the bots until the
  person must decide (or the game ends) and shows the table from the person's seat only:
  its view, its text rendering, what is being decided and its legal moves with labels
  that name what they act on (``core.guide``), the move log built for that seat
  (``core.movelog.describe_step``) and, at the end, the public score breakdown. A move
  that is the person's only legal one is played for them (``auto_play``, on by default),
  and the snapshot says so (``forced``).
- ``watch``: bots in every seat, stepped one decision (joint move) at a time; shown from
  any seat's view or omniscient, and the cursor may go back and forth.
- ``replay``: a saved game opened again (no bots): a watch over its recorded states.

What a seat sees is built by :func:`seat_table` from ``state.view(seat)`` alone (and the
public ``current_players``), so it cannot depend on a hidden fact; only the omniscient
watch and the replay file read the whole state. A :class:`SessionStore` keeps the games
apart (each has its own env, bots and generators) and drops those left idle.

The bots are the ones the page offers (``check_bot_spec``: the kinds of ``BOT_SPECS``,
files inside the server's bot folder, searches of at most ``MAX_SEARCH_SAMPLES`` states a
move) and think within a deadline (``BOT_MOVE_SECONDS`` a move, ``BOT_GAME_SECONDS`` a
game), stopped when the game is closed. A request's steps are a transaction: a bot that
raises or answers an illegal move puts the game back as it was before the request (the
record, the env and the bots' generators and memories) and the request fails naming it.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import logging
import re
import secrets
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from plunder.envs import env_ids, game_class, make
from plunder.envs.core import Game, GameState, InvalidArgumentError, PlunderError, UnknownEnvError
from plunder.envs.core.guide import decision_prompt, forced_line, move_labels, only_move
from plunder.envs.core.movelog import TIE_BREAK, describe_step
from plunder.envs.core.rewards import winners
from plunder.policies import choose_action, make_bot
from plunder.policies.base import BOT_SPECS, spec_file
from plunder.training.games import resolve_env_id as resolve_game

from . import boards

#: the lines of the move log sent with a table (the most recent ones)
LOG_WINDOW = 400
#: most joint moves one watch request may play forward
MAX_STEPS_PER_REQUEST = 2000
#: the largest seed a game or a replay may name (numpy seeds take 128 bits of entropy)
MAX_SEED = 2**128 - 1
#: most states a search bot from the page samples per move (``search:N``, netsearch's
#: samples): a larger count is refused, not lowered
MAX_SEARCH_SAMPLES = 256
#: most seconds a bot thinks about one move: a search bot then plays the best move of the
#: states it has searched (after at least one)
BOT_MOVE_SECONDS = 10.0
#: most seconds the bots of one game think in all; then its bot moves are refused
BOT_GAME_SECONDS = 30 * 60.0
#: a watch request stops playing the bots forward after this many seconds (at a whole
#: joint move) and shows where it got to
WATCH_REQUEST_SECONDS = 20.0
#: kinds of session
PLAY, WATCH, REPLAY = "play", "watch", "replay"

log = logging.getLogger("plunder.web")


class RequestError(Exception):
    """A request the server refuses: ``status`` is the HTTP status, the message says why."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def bad_request(message: str) -> RequestError:
    """400: a malformed or invalid request."""
    return RequestError(400, message)


def conflict(message: str) -> RequestError:
    """409: a request that does not fit the game as it is now (stale, not your turn)."""
    return RequestError(409, message)


def resolve_env_id(game: Any) -> str:
    """The env id a request names ('scallywags' or 'scallywags_v0'); unknown -> 404."""
    ids = env_ids()     # the registry as it is now (a game may join later)
    if not isinstance(game, str):
        raise bad_request(f"'game' must be a game name such as {ids[0]!r}, got {game!r}")
    try:
        return resolve_game(game)
    except UnknownEnvError as exc:
        raise RequestError(404, str(exc)) from None


def is_int(value: Any) -> bool:
    """Whether a JSON value is a whole number (true/false are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def jsonable(value: Any) -> Any:
    """A view (NamedTuples, frozen dataclasses, tuples, numpy scalars) as plain JSON data;
    caches that take no part in comparisons (dataclass fields with compare=False) are left
    out."""
    if hasattr(value, "_fields") and isinstance(value, tuple):
        return {name: jsonable(getattr(value, name)) for name in value._fields}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name))
                for f in dataclasses.fields(value) if f.compare}
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def seat_table(game, state, seat: int, legal: list[int], over: bool = False) -> dict:
    """What the page shows of ``state`` from ``seat``: its view, its text rendering, the
    table as clickable elements, who must act (public), what is being decided (in words)
    and ``legal`` (the seat's moves when it is asked: ``action``, the internal ``name``
    and the ``label`` that says what the move acts on). Built from ``state.view(seat)``
    alone (and the seat's own legal moves, which depend on nothing else), and once the
    game is ``over`` from what its end shows everyone (``boards.end_facts``)."""
    view = state.view(seat)
    end = boards.end_facts(game, state) if over else None
    acting = [int(p) for p in state.current_players()]
    labels = move_labels(game, view, legal)
    asked = [int(a) for a in state.legal_actions(seat)] if seat in acting else []
    return {
        "text": game.describe_view(view),
        "view": jsonable(view),
        "board": boards.seat_board(game, view, legal, end),
        "acting": acting,
        "decision": decision_prompt(game, view, asked),
        "legal": [{"action": int(a), "name": game.action_name(int(a)),
                   "label": labels[int(a)]} for a in legal],
    }


def omniscient_table(game, state) -> dict:
    """The whole state, every hidden fact shown and drawn face up (watch and replay
    only); the decision line is each acting seat's own."""
    acting = [int(p) for p in state.current_players()]
    decision = "; ".join(
        f"{game.seat_name(p)}: {decision_prompt(game, state.view(p), state.legal_actions(p))}"
        for p in acting) or decision_prompt(game, state.view(0), [])
    return {
        "text": state.render_text(None),
        "view": state.to_dict(),
        "board": boards.omniscient_board(game, state),
        "acting": acting,
        "decision": decision,
        "legal": [],
    }


def result(game, state, truncated: bool) -> dict:
    """The final scores broken down (public once the game is over): one row per part, the
    total, the tie-break rows, the winners."""
    keys = state.rank_keys()
    rows = state.score_breakdown()
    out = {
        "seats": [game.seat_name(s) for s in range(len(keys))],
        "rows": [{"label": label, "values": values} for label, values in rows
                 if not label.startswith(TIE_BREAK)],
        "total": [float(k[0]) for k in keys],
        "tie_breaks": [{"label": label, "values": values} for label, values in rows
                       if label.startswith(TIE_BREAK)],
        "winners": [int(w) for w in winners(keys)],
        "truncated": bool(truncated),
    }
    out["decided"] = boards.deciding_line(out["seats"], out["total"], out["tie_breaks"],
                                          out["winners"], out["truncated"])
    return out


def _env_state(raw) -> dict:
    """A copy of an env's attributes that a step changes (its state, masks, rewards,
    agents, pending choices), to put back with ``vars(raw).update``."""
    saved = {}
    for key, value in vars(raw).items():
        # a Python GameState, or the compiled engine's State an env plays in
        if isinstance(value, GameState) or (callable(getattr(value, "clone", None))
                                            and callable(getattr(value, "to_dict", None))):
            saved[key] = value.clone()
        elif isinstance(value, (dict, list, set, np.random.Generator)):
            saved[key] = copy.deepcopy(value)
        else:
            saved[key] = value
    return saved


def _collect_shared(obj: Any, shared: dict[int, Any], depth: int) -> None:
    """Add the parts of a bot that play does not change and copying must not duplicate
    (games, onnxruntime sessions) to ``shared``, a deepcopy memo."""
    for value in list(vars(obj).values()) if hasattr(obj, "__dict__") else []:
        if id(value) in shared:
            continue
        if isinstance(value, Game) or type(value).__module__.startswith("onnxruntime"):
            shared[id(value)] = value
        elif depth > 1 and hasattr(value, "__dict__") and not isinstance(value, type):
            _collect_shared(value, shared, depth - 1)


class Session:
    """One game on the server: its states and moves, the cursor, per-seat move logs."""

    mode: str

    def __init__(self, env_id: str, num_players: int, options: dict, max_turns: int,
                 seed: int, bots: list[str | None]):
        self.id = secrets.token_urlsafe(12)
        self.env_id = env_id
        self.game = game_class(env_id)(num_players, **options)
        self.num_players = num_players
        self.options = dict(self.game.option_values)
        self.max_turns = max_turns
        self.seed = seed
        #: the bot spec of every seat (None: the person)
        self.bots = bots
        #: states[i] is the position before moves[i]; the last is the current position
        self.states: list = []
        self.moves: list[dict[int, int]] = []
        self.cursor = 0
        #: bumped by every change; a move or step must name the version it was made on
        self.version = 0
        self.lock = threading.Lock()
        self.last_used = time.monotonic()
        self._logs: dict[int | None, list[list[str]]] = {}
        #: set when the client of the request in progress leaves (``for_client``)
        self._client_gone: threading.Event | None = None

    # -- the record ---------------------------------------------------------------------
    def truncated_at(self, index: int) -> bool:
        """Whether state ``index`` ends the game by the turn limit."""
        state = self.states[index]
        return not state.is_terminal() and state.turns >= self.max_turns

    def over_at(self, index: int) -> bool:
        """Whether the game is over at state ``index`` (rules or turn limit)."""
        return self.states[index].is_terminal() or self.truncated_at(index)

    def step_lines(self, observer: int | None, upto: int) -> list[list[str]]:
        """The move log's lines of every step before ``upto``, as ``observer`` learns
        them (None: omniscient, every move named)."""
        lines = self._logs.setdefault(observer, [])
        for i in range(len(lines), upto):
            before, joint, after = self.states[i], self.moves[i], self.states[i + 1]
            if observer is None:
                lines.append(boards.omniscient_lines(self.game, before, joint, after))
            else:
                lines.append(describe_step(self.game, before, joint, after, observer))
        return lines[:upto]

    def last_moves(self, observer: int | None) -> list[dict]:
        """Every player's last move up to the cursor as ``observer`` knows it
        (``boards.last_moves``): the page highlights what it touched."""
        return boards.last_moves(self.game, self.states, self.moves, self.cursor, observer,
                                 self.step_lines(observer, self.cursor))

    def log(self, observer: int | None) -> tuple[list[dict], int]:
        """The last ``LOG_WINDOW`` log lines up to the cursor (each with its step) and how
        many lines there are in all."""
        entries = [{"step": i + 1, "text": text}
                   for i, lines in enumerate(self.step_lines(observer, self.cursor))
                   for text in lines]
        return entries[-LOG_WINDOW:], len(entries)

    # -- what a request sees ------------------------------------------------------------
    def describe(self) -> dict:
        """The game's settings (public)."""
        return {
            "id": self.id,
            "mode": self.mode,
            "env_id": self.env_id,
            "num_players": self.num_players,
            "options": self.options,
            "max_turns": self.max_turns,
            "seat_names": [self.game.seat_name(s) for s in range(self.num_players)],
            "bots": self.bots,
        }

    def legal_for(self, seat: int) -> list[int]:
        """The moves ``seat`` may click now (none but in play mode)."""
        return []

    def snapshot(self, seat: int | None) -> dict:
        """The game at the cursor as ``seat`` sees it (None: omniscient)."""
        state = self.states[self.cursor]
        over = self.over_at(self.cursor)
        table = (omniscient_table(self.game, state) if seat is None else
                 seat_table(self.game, state, seat, self.legal_for(seat), over))
        log, total = self.log(seat)
        out = dict(self.describe(), **table)
        out["last"] = self.last_moves(seat)
        out.update({
            "seat": seat,
            "version": self.version,
            "step": self.cursor,
            "steps": len(self.states) - 1,
            "over": over,
            "log": log,
            "log_total": total,
            "result": result(self.game, state, self.truncated_at(self.cursor)) if over else None,
        })
        return out

    def check_seat(self, seat: Any) -> int | None:
        """The seat a request may look from (None: omniscient); refused with 400/403."""
        if seat is None:
            return None
        if not is_int(seat) or not 0 <= seat < self.num_players:
            raise bad_request(f"seat must be 0..{self.num_players - 1} or 'omniscient', "
                              f"got {seat!r}")
        return seat

    def check_version(self, version: Any) -> None:
        """A move or step made on another version than the current one is stale (409)."""
        if not is_int(version):
            raise bad_request(f"'version' must be the version the page shows (an integer), "
                              f"got {version!r}")
        if version != self.version:
            raise conflict(f"stale request: the game is at version {self.version}, the "
                           f"request was made at version {version}; reload the game")

    def replay(self) -> dict:
        """The replay file: every state (hidden facts included) and every move."""
        from .replays import replay_data
        return replay_data(self)

    def close(self) -> None:
        """Stop the game's work (a replay has none)."""

    @contextlib.contextmanager
    def for_client(self, gone: threading.Event):
        """While a request works on the game: ``gone`` set (its client left) stops the
        bots as closing the game does, and the request changes nothing."""
        self._client_gone = gone
        try:
            yield
        finally:
            self._client_gone = None


class LiveSession(Session):
    """A game being played out now: a PettingZoo env (raw) and a bot per bot seat."""

    def __init__(self, env_id: str, num_players: int, options: dict, max_turns: int | None,
                 seed: int, bots: list[str | None]):
        cls = game_class(env_id)
        max_turns = cls.default_max_turns if max_turns is None else max_turns
        super().__init__(env_id, num_players, options, max_turns, seed, bots)
        self.env = make(env_id, num_players=num_players, raw=True, max_turns=max_turns,
                        **self.options)
        self.env.reset(seed=seed)
        self.players = {self.env.possible_agents[s]: make_bot(
            spec, env_id, num_players, seed=seed + s,
            **self.options) for s, spec in enumerate(bots) if spec is not None}
        self.states = [self.env.unwrapped.game_state.clone()]
        self._pending: dict[int, int] = {}
        #: set when the game is closed or swept (or the server stops): bot work stops
        self.closed = threading.Event()
        #: seconds the bots of this game have thought, in all
        self.bot_seconds = 0.0
        self._deadline = float("inf")
        for bot in self.players.values():
            if hasattr(bot, "stop_early"):      # the search bots: a deadline per move
                bot.stop_early = self._stop_early

    def live_over(self) -> bool:
        """Whether the env's game has ended (rules or turn limit)."""
        env = self.env
        return any(env.terminations.values()) or any(env.truncations.values())

    def _decide(self, agent: str, action: int) -> None:
        """Give ``agent``'s decision to the env; record the step once the joint move is
        applied (a simultaneous decision waits for every decider)."""
        seat = self.env.unwrapped.agent_name_mapping[agent]
        self._pending[seat] = int(action)
        self.env.step(int(action))
        if set(self._pending) >= set(self.states[-1].current_players()):
            self.moves.append(self._pending)
            self._pending = {}
            self.states.append(self.env.unwrapped.game_state.clone())

    def close(self) -> None:
        """Stop the game's bot work (a search in progress ends at its next sample)."""
        self.closed.set()

    def _check_open(self) -> None:
        """409 once the game is closed, or the request's client has left."""
        if self.closed.is_set():
            raise conflict("the game was closed while its bots were thinking")
        if self._client_gone is not None and self._client_gone.is_set():
            raise conflict("the request was given up by its client")

    def _stop_early(self) -> bool:
        """A search bot's question after each sample: stop now? (raises once closed)"""
        self._check_open()
        return time.monotonic() >= self._deadline

    def _bot_failed(self, seat: int, why: str) -> RequestError:
        """500 naming the bot that failed; the caller's transaction undoes the step."""
        return RequestError(500, f"the bot of {self.game.seat_name(seat)} "
                                 f"({self.bots[seat]}) failed: {why}; the game is as it was "
                                 "before this request")

    def _bot_decides(self) -> None:
        """The selected agent (a bot) decides, within its time (per move and per game);
        a move that raises or is not legal is refused (``_bot_failed``)."""
        self._check_open()
        agent = self.env.agent_selection
        seat = self.env.unwrapped.agent_name_mapping[agent]
        left = BOT_GAME_SECONDS - self.bot_seconds
        if left <= 0:
            raise conflict(f"the bots of this game have thought for {BOT_GAME_SECONDS / 60:g} "
                           "minutes, the most this server gives a game; start a new one")
        start = time.monotonic()
        self._deadline = start + min(BOT_MOVE_SECONDS, left)
        obs = self.env.observe(agent)
        try:
            action = choose_action(self.players[agent], self.env, agent, obs)
        except RequestError:
            raise
        except Exception as exc:  # noqa: BLE001 - any failure of a bot is the bot's
            log.warning("bot %s of game %s failed", self.bots[seat], self.id, exc_info=True)
            raise self._bot_failed(seat, f"{type(exc).__name__}: {exc}") from None
        finally:
            self.bot_seconds += time.monotonic() - start
        self._check_open()
        mask = obs["action_mask"]
        if not is_int(action) or not 0 <= action < len(mask) or not mask[action]:
            raise self._bot_failed(seat, f"it chose move {action!r}, which is not legal now")
        self._decide(agent, action)

    # -- all of a request's steps or none -----------------------------------------------
    def _checkpoint(self) -> tuple:
        """What a failed request must restore: the record, the env, the bots."""
        return (len(self.states), len(self.moves), dict(self._pending), self.cursor,
                _env_state(self.env.unwrapped), self._bot_copies())

    def _restore(self, saved: tuple) -> None:
        """Put the game back as it was at ``saved`` (``_checkpoint``)."""
        n_states, n_moves, pending, cursor, env_state, bots = saved
        del self.states[n_states:]
        del self.moves[n_moves:]
        for lines in self._logs.values():
            del lines[n_moves:]
        self._pending, self.cursor = pending, cursor
        raw = self.env.unwrapped
        vars(raw).clear()
        vars(raw).update(env_state)
        if bots is not None:
            self.players = bots

    def _bot_copies(self) -> dict | None:
        """Copies of the bots (their generators, memories, beliefs), sharing what does not
        change in play (the game, a network's runtime session); None when a bot cannot be
        copied (its state is then not restored)."""
        shared: dict[int, Any] = {id(self): self}
        for bot in self.players.values():
            _collect_shared(bot, shared, depth=3)
        try:
            return copy.deepcopy(self.players, shared)
        except Exception:  # noqa: BLE001 - a bot holding something uncopyable still plays
            log.warning("the bots of game %s cannot be copied", self.id, exc_info=True)
            return None

    def _transaction(self, work) -> None:
        """Run ``work`` (steps of this game): on any failure the game is put back as it
        was before and the failure raised."""
        saved = self._checkpoint()
        try:
            work()
        except BaseException:
            self._restore(saved)
            raise


class PlaySession(LiveSession):
    """A person in one seat against bots."""

    mode = PLAY

    def __init__(self, env_id, num_players, options, max_turns, seed, seat: int,
                 bots: list[str | None], auto_play: bool = True):
        super().__init__(env_id, num_players, options, max_turns, seed, bots)
        self.you = seat
        self.me = self.env.possible_agents[seat]
        #: play the person's only legal move for them
        self.auto_play = bool(auto_play)
        #: move index -> the line saying the person's only move was played for them
        self._forced: dict[int, str] = {}
        self._run_bots()

    def describe(self) -> dict:
        """The settings, the person's seat and whether forced moves are played for them."""
        return dict(super().describe(), you=self.you, auto_play=self.auto_play)

    def forced_since_choice(self) -> list[dict]:
        """The person's only moves played for them since their last own choice."""
        chosen = [k for k, joint in enumerate(self.moves)
                  if self.you in joint and k not in self._forced]
        last = chosen[-1] if chosen else -1
        return [{"step": k + 1, "text": text} for k, text in sorted(self._forced.items())
                if k > last and k < self.cursor]

    def your_turn(self) -> bool:
        """Whether the person must decide now."""
        return not self.live_over() and self.env.agent_selection == self.me

    def legal_for(self, seat: int) -> list[int]:
        """The person's legal moves when asked to decide (nobody else's)."""
        if seat != self.you or not self.your_turn():
            return []
        return np.flatnonzero(self.env.unwrapped.game_state.legal_actions_mask(seat)).tolist()

    def check_seat(self, seat: Any) -> int:
        """Only the person's own seat may be looked from (403 otherwise)."""
        if seat is None and self.over_at(len(self.states) - 1):
            raise RequestError(403, "this game is played from a seat; its omniscient view "
                                    "is in the replay file (save it now that it is over)")
        if seat is None or seat != self.you:
            raise RequestError(403, f"you play {self.game.seat_name(self.you)}; the table "
                                    "is shown from your seat only")
        return seat

    def snapshot(self, seat: int | None) -> dict:
        """The table from the person's seat, with whether it is their turn and the moves
        played for them."""
        out = super().snapshot(seat)
        out["your_turn"] = self.your_turn()
        out["forced"] = self.forced_since_choice()
        return out

    def _run_bots(self) -> None:
        """Let the bots decide until the person must (or the game ends); with
        ``auto_play``, a decision of the person's with one legal move is played for them."""
        while not self.live_over():
            if self.env.agent_selection != self.me:
                self._bot_decides()
                continue
            legal = self.legal_for(self.you) if self.auto_play else []
            move = only_move(legal)
            if move is None:
                break
            view = self.env.unwrapped.game_state.view(self.you)
            self._forced[len(self.moves)] = forced_line(move_labels(self.game, view,
                                                                    legal)[move])
            self._decide(self.me, move)
        self.cursor = len(self.states) - 1

    def _restore(self, saved: tuple) -> None:
        """Put the game back (``LiveSession._restore``), forced moves included."""
        super()._restore(saved)
        self._forced = {k: v for k, v in self._forced.items() if k < saved[1]}

    def move(self, action: Any, version: Any) -> None:
        """Apply the person's move (checked: version, turn, legality), then the bots'."""
        if not is_int(action):
            raise bad_request(f"'action' must be an action number, got {action!r}")
        self.check_version(version)
        if self.live_over():
            raise conflict("the game is over")
        if not self.your_turn():
            raise conflict("it is not your turn")
        legal = self.legal_for(self.you)
        if action not in legal:
            names = ", ".join(f"{a} ({self.game.action_name(a)})" for a in legal[:40])
            shown = self.game.action_name(action) if 0 <= action < self.game.num_actions \
                else "outside the action space"
            raise bad_request(f"illegal move {action} ({shown}); legal now: {names}")

        def step():
            """The person's move and the bots' answers: all or nothing."""
            self._decide(self.me, action)
            self._run_bots()
        self._transaction(step)
        self.version += 1

    def replay(self) -> dict:
        """The replay file, once the game is over (it holds every hidden fact)."""
        if not self.live_over():
            raise RequestError(403, "a replay holds every hidden fact: it can be saved "
                                    "once the game is over")
        return super().replay()


class WatchSession(LiveSession):
    """Bots in every seat, stepped one joint move at a time."""

    mode = WATCH

    def seek(self, to: Any, version: Any) -> None:
        """Move the cursor to state ``to``, playing the bots forward past the record's
        end (at most ``MAX_STEPS_PER_REQUEST`` moves; not past the end of the game)."""
        self.check_version(version)
        if not is_int(to) or to < 0:
            raise bad_request(f"'to' must be a step number (0 or more), got {to!r}")
        if to > len(self.states) - 1 + MAX_STEPS_PER_REQUEST:
            raise bad_request(f"at most {MAX_STEPS_PER_REQUEST} steps forward per request")
        if to > len(self.states) - 1 and self.live_over():
            raise conflict(f"the game is over at step {len(self.states) - 1}")
        stop = time.monotonic() + WATCH_REQUEST_SECONDS

        def forward():
            """Play the bots forward to ``to`` (or as far as the request's time allows,
            always to a whole joint move): all or nothing."""
            while len(self.states) - 1 < to and not self.live_over():
                if not self._pending and len(self.states) - 1 > self.cursor \
                        and time.monotonic() >= stop:
                    break
                self._bot_decides()
        self._transaction(forward)
        self.cursor = min(to, len(self.states) - 1)
        self.version += 1


class ReplaySession(Session):
    """A saved game opened again: its recorded states, watched."""

    mode = REPLAY

    def seek(self, to: Any, version: Any) -> None:
        """Move the cursor to recorded state ``to``."""
        self.check_version(version)
        last = len(self.states) - 1
        if not is_int(to) or not 0 <= to <= last:
            raise bad_request(f"'to' must be a step of this replay, 0..{last}, got {to!r}")
        self.cursor = to
        self.version += 1


#: the bot kinds the page offers (``BOT_SPECS``); a request may name no other
OFFERED_KINDS = tuple(re.split(r"[:\[]", spec, maxsplit=1)[0] for spec in BOT_SPECS)


def check_bot_file(path: str, bot_dir: Path | None) -> None:
    """Refuse (400) a bot file a request names unless it is an ``.onnx`` file inside
    ``bot_dir`` (after following every symlink); None: no file may be named."""
    if bot_dir is None:
        raise bad_request(f"bot file {path!r}: this server takes no bot files (start it with "
                          "--bot-dir DIR to offer the bots in DIR); the shipped bots need "
                          "none: pretrained, netsearch:pretrained")
    if not path.lower().endswith(".onnx"):
        raise bad_request(f"bot file {path!r}: not an .onnx file")
    if not bot_dir.is_dir():
        raise bad_request(f"bot file {path!r}: the server's bot folder {str(bot_dir)!r} is "
                          "not there")
    try:
        root = bot_dir.resolve(strict=True)
        target = Path(path).resolve()
    except (OSError, RuntimeError, ValueError) as exc:
        raise bad_request(f"bot file {path!r}: cannot be read ({exc})") from None
    if not target.is_relative_to(root):
        raise bad_request(f"bot file {path!r} is outside the bot folder {str(bot_dir)!r} "
                          "(symlinks followed): this server opens bot files there only")
    if target.suffix.lower() != ".onnx" or not target.is_file():
        raise bad_request(f"bot file {path!r}: no .onnx file there")


def check_bot_spec(spec: str, env_id: str, n: int, options: dict,
                   bot_dir: Path | None) -> None:
    """Refuse (400) a bot spec the page would not offer: an unlisted kind, a file outside
    ``bot_dir``, a search over ``MAX_SEARCH_SAMPLES`` states a move; or one that does not
    load (a bad argument; a damaged, foreign or broken network)."""
    kind = spec.partition(":")[0]
    if kind not in OFFERED_KINDS:
        raise bad_request(f"bot {spec!r}: unknown bot kind {kind!r}; this server offers "
                          f"{', '.join(BOT_SPECS)}")
    try:
        path = spec_file(spec)
        if path is not None:
            check_bot_file(path, bot_dir)
        bot = make_bot(spec, env_id, n, seed=0, **options)
    except PlunderError as exc:
        raise bad_request(f"bot {spec!r}: {exc}") from None
    except ImportError as exc:      # onnxruntime, for the trained kinds
        raise bad_request(f"bot {spec!r} needs a package that is not installed "
                          f"(pip install 'plunder[onnx]'): {exc}") from None
    samples = getattr(bot, "samples", None)
    if is_int(samples) and samples > MAX_SEARCH_SAMPLES:
        raise bad_request(f"bot {spec!r}: {samples} sampled states a move is more than the "
                          f"{MAX_SEARCH_SAMPLES} this server searches; ask for fewer")


def check_new_game(body: Any, bot_dir: Path | None = None) -> dict:
    """The settings of a game a request asks for, checked (400/404 with the reason):
    ``game``, ``mode`` (play/watch), ``players``, ``seat`` (play), ``bots`` (one spec per
    bot seat, or one for all), ``options``, ``seed`` (drawn here when not given, so that
    every replay can show its deal), ``max_turns``, ``auto_play`` (play: the person's
    only moves are played for them; default true). Bot files must lie in ``bot_dir``
    (``check_bot_spec``)."""
    if not isinstance(body, Mapping):
        raise bad_request("expected a JSON object with the game's settings")
    known = {"game", "mode", "players", "seat", "bots", "options", "seed", "max_turns",
             "auto_play"}
    unknown = sorted(set(body) - known)
    if unknown:
        raise bad_request(f"unknown field(s) {unknown}; fields: {sorted(known)}")
    env_id = resolve_env_id(body.get("game"))
    cls = game_class(env_id)
    mode = body.get("mode", PLAY)
    if mode not in (PLAY, WATCH):
        raise bad_request(f"'mode' must be 'play' or 'watch', got {mode!r}")
    n = body.get("players", cls.min_players)
    if not is_int(n) or not cls.min_players <= n <= cls.max_players:
        raise bad_request(f"'players': {env_id} is for {cls.min_players}-{cls.max_players} "
                          f"players, got {n!r}")
    options = body.get("options")
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise bad_request(f"'options' must be an object of variant options, got {options!r}")
    try:
        options = cls.check_options(dict(options))
    except PlunderError as exc:
        raise bad_request(f"'options': {exc}") from None
    seed = body.get("seed")
    if seed is not None and (not is_int(seed) or not 0 <= seed <= MAX_SEED):
        raise bad_request(f"'seed' must be a whole number, 0 to 2**128 - 1, or null; "
                          f"got {seed!r}")
    if seed is None:
        seed = secrets.randbits(32)
    max_turns = body.get("max_turns")
    if max_turns is not None and (not is_int(max_turns) or max_turns < 1):
        raise bad_request(f"'max_turns' must be a positive whole number or null, "
                          f"got {max_turns!r}")
    seat = body.get("seat", 0 if mode == PLAY else None)
    if mode == PLAY and (not is_int(seat) or not 0 <= seat < n):
        raise bad_request(f"'seat' must be 0..{n - 1} with {n} players, got {seat!r}")
    if mode == WATCH and seat is not None:
        raise bad_request("a watched game has bots in every seat; leave 'seat' out")
    auto_play = body.get("auto_play", True)
    if not isinstance(auto_play, bool):
        raise bad_request(f"'auto_play' must be true or false, got {auto_play!r}")
    if mode == WATCH and "auto_play" in body:
        raise bad_request("'auto_play' plays a person's only moves: a watched game has none")
    bot_seats = [s for s in range(n) if s != seat]
    specs = body.get("bots", ["heuristic"])
    if isinstance(specs, str):
        specs = [specs]
    if not isinstance(specs, list) or not specs or \
            not all(isinstance(b, str) and b.strip() for b in specs):
        raise bad_request(f"'bots' must be a list of bot specs such as ['heuristic', "
                          f"'random'], got {specs!r}")
    specs = [b.strip() for b in specs]
    if len(specs) == 1:
        specs = specs * len(bot_seats)
    if len(specs) != len(bot_seats):
        raise bad_request(f"{len(bot_seats)} bot seats need {len(bot_seats)} bots (or one "
                          f"for all) in 'bots', got {len(specs)}")
    for spec in sorted(set(specs)):
        check_bot_spec(spec, env_id, n, options, bot_dir)
    bots: list[str | None] = [None] * n
    for s, spec in zip(bot_seats, specs):
        bots[s] = spec
    return {"env_id": env_id, "mode": mode, "num_players": n, "seat": seat, "bots": bots,
            "options": options, "seed": seed, "max_turns": max_turns, "auto_play": auto_play}


def new_session(settings: dict) -> LiveSession:
    """A play or watch session from checked settings (``check_new_game``)."""
    common = dict(env_id=settings["env_id"], num_players=settings["num_players"],
                  options=settings["options"], max_turns=settings["max_turns"],
                  seed=settings["seed"], bots=settings["bots"])
    try:
        if settings["mode"] == PLAY:
            return PlaySession(seat=settings["seat"], auto_play=settings.get("auto_play", True),
                               **common)
        return WatchSession(**common)
    except InvalidArgumentError as exc:
        raise bad_request(str(exc)) from None


class SessionStore:
    """The server's games by id, at most ``max_games``; a game idle for ``idle_seconds``
    is dropped (checked on every request and by the server's sweeper)."""

    def __init__(self, max_games: int = 32, idle_seconds: float = 1800.0):
        if max_games < 1:
            raise InvalidArgumentError(f"max_games must be 1 or more, got {max_games}")
        if not idle_seconds > 0:        # NaN too
            raise InvalidArgumentError(f"idle time must be positive, got {idle_seconds}")
        self.max_games = max_games
        self.idle_seconds = idle_seconds
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._sessions)

    def sweep(self, now: float | None = None) -> list[str]:
        """Drop the games idle for longer than ``idle_seconds``; their ids."""
        now = time.monotonic() if now is None else now
        with self._lock:
            gone = [k for k, s in self._sessions.items()
                    if now - s.last_used > self.idle_seconds and not s.lock.locked()]
            for key in gone:
                self._sessions.pop(key).close()
        return gone

    def add(self, session: Session) -> Session:
        """Keep a new game (503 when the server is full)."""
        self.sweep()
        with self._lock:
            if len(self._sessions) >= self.max_games:
                raise RequestError(503, f"the server holds {self.max_games} games already; "
                                        "close one (idle games are removed after "
                                        f"{self.idle_seconds / 60:g} minutes)")
            self._sessions[session.id] = session
        return session

    def get(self, key: str) -> Session:
        """The game with id ``key`` (404 if there is none, or it was cleaned up)."""
        self.sweep()
        with self._lock:
            session = self._sessions.get(key)
        if session is None:
            raise RequestError(404, f"no game {key!r} on this server (games left idle for "
                                    f"{self.idle_seconds / 60:g} minutes are removed)")
        session.last_used = time.monotonic()
        return session

    def remove(self, key: str) -> None:
        """Close a game (404 if there is none)."""
        with self._lock:
            session = self._sessions.pop(key, None)
        if session is None:
            raise RequestError(404, f"no game {key!r} on this server")
        session.close()

    def close_all(self) -> None:
        """Close every game (the server is stopping): their bot work stops."""
        with self._lock:
            sessions, self._sessions = list(self._sessions.values()), {}
        for session in sessions:
            session.close()
