"""Hidden information, written from the rulebook and independent of the view code.

What a player may not know (rulebook + completion): tiles grabbed face down by others
(in hand, or kept below deck behind the screen), where anything lies below another ship's
deck ("everything below deck is hidden from other players": a tile or token is seen going
behind the screen, not the space it goes to; a storage tile taking cargo there is not seen
either), the pile's face-down tiles, the order of the adventure deck, and the card fronts
once the captain has called "Anchors aweigh!" (players cannot look at them; option
``perfect_recall`` keeps them). Everything else is public: the pile's face-up tiles,
everything above deck, tiles seen face up (known by kind wherever they go), cargo (every
token comes from and goes back to the public supply), coins, chests, parrots, revealed
cards and choices.

A tracker follows random games and records which tiles everyone has seen (face up in the
pile, above deck). For player p, the tiles nobody showed p are exchanged between their
places; another ship's below deck is rearranged (its tiles over B1-B4, its cargo over the
free spaces and storage tiles there); the deck is reshuffled; hidden card fronts are
replaced by other cards with the same back. p's observation and mask must not change.
Changing something p knows must change them.
"""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs.anchors_aweigh.components import ABOVE, STORAGE
from plunder.envs.anchors_aweigh.engine import CARGO, EMPTY, AnchorsAweighGame

CONFIGS = [(2, {}), (3, {}), (4, {}), (3, {"rough_seas": True}),
           (4, {"meddlesome_monkey": [1]}), (2, {"perfect_recall": True})]


def _obs(s, p):
    return s.game.encode(s.view(p)), s.legal_actions_mask(p)


def _same(a, b):
    return np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def _tracked_states(n, options, seed, every=3):
    """(state, seen) pairs along a random game; ``seen`` = tiles everyone has seen."""
    game = AnchorsAweighGame(n, **options)
    s = game.new_initial_state(np.random.default_rng(seed))
    rng = np.random.default_rng(seed + 100)
    seen: set[int] = set()
    out = []
    step = 0
    while not s.is_terminal():
        seen |= set(s.pile_up)
        for p in range(n):
            for sp, c in enumerate(s.ships[p]):
                if 0 <= c < CARGO and sp in ABOVE:
                    seen.add(c)
        if game.monkey_seats:
            seen |= {s.ships[p][sp] for p in range(n) for sp in range(12)
                     if 0 <= s.ships[p][sp] < CARGO and game.tile_kind[s.ships[p][sp]] == 9
                     and p in game.monkey_seats}
            seen |= {s.hand[p] for p in game.monkey_seats if s.hand[p] >= 0}
        if step % every == 0:
            out.append((s.clone(), set(seen)))
        joint = {p: int(rng.choice(np.flatnonzero(s.legal_actions_mask(p))))
                 for p in s.current_players()}
        s.apply_joint(joint)
        step += 1
    return out


def _slots(s, p, seen):
    """Places of tiles p has not seen: ('down', i), ('hand', q), ('ship', q, space)."""
    out = [("down", i) for i in range(len(s.pile_down))]
    for q in range(s.game.num_players):
        if q == p:
            continue
        if s.hand[q] >= 0 and s.hand[q] not in seen:
            out.append(("hand", q))
        for sp in range(12):
            c = s.ships[q][sp]
            # (a storage holding cargo stays one: another tile there would be no position)
            if 0 <= c < CARGO and c not in seen and not s.stor[q][sp]:
                out.append(("ship", q, sp))
    return out


def _get(s, slot):
    if slot[0] == "down":
        return s.pile_down[slot[1]]
    if slot[0] == "hand":
        return s.hand[slot[1]]
    return s.ships[slot[1]][slot[2]]


def _put(s, slot, t):
    if slot[0] == "down":
        s.pile_down[slot[1]] = t
        s.secret[t] = False
    elif slot[0] == "hand":
        s.hand[slot[1]] = t
        s.secret[t] = True
    else:
        s.ships[slot[1]][slot[2]] = t
        s.secret[t] = True


