"""Make the page's screenshots for docs/web.md: ``python -m tests.web.screenshots [DIR]``.

For every game: a played game (seat 0 against heuristic bots, fixed seed) a few moves in,
clicked through the page in headless Chromium, saved as DIR/<game>.png (default
docs/web/), shrunk and reduced to a small palette when Pillow is installed.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from plunder.envs import ENV_IDS
from plunder.training.web import create_app

from .browser import browser_or_skip, live_server

#: players and moves clicked before the picture, per game
SCENES = {
    "scallywags_v0": (3, 6),
    "shipshape_v0": (3, 3),
    "anchors_aweigh_v0": (3, 8),
    "all_hands_battle_v0": (3, 4),
    "all_hands_crew_v0": (3, 6),
}
WIDTH = 1000


def shoot(driver, url: str, env_id: str, out: Path) -> None:
    """One game's picture."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    players, moves = SCENES.get(env_id, (2, 3))
    driver.get(url + "/")
    time.sleep(0.5)
    Select(driver.find_element(By.ID, "game")).select_by_value(env_id)
    Select(driver.find_element(By.ID, "players")).select_by_value(str(players))
    driver.find_element(By.ID, "seed").send_keys("7")
    driver.find_element(By.ID, "start").click()
    time.sleep(0.5)
    for _ in range(moves):
        buttons = driver.find_elements(By.CSS_SELECTOR, "#moves button.move")
        if not buttons:
            break
        buttons[len(buttons) // 2].click()
        time.sleep(0.3)
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(str(out))
    try:
        from PIL import Image
    except ImportError:
        return
    image = Image.open(out).convert("RGB")
    if image.width > WIDTH:
        image = image.resize((WIDTH, round(image.height * WIDTH / image.width)),
                             Image.LANCZOS)
    image.quantize(colors=64).save(out, optimize=True)


def main(folder: str = "docs/web") -> None:
    """Write every game's screenshot into ``folder``."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, live_server(create_app(models_dir=None)) as url:
        driver = browser_or_skip(Path(tmp) / "profile")
        try:
            driver.set_window_size(1280, 1100)
            for env_id in ENV_IDS:
                path = out / f"{env_id.rsplit('_v', 1)[0]}.png"
                shoot(driver, url, env_id, path)
                print(f"{path}: {path.stat().st_size // 1024} KB")
        finally:
            driver.quit()


if __name__ == "__main__":
    main(*sys.argv[1:])
