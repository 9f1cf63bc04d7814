"""The server under load (slow suite): 50 games played at once for a minute against a
``plunder serve`` process on the loopback interface, every answer a success, the server
still up and quiet afterwards."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from tests.support.web import SETUPS, first_answer, start_server, web_test_client

web_test_client()          # skips this module without the web extra

#: games played at once, and for how long
CLIENTS, SECONDS = 50, 60.0
#: every tenth client watches a bot game instead of playing one
WATCHERS = 10


def _call(url, method="GET", body=None):
    """(status, JSON answer) of one request; an HTTP error is an answer too."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(errors="replace")


def _client(url, k, deadline, errors, counts):
    """Client ``k``: new games, played (or watched) to their end and closed, until the
    deadline; every answer that is not a success goes to ``errors``."""
    rng = np.random.default_rng(k)
    env_ids = list(SETUPS)
    watch = k % WATCHERS == 0
    while time.monotonic() < deadline and not errors:
        env_id = env_ids[(k + counts["games"]) % len(env_ids)]
        n, seat, bots = SETUPS[env_id]
        body = {"game": env_id, "mode": "watch" if watch else "play", "players": n,
                "bots": ["random"] if watch else bots, "seed": int(rng.integers(2**31))}
        if not watch:
            body["seat"] = seat
        status, game = _call(f"{url}/api/games", "POST", body)
        if status != 201:
            errors.append(f"client {k}: new {env_id} game: {status} {game}")
            return
        gid = game["id"]
        while not game["over"] and time.monotonic() < deadline:
            if watch:
                step = {"to": game["step"] + 5, "version": game["version"]}
                status, game = _call(f"{url}/api/games/{gid}/seek", "POST", step)
            else:
                legal = [m["action"] for m in game["legal"]]
                if not (game["your_turn"] and legal):
                    errors.append(f"client {k}: {env_id} stopped before the person's move")
                    return
                move = {"action": int(rng.choice(legal)), "version": game["version"]}
                status, game = _call(f"{url}/api/games/{gid}/move", "POST", move)
            if status != 200:
                errors.append(f"client {k}: {env_id} {'seek' if watch else 'move'}: "
                              f"{status} {game}")
                return
            counts["requests"] += 1
            if counts["requests"] % 7 == 0:            # a look from the seat now and then
                status, look = _call(f"{url}/api/games/{gid}")
                if status != 200:
                    errors.append(f"client {k}: {env_id} look: {status} {look}")
                    return
        counts["games"] += game["over"]
        status, answer = _call(f"{url}/api/games/{gid}", "DELETE")
        if status != 200:
            errors.append(f"client {k}: close: {status} {answer}")
            return


@pytest.mark.slow
def test_fifty_games_at_once_for_a_minute_without_an_error(tmp_path):
    url, _, proc = start_server(tmp_path, "--max-games", str(CLIENTS + 14))
    try:
        first_answer(proc, lambda: _call(f"{url}/api/catalog"))
        errors: list[str] = []
        counts = [{"games": 0, "requests": 0} for _ in range(CLIENTS)]
        deadline = time.monotonic() + SECONDS
        started = threading.Barrier(CLIENTS)

        def run(k):
            started.wait()
            _client(url, k, deadline, errors, counts[k])

        with ThreadPoolExecutor(CLIENTS) as pool:
            list(pool.map(run, range(CLIENTS)))
        assert not errors, errors[:5]
        assert all(c["requests"] > 0 for c in counts), counts
        assert sum(c["games"] for c in counts) > 0
        status, catalog = _call(f"{url}/api/catalog")      # still answering
        assert status == 200 and proc.poll() is None
    finally:
        proc.terminate()
        output, _ = proc.communicate(timeout=30)
    assert "Traceback" not in output and "ERROR" not in output, output[-3000:]
