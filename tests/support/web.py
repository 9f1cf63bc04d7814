"""Helpers of the web server's tests (tests/web/test_server*.py): Starlette's test client
(skipping the test module where the web extra is missing), the fixtures ``bot_dir``,
``app`` and ``client`` (offered to tests/web by its conftest), and the requests and checks
both files make, and ``plunder serve`` run as a command."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.error

import pytest

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


def start_server(bot_dir):
    """``plunder serve`` on a free port in a process of its own, offering the bots under
    ``bot_dir``: (its address, its port, the process; its output piped as text)."""
    from tests.web.browser import free_port

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "plunder.training.cli.commands", "serve",
                             "--port", str(port), "--bot-dir", str(bot_dir)],
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
