"""`plunder serve` refuses what its own page did not ask for, and survives bad bots.

One test per kind of refused request: a change from another web site (an ``Origin`` of
another site, a form or ``text/plain`` POST), a bot kind the page does not offer, a bot
file outside the bot folder (by path, ``..`` or symlink), a search budget over the cap,
deeply nested JSON, a body or replay over its size, numbers written with other digits
than 0-9; and bots that fail (raise, answer an illegal move, give NaN) leave the game as
it was before the request, still playable, with the failed bot named.
"""

from __future__ import annotations

import json
import threading
import time

import numpy as np
import pytest

from tests.support.web import (
    JSON, first_answer, new_game, play_setup, refused, start_server, web_test_client,
    write_network,
)

TestClient = web_test_client()

from plunder.envs import ENV_IDS, game_class  # noqa: E402
from plunder.envs.core import InvalidArgumentError, InvalidStateError  # noqa: E402
from plunder.envs.core.strict import json_depth, load_json, whole_number  # noqa: E402
from plunder.training.web import app as web_app  # noqa: E402
from plunder.training.web import create_app, sessions  # noqa: E402


#: a body nested far deeper than the server reads (and than Python's parser recurses)
DEEP = b"[" * 100_000 + b"]" * 100_000


def session_of(app, game):
    """The server's session of a game's snapshot."""
    return app.state.store._sessions[game["id"]]


# -- changes only from the server's own page ----------------------------------------------------
def test_a_change_from_another_site_is_refused_and_changes_nothing(app, client):
    body = {"game": "scallywags", "mode": "watch", "bots": ["random"], "seed": 1}
    for headers in ({"origin": "http://evil.example"}, {"origin": "null"},
                    {"origin": "http://testserver:8001"}, {"sec-fetch-site": "cross-site"},
                    {"sec-fetch-site": "same-site"}):
        refused(client.post("/api/games", json=body, headers=headers), 403, "refused")
    assert len(app.state.store) == 0
    own = client.post("/api/games", json=body, headers={"origin": "http://testserver",
                                                        "sec-fetch-site": "same-origin"})
    assert own.status_code == 201, own.text
    game = own.json()
    url = f"/api/games/{game['id']}"
    for method, path, payload in (("POST", "/seek", {"to": 3, "version": 0}),
                                  ("DELETE", "", None)):
        refused(client.request(method, url + path, json=payload,
                               headers={"origin": "https://evil.example"}), 403, "evil.example")
    assert client.get(url).json() == game
    refused(client.post("/api/replays", json={}, headers={"origin": "http://evil.example"}),
            403)
    assert len(app.state.store) == 1


def test_a_form_or_text_post_is_refused_and_changes_nothing(app, client):
    body = json.dumps({"game": "scallywags", "mode": "watch", "bots": ["random"]})
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                 None):
        headers = {"content-type": kind} if kind else {}
        refused(client.post("/api/games", content=body, headers=headers), 415,
                "application/json")
    assert len(app.state.store) == 0
    game = new_game(client, "scallywags_v0", **play_setup("scallywags_v0"))
    move = json.dumps({"action": game["legal"][0]["action"], "version": game["version"]})
    refused(client.post(f"/api/games/{game['id']}/move", content=move,
                        headers={"content-type": "text/plain;charset=UTF-8"}), 415)
    assert client.get(f"/api/games/{game['id']}").json() == game
    moved = client.post(f"/api/games/{game['id']}/move", content=move,
                        headers={"content-type": "application/json; charset=utf-8"})
    assert moved.status_code == 200, moved.text


