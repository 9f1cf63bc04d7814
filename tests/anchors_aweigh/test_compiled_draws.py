"""The compiled engine's Generator.choice(pop, size, replace=False) (envs/anchors_aweigh/
_engine.c, how each round's cards are drawn) is numpy's: the same indices and the same
generator state after, over every population and size the engine takes and odd states of
the generator's 32-bit buffer."""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs.anchors_aweigh.engine import AnchorsAweighGame
from plunder.envs.core.batch import engine_module
from plunder.envs.core.errors import InvalidArgumentError, InvalidStateError

pytestmark = pytest.mark.usefixtures("compiled_on")


def _engine():
    module = engine_module(AnchorsAweighGame)
    if module is None:
        pytest.skip("the compiled engine is not built")
    game = AnchorsAweighGame(2)
    return module.Engine(*game.compiled_engine_params(module))


def test_choice_without_replacement_is_numpys():
    engine = _engine()
    rng = np.random.default_rng(5)
    for trial in range(3000):
        pop = int(rng.integers(1, 257))
        size = int(rng.integers(0, pop + 1))
        r = np.random.default_rng(int(rng.integers(2**63 - 1)))
        if trial % 2:
            r.integers(3)              # leaves half of a 64-bit draw in the buffer
        indices, after = engine.choice(r.bit_generator.state, pop, size)
        assert indices == r.choice(pop, size, replace=False).tolist(), (pop, size)
        assert after == r.bit_generator.state


def test_choice_refuses_what_it_cannot_draw():
    engine = _engine()
    state = np.random.default_rng(0).bit_generator.state
    for pop, size in ((0, 0), (3, 4), (3, -1), (257, 1)):
        with pytest.raises(InvalidArgumentError):
            engine.choice(state, pop, size)
    with pytest.raises(InvalidStateError):
        engine.choice({"bit_generator": "MT19937"}, 3, 1)
