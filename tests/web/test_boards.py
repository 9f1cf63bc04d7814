"""The boards (``plunder.training.web.boards``): on every game and player count every
zone is there, every clickable thing names only legal moves and every legal move that
names a thing (a coin, card, crate, tile, space, pile or ship) is clickable on it; a
seat's board is the same in every state its view allows, the omniscient one shows
every hidden fact, the end shows what the rules turn over; last moves are marked as far
as the observer sees them; the setup form names every bot and option."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

pytest.importorskip("starlette", reason="plunder serve needs the web extra")

from plunder.envs import game_class  # noqa: E402
from plunder.training.web import boards  # noqa: E402
from plunder.training.web.boards import board  # noqa: E402

from ..conftest import GAME_COUNTS  # noqa: E402

#: moves that name no thing on the table (the move buttons offer them), by name prefix
THINGLESS = {
    "scallywags": (),
    "shipshape": (),
    "anchors_aweigh": ("swap",),
    "all_hands_battle": ("pass",),
    "all_hands_crew": ("pass",),
}


def clickable(table: dict) -> dict[int, list[dict]]:
    """Every clickable move of a board -> the things (or zones) it is on."""
    out: dict[int, list[dict]] = {}
    for zone in table["zones"]:
        for action in zone["actions"]:
            out.setdefault(action, []).append(zone)
        for thing in zone["items"]:
            for action in thing["actions"]:
                out.setdefault(action, []).append(thing)
    return out


@pytest.mark.parametrize("env_id, n", GAME_COUNTS)
def test_every_legal_move_that_names_a_thing_is_clickable(env_id, n):
    game = game_class(env_id)(n)
    state = game.new_game(np.random.default_rng(n))
    rng = np.random.default_rng(0)
    for _ in range(400):
        if state.is_terminal():
            break
        for seat in range(n):
            legal = state.legal_actions(seat) if seat in state.current_players() else []
            table = board(game, state.view(seat), legal)
            assert json.loads(json.dumps(table)) == table
            on = clickable(table)
            assert set(on) <= set(legal), "a clickable thing names an illegal move"
            for action in set(legal) - set(on):
                name = game.action_name(action)
                assert name.startswith(THINGLESS[game.name]), f"{name!r} is on no thing"
        state.apply_joint({p: int(rng.choice(state.legal_actions(p)))
                           for p in state.current_players()})


def test_scallywags_coins_and_cards_carry_their_moves():
    game = game_class("scallywags_v0")(3)
    state = game.new_game(np.random.default_rng(0))
    seat = state.current_players()[0]
    legal = state.legal_actions(seat)
    on = clickable(board(game, state.view(seat), legal))
    for action in legal:
        name = game.action_name(action)
        labels = [thing.get("label", thing.get("title")) for thing in on[action]]
        if name.startswith("coin "):
            assert labels == [f"#{name.split()[1]}"]
        elif name.startswith(("play ", "discard ")):
            assert labels == [name.split(" ", 1)[1]]


def test_a_seat_not_asked_has_nothing_to_click():
    for env_id in ("scallywags_v0", "all_hands_battle_v0"):
        game = game_class(env_id)(3)
        state = game.new_game(np.random.default_rng(0))
        idle = next(s for s in range(3) if s not in state.current_players())
        assert clickable(board(game, state.view(idle), [])) == {}


# -- every zone, every board ---------------------------------------------------------------
#: the zones (by key) every board of a game has, besides one per seat (``seat:K``)
ZONES = {
    "scallywags": {"middle", "cards"},
    "shipshape": {"stack:0"},
    "anchors_aweigh": {"pile", "supply"},
    "all_hands_battle": {"piles"},
    "all_hands_crew": {"piles"},
}
#: the zone only a seat's board has (its own hand), by game
OWN_ZONES = {"scallywags": {"hand"}, "all_hands_battle": {"hand"}}


def played(game, seed: int, steps: int):
    """A state ``steps`` random joint moves into a game (fewer if it ends)."""
    state = game.new_game(np.random.default_rng(seed))
    rng = np.random.default_rng(seed + 1)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_joint({p: int(rng.choice(state.legal_actions(p)))
                           for p in state.current_players()})
    return state


def zone_keys(table: dict) -> set[str]:
    """The keys of a board's zones."""
    return {z["key"] for z in table["zones"]}


def things(table: dict) -> list[dict]:
    """Every item of a board."""
    return [thing for z in table["zones"] for thing in z["items"]]


