"""Test suites every game passes, written once: plain functions that take a game (an env id
such as ``"scallywags_v0"``, or a :class:`~plunder.envs.core.game.Game` subclass) and a
player count, play random games and raise ``AssertionError`` with a message when a
contract is broken. The project's tests run them over every registered game
(tests/core/); a game of your own can run them the same way from its tests::

    from plunder.envs.core import testing

    def test_my_game_loads_its_states():
        testing.check_state_round_trips(MyGame, 3)

The suites:

- :func:`check_compiled_equivalence`: a game's compiled view builder, mask and encoder
  (where built) give what its Python ones give, strictly, over random play, sampled
  states, reloaded states and older states; :func:`check_compiled_binding`: the switch
  (``PLUNDER_PURE_PYTHON``), pickling and copying bind the compiled code again.
- :func:`check_state_round_trips` and :func:`check_malformed_states_refused`: saved states
  load back to the same state, malformed ones raise ``InvalidStateError``.
- :func:`fuzz`: random games with the game's own invariants (``validate``) and optional
  ones of the caller's, masks that never dead-end, observations inside their bounds.
- :func:`check_hidden_information`: the observation is built from the view alone, states
  sampled from a view (``sample_state``) agree with it, and who acts is public.

Nothing here imports pytest (the core install has none).
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import pickle
import tracemalloc
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

from .checks import short_repr
from .compiled import PURE_PYTHON_VAR
from .errors import InvalidArgumentError, InvalidStateError, PlunderError

#: what ``GameState.validate`` raises for a broken invariant (the project's error, or an
#: AssertionError from games that still check with ``assert``)
RULE_ERRORS = (PlunderError, AssertionError)

#: junk for a state's fields: wrong types, lengths and ranges (the compiled views' fuzz)
BAD_FIELD_VALUES = [None, -5, 10**30, 3.5, "x", (), [], [None] * 3, [[]] * 8,
                    [-1] * 40, [10**30] * 8, list(range(200)), {"a": 1}]


# -- games ----------------------------------------------------------------------------------

def game_class_of(game: Any) -> type:
    """The Game subclass of an env id (``"scallywags_v0"``) or of a class given itself."""
    if isinstance(game, str):
        from .registry import game_class
        return game_class(game)
    return game


def player_counts(game: Any) -> list[int]:
    """Every supported player count of ``game`` (an env id or a Game subclass)."""
    cls = game_class_of(game)
    return list(range(cls.min_players, cls.max_players + 1))


@contextlib.contextmanager
def compiled_switch(on: bool) -> Iterator[None]:
    """Compiled code on (``PLUNDER_PURE_PYTHON`` unset) or off (set to 1) inside the block,
    as it was afterwards."""
    old = os.environ.get(PURE_PYTHON_VAR)
    if on:
        os.environ.pop(PURE_PYTHON_VAR, None)
    else:
        os.environ[PURE_PYTHON_VAR] = "1"
    try:
        yield
    finally:
        if old is None:
            os.environ.pop(PURE_PYTHON_VAR, None)
        else:
            os.environ[PURE_PYTHON_VAR] = old


def make_game(game: Any, num_players: int, options: Mapping | None = None,
              compiled: bool | None = None):
    """A game of ``num_players``; ``compiled`` True or False builds it with its compiled
    code on or off, None as the environment says."""
    cls = game_class_of(game)
    if compiled is None:
        return cls(num_players, **dict(options or {}))
    with compiled_switch(compiled):
        return cls(num_players, **dict(options or {}))


def uses_compiled(game) -> bool:
    """Whether ``game`` encodes through its compiled module: its ``encode_into`` is then
    the C method itself, bound by the game on the instance."""
    return type(game.encode_into).__name__ == "builtin_function_or_method"


def uses_compiled_view(game) -> bool:
    """Whether ``game`` builds views through its compiled view builder: ``view_of`` is then
    the C method itself, bound on the instance (``Game.bind_compiled``)."""
    return type(game.__dict__.get("view_of")).__name__ == "builtin_function_or_method"


def uses_compiled_mask(game) -> bool:
    """Whether ``game`` writes masks through its compiled view builder's ``mask_into``, bound
    on the instance (``Game.bind_compiled``)."""
    return type(game.__dict__.get("mask_into")).__name__ == "builtin_function_or_method"


def compiled_parts(game) -> set[str]:
    """The compiled parts ``game`` runs: a subset of {"encoder", "view", "mask"}."""
    return ({"encoder"} if uses_compiled(game) else set()) | (
        {"view"} if uses_compiled_view(game) else set()) | (
        {"mask"} if uses_compiled_mask(game) else set())


# -- random play ----------------------------------------------------------------------------

def random_joint(state, rng: np.random.Generator) -> dict[int, int]:
    """A uniformly random legal action of every acting player of ``state``."""
    joint = {}
    for p in state.current_players():
        legal = np.flatnonzero(state.legal_actions_mask(p))
        if not (len(legal) > 0):
            raise AssertionError(f"player {p} must act but has no legal action")
        joint[p] = int(rng.choice(legal))
    return joint


def random_playout_states(game, seed: int, max_steps: int = 5000, every: int = 1) -> list:
    """States along one random legal playout (a clone of every ``every``-th one), the
    final state included."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(np.random.default_rng(seed + 1))
    out = [state.clone()]
    steps = 0
    while not state.is_terminal() and steps < max_steps:
        state.apply_joint(random_joint(state, rng))
        steps += 1
        if steps % every == 0 or state.is_terminal():
            out.append(state.clone())
    return out


