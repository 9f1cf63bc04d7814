"""A heuristic bot for All Hands On Deck (``all_hands_battle_v0``).

Strategy (it reads only the observation vector, by field name, and the mask; card data
and the ship rules come from the public component table):

* **Launching.** On its turn it launches the strongest legal ship it can build from its
  hand: every legal crew of every shipmaster on offer is scored by its battle strength
  (effective duelling levels as ``ShipRules.levels`` computes them, shipmaster rank, a big
  bonus for a Black Spot) plus its treasure's value, and the best one is built step by step.
* **Discarding.** It discards the card it needs least: treasure it cannot stow (no Merchant
  or Privateer shipmaster in hand; the Governor's Daughter needs a Navy or Privateer one)
  goes first, so white flags do not stay in hand; then weak crew of suits it has no
  shipmaster for; shipmasters, Privateers and specials are kept. On its last turn it sheds
  the costliest red or white flag.
* **Aargh!** It claims a discard when the card lets it build a ship it could not build
  before, or makes its best ship clearly stronger.
* **Battles.** For every ship it may attack with and every legal target it estimates the
  chance to win, lose or sink: exact when the target's crew is known (revealed, or seen by
  its Spy), otherwise by sampling crews for the target's shipmaster from the cards it has
  not seen (24 samples) and resolving each with the real battle rules (Raider plunder,
  Black Spot, Prize Crew, duels, rank). It attacks where the estimate wins (expected gain
  above a small margin), lets a Spy look first at the most valuable unknown target, and
  passes otherwise (the first fleet's compulsory attacks take the best estimate).

Measured win share against random players (the heuristic's seat rotated game by game,
target 500): 2 players 1.00 of 200 games (fair share 0.50); 4 players (1 heuristic vs 3
random) 1.00 of 200 games (fair share 0.25); 3 and 5 players 1.00 of 100 games each; 4
players with Prize Crew or Alternate Aargh! 1.00 of 100 games each.
See ``envs/all_hands_battle/rules.md``.
"""

from __future__ import annotations

import numpy as np

from plunder.envs.all_hands_battle.components import (
    BLACK_SPOT, DAUGHTER, NO_SUIT, SPY, TREASURE,
)
from plunder.envs.all_hands_battle.engine import DECISIONS
from plunder.envs.all_hands_battle.ships import ATTACKER, DEFENDER, RAID

from .base import check_mask

_SAMPLES = 24