@pytest.mark.parametrize("env_id, n", GAME_COUNTS)
def test_every_zone_is_on_every_seats_board_and_on_the_omniscient_one(env_id, n):
    game = game_class(env_id)(n)
    seats = {f"seat:{s}" for s in range(len(game.new_game(np.random.default_rng(0))
                                             .rank_keys()))}
    for steps in (0, 25):
        state = played(game, n, steps)
        for seat in range(n):
            legal = state.legal_actions(seat) if seat in state.current_players() else []
            keys = zone_keys(board(game, state.view(seat), legal))
            missing = (ZONES[game.name] | OWN_ZONES.get(game.name, set()) | seats) - keys
            assert not missing, f"seat {seat}'s board lacks {sorted(missing)}"
        full = boards.omniscient_board(game, state)
        assert json.loads(json.dumps(full)) == full
        assert not (ZONES[game.name] | seats) - zone_keys(full)
        assert clickable(full) == {}, "the omniscient board offers moves"
        assert not any("(you)" in z["title"] for z in full["zones"])


@pytest.mark.parametrize("env_id, n", GAME_COUNTS)
def test_a_seats_board_is_the_same_in_every_state_its_view_allows(env_id, n):
    """Built from the view only: states sampled to fit the seat's view (every hidden
    card, coin, tile and deck order redrawn) give the same board; the omniscient board
    reads the whole state and shows the difference."""
    game = game_class(env_id)(n)
    rng = np.random.default_rng(3)
    differs = 0
    for steps in (4, 30):
        state = played(game, 2 * n, steps)
        for seat in range(n):
            legal = state.legal_actions(seat) if seat in state.current_players() else []
            shown = board(game, state.view(seat), legal)
            for _ in range(2):
                other = game.sample_state(state.view(seat), rng)
                other_legal = other.legal_actions(seat) if seat in other.current_players() \
                    else []
                assert board(game, other.view(seat), other_legal) == shown
                differs += boards.omniscient_board(game, other) \
                    != boards.omniscient_board(game, state)
    if game.name != "shipshape":        # ShipShape hides only the Cap'n's deck order
        assert differs, "the omniscient board never showed a hidden fact"


#: a number one before a plural noun ("1 coins"), or a plural made by adding "s" to a word
#: already ending in "s" ("Captain Cutlasss")
BAD_PLURAL = r"(?<![\w.#/])-?1 [A-Za-z]*[^s\W]s\b|\w+sss\b"


def words(table: dict) -> list[str]:
    """Every text of a board: its headline, zone titles and notes, things' words, stats."""
    out = [table.get("headline", "")]
    for z in table["zones"]:
        out += [z["title"], z["note"]]
        for thing in z["items"]:
            out += [thing["label"], thing["detail"], thing["text"]]
            out += [f"{value} {name}" for name, value in thing["stats"]]
    return out


@pytest.mark.parametrize("env_id, n", GAME_COUNTS)
def test_the_boards_nouns_agree_with_their_numbers(env_id, n):
    game = game_class(env_id)(n)
    for steps in (0, 20, 100_000):
        state = played(game, n, steps)
        tables = [board(game, state.view(s), []) for s in range(n)]
        tables.append(boards.omniscient_board(game, state))
        for text in (t for table in tables for t in words(table)):
            assert not re.search(BAD_PLURAL, text), text


def test_plurals_and_counts():
    from plunder.envs.core.board import count, plural, stat

    assert [plural(w) for w in ("coin", "Captain Cutlass", "box", "Bounty", "day")] == \
        ["coins", "Captain Cutlasses", "boxes", "Bounties", "days"]
    assert count(1, "point") == "1 point" and count(0, "point") == "0 points"
    assert count(-1, "point") == "-1 point" and stat("point", -1) == ("point", -1)
    assert stat("sail", 3) == ("sails", 3)
    names = [c.name for c in game_class("all_hands_crew_v0")(3).combos]
    assert "pair of Captain Cutlasses" in names and "three Cooks" in names
    assert not any(re.search(r"sss\b", name) for name in names)


# -- the end of a game ---------------------------------------------------------------------
def finished(env_id: str, n: int, seed: int, **options):
    """A game played to its end by random moves."""
    game = game_class(env_id)(n, **options)
    state = played(game, seed, 100_000)
    assert state.is_terminal()
    return game, state