def _swap_unseen(s, p, seen, rng):
    """Exchange two unseen tiles of different kinds in different places; False if none."""
    g = s.game
    slots = _slots(s, p, seen)
    rng.shuffle(slots)
    for i, a in enumerate(slots):
        for b in slots[i + 1:]:
            ta, tb = _get(s, a), _get(s, b)
            if a[0] == b[0] == "down" or g.tile_look[ta] == g.tile_look[tb]:
                continue
            if s.cleansed and g.tile_star[ta] != g.tile_star[tb] and "ship" in (a[0], b[0]):
                continue   # after the starfish left, everyone knows ships hold none
            _put(s, a, tb)
            _put(s, b, ta)
            s.touch()
            return True
    return False


BELOW = tuple(range(8, 14))
B_SPACES = tuple(range(8, 12))


def _rearrange_below_deck(s, q, rng):
    """Move what lies below ``q``'s deck to other places there, as the rules allow: tiles
    on B1-B4; while loading, cargo stays on C1/C2 (cargo-only spaces, all that loading
    fills); later, every token on any free space or storage tile with room. False when
    nothing could move."""
    g = s.game
    ship, stor = s.ships[q], s.stor[q]
    before = ([ship[sp] for sp in BELOW], [list(stor[sp]) for sp in BELOW])
    tiles = [ship[sp] for sp in B_SPACES if 0 <= ship[sp] < CARGO]
    tokens = [c for sp in BELOW for c in stor[sp]]
    loading = s.phase in (0, 1)
    if not loading:
        tokens += [ship[sp] - CARGO for sp in BELOW if ship[sp] >= CARGO]
    for sp in BELOW:
        stor[sp] = []
        if sp in B_SPACES or not loading:
            ship[sp] = EMPTY
    order = list(rng.permutation(B_SPACES))
    for t in tiles:
        ship[order.pop()] = t
    places = [(sp, False) for sp in BELOW if ship[sp] == EMPTY]
    places += [(sp, True) for sp in B_SPACES if 0 <= ship[sp] < CARGO
               and g.tile_kind[ship[sp]] == STORAGE for _ in range(g.comp.storage_capacity)]
    places = [places[i] for i in rng.permutation(len(places))]
    for colour, (sp, on_storage) in zip(tokens, places):
        if on_storage:
            stor[sp] = sorted(stor[sp] + [colour])
        else:
            ship[sp] = CARGO + colour
    s.touch()
    s.validate()
    return ([ship[sp] for sp in BELOW], [list(stor[sp]) for sp in BELOW]) != before


def _swap_hidden_fronts(s, rng):
    """Replace an unrevealed card of this round by an unused card with the same back."""
    g = s.game
    here = set(s.deck) | set(s.queue) | {s.current}
    places = [("deck", i) for i in range(len(s.deck))] + [("queue", i)
                                                           for i in range(len(s.queue))]
    rng.shuffle(places)

    def back(c):   # type, pirate strength or contract featured colour (the back shows it)
        return g.cards[c].back

    for where, i in places:
        lst = s.deck if where == "deck" else s.queue
        c = lst[i]
        others = [x.index for x in g.cards if x.index not in here and x.index not in s.used
                  and back(x.index) == back(c)]
        if others:
            lst[i] = others[int(rng.integers(len(others)))]
            s.touch()
            return True
    return False


@pytest.mark.parametrize("n,options", CONFIGS)
def test_unseen_tiles_deck_order_and_hidden_fronts_do_not_leak(n, options):
    rng = np.random.default_rng(n)
    checked = {"tiles": 0, "below deck": 0, "deck": 0, "fronts": 0}
    for seed in range(2):
        for s, seen in _tracked_states(n, options, seed):
            for p in range(n):
                before = _obs(s, p)
                t = s.clone()
                if _swap_unseen(t, p, seen, rng):
                    assert _same(before, _obs(t, p)), "an unseen tile leaked"
                    checked["tiles"] += 1
                q = (p + 1 + int(rng.integers(n - 1))) % n
                t = s.clone()
                if _rearrange_below_deck(t, q, rng):
                    assert _same(before, _obs(t, p)), "where things lie below deck leaked"
                    checked["below deck"] += 1
                if len(s.deck) > 1:
                    t = s.clone()
                    t.deck = [t.deck[i] for i in rng.permutation(len(t.deck))]
                    t.touch()
                    assert _same(before, _obs(t, p)), "the deck order leaked"
                    checked["deck"] += 1
                if s.fronts_hidden and not options.get("perfect_recall"):
                    t = s.clone()
                    if _swap_hidden_fronts(t, rng):
                        assert _same(before, _obs(t, p)), "hidden card fronts leaked"
                        checked["fronts"] += 1
    if options.get("perfect_recall"):
        del checked["fronts"]
    assert all(checked.values()), checked


