"""Shared pieces of the per-game component-data tests: a change to a game's data that its
parser must refuse with a ConfigError."""

from __future__ import annotations

import pytest

from plunder.envs.core.errors import ConfigError


def assert_config_error(parse, data, change, message):
    """After ``change(data)``, ``parse(data)`` raises ConfigError matching ``message``."""
    change(data)
    with pytest.raises(ConfigError, match=message):
        parse(data)
