"""Replay files: a whole game as JSON (the engine's states and the moves between them).

A replay is what the page saves and opens again::

    {"format": "plunder-replay/1", "env_id": "scallywags_v0", "num_players": 3,
     "options": {}, "max_turns": 400, "seed": 7, "bots": [null, "heuristic", "random"],
     "states": [state.to_dict(), ...],       # every position, hidden facts included
     "moves": [[[seat, action], ...], ...]}  # moves[i] leads from states[i] to states[i+1]

``bots`` names who sat where (null: a person); ``seed`` dealt the game (the server draws
one when none is asked for). Opening one checks everything: each state through
``Game.state_from_dict`` (field by field, then the rules' invariants), state 0 is the game
``seed`` deals (as ``env.reset(seed=seed)`` does), each move is legal for exactly the
seats asked to act, and applying ``moves[i]`` to ``states[i]`` gives ``states[i + 1]``
(the engine is deterministic: a state holds its generator). A file that fails any check
is refused with the step and the reason, so an opened replay is a game that was really
played. The states are read one by one as the moves are checked, so a file that goes wrong
early is refused early (the server refuses a file over its size limit before reading it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from plunder.envs import game_class
from plunder.envs.core import PlunderError
from plunder.envs.core.state_io import check_int, check_keys, check_list

from .sessions import MAX_SEED, ReplaySession, bad_request, resolve_env_id

FORMAT = "plunder-replay/1"
_FIELDS = ("format", "env_id", "num_players", "options", "max_turns", "seed", "bots",
           "states", "moves")


def replay_data(session) -> dict:
    """The replay file of a session (every state, every move)."""
    return {
        "format": FORMAT,
        "env_id": session.env_id,
        "num_players": session.num_players,
        "options": dict(session.options),
        "max_turns": session.max_turns,
        "seed": session.seed,
        "bots": list(session.bots),
        "states": [state.to_dict() for state in session.states],
        "moves": [[[int(s), int(a)] for s, a in sorted(joint.items())]
                  for joint in session.moves],
    }


def open_replay(data: Any) -> ReplaySession:
    """A replay session from a replay file's data; 400 naming what is wrong otherwise."""
    try:
        return _load(data)
    except PlunderError as exc:
        raise bad_request(f"not a valid replay: {exc}") from None


def _load(data: Any) -> ReplaySession:
    """Read and check a replay (PlunderError on any problem)."""
    check_keys(data, "replay", _FIELDS)
    if data["format"] != FORMAT:
        raise bad_request(f"not a replay file: 'format' is {data['format']!r}, "
                          f"expected {FORMAT!r}")
    env_id = resolve_env_id(data["env_id"])
    cls = game_class(env_id)
    n = check_int(data["num_players"], "replay num_players", cls.min_players, cls.max_players)
    if not isinstance(data["options"], Mapping):
        raise bad_request("replay options: expected an object")
    game = cls(n, **data["options"])
    max_turns = check_int(data["max_turns"], "replay max_turns", 1)
    seed = check_int(data["seed"], "replay seed", 0, MAX_SEED)
    bots = check_list(data["bots"], "replay bots", n)
    if not all(b is None or isinstance(b, str) for b in bots):
        raise bad_request("replay bots: expected a bot name or null per seat")
    raw_states = check_list(data["states"], "replay states", min_len=1)
    moves = check_list(data["moves"], "replay moves", len(raw_states) - 1)

    def read_state(i: int):
        """State ``i`` of the file, checked (read only when its turn comes, so that a
        file with a bad early step costs little)."""
        try:
            return game.state_from_dict(raw_states[i])
        except PlunderError as exc:
            raise bad_request(f"replay state {i}: {exc}") from None

    states = [read_state(0)]
    if states[0].to_dict() != game.new_game(np.random.default_rng(seed)).to_dict():
        raise bad_request(f"replay state 0 is not the game seed {seed} deals: the file was "
                          "changed or belongs to another engine version")
    joints = []
    for i, move in enumerate(moves):
        where = f"replay move {i}"
        joint = {}
        for pair in check_list(move, where, min_len=1):
            seat, action = check_list(pair, f"{where}: [seat, action]", 2)
            check_int(seat, f"{where}: seat", 0, n - 1)
            check_int(action, f"{where}: action", 0, game.num_actions - 1)
            if seat in joint:
                raise bad_request(f"{where}: seat {seat} moves twice")
            joint[seat] = action
        states.append(read_state(i + 1))
        state = states[i].clone()
        if state.turns >= max_turns and not state.is_terminal():
            raise bad_request(f"{where}: the game had reached its turn limit ({max_turns})")
        try:
            state.apply_joint(joint)
        except PlunderError as exc:
            raise bad_request(f"{where} cannot be played in state {i}: {exc}") from None
        if state.to_dict() != states[i + 1].to_dict():
            raise bad_request(f"{where} played in state {i} does not give state {i + 1}: "
                              "the file was changed or belongs to another engine version")
        joints.append(joint)
    session = ReplaySession(env_id, n, game.option_values, max_turns, seed, list(bots))
    session.states = states
    session.moves = joints
    return session