# -- bots: only the listed kinds and the bot folder's files --------------------------------------
def test_an_unlisted_bot_kind_or_a_bot_file_without_a_bot_folder_is_refused(tmp_path, bot_dir):
    pytest.importorskip("onnxruntime")
    bot = write_network(bot_dir / "sw.onnx", "scallywags_v0")
    with TestClient(create_app(bot_dir=bot_dir)) as client:
        refused(client.post("/api/games", json={"game": "scallywags", "bots": [f"onnx:{bot}"]}),
                400, "unknown bot kind 'onnx'", "trained:PATH.onnx")
        assert client.post("/api/games", json={"game": "scallywags",
                                               "bots": [f"trained:{bot}"]}).status_code == 201
    with TestClient(create_app()) as client:        # no bot folder: the shipped bots only
        for spec in (f"trained:{bot}", f"sampled:{bot}", f"netsearch:{bot}:2"):
            refused(client.post("/api/games", json={"game": "scallywags", "bots": [spec]}),
                    400, "takes no bot files", "--bot-dir")
        catalog = client.get("/api/catalog").json()
        assert catalog["models"] == [] and "--bot-dir" in catalog["models_note"]
        assert client.post("/api/games", json={"game": "scallywags",
                                               "bots": ["pretrained"]}).status_code == 201


def test_a_bot_file_outside_the_bot_folder_is_refused(tmp_path, bot_dir, app, client,
                                                      monkeypatch):
    outside = write_network(tmp_path / "elsewhere" / "bot.onnx", "scallywags_v0")
    (bot_dir / "sub").mkdir()
    (bot_dir / "escape.onnx").symlink_to(outside)
    (bot_dir / "sub" / "up").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    (bot_dir / "notes.txt").write_text("not a bot")
    (bot_dir / "notes.onnx").symlink_to(bot_dir / "notes.txt")
    monkeypatch.chdir(bot_dir)
    offered = [m["path"] for m in client.get("/api/catalog").json()["models"]]
    assert str(bot_dir / "escape.onnx") not in offered
    for path, words in [
        (outside, ["outside the bot folder"]),
        (bot_dir / ".." / "elsewhere" / "bot.onnx", ["outside the bot folder"]),
        ("../elsewhere/bot.onnx", ["outside the bot folder"]),
        (bot_dir / "escape.onnx", ["outside the bot folder", "symlinks followed"]),
        (bot_dir / "sub" / "up" / "bot.onnx", ["outside the bot folder"]),
        ("/etc/passwd", ["not an .onnx file"]),
        (bot_dir / "notes.txt", ["not an .onnx file"]),
        (bot_dir / "notes.onnx", ["no .onnx file there"]),
        (bot_dir / "missing.onnx", ["no .onnx file there"]),
        ("bad\0name.onnx", ["cannot be read"]),
    ]:
        for kind in ("trained", "netsearch"):
            refused(client.post("/api/games", json={"game": "scallywags",
                                                    "bots": [f"{kind}:{path}"]}),
                    400, *words)
    assert len(app.state.store) == 0
    inside = write_network(bot_dir / "sub" / "bot.onnx", "scallywags_v0")
    for spec in (f"trained:{inside}", "trained:sub/bot.onnx", f"netsearch:{inside}:2"):
        created = client.post("/api/games", json={"game": "scallywags", "bots": [spec]})
        assert created.status_code == 201, created.text


# -- search budgets ------------------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["search:1000000000", f"search:{sessions.MAX_SEARCH_SAMPLES + 1}",
                                  "netsearch:pretrained:100000",
                                  "netsearch:pretrained:samples=100000",
                                  "search:" + "9" * 40])
def test_a_search_over_the_budget_is_refused(app, client, spec):
    if spec.startswith("netsearch"):
        pytest.importorskip("onnxruntime")
    message = refused(client.post("/api/games", json={"game": "scallywags", "bots": [spec]}),
                      400, spec)
    assert str(sessions.MAX_SEARCH_SAMPLES) in message or "too large" in message, message
    assert len(app.state.store) == 0
    at_cap = f"search:{sessions.MAX_SEARCH_SAMPLES}"
    assert client.post("/api/games", json={"game": "scallywags", "mode": "watch",
                                           "bots": [at_cap]}).status_code == 201