def test_scallywags_turns_every_take_over_at_the_end_and_no_hand():
    game, state = finished("scallywags_v0", 3, 4)
    seat = 1
    before = board(game, state.view(seat), [])
    after = board(game, state.view(seat), [], boards.end_facts(game, state))
    hidden = [t for t in things(before) if t["kind"] == "coin" and t["detail"] == "?"
              and t["seat"] is not None]
    assert hidden, "no face-down coin in a take to turn over"
    shown = {t["key"]: t for t in things(after)}
    for coin in hidden:
        c = int(coin["key"].split(":")[1])
        assert shown[coin["key"]]["detail"] == str(state.values[c])
        assert "revealed" in shown[coin["key"]]["tags"]
    # what the end does not show (the hands, the draw pile) changes nothing
    other = state.clone()
    other.hands = [h if s == seat else h[1:] + h[:1] for s, h in enumerate(state.hands)]
    assert other.hands != state.hands
    other.draw_pile = list(reversed(state.draw_pile))
    assert board(game, other.view(seat), [], boards.end_facts(game, other)) == after


def test_all_hands_battle_shows_every_crew_and_hand_at_the_reckoning():
    game, state = finished("all_hands_battle_v0", 2, 1, target_score=100)
    end = boards.end_facts(game, state)
    after = board(game, state.view(0), [], end)
    names = [t["label"] for t in things(after) if t["kind"] == "card"
             and t["group"].startswith("ship") and t["seat"] == 1]
    crews = [game.card_name(c) for ship in state.ships[1] for c in ship[1]]
    assert sorted(names) == sorted(crews)
    assert not any(t["label"] == "face down" for t in things(after))
    other = state.clone()
    other.deck = list(reversed(state.deck))
    assert board(game, other.view(0), [], boards.end_facts(game, other)) == after


def test_the_deciding_line_names_the_winner_and_what_split_a_tie():
    seats = ["player_0", "player_1", "player_2"]
    assert boards.deciding_line(seats, [10, 14, 9], [], [1]) == \
        "player_1 wins with 14, 4 ahead of player_0 (10)"
    tie = [{"label": "tie-break: last hold number", "values": [7, 7, 3]},
           {"label": "tie-break: captains", "values": [1, 5, 2]}]
    line = boards.deciding_line(seats, [12, 12, 9], tie, [1])
    assert line == ("player_1 wins: 12 each for player_0, player_1, split by the captains "
                    "(player_0 1, player_1 5)")
    assert boards.deciding_line(seats, [8, 8, 3], [], [0, 1]) == \
        "player_0 and player_1 share the win with 8 each"
    assert boards.deciding_line(seats, [2, 2, 2], [], [0, 1, 2], truncated=True) == \
        "at the turn limit, everybody ties with 2"


# -- ShipShape's placement previews ----------------------------------------------------------
def test_shipshape_shows_the_hold_beside_every_placement_and_the_hold_after_it():
    game = game_class("shipshape_v0")(3)
    state = game.new_game(np.random.default_rng(5))
    rng = np.random.default_rng(6)
    checked = 0
    for _ in range(60):
        if state.is_terminal():
            break
        for seat in state.current_players():
            view = state.view(seat)
            if view.decision != "place":
                continue
            placing = next(z for z in board(game, view, state.legal_actions(seat))["zones"]
                           if z["key"] == "placing")
            now, *choices = placing["items"]
            assert now["label"] == "your hold now" and now["cells"] == \
                render_grid(view.visible[seat])
            assert sorted(c["actions"][0] for c in choices) == state.legal_actions(seat)
            for choice in choices:
                after = state.clone()
                after.apply_joint({s: choice["actions"][0] if s == seat
                                   else state.legal_actions(s)[0]
                                   for s in state.current_players()})
                if after.view(seat).voyage != view.voyage:
                    continue            # the voyage was scored: a new hold
                assert choice["after"] == render_grid(after.view(seat).visible[seat])
                checked += 1
        state.apply_joint({p: int(rng.choice(state.legal_actions(p)))
                           for p in state.current_players()})
    assert checked >= 8


def render_grid(cells) -> list[list[str]]:
    """A hold's cells as the board writes them (tokens, three rows)."""
    from plunder.envs.shipshape.geometry import CODE_TOKEN
    tokens = [CODE_TOKEN[c] for c in cells]
    return [tokens[0:3], tokens[3:6], tokens[6:9]]


# -- last moves ----------------------------------------------------------------------------
def record(game, seed: int, steps: int):
    """States and joint moves of a random game."""
    state = game.new_game(np.random.default_rng(seed))
    rng = np.random.default_rng(seed)
    states, moves = [state.clone()], []
    for _ in range(steps):
        if state.is_terminal():
            break
        joint = {p: int(rng.choice(state.legal_actions(p))) for p in state.current_players()}
        state.apply_joint(joint)
        moves.append(joint)
        states.append(state.clone())
    return states, moves


