"""Building ShipShape positions for scenario tests."""

from __future__ import annotations

import numpy as np

from plunder.envs.shipshape.components import Components, load_components
from plunder.envs.shipshape.engine import BID0, PLACE0, ShipShapeGame
from plunder.envs.shipshape.geometry import TOKENS


def tile(text: str) -> tuple[int, ...]:
    """Cells from tokens, rows split by '/': ``tile("G2 . R / . . . / C1 X3 .")``."""
    tokens = text.replace("/", " ").split()
    assert len(tokens) == 9, text
    return tuple(TOKENS[t] for t in tokens)


def components(crates: dict[int, str] | None = None,
               holds: dict[int, str] | None = None) -> Components:
    """The packaged components with some crates/holds replaced (by number)."""
    base = load_components()
    c = list(base.crates)
    h = list(base.holds)
    for i, text in (crates or {}).items():
        c[i - 1] = tile(text)
    for i, text in (holds or {}).items():
        h[i - 1] = tile(text)
    return Components(crates=tuple(c), holds=tuple(h))


def new_state(n: int, seed: int = 0, comp: Components | None = None):
    """(game, fresh state)."""
    game = ShipShapeGame(n, components=comp)
    return game, game.new_initial_state(np.random.default_rng(seed))


def refresh(state) -> None:
    """Recompute the top-down views after holds or placed crates were set by hand."""
    state.visible = tuple(state.compute_visible(s) for s in range(state.game.num_seats))


def set_holds(state, holds) -> None:
    """Give the seats these hold numbers for the current voyage."""
    state.hold_history = state.hold_history[:-1] + (tuple(holds),)
    refresh(state)


def set_stack(state, crates, group: int = 0) -> None:
    """Put (crate id, orientation) pairs on top of a group's stack; crates pushed off the
    bottom go back to the unused ones (nothing created or lost)."""
    crates = tuple(tuple(c) for c in crates)
    ids = {c[0] for c in crates}
    elsewhere = {c[0] for k, s in enumerate(state.stacks) if k != group for c in s}
    elsewhere |= {c[0] for p in state.placed for c in p}
    assert not ids & elsewhere, "crate already in use elsewhere"
    size = len(state.stacks[group])
    new = crates + tuple(c for c in state.stacks[group] if c[0] not in ids)
    state.stacks = state.stacks[:group] + (new[:size],) + state.stacks[group + 1:]
    state.unused = tuple(sorted((set(state.unused) - ids) | {c[0] for c in new[size:]}))


def set_hand(state, seat: int, hand) -> None:
    """Give ``seat`` this hand; every other card of 1-10 goes to its discard pile."""
    hand = tuple(sorted(hand)) if seat != state.game.capn else tuple(hand)
    state.hands = state.hands[:seat] + (hand,) + state.hands[seat + 1:]
    rest = tuple(c for c in range(1, 11) if c not in hand)
    state.discards = state.discards[:seat] + (rest,) + state.discards[seat + 1:]


def bid(card: int) -> int:
    return BID0 + card - 1


def place(orientation: int = 0) -> int:
    return PLACE0 + orientation


def bids(state, cards: dict[int, int]) -> None:
    """Every acting seat bids its card from ``cards``."""
    state.apply_joint({p: bid(cards[p]) for p in state.current_players()})


def place_all(state, orientation: int = 0) -> None:
    """Every placing seat places in ``orientation``."""
    state.apply_joint({p: place(orientation) for p in state.current_players()})


def random_joint(state, rng) -> dict[int, int]:
    return {p: int(rng.choice(np.flatnonzero(state.legal_actions_mask(p))))
            for p in state.current_players()}