def test_a_bot_move_stops_at_its_deadline_and_a_game_at_its_budget(app, client, monkeypatch):
    monkeypatch.setattr(sessions, "BOT_MOVE_SECONDS", 0.01)
    game = new_game(client, "scallywags_v0", mode="watch", players=4,
                    bots=[f"search:{sessions.MAX_SEARCH_SAMPLES}"], seed=2)
    start = time.monotonic()
    stepped = client.post(f"/api/games/{game['id']}/seek", json={"to": 3, "version": 0})
    assert stepped.status_code == 200 and stepped.json()["step"] == 3, stepped.text
    assert time.monotonic() - start < 30
    monkeypatch.setattr(sessions, "BOT_GAME_SECONDS", 0.0)
    before = client.get(f"/api/games/{game['id']}").json()
    refused(client.post(f"/api/games/{game['id']}/seek", json={"to": 4, "version": 1}), 409,
            "thought for")
    assert client.get(f"/api/games/{game['id']}").json() == before


def test_closing_a_game_stops_its_bots(app, client, monkeypatch):
    monkeypatch.setattr(sessions, "WATCH_REQUEST_SECONDS", 600.0)
    game = new_game(client, "scallywags_v0", mode="watch", players=4,
                    bots=[f"search:{sessions.MAX_SEARCH_SAMPLES}"], seed=3)
    answers = []
    seek = threading.Thread(target=lambda: answers.append(client.post(
        f"/api/games/{game['id']}/seek", json={"to": 1000, "version": 0})))
    seek.start()
    session, deadline = session_of(app, game), time.monotonic() + 30
    while not session.lock.locked():        # the seek has begun
        assert time.monotonic() < deadline and seek.is_alive(), answers
        time.sleep(0.01)
    time.sleep(0.5)                         # its bots are thinking
    start = time.monotonic()
    assert client.delete(f"/api/games/{game['id']}").status_code == 200
    seek.join(timeout=30)
    assert not seek.is_alive() and time.monotonic() - start < 20
    refused(answers[0], 409, "closed")


# -- failing bots leave the game as it was -------------------------------------------------------
def scallywags_against(client, bots, seed=5):
    """A 3-player Scallywags game from seat 0 against ``bots``."""
    return new_game(client, "scallywags_v0", players=3, seat=0, bots=bots, seed=seed)


@pytest.mark.parametrize("failure, words", [
    ("raises", ["RuntimeError", "the bot broke"]),
    ("illegal", ["not legal"]),
    ("outside", ["not legal"]),
])
def test_a_failing_bot_leaves_the_game_as_it_was_and_playable(app, client, failure, words):
    bots = ["random", "random"]
    game = scallywags_against(client, bots)
    twin = scallywags_against(client, bots)         # the same game, never broken
    session = session_of(app, game)
    bot = session.players[session.env.possible_agents[2]]

    def broken(observation, action_mask):
        """The bot's move goes wrong (after the first bot has moved and drawn)."""
        if failure == "raises":
            raise RuntimeError("the bot broke")
        if failure == "illegal":
            return int(np.flatnonzero(action_mask == 0)[0])
        return 10**6
    bot.act = broken
    for _ in range(30):     # the person's moves until one makes the bots move
        record = (len(session.states), len(session.moves),
                  session.env.unwrapped.game_state.to_dict())
        body = {"action": game["legal"][0]["action"], "version": game["version"]}
        answer = client.post(f"/api/games/{game['id']}/move", json=body)
        if answer.status_code != 200:
            break
        game = answer.json()
        twin = client.post(f"/api/games/{twin['id']}/move", json=body).json()
    message = refused(answer, 500, *words)
    assert "player_2" in message or session.game.seat_name(2) in message
    assert "random" in message and "as it was" in message
    assert client.get(f"/api/games/{game['id']}").json() == game
    assert (len(session.states), len(session.moves),
            session.env.unwrapped.game_state.to_dict()) == record
    # playable, and the bots' generators were put back too: it goes on as the twin does
    vars(session.players[session.env.possible_agents[2]]).pop("act")
    moved = client.post(f"/api/games/{game['id']}/move", json=body)
    twin_moved = client.post(f"/api/games/{twin['id']}/move", json=body)
    assert moved.status_code == 200, moved.text
    assert {k: v for k, v in moved.json().items() if k != "id"} == \
        {k: v for k, v in twin_moved.json().items() if k != "id"}


