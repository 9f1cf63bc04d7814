"""``sample_state``: a full All Hands On Deck state consistent with one player's view.

Every card the viewer cannot place is redrawn, keeping every count: the draw pile (only
from the last reshuffle's cards when there was one), opponents' hands, their face-down
crews (legal crews for the shipmaster where the remaining cards allow; a raided ship holds
no treasure) and the crew of a ship an opponent is launching (completable from the hand it
is given). Cards publicly known to be with an opponent stay with that opponent.
"""

from __future__ import annotations

import numpy as np

from .observation import unseen_cards
from .view import AllHandsBattleView


def _take(pool: list[int], count: int, ok, rng) -> list[int]:
    """Remove and return ``count`` cards of ``pool`` (preferring ones ``ok`` accepts)."""
    good = [c for c in pool if ok(c)]
    order = [good[int(i)] for i in rng.permutation(len(good))]
    chosen = order[:count]
    if len(chosen) < count:
        rest = [c for c in pool if c not in chosen]
        rest = [rest[int(i)] for i in rng.permutation(len(rest))]
        chosen += rest[:count - len(chosen)]
    for c in chosen:
        pool.remove(c)
    return chosen


def sample_state(game, view: AllHandsBattleView, rng: np.random.Generator):
    """A state whose ``view(view.player)`` equals ``view``."""
    from .engine import AllHandsBattleState

    n = game.num_players
    p = view.player
    rules = game.rules
    crew_size = game.components.crew_per_ship
    s = AllHandsBattleState(game, np.random.default_rng(int(rng.integers(2**63 - 1))))
    pool = unseen_cards(game, view)
    tied = {c: q for q, cards in enumerate(view.known_with) if q != p for c in cards}
    free = [c for c in pool if c not in tied]

    # the draw pile
    if view.reshuffled:
        cand = set(view.reshuffled)
        deck = _take(free, view.deck_size, lambda c: c in cand, rng)
    else:
        deck = _take(free, view.deck_size, lambda c: True, rng)
    s.deck = [int(c) for c in rng.permutation(deck)] if deck else []

    hands = [list(view.hand) if q == p else [] for q in range(n)]
    ships = [None] * n
    launch_crew = list(view.launch_crew)
    for q in range(n):
        if q == p:
            ships[q] = [[sh.master, list(sh.crew), sh.in_play, sh.keeper, sh.revealed]
                        for sh in view.ships[q]]
            continue
        if q == view.turn_player and view.launch_master >= 0:
            # a legal crew for the launch: its first cards are placed, the rest in hand
            m = view.launch_master
            full = _take(free, crew_size, lambda c: c in rules.elig[m], rng)
            launch_crew = full[:view.launch_count]
            hands[q].extend(full[view.launch_count:])
        own = [c for c, who in tied.items() if who == q]
        own = [own[int(i)] for i in rng.permutation(len(own))]
        room = max(0, view.hand_sizes[q] - len(hands[q]))
        hands[q].extend(own[:room])
        excess = own[room:]          # public cards that must sit in face-down crews
        row = []
        for sh in view.ships[q]:
            if sh.crew is not None:
                crew = list(sh.crew)
            else:
                elig = rules.elig[sh.master]
                raided = sh.crew_count < crew_size

                def ok(c, elig=elig, raided=raided):
                    return c in elig and not (raided and rules.is_treasure[c])
                crew = _take(excess, min(len(excess), sh.crew_count), ok, rng)
                crew += _take(free, sh.crew_count - len(crew), ok, rng)
            row.append([sh.master, sorted(int(c) for c in crew), sh.in_play, sh.keeper,
                        sh.revealed])
        ships[q] = row
        free.extend(excess)          # only if the view was inconsistent; keeps counts
    for q in range(n):
        if q != p:
            hands[q].extend(_take(free, view.hand_sizes[q] - len(hands[q]), lambda c: True,
                                  rng))
    s.hands = [sorted(int(c) for c in h) for h in hands]
    s.ships = ships
    s.round = view.round
    s.starter = view.starter
    s.totals = list(view.totals)
    s.last_round = list(view.last_round)
    s.phase = view.phase
    s.decision = view.decision
    s.actor = view.actor
    s.turn_player = view.turn_player
    s.discard = list(view.discard)
    s.reserved = list(view.reserved)
    s.known_with = [list(k) for k in view.known_with]
    s.plunder = [list(x) for x in view.plunder]
    s.launch_master = view.launch_master
    s.launch_crew = [int(c) for c in launch_crew]
    s.launched = view.launched
    s.claim_queue = list(view.claim_queue)
    s.first_fleet = view.first_fleet
    s.last_turns = list(view.last_turns)
    s.reshuffled = list(view.reshuffled)
    s.passed = list(view.passed)
    s.forced = view.forced
    s.selected = view.selected
    s.spies_used = view.spies_used
    s.spied = [list(x) for x in view.spied]
    s.events = list(view.events)
    s.turns = view.turns
    return s
