"""A Scallywags bot with a real strategy, reading only the observation and the mask.

Strategy. Every coin whose value the bot has not seen is worth the mean of the unseen
values (E, shown in the observation). A slot in a take is worth E, so putting coin v into
your own take gains v - E, and taking it from an opponent hurts them by v - E; harm counts
fully with 2 players and half with more, and doubly against the current leader. At the
start of a turn it prices every legal move and plays the best:

- PIECES OF EIGHT!: steal the opponent coin worth most (own gain + harm);
- GIVES US ME BOOTY! / SHIVER ME TIMBERS!: grab the best face-up coin if it beats E;
- AVAST ME HEARTIES!: swap its lowest known face-down coin for an opponent's best one;
- ARRGH!: send a valuable coin out of the leader's take;
- YO HO HO!: give the lowest face-up coin (a skull) to the leader;
- UM, LIKE, LAND HO!: peek at an unknown coin and take the best known face-down coin;
- BLOW ME DOWN!: look at two middle coins, hand the worse one to the leader;
- otherwise take a face-down coin, preferring one it knows to be valuable.

A card is only played when its gain beats what keeping it is worth. Out of turn it
blocks with HANDS OFF ME BOOTY! when the action would cost it more than 1.5 points.
When forced to discard it throws the card it values least.

Measured (``plunder eval``-style, 400 games, seats rotated): see envs/scallywags/rules.md.
"""

from __future__ import annotations

import numpy as np

from plunder.envs.scallywags.components import (
    ARRGH, AVAST, BLOW, BOOTY, HANDS_OFF, LAND_HO, NUM_CARDS, PIECES, SHIVER, YO_HO,
)

from .base import check_mask

SEATS = 6
#: how much keeping a card in hand is worth (a play must gain more than this)
KEEP_VALUE = {ARRGH: 0.8, AVAST: 1.0, BLOW: 0.2, BOOTY: 0.5, SHIVER: 0.5, LAND_HO: 1.0,
              PIECES: 2.0, YO_HO: 0.5, HANDS_OFF: 99.0}
BLOCK_THRESHOLD = 1.5


class _Table:
    """The parts of one observation the bot reasons with (seats relative, 0 = me)."""

    def __init__(self, game, obs: np.ndarray):
        lay, nc = game.layout, game.num_coins
        values = np.asarray(game.components.distinct_values, np.float32)
        read = lambda name: lay.read(obs, name)  # noqa: E731
        self.n = int(read("seat_present").sum())
        self.limit = game.take_limit
        self.mean = float(read("unknown_mean")[0]) * 8
        onehot = read("coin_value").reshape(nc, len(values))
        self.known = read("coin_value_known") > 0.5
        self.value = np.where(self.known, onehot @ values, self.mean)
        self.face_up = read("coin_face_up") > 0.5
        self.in_middle = read("coin_in_middle") > 0.5
        take = read("coin_in_take").reshape(nc, SEATS)
        self.owner = np.where(take.any(axis=1), take.argmax(axis=1), -1)
        self.selected = np.flatnonzero(read("coin_selected") > 0.5)
        self.hand = np.rint(read("hand") * game.components.hand_size).astype(int)
        self.take_size = np.rint(read("take_size") * self.limit).astype(int)
        self.phase = int(read("phase").argmax())
        self.card = int(read("pending_card").argmax()) if read("pending_card").any() else -1
        self.receivers = np.flatnonzero(read("pending_receiver") > 0.5)
        self.step = int(round(float(read("pending_step")[0]) * 4))
        totals = np.array([self.value[self.owner == d].sum() for d in range(SEATS)])
        self.totals = totals
        opp = list(range(1, self.n))
        self.leader = max(opp, key=lambda d: totals[d]) if opp else 1

    def weight(self, d: int) -> float:
        """How much hurting seat offset ``d`` is worth to me per point."""
        base = 1.0 if self.n == 2 else 0.5
        return base * (2.0 if d == self.leader and self.n > 2 else 1.0)

    def room(self, d: int) -> int:
        """Room left in seat offset ``d``'s take."""
        return self.limit - int(self.take_size[d])


