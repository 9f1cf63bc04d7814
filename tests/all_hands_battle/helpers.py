"""Builders of hand-made All Hands On Deck positions for scenario tests."""

from __future__ import annotations

import numpy as np

from plunder.envs.all_hands_battle import AllHandsBattleGame
from plunder.envs.all_hands_battle.engine import TURN


class Cards:
    """Card ids by name; repeated names give successive copies ("Gold", "Gold")."""

    def __init__(self, game: AllHandsBattleGame):
        self.game = game
        self.used: set[int] = set()

    def __call__(self, *names: str) -> list[int]:
        out = []
        for name in names:
            for card in self.game.cards:
                if card.name == name and card.id not in self.used:
                    self.used.add(card.id)
                    out.append(card.id)
                    break
            else:
                raise KeyError(f"no unused card named {name!r}")
        return out

    def one(self, name: str) -> int:
        return self(name)[0]


def recruit_state(game, hands: dict[int, list[int]], turn: int = 0, seed: int = 0,
                  deck_top: list[int] = (), discard: list[int] = (),
                  ships: dict[int, list[tuple[int, list[int]]]] | None = None):
    """Recruiting, ``turn`` to act after its draw; unnamed cards fill hands then the deck.

    Seats not in ``hands`` get 12 filler cards; the turn player's hand is used as given
    (pass 13 cards for a normal post-draw hand). ``deck_top`` ends up on top of the pile;
    ``ships`` are already launched (master, crew) per seat.
    """
    s = game.new_initial_state(np.random.default_rng(seed))
    n = game.num_players
    ships = ships or {}
    s.ships = [[] for _ in range(n)]
    named = set()
    for p, fleet in ships.items():
        for master, crew in fleet:
            s.ships[p].append([master, sorted(crew), True, p, False])
            named.add(master)
            named.update(crew)
    for cards in hands.values():
        named.update(cards)
    named.update(deck_top)
    named.update(discard)
    free = [c for c in range(game.num_cards) if c not in named]
    s.hands = []
    for p in range(n):
        if p in hands:
            s.hands.append(sorted(hands[p]))
        else:
            s.hands.append(sorted(free[:12]))
            del free[:12]
    s.deck = free + list(reversed(deck_top))
    s.discard = list(discard)
    s.turn_player = s.actor = turn
    s.decision = TURN
    s.starter = turn
    s.events = []
    assert s.all_cards() == list(range(game.num_cards))
    return s


def battle_state(game, fleets: dict[int, list[tuple[int, list[int]]]], first_fleet: int = 0,
                 hands: dict[int, list[int]] | None = None, seed: int = 0):
    """Naval battles about to begin with the given ships (master, crew) per seat.

    Every other card goes to the draw pile (it plays no part in battles)."""
    s = game.new_initial_state(np.random.default_rng(seed))
    n = game.num_players
    hands = hands or {}
    used = set()
    s.ships = [[] for _ in range(n)]
    for p, fleet in fleets.items():
        for master, crew in fleet:
            s.ships[p].append([master, sorted(crew), True, p, False])
            used.add(master)
            used.update(crew)
    s.hands = [sorted(hands.get(p, [])) for p in range(n)]
    for h in s.hands:
        used.update(h)
    s.deck = [c for c in range(game.num_cards) if c not in used]
    s.discard = []
    s.reserved = [-1] * n
    s.first_fleet = first_fleet
    s.last_turns = []
    s.events = []
    s._start_battles()
    assert s.all_cards() == list(range(game.num_cards))
    return s


def act(state, action: int) -> None:
    """Apply an action of the single acting player (raises if illegal)."""
    state.apply_action(int(action))


def legal(state) -> list[int]:
    """Legal actions of the acting player."""
    return state.legal_actions()