def random_states(game, rng: np.random.Generator, count: int) -> Iterator:
    """``count`` states along random games, one game after another (each state live:
    clone it to keep it), terminal ones included."""
    states = 0
    while states < count:
        s = game.new_initial_state(rng)
        while True:
            states += 1
            yield s
            if s.is_terminal() or states >= count:
                break
            s.apply_joint(random_joint(s, rng))


# -- comparisons ----------------------------------------------------------------------------

def same_bytes(a: np.ndarray, b: np.ndarray) -> bool:
    """Two observation vectors are the same float32 bytes."""
    return (a.dtype == b.dtype == np.float32 and a.shape == b.shape
            and a.tobytes() == b.tobytes())


def same_view(a, b) -> bool:
    """Strict equality of two views: the same types all the way down (a bool is not an int,
    a list is not a tuple, a namedtuple is its own class) and equal values."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same_view(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_view(a[k], b[k]) for k in a)
    if isinstance(a, (set, frozenset)):
        return a == b and all(type(x) is type(next(y for y in b if y == x)) for x in a)
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    if isinstance(a, float):
        return a.hex() == b.hex()
    return a == b


def view_difference(a, b, where: str = "view") -> str:
    """Where two views first differ (for assertion messages), or "" when ``same_view``."""
    if type(a) is not type(b):
        return f"{where}: {type(a).__name__} {a!r} vs {type(b).__name__} {b!r}"
    if isinstance(a, (tuple, list)):
        if len(a) != len(b):
            return f"{where}: length {len(a)} vs {len(b)}: {a!r} vs {b!r}"
        names = getattr(a, "_fields", None)
        for i, (x, y) in enumerate(zip(a, b)):
            d = view_difference(x, y, f"{where}.{names[i]}" if names else f"{where}[{i}]")
            if d:
                return d
        return ""
    return "" if same_view(a, b) else f"{where}: {a!r} vs {b!r}"


def memory_growth(run: Callable[[int], Any], warm: int, count: int) -> int:
    """Bytes still allocated after ``run(count)`` that were not before it: ``run(warm)``
    first (caches and free lists fill), then ``run(warm // 2)`` while traced, then the
    measured ``run(count)``. A C function that leaks grows with ``count``."""
    run(warm)
    tracemalloc.start()
    try:
        run(warm // 2)
        before = tracemalloc.get_traced_memory()[0]
        run(count)
        return tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


def _masks_differ(a: np.ndarray, b: np.ndarray) -> str:
    if a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes():
        return ""
    return (f"{a.dtype}{a.shape} {np.flatnonzero(a).tolist()} vs "
            f"{b.dtype}{b.shape} {np.flatnonzero(b).tolist()}")


def _add_key(seen: set, key) -> None:
    """Add ``key`` to ``seen``; a frozenset adds each of its members (a state may be of
    several kinds at once)."""
    if isinstance(key, frozenset):
        seen.update(key)
    else:
        seen.add(key)


# -- compiled against Python ----------------------------------------------------------------

def check_compiled_equivalence(game: Any, num_players: int, options: Mapping | None = None,
                               *, states: int = 500, seed: int = 0,
                               key: Callable | None = None) -> dict:
    """The game's compiled parts against its Python ones over ``states`` states of random
    play (every seat of each): the compiled view strictly equal to the Python view of the
    same state loaded into a game built without compiled code, the compiled mask the same
    bytes as the Python mask (acting seats and the others), the compiled encoding the same
    float32 bytes as the Python one, and ``encode_into`` writing what ``encode`` returns.
    Now and then also an older state of the same game, a state sampled from a seat's view
    and a state reloaded from JSON.

    Returns counts of what was compared (``states``, ``older``, ``sampled``, ``loaded``,
    ``finished``, ``parts``: the compiled parts found) and, with ``key``, the set of
    ``key(state)`` seen (``keys``: the phases reached, say; a frozenset key adds each of
    its members). A game without compiled parts compares its Python code with itself,
    which still checks the loading path."""
    c = make_game(game, num_players, options, compiled=True)
    py = make_game(game, num_players, options, compiled=False)
    if compiled_parts(py):
        raise AssertionError("a game built under PLUNDER_PURE_PYTHON=1 runs C code")
    rng = np.random.default_rng(seed)
    n = num_players
    found = {"states": 0, "older": 0, "sampled": 0, "loaded": 0, "finished": 0,
             "parts": compiled_parts(c), "keys": set()}
    rows = np.empty((3, c.layout.size), np.float32)

    def compare(s, where):
        twin = py.state_from_dict(copy.deepcopy(s.to_dict()))
        for p in rng.permutation(n).tolist():
            cv, pv = s.view(p), twin.view(p)
            if not same_view(cv, pv):
                raise AssertionError(f"{where} seat {p}: {view_difference(cv, pv)}")
            want = py.encode(pv)
            got = c.encode(cv)
            if not same_bytes(got, want):
                raise AssertionError(f"{where} seat {p}: encodings differ at "
                f"{np.flatnonzero(got != want).tolist()[:10]}")
            rows.fill(7.0)
            if not (c.encode_into(cv, rows[1]) is None):
                raise AssertionError
            if not same_bytes(rows[1], want):
                raise AssertionError(f"{where} seat {p}: encode_into is not encode")
            if not ((rows[0] == 7.0).all() and (rows[2] == 7.0).all()):
                raise AssertionError(f"{where} seat {p}: encode_into writes outside its row")
        for p in range(n):
            diff = _masks_differ(s.legal_actions_mask(p), twin.legal_actions_mask(p))
            if diff:
                raise AssertionError(f"{where} seat {p}: masks differ: {diff}")

    old = []
    for s in random_states(c, rng, states):
        found["states"] += 1
        found["finished"] += s.is_terminal()
        if key is not None:
            _add_key(found["keys"], key(s))
        where = f"{n}p {dict(options or {})} state {found['states']} (turn {s.turns})"
        compare(s, where)
        if old and rng.random() < 0.1:
            compare(old[int(rng.integers(len(old)))], f"{where}, an older state")
            found["older"] += 1
        if rng.random() < 0.05:
            old.append(s.clone())
        if rng.random() < 0.05:
            sampled = c.sample_state(s.view(int(rng.integers(n))), rng)
            compare(sampled, f"{where}, sampled from a view")
            found["sampled"] += 1
        if rng.random() < 0.03 or s.is_terminal():
            compare(c.state_from_json(s.to_json()), f"{where}, reloaded")
            found["loaded"] += 1
    return found


def check_compiled_binding(game: Any, num_players: int, options: Mapping | None = None,
                           *, seed: int = 0, states: int = 60) -> None:
    """The compiled code follows the switch, pickling and copying: a game built under
    ``PLUNDER_PURE_PYTHON=1`` runs none and keeps none on the instance; a pickled game
    holds no compiled code, and a pickled or copied compiled game (and one pickled while
    switched off), and a pickled state's game, bind the same parts again and give the same
    views, masks and encodings; a game running its compiled encoder never builds (nor keeps from a pickle)
    the Python encoder's caches (``Game.python_encoder_attrs``), which the Python encoder
    builds on use."""
    c = make_game(game, num_players, options, compiled=True)
    parts = compiled_parts(c)
    state_of = c.__getstate__()
    for name in type(c).COMPILED_ATTRS:
        if not (name not in state_of):
            raise AssertionError(f"{name} would be pickled")
    py = make_game(game, num_players, options, compiled=False)
    if compiled_parts(py):
        raise AssertionError
    if set(type(py).COMPILED_ATTRS) & set(py.__dict__):
        raise AssertionError("compiled code on a pure game")
    kept = [s.clone() for s in random_states(c, np.random.default_rng(seed), states)]
    caches = set(type(c).python_encoder_attrs)
    for s in kept[::5]:
        for p in range(num_players):
            if not same_bytes(py.encode(s.view(p)), c.encode(s.view(p))):
                raise AssertionError
    if caches and "encoder" in parts:
        if caches & set(c.__dict__):
            raise AssertionError("a compiled game built the Python encoder's caches")
        if not (caches & set(py.__dict__)):
            raise AssertionError("the Python encoder built none of its caches")
    with compiled_switch(False):
        pure_data = pickle.dumps(py)
        off = pickle.loads(pickle.dumps(c))
        if compiled_parts(off):
            raise AssertionError("a game unpickled while switched off runs C code")
        for s in kept[::7]:
            if not same_bytes(off.encode(s.view(0)), c.encode(s.view(0))):
                raise AssertionError
    with compiled_switch(True):
        twins = [pickle.loads(pickle.dumps(c)), copy.deepcopy(c), pickle.loads(pure_data)]
    for i, twin in enumerate(twins):
        if not (compiled_parts(twin) == parts):
            raise AssertionError(f"twin {i}: {compiled_parts(twin)} != {parts}")
        if "encoder" in parts:
            if caches & set(twin.__dict__):
                raise AssertionError(f"twin {i} keeps the Python caches")
        for s in kept[::3]:
            t = twin.state_from_dict(s.to_dict()) if i else pickle.loads(pickle.dumps(s))
            if not i:                                     # a state pickles with its game
                if not (compiled_parts(t.game) == parts):
                    raise AssertionError
            for p in range(num_players):
                if not same_view(t.view(p), s.view(p)):
                    raise AssertionError(f"twin {i} seat {p}")
                if not same_bytes(twin.encode(t.view(p)), c.encode(s.view(p))):
                    raise AssertionError
                if _masks_differ(t.legal_actions_mask(p), s.legal_actions_mask(p)):
                    raise AssertionError


# -- loading saved states -------------------------------------------------------------------

def check_state_round_trips(game: Any, num_players: int, options: Mapping | None = None,
                            *, games: int = 2, seed: int = 0, every: int = 1,
                            key: Callable | None = None) -> set:
    """States of ``games`` random games (every ``every``-th one) survive to_json ->
    state_from_json, json.loads -> state_from_dict and to_dict -> state_from_dict
    unchanged; every seat's view of the loaded state is the original's; a state loaded
    from ``to_dict()`` shares nothing mutable with the original (playing it on leaves the
    original as it was); a clone and a loaded state play on exactly like the original.
    Returns the set of ``key(state)`` seen (empty without ``key``)."""
    g = make_game(game, num_players, options)
    seen = set()
    for i in range(games):
        states = random_playout_states(g, seed + 7919 * i, every=every)
        for k, state in enumerate(states):
            if key is not None:
                _add_key(seen, key(state))
            text = state.to_json()
            back = g.state_from_json(text)
            if not (back.to_json() == text):
                raise AssertionError(f"state {k}: to_json -> state_from_json changes it")
            if not (g.state_from_dict(json.loads(text)).to_json() == text):
                raise AssertionError
            alias = g.state_from_dict(state.to_dict())
            if not (alias.to_json() == text):
                raise AssertionError(f"state {k}: to_dict -> state_from_dict changes it")
            for p in range(num_players):
                if not (back.view(p) == state.view(p)):
                    raise AssertionError(f"state {k}: seat {p}'s view changed")
            if k % 5 == 0 and not state.is_terminal():
                rng = np.random.default_rng(k)
                twin = state.clone()
                for _ in range(3):
                    if alias.is_terminal():
                        break
                    joint = random_joint(alias, rng)
                    for s in (alias, back, twin):
                        s.apply_joint(dict(joint))
                    if not (back.to_json() == alias.to_json() == twin.to_json()):
                        raise AssertionError(f"state {k}: a loaded state or a clone plays on differently")
                if not (state.to_json() == text):
                    raise AssertionError(f"state {k}: state_from_dict(to_dict()) shares data with the original")
    return seen


def _refused(load: Callable, what: str, words: str = "") -> None:
    try:
        load()
    except InvalidStateError as exc:
        if not (words in str(exc)):
            raise AssertionError(f"{what}: {words!r} not in the error {str(exc)!r}")
    except Exception as exc:                  # noqa: BLE001 - reported as the failure
        raise AssertionError(f"{what}: raised {type(exc).__name__}: {exc}, "
                             f"not InvalidStateError") from exc
    else:
        raise AssertionError(f"{what}: loaded without an error")


def check_malformed_states_refused(game: Any, num_players: int,
                                   options: Mapping | None = None, *, seed: int = 0) -> None:
    """Saved states that are not states raise ``InvalidStateError`` (never another error,
    never a state) whose message says what is wrong: text that is not JSON, JSON that is
    not an object, a state with a field missing (each field in turn, named) or an unknown
    field (named), a field of the wrong type (each field set to None in turn), a broken
    generator, and a state of another player count."""
    g = make_game(game, num_players, options)
    states = random_playout_states(g, seed)
    data = json.loads(states[len(states) // 2].to_json())
    g.state_from_dict(copy.deepcopy(data))                  # sound before the changes
    for text in ("{", "plunder", ""):
        _refused(lambda: g.state_from_json(text), f"state_from_json({text!r})", "not JSON")
    for text in ("42", "[1, 2]"):
        _refused(lambda: g.state_from_json(text), f"state_from_json({text!r})",
                 "expected an object")
    _refused(lambda: g.state_from_dict([data]), "a list of states", "expected an object")
    for name in sorted(data):
        broken = copy.deepcopy(data)
        del broken[name]
        _refused(lambda: g.state_from_dict(broken), f"without {name!r}",
                 f"missing field(s) [{name!r}]")
        broken = copy.deepcopy(data)
        broken[name] = None
        _refused(lambda: g.state_from_dict(broken), f"{name!r} set to None", name)
    broken = dict(copy.deepcopy(data), not_a_field=1)
    _refused(lambda: g.state_from_dict(broken), "an unknown field",
             "unknown field(s) ['not_a_field']")
    if "rng" in data:
        broken = dict(copy.deepcopy(data), rng={"bit_generator": "nope"})
        _refused(lambda: g.state_from_dict(broken), "a broken generator", "rng")
    cls = game_class_of(game)
    for other in (num_players - 1, num_players + 1):
        if cls.min_players <= other <= cls.max_players:
            try:
                og = make_game(game, other, options)
            except InvalidArgumentError:              # a variant not offered there
                continue
            _refused(lambda: og.state_from_dict(copy.deepcopy(data)),
                     f"a {num_players}-player state loaded at {other} players")


# -- corrupted saved states, on both paths ---------------------------------------------------

#: ints a corrupted field is set to: the edges of the C types the compiled code reads
EDGE_INTS = (-1, -2, 2**31 - 1, 2**31, -2**31 - 1, 2**32, 2**63 - 1, 2**63, -2**63, 2**64,
             10**20)


def corruptions(value: Any, rng: np.random.Generator, others: list = (), *, near: bool = True,
                far: bool = True, depth: int = 0) -> list:
    """Corrupted copies of one saved field's ``value``. ``near`` ones could pass for a
    position: ints next to their value or small, bools flipped, lists shortened,
    lengthened, reordered or of another field of the state (``others``: its other
    values); ``far`` ones could not: ints at the C types' edges, values of other types.
    A list or mapping also gets copies with one entry corrupted in turn (recursively)."""
    out: list = []
    if isinstance(value, bool):
        out += ([not value] if near else []) + ([0, 1, None] if far else [])
    elif isinstance(value, int):
        if near:
            out += sorted({value + 1, value - 1, value + 2, value - 2, 0, 1, 2, 3} - {value})
        if far:
            out += list(EDGE_INTS) + [True, float(value), str(value)]
    elif isinstance(value, str):
        out += ([value + "?", ""] if near else []) + ([0, None] if far else [])
    elif isinstance(value, list):
        if near:
            out += [[], value[:-1], value + value[-1:], value[::-1]]
            if len(value) > 1:
                swapped = list(value)
                i, j = (int(k) for k in rng.choice(len(value), 2, replace=False))
                swapped[i], swapped[j] = swapped[j], swapped[i]
                out.append(swapped)
        if far:
            out.append([None] * len(value))
        if depth < 4:
            for i in rng.permutation(len(value))[:3].tolist():
                inner = corruptions(value[i], rng, near=near, far=far, depth=depth + 1)
                for k in rng.permutation(len(inner))[:6].tolist():
                    out.append(value[:i] + [inner[k]] + value[i + 1:])
    elif isinstance(value, dict) and depth < 4:
        for key in sorted(value, key=str):
            inner = corruptions(value[key], rng, near=near, far=far, depth=depth + 1)
            for k in rng.permutation(len(inner))[:4].tolist():
                out.append(dict(value, **{key: inner[k]}))
    if depth == 0 and near:
        out += [o for o in others if type(o) is type(value) and o != value]
    return out


def _load_outcome(game, data: Mapping, what: str):
    """The state ``data`` loads to, or None when it is refused with InvalidStateError."""
    try:
        return game.state_from_dict(copy.deepcopy(data))
    except InvalidStateError:
        return None
    except Exception as exc:                  # noqa: BLE001 - reported as the failure
        raise AssertionError(f"{what}: loading raised {type(exc).__name__}: {exc}") from exc


def compiled_engine(game):
    """The compiled engine (``envs/<game>/_engine.c``'s ``Engine``) of ``game``'s kind,
    built for ``game``; None where the game has none or it is not built."""
    from .batch import engine_module

    module = engine_module(type(game))
    return None if module is None else module.Engine(*game.compiled_engine_params(module))


def _same_engine_state(py, sp, ce, where: str) -> None:
    """The compiled engine's state ``ce`` is the Python state ``sp``: saved form, acting
    seats, every seat's mask, view and observation."""
    if json.loads(json.dumps(ce.to_dict())) != json.loads(sp.to_json()):
        raise AssertionError(f"{where}: the compiled engine's state differs from Python's")
    if ce.current_players() != sp.current_players() or ce.is_terminal() != sp.is_terminal():
        raise AssertionError(f"{where}: the compiled engine asks {ce.current_players()}, "
                             f"Python {sp.current_players()}")
    out = np.empty(py.layout.size, np.float32)
    for p in range(py.num_players):
        if bytes(ce.mask(p)) != sp.legal_actions_mask(p).tobytes():
            raise AssertionError(f"{where} seat {p}: the compiled engine's mask differs")
        view = sp.view(p)
        if not same_view(ce.view(p), view):
            raise AssertionError(f"{where} seat {p}: the compiled engine's view: "
                                 f"{view_difference(ce.view(p), view)}")
        ce.encode_into(p, out)
        if out.tobytes() != py.encode(view).tobytes():
            raise AssertionError(f"{where} seat {p}: the compiled engine's encoding differs")


def _play_both(c, py, sc, sp, rng, steps: int, what: str, ce=None) -> None:
    """``sc`` (on the compiled path), ``sp`` (on the Python path) and ``ce`` (in the
    compiled engine, where the game has one), loaded from the same data, agree seat by
    seat for ``steps`` random moves: views, float32 encodings inside the layout's bounds,
    masks (legal moves for exactly the acting seats), the rules' invariants after each
    move and the same saved state."""
    n = c.num_players
    low, high = np.asarray(c.layout.low), np.asarray(c.layout.high)
    for step in range(steps + 1):
        where = f"{what}, move {step}"
        if ce is not None:
            _same_engine_state(py, sp, ce, where)
        acting = sc.current_players()
        if sp.current_players() != acting:
            raise AssertionError(f"{where}: the paths ask {acting} and "
                                 f"{sp.current_players()} to act")
        for p in range(n):
            vc, vp = sc.view(p), sp.view(p)
            if not same_view(vc, vp):
                raise AssertionError(f"{where} seat {p}: {view_difference(vc, vp)}")
            got, want = c.encode(vc), py.encode(vp)
            if not same_bytes(got, want):
                raise AssertionError(f"{where} seat {p}: encodings differ at "
                                     f"{np.flatnonzero(got != want).tolist()[:10]}")
            outside = np.flatnonzero((got < low) | (got > high))
            if len(outside):
                raise AssertionError(f"{where} seat {p}: the observation leaves its bounds "
                                     f"at {[_field_at(c.layout, int(i)) for i in outside[:5]]}")
            mc, mp = sc.legal_actions_mask(p), sp.legal_actions_mask(p)
            diff = _masks_differ(mc, mp)
            if diff:
                raise AssertionError(f"{where} seat {p}: masks differ: {diff}")
            if mc.any() != (p in acting):
                raise AssertionError(f"{where}: seat {p} {'acts' if p in acting else 'waits'}"
                                     f" with {int(mc.sum())} legal actions")
        if sc.is_terminal():
            if acting:
                raise AssertionError(f"{where}: a finished game asks {acting} to act")
            sc.scores(), sc.rank_keys()
            return
        if not acting:
            raise AssertionError(f"{where}: nobody acts in an unfinished game")
        joint = random_joint(sc, rng)
        sc.apply_joint(dict(joint))
        sp.apply_joint(dict(joint))
        if ce is not None:
            ce.apply_joint(dict(joint))
        sc.validate()
        if sc.to_json() != sp.to_json():
            raise AssertionError(f"{where}: the paths' states differ after {joint}")


def check_corrupted_states(game: Any, num_players: int, options: Mapping | None = None, *,
                           states: int = 10, per_state: int = 30, seed: int = 0,
                           steps: int = 8) -> dict:
    """Saved states with one field corrupted (:func:`corruptions`, three times in four
    one that could pass for a position) load alike on the compiled path (a game built
    with its compiled code), on the Python path (``PLUNDER_PURE_PYTHON=1``) and in the
    game's compiled engine (where it has one: the env plays there): refused with
    ``InvalidStateError`` (never another error), or loaded everywhere into states that
    then agree seat by seat for ``steps`` random moves (views, encodings inside their
    bounds, masks, who acts, the saved state), keep the rules' invariants and play on:
    whatever the loader lets through is a position every path treats as the same legal
    game. ``states`` states of random play, ``per_state`` corruptions of each. Returns
    the counts ``tried``, ``refused`` and ``loaded``."""
    c = make_game(game, num_players, options, compiled=True)
    py = make_game(game, num_players, options, compiled=False)
    engine = compiled_engine(c)
    rng = np.random.default_rng(seed)
    pool = [s for i in range(2) for s in random_playout_states(c, seed + 7919 * i)]
    picked = sorted(rng.choice(len(pool), min(states, len(pool)), replace=False).tolist())
    found = {"tried": 0, "refused": 0, "loaded": 0}
    for k in picked:
        data = json.loads(pool[k].to_json())
        names = [f for f in data if f != "rng"]
        for _ in range(per_state):
            name = names[int(rng.integers(len(names)))]
            others = [data[f] for f in names if f != name]
            near = bool(rng.random() < 0.75)     # mostly what could pass for a position
            choices = corruptions(data[name], rng, others, near=near, far=not near)
            if not choices:
                continue
            bad = choices[int(rng.integers(len(choices)))]
            broken = dict(data, **{name: bad})
            what = f"{num_players}p state {k} with {name} = {short_repr(bad)}"
            sc = _load_outcome(c, broken, f"{what} (compiled path)")
            sp = _load_outcome(py, broken, f"{what} (Python path)")
            found["tried"] += 1
            if (sc is None) != (sp is None):
                raise AssertionError(f"{what}: only the "
                                     f"{'Python' if sc is None else 'compiled'} path loads it")
            if sc is None:
                found["refused"] += 1
                continue
            found["loaded"] += 1
            ce = None
            if engine is not None:
                try:
                    ce = engine.from_dict(copy.deepcopy(broken))
                except Exception as exc:      # noqa: BLE001 - reported as the failure
                    raise AssertionError(f"{what}: the Python loader takes it, the compiled "
                                         f"engine refuses it ({type(exc).__name__}: "
                                         f"{exc})") from exc
            try:
                _play_both(c, py, sc, sp, np.random.default_rng(int(rng.integers(2**32))),
                           steps, what, ce)
            except AssertionError:
                raise
            except Exception as exc:          # noqa: BLE001 - reported as the failure
                raise AssertionError(f"{what}: loads, then {type(exc).__name__}: "
                                     f"{exc}") from exc
    return found


def check_option_edges(game: Any, num_players: int, *, steps: int = 30, seed: int = 0) -> dict:
    """Every variant option at the edges of its type (ints at the C types' edges and
    around 0, bools, other types, empty strings and lists) is refused by the constructor
    with ``InvalidArgumentError`` on both paths alike, or builds games that play
    ``steps`` random moves identically on both (:func:`check_corrupted_states`' checks).
    Returns the counts ``tried``, ``refused`` and ``built``."""
    cls = game_class_of(game)
    found = {"tried": 0, "refused": 0, "built": 0}
    for name, default in sorted(cls.options.items()):
        if isinstance(default, bool):
            values = [not default, 0, 1, None, "yes"]
        elif isinstance(default, int):
            values = list(EDGE_INTS) + [0, 1, default + 1, float(default), None, True]
        else:
            values = [None, 0, -1, 2**63, "", "?", [], [0], [-1], [2**63], {}]
        for value in values:
            what = f"{num_players}p {name}={short_repr(value)}"
            built = []
            for compiled in (True, False):
                try:
                    built.append(make_game(game, num_players, {name: value}, compiled))
                except InvalidArgumentError:
                    built.append(None)
                except Exception as exc:      # noqa: BLE001 - reported as the failure
                    raise AssertionError(f"{what}: {type(exc).__name__}: {exc}, not "
                                         "InvalidArgumentError") from exc
            found["tried"] += 1
            c, py = built
            if (c is None) != (py is None):
                raise AssertionError(f"{what}: only one path builds the game")
            if c is None:
                found["refused"] += 1
                continue
            found["built"] += 1
            try:
                sc = c.new_initial_state(np.random.default_rng(seed))
                sp = py.state_from_dict(sc.to_dict())
                _play_both(c, py, sc, sp, np.random.default_rng(seed + 1), steps, what)
            except AssertionError:
                raise
            except Exception as exc:          # noqa: BLE001 - reported as the failure
                raise AssertionError(f"{what}: builds, then {type(exc).__name__}: "
                                     f"{exc}") from exc
    return found


# -- fuzz -----------------------------------------------------------------------------------

def fuzz(game: Any, num_players: int, options: Mapping | None = None, *, games: int = 2,
         seed: int = 0, invariants: Callable[[], Callable] | None = None,
         max_steps: int = 100_000, check_every: int = 1) -> list:
    """``games`` random games with invariants checked after every ``check_every``-th move
    and at the end: the game's own (``validate``), and ``invariants()``'s, a fresh checker
    per game called with each state (it may keep what it needs of earlier states); every
    acting player has a legal move and the others none; every seat's observation has the
    layout's size and lies within its bounds; the game ends within ``max_steps`` moves
    with nobody to act, every mask empty and a score per seat; a state sampled from each
    seat's final view obeys the rules too. Returns the finished states."""
    g = make_game(game, num_players, options)
    layout = g.layout
    low, high = np.asarray(layout.low), np.asarray(layout.high)
    finals = []

    def check(s, check_rules, where):
        s.validate()
        if check_rules is not None:
            check_rules(s)
        acting = s.current_players()
        if not (len(set(acting)) == len(acting) and all(0 <= p < num_players for p in acting)):
            raise AssertionError
        for p in range(num_players):
            mask = s.legal_actions_mask(p)
            if not (mask.shape == (g.num_actions,)):
                raise AssertionError(f"{where}: seat {p}'s mask shape")
            if not (mask.any() == (p in acting)):
                raise AssertionError(f"{where}: seat {p} {'acts' if p in acting else 'waits'} with "
                f"{int(mask.sum())} legal actions")
            obs = g.encode(s.view(p))
            if not (obs.shape == (layout.size,) and obs.dtype == np.float32):
                raise AssertionError
            outside = np.flatnonzero((obs < low) | (obs > high))
            if len(outside):
                raise AssertionError(f"{where}: seat {p}'s observation leaves its bounds at "
                f"{[_field_at(layout, int(i)) for i in outside[:5]]}")

    for i in range(games):
        game_seed = seed + 7919 * i
        s = g.new_initial_state(np.random.default_rng(game_seed))
        rng = np.random.default_rng(game_seed + 1)
        check_rules = invariants() if invariants is not None else None
        check(s, check_rules, f"game {i}, start")
        steps = 0
        while not s.is_terminal():
            s.apply_joint(random_joint(s, rng))
            steps += 1
            if not (steps < max_steps):
                raise AssertionError(f"game {i} does not end in {max_steps} moves")
            if steps % check_every == 0:
                check(s, check_rules, f"game {i}, move {steps}")
        check(s, check_rules, f"game {i}, end")
        if not (s.current_players() == ()):
            raise AssertionError("a finished game asks someone to act")
        if not (len(s.scores()) >= num_players and len(s.rank_keys()) >= num_players):
            raise AssertionError
        for p in range(num_players):
            g.sample_state(s.view(p), np.random.default_rng(game_seed + p)).validate()
        finals.append(s)
    return finals


def _field_at(layout, index: int) -> str:
    """``"name[k]"``: the layout field holding observation entry ``index``."""
    for name in layout.names():
        sl = layout.slice(name)
        if sl.start <= index < sl.stop:
            return f"{name}[{index - sl.start}]"
    return str(index)


# -- hidden information ---------------------------------------------------------------------

def check_hidden_information(game: Any, num_players: int, options: Mapping | None = None,
                             *, games: int = 1, seed: int = 0, every: int = 3,
                             samples: int = 2) -> int:
    """The generic part of the hidden-information contract, at every ``every``-th state of
    ``games`` random games and every seat: the observation is the encoding of the view
    (``state.observation(p) == game.encode(state.view(p))``) and the same at every call;
    each of ``samples`` states dealt from the seat's view (``sample_state``) obeys the
    rules, gives that seat the same view, the same observation and the same mask, asks the
    same players to act (who acts is public), and plays on. Returns the number of sampled
    states checked."""
    g = make_game(game, num_players, options)
    rng = np.random.default_rng(seed + 1)
    checked = 0
    for i in range(games):
        for k, state in enumerate(random_playout_states(g, seed + 7919 * i, every=every)):
            acting = state.current_players()
            for p in range(num_players):
                view = state.view(p)
                obs = g.encode(view)
                if not same_bytes(state.observation(p), obs):
                    raise AssertionError(f"state {k}: seat {p}'s observation is not the encoding of its view")
                if not same_bytes(g.encode(view), obs):
                    raise AssertionError(f"state {k}: encoding changes")
                mask = state.legal_actions_mask(p)
                for _ in range(samples):
                    other = g.sample_state(view, rng)
                    other.validate()
                    where = f"state {k}: a state sampled from seat {p}'s view"
                    if not (other.view(p) == view):
                        raise AssertionError(f"{where} shows another view")
                    if not same_bytes(g.encode(other.view(p)), obs):
                        raise AssertionError(f"{where} gives another observation")
                    if not (other.current_players() == acting):
                        raise AssertionError(f"{where} asks {other.current_players()} to act, not {acting}")
                    if _masks_differ(other.legal_actions_mask(p), mask):
                        raise AssertionError(f"{where} has another mask")
                    if acting:
                        other.apply_joint(random_joint(other, rng))
                    checked += 1
    return checked
