"""A heuristic bot for All Hands on Deck (``all_hands_crew_v0``).

Strategy (it reads only the observation vector, by field name, and the mask):

* **Value of a crew.** ``potential(crew)`` = the score of the crew's best partition (the
  same exact solver the final scoring uses, single captains penalised) plus 0.7 x the
  expected gain of one more card, drawn from the kinds whose place it does not know
  (``unseen``). So a lone Cook is worth a little (a pair is one card away) and a lone
  captain is worth less than nothing unless a captain's table or a pair is near.
* **Drawing.** It draws from the pile whose top card it expects to help most: a top card it
  knows (one it put there itself) is valued exactly, an unknown top at the average of the
  unseen cards. Its own discards are usually bad for it, so it tends to leave them and to
  take the known good cards others cannot see. A Spyglass takes the best two-card top.
* **Hiring.** It hires the stock card that raises ``potential`` most; with Double hire it
  takes a further card when that still helps and passes otherwise.
* **Laying out.** It lays a combination only when an action or protection pays: an action
  pair when the action's worth (Curse 1, Snatch 1 if an opponent has crew cards, Double
  hire 0.8, Spyglass 0.4, Short rations 0.4 points; the last three only if another round
  follows) beats the flexibility it costs — 3 x the drop in ``potential`` while more rounds
  come, the exact drop in score in the last round; and a finished combination of its best
  partition (full street, four of a kind, three captains) once its Crew Pile holds 10+
  cards, to protect it from Snatches. (Measured: laying out early costs more flexibility
  than random opponents ever punish, so it keeps its cards most of the game.)
* **Targets.** Snatch the largest Crew Pile; Curse and Short rations hit the opponent
  who looks strongest (score plus half a point per crew card).

Measured win share against random bots (200 games each, the heuristic's seat rotating,
ties shared): 2 players (1 vs 1 random) 100.0 %, mean margin +14.4 points; 4 players
(1 vs 3 random) 97.3 % (random baseline 25 %), mean margin +9.6 points.
See envs/all_hands_crew/rules.md.
"""

from __future__ import annotations

import numpy as np

from plunder.envs.all_hands_crew.components import NUM_KINDS
from plunder.envs.all_hands_crew.observation import TOP_DEPTH
from plunder.policies.base import check_mask

LOOKAHEAD = 0.7
#: what an in-game action is worth, in points, when it can be used
ACTION_VALUE = {"curse": 1.0, "snatch": 1.0, "double_hire": 0.8, "spyglass": 0.4,
                "short_rations": 0.4}
#: laying cards out while more rounds come costs flexibility: the one-card lookahead loss
#: is multiplied by this (measured: smaller factors lay too eagerly and lose points)
FLEX_SCALE = 3.0
#: combinations that cannot grow, laid to protect them from Snatches once the Crew Pile
#: is this big
PROTECT_CATEGORIES = ("full_street", "four", "captain_three")
PROTECT_CREW = 10


