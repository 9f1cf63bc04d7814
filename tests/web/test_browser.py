"""The page in a real browser: every game played to its end by clicking its board, a bot
game watched in the omniscient view and from a seat, a replay opened, the bots and the
variant options offered in words. Headless Chromium from the system's packages (installed
by the test where it can be; skipped, saying why, only where no browser can be had)."""

from __future__ import annotations

import json
import time

import pytest

pytest.importorskip("starlette", reason="plunder serve needs the web extra")
pytest.importorskip("uvicorn", reason="plunder serve needs the web extra")

from plunder.envs import spec  # noqa: E402
from plunder.training.web import create_app  # noqa: E402

from .browser import browser_or_skip, live_server, wait_for  # noqa: E402

#: (pytest-xdist's --dist loadfile runs them all in one worker: two installing Chromium at
#: once would fight over the package manager's lock)
pytestmark = pytest.mark.slow


@pytest.fixture
def page(tmp_path):
    """(driver, base URL): a fresh headless Chromium on a fresh server."""
    with live_server(create_app(models_dir=tmp_path)) as url:
        driver = browser_or_skip(tmp_path / "profile", downloads=tmp_path / "downloads")
        try:
            driver.set_window_size(1280, 1000)
            yield driver, url
        finally:
            driver.quit()


def by_id(driver, name):
    """The element with id ``name``."""
    from selenium.webdriver.common.by import By
    return driver.find_element(By.ID, name)


def all_css(driver, selector):
    """Every element matching ``selector``."""
    from selenium.webdriver.common.by import By
    return driver.find_elements(By.CSS_SELECTOR, selector)


def open_setup(driver, url, env_id, players, mode="play"):
    """Load the page and fill in the game, player count and mode."""
    from selenium.webdriver.support.ui import Select

    driver.get(url + "/")
    wait_for(driver, lambda d: by_id(d, "game").find_elements("tag name", "option"),
             what="the catalogue")
    Select(by_id(driver, "game")).select_by_value(env_id)
    Select(by_id(driver, "players")).select_by_value(str(players))
    all_css(driver, f'input[name="mode"][value="{mode}"]')[0].click()


def error_text(driver):
    """The page's error line."""
    return by_id(driver, "error").text


#: per game: players, variant options typed into the form (a short battle game)
PLAYED = {
    "scallywags_v0": (2, {}),
    "shipshape_v0": (2, {}),
    "anchors_aweigh_v0": (2, {}),
    "all_hands_battle_v0": (2, {"target_score": "60"}),
    "all_hands_crew_v0": (2, {}),
}
#: most clicks a game may take before the test gives up
MAX_CLICKS = 1500


#: the page's names of what is on the table, read in one go: the decision line, the move
#: buttons, each clickable thing's accessible name and moves, the forced-move lines
SHOWN = """
const text = (sel) => [...document.querySelectorAll(sel)].map((n) => n.textContent);
return {decision: text("#board p.decision"), buttons: text("#moves button.move"),
        forced: text("#moves p.forced"),
        things: [...document.querySelectorAll("#board .clickable")].map((n) => [
          n.getAttribute("aria-label"), n.title, n.dataset.actions.split(",").map(Number)]),
        game: page.game};
"""


def check_the_words(driver):
    """The table in words: the decision line above the board, every move button by its
    label, every clickable thing named by the labels of its
    moves, the moves played for the person listed; returns how many of those there were."""
    shown = driver.execute_script(SHOWN)
    game = shown["game"]
    labels = {m["action"]: m["label"] for m in game["legal"]}
    assert shown["decision"] == [game["decision"]] and game["decision"]
    assert shown["buttons"] == [m["label"] for m in game["legal"]]
    assert all(m["label"] for m in game["legal"]), game["legal"]
    for name, tip, actions in shown["things"]:
        assert name == " · or ".join(labels[a] for a in actions), (name, actions)
        assert tip.endswith(name)
    assert shown["forced"] == [line["text"] for line in game["forced"]]
    return len(game["forced"])


def click_a_move(driver, rng):
    """One move of the person: a thing on the board (two times in three, where there is
    one; a choice among its moves when it has several) or a move button."""
    things = all_css(driver, "#board .clickable")
    buttons = all_css(driver, "#moves button.move")
    on_board = bool(things) and (rng.random() < 2 / 3 or not buttons)
    pool = things if on_board else buttons
    pool[int(rng.integers(len(pool)))].click()
    if on_board and by_id(driver, "chooser").is_displayed():
        choices = all_css(driver, "#chooser-moves button.move")
        choices[int(rng.integers(len(choices)))].click()
    return on_board


