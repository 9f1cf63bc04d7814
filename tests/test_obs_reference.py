"""Observations and masks are bit-identical to the reference commit's (speed-ups must not
change them): random games at every player count and variant, every seat observed at
every state in shuffled order, older states re-observed (tests/support/obs_reference.py).

Run twice: with the encoders as installed (compiled where built, envs/core/compiled.py)
and with the Python encoders alone (``PLUNDER_PURE_PYTHON=1``), so both stay exact.

The reference digests in tests/data/obs_reference.json were written by the code before any
speed-up. A layout or rules change that is meant to change observations rewrites them
(``python -m tests.support.obs_reference``) in its own commit,
saying why.
"""

import json

import pytest

from plunder.envs.core.compiled import PURE_PYTHON_VAR
from tests.support.obs_reference import REFERENCE, case_key, cases, digest_case

_REF = json.loads(REFERENCE.read_text())


@pytest.mark.parametrize("encoders", ["installed", "python"])
@pytest.mark.parametrize("env_id,n,opts", cases(), ids=lambda x: str(x))
def test_observations_and_masks_match_reference(env_id, n, opts, encoders, monkeypatch):
    if encoders == "python":
        monkeypatch.setenv(PURE_PYTHON_VAR, "1")
    key = case_key(env_id, n, opts)
    assert key in _REF, f"no reference for {key}"
    got = digest_case(env_id, n, opts)
    for g, (want, have) in enumerate(zip(_REF[key], got)):
        assert have == want, f"{key}: game {g} differs from the reference ({have} != {want})"


def test_every_case_has_a_reference():
    assert sorted(case_key(*c) for c in cases()) == sorted(_REF)
