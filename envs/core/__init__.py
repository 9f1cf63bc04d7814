"""What every plunder game shares: engine protocol, envs, rewards, registry, errors."""

from .actions import ActionRanges, Label
from .env import PlunderAECEnv, PlunderParallelEnv, make_env_functions
from .errors import (
    ConfigError,
    GameOverError,
    IllegalActionError,
    InvalidArgumentError,
    InvalidStateError,
    ModelFileError,
    NotActingError,
    PlunderError,
    UnknownEnvError,
    require,
)
from .game import Game, GameState, clone_rng, rng_from_dict, rng_to_dict
from .layout import EntityGroup, Field, LayoutBuilder, ObservationLayout
from .rewards import REWARD_MODES

__all__ = [
    "ActionRanges", "ConfigError", "EntityGroup", "Field", "Game", "GameOverError", "GameState", "IllegalActionError",
    "InvalidArgumentError", "InvalidStateError", "Label", "LayoutBuilder", "ModelFileError", "NotActingError",
    "ObservationLayout", "PlunderAECEnv", "PlunderError", "PlunderParallelEnv",
    "REWARD_MODES", "UnknownEnvError", "clone_rng", "make_env_functions", "rng_from_dict",
    "require", "rng_to_dict",
]