@pytest.mark.parametrize("env_id", list(PLAYED))
def test_every_game_is_played_to_its_end_by_clicking(page, env_id):
    import numpy as np

    driver, url = page
    players, options = PLAYED[env_id]
    open_setup(driver, url, env_id, players)
    rules = all_css(driver, "#rules-note a")[0]
    assert rules.get_attribute("href").endswith(f"/rules/{spec(env_id).name}")
    assert by_id(driver, "auto-play").is_selected()
    for name, value in options.items():
        field = by_id(driver, f"option-{name}")
        field.clear()
        field.send_keys(value)
    by_id(driver, "seed").send_keys("3")
    by_id(driver, "start").click()
    wait_for(driver, lambda d: by_id(d, "table").is_displayed(), what="the table")
    rng = np.random.default_rng(1)
    clicks = things = previews = 0
    while not by_id(driver, "result").is_displayed():
        assert clicks < MAX_CLICKS, "the game did not end"
        assert not error_text(driver), error_text(driver)
        version = driver.execute_script("return page.game.version")
        wait_for(driver, lambda d: all_css(d, "#moves button.move")
                 or by_id(d, "result").is_displayed(), what="moves")
        if by_id(driver, "result").is_displayed():
            break
        previews += bool(all_css(driver, "#board .cells.after"))
        check_the_words(driver)
        things += click_a_move(driver, rng)
        clicks += 1
        wait_for(driver, lambda d: d.execute_script("return page.game.version") != version
                 or by_id(d, "error").text, what="the move to be applied")
    assert things > 0, "no thing on the table was clicked"
    assert "Game over" in by_id(driver, "result").text
    assert "Winner" in by_id(driver, "result").text
    decided = by_id(driver, "result").find_element("css selector", ".decided").text
    assert " win" in decided or "ties" in decided
    assert all_css(driver, "#result table.breakdown tr.total")
    assert all_css(driver, "#board .zone.winner"), "the winner's zone is not marked"
    assert all_css(driver, "#board .last-move"), "no last move shown"
    assert all_css(driver, "#log li")
    assert by_id(driver, "save-replay").is_enabled()
    assert not by_id(driver, "moves-box").is_displayed()
    if env_id == "scallywags_v0":       # every take turned over for the count
        faces = [c.text for c in all_css(driver, "#board .seat-zone .kind-coin .face")]
        assert faces and "?" not in faces
    if env_id == "shipshape_v0":
        assert previews > 0, "no placement showed the hold after it"


def test_a_forced_move_is_played_for_the_person_and_said_unless_asked_not_to(page):
    """A decision with one legal move (allowing an ARRGH! with no HANDS OFF ME BOOTY! in
    hand) is played for the person and listed above their moves; with the tick box
    cleared the game is started asking them every move."""
    import numpy as np

    from selenium.webdriver.support.ui import Select

    driver, url = page
    rng = np.random.default_rng(0)
    forced = 0
    for seed in range(1, 6):              # new games until one has a forced move
        open_setup(driver, url, "scallywags_v0", 4)
        for bot in range(1, 4):
            Select(by_id(driver, f"bot-{bot}-kind")).select_by_visible_text("Random")
        by_id(driver, "seed").send_keys(str(seed))
        by_id(driver, "start").click()
        wait_for(driver, lambda d: by_id(d, "table").is_displayed(), what="the table")
        for _ in range(MAX_CLICKS):
            wait_for(driver, lambda d: all_css(d, "#moves button.move")
                     or by_id(d, "result").is_displayed(), what="moves")
            if by_id(driver, "result").is_displayed():
                break
            forced = check_the_words(driver)
            if forced:
                break
            version = driver.execute_script("return page.game.version")
            click_a_move(driver, rng)
            wait_for(driver, lambda d: d.execute_script("return page.game.version") != version
                     or by_id(d, "error").text, what="the move to be applied")
            assert not error_text(driver), error_text(driver)
        if forced:
            break
    assert forced, "no forced move in five games"
    lines = [n.text for n in all_css(driver, "#moves p.forced")]
    assert lines and all(line.startswith("only move: ") and line.endswith(" — played for you")
                         for line in lines), lines
    open_setup(driver, url, "scallywags_v0", 2)
    by_id(driver, "auto-play").click()
    by_id(driver, "start").click()
    wait_for(driver, lambda d: by_id(d, "table").is_displayed(), what="the table")
    assert driver.execute_script("return page.game.auto_play") is False