@pytest.mark.parametrize("n,options", CONFIGS[:3])
def test_things_a_player_knows_do_change_the_observation(n, options):
    rng = np.random.default_rng(0)
    changed = {"own": 0, "public tile": 0, "fronts": 0, "pile": 0, "returns": 0}
    for s, seen in _tracked_states(n, options, seed=5):
        g = s.game
        for p in range(n):
            before = _obs(s, p)
            # p's own tile below deck or in hand, exchanged with a face-down one
            own = [sp for sp in range(12) if 0 <= s.ships[p][sp] < CARGO]
            if own and s.pile_down:
                t = s.clone()
                sp = own[0]
                j = next((j for j, x in enumerate(t.pile_down)
                          if g.tile_look[x] != g.tile_look[t.ships[p][sp]]), None)
                if j is not None:
                    t.ships[p][sp], t.pile_down[j] = t.pile_down[j], t.ships[p][sp]
                    t.touch()
                    assert not _same(before, _obs(t, p))
                    changed["own"] += 1
            # a tile everyone has seen on another ship, exchanged with a face-down one
            q = (p + 1) % n
            known = [sp for sp in range(12) if 0 <= s.ships[q][sp] < CARGO
                     and s.ships[q][sp] in seen]
            if known and s.pile_down:
                t = s.clone()
                sp = known[0]
                j = next((j for j, x in enumerate(t.pile_down)
                          if g.tile_look[x] != g.tile_look[t.ships[q][sp]]), None)
                if j is not None:
                    t.ships[q][sp], t.pile_down[j] = t.pile_down[j], t.ships[q][sp]
                    t.secret[t.ships[q][sp]] = False
                    t.touch()
                    assert not _same(before, _obs(t, p))
                    changed["public tile"] += 1
            # another seat's returns in a row (everyone sees a tile go back), below the cap
            if s.returns[q] < 5:
                t = s.clone()
                t.returns[q] += 1
                t.touch()
                assert not _same(before, _obs(t, p))
                changed["returns"] += 1
            # a face-up pile tile turned face down
            if s.pile_up:
                t = s.clone()
                t.pile_down.append(t.pile_up.pop())
                t.touch()
                assert not _same(before, _obs(t, p))
                changed["pile"] += 1
            # card fronts before the captain's call are public
            if not s.fronts_hidden and s.phase == 1:
                t = s.clone()
                if _swap_hidden_fronts(t, rng):
                    assert not _same(before, _obs(t, p))
                    changed["fronts"] += 1
    assert all(changed.values()), changed


def test_perfect_recall_shows_fronts_after_the_call():
    rng = np.random.default_rng(1)
    done = 0
    for s, _ in _tracked_states(2, {"perfect_recall": True}, seed=3):
        if s.fronts_hidden and len(s.deck) > 2:
            t = s.clone()
            if _swap_hidden_fronts(t, rng):
                assert not _same(_obs(s, 0), _obs(t, 0))
                done += 1
    assert done


def test_storage_taking_cargo_below_deck_is_not_seen():
    """Cargo stowed on a storage tile grabbed face down and kept below deck does not show
    the others that it is a storage: they see a token go behind the screen, as it would
    onto an empty below-deck space."""
    from .helpers import build
    from plunder.envs.anchors_aweigh.engine import A_RESOLVE, A_SKIP, A_STOW
    s = build(2, ships={0: ["shovel"] + [None] * 7 + ["storage"] + [None] * 3
                        + ["blue", "white"], 1: [None] * 12 + ["blue", "white"]},
              deck=["D01", "D02"])
    storage = s.ships[0][8]
    s.secret[storage] = True
    s.touch()
    s.apply_joint({0: A_RESOLVE, 1: A_SKIP})
    seen = {}
    for space in (8, 9):                  # the storage on B1, or the empty B2
        t = s.clone()
        t.apply_joint({0: A_STOW + space})
        seen[space] = _obs(t, 1)
        assert t.secret[storage]
    assert _same(seen[8], seen[9])