class AllHandsCrewHeuristic:
    """Hires toward its best reachable combinations; see the module docstring."""

    name = "heuristic"

    def __init__(self, game, seed: int | None = None):
        self.game = game
        self.rng = np.random.default_rng(seed)
        self.part = game.partitioner
        self.n = game.num_players

    def reset(self) -> None:
        """Nothing to forget between games."""

    # -- reading the observation ----------------------------------------------------------
    def _read(self, obs, name):
        return self.game.layout.read(obs, name)

    def _unseen_probs(self, obs) -> np.ndarray:
        unseen = np.maximum(np.rint(self._read(obs, "unseen") * 12), 0)
        total = unseen.sum()
        if total <= 0:
            return np.full(NUM_KINDS, 1.0 / NUM_KINDS)
        return unseen / total

    def potential(self, crew, probs) -> float:
        """Best-partition score of ``crew`` plus the discounted expected gain of one card."""
        base, more = self.part.with_one_more(crew)
        gain = 0.0
        for k in range(NUM_KINDS):
            if probs[k] > 0:
                gain += probs[k] * max(0, more[k] - base)
        return base + LOOKAHEAD * gain

    def _card_gain(self, crew, kind, probs, base) -> float:
        c = list(crew)
        c[kind] += 1
        return self.potential(c, probs) - base

    # -- acting ---------------------------------------------------------------------------
    def act(self, observation, action_mask) -> int:
        legal = check_mask(action_mask)
        obs = np.asarray(observation, dtype=np.float32)
        phase = int(np.argmax(self._read(obs, "phase")))
        crew = [int(x) for x in np.rint(self._read(obs, "my_crew") * 6)]
        probs = self._unseen_probs(obs)
        if phase in (0, 1):
            return self._draw(obs, legal, crew, probs, extra=(phase == 1))
        if phase == 2:
            return self._hire(obs, legal, crew, probs)
        if phase == 3:
            return self._lay(obs, legal, crew)
        if phase == 4:
            return self._target(obs, legal)
        return int(legal[0])

    def _draw(self, obs, legal, crew, probs, extra) -> int:
        g = self.game
        base = self.potential(crew, probs)
        gains = [self._card_gain(crew, k, probs, base) for k in range(NUM_KINDS)]
        unknown = float(np.dot(probs, gains))
        tops = self._read(obs, "pile_top").reshape(self.n, TOP_DEPTH, NUM_KINDS + 1)
        best, best_v = [], -1e9
        for a in legal:
            if a == g.actions.pass_turn:
                continue
            j = int(a - g.actions.draw)
            v = 0.0
            for depth in range(2 if extra else 1):
                row = tops[j, depth]
                if row[:NUM_KINDS].any():
                    v += gains[int(np.argmax(row[:NUM_KINDS]))]
                elif row[NUM_KINDS]:
                    v += unknown
            if v > best_v + 1e-9:
                best, best_v = [a], v
            elif abs(v - best_v) <= 1e-9:
                best.append(a)
        if not best:
            return int(legal[0])
        return int(best[int(self.rng.integers(len(best)))])

    def _hire(self, obs, legal, crew, probs) -> int:
        g = self.game
        s = g.max_stock
        width = 2 + NUM_KINDS + self.n
        stock = self._read(obs, "my_stock").reshape(s, width)
        picked = [int(np.argmax(stock[i, 2:2 + NUM_KINDS])) for i in range(s)
                  if stock[i, 0] and stock[i, 1]]
        c = list(crew)
        for k in picked:  # picks of this hiring phase are not in the crew yet
            c[k] += 1
        base = self.potential(c, probs)
        best, best_v = None, -1e9
        for a in legal:
            if a == g.actions.pass_turn:
                continue
            slot = int(a - g.actions.hire)
            kind = int(np.argmax(stock[slot, 2:2 + NUM_KINDS]))
            v = self._card_gain(c, kind, probs, base) + 1e-6 * self.rng.random()
            if v > best_v:
                best, best_v = a, v
        if g.actions.pass_turn in legal and (best is None or best_v < 0):
            return int(g.actions.pass_turn)
        return int(best if best is not None else legal[0])

    def _lay(self, obs, legal, crew) -> int:
        g = self.game
        probs = self._unseen_probs(obs)
        sizes = np.rint(self._read(obs, "crew_size") * 20)
        another_round = self._read(obs, "cards_in_piles")[0] * 90 >= self.n - 0.5
        if another_round:  # future cards still come: weigh lost flexibility heavily
            worth = lambda c: self.potential(c, probs)  # noqa: E731
            scale = FLEX_SCALE
        else:              # the last round: what the crew scores now is what it will score
            worth, scale = self.part.value, 1.0
        value = worth(crew)
        best_combos = self.part.partition(crew)[1] if sum(crew) >= PROTECT_CREW else ()
        options = []
        for a in legal:
            if a == g.actions.pass_turn:
                continue
            cb = g.combos[int(a - g.actions.lay)]
            rest = [x - y for x, y in zip(crew, cb.counts)]
            loss = scale * (value - (worth(rest) + cb.points))
            if cb.category == "pair" and cb.action != "none":
                if cb.action == "snatch" and sizes[1:].sum() == 0:
                    continue
                if cb.action in ("double_hire", "spyglass", "short_rations") \
                        and not another_round:
                    continue
                gain = ACTION_VALUE[cb.action] - loss
                if gain > 0:
                    options.append((gain, int(a)))
            elif (another_round and cb.category in PROTECT_CATEGORIES
                  and int(a - g.actions.lay) in best_combos and loss <= 0):
                options.append((0.05, int(a)))  # protect a finished combination
        if options:
            return max(options)[1]
        return int(g.actions.pass_turn)

    def _target(self, obs, legal) -> int:
        g = self.game
        pending = int(np.argmax(self._read(obs, "pending_action")))
        sizes = self._read(obs, "crew_size") * 20
        scores = self._read(obs, "score") * 60
        best, best_v = None, -1e9
        for a in legal:
            if a == g.actions.pass_turn:
                continue
            j = int(a - g.actions.target + 1)
            v = sizes[j] if pending == 0 else scores[j] + 0.5 * sizes[j]
            v += 1e-6 * self.rng.random()
            if v > best_v:
                best, best_v = a, v
        return int(best if best is not None else g.actions.pass_turn)