class ScallywagsHeuristic:
    """Greedy value-of-coins bot (strategy in the module docstring)."""

    name = "heuristic"

    def __init__(self, game, seed: int | None = None):
        self.game = game
        self.acts = game.actions
        self.rng = np.random.default_rng(seed)

    def reset(self) -> None:
        """No memory between games."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The best-priced legal action."""
        legal = check_mask(action_mask)
        t = _Table(self.game, observation)
        a = self.acts
        if action_mask[a.allow]:
            return self._block_or_allow(t, action_mask)
        if t.phase == 1:
            choice = self._next_target(t, action_mask)
            if choice is not None and action_mask[choice]:
                return int(choice)
            return int(self.rng.choice(legal))
        best, best_gain = None, -np.inf
        for k in range(NUM_CARDS):
            if action_mask[a.play + k]:
                gain = self._card_gain(t, k, action_mask) - KEEP_VALUE[k]
                if gain > best_gain:
                    best, best_gain = a.play + k, gain
        coins = [c for c in range(self.game.num_coins) if action_mask[a.coin + c]]
        if coins:
            c = max(coins, key=lambda c: t.value[c])
            gain = t.value[c] - t.mean
            if best is None or gain >= best_gain:
                best, best_gain = a.coin + c, gain
        if best is not None:
            return int(best)
        discards = [k for k in range(NUM_CARDS) if action_mask[a.discard + k]]
        return int(a.discard + min(discards, key=lambda k: KEEP_VALUE[k]))

    # -- pricing ------------------------------------------------------------------------
    def _opp_coins(self, t: _Table, face_down_only=False):
        return [c for c in range(self.game.num_coins)
                if t.owner[c] > 0 and not (face_down_only and t.face_up[c])]

    def _card_gain(self, t: _Table, card: int, mask) -> float:
        plan = self._plan(t, card)
        return plan[0] if plan else -np.inf

    def _plan(self, t: _Table, card: int):
        """(gain, [targets as action indices]) of the best way to play ``card`` from here."""
        a, n, nc = self.acts, t.n, self.game.num_coins
        mid_up = [c for c in range(nc) if t.in_middle[c] and t.face_up[c]]
        mid_down = [c for c in range(nc) if t.in_middle[c] and not t.face_up[c]]
        opp_rooms = [d for d in range(1, n) if t.room(d) >= 1]
        if card in (PIECES, ARRGH):
            coins = self._opp_coins(t)
            if not coins:
                return None
            own = 1.0 if card == PIECES else 0.0
            score = lambda c: own * (t.value[c] - t.mean) + t.weight(t.owner[c]) * (  # noqa: E731
                t.value[c] - t.mean)
            c = max(coins, key=score)
            return score(c), [a.coin + c]
        if card == AVAST:
            mine = [c for c in range(nc) if t.owner[c] == 0 and not t.face_up[c]]
            theirs = self._opp_coins(t, face_down_only=True)
            if not mine or not theirs:
                return None
            m = min(mine, key=lambda c: t.value[c])
            o = max(theirs, key=lambda c: t.value[c] + 0.01 * t.weight(t.owner[c]))
            diff = t.value[o] - t.value[m]
            return diff * (1 + t.weight(t.owner[o])), [a.coin + m, a.coin + o]
        if card in (BOOTY, SHIVER):
            if not mid_up:
                return None
            c = max(mid_up, key=lambda c: t.value[c])
            if card == BOOTY:
                return t.value[c] - t.mean, [a.coin + c]
            d = max(mid_down, key=lambda c: t.value[c]) if mid_down else None
            if d is None:
                return None
            return (t.value[c] - t.mean) + (t.value[d] - t.mean), [a.coin + d, a.coin + c]
        if card == YO_HO:
            if not mid_up or not opp_rooms:
                return None
            c = min(mid_up, key=lambda c: t.value[c])
            d = max(opp_rooms, key=lambda d: t.weight(d))
            return t.weight(d) * (t.mean - t.value[c]), [a.coin + c, a.player + d - 1]
        if card == LAND_HO:
            pool = mid_down + self._opp_coins(t, face_down_only=True)
            if not pool:
                return None
            unknown = [c for c in pool if not t.known[c]] or pool
            look = max(unknown, key=lambda c: (t.owner[c] > 0, not t.known[c]))
            take = max(pool, key=lambda c: t.value[c] + (t.weight(t.owner[c]) * (
                t.value[c] - t.mean) if t.owner[c] > 0 else 0))
            gain = t.value[take] - t.mean + 0.8   # the peek is worth a little
            return gain, [a.coin + look, a.coin + take]
        if card == BLOW:
            if len(mid_down) < 2:
                return None
            return 0.3, None  # targets decided after the look
        return None

    def _next_target(self, t: _Table, mask):
        """The next target step of the pending card, consistent with what is chosen."""
        a, card, chosen = self.acts, t.card, t.selected
        if card == BLOW:
            return self._blow_target(t, mask)
        if card == LAND_HO and len(chosen) == 1:
            # after the look: take the best face-down coin now known or expected
            pool = [c for c in range(self.game.num_coins) if mask[a.coin + c]]
            return a.coin + max(pool, key=lambda c: t.value[c] + (t.weight(t.owner[c]) * (
                t.value[c] - t.mean) if t.owner[c] > 0 else 0))
        plan = self._plan(t, card)
        if not plan or plan[1] is None:
            return None
        steps = plan[1]
        return steps[t.step] if t.step < len(steps) else None

    def _blow_target(self, t: _Table, mask):
        a = self.acts
        nc = self.game.num_coins
        coins = [c for c in range(nc) if mask[a.coin + c]]
        if coins:
            # before the look every middle coin is alike; prefer ones seen to be low
            return a.coin + min(coins, key=lambda c: t.value[c])
        players = [d for d in range(1, t.n) if mask[a.player + d - 1]]
        # give the worse coins to the leader, spread otherwise
        return a.player + max(players, key=lambda d: (t.weight(d), t.room(d))) - 1

    def _block_or_allow(self, t: _Table, mask) -> int:
        a = self.acts
        if not mask[a.block]:
            return int(a.allow)
        harm = self._harm(t)
        return int(a.block if harm > BLOCK_THRESHOLD else a.allow)

    def _harm(self, t: _Table) -> float:
        """What the pending action costs me (positive = bad)."""
        card, sel = t.card, list(t.selected)
        mine = [c for c in sel if t.owner[c] == 0]
        if card in (ARRGH, PIECES, LAND_HO):
            return sum(t.value[c] for c in mine) - t.mean * len(mine) + (
                t.mean if mine else 0)
        if card == AVAST:
            others = [c for c in sel if t.owner[c] != 0]
            return sum(t.value[c] for c in mine) - sum(t.value[c] for c in others)
        if card in (YO_HO, BLOW):
            # receiving coins fills my slots with them
            return sum(t.mean - t.value[c] for c in sel) / max(len(sel), 1) + 1.0
        return 0.0
