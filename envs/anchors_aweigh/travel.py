"""Anchors Aweigh!'s travel phase: the adventure cards asked of every player at once,
their costs and rewards, the pirates, stowing cargo one unit at a time clockwise from the
captain, and the end of a round (the rules of ``AnchorsAweighState`` in those phases)."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from plunder.envs.core.errors import InvalidStateError

from .codes import (
    A_DISCARD, A_ENCOUNTER, A_PARROT, A_PAY, A_PAY_NONE, A_RESOLVE, A_SKIP, A_STOW,
    A_SWAP, A_TOSS_ASSET, A_TOSS_CARGO, CARGO, CHEST, COLOUR, DECIDE, EMPTY, ENCOUNTER,
    GREY, LOADING, OVER, O_ENCOUNTER, O_FLED, O_NONE, O_PAID, O_RESOLVED, O_SKIPPED,
    PIRATE, PLACE,
)

from .components import (
    ABOVE, ASSET_SPACES, BELOW, COLOURS, CONTRACT, MONKEY, NUM_COLOURS, NUM_KINDS,
    NUM_SPACES, PIRATES, STORAGE,
)

@lru_cache(maxsize=None)
def _need_counts(needs: tuple) -> tuple[tuple[int, int], ...]:
    """(kind or colour, count) of each different need of a card (cards are few: cached)."""
    return tuple(Counter(needs).items())


class Travel:
    """The travel phase's legal moves and effects (a part of ``AnchorsAweighState``)."""

    def _draw_round_cards(self) -> list[int]:
        """A round's adventure cards, sorted (drawn from those not used yet)."""
        g = self.game
        rng = self.rng
        used = set(self.used)
        free = [c.index for c in g.cards if c.index not in used]
        if g.open_ocean == "random":
            types_left = {g.cards[c].type for c in free}
            for _ in range(1000):
                pick = [free[i] for i in rng.choice(len(free), 13, replace=False)]
                if {g.cards[c].type for c in pick} >= types_left:
                    return sorted(pick)
            return sorted(pick)  # pragma: no cover - a type ran out; best effort
        out = []
        for t, count in enumerate(g.mix):
            pool = [c for c in free if g.cards[c].type == t]
            out += [pool[i] for i in rng.choice(len(pool), count, replace=False)]
        return sorted(out)

    def _can_pay_assets(self, p: int, needs: tuple, parrot_kind: int = -1,
                        have: list[int] | None = None) -> bool:
        """Whether player p can pay ``needs`` (with the parrot standing in for a tile of
        ``parrot_kind``); ``have``: p's ``_asset_counts``, when the caller has them."""
        if parrot_kind >= 0 and parrot_kind not in needs:
            return False
        if have is None:
            have = self._asset_counts(p)
        # the parrot stands in for one tile of its kind
        short = sum(max(0, n - (k == parrot_kind) - have[k]) for k, n in _need_counts(needs))
        wild = have[MONKEY] if self.game.rough_seas else 0   # wild monkeys (Rough Seas)
        return short <= wild

    def _can_pay_cargo(self, p: int, needs: tuple) -> bool:
        have = self._cargo_counts(p)
        return all(have[c] >= n for c, n in _need_counts(needs))

    def _spend_order(self, p: int) -> list[int]:
        """Asset spaces in the order their tiles are spent or swapped: above deck A1..A8,
        then below deck the tiles everyone has seen, then the secret ones (B1..B4 each).
        What leaves is seen by all, so the order depends only on what all know: it never
        gives away where tiles lie behind the screen, nor a secret tile while a seen one of
        the same kind would do."""
        ship, secret = self.ships[p], self.secret
        below = [s for s in ASSET_SPACES if s not in ABOVE and 0 <= ship[s] < CARGO]
        return list(ABOVE) + [s for s in below if not secret[ship[s]]] \
            + [s for s in below if secret[ship[s]]]

    def _pay_assets(self, p: int, needs: tuple, parrot_kind: int = -1) -> None:
        """Spend the needed assets: the parrot first (if used), then real tiles (in
        ``_spend_order``), then wild monkeys for any shortfall."""
        need = Counter(needs)
        if parrot_kind >= 0:
            need[parrot_kind] -= 1
            self.parrots[p] -= 1
            self.parrot_supply += 1
        kind = self.game.tile_kind
        order = self._spend_order(p)
        short = 0
        for k, count in sorted(need.items()):
            for s in order:
                if count <= 0:
                    break
                c = self.ships[p][s]
                if 0 <= c < CARGO and kind[c] == k:
                    self._remove_tile(p, s)
                    count -= 1
            short += max(0, count)
        for s in order:
            if short <= 0:
                break
            c = self.ships[p][s]
            if 0 <= c < CARGO and kind[c] == MONKEY:
                self._remove_tile(p, s)
                short -= 1

    def _take_cargo(self, p: int, colour: int) -> tuple[int, bool]:
        """Remove one token of ``colour`` to the supply: below deck first (from a storage
        tile, else from a space), then above deck (a storage tile, else A1..A8); returns
        (space, was_on_storage). Whether a token leaves from above or below deck is seen
        by all, so that choice rests on public counts only, never on where tokens lie
        behind the screen."""
        ship, stor = self.ships[p], self.stor[p]
        for spaces in (BELOW, ABOVE):
            for s in spaces:
                if colour in stor[s]:
                    stor[s].remove(colour)
                    self.supply[colour] += 1
                    return s, True
            for s in spaces:
                if ship[s] == CARGO + colour:
                    ship[s] = EMPTY
                    self.supply[colour] += 1
                    return s, False
        raise InvalidStateError(f"player {p} has no {COLOURS[colour]} cargo")  # pragma: no cover

    def _order_from_captain(self) -> list[int]:
        n = self.game.num_players
        start = max(self.captain, 0)
        return [(start + i) % n for i in range(n)]

    def _resolve_mask(self, p: int, card, mask: bytearray) -> None:
        if card.needs_assets:
            have = self._asset_counts(p)
            if self._can_pay_assets(p, card.needs, have=have):
                mask[A_RESOLVE] = 1
            if self.parrots[p] > 0:
                for k in set(card.needs):
                    if self._can_pay_assets(p, card.needs, k, have):
                        mask[A_PARROT + k] = 1
        elif self._can_pay_cargo(p, card.needs):
            mask[A_RESOLVE] = 1

    def _swap_mask(self, p: int, mask: bytearray) -> None:
        if not self.game.rough_seas:
            return
        have = self._asset_counts(p)
        gives = [k for k in range(NUM_KINDS) if have[k] >= 2]
        if not gives:
            return
        takes = self._kinds_up()
        for gk in gives:
            for tk in takes:
                mask[A_SWAP + gk * 10 + tk] = 1

    def _place_mask(self, p: int, mask: bytearray) -> None:
        ship = self.ships[p]
        if self._has_room(p):
            cap = self.game.comp.storage_capacity
            kind = self.game.tile_kind
            for s in range(NUM_SPACES):
                c = ship[s]
                if c == EMPTY or (0 <= c < CARGO and kind[c] == STORAGE
                                  and len(self.stor[p][s]) < cap):
                    mask[A_STOW + s] = 1
            return
        med = p in self.game.monkey_seats
        kind = self.game.tile_kind
        for s in ASSET_SPACES:
            c = ship[s]
            if 0 <= c < CARGO and not (med and kind[c] == MONKEY):
                mask[A_TOSS_ASSET + s] = 1
        for c, n in enumerate(self._cargo_counts(p)):
            if n:
                mask[A_TOSS_CARGO + c] = 1
        mask[A_DISCARD] = 1

    def _start_travel(self) -> None:
        g = self.game
        if g.starfish_rule:
            star = g.tile_star
            for p in range(g.num_players):
                for s in ASSET_SPACES:
                    c = self.ships[p][s]
                    if 0 <= c < CARGO and star[c]:
                        self._remove_tile(p, s)
            self.cleansed = True
        self.pile_up.sort()
        self.deck = [int(x) for x in self.rng.permutation(self.deck)]
        self.queue = []
        self._next_card()

    def _next_card(self) -> None:
        cards = self.game.cards
        n = self.game.num_players
        self.pending = [-1] * n
        self.encounter = [-1] * n
        while True:
            if self.deck:
                top = self.deck[0]
                if cards[top].type == CONTRACT and any(
                        cards[c].type != CONTRACT for c in self.deck):
                    self.queue.append(self.deck.pop(0))
                    continue
                self.current = self.deck.pop(0)
            elif self.queue:
                self.current = self.queue.pop(0)
            else:
                self.current = -1
                self._end_round()
                return
            break
        if cards[self.current].type == PIRATES:
            self.revealed = False
            self.phase = ENCOUNTER
        else:
            self.revealed = True
            self.phase = DECIDE

    def _apply_decision(self, actions: dict[int, int]) -> None:
        # Rough Seas swaps happen at once (clockwise from the captain); the swapper is
        # asked again. Every other choice waits, hidden, until everyone asked has chosen.
        for p in self._order_from_captain():
            a = actions.get(p)
            if a is None:
                continue
            if a >= A_SWAP:
                self._swap(p, a)
            else:
                self.pending[p] = a
        if self._current_players():
            return
        if self.phase == ENCOUNTER:
            n = self.game.num_players
            self.encounter = [1 if self.pending[p] == A_ENCOUNTER else 0 for p in range(n)]
            self.outcome = [O_ENCOUNTER if e else O_FLED for e in self.encounter]
            self.pending = [-1] * n
            self.revealed = True
            if any(self.encounter):
                self.phase = PIRATE
            else:
                self._finish_card()
            return
        self._resolve_card()

    def _swap(self, p: int, a: int) -> None:
        give, take = divmod(a - A_SWAP, 10)
        kind = self.game.tile_kind
        avail = [t for t in self.pile_up if kind[t] == take]
        if not avail:
            return  # another swapper took the last one this tick: nothing happens
        ship = self.ships[p]
        spaces = [s for s in self._spend_order(p)
                  if 0 <= ship[s] < CARGO and kind[ship[s]] == give][:2]
        t = avail[int(self.rng.integers(len(avail)))]
        self.pile_up.remove(t)
        first = spaces[0]
        for s in spaces:
            self._remove_tile(p, s)
        self.ships[p][first] = t

    def _resolve_card(self) -> None:
        g = self.game
        card = g.cards[self.current]
        n = g.num_players
        penalty = g.comp.pirate_penalty_coins
        for p in self._order_from_captain():
            a = self.pending[p]
            if a < 0:
                continue  # fled pirates: not asked
            if a == A_RESOLVE or A_PARROT <= a < A_ENCOUNTER:
                if card.needs_assets:
                    self._pay_assets(p, card.needs, a - A_PARROT if a != A_RESOLVE else -1)
                else:
                    for c in card.needs:
                        self._take_cargo(p, c)
                self.coins[p] += card.coins
                for c in card.cargo:
                    self.cargo_queue.append([p, c])
                for _ in range(card.grey):
                    self.cargo_queue.append([p, GREY])
                self.outcome[p] = O_RESOLVED
            elif a == A_SKIP:
                self.outcome[p] = O_SKIPPED
            else:  # pay the pirates' penalty
                self.coins[p] -= min(penalty, self.coins[p])
                if a != A_PAY_NONE:
                    self._take_cargo(p, a - A_PAY)
                self.outcome[p] = O_PAID
        self.pending = [-1] * n
        self._next_unit()

    def _next_unit(self) -> None:
        while self.cargo_queue:
            p, unit = self.cargo_queue[0]
            if unit < NUM_COLOURS and self.supply[unit] > 0:
                self.unit_colour = unit
                self.phase = PLACE
                return
            if any(self.supply):
                self.phase = COLOUR
                return
            self.cargo_queue.pop(0)  # no cargo left anywhere: the unit is lost
        self._finish_card()

    def _apply_place(self, p: int, a: int) -> None:
        c = self.unit_colour
        if A_STOW <= a < A_TOSS_ASSET:
            s = a - A_STOW
            self.supply[c] -= 1
            if self.ships[p][s] == EMPTY:
                self.ships[p][s] = CARGO + c
            else:
                # a storage below deck stays as secret as it was: the others see the
                # token go behind the screen, not where (rulebook: below deck is hidden)
                self.stor[p][s].append(c)
                self.stor[p][s].sort()
        elif A_TOSS_ASSET <= a < A_TOSS_CARGO:
            s = a - A_TOSS_ASSET
            self._remove_tile(p, s)
            self.supply[c] -= 1
            self.ships[p][s] = CARGO + c
        elif A_TOSS_CARGO <= a < A_DISCARD:
            s, on_storage = self._take_cargo(p, a - A_TOSS_CARGO)
            self.supply[c] -= 1
            if on_storage:
                self.stor[p][s].append(c)
                self.stor[p][s].sort()
            else:
                self.ships[p][s] = CARGO + c
        # A_DISCARD: the new token stays in the supply

    def _finish_card(self) -> None:
        self.used.append(self.current)
        self.current = -1
        self.revealed = False
        self._next_card()

    def _end_round(self) -> None:
        g = self.game
        n = g.num_players
        for p in range(n):
            # cargo becomes coins
            for s in range(NUM_SPACES):
                c = self.ships[p][s]
                if CARGO <= c < CHEST:
                    self.supply[c - CARGO] += 1
                    self.coins[p] += 1
                    self.ships[p][s] = EMPTY
                for col in self.stor[p][s]:
                    self.supply[col] += 1
                    self.coins[p] += 1
                self.stor[p][s] = []
            # assets back to the pile face up (the Meddlesome Monkey stays)
            for s in ASSET_SPACES:
                c = self.ships[p][s]
                if 0 <= c < CARGO and not (p in g.monkey_seats and g.tile_kind[c] == MONKEY):
                    self._remove_tile(p, s)
        # coins to chests on open above-deck spaces (clockwise from the captain)
        for p in self._order_from_captain():
            for s in ABOVE:
                if self.coins[p] < 10 or self.chest_supply <= 0:
                    break
                if self.ships[p][s] == EMPTY:
                    self.ships[p][s] = CHEST
                    self.chests[p] += 1
                    self.chest_supply -= 1
                    self.coins[p] -= 10
        self.pile_up.sort()
        self.cleansed = False
        self.outcome = [O_NONE] * n
        if self.round == 2:
            self.phase = OVER
            return
        totals = [self.coins[p] + 10 * self.chests[p] for p in range(n)]
        low = min(totals)
        if any(t != low for t in totals):
            for p in self._order_from_captain():
                if totals[p] == low and self.parrot_supply > 0:
                    self.parrots[p] += 1
                    self.parrot_supply -= 1
        self.round = 2
        self.captain = -1
        self.fronts_hidden = False
        self.deck = self._draw_round_cards()
        self.queue = []
        self.phase = LOADING
