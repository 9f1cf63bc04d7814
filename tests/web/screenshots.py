"""The page's screenshots in docs/web/: ``python -m tests.web.screenshots [DIR]``.

For every game, a game played from seat 0 against scripted bots (fixed seed), clicked
through the page in headless Chromium up to a decision worth showing, saved as
DIR/<game>.png (default docs/web/); then a watched game in the omniscient view
(``watch.png``) and the end of a played game (``end.png``). Shrunk and reduced to a
small palette when Pillow is installed. The browser comes as for the browser tests
(tests/web/browser.py: Chromium from the system's packages).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from plunder.envs import ENV_IDS
from plunder.training.web import create_app

from .browser import browser_or_skip, live_server, wait_for

#: per game: players, then how far to play: a number of moves, or a condition on the
#: board shown (JavaScript over ``board``) to stop at once it holds
SCENES = {
    "scallywags_v0": (3, 7),
    "shipshape_v0": (3, "board.zones.some((z) => z.key === 'placing')"),
    "anchors_aweigh_v0": (3, 14),
    "all_hands_battle_v0": (3, 6),
    "all_hands_crew_v0": (3, "board.zones.some((z) => z.items.some((i) => i.group === "
                              "'stock' && i.actions.length)) && page.game.step > 20"),
}
#: the width the pictures are shrunk to
WIDTH = 1100
#: the tallest picture (the page's top part)
MAX_HEIGHT = 2200
SEED = "7"


def start(driver, url: str, env_id: str, players: int, mode: str = "play") -> None:
    """Open the page and start a game with the scripted bots and the fixed seed."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.get(url + "/")
    wait_for(driver, lambda d: d.execute_script("return document.body.dataset.ready === '1'"))
    Select(driver.find_element(By.ID, "game")).select_by_value(env_id)
    Select(driver.find_element(By.ID, "players")).select_by_value(str(players))
    driver.find_element(By.CSS_SELECTOR, f'input[name="mode"][value="{mode}"]').click()
    driver.find_element(By.ID, "seed").send_keys(SEED)
    driver.find_element(By.ID, "start").click()
    wait_for(driver, lambda d: d.execute_script("return page.game !== null"))


def move(driver, index: int) -> bool:
    """Make one move, a thing on the board where there is one (the ``index``-th, modulo),
    else a move button; False when there is none (the game is over)."""
    from selenium.webdriver.common.by import By

    version = driver.execute_script("return page.game.version")
    things = driver.find_elements(By.CSS_SELECTOR, "#board .clickable")
    buttons = driver.find_elements(By.CSS_SELECTOR, "#moves button.move")
    pool = things or buttons
    if not pool:
        return False
    pool[index % len(pool)].click()
    choices = driver.find_elements(By.CSS_SELECTOR, "#chooser-moves button.move")
    if choices and driver.find_element(By.ID, "chooser").is_displayed():
        choices[0].click()
    wait_for(driver, lambda d: d.execute_script("return page.game.version") != version
         or d.find_element(By.ID, "error").text)
    return True


def play_until(driver, goal) -> None:
    """Play ``goal`` moves, or until the board shown meets the condition ``goal``."""
    for k in range(400):
        if isinstance(goal, int) and k >= goal:
            return
        if isinstance(goal, str) and driver.execute_script(
                f"const board = page.game.board; return {goal};"):
            return
        if not move(driver, 3 * k + 1):
            return


def save(driver, out: Path) -> None:
    """The page as it is, from its top, as ``out`` (shrunk to ``WIDTH`` with Pillow)."""
    driver.execute_script("window.scrollTo(0, 0)")
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 1280, "height": min(max(height, 800), MAX_HEIGHT), "deviceScaleFactor": 1,
        "mobile": False})
    driver.save_screenshot(str(out))
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    try:
        from PIL import Image
    except ImportError:
        return
    image = Image.open(out).convert("RGB")
    if image.width > WIDTH:
        image = image.resize((WIDTH, round(image.height * WIDTH / image.width)),
                             Image.LANCZOS)
    image.quantize(colors=96).save(out, optimize=True)


def shoot_game(driver, url: str, env_id: str, out: Path) -> None:
    """One game's picture: seat 0 a few moves in."""
    players, goal = SCENES.get(env_id, (2, 3))
    start(driver, url, env_id, players)
    play_until(driver, goal)
    save(driver, out)


def shoot_watch(driver, url: str, out: Path) -> None:
    """A watched Scallywags game in the omniscient view, a few steps in."""
    from selenium.webdriver.common.by import By

    start(driver, url, "scallywags_v0", 3, mode="watch")
    for _ in range(12):
        step = driver.execute_script("return page.game.step")
        driver.find_element(By.ID, "step").click()
        wait_for(driver, lambda d: d.execute_script("return page.game.step") != step)
    save(driver, out)


def shoot_end(driver, url: str, out: Path) -> None:
    """The end of a played Scallywags game: the coins turned over, what decided it."""
    start(driver, url, "scallywags_v0", 2)
    while not driver.execute_script("return page.game.over"):
        if not move(driver, 0):
            break
    save(driver, out)


def main(folder: str = "docs/web") -> None:
    """Write every picture into ``folder``."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, live_server(create_app()) as url:
        driver = browser_or_skip(Path(tmp) / "profile")
        try:
            driver.set_window_size(1280, 1000)
            shots = [(out / f"{env_id.rsplit('_v', 1)[0]}.png",
                      lambda path, e=env_id: shoot_game(driver, url, e, path))
                     for env_id in ENV_IDS]
            shots += [(out / "watch.png", lambda path: shoot_watch(driver, url, path)),
                      (out / "end.png", lambda path: shoot_end(driver, url, path))]
            for path, shoot in shots:
                shoot(path)
                print(f"{path}: {path.stat().st_size // 1024} KB")
        finally:
            driver.quit()


if __name__ == "__main__":
    main(*sys.argv[1:])
