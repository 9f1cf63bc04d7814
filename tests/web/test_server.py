"""`plunder serve`'s HTTP API: whole games of every game, hidden information, bad requests.

Played games go through the API exactly as the page does (create, move with the shown
version, read the table); the hidden-information tests compare what a seat is sent with
what it would be sent in states sampled to fit that seat's view (``Game.sample_state``
redraws everything the seat cannot know), so any response that reads a hidden fact fails.
"""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from tests.support.web import (
    JSON, SETUPS, first_answer, new_game, play_setup, refused, start_server, web_test_client,
    write_network,
)

TestClient = web_test_client()

from plunder.envs import ENV_IDS, game_class  # noqa: E402
from plunder.envs.core.movelog import describe_step  # noqa: E402
from plunder.policies import base as policy_base  # noqa: E402
from plunder.training.web import create_app  # noqa: E402
from plunder.training.web.sessions import LOG_WINDOW, seat_table  # noqa: E402

#: the parts of a response that show the table
TABLE_KEYS = ("text", "view", "board", "acting", "decision", "legal")
#: the move log a response carries, and every player's last move read from it
LOG_KEYS = ("log", "log_total", "last")
#: the rest of a played game's response: public settings and bookkeeping (the result is
#: sent once the game is over); a new field must be added to one of these three lists
PUBLIC_KEYS = ("id", "mode", "env_id", "num_players", "options", "max_turns", "seat_names",
               "bots", "you", "auto_play", "seat", "version", "step", "steps", "over",
               "your_turn", "forced", "result")


def play_to_end(client, game, seed=0, check=None):
    """Play the person's moves (random legal ones, half of them by the board's clickable
    things) until the game ends; ``check(game)`` sees every snapshot. The last one."""
    rng = np.random.default_rng(seed)
    while not game["over"]:
        assert game["your_turn"] and game["legal"], "the server stopped before your move"
        if check:
            check(game)
        legal = [m["action"] for m in game["legal"]]
        clickable = [a for zone in game["board"]["zones"]
                     for a in zone["actions"] + [x for i in zone["items"] for x in i["actions"]]]
        assert set(clickable) <= set(legal), "a clickable thing names an illegal move"
        pool = clickable if clickable and rng.random() < 0.5 else legal
        action = int(rng.choice(pool))
        response = client.post(f"/api/games/{game['id']}/move",
                               json={"action": action, "version": game["version"]})
        assert response.status_code == 200, response.text
        game = response.json()
    return game


def check_result(game):
    """A finished game's breakdown: the parts add up to the totals (where the game's score
    is a sum, as every game's is here) and the winners have the best total."""
    result = game["result"]
    assert result is not None and game["over"]
    seats = len(result["seats"])
    assert len(result["total"]) == seats and all(len(r["values"]) == seats
                                                 for r in result["rows"])
    sums = [sum(r["values"][s] for r in result["rows"]) for s in range(seats)]
    assert sums == pytest.approx(result["total"])
    best = max(result["total"])
    assert all(result["total"][w] == best for w in result["winners"])


# -- the page and the catalogue ---------------------------------------------------------------
def test_page_and_static_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    for name in ("app.js", "style.css", "index.html"):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/nothing.js").status_code == 404


def test_catalog_lists_every_game_its_options_and_every_bot_kind(client):
    data = client.get("/api/catalog").json()
    assert [g["env_id"] for g in data["games"]] == list(ENV_IDS)
    for entry in data["games"]:
        cls = game_class(entry["env_id"])
        assert (entry["min_players"], entry["max_players"]) == (cls.min_players, cls.max_players)
        assert [o["name"] for o in entry["options"]] == list(cls.options)
    assert [k["spec"] for k in data["bot_kinds"]] == list(policy_base.BOT_SPECS)
    kinds = {k["kind"]: k for k in data["bot_kinds"]}
    assert kinds["heuristic"] == {"spec": "heuristic", "kind": "heuristic", "arg": "",
                                  "required": False, "file": False}
    assert kinds["search"]["arg"] == "SAMPLES" and not kinds["search"]["required"]
    assert kinds["netsearch"] == {"spec": "netsearch:PATH.onnx[:SAMPLES][:KEY=VALUE]",
                                  "kind": "netsearch", "arg": "PATH.onnx[:SAMPLES][:KEY=VALUE]",
                                  "required": True, "file": True}
    # two optional parts: the field reads as what may follow the kind
    assert kinds["pretrained"]["arg"] == "early|final[:sampled]"
    assert not kinds["pretrained"]["required"] and not kinds["pretrained"]["file"]
    assert data["models"] == []


