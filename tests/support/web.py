"""Helpers of the web server's tests (tests/web/test_server*.py): Starlette's test client
(skipping the test module where the web extra is missing), the fixtures ``bot_dir``,
``app`` and ``client`` (offered to tests/web by its conftest), and the requests and checks
both files make, a tiny exported bot, and ``plunder serve`` run as a command."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.error

import numpy as np
import pytest

from plunder.envs import game_class

#: (players, seat of the person, bots) per game: short games with every kind of seat
SETUPS = {
    "scallywags_v0": (3, 1, ["heuristic", "random"]),
    "shipshape_v0": (2, 0, ["heuristic"]),        # 2 players: the Cap'n is a scoring seat
    "anchors_aweigh_v0": (2, 1, ["random"]),
    "all_hands_battle_v0": (2, 0, ["random"]),
    "all_hands_crew_v0": (3, 2, ["heuristic", "random"]),
}
#: the header of a JSON body sent as raw bytes (the server refuses a POST without it)
JSON = {"content-type": "application/json"}


def web_test_client() -> type:
    """Starlette's ``TestClient``; called at a test module's top, it skips the module where
    ``plunder serve``'s web extra (or the HTTP client it needs) is not installed."""
    pytest.importorskip("starlette", reason="plunder serve needs the web extra")
    try:
        from starlette.testclient import TestClient
    except RuntimeError as exc:     # neither httpx2 nor httpx is installed
        pytest.skip(f"Starlette's TestClient: {exc}", allow_module_level=True)
    return TestClient


@pytest.fixture
def bot_dir(tmp_path):
    """The server's bot folder."""
    folder = tmp_path / "bots"
    folder.mkdir()
    return folder


@pytest.fixture
def app(bot_dir):
    """A fresh server app (its own games) whose bot folder is ``bot_dir``."""
    from plunder.training.web import create_app
    return create_app(bot_dir=bot_dir)


@pytest.fixture
def client(app):
    """A test client of ``app`` (the lifespan runs, as under uvicorn)."""
    with web_test_client()(app) as test_client:
        yield test_client


def new_game(client, env_id, mode="play", **settings):
    """Create a game; returns the first snapshot (asserting it was created)."""
    response = client.post("/api/games", json={"game": env_id, "mode": mode, **settings})
    assert response.status_code == 201, response.text
    return response.json()


def play_setup(env_id, seed=3, **extra):
    """The request body of a played game of ``env_id`` (see SETUPS)."""
    n, seat, bots = SETUPS[env_id]
    return dict(players=n, seat=seat, bots=bots, seed=seed, **extra)


def refused(response, status, *words):
    """Assert a JSON refusal with ``status`` whose message holds every one of ``words``."""
    assert response.status_code == status, response.text
    message = response.json()["error"]
    for word in words:
        assert word in message, message
    return message


def start_server(bot_dir, *options):
    """``plunder serve`` on a free port in a process of its own, offering the bots under
    ``bot_dir``, with ``options`` of its own (``--max-games``, ...): (its address, its port,
    the process; its output piped as text)."""
    from tests.web.browser import free_port

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "plunder.training.cli.commands", "serve",
                             "--port", str(port), "--bot-dir", str(bot_dir), *options],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return f"http://127.0.0.1:{port}", port, proc


def first_answer(proc, request, seconds=60):
    """What ``request()`` returns once the server of ``proc`` answers: retried while it
    starts (asserting that its process still runs, for ``seconds`` at most)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return request()
        except (urllib.error.URLError, ConnectionError):
            assert proc.poll() is None and time.monotonic() < deadline, "no server"
            time.sleep(0.2)


def write_network(path, env_id, num_players=2, graph_env=None, nan=None):
    """An exported bot (first legal move, value 0) with ``env_id``'s metadata; its graph is
    sized for ``graph_env`` (another game's network under copied metadata). ``nan``:
    "always" (NaN weights) or "in play" (NaN once the observation is not blank)."""
    onnx = pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime")
    from onnx import TensorProto, helper, numpy_helper

    cls = game_class(env_id)
    game = cls(num_players)
    graph_game = game_class(graph_env or env_id)(num_players)
    size, actions = graph_game.layout.size, graph_game.num_actions
    nodes = [
        helper.make_node("Cast", ["action_mask"], ["mask"], to=TensorProto.FLOAT),
        helper.make_node("ReduceSum", ["mask", "axes"], ["total"], keepdims=1),
        helper.make_node("Div", ["mask", "total"], ["uniform"]),
        helper.make_node("Mul", ["uniform", "scale"], ["scaled"]),
        helper.make_node("ArgMax", ["action_probs"], ["action"], axis=1, keepdims=0),
        helper.make_node("ReduceSum", ["observation", "axes"], ["flat"], keepdims=0),
        helper.make_node("Mul", ["flat", "zero"], ["value"]),
    ]
    if nan == "in play":        # + sqrt(-sum): 0 for a blank observation, else NaN
        nodes += [helper.make_node("ReduceSum", ["observation", "axes"], ["sum"], keepdims=1),
                  helper.make_node("Neg", ["sum"], ["negated"]),
                  helper.make_node("Sqrt", ["negated"], ["root"]),
                  helper.make_node("Add", ["scaled", "root"], ["action_probs"])]
    else:
        nodes.append(helper.make_node("Identity", ["scaled"], ["action_probs"]))
    graph = helper.make_graph(
        nodes, "tiny",
        [helper.make_tensor_value_info("observation", TensorProto.FLOAT, [None, size]),
         helper.make_tensor_value_info("action_mask", TensorProto.INT8, [None, actions])],
        [helper.make_tensor_value_info("action", TensorProto.INT64, [None]),
         helper.make_tensor_value_info("action_probs", TensorProto.FLOAT, [None, actions]),
         helper.make_tensor_value_info("value", TensorProto.FLOAT, [None])],
        [numpy_helper.from_array(np.array([1], np.int64), "axes"),
         numpy_helper.from_array(np.array(0.0, np.float32), "zero"),
         numpy_helper.from_array(np.array(np.nan if nan == "always" else 1.0, np.float32),
                                 "scale")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    meta = {"format": "plunder-bot/2", "env_id": env_id, "game": cls.name,
            "version": cls.version, "num_players": num_players,
            "options": game.option_values, "obs_size": game.layout.size,
            "num_actions": game.num_actions,
            "layout": [[f.name, f.size] for f in game.layout.fields]}
    helper.set_model_props(model, {"plunder": json.dumps(meta)})
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))
    return path
