"""Doubloons: the example game of docs/adding_a_game.md (kept with the tests, not shipped).

A whole game in one folder: this file declares it, ``engine.py`` holds its rules, view and
encoder, ``bots.py`` its heuristic bot. ``register("tests.example_game")`` adds it to the
registry; the shipped games are each one line of ``GAMES`` in envs/core/registry.py.
"""

from plunder.envs.core.spec import GameSpec

SPEC = GameSpec(
    name="doubloons",
    package=__name__,
    game=f"{__name__}.engine:DoubloonsGame",
    title="Doubloons",
    description="Play a hidden card at once; the highest card takes the round.",
    min_players=2,
    max_players=3,
    simultaneous=True,
    heuristic=f"{__name__}.bots:HighestCard",
)