def test_a_new_bot_kind_is_offered_without_touching_the_page(client, monkeypatch):
    monkeypatch.setattr(policy_base, "BOT_SPECS",
                        policy_base.BOT_SPECS + ("oracle[:STRENGTH]",))
    kinds = client.get("/api/catalog").json()["bot_kinds"]
    assert kinds[-1] == {"spec": "oracle[:STRENGTH]", "kind": "oracle",
                         "arg": "STRENGTH", "required": False, "file": False}


# -- whole games -------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_whole_game_is_played_through_the_api(client, env_id):
    n, seat, _ = SETUPS[env_id]
    game = new_game(client, env_id, **play_setup(env_id))
    assert game["mode"] == "play" and game["you"] == seat and game["seat"] == seat
    assert game["bots"][seat] is None and all(b for s, b in enumerate(game["bots"]) if s != seat)

    def check(snapshot):
        assert snapshot["seat"] == seat and snapshot["result"] is None
        assert seat in snapshot["acting"]
        game_ = game_class(env_id)(n)
        assert all(m["name"] == game_.action_name(m["action"]) for m in snapshot["legal"])

    game = play_to_end(client, game, check=check)
    check_result(game)
    assert game["legal"] == [] and not game["your_turn"]
    after = client.post(f"/api/games/{game['id']}/move",
                        json={"action": 0, "version": game["version"]})
    refused(after, 409, "over")
    assert client.get(f"/api/games/{game['id']}").json() == game
    assert game["log_total"] > 0 and all(set(e) == {"step", "text"} for e in game["log"])
    # the saved replay opens again and ends the same way
    replay = client.get(f"/api/games/{game['id']}/replay")
    assert replay.status_code == 200 and "attachment" in replay.headers["content-disposition"]
    data = replay.json()
    assert len(data["states"]) == game["steps"] + 1 and data["bots"] == game["bots"]
    opened = client.post("/api/replays", json=data)
    assert opened.status_code == 201, opened.text
    watched = opened.json()
    assert watched["mode"] == "replay" and watched["step"] == 0 and watched["seat"] is None
    end = client.post(f"/api/games/{watched['id']}/seek?seat={seat}",
                      json={"to": watched["steps"], "version": watched["version"]}).json()
    assert end["result"] == game["result"]
    assert end["text"] == game["text"] and end["log_total"] == game["log_total"]


#: every game and player count; the long battle game played to a lower target score
EVERY_COUNT = [(env_id, n) for env_id in ENV_IDS
               for n in range(game_class(env_id).min_players, game_class(env_id).max_players + 1)]
SHORT = {"all_hands_battle_v0": {"target_score": 150}}


