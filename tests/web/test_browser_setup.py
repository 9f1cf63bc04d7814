"""How the browser test gets its browser (tests/web/browser.py): it installs Chromium where
it can and otherwise names why it skips."""

from __future__ import annotations

import pytest

from . import browser


@pytest.fixture
def no_chromium(monkeypatch):
    """No Chromium on this machine, whatever is really installed; the install commands
    run are recorded (and fail) instead of running."""
    monkeypatch.setattr(browser, "_found", lambda paths: None)
    ran = []

    def fake_run(cmd, timeout):
        """Record the command; it fails as apt-get does without the package lists."""
        ran.append(cmd)
        return False, "E: Unable to locate package chromium"
    monkeypatch.setattr(browser, "_run", fake_run)
    return ran


def test_without_apt_get_the_reason_is_given(no_chromium, monkeypatch):
    monkeypatch.setattr(browser.shutil, "which", lambda name: None)
    assert "no apt-get" in browser.install_chromium()
    assert no_chromium == []


def test_as_another_user_without_sudo_the_reason_says_how_to_install(no_chromium, monkeypatch):
    monkeypatch.setattr(browser.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(browser.shutil, "which", lambda name: None if name == "sudo"
                        else f"/usr/bin/{name}")
    reason = browser.install_chromium()
    assert "apt-get needs root" in reason and "apt-get install chromium chromium-driver" \
        in reason
    assert no_chromium == []


def test_as_root_apt_get_is_tried_and_its_failure_named(no_chromium, monkeypatch):
    monkeypatch.setattr(browser.os, "geteuid", lambda: 0)
    monkeypatch.setattr(browser.shutil, "which", lambda name: f"/usr/bin/{name}")
    reason = browser.install_chromium()
    assert "Unable to locate package chromium" in reason
    assert [cmd[3:] for cmd in no_chromium] == [
        ["install", "-y", "-q", "chromium", "chromium-driver"], ["update", "-q"],
        ["install", "-y", "-q", "chromium", "chromium-driver"]]
    assert all(cmd[:3] == ["env", "DEBIAN_FRONTEND=noninteractive", "apt-get"]
               for cmd in no_chromium)


def test_with_a_password_less_sudo_apt_get_runs_through_it(no_chromium, monkeypatch):
    monkeypatch.setattr(browser.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(browser.shutil, "which", lambda name: f"/usr/bin/{name}")

    def sudo_works(cmd, timeout):
        """Record the command; only ``sudo -n true`` succeeds."""
        no_chromium.append(cmd)
        return cmd == ["sudo", "-n", "true"], ""
    monkeypatch.setattr(browser, "_run", sudo_works)
    assert "apt-get could not install" in browser.install_chromium()
    assert no_chromium[0] == ["sudo", "-n", "true"]
    assert all(cmd[:3] == ["sudo", "-n", "env"] for cmd in no_chromium[1:])
    assert len(no_chromium) == 4