class AllHandsBattleHeuristic:
    """Builds the strongest ships, claims what completes a ship, attacks where it wins."""

    name = "heuristic"

    def __init__(self, game, seed: int | None = None):
        self.game = game
        self.rules = game.rules
        self.cards = game.cards
        self.A = game.actions
        self.layout = game.layout
        self.n = game.num_players
        self.S = game.components.ships_per_fleet
        self.C = game.num_cards
        self.rng = np.random.default_rng(seed)
        self.plan: tuple[int, tuple[int, ...]] | None = None

    def reset(self) -> None:
        """Forget the launch plan."""
        self.plan = None

    # -- reading the observation -----------------------------------------------------------
    def _read(self, obs, name):
        return self.layout.read(obs, name)

    def _cards(self, obs, name):
        return [int(c) for c in np.flatnonzero(self._read(obs, name))]

    # -- discards ------------------------------------------------------------------------------
    def card_keep_value(self, c: int, hand, last_turn: bool) -> float:
        rules = self.rules
        card = self.cards[c]
        masters = [m for m in hand if rules.is_master[m] and m != c]
        if last_turn:
            return -card.penalty
        if card.kind in (TREASURE, DAUGHTER):
            stowable = any(c in rules.elig[m] for m in masters)
            return 2.0 if stowable else -10.0 - card.penalty / 5.0
        if rules.is_master[c]:
            crew = sum(1 for x in hand if x != c and x in rules.elig[c])
            return 6.0 + rules.rank[c] + 2.0 * min(crew, 3) - (0 if crew else card.penalty / 3)
        fits = sum(1 for m in masters if c in rules.elig[m])
        special = 8.0 if card.kind == BLACK_SPOT else 0.0
        return card.level / 2.0 + 3.0 * min(fits, 2) + special + (3.0 if card.suit == NO_SUIT else 0)

    def choose_discard(self, hand, legal, last_turn: bool) -> int:
        A = self.A
        options = [a - A.discard for a in legal if a < A.master]
        scored = [(self.card_keep_value(c, hand, last_turn), self.rng.random(), c) for c in options]
        return A.discard + min(scored)[2]

    # -- acting ------------------------------------------------------------------------------
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A legal action following the documented strategy."""
        legal = check_mask(action_mask)
        legal_set = set(int(a) for a in legal)
        obs = observation
        A = self.A
        decision = DECISIONS[int(np.argmax(self._read(obs, "decision")))]
        if decision in ("turn", "discard"):
            hand = self._cards(obs, "hand")
            last_turn = self._read(obs, "last_turns")[0] > 0
            if decision == "turn":
                masters = [a - A.master for a in legal if A.master <= a < A.crew]
                best = self.rules.best_launch(hand, masters) if masters else None
                if best is not None:
                    self.plan = (best[1], tuple(best[2]))
                    return A.master + best[1]
            self.plan = None
            return self.choose_discard(hand, legal, last_turn)
        if decision == "crew":
            choices = [a - A.crew for a in legal]
            if self.plan is not None:
                for c in self.plan[1]:
                    if c in choices:
                        return A.crew + c
            hand = self._cards(obs, "hand")
            master = self._cards(obs, "launch_master")[0]
            placed = self._cards(obs, "launch_crew")
            best = None
            for crew in self.rules.legal_crews(master, hand + placed):
                if all(x in crew for x in placed):
                    v = self.rules.launch_value(master, crew)
                    if best is None or v > best[0]:
                        best = (v, crew)
            if best is not None:
                for c in best[1]:
                    if c in choices:
                        return A.crew + c
            return int(legal[0])
        if decision == "claim":
            if A.claim in legal_set and self.wants_claim(obs):
                return A.claim
            return A.no_claim
        if decision in ("select", "aim"):
            return self.battle(obs, legal, legal_set, decision)
        return int(legal[0])

    def wants_claim(self, obs) -> bool:
        hand = self._cards(obs, "hand")
        top = self._cards(obs, "discard_top")
        if not top:
            return False
        card = top[0]
        ships = int(self._read(obs, "ship_launched")[:self.S].sum())
        if ships >= self.S:
            return False
        before = self.rules.best_launch(hand)
        after = self.rules.best_launch(hand + [card])
        if after is None:
            return False
        if before is None:
            return card in after[2] or card == after[1]
        return after[0] >= before[0] + 6.0

    # -- battles -------------------------------------------------------------------------
    def _ships(self, obs):
        """Per (relative seat, slot): (master, in_play, crew or None, crew_count)."""
        S, n, C = self.S, self.n, self.C
        launched = self._read(obs, "ship_launched")
        in_play = self._read(obs, "ship_in_play")
        known = self._read(obs, "ship_crew_known")
        crew = self._read(obs, "ship_crew").reshape(n * S, C)
        count = self._read(obs, "ship_crew_count")
        master_of = self._masters(obs)
        out = {}
        for k in range(n * S):
            if launched[k] > 0:
                r, j = divmod(k, S)
                cards = [int(c) for c in np.flatnonzero(crew[k])] if known[k] > 0 else None
                out[(r, j)] = (master_of.get(k), in_play[k] > 0, cards,
                               int(round(count[k] * 3)))
        return out

    def _masters(self, obs):
        """Shipmaster card of each launched ship, inferred from suit and rank fields.

        The observation names the suit and rank; the exact card id does not matter for
        battles, so a representative card of that suit and rank is used.
        """
        S, n = self.S, self.n
        suit = self._read(obs, "ship_suit").reshape(n * S, 5)
        rank = self._read(obs, "ship_rank").reshape(n * S, 3)
        launched = self._read(obs, "ship_launched")
        out = {}
        for k in range(n * S):
            if launched[k] > 0:
                s = int(np.argmax(suit[k]))
                r = int(np.argmax(rank[k]))
                out[k] = self._representative(s, r)
        return out

    def _representative(self, suit: int, rank_index: int) -> int:
        key = (suit, rank_index)
        cache = self.__dict__.setdefault("_rep", {})
        if key not in cache:
            want_rank = (3, 2, 1)[rank_index]
            want_suit = NO_SUIT if suit == 4 else suit
            cache[key] = next(c.id for c in self.cards
                              if c.rank == want_rank and c.suit == want_suit)
        return cache[key]

    def estimate(self, my_master, my_crew, target, unseen, my_treasure):
        """Expected gain of attacking ``target`` = (master, in_play, crew, count)."""
        rules = self.rules
        t_master, _, t_crew, t_count = target
        if t_crew is not None:
            samples = [t_crew]
        else:
            pool = [c for c in unseen if c in rules.elig[t_master]]
            others = [c for c in unseen if c not in rules.elig[t_master]]
            samples = []
            for _ in range(_SAMPLES):
                if len(pool) >= t_count:
                    pick = list(self.rng.choice(pool, size=t_count, replace=False))
                else:
                    extra = list(self.rng.choice(others, size=t_count - len(pool),
                                                 replace=False)) if others else []
                    pick = pool + extra
                samples.append([int(c) for c in pick])
        gain = 0.0
        for crew in samples:
            res = rules.resolve(my_master, my_crew, t_master, crew)
            t_value = sum(rules.value[c] for c in crew)
            if res.outcome == RAID:
                gain += sum(rules.value[c] for c in res.plunder) / 25.0
            elif res.outcome == ATTACKER:
                gain += 1.0 + t_value / 25.0
            elif res.outcome == DEFENDER:
                gain -= 1.0 + my_treasure / 25.0
            else:
                gain -= 0.5 * (1.0 + my_treasure / 25.0)
        return gain / len(samples)

    def battle(self, obs, legal, legal_set, decision) -> int:
        A, S = self.A, self.S
        ships = self._ships(obs)
        unseen = self._cards(obs, "unseen")
        forced = self._read(obs, "forced")[0] > 0
        if decision == "select":
            mine = [a - A.select for a in legal if A.select <= a < A.select + S]
        else:
            mine = [int(np.argmax(self._read(obs, "selected")))]
        best = None
        for k in mine:
            my = ships.get((0, k))
            if my is None or my[2] is None:
                continue
            my_master = self._own_master(obs, k)
            my_treasure = sum(self.rules.value[c] for c in my[2])
            for (r, j), target in ships.items():
                if r == 0 or not target[1] or target[0] is None:
                    continue
                if not self.rules.may_attack(my_master, target[0]):
                    continue
                idx = A.target_index(r, j)
                if decision == "aim" and A.attack + idx not in legal_set:
                    continue
                gain = self.estimate(my_master, my[2], target, unseen, my_treasure)
                if best is None or gain > best[0]:
                    best = (gain, k, idx, target[2] is None)
        if decision == "select":
            if best is None:
                return int(legal[0])
            if best[0] <= 0.05 and not forced and A.pass_battle in legal_set:
                # a Spy may find a better target: look before passing
                if self._has_spy(obs, best[1]):
                    return A.select + best[1]
                return A.pass_battle
            return A.select + best[1]
        # aim: let the Spy look at the best unknown target first
        if best is not None and best[3] and A.spy + best[2] in legal_set:
            return A.spy + best[2]
        if best is None:
            return int(legal[0])
        if best[0] <= 0.05 and not forced and A.pass_battle in legal_set:
            return A.pass_battle
        return A.attack + best[2]

    def _own_master(self, obs, k: int) -> int:
        return self._masters(obs)[k]

    def _has_spy(self, obs, k: int) -> bool:
        crew = self._ships(obs).get((0, k))
        return bool(crew and crew[2] and any(self.rules.kind[c] == SPY for c in crew[2]))
