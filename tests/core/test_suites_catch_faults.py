"""The shared suites fail on the faults they exist to catch (each planted in Scallywags
for one test) and load without pytest (the core install has none)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from plunder.envs.core import testing
from plunder.envs.core.errors import InvalidStateError
from plunder.envs.scallywags.engine import ScallywagsGame, ScallywagsState
from tests.support.import_blocker import blocker

GAME = "scallywags_v0"


def test_a_python_encoder_that_differs_from_the_compiled_one_fails(monkeypatch):
    if "encoder" not in testing.compiled_parts(ScallywagsGame(3)):
        pytest.skip("the compiled encoder is not built")
    encode = ScallywagsGame.encode

    def off_by_one(self, view):
        out = encode(self, view)
        out[-1] += 1.0
        return out

    monkeypatch.setattr(ScallywagsGame, "encode", off_by_one)
    with pytest.raises(AssertionError, match="encodings differ"):
        testing.check_compiled_equivalence(GAME, 3, states=20)


def test_a_broken_invariant_fails_the_fuzz(monkeypatch):
    def validate(self):
        if self.turns > 5:
            raise InvalidStateError("a coin was created or lost")

    monkeypatch.setattr(ScallywagsState, "validate", validate)
    with pytest.raises(InvalidStateError, match="a coin"):
        testing.fuzz(GAME, 3, games=1)
    with pytest.raises(AssertionError, match="late"):
        testing.fuzz(GAME, 2, games=1, invariants=lambda: _fails_late)


def _fails_late(state):
    assert state.turns < 3, "late"


def test_a_state_that_does_not_load_back_fails(monkeypatch):
    to_dict = ScallywagsState.to_dict

    def forgetful(self):
        data = to_dict(self)
        data["turns"] = 0
        return data

    monkeypatch.setattr(ScallywagsState, "to_dict", forgetful)
    monkeypatch.setattr(ScallywagsState, "to_json",
                        lambda self: __import__("json").dumps(to_dict(self), sort_keys=True))
    with pytest.raises(AssertionError, match="changes it"):
        testing.check_state_round_trips(GAME, 3, games=1)


def test_a_loader_that_raises_another_error_fails(monkeypatch):
    load = ScallywagsGame.state_from_dict

    def careless(self, data):
        if isinstance(data, dict) and "discard" not in data:
            raise KeyError("discard")
        return load(self, data)

    monkeypatch.setattr(ScallywagsGame, "state_from_dict", careless)
    with pytest.raises(AssertionError, match="raised KeyError"):
        testing.check_malformed_states_refused(GAME, 3)


def test_a_loader_that_lets_a_broken_state_through_fails(monkeypatch):
    # the hand sizes' rule left out: a state with a card too many loads, then breaks
    # the rules once its seat draws (or, where the compiled engine is built, that engine
    # refuses what the lenient Python loader takes)
    validate = ScallywagsState.validate

    def lenient(self):
        try:
            validate(self)
        except InvalidStateError as exc:
            if not str(exc).startswith("hands["):
                raise

    monkeypatch.setattr(ScallywagsState, "validate", lenient)
    with pytest.raises(AssertionError, match="loads, then|the compiled engine refuses it"):
        testing.check_corrupted_states(GAME, 3)


def test_a_compiled_view_that_disagrees_on_a_loaded_state_fails(monkeypatch):
    # the Python view made forgetful: the compiled engine's view no longer agrees with it
    if testing.compiled_engine(ScallywagsGame(3)) is None:
        pytest.skip("the compiled engine is not built")
    python_view = ScallywagsState.python_view

    def forgetful(self, player):
        return python_view(self, player)._replace(turns=self.turns % 7)

    monkeypatch.setattr(ScallywagsState, "python_view", forgetful)
    with pytest.raises(AssertionError, match="seat"):
        testing.check_corrupted_states(GAME, 3, states=4, per_state=10)


def test_a_compiled_engine_that_refuses_what_python_loads_fails(monkeypatch):
    if testing.compiled_engine(ScallywagsGame(3)) is None:
        pytest.skip("the compiled engine is not built")
    real = testing.compiled_engine

    class Picky:
        """The compiled engine, refusing every state whose turn count is odd."""

        def __init__(self, game):
            self.engine = real(game)

        def from_dict(self, data):
            if data["turns"] % 2:
                raise InvalidStateError("turns: odd")
            return self.engine.from_dict(data)

    monkeypatch.setattr(testing, "compiled_engine", Picky)
    with pytest.raises(AssertionError, match="the compiled engine refuses it"):
        testing.check_corrupted_states(GAME, 3, states=6, per_state=20)


def test_an_option_that_breaks_the_game_fails(monkeypatch):
    from plunder.envs.all_hands_battle.engine import AllHandsBattleGame

    monkeypatch.setattr(AllHandsBattleGame, "validate_options", classmethod(lambda cls, v: None))
    with pytest.raises(AssertionError, match="target_score|max_rounds"):
        testing.check_option_edges("all_hands_battle_v0", 2)


def test_an_observation_not_built_from_the_view_fails(monkeypatch):
    monkeypatch.setattr(ScallywagsState, "observation",
                        lambda self, p: np.zeros(self.game.layout.size, np.float32))
    with pytest.raises(AssertionError, match="not the encoding of its view"):
        testing.check_hidden_information(GAME, 3)


def test_a_sampled_state_with_other_actors_fails(monkeypatch):
    sample = ScallywagsGame.sample_state

    def other_actor(self, view, rng):
        state = sample(self, view, rng)
        state.actor = (state.actor + 1) % self.num_players
        return state

    monkeypatch.setattr(ScallywagsGame, "sample_state", other_actor)
    with pytest.raises(AssertionError, match="sampled from seat"):
        testing.check_hidden_information(GAME, 3)


def test_the_suites_import_without_pytest():
    code = blocker(("pytest", "_pytest")) + (
        "import plunder.envs.core.testing as t\n"
        "t.fuzz('scallywags_v0', 2, games=1)\n"
        "print('OK')\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "OK"
