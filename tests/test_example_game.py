"""Adding a game is one folder plus one line: the example game (tests/example_game/),
registered with ``register("tests.example_game")``, passes the shared env contract suite
and PettingZoo's api tests, is played by the random and heuristic bots, and is listed by
``plunder list`` and the web page's catalogue. Registration is scoped to these tests (the
fixture unregisters it), so every other test still sees the shipped games alone."""

from __future__ import annotations

import inspect

import pettingzoo
import pytest
from pettingzoo.test import api_test, parallel_api_test

from plunder.envs import ENV_IDS, make, pettingzoo_id, register, unregister
from tests import test_env_suite as suite
from tests.example_game import SPEC

from tests.support.parallel import MaskedSamplingParallelEnv

from .conftest import HAS_PZ_REGISTRY

EXAMPLE = SPEC.env_id
SHIPPED = ENV_IDS            # collected before any test registers the example


@pytest.fixture
def example():
    """The example game registered for one test: the one line a game needs."""
    register("tests.example_game")
    yield EXAMPLE
    unregister(EXAMPLE)


def _suite_checks():
    """(check, num_players) for every check of tests/test_env_suite.py that takes a game:
    per player count where it takes one, only for simultaneous games where it asks."""
    out = []
    for name, check in inspect.getmembers(suite, inspect.isfunction):
        if not name.startswith("test_") or check.__module__ != suite.__name__:
            continue
        params = list(inspect.signature(check).parameters)
        if params[:1] != ["env_id"]:
            continue
        marks = [m for m in getattr(check, "pytestmark", []) if m.name == "parametrize"]
        simultaneous_only = any("SIMULTANEOUS" in str(m.args[1]) or
                                m.args[1] == suite.SIMULTANEOUS_COUNTS for m in marks)
        if simultaneous_only and not SPEC.simultaneous:
            continue
        counts = SPEC.player_counts if "n" in params else [None]
        out += [pytest.param(check, n, id=f"{name}-{n}p" if n else name) for n in counts]
    return out


@pytest.mark.parametrize("check,n", _suite_checks())
def test_the_shared_env_suite_passes(example, check, n):
    check(example) if n is None else check(example, n)


def test_the_suite_covers_the_example():
    names = {p.values[0].__name__ for p in _suite_checks()}
    assert {"test_pettingzoo_api", "test_clone_and_json_round_trip",
            "test_pettingzoo_parallel_api", "test_errors_are_clear"} <= names


@pytest.mark.parametrize("n", list(SPEC.player_counts))
def test_the_shared_suites_pass(example, n):
    """The suites of plunder.envs.core.testing that tests/core/ runs over every shipped
    game: random play with invariants, state round trips and refusals, the
    hidden-information contract."""
    from plunder.envs.core import testing

    testing.fuzz(example, n, games=3, seed=1)
    testing.check_state_round_trips(example, n)
    testing.check_malformed_states_refused(example, n)
    assert testing.check_hidden_information(example, n, seed=13) > 0


@pytest.mark.skipif(not HAS_PZ_REGISTRY, reason="PettingZoo's registry needs 1.27+")
@pytest.mark.parametrize("n", list(SPEC.player_counts))
def test_pettingzoos_api_tests_through_its_registry(example, n):
    pz_id = pettingzoo_id(example)
    api_test(pettingzoo.make("aec", pz_id, num_players=n), num_cycles=100)
    parallel_api_test(MaskedSamplingParallelEnv(
        pettingzoo.make("parallel", pz_id, num_players=n)), num_cycles=100)


@pytest.mark.parametrize("bots", [("random", "random"), ("heuristic", "random", "random")])
def test_the_bots_play_it(example, bots):
    from plunder.policies import choose_action, make_bot

    env = make(example, num_players=len(bots))
    env.reset(seed=1)
    players = [make_bot(b, example, len(bots), seed=i) for i, b in enumerate(bots)]
    for agent in env.agent_iter(100):
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        bot = players[env.possible_agents.index(agent)]
        action = choose_action(bot, env, agent, obs)
        assert obs["action_mask"][action]
        env.step(action)
    assert not env.agents and len(info["scores"]) == len(bots)
    assert sum(info["scores"]) == 3                       # one point a round


def test_plunder_list_names_it(example):
    from click.testing import CliRunner

    from plunder.training.cli.commands import main

    out = CliRunner().invoke(main, ["list"])
    assert out.exit_code == 0
    # the games' table: one row per env id
    lines = {line.split()[0]: line for line in out.output.splitlines()
             if line.split() and line.split()[0].endswith("_v0")}
    assert list(lines) == [*SHIPPED, EXAMPLE]
    assert " 2-3 " in lines[EXAMPLE] and "simultaneous" in lines[EXAMPLE]


def test_the_web_page_lists_and_plays_it(example):
    pytest.importorskip("starlette", reason="plunder serve needs the web extra")
    try:
        from starlette.testclient import TestClient
    except RuntimeError as exc:
        pytest.skip(f"Starlette's TestClient: {exc}")
    from plunder.training.web import create_app

    client = TestClient(create_app())
    games = client.get("/api/catalog").json()["games"]
    assert [g["env_id"] for g in games] == [*SHIPPED, EXAMPLE]
    entry = games[-1]
    assert (entry["title"], entry["min_players"], entry["max_players"]) == ("Doubloons", 2, 3)
    made = client.post("/api/games", json={"game": "doubloons", "players": 2,
                                           "bots": ["random"]})
    assert made.status_code == 201, made.text
    assert made.json()["board"]["zones"] == []       # no board builder: move buttons


def test_registration_is_scoped():
    """Outside the fixture the registry, PettingZoo's and the bots' tables hold the
    shipped games only."""
    from plunder.policies import HEURISTICS

    assert ENV_IDS == SHIPPED and EXAMPLE not in SHIPPED
    assert EXAMPLE not in HEURISTICS
    if HAS_PZ_REGISTRY:
        assert pettingzoo_id(EXAMPLE) not in pettingzoo.aec_registry


def test_the_example_is_a_small_game():
    """A few dozen lines of rules: the example stays an example."""
    from pathlib import Path

    engine = Path(__file__).parent / "example_game" / "engine.py"
    code = [line for line in engine.read_text().splitlines()
            if line.strip() and not line.strip().startswith(("#", '"'))]
    assert len(code) < 150