def test_a_last_move_is_marked_only_as_far_as_the_observer_sees_it():
    game = game_class("shipshape_v0")(3)
    states, moves = record(game, 2, 1)          # the first bids
    bids = moves[0]
    lines = [["the bids are revealed"]]
    mine = boards.last_moves(game, states, moves, 1, 0, lines)
    others = boards.last_moves(game, states, moves, 1, 1, lines)
    assert [m["seat"] for m in mine] == [0, 1, 2] and mine[0]["lines"] == lines[0]
    card = bids[0] + 1      # BID0 = 0: the card's number
    assert mine[0]["keys"] == ["bid:0", f"crew:0:{card}"]
    # seat 1 learns seat 0's bid from the reveal, not the move it chose in secret
    assert others[0]["keys"] == ["bid:0"]
    assert others[1]["keys"] == ["bid:1", f"crew:1:{bids[1] + 1}"]
    omniscient = boards.last_moves(game, states, moves, 1, None, lines)
    assert omniscient[0]["keys"] == mine[0]["keys"]


def test_the_keys_of_the_last_moves_are_on_the_board():
    for env_id in ("scallywags_v0", "anchors_aweigh_v0", "all_hands_battle_v0",
                   "all_hands_crew_v0", "shipshape_v0"):
        game = game_class(env_id)(3)
        states, moves = record(game, 3, 40)
        keys = {t["key"] for t in things(board(game, states[-1].view(0), []))} | \
            zone_keys(board(game, states[-1].view(0), []))
        last = boards.last_moves(game, states, moves, len(moves), 0, [[]] * len(moves))
        assert last and all(m["step"] <= len(moves) for m in last)
        marked = [k for m in last for k in m["keys"]]
        assert marked and set(marked) & keys, f"{env_id}: no last move on the board"


# -- the setup form's words ------------------------------------------------------------------
def test_every_bot_kind_and_every_option_has_a_name_and_a_sentence():
    from plunder.envs import specs
    from plunder.policies import base as policy_base
    from plunder.training.web import menu

    bots = menu.level_bots() + menu.BOTS
    named = {menu.spec_kind(b.spec) for b in bots}
    # a noisy bot is offered as the novice level (levels.toml), not on its own
    assert {menu.spec_kind(s) for s in policy_base.BOT_SPECS} - {"noisy"} <= named
    assert [b.spec for b in menu.level_bots()] == ["level:novice", "level:casual",
                                                  "level:strong", "level:expert"]
    assert all(b.name and b.sentence.endswith(".") for b in bots)
    for s in specs():
        for name in s.options():
            how = menu.OPTIONS.get(s.name, {}).get(name)
            assert how is not None and how.sentence.endswith("."), f"{s.name}: {name}"


def test_a_bot_kind_the_table_does_not_name_is_still_offered(monkeypatch):
    from plunder.policies import base as policy_base
    from plunder.training.web import menu

    monkeypatch.setattr(policy_base, "BOT_SPECS",
                        policy_base.BOT_SPECS + ("oracle[:STRENGTH]",))
    entry = menu.bot_menu()[-1]
    assert entry["spec"] == "oracle" and entry["arg"] == "text"
    assert entry["sentence"] == "bot spec oracle[:STRENGTH]"


# -- who gets the omniscient board ---------------------------------------------------------
def test_a_played_game_never_builds_the_omniscient_board(client, monkeypatch):
    from tests.support.web import new_game, play_setup

    built = []

    def watched_only(game, state):
        """The omniscient board, recorded."""
        built.append(game.env_id())
        return {"zones": [], "headline": "omniscient"}
    monkeypatch.setattr(boards, "omniscient_board", watched_only)
    game = new_game(client, "scallywags_v0", **play_setup("scallywags_v0", seed=4))
    rng = np.random.default_rng(0)
    while not game["over"]:
        move = int(rng.choice([m["action"] for m in game["legal"]]))
        game = client.post(f"/api/games/{game['id']}/move",
                           json={"action": move, "version": game["version"]}).json()
        assert game["board"]["headline"] != "omniscient"
    assert client.get(f"/api/games/{game['id']}").json()["board"]["zones"]
    assert built == []
    watched = new_game(client, "scallywags_v0", mode="watch", players=2, bots=["random"])
    assert watched["board"]["headline"] == "omniscient" and built == ["scallywags_v0"]
    seat = client.get(f"/api/games/{watched['id']}?seat=0").json()
    assert seat["board"]["zones"] and built == ["scallywags_v0"]