@pytest.mark.parametrize("env_id, n", EVERY_COUNT)
def test_every_player_count_is_played_to_the_end_from_the_last_seat(client, env_id, n):
    game = new_game(client, env_id, players=n, seat=n - 1, bots=["random"], seed=n,
                    options=SHORT.get(env_id, {}))
    assert game["num_players"] == n and game["you"] == n - 1
    game = play_to_end(client, game, seed=n)
    check_result(game)
    assert not game["result"]["truncated"] and len(game["result"]["seats"]) >= 2


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_bots_are_watched_to_the_end_from_every_seat(client, env_id):
    n = game_class(env_id).min_players
    game = new_game(client, env_id, mode="watch", players=n, bots=["random"], seed=5)
    assert game["seat"] is None and game["board"]["zones"] and game["step"] == 0
    assert all(b == "random" for b in game["bots"])
    seat = 0
    while not game["over"]:
        seat = (seat + 1) % (n + 1)
        view = "omniscient" if seat == n else str(seat)
        response = client.post(f"/api/games/{game['id']}/seek?seat={view}",
                               json={"to": game["step"] + 7, "version": game["version"]})
        assert response.status_code == 200, response.text
        game = response.json()
        assert game["seat"] == (None if seat == n else seat)
        assert game["step"] == game["steps"]
    check_result(game)
    last = game["steps"]
    # back and forth over the record: step 1 again, then the end again
    back = client.post(f"/api/games/{game['id']}/seek?seat=0",
                       json={"to": 1, "version": game["version"]}).json()
    assert back["step"] == 1 and back["steps"] == last and back["result"] is None
    assert all(e["step"] <= 1 for e in back["log"])
    again = client.post(f"/api/games/{game['id']}/seek?seat=0",
                        json={"to": last, "version": back["version"]}).json()
    assert again["over"] and again["step"] == last
    past = client.post(f"/api/games/{game['id']}/seek",
                       json={"to": last + 1, "version": again["version"]})
    assert past.status_code == 409 and "over" in past.json()["error"]


def test_a_seeded_game_is_reproducible(client):
    first = new_game(client, "scallywags_v0", mode="watch", players=3, bots=["heuristic"],
                     seed=11)
    second = new_game(client, "scallywags_v0", mode="watch", players=3, bots=["heuristic"],
                      seed=11)
    ends = []
    for game in (first, second):
        end = client.post(f"/api/games/{game['id']}/seek",
                          json={"to": 2000, "version": game["version"]}).json()
        ends.append((end["steps"], end["result"], end["text"]))
    assert ends[0] == ends[1]


def test_a_game_without_a_seed_is_dealt_by_a_drawn_one_that_its_replay_keeps(client):
    game = new_game(client, "scallywags_v0", mode="watch", players=2, bots=["random"])
    assert "seed" not in game
    game = client.post(f"/api/games/{game['id']}/seek",
                       json={"to": 4, "version": game["version"]}).json()
    data = client.get(f"/api/games/{game['id']}/replay").json()
    assert isinstance(data["seed"], int) and data["seed"] >= 0
    assert client.post("/api/replays", json=data).status_code == 201


# -- hidden information ------------------------------------------------------------------------
def sampled_tables(session, seat, legal_of, samples=2):
    """The table ``seat`` would be sent in states sampled from its view of the current
    state, with the legal moves ``legal_of(state)``."""
    game = session.game
    state = session.states[session.cursor]
    rng = np.random.default_rng(session.cursor)
    out = []
    for _ in range(samples):
        sampled = game.sample_state(state.view(seat), rng)
        out.append(seat_table(game, sampled, seat, legal_of(sampled)))
    return out


def table_part(snapshot):
    """The fields of a snapshot that show the table."""
    return {k: snapshot[k] for k in TABLE_KEYS}


