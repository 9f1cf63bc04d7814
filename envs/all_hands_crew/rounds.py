"""All Hands on Deck's round: the draw (and Spyglass draws), the simultaneous hire, the
lay-out turns with their pair actions, and the start of the next round or the game's end
(the rules of ``AllHandsCrewState`` once its moves are checked)."""

from __future__ import annotations

from .components import NUM_KINDS, TARGETED
from .codes import Phase


class RoundPhases:
    """The effects of the moves of a round's phases (a part of ``AllHandsCrewState``)."""

    def _draw(self, player: int, pile: int, count: int) -> None:
        src = self.piles[pile]
        known = self.pile_known[pile]
        for _ in range(min(count, len(src))):
            self.stock[player].append(src.pop())
            known.pop()
            self.stock_src[player].append(pile)
        self.events.append([player, "draw", pile, -1, 0])

    def _advance_draw(self) -> None:
        n = self.game.num_players
        if self.phase == "draw":
            if any(self.piles):
                for step in range(1, n + 1):
                    p = (self.actor + step) % n
                    if len(self.stock[p]) < self.draw_target[p]:
                        self.actor = p
                        return
            self.phase = Phase.SPYGLASS
        if not any(self.piles):
            self.spy_left = [0] * n
        for step in range(n):
            p = (self.start + step) % n
            if self.spy_left[p] > 0:
                self.actor = p
                return
        self._begin_hire()

    def _begin_hire(self) -> None:
        n = self.game.num_players
        self.phase = Phase.HIRE
        self.hire_step = 0
        self.hired = [[] for _ in range(n)]
        self.hire_done = [False] * n
        self.actor = -1

    def _apply_hire(self, actions: dict[int, int]) -> None:
        g = self.game
        for p, a in actions.items():
            if a == g.actions.pass_turn:
                self.hire_done[p] = True
            else:
                self.hired[p].append(a - g.actions.hire)
        self.hire_step += 1
        if not self.current_players():
            self._finish_hire()

    def _finish_hire(self) -> None:
        g = self.game
        n = g.num_players
        everyone = (1 << n) - 1
        for p in range(n):
            chosen = set(self.hired[p])
            for i in self.hired[p]:
                k = self.stock[p][i]
                self.crew[p][k] += 1
                if g.open_stock:
                    for o in range(n):
                        if o != p:
                            self.crew_known[p][o][k] += 1
            mask = everyone if g.open_stock else (1 << p)
            back = 0
            for i, k in enumerate(self.stock[p]):
                if i not in chosen:
                    self.piles[p].append(k)
                    self.pile_known[p].append(mask)
                    back += 1
            # how many cards went back on the pile is public (its size shows it)
            self.events.append([p, "hire", len(chosen), back, everyone])
            self.stock[p] = []
            self.stock_src[p] = []
        self.hired = [[] for _ in range(n)]
        self.hire_done = [False] * n
        self.hire_step = 0
        self.phase = Phase.LAY
        self.actor = self.start
        self.lay_count = 0

    def _lay(self, player: int, ci: int) -> None:
        g = self.game
        combo = g.combos[ci]
        crew = self.crew[player]
        n = g.num_players
        known = self.crew_known[player]
        for k, c in enumerate(combo.counts):
            if c:
                crew[k] -= c
                for o in range(n):
                    row = known[o]
                    if row[k]:
                        row[k] = max(0, row[k] - c)
        gone = self.crew_maybe_gone[player]
        for o in range(n):
            if gone[o]:   # no more of the known cards can be gone than are left
                gone[o] = min(gone[o], sum(known[o]))
        self.laid[player].append(ci)
        self.events.append([player, "lay", ci, -1, 0])
        act = combo.action
        if act == "double_hire":
            self.next_double[player] += 1
        elif act == "spyglass":
            self.next_spy[player] += 1
        elif act in TARGETED:
            self.pending = act
            if any(self._target_ok(player, t) for t in range(n)):
                self.phase = Phase.TARGET
            else:  # no one to snatch from: the action is forfeited
                self.pending = ""
                self.events.append([player, "forfeit", act, -1, 0])

    def _perform(self, player: int, act: str, target: int) -> None:
        n = self.game.num_players
        if act == "curse":
            self.curses[target] += 1
            self.events.append([player, "curse", target, -1, 0])
        elif act == "short_rations":
            self.next_short[target] = 1
            self.events.append([player, "short_rations", target, -1, 0])
        elif act == "snatch":
            pile = self.crew[target]
            r = int(self.rng.integers(sum(pile)))
            for k in range(NUM_KINDS):
                r -= pile[k]
                if r < 0:
                    break
            pile[k] -= 1
            self.crew[player][k] += 1
            # only the two involved see which card moved. The others still know every
            # card they knew in the victim's pile, but one of them may be the one that left
            # (they cannot tell which); what they knew of the snatcher's pile stays true.
            known, gone = self.crew_known[target], self.crew_maybe_gone[target]
            for o in range(n):
                if o not in (player, target):
                    gone[o] = min(gone[o] + 1, sum(known[o]))
            row = known[player]
            row[k] = max(0, row[k] - 1)
            gone[player] = min(gone[player], sum(row))
            self.crew_known[player][target][k] += 1
            self.events.append([player, "snatch", target, k, (1 << player) | (1 << target)])

    def _end_lay_turn(self) -> None:
        n = self.game.num_players
        self.lay_count += 1
        if self.lay_count < n:
            self.actor = (self.actor + 1) % n
            return
        self.start = (self.start + 1) % n
        self._begin_round()

    def _begin_round(self, first: bool = False) -> None:
        g = self.game
        n = g.num_players
        self.round += 1
        self.events = []
        if sum(len(p) for p in self.piles) < n:
            self._end_game()
            return
        c = g.comps
        for p in range(n):
            short = self.next_short[p] > 0
            self.draw_target[p] = c.short_rations_stock if short else c.stock_cards
            # Short rations caps the whole stock: it cancels a Spyglass of that round
            self.spy_left[p] = 0 if short else self.next_spy[p]
            self.keep[p] = 1 + self.next_double[p]
        self.next_short = [0] * n
        self.next_spy = [0] * n
        self.next_double = [0] * n
        self.phase = Phase.DRAW
        self.actor = self.start
        self.lay_count = 0
        self.pending = ""

    def _end_game(self) -> None:
        n = self.game.num_players
        self.phase = Phase.OVER
        self.actor = -1
        self.keep = [1] * n
        self.draw_target = [0] * n
        self.spy_left = [0] * n
        self.next_short = [0] * n
        self.next_spy = [0] * n
        self.next_double = [0] * n
        for p in range(n):
            _, combos, left = self.game.partitioner.partition(self.crew[p])
            self.final[p] = combos
            self.final_left[p] = left
            self.crew[p] = [0] * NUM_KINDS
            self.crew_known[p] = [[0] * NUM_KINDS for _ in range(n)]
            self.crew_maybe_gone[p] = [0] * n
