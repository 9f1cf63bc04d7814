"""Anchors Aweigh!'s set-up and loading race: simultaneous ticks of grabs, flips,
placements and cargo, until every ship is full (the rules of ``AnchorsAweighState`` in
those phases)."""

from __future__ import annotations

from .codes import (
    A_CARGO, A_FLIP, A_GRAB_DOWN, A_GRAB_UP, A_PLACE, A_RETURN, A_SKIP, A_STAR_RETURN,
    CARGO, EMPTY, LOADING, O_NONE, SETUP,
)
from .components import ABOVE, ASSET_SPACES, MONKEY, NUM_COLOURS, NUM_SPACES


class LoadingRace:
    """The set-up, and the loading race's legal moves and effects (a part of
    ``AnchorsAweighState``)."""

    def setup(self) -> None:
        """A new game: empty ships and supplies, the monkeys handed out for the Meddlesome
        Monkey handicap, the tiles poured face up or down, the first round's cards."""
        g = self.game
        comp = g.comp
        n = g.num_players
        rng = self.rng
        self.round = 1
        self.captain = -1
        self.ships = [[EMPTY] * NUM_SPACES for _ in range(n)]
        self.stor = [[[] for _ in range(NUM_SPACES)] for _ in range(n)]
        self.hand = [-1] * n
        self.secret = [False] * g.num_tiles
        self.supply = [comp.cargo_per_colour] * NUM_COLOURS
        self.chest_supply = comp.chests
        self.parrot_supply = comp.parrots
        self.coins = [0] * n
        self.chests = [0] * n
        self.parrots = [0] * n
        self.encounter = [-1] * n
        self.outcome = [O_NONE] * n
        self.pending = [-1] * n
        self.returns = [0] * n
        self.cargo_queue = []
        self.unit_colour = -1
        self.cleansed = False
        self.queue = []
        self.current = -1
        self.revealed = False
        self.used = []
        self.fronts_hidden = False
        # Meddlesome Monkey: the monkeys come out of the box before the tiles are poured
        monkeys = [t for t in range(g.num_tiles) if g.tile_kind[t] == MONKEY]
        for seat, tile in zip(g.monkey_seats, monkeys):
            self.hand[seat] = tile
        in_hand = set(self.hand)
        tiles = [t for t in range(g.num_tiles) if t not in in_hand]
        up = rng.random(len(tiles)) < 0.5
        self.pile_up = sorted(t for t, u in zip(tiles, up) if u)
        self.pile_down = sorted(t for t, u in zip(tiles, up) if not u)
        self.deck = self._draw_round_cards()
        self.phase = SETUP if g.monkey_seats else LOADING

    def _loading_mask(self, p: int, mask: bytearray) -> None:
        ship = self.ships[p]
        free_asset = EMPTY in ship[:len(ASSET_SPACES)]     # the asset spaces come first
        if self.hand[p] >= 0:
            for s in ASSET_SPACES:
                if ship[s] == EMPTY:
                    mask[A_PLACE + s] = 1
            mask[A_RETURN] = 1
            return
        if self.pile_down:
            mask[A_FLIP] = 1
            if free_asset:
                mask[A_GRAB_DOWN] = 1
        if free_asset and self.pile_up:
            for k in self._kinds_up():
                mask[A_GRAB_UP + k] = 1
        if ship[12] == EMPTY or ship[13] == EMPTY:
            for c in range(NUM_COLOURS):
                if self.supply[c] > 0:
                    mask[A_CARGO + c] = 1
        if self.game.starfish_rule:
            star = self.game.tile_star
            for s in ASSET_SPACES:
                c = ship[s]
                if 0 <= c < CARGO and star[c]:
                    mask[A_STAR_RETURN + s] = 1

    def _priority(self) -> list[int]:
        return [int(x) for x in self.rng.permutation(self.game.num_players)]

    def _apply_loading(self, actions: dict[int, int]) -> None:
        g = self.game
        kind = g.tile_kind
        prio = None
        # 1. face-up grabs by kind; a random priority decides when a kind runs short
        by_kind: dict[int, list[int]] = {}
        for p, a in actions.items():
            if A_GRAB_UP <= a < A_FLIP:
                by_kind.setdefault(a - A_GRAB_UP, []).append(p)
        for k in sorted(by_kind):
            players = by_kind[k]
            avail = [t for t in self.pile_up if kind[t] == k]
            if len(players) > len(avail):
                prio = prio or self._priority()
                players = sorted(players, key=prio.index)[:len(avail)]
            for p in players:
                t = avail.pop(int(self.rng.integers(len(avail))))
                self.pile_up.remove(t)
                self.hand[p] = t
        # 2. face-down grabs and flips share the face-down tiles (random priority)
        down = [p for p, a in actions.items() if a in (A_GRAB_DOWN, A_FLIP)]
        if len(down) > 1:
            prio = prio or self._priority()
            down.sort(key=prio.index)
        for p in down:
            if not self.pile_down:
                break
            t = self.pile_down.pop(int(self.rng.integers(len(self.pile_down))))
            if actions[p] == A_GRAB_DOWN:
                self.hand[p] = t
                self.secret[t] = True
            else:
                self.pile_up.append(t)
        # 3. places, returns, cargo and starfish returns (no conflicts possible)
        for p, a in actions.items():
            if A_PLACE <= a < A_RETURN:
                s = a - A_PLACE
                t = self.hand[p]
                self.ships[p][s] = t
                self.hand[p] = -1
                self.returns[p] = 0
                if s in ABOVE:
                    self.secret[t] = False
            elif a == A_RETURN:
                self._to_pile(self.hand[p])
                self.hand[p] = -1
                self.returns[p] += 1
            elif A_CARGO <= a < A_STAR_RETURN:
                c = a - A_CARGO
                self.supply[c] -= 1
                s = 12 if self.ships[p][12] == EMPTY else 13
                self.ships[p][s] = CARGO + c
            elif A_STAR_RETURN <= a < A_SKIP:
                s = a - A_STAR_RETURN
                t = self.ships[p][s]
                self.ships[p][s] = EMPTY
                self._to_pile(t)
        # the captain's call: the first full ship (ties: random among them)
        if self.captain < 0:
            full = [p for p in actions if EMPTY not in self.ships[p]]
            if full:
                self.captain = full[int(self.rng.integers(len(full)))] if len(full) > 1 \
                    else full[0]
                self.fronts_hidden = True
        if all(EMPTY not in ship for ship in self.ships):
            self._start_travel()
