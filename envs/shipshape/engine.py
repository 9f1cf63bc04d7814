"""ShipShape rules engine: simultaneous crew bids, crate stacking, voyage scoring.

Seats: the agents ``0 .. n-1``; with 2 or 5 players the dummy Cap'n Happen Stance is one
more seat (``n``), played by the engine. Seats form one bidding group (2-4 seats) or, with
six seats, two groups of three that change every voyage (``GROUP_SCHEDULE``).

One turn of a group (three turns per voyage):

1. stage 1 bid: every seat of the group picks a crew card at once (the Cap'n turns over the
   top card of his deck when the agents' picks are applied);
2. matching values are tied; the others take the next crates of the group's stack from the
   highest card to the lowest and place them (a joint decision of the takers);
3. stage 2 bid: the tied seats pick again; non-tied ones take crates high to low, then those
   tied twice take crates from the highest- to the lowest-numbered hold; then they place.

Both groups of a six-seat game decide at the same time (their decisions do not interact).
Actions: ``0-9`` bid card 1-10; ``10-17`` place the taken crate in orientation 0-7 relative
to how it lay in the stack (``geometry.ORIENTATION_NAMES``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from plunder.envs.core.errors import require
from plunder.envs.core.game import Game, GameState
from plunder.envs.core.layout import EntityGroup
from plunder.envs.core.state_io import check_int, check_int_lists, check_list, derived, field

from .codes import ACTIONS, BID0, NUM_ACTIONS, NUM_CARDS, NUM_ORIENTATIONS, PLACE0
from .components import VOYAGE_HOLDS, Components, default_components
from .geometry import (
    COMPOSE, FULL_SHIP_BONUS, SCORE_PARTS, orient, score_voyage,
)
from .view import PublicTable, ShipShapeView

VOYAGES = 3
TURNS_PER_VOYAGE = 3

#: six seats: the two groups of each voyage; no group repeats and no pair meets 3 times
GROUP_SCHEDULE = (
    ((0, 1, 2), (3, 4, 5)),
    ((0, 1, 3), (2, 4, 5)),
    ((0, 2, 4), (1, 3, 5)),
)


class ShipShapeGame(Game):
    """ShipShape for 2-6 players (plus Cap'n Happen Stance with 2 or 5)."""

    name = "shipshape"
    version = 0
    min_players = 2
    max_players = 6
    options: dict[str, Any] = {}
    simultaneous = True
    default_max_turns = 100
    actions = ACTIONS

    def __init__(self, num_players: int, components: Components | None = None, **options):
        super().__init__(num_players, **options)
        self.components = components if components is not None else default_components()
        n = self.num_players
        self.has_capn = n in (2, 5)
        self.num_seats = n + 1 if self.has_capn else n
        #: the Cap'n's seat index, or None
        self.capn = n if self.has_capn else None
        self.six_seat = self.num_seats == 6
        self.group_size = 3 if self.six_seat else self.num_seats
        #: crates in one group's stack (three turns, one crate per seat each)
        self.stack_size = TURNS_PER_VOYAGE * self.group_size
        #: group_index[voyage][seat] = index of the seat's group
        self.group_index = tuple(
            tuple(next(k for k, grp in enumerate(self.groups(v)) if s in grp)
                  for s in range(self.num_seats))
            for v in range(VOYAGES))
        self._layout = None
        self.bind_compiled()

    #: the Python encoder's tables (observation._tables), unused when compiled
    python_encoder_attrs = ("_obs_tables",)

    # -- structure ----------------------------------------------------------------------
    def groups(self, voyage: int) -> tuple[tuple[int, ...], ...]:
        """The bidding groups of ``voyage`` (0-2)."""
        if self.six_seat:
            return GROUP_SCHEDULE[voyage]
        return (tuple(range(self.num_seats)),)

    def seat_name(self, seat: int) -> str:
        """``player_i``, or ``capn`` for the dummy seat."""
        return "capn" if seat == self.capn else f"player_{seat}"

    def oriented(self, crate: int, orientation: int) -> tuple[int, ...]:
        """Crate ``crate``'s cells as it lies in ``orientation``."""
        return orient(self.components.crate(crate), orientation)

    def compiled_engine_params(self, module) -> tuple:
        """The compiled engine's constants (``_engine.Engine(*params)``, in its order)."""
        from . import observation
        from .geometry import COMPOSE
        comp = self.components
        return (self.num_players, self.num_seats, -1 if self.capn is None else self.capn,
                tuple(self.groups(v) for v in range(VOYAGES)),
                tuple(c for cells in comp.holds for c in cells),
                tuple(h for holds in VOYAGE_HOLDS for h in holds),
                tuple(a for row in COMPOSE for a in row), (NUM_ACTIONS, BID0, PLACE0),
                observation.compiled_params(self, module), ShipShapeView.make,
                PublicTable.from_fields)

    # -- spaces -------------------------------------------------------------------------
    @property
    def entity_groups(self) -> tuple[EntityGroup, ...]:
        """The 8 orientations of the crate being placed: each is read from its own outcome
        (``place_outcomes``), so a policy may score "place in orientation k" with weights
        shared across orientations, as the heuristic compares them by one formula. The 10
        crew cards: each is read from who holds it, so "bid card c" is scored alike."""
        orientations = EntityGroup("orientations", NUM_ORIENTATIONS, ("place_outcomes",),
                                   (PLACE0,))
        # crew card c: who holds it (you, then each seat slot); its value is its feature
        cards = EntityGroup("cards", NUM_CARDS, ("my_hand",), (BID0,), ("seat_hand",),
                            tuple((c / NUM_CARDS,) for c in range(1, NUM_CARDS + 1)))
        return (orientations, cards)

    def encode(self, view: ShipShapeView) -> np.ndarray:
        """The observation vector of ``view`` (the Python encoder; ``bind_compiled`` puts
        the compiled one on the instance)."""
        from .observation import encode
        return encode(self, view)

    # -- states -------------------------------------------------------------------------
    def new_initial_state(self, rng: np.random.Generator) -> "ShipShapeState":
        state = ShipShapeState(self, rng)
        state.setup()
        return state


def _check_rows(rows, where: str, bounds: tuple[tuple[int | None, int | None], ...],
                max_rows: int | None = None, length: int | None = None) -> list:
    """A list of ``length`` (or up to ``max_rows``) rows, each a list of ints within
    ``bounds`` (one (low, high) per column), e.g. one seat's placed crates
    ``[[crate, orientation], ...]``."""
    check_list(rows, where, length, max_len=max_rows)
    for j, row in enumerate(rows):
        check_list(row, f"{where}[{j}]", len(bounds))
        for k, (low, high) in enumerate(bounds):
            check_int(row[k], f"{where}[{j}][{k}]", low, high)
    return rows


def _check_row_lists(value, where: str, length: int, bounds, max_rows: int | None = None,
                     rows: int | None = None) -> list:
    """``length`` lists of rows (one per seat, group or voyage), each as ``_check_rows``."""
    check_list(value, where, length)
    for i, inner in enumerate(value):
        _check_rows(inner, f"{where}[{i}]", bounds, max_rows, rows)
    return value


def _crate(game: "ShipShapeGame") -> tuple:
    """Bounds of a crate's columns in saved rows: [crate id, orientation]."""
    return ((1, len(game.components.crates)), (0, NUM_ORIENTATIONS - 1))


def _read_hold_history(game: "ShipShapeGame", value, where: str) -> list:
    """One hold number per seat for each voyage so far."""
    check_list(value, where, None, 1, VOYAGES)
    return check_int_lists(value, where, None, game.num_seats, 1,
                           len(game.components.holds))


def _read_voyage_scores(game: "ShipShapeGame", value, where: str) -> list:
    """Per finished voyage, per seat: the geometry.SCORE_PARTS values."""
    check_list(value, where, max_len=VOYAGES)
    return _check_row_lists(value, where, len(value), ((None, None),) * len(SCORE_PARTS),
                            rows=game.num_seats)


def _put(tup: tuple, i: int, value) -> tuple:
    """``tup`` with entry ``i`` replaced."""
    return tup[:i] + (value,) + tup[i + 1:]


class ShipShapeState(GameState):
    """One position of ShipShape.

    Every field holds immutable data (ints, bools, nested tuples) and is replaced, never
    changed in place: clones share them, and the views of one position share one public
    table (``public_table``), which any assignment drops.
    """

    #: every field checked on loading (types, ranges, one entry per seat / group / voyage,
    #: ids of existing crates, holds and cards) and kept as nested tuples
    STATE_FIELDS = (
        field("num_players", "choice", check_only=True, choices=lambda g: [g.num_players]),
        field("turns", "int", frozen=True, low=0, high=VOYAGES * TURNS_PER_VOYAGE),
        field("voyage", "int", frozen=True, low=0, high=VOYAGES - 1),
        field("turn", "int", frozen=True, low=0, high=TURNS_PER_VOYAGE),
        field("done", "bool", frozen=True),
        field("hands", "int_lists", frozen=True, length=lambda g: g.num_seats, low=1,
              high=NUM_CARDS, max_inner=NUM_CARDS),
        field("discards", "int_lists", frozen=True, length=lambda g: g.num_seats, low=1,
              high=NUM_CARDS, max_inner=NUM_CARDS),
        field("coins", "ints", frozen=True, length=lambda g: g.num_seats, low=0),
        field("hold_history", "custom", frozen=True, read=_read_hold_history),
        field("placed", "custom", frozen=True, read=lambda g, v, where: _check_row_lists(
            v, where, g.num_seats, _crate(g), TURNS_PER_VOYAGE)),
        field("stacks", "custom", frozen=True, read=lambda g, v, where: _check_row_lists(
            v, where, len(g.groups(0)), _crate(g), g.stack_size)),
        field("unused", "ints", frozen=True, low=1, high=lambda g: len(g.components.crates),
              max_len=lambda g: len(g.components.crates)),
        field("need", "int_lists", frozen=True, length=lambda g: len(g.groups(0)), low=0,
              high=lambda g: g.num_seats - 1, max_inner=lambda g: g.group_size),
        field("stage", "ints", frozen=True, length=lambda g: len(g.groups(0)), low=1, high=2),
        field("placing", "custom", frozen=True, read=lambda g, v, where: _check_row_lists(
            v, where, len(g.groups(0)), ((0, g.num_seats - 1),) + _crate(g), g.group_size)),
        field("bids", "custom", frozen=True, read=lambda g, v, where: _check_rows(
            v, where, ((0, VOYAGES - 1), (0, TURNS_PER_VOYAGE - 1), (1, 2),
                       (0, g.num_seats - 1), (1, NUM_CARDS)),
            VOYAGES * TURNS_PER_VOYAGE * 2 * g.num_seats)),
        field("voyage_scores", "custom", frozen=True, read=_read_voyage_scores),
        derived("visible", None),   # rebuilt from hold and placed crates on loading
    )

    @property
    def num_players(self) -> int:
        """The game's player count (saved with the state, checked on loading)."""
        return self.game.num_players

    def __init__(self, game: ShipShapeGame, rng: np.random.Generator):
        super().__init__(game, rng)
        S = game.num_seats
        self.voyage = 0            # 0-2
        self.turn = 0              # turn within the voyage, 0-2
        self.done = False
        #: crew cards in hand (sorted); for the Cap'n his face-down deck, top card first
        self.hands: tuple[tuple[int, ...], ...] = ((),) * S
        self.discards: tuple[tuple[int, ...], ...] = ((),) * S
        self.coins: tuple[int, ...] = (0,) * S
        #: hold number of every seat, per voyage so far (the last entry is the current one)
        self.hold_history: tuple[tuple[int, ...], ...] = ()
        #: crates on each seat's hold this voyage, bottom first: (crate id, orientation)
        self.placed: tuple = ((),) * S
        #: each group's crate stack, top first: (crate id, orientation as it lies)
        self.stacks: tuple = ()
        #: crate ids not yet drawn in this game
        self.unused: tuple[int, ...] = ()
        #: per group: seats still without a crate this turn (they bid)
        self.need: tuple[tuple[int, ...], ...] = ()
        #: per group: 1 = first bid of the turn, 2 = re-bid of the tied seats
        self.stage: tuple[int, ...] = ()
        #: per group: (seat, crate id, orientation in the stack) taken, not yet placed
        self.placing: tuple = ()
        #: every revealed bid: (voyage, turn, stage, seat, card)
        self.bids: tuple = ()
        #: per finished voyage, per seat: geometry.SCORE_PARTS values
        self.voyage_scores: tuple = ()
        #: top-down view of every seat's hold (derived from hold + placed crates)
        self.visible: tuple[tuple[int, ...], ...] = ((0,) * 9,) * S

    def __setattr__(self, name, value):
        d = self.__dict__
        d[name] = value
        d["_table"] = None

    # -- setup --------------------------------------------------------------------------
    def setup(self) -> None:
        """Crew cards, the Cap'n's shuffled deck, Voyage 1 holds and crate stacks."""
        g = self.game
        full = tuple(range(1, NUM_CARDS + 1))
        self.hands = (full,) * g.num_seats
        if g.capn is not None:
            self.hands = _put(self.hands, g.capn, self._shuffled(full))
        self.unused = tuple(range(1, len(g.components.crates) + 1))
        holds = self.rng.choice(VOYAGE_HOLDS[0], size=g.num_seats, replace=False)
        self.hold_history = (tuple(holds.tolist()),)
        self._start_voyage()

    def _shuffled(self, cards) -> tuple[int, ...]:
        return tuple(cards[i] for i in self.rng.permutation(len(cards)))

    def _start_voyage(self) -> None:
        g = self.game
        self.placed = ((),) * g.num_seats
        self.visible = tuple(g.components.hold(h) for h in self.hold_history[-1])
        groups = g.groups(self.voyage)
        take = g.stack_size * len(groups)
        picks = self.rng.choice(len(self.unused), size=take, replace=False)
        orients = self.rng.integers(0, 8, size=take)
        drawn = [(self.unused[i], o) for i, o in zip(picks.tolist(), orients.tolist())]
        taken = {d[0] for d in drawn}
        self.unused = tuple([c for c in self.unused if c not in taken])
        self.stacks = tuple(tuple(drawn[k * g.stack_size:(k + 1) * g.stack_size])
                            for k in range(len(groups)))
        self.turn = 0
        self._start_turn()

    def _start_turn(self) -> None:
        groups = self.game.groups(self.voyage)
        self.need = tuple(groups)
        self.stage = (1,) * len(groups)
        self.placing = ((),) * len(groups)

    # -- whose decision -----------------------------------------------------------------
    def current_players(self) -> tuple[int, ...]:
        """The seats with a crate to place in a group placing, else those still bidding
        (never the Cap'n), in seat order."""
        acting = []
        if not self.done:
            capn = self.game.capn
            for k, placing in enumerate(self.placing):
                if placing:
                    acting += [x[0] for x in placing]
                else:
                    acting += [s for s in self.need[k] if s != capn]
        return tuple(sorted(acting))

    def group_of(self, seat: int) -> int:
        """Index of ``seat``'s group this voyage."""
        return self.game.group_index[min(self.voyage, VOYAGES - 1)][seat]

    def decision(self, seat: int) -> str:
        """What ``seat`` must decide now: ``"bid"``, ``"place"`` or ``""`` (nothing), as
        ``current_players`` asks: a group placing asks the seats with a crate to place,
        else the seats still bidding (never the Cap'n)."""
        if self.done:
            return ""
        k = self.group_of(seat)
        if self.placing[k]:
            return "place" if any(x[0] == seat for x in self.placing[k]) else ""
        return "bid" if seat in self.need[k] and seat != self.game.capn else ""

    def legal_actions_mask(self, player: int) -> np.ndarray:
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        kind = self.decision(player)
        if kind == "bid":
            for card in self.hands[player]:
                mask[BID0 + card - 1] = 1
        elif kind == "place":
            mask[PLACE0:] = 1
        return mask

    # -- moves --------------------------------------------------------------------------
    def _apply(self, actions: dict[int, int]) -> None:
        for k in range(len(self.need)):
            if self.placing[k]:
                self._place_all([(seat, crate, COMPOSE[stack_orient][actions[seat] - PLACE0])
                                 for seat, crate, stack_orient in self.placing[k]])
                self.placing = _put(self.placing, k, ())
            elif self.need[k]:
                self._resolve_bids(k, actions)
        if not any(self.need) and not any(self.placing):
            self._end_turn()

    def _resolve_bids(self, k: int, actions: dict[int, int]) -> None:
        """Reveal the bids of group ``k``; hand out crates; set up the next step."""
        capn = self.game.capn
        bidders = self.need[k]
        stage = self.stage[k]
        voyage, turn = self.voyage, self.turn
        cards = {}
        new_bids = []
        hands, discards = list(self.hands), list(self.discards)
        for seat in bidders:
            hand = hands[seat]
            if seat == capn:
                if not hand:   # his deck ran out: shuffle his discards into a new deck
                    hand = self._shuffled(sorted(discards[seat]))
                    discards[seat] = ()
                card, hand = hand[0], hand[1:]
            else:
                card = actions[seat] - BID0 + 1
                hand = tuple([c for c in hand if c != card])
            discard = discards[seat] + (card,)
            if len(hand) == 1 and seat != capn:
                # down to one card: take all the discarded cards back into the hand
                hand, discard = tuple(sorted(hand + discard)), ()
            hands[seat], discards[seat] = hand, discard
            cards[seat] = card
            new_bids.append((voyage, turn, stage, seat, card))
        self.hands, self.discards = tuple(hands), tuple(discards)
        self.bids = self.bids + tuple(new_bids)
        values = list(cards.values())
        tied = tuple([s for s in bidders if values.count(cards[s]) > 1])
        # highest card first (a reversed sort keeps equal keys in order, as a key of -card)
        order = sorted([s for s in bidders if s not in tied], key=cards.__getitem__,
                       reverse=True)
        if stage == 1:
            self.need = _put(self.need, k, tied)
            self.stage = _put(self.stage, k, 2)
        else:
            holds = self.hold_history[-1]
            order += sorted(tied, key=holds.__getitem__, reverse=True)
            self.need = _put(self.need, k, ())
        stack = self.stacks[k]
        placing = []
        for i, seat in enumerate(order):
            crate, stack_orient = stack[i]
            if seat == capn:   # the Cap'n places it exactly as it lay in the stack
                self._place(seat, crate, stack_orient)
            else:
                placing.append((seat, crate, stack_orient))
        self.stacks = _put(self.stacks, k, stack[len(order):])
        self.placing = _put(self.placing, k, tuple(sorted(placing)))

    def _place(self, seat: int, crate: int, orientation: int) -> None:
        self._place_all([(seat, crate, orientation)])

    def _place_all(self, placements: list[tuple[int, int, int]]) -> None:
        """Put each crate of ``placements`` (seat, crate id, orientation) on its seat's hold."""
        g = self.game
        placed, visible = list(self.placed), list(self.visible)
        for seat, crate, orientation in placements:
            placed[seat] += ((crate, orientation),)
            below = visible[seat]       # the hold shows through the crate's holes
            visible[seat] = tuple(c if c else below[i]
                                  for i, c in enumerate(g.oriented(crate, orientation)))
        self.placed, self.visible = tuple(placed), tuple(visible)

    def _end_turn(self) -> None:
        self.turns += 1
        self.turn += 1
        if self.turn < TURNS_PER_VOYAGE:
            self._start_turn()
            return
        result = score_voyage(self.visible)
        self.voyage_scores = self.voyage_scores + (
            tuple(tuple(r[part] for part in SCORE_PARTS) for r in result),)
        self.coins = tuple(c + r["coins"] for c, r in zip(self.coins, result))
        if self.voyage + 1 >= VOYAGES:
            self.done = True
            self.need = ((),) * len(self.need)
            self.placing = ((),) * len(self.placing)
            return
        self.voyage += 1
        self._assign_holds()
        self._start_voyage()

    def _assign_holds(self) -> None:
        """Most coins takes the highest-numbered hold of the next set; equal coins: the seat
        that had the lower-numbered hold takes the higher-numbered one."""
        g = self.game
        drawn = self.rng.choice(VOYAGE_HOLDS[self.voyage], size=g.num_seats, replace=False)
        drawn = sorted(drawn.tolist(), reverse=True)
        last = self.hold_history[-1]
        order = sorted(range(g.num_seats), key=lambda s: (-self.coins[s], last[s]))
        new = [0] * g.num_seats
        for seat, hold in zip(order, drawn):
            new[seat] = hold
        self.hold_history = self.hold_history + (tuple(new),)

    def validate(self) -> None:
        """Assert the rules' invariants: each seat's ten crew cards are in its hand or
        discards, every crate drawn this voyage is in exactly one place (stack, being
        placed, on a hold), holds are dealt legally, coins add up, bids are consistent."""
        g = self.game
        S = g.num_seats
        groups = g.groups(self.voyage)
        require(0 <= self.voyage < VOYAGES and 0 <= self.turn <= TURNS_PER_VOYAGE,
                "voyage/turn: out of range")
        require((self.turn == TURNS_PER_VOYAGE) == self.done,
                "turn: a voyage ended mid-game (or the game ended mid-voyage)")
        if self.done:
            require(self.voyage == VOYAGES - 1, "done: the game ended before voyage 3")
        require(self.turns == TURNS_PER_VOYAGE * self.voyage + self.turn,
                "turns: not the turns played so far")
        # crew cards: hand + discards are the ten cards; a player keeps at least 2 in hand
        all_cards = list(range(1, NUM_CARDS + 1))
        require(len(self.hands) == len(self.discards) == len(self.coins) == S,
                "hands/discards/coins: not one entry per seat")
        for seat in range(S):
            require(sorted(self.hands[seat] + self.discards[seat]) == all_cards, (
                    f"seat {seat}'s crew cards were created or lost"))
            if seat != g.capn:
                require(len(self.hands[seat]) >= 2,
                        f"hands: seat {seat} holds fewer than 2 cards (it takes its discards back)")
                require(list(self.hands[seat]) == sorted(self.hands[seat]),
                        f"hands: seat {seat}'s hand is kept sorted")
        # crates: this voyage's draw is in the stacks, being placed or on holds, once
        require(len(self.stacks) == len(self.need) == len(self.stage) == len(self.placing)
                == len(groups), "stacks/need/stage/placing: not one entry per group")
        require(len(self.placed) == S, "placed: not one entry per seat")
        in_play = ([c for st in self.stacks for c, _ in st]
                   + [x[1] for grp in self.placing for x in grp]
                   + [c for p in self.placed for c, _ in p])
        require(len(in_play) == len(set(in_play)), "a crate is in two places")
        require(len(in_play) == TURNS_PER_VOYAGE * S, "a crate of this voyage was created or lost")
        require(set(in_play).isdisjoint(self.unused), "a crate both drawn and unused")
        require(len(set(self.unused)) == len(self.unused) ==
                len(g.components.crates) - TURNS_PER_VOYAGE * S * (self.voyage + 1),
                "unused: not the crates left after this many voyages")
        require(set(in_play) | set(self.unused) <= set(range(1, len(g.components.crates) + 1)),
                "crates: an id that is not a crate")
        orients = [o for st in self.stacks for _, o in st] + \
            [x[2] for grp in self.placing for x in grp] + [o for p in self.placed for _, o in p]
        require(all(0 <= o < NUM_ORIENTATIONS for o in orients), "a crate with no such orientation")
        # each seat takes one crate per turn, from its own group's stack
        for k, grp in enumerate(groups):
            require(len(self.stacks[k]) + sum(len(self.placed[x]) for x in grp)
                    + len(self.placing[k]) == TURNS_PER_VOYAGE * len(grp),
                    f"stacks: group {k}'s crates do not add up to its stack")
            require(set(self.need[k]) <= set(grp), f"need: a seat outside group {k}")
            require(list(self.need[k]) == [x for x in grp if x in self.need[k]],
                    f"need: group {k}'s bidders, each once, in seat order")
            require(self.stage[k] in (1, 2), f"stage: group {k} is in no bidding stage")
            takers = [x[0] for x in self.placing[k]]
            require(set(takers) <= set(grp) and len(set(takers)) == len(takers),
                    f"placing: a seat outside group {k}, or twice")
            require(g.capn not in takers, "placing: the Cap'n places at once")
            require(set(takers).isdisjoint(self.need[k]), "a seat both bids and places")
            if self.stage[k] == 1 and not self.done:
                require(not takers and tuple(self.need[k]) == tuple(grp),
                        "need: the whole group bids at stage 1")
        for seat in range(S):
            taking = any(x[0] == seat for grp in self.placing for x in grp)
            have = len(self.placed[seat]) + taking
            if self.done:
                require(have == TURNS_PER_VOYAGE, "placed: three crates each at the end")
            else:
                require(self.turn <= have <= self.turn + 1,
                        f"placed: seat {seat} has a crate too many or too few")
                needs = any(seat in nd for nd in self.need)
                require((have == self.turn + 1) != needs, "a seat without one crate a turn")
        if self.done:
            require(not any(self.need) and not any(self.placing),
                    "need/placing: bids or placements pending after the game")
        # holds: one per seat from each voyage's set, all different
        require(len(self.hold_history) == self.voyage + 1,
                "hold_history: not one entry per voyage so far")
        for voyage, holds in enumerate(self.hold_history):
            require(len(holds) == len(set(holds)) == S, "hold_history: a hold dealt twice")
            require(set(holds) <= set(VOYAGE_HOLDS[voyage]),
                    f"hold_history: a hold outside the voyage {voyage + 1} set")
        require(self.visible == tuple(self.compute_visible(x) for x in range(S)),
                "visible: not what the seats can see of the holds")
        # coins are the voyages' scoring; one score row per finished voyage
        require(len(self.voyage_scores) == self.voyage + self.done,
                "voyage_scores: not one entry per finished voyage")
        require(all(len(v) == S for v in self.voyage_scores),
                "voyage_scores: a row not per seat")
        coins_part = SCORE_PARTS.index("coins")
        require(list(self.coins) == [sum(v[x][coins_part] for v in self.voyage_scores)
                                    for x in range(S)], "coins: not the voyages' scores")
        # every voyage's score row adds up (coins are never lost: a negative total is 0)
        parts = {name: i for i, name in enumerate(SCORE_PARTS)}
        for row in (r for v in self.voyage_scores for r in v):
            raw = sum(row[parts[x]] for x in ("gold", "cannons", "contraband", "full_ship"))
            require(row[parts["raw"]] == raw and row[parts["coins"]] == max(0, raw),
                    "voyage_scores: a row does not add up")
            require(row[parts["cannons"]] >= 0 and row[parts["contraband"]] >= 0
                    and row[parts["full_ship"]] in (0, FULL_SHIP_BONUS),
                    "voyage_scores: an impossible cannons, contraband or full-ship score")
        for v in self.voyage_scores:
            require(min(r[parts["cannons"]] for r in v) == 0,
                    "voyage_scores: the lowest cannons must score 0")
        self._validate_bids()

    def _validate_bids(self) -> None:
        """Revealed bids: in order, of cards that exist, by seats that exist, one per seat
        and bidding stage; this turn's first bids decide who re-bids."""
        S = self.game.num_seats
        keys = [(vo, tu, st) for vo, tu, st, _, _ in self.bids]
        require(keys == sorted(keys), "bids: not in the order they were revealed")
        require(all((vo, tu) <= (self.voyage, self.turn) for vo, tu, _ in keys),
                "bids: a bid from a turn still to come")
        require(len({b[:4] for b in self.bids}) == len(self.bids),
                "bids: a seat bid twice in one stage")
        require(all(0 <= b[3] < S and 1 <= b[4] <= NUM_CARDS for b in self.bids),
                "bids: a seat or crew card out of range")
        if self.done:
            return
        for k, grp in enumerate(self.game.groups(self.voyage)):
            now = [b for b in self.bids if (b[0], b[1]) == (self.voyage, self.turn)
                   and b[3] in grp]
            first = {b[3]: b[4] for b in now if b[2] == 1}
            if self.stage[k] == 1:
                require(not now, "bids: the group has bid although its turn has not begun")
                continue
            require(sorted(first) == sorted(grp), "bids: stage 2 without everyone's first bid")
            values = list(first.values())
            tied = {s for s, card in first.items() if values.count(card) > 1}
            require({b[3] for b in now if b[2] == 2} <= tied, "bids: a re-bid by an untied seat")
            if self.need[k]:
                require(set(self.need[k]) == tied, "need: not the seats tied in the first bids")

    def compute_visible(self, seat: int) -> tuple[int, ...]:
        """Top-down view of ``seat``'s hold, rebuilt from the hold and the placed crates."""
        comp = self.game.components
        vis = list(comp.hold(self.hold_history[-1][seat]))
        for crate, o in self.placed[seat]:
            for i, c in enumerate(orient(comp.crate(crate), o)):
                if c:
                    vis[i] = c
        return tuple(vis)

    def voyage_score_dicts(self) -> list[list[dict[str, int]]]:
        """``voyage_scores`` as dicts: per finished voyage, per seat, part -> coins."""
        return [[dict(zip(SCORE_PARTS, r)) for r in v] for v in self.voyage_scores]

    # -- outcome ------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.done

    def scores(self) -> list[float]:
        return [float(c) for c in self.coins[:self.game.num_players]]

    def rank_keys(self) -> list[tuple[float, float]]:
        """(coins, current hold number) of every seat, the Cap'n last; after the game the
        hold is the voyage-3 hold (the rulebook's tie-break)."""
        holds = self.hold_history[-1]
        return [(float(self.coins[s]), float(holds[s])) for s in range(self.game.num_seats)]

    # -- information --------------------------------------------------------------------
    def public_table(self) -> PublicTable:
        """The public facts (cached until the next change): the Cap'n's deck sorted."""
        table = self._table
        if table is None:
            capn = self.game.capn
            hands = self.hands
            if capn is not None:
                hands = _put(hands, capn, tuple(sorted(hands[capn])))
            table = PublicTable.from_fields({
                "acting": self.current_players(), "voyage": self.voyage, "turn": self.turn,
                "turns": self.turns, "done": self.done, "hands": hands,
                "discards": self.discards, "coins": self.coins,
                "hold_history": self.hold_history, "placed": self.placed,
                "visible": self.visible, "stacks": self.stacks, "unused": self.unused,
                "need": self.need, "stage": self.stage, "placing": self.placing,
                "bids": self.bids, "voyage_scores": self.voyage_scores,
            })
            self.__dict__["_table"] = table
        return table

    def python_view(self, player: int) -> ShipShapeView:
        """Everything is public except the Cap'n's deck order (given sorted) and the
        generator; picks pending in the AEC env are not part of the state at all."""
        return ShipShapeView.make(player, self.decision(player), self.public_table())

    def loaded(self) -> None:
        """The derived top-down holds of a loaded state."""
        self.visible = tuple(self.compute_visible(s) for s in range(self.game.num_seats))


ShipShapeGame.state_class = ShipShapeState

__all__ = ["ACTIONS", "BID0", "GROUP_SCHEDULE", "NUM_ACTIONS", "NUM_CARDS", "NUM_ORIENTATIONS",
           "PLACE0", "ShipShapeGame", "ShipShapeState"]
