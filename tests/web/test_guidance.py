"""What the page tells a player: each game's rules page (served as HTML from the package,
its links working), the decision line and move labels of every table, and the person's
forced moves played for them (``auto_play``, on by default, off on request)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from tests.support.web import new_game, refused, web_test_client

web_test_client()

from plunder.envs import ENV_IDS, game_class, rules_text, spec  # noqa: E402
from plunder.envs.core.guide import decision_prompt, move_labels  # noqa: E402


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_the_rules_page_is_served_as_html_and_linked_from_the_catalog(client, env_id):
    games = {g["env_id"]: g for g in client.get("/api/catalog").json()["games"]}
    url = games[env_id]["rules"]
    assert url == f"/rules/{spec(env_id).name}"
    page = client.get(url)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    html = page.text
    title = rules_text(env_id).splitlines()[0].removeprefix("# ")
    assert re.search(r"<h1[^>]*>", html) and "<table>" in html
    assert title.split(" (")[0].split(" — ")[0] in html
    # every link goes somewhere this server has: the page, a rules page, an anchor, the web
    for target in re.findall(r'href="([^"]+)"', html):
        assert target == "/" or target.startswith(("/rules/", "#", "http")), target
        if target.startswith("/rules/"):
            assert client.get(target.split("#")[0]).status_code == 200
    assert ".md" not in " ".join(re.findall(r'href="([^"]+)"', html))
    # by env id too
    assert client.get(f"/rules/{env_id}").text == html


def test_a_link_to_the_docs_site_keeps_its_words_and_loses_the_link(client):
    assert "[performance page](../performance.md)" in rules_text("shipshape")
    html = client.get("/rules/shipshape").text
    assert "on the performance page." in html and "performance.md" not in html


def test_an_unknown_games_rules_are_404(client):
    response = client.get("/rules/monopoly")
    assert response.status_code == 404 and "unknown game 'monopoly'" in response.text


def play_through(client, game, seed=0):
    """Random legal moves to the end; every snapshot shown to the person."""
    rng = np.random.default_rng(seed)
    seen = [game]
    while not game["over"]:
        action = int(rng.choice([m["action"] for m in game["legal"]]))
        response = client.post(f"/api/games/{game['id']}/move",
                               json={"action": action, "version": game["version"]})
        assert response.status_code == 200, response.text
        game = response.json()
        seen.append(game)
    return seen


def test_every_table_says_what_is_decided_and_labels_the_moves(client):
    env_id = "scallywags_v0"
    game = new_game(client, env_id, players=3, seat=1, bots=["random"], seed=9)
    rules = game_class(env_id)(3)
    for snapshot in play_through(client, game)[:-1]:
        assert snapshot["decision"] and "Waiting" not in snapshot["decision"]
        for move in snapshot["legal"]:
            assert move["name"] == rules.action_name(move["action"])
            assert move["label"] and move["label"] != move["name"]
        labels = [m["label"] for m in snapshot["legal"]]
        assert len(set(labels)) == len(labels)


def test_a_watched_seat_and_the_omniscient_view_say_who_decides(client):
    game = new_game(client, "all_hands_crew_v0", mode="watch", players=3, bots=["random"],
                    seed=2)
    step = client.post(f"/api/games/{game['id']}/seek",
                       json={"to": 5, "version": game["version"]}).json()
    acting = step["acting"]
    assert step["seat"] is None and all(f"player_{p}: " in step["decision"] for p in acting)
    for seat in range(3):
        shown = client.get(f"/api/games/{game['id']}?seat={seat}").json()
        assert shown["legal"] == []
        assert shown["decision"].startswith("Waiting for") == (seat not in acting)


@pytest.mark.parametrize("env_id, players", [("scallywags_v0", 4), ("all_hands_crew_v0", 3)])
def test_forced_moves_are_played_for_the_person_and_said(app, client, env_id, players):
    game = new_game(client, env_id, players=players, seat=0, bots=["random"], seed=4)
    assert game["auto_play"] is True
    snapshots = play_through(client, game, seed=1)
    forced = [line for s in snapshots for line in s["forced"]]
    assert forced, "no forced move in the whole game"
    assert all(line["text"].startswith("only move: ") and
               line["text"].endswith(" — played for you") for line in forced)
    assert all(len(s["legal"]) != 1 for s in snapshots), "a single move was asked"
    # the line names the move as its label does, built from the person's view then
    session = app.state.store.get(game["id"])
    for line in forced:
        k = line["step"] - 1
        state, joint = session.states[k], session.moves[k]
        view = state.view(0)
        legal = state.legal_actions(0)
        assert len(legal) == 1 and joint[0] == legal[0]
        assert line["text"] == f"only move: {move_labels(session.game, view, legal)[legal[0]]}" \
                               " — played for you"
        assert decision_prompt(session.game, view, legal)


def test_forced_moves_can_be_left_to_the_person(client):
    game = new_game(client, "scallywags_v0", players=4, seat=0, bots=["random"], seed=4,
                    auto_play=False)
    assert game["auto_play"] is False
    snapshots = play_through(client, game, seed=1)
    assert any(len(s["legal"]) == 1 for s in snapshots)
    assert all(s["forced"] == [] for s in snapshots)


@pytest.mark.parametrize("body, words", [
    ({"game": "scallywags", "auto_play": "yes"}, ["'auto_play'", "true or false"]),
    ({"game": "scallywags", "mode": "watch", "auto_play": True}, ["'auto_play'", "watched"]),
])
def test_bad_auto_play_settings_are_refused(client, app, body, words):
    refused(client.post("/api/games", json=body), 400, *words)
    assert len(app.state.store) == 0