def seat_log(session, seat):
    """The move log ``seat`` may be sent up to the step shown: ``describe_step`` for that
    seat (built from its views and the public moves alone; tests/test_movelog.py)."""
    lines = [{"step": i + 1, "text": text} for i in range(session.cursor)
             for text in describe_step(session.game, session.states[i], session.moves[i],
                                       session.states[i + 1], seat)]
    return lines[-LOG_WINDOW:], len(lines)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_played_game_never_sends_what_the_seat_cannot_know(app, client, env_id):
    n, seat, _ = SETUPS[env_id]
    game = new_game(client, env_id, **play_setup(env_id, seed=8))
    session = app.state.store.get(game["id"])
    others = [s for s in range(n) if s != seat]
    checked = 0

    def check(snapshot):
        nonlocal checked
        looked = client.get(f"/api/games/{snapshot['id']}").json()
        assert table_part(looked) == table_part(snapshot)
        assert set(snapshot) == set(TABLE_KEYS + LOG_KEYS + PUBLIC_KEYS)
        assert snapshot["result"] is None and not snapshot["over"]
        assert (snapshot["log"], snapshot["log_total"]) == seat_log(session, seat)
        if checked % 3 == 0:   # every third decision: a few samples each
            for table in sampled_tables(session, seat, lambda s: s.legal_actions(seat)):
                assert json.loads(json.dumps(table)) == table_part(snapshot)
        checked += 1
        # no other seat's table, no omniscient one, no replay before the end
        for other in others:
            assert client.get(f"/api/games/{snapshot['id']}?seat={other}").status_code == 403
        assert client.get(f"/api/games/{snapshot['id']}?seat=omniscient").status_code == 403
        assert client.get(f"/api/games/{snapshot['id']}/replay").status_code == 403

    play_to_end(client, game, seed=1, check=check)
    assert checked > 0


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_watched_seat_sees_only_its_view(app, client, env_id):
    n = 3 if env_id != "anchors_aweigh_v0" else 2
    game = new_game(client, env_id, mode="watch", players=n, bots=["random"], seed=2)
    session = app.state.store.get(game["id"])
    for _ in range(6):
        for seat in range(n):
            shown = client.get(f"/api/games/{game['id']}?seat={seat}").json()
            assert shown["legal"] == [] and shown["board"] is not None
            for table in sampled_tables(session, seat, lambda s: [], samples=1):
                assert json.loads(json.dumps(table)) == table_part(shown)
            assert (shown["log"], shown["log_total"]) == seat_log(session, seat)
        game = client.post(f"/api/games/{game['id']}/seek",
                           json={"to": game["step"] + 5, "version": game["version"]}).json()
        if game["over"]:
            break


# -- refusals ----------------------------------------------------------------------------------

@pytest.mark.parametrize("body, status, words", [
    ({"game": "treasure_island"}, 404, ["unknown game", "scallywags_v0"]),
    ({"game": 7}, 400, ["'game'"]),
    ({"game": "scallywags", "players": 7}, 400, ["2-6 players"]),
    ({"game": "scallywags", "players": "3"}, 400, ["'players'"]),
    ({"game": "scallywags", "players": 3, "seat": 3}, 400, ["'seat'", "0..2"]),
    ({"game": "scallywags", "players": 3, "seat": True}, 400, ["'seat'"]),
    ({"game": "scallywags", "mode": "spectate"}, 400, ["'mode'"]),
    ({"game": "scallywags", "mode": "watch", "seat": 0}, 400, ["every seat"]),
    ({"game": "scallywags", "players": 3, "bots": ["random"] * 3}, 400, ["2 bot seats"]),
    ({"game": "scallywags", "bots": ["pirate"]}, 400, ["unknown bot", "heuristic"]),
    ({"game": "scallywags", "bots": [""]}, 400, ["'bots'"]),
    ({"game": "scallywags", "bots": ["search:0"]}, 400, ["positive"]),
    ({"game": "scallywags", "bots": ["trained:/no/such/bot.onnx"]}, 400,
     ["/no/such/bot.onnx", "outside the bot folder"]),
    ({"game": "scallywags", "seed": -1}, 400, ["'seed'"]),
    ({"game": "scallywags", "max_turns": 0}, 400, ["'max_turns'"]),
    ({"game": "scallywags", "options": {"wind": 3}}, 400, ["unknown option"]),
    ({"game": "scallywags", "options": []}, 400, ["'options'", "[]"]),
    ({"game": "scallywags", "options": 0}, 400, ["'options'"]),
    ({"game": "all_hands_battle", "options": {"prize_crew": 1}}, 400, ["prize_crew", "bool"]),
    ({"game": "all_hands_battle", "options": {"target_score": 0}}, 400, ["target_score"]),
    ({"game": "scallywags", "colour": "red"}, 400, ["unknown field"]),
    ([1, 2], 400, ["JSON object"]),
])
def test_bad_new_games_are_refused(client, app, body, status, words):
    if "trained:" in json.dumps(body):
        pytest.importorskip("onnxruntime")
    refused(client.post("/api/games", json=body), status, *words)
    assert len(app.state.store) == 0


