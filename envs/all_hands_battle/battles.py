"""All Hands On Deck's battles and reckoning: who may attack whom, an attack and its
outcome, the battle turns, and the round's scores (the rules of ``AllHandsBattleState``
once every fleet is launched)."""

from __future__ import annotations

from .codes import BATTLE, OVER, SELECT
from .ships import ATTACKER, DEFENDER, RAID


class Battles:
    """The battle phase and the reckoning (a part of ``AllHandsBattleState``)."""

    # -- battles --------------------------------------------------------------------------
    def targets(self, seat: int, slot: int) -> list[tuple[int, int]]:
        """(owner, slot) of every ship that ``seat``'s ship ``slot`` may attack now."""
        ship = self.ships[seat][slot]
        if not ship[2]:
            return []
        rules = self.game.rules
        out = []
        for q, fleet in enumerate(self.ships):
            if q == seat:
                continue
            for j, other in enumerate(fleet):
                if other[2] and rules.may_attack(ship[0], other[0]):
                    out.append((q, j))
        return out

    def can_attack(self, seat: int) -> bool:
        """Whether ``seat`` has an unused ship with a legal target (public)."""
        return any(self.targets(seat, k) for k in range(len(self.ships[seat])))

    def _start_battles(self) -> None:
        self.phase = BATTLE
        self.claim_queue = []
        self.passed = [False] * self.game.num_players
        self._event("recruiting is over; naval battles begin")
        self.forced = True
        self._next_battle_turn(self.first_fleet)

    def _next_battle_turn(self, after: int) -> None:
        self.selected = -1
        self.spies_used = 0
        if self.forced:
            if self.can_attack(self.first_fleet):
                self.turn_player = self.actor = self.first_fleet
                self.decision = SELECT
                return
            self.forced = False
            after = self.first_fleet
        n = self.game.num_players
        for i in range(1, n + 1):
            q = (after + i) % n
            if not self.passed[q] and self.can_attack(q):
                self.turn_player = self.actor = q
                self.decision = SELECT
                return
        self._reckon()

    def _attack(self, seat: int, slot: int, owner: int, tslot: int) -> None:
        att = self.ships[seat][slot]
        dfn = self.ships[owner][tslot]
        res = self.game.rules.resolve(att[0], att[1], dfn[0], dfn[1])
        att[2] = dfn[2] = False
        who = f"{self._ship_name(seat, slot)} attacks {self._ship_name(owner, tslot)}"
        if res.outcome == RAID:
            for c in res.plunder:
                dfn[1].remove(c)
                if c in self.known_with[owner]:
                    self.known_with[owner].remove(c)
            self.plunder[seat].extend(res.plunder)
            loot = ", ".join(self._name(c) for c in res.plunder)
            self._event(f"{who}: raid! P{seat} plunders {loot}; both ships leave play")
            return
        att[4] = dfn[4] = True
        for q, ship in ((seat, att), (owner, dfn)):
            for c in ship[1]:
                if c in self.known_with[q]:
                    self.known_with[q].remove(c)
        if res.outcome == ATTACKER:
            att[3] = dfn[3] = seat
            result = f"P{seat} wins ({res.reason})"
        elif res.outcome == DEFENDER:
            att[3] = dfn[3] = owner
            result = f"P{owner} wins ({res.reason})"
        else:
            att[3] = dfn[3] = -1
            result = f"both ships sink ({res.reason})"
        crews = " vs ".join(", ".join(self._name(c) for c in ship[1]) for ship in (att, dfn))
        self._event(f"{who}: [{crews}] {result}")

    # -- the reckoning --------------------------------------------------------------------
    def round_scores(self) -> list[int]:
        """Scores of the current round as the reckoning counts them now."""
        g = self.game
        comp = g.components
        value = g.rules.value
        n = g.num_players
        pts = [0] * n
        for fleet in self.ships:
            for ship in fleet:
                keeper = ship[3]
                if keeper >= 0:
                    pts[keeper] += comp.ship_points + sum(value[c] for c in ship[1])
        for p in range(n):
            pts[p] += sum(value[c] for c in self.plunder[p])
            if self.first_fleet == p:
                pts[p] += comp.first_fleet_bonus
            pts[p] -= sum(g.cards[c].penalty for c in self.hands[p])
        return [max(0, v) for v in pts]

    def _reckon(self) -> None:
        scores = self.round_scores()
        self.totals = [t + s for t, s in zip(self.totals, scores)]
        self.last_round = scores
        self._event(f"reckoning of round {self.round}: " +
                    ", ".join(f"P{p} +{s}" for p, s in enumerate(scores)))
        g = self.game
        if max(self.totals) >= g.target_score or \
                (g.max_rounds and self.round >= g.max_rounds):
            self.phase = OVER
            self.decision = OVER
            self.actor = -1
            self.turn_player = -1
            self._event("game over: " + ", ".join(f"P{p} {t}" for p, t in enumerate(self.totals)))
            return
        self.round += 1
        self.starter = (self.starter + 1) % g.num_players
        self._start_round()
