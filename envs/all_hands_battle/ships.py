"""Ship legality and naval battles: pure functions over one game's card table.

``ShipRules`` is built once per game (deck and variant flags) and answers:

* which crews a shipmaster may take (``crew_ok``), whether a partial crew can still be
  completed from a hand (``completable``), and every legal crew of a hand (``legal_crews``);
* the best ship a hand can launch (``best_launch``; ``best_ship`` per shipmaster, on card
  bitmasks, memoised per deck and pruned of dominated cards), as enumerating every legal
  crew would find it, ties included;
* who may attack whom (``may_attack``);
* the outcome of an attack (``resolve``): a Raider's plunder, the Black Spot, Prize Crews,
  or three duels, then shipmaster rank, then both ships sinking.

Bots may use it too: it reads only public card data.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from plunder.envs.core.memo import remember, shared_memos

from .components import (
    ADMIRAL, BLACK_SPOT, CAPTAIN, COOK, CREW, DAUGHTER, LADY, NO_SUIT, PRIVATEER, RAIDER,
    RUTH, SPY, Card,
)

#: battle outcomes
ATTACKER, DEFENDER, SINK, RAID = "attacker", "defender", "sink", "raid"

_CREW_MEMO_MAX = 100_000       # memoised crew worths / best ships per deck (cleared when full)
_MISSING = object()

# duel order classes: the Governor's Daughter duels first, Ladies last
_FIRST, _MIDDLE, _LAST = 0, 1, 2
#: kinds with a duelling level (Ruth's bonus applies to these)
_DUELLING = (CREW, COOK, PRIVATEER, SPY, RUTH)


@dataclass(frozen=True)
class BattleResult:
    """What happened in one attack (all of it public once it happened)."""

    outcome: str                  # ATTACKER, DEFENDER or SINK (who takes both ships), or RAID
    reason: str                   # "raid", "black spot", "both black spots", "prize crew",
                                  # "duels", "rank", "tie"
    plunder: tuple[int, ...] = () # treasure the Raider took (RAID only)
    duels: tuple[tuple[int, int, int, int, int], ...] = ()
    # per duel: (attacker card, attacker level, defender card, defender level, winner
    # +1 attacker / -1 defender / 0 tie)


class ShipRules:
    """Ship legality and battle resolution for one deck and variant."""

    def __init__(self, cards: tuple[Card, ...], alliance: tuple[int, ...], crew_per_ship: int,
                 prize_crew: bool):
        self.cards = cards
        self.C = len(cards)
        self.crew_per_ship = crew_per_ship
        self.prize_crew = prize_crew
        self.alliance = alliance
        self.kind = tuple(c.kind for c in cards)
        self.suit = tuple(c.suit for c in cards)
        self.rank = tuple(c.rank for c in cards)
        self.value = tuple(c.value for c in cards)
        self.is_master = tuple(c.is_master for c in cards)
        self.is_treasure = tuple(c.is_treasure for c in cards)
        masters = [c.id for c in cards if c.is_master]
        self.masters = tuple(masters)
        #: elig[m] = frozenset of cards that may serve as ordinary crew under master m
        elig = {}
        for m in masters:
            mc = cards[m]
            ok = []
            for c in cards:
                if c.kind in (ADMIRAL, CAPTAIN):
                    continue
                if mc.kind == PRIVATEER or c.kind == PRIVATEER or c.suit == mc.suit:
                    ok.append(c.id)
            elig[m] = frozenset(ok)
        self.elig = elig
        # per card, for _defending_levels: base defending level, Ruth's bonus, duels, Lady
        self._defend_level = tuple(
            c.defend_level if c.kind == SPY else c.level if c.kind in (CREW, COOK, PRIVATEER,
                                                                       RUTH) else 0
            for c in cards)
        self._ruth_bonus = tuple(c.bonus if c.kind == RUTH else 0 for c in cards)
        self._duelling = tuple(c.kind in _DUELLING for c in cards)
        self._lady = tuple(c.kind == LADY for c in cards)
        #: no Ruth's bonus, Lady, Black Spot or Daughter: a crew of such cards is worth its
        #: defending levels plus a quarter of its treasure (_crew_worth's short cut)
        self._plain = tuple(not (self._ruth_bonus[c.id] or self._lady[c.id]
                                 or c.kind in (BLACK_SPOT, DAUGHTER)) for c in cards)
        #: Prize Crew parts per Admiral: (captains of its suit, cooks of its suit)
        self.prize_parts = {}
        if prize_crew:
            for m in masters:
                if cards[m].kind == ADMIRAL:
                    s = cards[m].suit
                    caps = frozenset(c.id for c in cards if c.kind == CAPTAIN and c.suit == s)
                    cooks = frozenset(c.id for c in cards if c.kind == COOK and c.suit == s)
                    if caps and cooks:
                        self.prize_parts[m] = (caps, cooks)
        # for best_ship: card sets as int bitmasks (bit c = card c)
        self.bit = tuple(1 << c for c in range(self.C))
        #: per master, its eligible crew (itself excluded)
        self._elig_mask = {m: sum(self.bit[c] for c in self.elig[m] if c != m) for m in masters}
        #: per master, the cards that may sit in one of its crews (itself excluded)
        self._pool = {m: sum(self.bit[c] for c in self.elig[m].union(
            *self.prize_parts.get(m, ())) if c != m) for m in masters}
        self._dominators = self._dominator_masks()
        self._memo_key = (cards, alliance, crew_per_ship, prize_crew)
        self._attach_memos()

    def _attach_memos(self) -> None:
        """The memos of crew worths and best ships: pure functions of the deck and variant,
        so shared by every game of the same ones (a GameBatch has a game per table)."""
        self._crew_worths, self._best_ships = shared_memos("ship_rules", self._memo_key, 2)

    def __getstate__(self) -> dict:
        """Pickled without the memos (attached again when unpickled)."""
        state = self.__dict__.copy()
        del state["_crew_worths"], state["_best_ships"]
        return state

    def __setstate__(self, state: dict) -> None:
        """Unpickled: the memos of this deck and variant in this process."""
        self.__dict__.update(state)
        self._attach_memos()

    # -- what a ship may hold -------------------------------------------------------------
    def group(self, master: int) -> int:
        """Alliance of a ship by its shipmaster: 0 mariners, 1 marauders, 2 Privateer."""
        s = self.suit[master]
        return 2 if s == NO_SUIT else self.alliance[s]

    def may_attack(self, att_master: int, def_master: int) -> bool:
        """Whether a ship led by ``att_master`` may attack one led by ``def_master``."""
        a, d = self.group(att_master), self.group(def_master)
        return a == 2 or d == 2 or a != d

    def is_prize_crew(self, master: int, crew) -> bool:
        """Admiral + a Captain and the Cook of its suit + one more eligible card."""
        parts = self.prize_parts.get(master)
        if parts is None or len(crew) != self.crew_per_ship:
            return False
        caps, cooks = parts
        ncap = sum(1 for c in crew if c in caps)
        ncook = sum(1 for c in crew if c in cooks)
        rest = [c for c in crew if c not in caps and c not in cooks]
        return ncap == 1 and ncook == 1 and len(rest) == self.crew_per_ship - 2 and \
            all(c in self.elig[master] for c in rest)

    def crew_ok(self, master: int, crew) -> bool:
        """Whether ``crew`` (a full list) is a legal crew for ``master``."""
        if not self.is_master[master] or len(crew) != self.crew_per_ship:
            return False
        elig = self.elig[master]
        return all(c in elig for c in crew) or self.is_prize_crew(master, crew)

    def completable(self, master: int, partial, available) -> bool:
        """Whether ``partial`` crew can be completed to a legal crew from ``available``."""
        need = self.crew_per_ship - len(partial)
        if need < 0:
            return False
        elig = self.elig[master]
        if all(c in elig for c in partial):
            if sum(1 for c in available if c in elig) >= need:
                return True
        parts = self.prize_parts.get(master)
        if parts is None:
            return False
        caps, cooks = parts
        ncap = sum(1 for c in partial if c in caps)
        ncook = sum(1 for c in partial if c in cooks)
        rest = [c for c in partial if c not in caps and c not in cooks]
        other_slots = self.crew_per_ship - 2
        if ncap > 1 or ncook > 1 or len(rest) > other_slots or \
                not all(c in elig for c in rest):
            return False
        if ncap == 0 and not any(c in caps for c in available):
            return False
        if ncook == 0 and not any(c in cooks for c in available):
            return False
        others = sum(1 for c in available if c in elig and c not in cooks)
        return others >= other_slots - len(rest)

    def ship_crew_ok(self, master: int, crew) -> bool:
        """Whether ``crew`` can sit under ``master`` on a launched ship: a legal full crew,
        or what a raid left of one (no treasure, completable with treasure cards)."""
        if len(crew) >= self.crew_per_ship:
            return self.crew_ok(master, crew)
        if not self.is_master[master] or any(self.is_treasure[c] for c in crew):
            return False
        treasure = [c for c in range(self.C) if self.is_treasure[c] and c not in crew]
        return self.completable(master, crew, treasure)

    def can_launch(self, master: int, hand) -> bool:
        """Whether ``master`` (in ``hand``) can lead a legal ship from the rest of the hand."""
        # completable(master, (), rest of hand), its first test on bitmasks
        if (self.card_mask(hand) & self._elig_mask[master]).bit_count() >= self.crew_per_ship:
            return True
        if master not in self.prize_parts:
            return False
        return self.completable(master, (), [c for c in hand if c != master])

    def crew_choices(self, master: int, crew, hand) -> list:
        """The cards c of ``hand`` that keep the launch completable: ``completable(master,
        crew + [c], hand less c)`` (the crew mask of a launch)."""
        need = self.crew_per_ship - len(crew) - 1
        if need < 0:
            return []
        elig = self.elig[master]
        # completable's first test passes for every eligible c at once, or for none
        simple = all(c in elig for c in crew) and \
            sum(1 for c in hand if c in elig) - 1 >= need
        prize = master in self.prize_parts
        out = []
        for i, c in enumerate(hand):
            if simple and c in elig:
                out.append(c)
            elif prize and self.completable(master, [*crew, c], [*hand[:i], *hand[i + 1:]]):
                out.append(c)
        return out

    def legal_crews(self, master: int, hand):
        """Every legal crew (sorted tuple) for ``master`` from the cards of ``hand``."""
        rest = sorted(c for c in hand if c != master)
        if master not in self.prize_parts:
            # only eligible cards can serve: their combinations, in the same order
            if not self.is_master[master]:
                return []
            elig = self.elig[master]
            return list(combinations([c for c in rest if c in elig], self.crew_per_ship))
        return [crew for crew in combinations(rest, self.crew_per_ship)
                if self.crew_ok(master, crew)]

    def launch_value(self, master: int, crew) -> float:
        """A rough worth of launching this ship (what the heuristic bot maximises): its
        defending levels, twice its shipmaster's rank, 25 for a Black Spot or a Prize Crew,
        6 for the Governor's Daughter, and a quarter of its treasure's points."""
        value = self._crew_worth(crew) + 2.0 * self.rank[master]
        if self.prize_crew and self.is_prize_crew(master, crew):
            value += 25
        return value        # every term is a small multiple of 1/4: exact in any order

    def _crew_worth(self, crew) -> float:
        """The crew's part of ``launch_value``, memoised per crew (the same few crews are
        weighed again and again within a game)."""
        key = tuple(crew)
        worth = self._crew_worths.get(key)
        if worth is None:
            value = self.value
            if all([self._plain[c] for c in crew]):    # levels and treasure only
                levels = sum([self._defend_level[c] for c in crew])
            else:
                kinds = [self.kind[c] for c in crew]
                levels = (self._defending_levels(crew) + 25 * (BLACK_SPOT in kinds)
                          + 6 * (DAUGHTER in kinds))
            worth = remember(self._crew_worths, key,
                             float(levels) + sum([value[c] for c in crew]) / 4.0,
                             _CREW_MEMO_MAX)
        return worth

    def _defending_levels(self, crew) -> int:
        """``sum`` of the crew's effective levels in ``levels(crew, attacking=False)``,
        without building and sorting the duel order (the launch value's hot path)."""
        ruth, base, duelling, lady = (self._ruth_bonus, self._defend_level, self._duelling,
                                      self._lady)
        bonus = sum([ruth[c] for c in crew])
        total = strongest = ladies = 0
        for c in crew:
            if lady[c]:
                ladies += 1
                continue
            lv = base[c] + bonus - ruth[c] if duelling[c] else base[c]
            total += lv
            strongest = max(strongest, lv)
        return total + ladies * strongest

    def best_launch(self, hand, masters=None):
        """(launch value, master, crew) of the best legal ship from ``hand`` (shipmasters
        from ``masters`` if given); None if no ship can be built."""
        held = self.card_mask(hand)
        best = None
        for m in (masters if masters is not None else hand):
            if not self.is_master[m]:
                continue
            ship = self.best_ship(m, held)
            if ship is not None and (best is None or ship[0] > best[0]):
                best = (ship[0], m, ship[1])
        return best

    # -- the best ship of a hand (best_launch and the claim outlook) ----------------------
    def card_mask(self, cards) -> int:
        """The int bitmask of ``cards`` (bit c = card c)."""
        bit = self.bit
        return sum([bit[c] for c in cards])

    def best_ship(self, master: int, cards: int):
        """(launch value, crew) of ``master``'s best ship from the cards of the bitmask
        ``cards`` (the first of the best in ``legal_crews`` order, so ties resolve as
        enumerating every ship does); None if it has no legal crew there."""
        pool = cards & self._pool[master]
        if pool.bit_count() < self.crew_per_ship:
            return None
        # the best crew depends only on the usable cards (and, for a Prize Crew admiral,
        # on which admiral): memoised on that content
        key = (master, pool) if master in self.prize_parts else pool
        found = self._best_ships.get(key, _MISSING)
        if found is _MISSING:
            found = remember(self._best_ships, key, self._best_crew(master, pool),
                             _CREW_MEMO_MAX)
        if found is None:
            return None
        return found[0] + 2.0 * self.rank[master], found[1]   # = launch_value (exact)

    def _best_crew(self, master: int, pool: int):
        """(launch value less the master's rank term, crew) of the first best crew of
        ``master`` from the cards of ``pool``; None if none is legal."""
        cards, rest = [], pool
        while rest:                          # the set bits, lowest first
            low = rest & -rest
            cards.append(low.bit_length() - 1)
            rest ^= low
        if master in self.prize_parts:
            best = None
            for crew in self.legal_crews(master, cards):
                v = self._crew_worth(crew) + (25 if self.is_prize_crew(master, crew) else 0)
                if best is None or v > best[0]:
                    best = (v, crew)
            return best
        # every crew of the pool is legal: drop the cards that at least a crew's worth of
        # others dominate (see _dominator_masks), whose crews are never the first best
        k, dom = self.crew_per_ship, self._dominators
        kept = [c for c in cards if (dom[c] & pool).bit_count() < k]
        worths, best = self._crew_worths, None
        for crew in combinations(kept, k):
            v = worths.get(crew)
            if v is None:
                v = self._crew_worth(crew)
            if best is None or v > best[0]:
                best = (v, crew)
        return best

    def _dominator_masks(self) -> tuple[int, ...]:
        """Per card b, the bitmask of the cards a that dominate it: in any crew without
        both, a instead of b is worth at least as much (same kind of contribution: the
        same duelling, Ruth, Lady, Black Spot and Daughter flags, a defending level and
        treasure value at least b's), and strictly more or a lower id (so the swapped crew
        comes first in ``legal_crews`` order). A crew holding b but missing one of its
        dominators is then never the first best."""
        def flags(c):
            return (self._duelling[c], self._ruth_bonus[c], self._lady[c],
                    self.kind[c] == BLACK_SPOT, self.kind[c] == DAUGHTER)

        level, value = self._defend_level, self.value
        out = []
        for b in range(self.C):
            mask = 0
            for a in range(self.C):
                if a == b or flags(a) != flags(b) or level[a] < level[b] or value[a] < value[b]:
                    continue
                if level[a] > level[b] or value[a] > value[b] or a < b:
                    mask |= self.bit[a]
            out.append(mask)
        return tuple(out)

    # -- battles --------------------------------------------------------------------------
    def levels(self, crew, attacking: bool) -> list[tuple[int, int, int]]:
        """(order class, effective level, card) of each crew card, in duel order."""
        kind = self.kind
        cards = self.cards
        base = []
        bonus = 0
        for c in crew:
            k = kind[c]
            if k == SPY:
                lv = cards[c].attack_level if attacking else cards[c].defend_level
            elif k in (CREW, COOK, PRIVATEER, RUTH):
                lv = cards[c].level
            else:
                lv = 0
            if k == RUTH:
                bonus += cards[c].bonus
            base.append(lv)
        out = []
        for c, lv in zip(crew, base):
            k = kind[c]
            if k in _DUELLING:
                own = cards[c].bonus if k == RUTH else 0
                lv += bonus - own
            out.append([c, lv])
        strongest = max((lv for c, lv in out if kind[c] != LADY), default=0)
        res = []
        for c, lv in out:
            k = kind[c]
            if k == LADY:
                res.append((_LAST, strongest, c))
            elif k == DAUGHTER:
                res.append((_FIRST, 0, c))
            else:
                res.append((_MIDDLE, lv, c))
        res.sort()
        return res

    def _duel(self, a, b) -> int:
        """+1 if card entry ``a`` wins, -1 if ``b`` wins, 0 tie."""
        ad, bd = self.kind[a[2]] == DAUGHTER, self.kind[b[2]] == DAUGHTER
        if ad or bd:
            return 0 if ad and bd else (1 if ad else -1)
        return (a[1] > b[1]) - (a[1] < b[1])

    def fourth_card(self, crew, attacking: bool):
        """(order, level, card) of the card of a Prize Crew that is neither Captain nor Cook."""
        for entry in self.levels(crew, attacking):
            if self.kind[entry[2]] not in (CAPTAIN, COOK):
                return entry
        return (_MIDDLE, 0, -1)

    def resolve(self, att_master: int, att_crew, def_master: int, def_crew) -> BattleResult:
        """The outcome of ``att_master``'s ship attacking ``def_master``'s ship."""
        kind = self.kind
        if self.suit[att_master] == RAIDER and kind[att_master] != PRIVATEER:
            loot = tuple(c for c in def_crew if self.is_treasure[c])
            if loot:
                return BattleResult(RAID, "raid", plunder=loot)
        a_spot = any(kind[c] == BLACK_SPOT for c in att_crew)
        d_spot = any(kind[c] == BLACK_SPOT for c in def_crew)
        if a_spot and d_spot:
            return BattleResult(SINK, "both black spots")
        if a_spot != d_spot:
            return BattleResult(ATTACKER if a_spot else DEFENDER, "black spot")
        if self.prize_crew:
            a_prize = self.is_prize_crew(att_master, att_crew)
            d_prize = self.is_prize_crew(def_master, def_crew)
            if a_prize != d_prize:
                return BattleResult(ATTACKER if a_prize else DEFENDER, "prize crew")
            if a_prize and d_prize:
                a4 = self.fourth_card(att_crew, True)
                d4 = self.fourth_card(def_crew, False)
                w = self._duel(a4, d4)
                duel = ((a4[2], a4[1], d4[2], d4[1], w),)
                if w == 0:
                    return BattleResult(SINK, "prize crew", duels=duel)
                return BattleResult(ATTACKER if w > 0 else DEFENDER, "prize crew", duels=duel)
        al = self.levels(att_crew, True)
        dl = self.levels(def_crew, False)
        duels = []
        score = 0
        for i in range(max(len(al), len(dl))):
            if i >= len(al) or i >= len(dl):
                w = 1 if i < len(al) else -1       # an unopposed card wins its duel
                a, d = (al[i] if i < len(al) else (0, 0, -1)), (dl[i] if i < len(dl) else (0, 0, -1))
            else:
                a, d = al[i], dl[i]
                w = self._duel(a, d)
            duels.append((a[2], a[1], d[2], d[1], w))
            score += w
        duels = tuple(duels)
        if score:
            return BattleResult(ATTACKER if score > 0 else DEFENDER, "duels", duels=duels)
        ra, rd = self.rank[att_master], self.rank[def_master]
        if ra != rd:
            return BattleResult(ATTACKER if ra > rd else DEFENDER, "rank", duels=duels)
        return BattleResult(SINK, "tie", duels=duels)


def has_black_spot(rules: ShipRules, crew) -> bool:
    """Whether a crew carries a Black Spot."""
    return any(rules.kind[c] == BLACK_SPOT for c in crew)