def test_malformed_and_unknown_requests_are_refused(client):
    refused(client.post("/api/games", content=b"{not json", headers=JSON), 400,
            "malformed JSON")
    refused(client.get("/api/games/nope"), 404, "no game 'nope'")
    refused(client.post("/api/games/nope/move", json={"action": 0, "version": 0}), 404)
    refused(client.get("/api/nothing"), 404)
    refused(client.put("/api/games"), 405)


def test_a_body_too_large_is_refused(client, app, monkeypatch):
    from plunder.training.web import app as web_app

    monkeypatch.setattr(web_app, "MAX_BODY", 2**20)
    body = json.dumps({"game": "scallywags", "pad": "x" * 2**20}).encode()
    refused(client.post("/api/games", content=body, headers=JSON), 413, "over 1 MB")
    refused(client.post("/api/games", content=iter([body[:2**19], body[2**19:]]),
                        headers=JSON), 413)
    assert len(app.state.store) == 0


def test_bad_moves_are_refused_and_change_nothing(client):
    game = new_game(client, "scallywags_v0", **play_setup("scallywags_v0"))
    url = f"/api/games/{game['id']}"
    legal = [m["action"] for m in game["legal"]]
    illegal = next(a for a in range(game_class("scallywags_v0")(3).num_actions)
                   if a not in legal)
    version = game["version"]
    for body, status, words in [
        ({"action": illegal, "version": version}, 400, ["illegal move", str(illegal)]),
        ({"action": 10_000, "version": version}, 400, ["outside the action space"]),
        ({"action": -1, "version": version}, 400, ["illegal move"]),
        ({"action": True, "version": version}, 400, ["'action'"]),
        ({"action": str(legal[0]), "version": version}, 400, ["'action'"]),
        ({"action": legal[0], "version": version - 1}, 409, ["stale"]),
        ({"action": legal[0], "version": "1"}, 400, ["'version'"]),
        ({"action": legal[0]}, 400, ["version"]),
        ({"action": legal[0], "version": version, "extra": 1}, 400, []),
    ]:
        refused(client.post(f"{url}/move", json=body), status, *words)
    refused(client.post(f"{url}/seek", json={"to": 1, "version": version}), 409, "seek")
    refused(client.get(f"{url}?seat=x"), 400, "seat")
    assert client.get(url).json() == game
    # the move itself still works once, then the same version is stale
    moved = client.post(f"{url}/move", json={"action": legal[0], "version": version})
    assert moved.status_code == 200 and moved.json()["version"] == version + 1
    refused(client.post(f"{url}/move", json={"action": legal[0], "version": version}), 409,
            "stale")


def test_bad_seeks_are_refused_and_change_nothing(client):
    game = new_game(client, "shipshape_v0", mode="watch", players=3, bots=["random"], seed=1)
    url = f"/api/games/{game['id']}"
    for body, status, words in [
        ({"to": -1, "version": 0}, 400, ["'to'"]),
        ({"to": 1.5, "version": 0}, 400, ["'to'"]),
        ({"to": 100_000, "version": 0}, 400, ["at most"]),
        ({"to": 1, "version": 5}, 409, ["stale"]),
        ({"to": 1}, 400, ["seek"]),
    ]:
        refused(client.post(f"{url}/seek", json=body), status, *words)
    refused(client.post(f"{url}/move", json={"action": 0, "version": 0}), 409, "no moves")
    refused(client.get(f"{url}?seat=3"), 400, "0..2")
    assert client.get(url).json() == game