def test_a_failing_bot_in_a_watched_game_changes_nothing(app, client):
    game = new_game(client, "shipshape_v0", mode="watch", players=3, bots=["random"], seed=2)
    session = session_of(app, game)
    bot = session.players[session.env.possible_agents[1]]
    calls = []

    def broken(observation, action_mask):
        """Fails on its third move."""
        calls.append(1)
        if len(calls) == 3:
            raise ValueError("third time unlucky")
        return int(np.flatnonzero(action_mask)[0])
    bot.act = broken
    refused(client.post(f"/api/games/{game['id']}/seek", json={"to": 20, "version": 0}), 500,
            "third time unlucky")
    assert client.get(f"/api/games/{game['id']}").json() == game
    assert len(session.states) == 1 and session.moves == []


def test_a_network_with_nan_is_refused_or_fails_without_harm(bot_dir, app, client):
    nan = write_network(bot_dir / "nan.onnx", "scallywags_v0", nan="always")
    refused(client.post("/api/games", json={"game": "scallywags", "bots": [f"trained:{nan}"]}),
            400, "not finite")
    late = write_network(bot_dir / "late.onnx", "scallywags_v0", 3, nan="in play")
    count = len(app.state.store)
    for seed in range(20):      # a deal where the person moves before the network
        created = client.post("/api/games", json={
            "game": "scallywags", "players": 3, "seat": 0,
            "bots": ["random", f"trained:{late}"], "seed": seed})
        if created.status_code == 201:
            break
        refused(created, 500, "not finite")         # its first move failed: no game
        assert len(app.state.store) == count
    game = created.json()
    for _ in range(30):     # the person's moves until one makes the network move
        body = {"action": game["legal"][0]["action"], "version": game["version"]}
        answer = client.post(f"/api/games/{game['id']}/move", json=body)
        if answer.status_code != 200:
            break
        game = answer.json()
    refused(answer, 500, str(late), "not finite", "as it was")
    assert client.get(f"/api/games/{game['id']}").json() == game


def test_another_games_network_under_copied_metadata_is_refused(bot_dir, app, client):
    forged = write_network(bot_dir / "forged.onnx", "scallywags_v0", graph_env="shipshape_v0")
    for kind in ("trained", "netsearch"):
        refused(client.post("/api/games", json={"game": "scallywags",
                                                "bots": [f"{kind}:{forged}"]}),
                400, "trained for another game")
    assert len(app.state.store) == 0


# -- JSON, sizes, digits -------------------------------------------------------------------------
def test_deeply_nested_json_is_refused(app, client):
    for path in ("/api/games", "/api/replays"):
        refused(client.post(path, content=DEEP, headers=JSON), 400, "nested", "64")
    nested_options = {"game": "scallywags", "options": {"x": json.loads("[" * 60 + "]" * 60)}}
    assert client.post("/api/games", json=nested_options).status_code == 400
    assert len(app.state.store) == 0


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_the_state_loaders_refuse_deep_nesting(env_id):
    game = game_class(env_id)(2)
    with pytest.raises(InvalidStateError, match="nested"):
        game.state_from_json(DEEP.decode())
    state = game.new_game(np.random.default_rng(0)).to_dict()
    deep = 0
    for _ in range(10_000):
        deep = [deep]
    for field in state:        # a field nested deeper than Python's recursion limit
        with pytest.raises(InvalidStateError, match="nested"):
            game.state_from_dict({**state, field: deep})


def test_json_depth_is_read_exactly():
    for text, depth in [("1", 0), ("[]", 1), ('{"a": [1, {"b": []}]}', 4),
                        ('["[[[", "\\\\", [["]"]]]', 3), ('["\\"[[["]', 1), ("", 0)]:
        assert json_depth(text) == depth, text
    assert load_json(b'{"a": [1, 2]}') == {"a": [1, 2]}
    with pytest.raises(ValueError, match="nested"):
        load_json(DEEP)


