"""Doubloons — play one hidden card at once, the highest takes the round (2-3 players).

Nine cards, valued 1 to 9, are shuffled; each player is dealt three, the rest are set
aside unseen. In each of three rounds every player chooses a card from their hand at the
same time; the cards are then shown and the highest one scores its player a point.

Agents
    ``player_0`` … ``player_{n-1}``; every round is one simultaneous decision.

Action space
    ``Discrete(9)``: action k plays the card valued k + 1 (only cards in hand are legal).

Observation
    Own hand, every card shown so far, the points (own first) and the round. The other
    hands and the set-aside cards are hidden.

Rewards
    Zero until the end; ``rank`` by default (``win``, ``score``: the points).

Version history
    v0: first release.
"""

from __future__ import annotations

import numpy as np

from plunder.envs.core import Game, GameState, InvalidStateError, LayoutBuilder
from plunder.envs.core import rng_from_dict, rng_to_dict
from plunder.envs.core.state_io import check_int, check_int_lists, check_keys

CARDS, HAND, ROUNDS = 9, 3, 3


class DoubloonsGame(Game):
    name = "doubloons"
    version = 0
    min_players = 2
    max_players = 3
    simultaneous = True
    default_max_turns = ROUNDS

    num_actions = CARDS

    def action_name(self, action: int) -> str:
        return f"play {action + 1}"

    @property
    def layout(self):
        if not hasattr(self, "_layout"):
            b = LayoutBuilder()
            b.add("hand", CARDS, "1 if the card valued k + 1 is in your hand")
            b.add("shown", CARDS, "1 if the card valued k + 1 has been played")
            b.add("points", self.num_players, "points / rounds, own first", 0, 1)
            b.add("round", 1, "round / rounds", 0, 1)
            self._layout = b.build()
        return self._layout

    def encode(self, view) -> np.ndarray:
        obs = np.zeros(self.layout.size, np.float32)
        n = self.num_players
        for card in view["hand"]:
            obs[card - 1] = 1
        for played in view["played"]:
            for card in played:
                obs[CARDS + card - 1] = 1
        for k in range(n):
            obs[2 * CARDS + k] = view["points"][(view["me"] + k) % n] / ROUNDS
        obs[2 * CARDS + n] = len(view["played"]) / ROUNDS
        return obs

    def new_initial_state(self, rng: np.random.Generator) -> "DoubloonsState":
        deck = (rng.permutation(CARDS) + 1).tolist()
        hands = [sorted(deck[HAND * p:HAND * (p + 1)]) for p in range(self.num_players)]
        return DoubloonsState(self, rng, hands, [])

    def sample_state(self, view, rng: np.random.Generator) -> "DoubloonsState":
        """Deal the cards ``view["me"]`` has not seen to the other hands at random."""
        me, left = view["me"], HAND - len(view["played"])
        seen = set(view["hand"]) | {c for played in view["played"] for c in played}
        unseen = [c for c in range(1, CARDS + 1) if c not in seen]
        unseen = [unseen[i] for i in rng.permutation(len(unseen))]
        hands = []
        for p in range(self.num_players):
            hands.append(sorted(view["hand"]) if p == me else sorted(unseen[:left]))
            if p != me:
                unseen = unseen[left:]
        return DoubloonsState(self, rng, hands, [list(r) for r in view["played"]])

    def _load_state(self, data) -> "DoubloonsState":
        check_keys(data, "state", ("rng", "hands", "played", "turns"))
        n = self.num_players
        hands = check_int_lists(data["hands"], "hands", n, low=1, high=CARDS, max_inner=HAND)
        played = check_int_lists(data["played"], "played", inner_length=n, low=1, high=CARDS)
        state = DoubloonsState(self, rng_from_dict(data["rng"]), [list(h) for h in hands],
                               [list(r) for r in played])
        state.turns = check_int(data["turns"], "turns", 0, ROUNDS)
        return state


class DoubloonsState(GameState):
    def __init__(self, game, rng, hands: list[list[int]], played: list[list[int]]):
        super().__init__(game, rng)
        self.hands = hands          # each player's cards, sorted (hidden from the others)
        self.played = played        # per finished round, the card of each seat (public)
        self.turns = len(played)

    def current_players(self) -> tuple[int, ...]:
        return () if self.is_terminal() else tuple(range(self.game.num_players))

    def legal_actions_mask(self, player: int) -> np.ndarray:
        mask = np.zeros(CARDS, np.int8)
        if not self.is_terminal():
            for card in self.hands[player]:
                mask[card - 1] = 1
        return mask

    def _apply(self, actions: dict[int, int]) -> None:
        cards = [actions[p] + 1 for p in range(self.game.num_players)]
        for p, card in enumerate(cards):
            self.hands[p].remove(card)
        self.played.append(cards)
        self.turns += 1

    def is_terminal(self) -> bool:
        return len(self.played) == ROUNDS

    def scores(self) -> list[float]:
        points = [0.0] * self.game.num_players
        for cards in self.played:
            points[cards.index(max(cards))] += 1
        return points

    def validate(self) -> None:
        cards = [c for h in self.hands for c in h] + [c for r in self.played for c in r]
        if len(set(cards)) != len(cards):
            raise InvalidStateError(f"a card is in two places: {sorted(cards)}")
        if any(len(h) != HAND - len(self.played) for h in self.hands):
            raise InvalidStateError("every hand holds one card per round still to play")

    def view(self, player: int) -> dict:
        return {"me": player, "hand": tuple(self.hands[player]),
                "played": tuple(tuple(r) for r in self.played),
                "points": tuple(self.scores())}

    def to_dict(self) -> dict:
        return {"rng": rng_to_dict(self.rng), "hands": [list(h) for h in self.hands],
                "played": [list(r) for r in self.played], "turns": self.turns}