def test_bad_replays_are_refused(client, app):
    game = new_game(client, "scallywags_v0", mode="watch", players=2, bots=["random"], seed=4)
    game = client.post(f"/api/games/{game['id']}/seek",
                       json={"to": 6, "version": game["version"]}).json()
    good = client.get(f"/api/games/{game['id']}/replay").json()
    assert client.post("/api/replays", json=good).status_code == 201

    def changed(**fields):
        data = json.loads(json.dumps(good))
        data.update(fields)
        return data

    moves = [list(map(list, m)) for m in good["moves"]]
    other_move = json.loads(json.dumps(moves))
    seat, action = other_move[2][0]
    legal = game_class("scallywags_v0")(2).state_from_dict(good["states"][2]) \
        .legal_actions(seat)
    other_move[2][0][1] = next(a for a in legal if a != action)
    broken_state = json.loads(json.dumps(good["states"]))
    broken_state[3]["turns"] = -4
    count = len(app.state.store)
    for data, words in [
        (changed(format="plunder-replay/0"), ["format"]),
        (changed(env_id="chess_v0"), ["unknown game"]),
        (changed(num_players=9), ["num_players"]),
        (changed(moves=moves[:-1]), ["moves"]),
        (changed(moves=other_move), ["move 2", "does not give state 3"]),
        (changed(states=broken_state), ["state 3"]),
        (changed(bots=["random"]), ["bots"]),
        (changed(seed=good["seed"] + 1), ["state 0", f"seed {good['seed'] + 1}"]),
        (changed(seed=None), ["seed"]),
        ({k: v for k, v in good.items() if k != "moves"}, ["missing", "moves"]),
        ("replay", ["expected an object"]),
    ]:
        response = client.post("/api/replays", json=data)
        assert response.status_code in (400, 404), response.text
        for word in words:
            assert word in response.json()["error"]
    assert len(app.state.store) == count


# -- several games, cleanup ----------------------------------------------------------------------
def test_games_are_isolated_and_idle_ones_are_cleaned_up(app, client):
    one = new_game(client, "scallywags_v0", **play_setup("scallywags_v0", seed=1))
    two = new_game(client, "scallywags_v0", **play_setup("scallywags_v0", seed=1))
    assert one["id"] != two["id"] and table_part(one) == table_part(two)
    action = one["legal"][0]["action"]
    client.post(f"/api/games/{one['id']}/move", json={"action": action, "version": 0})
    assert client.get(f"/api/games/{two['id']}").json() == two
    store = app.state.store
    store._sessions[one["id"]].last_used -= store.idle_seconds + 1
    assert store.sweep() == [one["id"]]
    refused(client.get(f"/api/games/{one['id']}"), 404, "idle")
    assert client.get(f"/api/games/{two['id']}").status_code == 200
    assert client.delete(f"/api/games/{two['id']}").status_code == 200
    refused(client.delete(f"/api/games/{two['id']}"), 404)


def test_games_played_at_once_end_as_they_do_alone(client):
    setups = [("scallywags_v0", 3, 1), ("anchors_aweigh_v0", 3, 2), ("shipshape_v0", 4, 3),
              ("all_hands_crew_v0", 3, 4), ("scallywags_v0", 3, 1)]

    def play(env_id, n, seed):
        """A seeded game against heuristic bots, played to its end: how it ended."""
        game = new_game(client, env_id, players=n, seat=0, bots=["heuristic"], seed=seed)
        game = play_to_end(client, game, seed=seed)
        return game["steps"], game["result"], game["text"], game["log"]

    alone = [play(*setup) for setup in setups]
    with ThreadPoolExecutor(len(setups)) as pool:
        together = list(pool.map(lambda setup: play(*setup), setups))
    assert together == alone


def test_the_same_move_sent_at_once_is_applied_once(client):
    game = new_game(client, "scallywags_v0", **play_setup("scallywags_v0"))
    body = {"action": game["legal"][0]["action"], "version": game["version"]}
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(
            lambda _: client.post(f"/api/games/{game['id']}/move", json=body), range(4)))
    assert sorted(a.status_code for a in answers) == [200, 409, 409, 409]
    assert client.get(f"/api/games/{game['id']}").json()["version"] == game["version"] + 1


def test_the_server_sweeps_idle_games_without_a_request(tmp_path):
    # 0.6 s idle; bot_dir by its former name, which still works
    app = create_app(models_dir=tmp_path, idle_minutes=0.01)
    with TestClient(app) as client:
        new_game(client, "shipshape_v0", mode="watch", bots=["random"])
        assert len(app.state.store) == 1
        deadline = time.monotonic() + 10
        while len(app.state.store) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(app.state.store) == 0, "the idle game was not swept"