def test_a_bot_game_is_watched_in_the_omniscient_view(page):
    """Watched from everywhere: every coin face up, every hand shown, every move named in
    the log, nothing to click; a seat's view hides again what that seat cannot know."""
    import re

    from selenium.webdriver.support.ui import Select

    driver, url = page
    open_setup(driver, url, "scallywags_v0", 3, mode="watch")
    by_id(driver, "seed").send_keys("5")
    by_id(driver, "start").click()
    wait_for(driver, lambda d: by_id(d, "watch-controls").is_displayed(), what="the controls")
    assert Select(by_id(driver, "view-as")).first_selected_option.text.startswith("everything")
    faces = [c.text for c in all_css(driver, "#board .kind-coin .face")]
    assert len(faces) == 40 and "?" not in faces
    decision = by_id(driver, "board").find_element("css selector", "p.decision").text
    acting = driver.execute_script("return page.game.acting")
    assert acting and all(f"player_{p}: " in decision for p in acting), decision
    Select(by_id(driver, "speed")).select_by_value("100")
    by_id(driver, "play").click()
    wait_for(driver, lambda d: d.execute_script("return page.game.step") >= 12, what="play")
    by_id(driver, "pause").click()
    wait_for(driver, lambda d: not d.execute_script("return page.busy"),
             what="the step in flight")
    assert not error_text(driver), error_text(driver)
    hands = all_css(driver, "#board .seat-zone .kind-card")
    assert hands, "the omniscient board shows no hand"
    assert not all_css(driver, "#board .clickable")
    assert all_css(driver, "#board .last-move") and all_css(driver, "#board .item.last")
    log = [line.text for line in all_css(driver, "#log li")]
    assert log and not any(re.match(r"player_\d: ", line) for line in log), log
    assert not any("(you)" in line for line in log)
    # seat 1's view: the others' hands and the face-down coins it has not seen are hidden
    Select(by_id(driver, "view-as")).select_by_value("1")
    wait_for(driver, lambda d: d.execute_script("return page.game.seat") == 1, what="seat 1")
    faces = [c.text for c in all_css(driver, "#board .kind-coin .face")]
    assert "?" in faces
    assert by_id(driver, "board").find_element("css selector", 'section[data-key="hand"]')
    by_id(driver, "play").click()
    wait_for(driver, lambda d: by_id(d, "result").is_displayed(), timeout=120,
             what="the end of the game")
    assert not error_text(driver), error_text(driver)


def test_bots_are_watched_step_by_step_and_a_replay_is_opened(page, tmp_path):
    from selenium.webdriver.support.ui import Select

    driver, url = page
    open_setup(driver, url, "shipshape_v0", 3, mode="watch")
    by_id(driver, "start").click()
    wait_for(driver, lambda d: by_id(d, "watch-controls").is_displayed(), what="the controls")
    assert all_css(driver, "#board .zone .kind-hold")

    def step_shown():
        return driver.execute_script("return page.game.step")

    by_id(driver, "step").click()
    wait_for(driver, lambda d: step_shown() == 1, what="one step")
    Select(by_id(driver, "view-as")).select_by_value("1")
    wait_for(driver, lambda d: d.execute_script("return page.game.seat") == 1, what="seat 1")
    assert all_css(driver, "#board .zone")
    by_id(driver, "back").click()
    wait_for(driver, lambda d: step_shown() == 0, what="a step back")
    Select(by_id(driver, "speed")).select_by_value("100")
    by_id(driver, "play").click()
    wait_for(driver, lambda d: step_shown() >= 3, what="play")
    by_id(driver, "pause").click()
    # a step already asked for when pause was clicked may still arrive; none after it
    wait_for(driver, lambda d: not d.execute_script("return page.busy"),
             what="the step in flight")
    paused = step_shown()
    time.sleep(0.5)
    assert step_shown() == paused
    by_id(driver, "play").click()
    wait_for(driver, lambda d: by_id(d, "result").is_displayed(), timeout=60,
             what="the end of the game")
    assert not error_text(driver), error_text(driver)
    game_id = driver.execute_script("return page.game.id")
    # the replay saved with the page's button, then opened through its file input
    by_id(driver, "save-replay").click()
    path = wait_for(driver, lambda d: next((tmp_path / "downloads").glob("*.replay.json"), None),
                    what="the downloaded replay")
    assert path.name == f"shipshape_v0-{game_id[:8]}.replay.json"
    replay = wait_for(driver, lambda d: json.loads(path.read_text()), what="the whole file")
    assert replay["env_id"] == "shipshape_v0" and replay["moves"]
    by_id(driver, "replay-file").send_keys(str(path))
    wait_for(driver, lambda d: d.execute_script(
        "return page.game && page.game.mode === 'replay'"), what="the replay")
    assert driver.execute_script("return page.game.steps") == len(replay["moves"])
    by_id(driver, "play").click()
    wait_for(driver, lambda d: by_id(d, "result").is_displayed(), timeout=60,
             what="the replay's end")


