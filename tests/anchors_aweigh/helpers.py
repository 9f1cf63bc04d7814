"""Helpers for Anchors Aweigh! tests: build positions directly and play joint steps."""

from __future__ import annotations

import numpy as np

from plunder.envs.anchors_aweigh.components import COLOURS, KINDS
from plunder.envs.anchors_aweigh.engine import (
    CARGO, CHEST, EMPTY, AnchorsAweighGame, AnchorsAweighState,
)
from plunder.envs.core.compiled import PURE_PYTHON_VAR


def new_state(n=2, seed=0, **options) -> AnchorsAweighState:
    game = AnchorsAweighGame(n, **options)
    return game.new_initial_state(np.random.default_rng(seed))


def tiles_of(game, kind: str, star: bool | None = False) -> list[int]:
    k = KINDS.index(kind)
    return [t for t in range(game.num_tiles) if game.tile_kind[t] == k
            and (star is None or game.tile_star[t] == star)]


def build(n=2, ships=None, deck=(), captain=0, round=1, coins=None, chests=None,
          parrots=None, seed=0, stor=None, **options) -> AnchorsAweighState:
    """A travel-phase position: ``ships[p]`` lists 14 entries (A1..C2): an asset kind
    (``"map"``, ``"map*"`` for a starfish tile), ``"blue"`` etc. for cargo, ``"chest"``,
    or None; ``deck`` lists card ids (top first). Every other tile lies face up in the pile.
    """
    s = new_state(n, seed, **options)
    g = s.game
    free = sorted(s.pile_up + s.pile_down + [t for t in s.hand if t >= 0])
    s.hand = [-1] * n
    s.secret = [False] * g.num_tiles
    s.supply = [16] * 4
    s.ships = [[EMPTY] * 14 for _ in range(n)]
    s.stor = [[[] for _ in range(14)] for _ in range(n)]
    ships = ships or {}
    for p in range(n):
        spec = list(ships.get(p, [None] * 14)) + [None] * 14
        for sp, x in enumerate(spec[:14]):
            if x is None:
                continue
            if x in COLOURS:
                s.ships[p][sp] = CARGO + COLOURS.index(x)
                s.supply[COLOURS.index(x)] -= 1
            elif x == "chest":
                s.ships[p][sp] = CHEST
            else:
                star = x.endswith("*")
                t = next(t for t in tiles_of(g, x.rstrip("*"), star) if t in free)
                free.remove(t)
                s.ships[p][sp] = t
    for (p, sp), colours in (stor or {}).items():
        for c in colours:
            s.stor[p][sp].append(COLOURS.index(c))
            s.supply[COLOURS.index(c)] -= 1
    s.pile_up = free
    s.pile_down = []
    s.round = round
    s.captain = captain
    s.fronts_hidden = True
    s.coins = list(coins or [0] * n)
    s.chests = list(chests or [0] * n)
    s.chest_supply = g.comp.chests - sum(s.chests)
    s.parrots = list(parrots or [0] * n)
    s.parrot_supply = g.comp.parrots - sum(s.parrots)
    s.deck = [g.card_index[c] for c in deck]
    s.queue = []
    s.used = [c for c in range(len(g.cards)) if c not in s.deck][: 13 * (round - 1)]
    s.cleansed = True
    s._next_card()
    s.touch()
    return s


def step(s, actions: dict) -> None:
    """Apply a joint action {seat: action}."""
    s.apply_joint(actions)


def everyone(s, action) -> dict:
    return {p: action for p in s.current_players()}


def legal(s, p) -> set[int]:
    return set(np.flatnonzero(s.legal_actions_mask(p)).tolist())


def cargo_of(s, p) -> dict[str, int]:
    c = s._cargo_counts(p)
    return {COLOURS[i]: c[i] for i in range(4) if c[i]}


def assets_of(s, p) -> dict[str, int]:
    c = s._asset_counts(p)
    return {KINDS[i]: c[i] for i in range(len(KINDS)) if c[i]}


def play_random(s, rng, until=None, max_steps=20000):
    """Random legal play until ``until(s)`` or the end."""
    for _ in range(max_steps):
        if s.is_terminal() or (until is not None and until(s)):
            return s
        joint = {p: int(rng.choice(np.flatnonzero(s.legal_actions_mask(p))))
                 for p in s.current_players()}
        s.apply_joint(joint)
    return s


def game_of(s) -> AnchorsAweighGame:
    return s.game


def random_states(game, rng, count):
    """Random play from new games: yields (state, older state or None), ``count`` states."""
    done, old = 0, []
    while done < count:
        s = game.new_game(rng)
        while done < count:
            past = old[int(rng.integers(len(old)))] if old and rng.random() < 0.1 else None
            yield s, past
            done += 1
            if s.is_terminal():
                break
            if rng.random() < 0.05:
                old.append(s.clone())
            s.apply_joint({p: int(rng.choice(np.flatnonzero(s.legal_actions_mask(p))))
                           for p in s.current_players()})


def variants(n: int) -> list[dict]:
    """The options of tests/support/obs_reference.py's Anchors Aweigh! variants offered at ``n``
    players."""
    from tests.support.obs_reference import VARIANTS

    out = []
    for opts in VARIANTS["anchors_aweigh_v0"]:
        try:
            AnchorsAweighGame(n, **opts)
        except Exception:                      # a variant not offered at this count
            continue
        out.append(opts)
    return out


def switched_game(monkeypatch, pure: bool, n: int = 2, **opts) -> AnchorsAweighGame:
    """A game built with ``PLUNDER_PURE_PYTHON=1`` (``pure``) or without it."""
    with monkeypatch.context() as m:
        if pure:
            m.setenv(PURE_PYTHON_VAR, "1")
        else:
            m.delenv(PURE_PYTHON_VAR, raising=False)
        return AnchorsAweighGame(n, **opts)


def play_steps(game, seed: int, steps: int) -> AnchorsAweighState:
    """A new game of ``game`` after up to ``steps`` random joint steps."""
    s = game.new_game(np.random.default_rng(seed))
    rng = np.random.default_rng(seed + 1)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply_joint({p: int(rng.choice(np.flatnonzero(s.legal_actions_mask(p))))
                       for p in s.current_players()})
    return s


def fuzz_states() -> list[AnchorsAweighState]:
    """Real states of every phase at 2-4 players, plain and in two variants (clones, with
    no cached public part or acting seats), for feeding junk to the compiled code."""
    out = {}
    for n, opts in ((2, {}), (4, {"meddlesome_monkey": (1,)}), (3, {"rough_seas": True})):
        game = AnchorsAweighGame(n, **opts)
        rng = np.random.default_rng(n)
        for s, _ in random_states(game, rng, 1500):
            if (n, s.phase) not in out or rng.random() < 0.01:
                out[n, s.phase] = s.clone()
    return list(out.values())


def junk_items(state, name: str, bad_values):
    """Clones of ``state`` with one item of its list field ``name`` (the first, middle and
    last), or one item of a list inside it (the first and last), replaced by each bad
    value in turn; nothing for a field that is not a non-empty list."""
    value = getattr(state, name)
    if not isinstance(value, list) or not value:
        return
    for i in sorted({0, len(value) // 2, len(value) - 1}):
        for bad in bad_values:
            s = state.clone()
            getattr(s, name)[i] = bad
            yield s
            inner = value[i]
            if isinstance(inner, list) and inner:
                for j in sorted({0, len(inner) - 1}):
                    s = state.clone()
                    row = list(inner)
                    row[j] = bad
                    getattr(s, name)[i] = row
                    yield s