def test_a_full_server_refuses_new_games(tmp_path):
    with TestClient(create_app(bot_dir=tmp_path, max_games=2)) as client:
        for _ in range(2):
            new_game(client, "shipshape_v0", mode="watch", bots=["random"])
        refused(client.post("/api/games", json={"game": "shipshape", "mode": "watch"}), 503,
                "2 games")


def test_only_loopback_host_names_are_answered_when_asked(tmp_path):
    app = create_app(bot_dir=tmp_path, trusted_hosts=["127.0.0.1", "testserver"])
    with TestClient(app) as client:
        assert client.get("/api/catalog").status_code == 200
        assert client.get("/api/catalog", headers={"host": "evil.example"}).status_code == 400


# -- trained bots --------------------------------------------------------------------------------
def test_trained_bots_are_offered_checked_and_play(bot_dir, client):
    bot = write_network(bot_dir / "sw" / "bot.onnx", "scallywags_v0", 2)
    other = write_network(bot_dir / "ss" / "bot.onnx", "shipshape_v0", 2)
    (bot_dir / "junk.onnx").write_bytes(b"not a model")
    models = {m["path"]: m for m in client.get("/api/catalog").json()["models"]}
    assert models[str(bot)]["env_id"] == "scallywags_v0"
    assert models[str(bot)]["num_players"] == 2
    assert models[str(other)]["env_id"] == "shipshape_v0"
    assert "not a loadable ONNX model" in models[str(bot_dir / "junk.onnx")]["error"]
    refused(client.post("/api/games", json={"game": "scallywags", "bots": [f"trained:{other}"]}),
            400, "shipshape_v0", "not for 'scallywags_v0'")
    refused(client.post("/api/games", json={"game": "scallywags", "players": 3,
                                            "bots": [f"trained:{bot}"]}), 400, "2 players")
    for kind in ("trained", "sampled", "netsearch"):
        spec = f"{kind}:{bot}" + (":2" if kind == "netsearch" else "")
        game = new_game(client, "scallywags_v0", mode="watch", players=2, bots=[spec, "random"],
                        seed=1)
        end = client.post(f"/api/games/{game['id']}/seek",
                          json={"to": 2000, "version": game["version"]}).json()
        assert end["over"] and end["bots"] == [spec, "random"], end.get("error")


# -- the command -------------------------------------------------------------------------------
def test_plunder_serve_runs_the_server(tmp_path):
    import urllib.error
    import urllib.request

    def catalog():
        with urllib.request.urlopen(f"{url}/api/catalog", timeout=5) as response:
            return json.load(response)

    url, port, proc = start_server(tmp_path)
    try:
        catalog = first_answer(proc, catalog)
        assert [g["env_id"] for g in catalog["games"]] == list(ENV_IDS)
        for name in ("evil.example", "testserver"):    # the test client's name is no exception
            foreign = urllib.request.Request(f"{url}/api/catalog", headers={"Host": name})
            with pytest.raises(urllib.error.HTTPError) as refused_host:
                urllib.request.urlopen(foreign, timeout=5)
            assert refused_host.value.code == 400
        local = urllib.request.Request(f"{url}/api/catalog", headers={"Host": f"localhost:{port}"})
        with urllib.request.urlopen(local, timeout=5) as response:
            assert response.status == 200
    finally:
        proc.terminate()
        output, _ = proc.communicate(timeout=20)
    assert f"{url}/" in output


@pytest.mark.parametrize("args, words", [
    (["--port", "0"], "--port"),
    (["--port", "70000"], "--port"),
    (["--max-games", "0"], "--max-games"),
    (["--idle-minutes", "0"], "--idle-minutes"),
])
def test_plunder_serve_refuses_bad_options(args, words):
    from click.testing import CliRunner

    from plunder.training.cli.commands import main

    result = CliRunner().invoke(main, ["serve", *args])
    assert result.exit_code == 2 and words in result.output
