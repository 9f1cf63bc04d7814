"""A real browser for the page's tests: Debian's Chromium driven by Selenium, headless.

``browser_or_skip`` installs what is missing (Selenium with pip, Chromium and its driver
with apt-get as root or through a password-less sudo) and skips the test, saying why,
only when that fails. ``live_server`` runs the app with uvicorn on a free loopback port
in a thread; ``wait_for`` polls the page until a condition holds.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
CHROMEDRIVER = ("/usr/bin/chromedriver",)
#: no network, no first-run chores, no GPU: what a headless test browser needs
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--window-size=1280,1000")


def _found(paths) -> str | None:
    """The first of ``paths`` that exists."""
    return next((p for p in paths if Path(p).exists()), None)


def _run(cmd: list[str], timeout: float) -> tuple[bool, str]:
    """Run an install command; (succeeded, the tail of its output)."""
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return False, str(exc)
    return done.returncode == 0, (done.stdout + done.stderr)[-400:]


def install_selenium() -> str | None:
    """Import Selenium, installing it with pip if missing; None, or why it failed."""
    try:
        import selenium  # noqa: F401
        return None
    except ImportError:
        pass
    cmd = [sys.executable, "-m", "pip", "install", "-q", "selenium>=4.20"]
    constraints = Path(__file__).resolve().parents[2] / ".ci" / "constraints.txt"
    if constraints.is_file():
        cmd += ["-c", str(constraints)]
    ok, out = _run(cmd, 600)
    if not ok:
        return f"selenium is not installed and pip could not install it: {out}"
    return None


def root_prefix() -> list[str] | None:
    """How to run a command as root: nothing when root already, ``sudo -n`` where sudo
    needs no password, None where neither."""
    if not hasattr(os, "geteuid") or os.geteuid() == 0:
        return []
    if shutil.which("sudo") and _run(["sudo", "-n", "true"], 30)[0]:
        return ["sudo", "-n"]
    return None


def install_chromium() -> str | None:
    """Chromium and chromedriver from the system's packages (apt-get, as root or with a
    password-less sudo); None, or why there is no browser."""
    if _found(CHROMIUM) and _found(CHROMEDRIVER):
        return None
    if not shutil.which("apt-get"):
        return "no Chromium at /usr/bin/chromium and no apt-get to install it"
    prefix = root_prefix()
    if prefix is None:
        return ("no Chromium at /usr/bin/chromium, and apt-get needs root (the test runs as "
                "another user, without a password-less sudo): install it with "
                "'sudo apt-get install chromium chromium-driver'")
    apt = prefix + ["env", "DEBIAN_FRONTEND=noninteractive", "apt-get"]
    out = ""
    for args in (["install", "-y", "-q", "chromium", "chromium-driver"], ["update", "-q"],
                 ["install", "-y", "-q", "chromium", "chromium-driver"]):
        _, out = _run(apt + args, 900)
        if _found(CHROMIUM) and _found(CHROMEDRIVER):
            return None
    return f"apt-get could not install chromium and chromium-driver: {out.strip()}"


def browser_or_skip(profile_dir: Path, downloads: Path | None = None):
    """A headless Chromium WebDriver with a fresh profile in ``profile_dir`` that saves
    downloads in ``downloads`` without asking; skips the test with the reason when no
    browser can be had."""
    reason = install_selenium() or install_chromium()
    if reason:
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = _found(CHROMIUM)
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile_dir}")
    if downloads is not None:
        options.add_experimental_option("prefs", {
            "download.default_directory": str(downloads),
            "download.prompt_for_download": False})
    service = Service(executable_path=_found(CHROMEDRIVER))
    return webdriver.Chrome(service=service, options=options)


def free_port() -> int:
    """A TCP port free on the loopback interface now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def live_server(app):
    """Serve ``app`` on 127.0.0.1 in a background thread; yields its base URL."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


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