def test_bodies_and_replays_over_their_size_are_refused(app, client, monkeypatch):
    big = json.dumps({"game": "scallywags", "pad": "x" * (web_app.MAX_BODY + 1)}).encode()
    refused(client.post("/api/games", content=big, headers=JSON), 413, "MB")
    refused(client.post("/api/games", content=b"{}", headers={**JSON, "content-length": "x"}),
            400, "Content-Length")
    monkeypatch.setattr(web_app, "MAX_REPLAY_BODY", 2**14)
    game = new_game(client, "scallywags_v0", mode="watch", players=2, bots=["random"], seed=4)
    client.post(f"/api/games/{game['id']}/seek", json={"to": 2000, "version": 0})
    replay = client.get(f"/api/games/{game['id']}/replay").content
    assert len(replay) > 2**14
    refused(client.post("/api/replays", content=replay, headers=JSON), 413, "16 KB")
    # a large body streamed in small chunks is refused without copying it chunk by chunk
    monkeypatch.setattr(web_app, "MAX_BODY", 48 * 2**20)
    chunk = b" " * 2**14
    start = time.monotonic()
    refused(client.post("/api/games", content=(chunk for _ in range(4000)), headers=JSON),
            413, "48 MB")
    assert time.monotonic() - start < 30
    assert len(app.state.store) == 1


@pytest.mark.parametrize("spec", ["search:²", "search:١٢", "netsearch:pretrained:²",
                                  "netsearch:pretrained:samples=³",
                                  "netsearch:pretrained:min_gain=٠.5"])
def test_numbers_in_other_digits_are_refused(app, client, spec):
    if spec.startswith("netsearch"):
        pytest.importorskip("onnxruntime")
    refused(client.post("/api/games", json={"game": "scallywags", "bots": [spec]}), 400,
            "digits 0-9")
    assert len(app.state.store) == 0


def test_a_seat_in_other_digits_is_refused(client):
    game = new_game(client, "scallywags_v0", mode="watch", players=2, bots=["random"], seed=1)
    for seat in ("²", "١", "1" * 40, "-1", " 1"):
        refused(client.get(f"/api/games/{game['id']}", params={"seat": seat}), 400,
                "digits 0-9")
    assert client.get(f"/api/games/{game['id']}", params={"seat": "1"}).status_code == 200
    with pytest.raises(InvalidArgumentError, match="digits 0-9"):
        whole_number("²", "a count")


# -- the command ---------------------------------------------------------------------------------
def post(url, body, timeout=60):
    """POST JSON as the page does; the answer's JSON (a refusal's too)."""
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=JSON,
                                     method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        return json.load(error)


@pytest.fixture
def served(tmp_path):
    """``plunder serve`` on a free port, with a watched game of 4 search bots that think
    as long as they are allowed: (the server's address, its process, the game)."""
    url, _, proc = start_server(tmp_path)
    try:
        game = first_answer(proc, lambda: post(f"{url}/api/games", {
            "game": "scallywags", "mode": "watch", "players": 4, "seed": 1,
            "bots": [f"search:{sessions.MAX_SEARCH_SAMPLES}"]}, timeout=5))
        yield url, proc, game
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=20)


def test_plunder_serve_stops_promptly_while_bots_think(served):
    url, proc, game = served
    seek = threading.Thread(target=lambda: post(f"{url}/api/games/{game['id']}/seek",
                                                {"to": 1000, "version": 0}), daemon=True)
    seek.start()
    time.sleep(1.5)         # the bots are thinking
    start = time.monotonic()
    proc.terminate()
    proc.wait(timeout=30)
    # the games are closed at the signal: no wait for the bots (nor the grace period)
    assert time.monotonic() - start < web_app.SHUTDOWN_SECONDS, "the server waited"


def test_a_request_given_up_by_its_client_stops_its_bots(served):
    import socket
    import urllib.request

    url, proc, game = served
    port = int(url.rsplit(":", 1)[1])
    body = json.dumps({"to": 1000, "version": 0}).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(b"POST /api/games/%s/seek HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                     b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                     % (game["id"].encode(), port, len(body), body))
        time.sleep(1.5)     # the bots are thinking; then the client leaves
    start = time.monotonic()
    with urllib.request.urlopen(f"{url}/api/games/{game['id']}", timeout=30) as response:
        shown = json.load(response)
    # the game's lock is free at once, and the given-up request changed nothing
    assert time.monotonic() - start < 5
    assert (shown["step"], shown["steps"], shown["version"]) == (0, 0, 0)
