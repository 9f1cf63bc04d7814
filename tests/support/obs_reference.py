"""Digests of observations and masks along random games, for speed-ups that must not change
a single bit (tests/test_obs_reference.py).

For every game, player count and variant in ``CASES``, ``digest_case`` plays random games
(seeded) and, at every state, encodes the view of every seat (in a random order, so that
per-observer caches see shuffled calls) and computes every seat's mask; now and then it
also re-encodes a view of an *older* state of the same game (caches must not assume
views only move forward). Everything goes into one SHA-256 per case, with a digest per
game so that a failure names the first game that differs.

``python -m tests.support.obs_reference`` rewrites ``tests/data/obs_reference.json`` (run it on
the commit whose observations are the reference, never to make a failing test pass);
``python -m tests.support.obs_reference ENV_ID ...`` rewrites only those games' cases, after a
deliberate change of their observation (a new field, say), and keeps the others.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

from plunder.envs import specs

REFERENCE = Path(__file__).parent.parent / "data" / "obs_reference.json"

#: (env id, variant options) per case, every supported player count of each: the variant
#: sets the games' specs declare (``GameSpec.test_variants``)
VARIANTS = {s.env_id: [dict(v) for v in s.test_variants] for s in specs()}
GAMES_PER_CASE = 4
MAX_STEPS = 500          # decisions per game (a prefix of long games is enough)


def cases():
    """(env id, num_players, options) for every case."""
    from plunder.envs import game_class
    from plunder.envs.core import InvalidArgumentError

    out = []
    for env_id, variants in VARIANTS.items():
        cls = game_class(env_id)
        for n in range(cls.min_players, cls.max_players + 1):
            for opts in variants:
                try:
                    cls(n, **opts)
                except InvalidArgumentError:    # a variant not offered at this count
                    continue
                out.append((env_id, n, opts))
    return out


def case_key(env_id: str, n: int, opts: dict) -> str:
    return f"{env_id}/{n}p/" + ",".join(f"{k}={v}" for k, v in sorted(opts.items()))


def digest_case(env_id: str, n: int, opts: dict) -> list[str]:
    """One hex digest per game of this case."""
    from plunder.envs import game_class

    game = game_class(env_id)(n, **opts)
    rng = np.random.default_rng(_seed(env_id, n, opts))
    digests = []
    for _ in range(GAMES_PER_CASE):
        h = hashlib.sha256()
        state = game.new_game(rng)
        old = []
        steps = 0
        while not state.is_terminal() and steps < MAX_STEPS:
            for p in rng.permutation(n).tolist():
                obs = game.encode(state.view(p))
                h.update(obs.astype(np.float32, copy=False).tobytes())
                h.update(np.asarray(state.legal_actions_mask(p), np.int8).tobytes())
            if old and rng.random() < 0.1:      # an older state, then back to this one
                past = old[int(rng.integers(len(old)))]
                p = int(rng.integers(n))
                h.update(game.encode(past.view(p)).tobytes())
            if rng.random() < 0.05:
                old.append(state.clone())
            joint = {p: int(rng.choice(np.flatnonzero(state.legal_actions_mask(p))))
                     for p in state.current_players()}
            state.apply_joint(joint)
            steps += 1
        digests.append(f"{steps}:{h.hexdigest()[:24]}")
    return digests


def _seed(env_id: str, n: int, opts: dict) -> int:
    return int.from_bytes(hashlib.sha256(case_key(env_id, n, opts).encode()).digest()[:4],
                          "little")


def main(env_ids: list[str]) -> None:
    known = set(VARIANTS)
    unknown = sorted(set(env_ids) - known)
    if unknown:
        raise SystemExit(f"unknown env ids {unknown}; known: {sorted(known)}")
    out = json.loads(REFERENCE.read_text()) if env_ids and REFERENCE.exists() else {}
    out.update({case_key(*c): digest_case(*c) for c in cases()
                if not env_ids or c[0] in env_ids})
    REFERENCE.parent.mkdir(exist_ok=True)
    REFERENCE.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(out)} cases to {REFERENCE}")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
