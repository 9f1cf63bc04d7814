"""Errors raised by plunder. Every bad input gets one of these, with a clear message."""

from __future__ import annotations


class PlunderError(Exception):
    """Base class of every error plunder raises on purpose."""


class IllegalActionError(PlunderError, ValueError):
    """An action that is not legal for the acting player in this state."""

    def __init__(self, action, legal, *, player=None, describe=None):
        self.action = action
        self.legal = list(legal)
        self.player = player
        who = f"player {player}" if player is not None else "the acting player"
        name = None
        if describe is not None and _is_index(action):
            try:
                name = describe(action)
            except (PlunderError, ValueError, IndexError, KeyError):
                name = "outside the action space"
        shown = [f"{a} ({describe(a)})" if describe else str(a) for a in self.legal[:40]]
        more = f" … and {len(self.legal) - 40} more" if len(self.legal) > 40 else ""
        label = f"{action!r}" + (f" ({name})" if name else "")
        super().__init__(
            f"illegal action {label} for {who}; legal actions: [{', '.join(shown)}{more}]"
        )


def _is_index(action) -> bool:
    # only true integers name an action: 3.0 or "3" is reported, never converted
    return isinstance(action, int) and not isinstance(action, bool) or (
        type(action).__module__ == "numpy" and hasattr(action, "dtype")
        and action.dtype.kind in "iu" and getattr(action, "ndim", 0) == 0)


class NotActingError(PlunderError, ValueError):
    """A decision was given for a player who is not asked to act now."""


class UnknownEnvError(PlunderError, KeyError):
    """An env id that is not registered."""

    def __str__(self) -> str:  # KeyError quotes its message; we do not want that
        return str(self.args[0])


class InvalidArgumentError(PlunderError, ValueError):
    """Wrong arguments: unknown names, bad types, unsupported values."""


class ConfigError(PlunderError, ValueError):
    """A config file (YAML) that does not validate."""


class InvalidStateError(PlunderError, ValueError):
    """A saved state (dict or JSON) that is not a legal position of the game it is loaded
    into: a missing or mistyped field, a value out of range, a broken rule."""


def require(condition: object, message: str) -> None:
    """Raise InvalidStateError(message) unless ``condition`` holds: how ``validate`` checks
    a rule's invariant (an ``assert`` would vanish under ``python -O``)."""
    if not condition:
        raise InvalidStateError(message)


class GameOverError(PlunderError, RuntimeError):
    """An action was applied to a finished game."""


class ModelFileError(PlunderError, ValueError):
    """A model or checkpoint file that is damaged or belongs to another game/version."""
