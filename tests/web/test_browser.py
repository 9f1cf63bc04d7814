"""The page in a real browser: a game played to its end by clicking, bots watched, a replay
opened. Headless Chromium from the system's packages (installed by the test where it can
be; skipped, saying why, only where no browser can be had)."""

from __future__ import annotations

import json
import time

import pytest

pytest.importorskip("starlette", reason="plunder serve needs the web extra")
pytest.importorskip("uvicorn", reason="plunder serve needs the web extra")

from plunder.training.web import create_app  # noqa: E402

from .browser import browser_or_skip, live_server  # noqa: E402

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


def wait_for(driver, condition, timeout=30.0, what="the page"):
    """Poll ``condition(driver)`` until it is true (fails naming ``what`` otherwise)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = condition(driver)
        except Exception:  # noqa: BLE001 - an element may be replaced while it is read
            value = None
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


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


def test_a_game_is_played_to_its_end_by_clicking(page):
    driver, url = page
    open_setup(driver, url, "scallywags_v0", 2)
    by_id(driver, "seed").send_keys("3")
    by_id(driver, "start").click()
    wait_for(driver, lambda d: by_id(d, "table").is_displayed(), what="the table")
    clicks = 0
    things = 0
    while not by_id(driver, "result").is_displayed():
        assert clicks < 400, "the game did not end"
        assert not error_text(driver), error_text(driver)
        version = driver.execute_script("return page.game.version")
        things_now = all_css(driver, "#board button.clickable")
        if things_now and clicks % 2 == 0:          # a coin or card on the table
            things_now[0].click()
            things += 1
            if by_id(driver, "chooser").is_displayed():
                all_css(driver, "#chooser-moves button.move")[0].click()
        else:                                       # a move button
            wait_for(driver, lambda d: all_css(d, "#moves button.move"), what="moves")
            all_css(driver, "#moves button.move")[0].click()
        clicks += 1
        wait_for(driver, lambda d: d.execute_script("return page.game.version") != version
                 or by_id(d, "error").text, what="the move to be applied")
    assert things > 0, "no thing on the table was clicked"
    assert "Game over" in by_id(driver, "result").text
    assert all_css(driver, "#result table.breakdown tr.total")
    assert "Winner" in by_id(driver, "result").text
    assert all_css(driver, "#log li")
    assert by_id(driver, "save-replay").is_enabled()
    assert not by_id(driver, "moves-box").is_displayed()


def test_bots_are_watched_step_by_step_and_a_replay_is_opened(page, tmp_path):
    from selenium.webdriver.support.ui import Select

    driver, url = page
    open_setup(driver, url, "shipshape_v0", 3, mode="watch")
    by_id(driver, "start").click()
    wait_for(driver, lambda d: by_id(d, "watch-controls").is_displayed(), what="the controls")
    assert "omniscient" in by_id(driver, "board").text

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


def test_the_bots_offered_are_the_bot_specs_and_a_mistake_is_shown(page, monkeypatch):
    from selenium.webdriver.support.ui import Select

    from plunder.policies import base as policy_base

    specs = policy_base.BOT_SPECS + ("oracle[:STRENGTH]",)   # a kind the page never saw
    monkeypatch.setattr(policy_base, "BOT_SPECS", specs)
    driver, url = page
    open_setup(driver, url, "scallywags_v0", 2)
    kind = Select(by_id(driver, "bot-1-kind"))
    assert [o.text for o in kind.options] == list(specs)
    assert kind.first_selected_option.text == "heuristic"
    assert not by_id(driver, "bot-1-arg").is_displayed()
    kind.select_by_value("oracle")
    arg = by_id(driver, "bot-1-arg")
    assert arg.is_displayed() and arg.get_attribute("placeholder") == "STRENGTH (optional)"
    arg.send_keys("9")
    by_id(driver, "start").click()
    wait_for(driver, lambda d: by_id(d, "setup-error").text, what="the error")
    assert "unknown bot kind 'oracle'" in by_id(driver, "setup-error").text
    assert arg.get_attribute("list") is None       # no bot files to suggest
    arg.clear()
    kind.select_by_value("trained")
    assert arg.get_attribute("placeholder") == "PATH.onnx" and arg.get_attribute("list")
    arg.send_keys("/no/such/bot.onnx")
    by_id(driver, "start").click()
    error = wait_for(driver, lambda d: "bot file" in by_id(d, "setup-error").text
                     and by_id(d, "setup-error").text, what="the error")
    # a file outside the server's bot folder is refused before anything opens it
    assert any(words in error for words in ("outside the bot folder", "takes no bot files",
                                            "no .onnx file there")), error
    assert not by_id(driver, "table").is_displayed()