def test_the_bots_are_offered_by_name_with_a_sentence_and_a_mistake_is_shown(page,
                                                                            monkeypatch):
    from selenium.webdriver.support.ui import Select

    from plunder.policies import base as policy_base
    from plunder.training.web import menu

    specs = policy_base.BOT_SPECS + ("oracle[:STRENGTH]",)   # a kind the table never saw
    monkeypatch.setattr(policy_base, "BOT_SPECS", specs)
    driver, url = page
    open_setup(driver, url, "scallywags_v0", 2)
    kind = Select(by_id(driver, "bot-1-kind"))
    names = [o.text for o in kind.options]
    # Scallywags has no planner; 2 players have shipped networks; no spec grammar shown
    assert names == [b.name for b in menu.level_bots() + menu.BOTS
                     if b.needs != "planner"] + ["noisy", "oracle"]
    assert not any(":" in name or "[" in name for name in names)
    assert kind.first_selected_option.text == "Scripted"
    assert by_id(driver, "bot-1-sentence").text == \
        next(b.sentence for b in menu.BOTS if b.spec == "heuristic")
    assert not by_id(driver, "bot-1-arg").is_displayed()
    Select(by_id(driver, "players")).select_by_value("3")      # no shipped 3-player bots
    names3 = [o.text for o in Select(by_id(driver, "bot-1-kind")).options]
    assert "Trained" not in names3 and "Random" in names3
    Select(by_id(driver, "players")).select_by_value("2")
    kind = Select(by_id(driver, "bot-1-kind"))
    kind.select_by_visible_text("Search")
    arg = by_id(driver, "bot-1-arg")
    assert arg.is_displayed() and arg.get_attribute("type") == "number"
    arg.send_keys("100000")
    by_id(driver, "start").click()
    error = wait_for(driver, lambda d: by_id(d, "setup-error").text, what="the error")
    assert "more than the 256" in error, error
    arg.clear()
    kind.select_by_value("oracle")
    arg.send_keys("9")
    by_id(driver, "start").click()
    wait_for(driver, lambda d: "oracle" in by_id(d, "setup-error").text, what="the error")
    assert "unknown bot kind 'oracle'" in by_id(driver, "setup-error").text
    arg.clear()
    kind.select_by_visible_text("Your network")
    assert arg.get_attribute("placeholder") == "bot file (.onnx)" and arg.get_attribute("list")
    arg.send_keys("/no/such/bot.onnx")
    by_id(driver, "start").click()
    error = wait_for(driver, lambda d: "bot file" in by_id(d, "setup-error").text
                     and by_id(d, "setup-error").text, what="the error")
    # a file outside the server's bot folder is refused before anything opens it
    assert any(words in error for words in ("outside the bot folder", "takes no bot files",
                                            "no .onnx file there")), error
    assert not by_id(driver, "table").is_displayed()


def test_the_variant_options_are_asked_in_words(page):
    from selenium.webdriver.support.ui import Select

    driver, url = page
    open_setup(driver, url, "anchors_aweigh_v0", 3)
    text = by_id(driver, "options").text
    assert "Meddlesome Monkey" in text and "meddlesome_monkey" not in text
    assert "comma-separated" not in text
    sentences = all_css(driver, "#options .option-sentence")
    assert len(sentences) == 5 and all(s.text.endswith(".") for s in sentences)
    by_id(driver, "option-meddlesome_monkey-2").click()      # a tick per seat
    Select(by_id(driver, "option-open_ocean")).select_by_visible_text("random")
    by_id(driver, "start").click()
    wait_for(driver, lambda d: by_id(d, "table").is_displayed(), what="the table")
    options = driver.execute_script("return page.game.options")
    assert options["meddlesome_monkey"] == [2] and options["open_ocean"] == "random"
