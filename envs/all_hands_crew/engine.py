"""All Hands on Deck (crew combinations): the rules engine (no gymnasium/PettingZoo).

A round is three phases (see envs/all_hands_crew/rules.md):

1. ``draw``: from the start player clockwise, one card at a time, each player takes the
   top card of any non-empty Drawing Pile into their face-down stock until they hold 3
   (1 under Short rations). ``spyglass``: then, clockwise from the start player, each
   Spyglass draws 2 more cards from one pile at once.
2. ``hire``: simultaneous; every player picks a stock card for their Crew Pile (Double hire:
   one more pick per Cook pair, each may be passed). When all have picked, the unchosen
   cards go, in stock order, on top of the player's own Drawing Pile.
3. ``lay``: clockwise from the start player, each player lays out complete combinations
   one at a time, then passes; a Gunner, Carpenter or Bosun pair asks at once for its
   target (``target`` phase).

At the start of a round with fewer cards in all Drawing Piles than players the game ends:
each Crew Pile is laid out in its best partition, single captains are penalised.

This module holds the game, the state's fields, whose decision, the legal moves, scoring,
the view and the invariants; ``rounds`` holds the effects of the moves, phase by phase.

State fields are plain lists. Knowledge bookkeeping: ``pile_known[s][i]`` is the bit mask
of players who know the card at position i of pile s (who put cards where is public, so
the masks themselves are public); ``crew_known[q][o][k]`` is how many kind-k cards player
o has seen go into q's Crew Pile and not seen leave it (snatched cards, and every hire in
the open-stock variant); ``crew_maybe_gone[q][o]`` is how many of those may nevertheless be
gone: a Snatch from q that o did not see took a random card, perhaps one o knew of (at most
as many as o knows of). So o knows q's pile holds all its known cards but
``crew_maybe_gone[q][o]`` of them, not which.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from plunder.envs.core.errors import require
from plunder.envs.core.game import Game, GameState
from plunder.envs.core.layout import EntityGroup
from plunder.envs.core.state_io import (
    check_choice, check_int, check_int_lists, check_list, copy_rows, field, last_seat,
    num_players,
)

from .components import NO_CARDS, NUM_CREW, NUM_KINDS, TARGETED, default_components, partitioner
from .observation import build_layout, encode_view
from .codes import PHASES, Phase, action_ranges
from .rounds import RoundPhases
from .view import AllHandsCrewView

class AllHandsCrewGame(Game):
    """All Hands on Deck for 2-6 players; option ``open_stock`` (the rulebook's variant)."""

    name = "all_hands_crew"
    version = 0
    min_players = 2
    max_players = 6
    options = {"open_stock": False}
    simultaneous = True
    default_max_turns = 20_000

    def __init__(self, num_players: int, **options: Any):
        super().__init__(num_players, **options)
        self.comps = default_components()
        self.partitioner = partitioner()
        self.combos = self.comps.combos
        self.num_combos = len(self.combos)
        self.copies = self.comps.copies[self.num_players]
        self.deal = self.comps.deal[self.num_players]
        spy_kinds = [k for k in range(NUM_CREW) if self.comps.pair_actions[k] == "spyglass"]
        most = max(self.comps.copies[m] for m in self.comps.copies)
        max_spy = sum(most[k] // 2 for k in spy_kinds)
        #: most stock cards one player can hold (3 + 2 per Spyglass laid in one round)
        self.max_stock = self.comps.stock_cards + self.comps.spyglass_extra * max_spy
        #: most Spyglass double draws one player can have in a round
        self.max_spyglasses = max_spy
        n = self.num_players
        self.actions = action_ranges(n, self.max_stock, tuple(cb.name for cb in self.combos))
        self.combo_matrix = np.array([cb.counts for cb in self.combos], dtype=np.int16)
        self.combo_captains = [cb.captains for cb in self.combos]
        self._layout = build_layout(self)
        self.layout_starts = {f.name: self._layout.slice(f.name).start
                              for f in self._layout.fields}
        self.combo_parts = [tuple((k, c) for k, c in enumerate(cb.counts) if c)
                            for cb in self.combos]
        self.single_values = [self.comps.single_value(k) for k in range(NUM_KINDS)]
        #: the compiled view builder's shared constants (view_params): per seat no card
        #: (crew knowledge, final_left), no combination
        self.no_card_rows = (NO_CARDS,) * n
        self.no_combos = ((),) * n
        self.bind_compiled()

    def compiled_engine_params(self, module) -> tuple:
        """The compiled engine's constants (``_engine.Engine(*params)``, in its order): the
        sizes and the variant, the action ranges' starts, each combination's action, the
        partition solver's same-kind groups (the combinations settling r cards of a kind)
        and the encoder's constants (``observation.compiled_params``)."""
        from .observation import compiled_params

        c, a = self.comps, self.actions
        return (self.num_players, bool(self.open_stock), self.deal, c.stock_cards,
                c.spyglass_extra, c.short_rations_stock, self.max_spyglasses,
                (a.draw, a.hire, a.lay, a.target, a.pass_turn, a.size),
                tuple(cb.action for cb in self.combos),
                tuple(tuple(combos for _, combos in table) for table in self.partitioner._group),
                compiled_params(self, module), AllHandsCrewView, PHASES)

    # -- pickling (SuperSuit's vector envs, copy.deepcopy) -------------------------------
    def __getstate__(self) -> dict:
        """The game without its process-wide objects (relinked on loading: the packaged
        components and the partition solver, whose memo may hold a million entries, are
        the loading process's own) and without the compiled code (``Game.__getstate__``:
        rebuilt on loading, if the loading process has it)."""
        state = super().__getstate__()
        for key in _SHARED_OR_CACHED:
            del state[key]
        return state

    def __setstate__(self, state: dict) -> None:
        """Restore a pickled game, relinked to this process's shared objects."""
        self.__dict__.update(state)
        self.comps = default_components()
        self.partitioner = partitioner()
        self.combos = self.comps.combos
        self.no_card_rows = (NO_CARDS,) * self.num_players
        self.no_combos = ((),) * self.num_players
        self.bind_compiled()

    # -- spaces -------------------------------------------------------------------------
    def encode(self, view: AllHandsCrewView) -> np.ndarray:
        return encode_view(self, view)

    @property
    def entity_groups(self) -> tuple[EntityGroup, ...]:
        """The stock slots: slot ``i`` (drawing order) is a label, so a policy may score
        "hire stock card i" with weights shared across the slots."""
        return (EntityGroup("stock", self.max_stock, ("my_stock",), (self.actions.hire,)),)

    # -- states -------------------------------------------------------------------------
    def new_initial_state(self, rng: np.random.Generator) -> "AllHandsCrewState":
        state = AllHandsCrewState(self, rng)
        state.setup()
        return state

    def _check_event(self, event, where: str) -> None:
        """One event of the round: [seat, what, argument, kind or count, knower mask]."""
        n, seat = self.num_players, self.num_players - 1
        check_list(event, where, 5)
        who, what, arg, kind, mask = event
        check_int(who, f"{where}[0] (seat)", 0, seat)
        check_choice(what, f"{where}[1] (what)", _EVENT_KINDS)
        if what == "forfeit":
            check_choice(arg, f"{where}[2] (action)", ("spyglass",) + TARGETED)
        elif what == "lay":
            check_int(arg, f"{where}[2] (combination)", 0, self.num_combos - 1)
        elif what == "hire":
            check_int(arg, f"{where}[2] (cards hired)", 0, self.max_stock)
        else:   # draw: the pile; snatch, curse, short_rations: the target
            check_int(arg, f"{where}[2] (seat)", 0, seat)
        if what == "hire":
            check_int(kind, f"{where}[3] (cards put back)", 0, self.max_stock)
        elif what == "snatch":
            check_int(kind, f"{where}[3] (kind)", 0, NUM_KINDS - 1)
        else:
            check_int(kind, f"{where}[3] (kind)", -1, -1)
        check_int(mask, f"{where}[4] (knowers)", 0, (1 << n) - 1)

    def unseen_counts(self, view: AllHandsCrewView) -> list[int]:
        """Per kind, how many cards of the game are where ``view``'s player does not know
        (the pool ``sample_state`` draws from)."""
        from .sampling import unseen_pool
        return unseen_pool(self, view)


#: the kinds of events a round records (``AllHandsCrewState.events``)
_EVENT_KINDS = ("draw", "hire", "lay", "snatch", "curse", "short_rations", "forfeit")
#: most events one round can record (draws, hires, lays and actions of 6 players)
_MAX_EVENTS = 1000

#: game attributes a pickle leaves out (see AllHandsCrewGame.__getstate__)
_SHARED_OR_CACHED = ("comps", "partitioner", "combos", "no_card_rows", "no_combos")

def _read_crew_known(game: AllHandsCrewGame, value, where: str) -> list:
    """Per seat q, per seat o: how many cards of each kind o knows are in q's Crew Pile."""
    n, most = game.num_players, max(game.copies)
    check_list(value, where, n)
    for q, rows in enumerate(value):
        check_int_lists(rows, f"{where}[{q}]", n, NUM_KINDS, 0, most)
    return value


def _read_events(game: AllHandsCrewGame, value, where: str) -> list:
    """The round's events, each checked (``AllHandsCrewGame._check_event``)."""
    check_list(value, where, max_len=_MAX_EVENTS)
    for i, event in enumerate(value):
        game._check_event(event, f"{where}[{i}]")
    return value


def _copy_tables(tables: list) -> list:
    """A copy of a list of lists of lists (``crew_known``)."""
    return [[list(row) for row in rows] for rows in tables]


def _cards(g: AllHandsCrewGame) -> int:
    """Cards in the game."""
    return sum(g.copies)


def _most_rounds(g: AllHandsCrewGame) -> int:
    """The highest round number: a round starts only while the piles hold a card per
    seat, and every seat hires at least one of them, so no more than cards // seats
    rounds are played (the count moves on once more at the end)."""
    return _cards(g) // g.num_players + 1


def _most(g: AllHandsCrewGame) -> int:
    """The most copies of one kind."""
    return max(g.copies)


def _stock(g: AllHandsCrewGame) -> int:
    return g.max_stock


def _combo(g: AllHandsCrewGame) -> int:
    """The highest combination index."""
    return g.num_combos - 1


class AllHandsCrewState(RoundPhases, GameState):
    """One position of All Hands on Deck."""

    game: AllHandsCrewGame

    # every field checked on loading: types, ranges, one entry per seat / card kind, known
    # phases and events
    STATE_FIELDS = (
        field("piles", "int_lists", length=num_players, low=0, high=NUM_KINDS - 1,
              max_inner=_cards),
        field("pile_known", "int_lists", length=num_players, low=0,
              high=lambda g: (1 << g.num_players) - 1, max_inner=_cards),
        field("out", "ints", length=NUM_KINDS, low=0, high=_most),
        field("stock", "int_lists", length=num_players, low=0, high=NUM_KINDS - 1,
              max_inner=_stock),
        field("stock_src", "int_lists", length=num_players, low=0, high=last_seat, max_inner=_stock),
        field("crew", "int_lists", length=num_players, inner_length=NUM_KINDS, low=0, high=_most),
        field("crew_known", "custom", read=_read_crew_known, copier=_copy_tables),
        field("crew_maybe_gone", "int_lists", length=num_players, inner_length=num_players, low=0,
              high=_cards),
        field("laid", "int_lists", length=num_players, low=0, high=_combo, max_inner=_cards),
        field("final", "int_lists", length=num_players, low=0, high=_combo, max_inner=_cards),
        field("final_left", "int_lists", length=num_players, inner_length=NUM_KINDS, low=0,
              high=_most),
        field("curses", "ints", length=num_players, low=0, high=lambda g: sum(g.copies) // 2),
        field("round", "int", low=1, high=_most_rounds),
        field("start", "int", low=0, high=last_seat),
        field("phase", "enum", enum=Phase),
        field("actor", "int", low=-1, high=last_seat),
        field("draw_target", "ints", length=num_players, low=0,
              high=lambda g: g.comps.stock_cards),
        field("spy_left", "ints", length=num_players, low=0, high=lambda g: g.max_spyglasses),
        field("keep", "ints", length=num_players, low=1, high=_stock),
        field("hire_step", "int", low=0, high=_stock),
        field("hired", "int_lists", length=num_players, low=0, high=lambda g: g.max_stock - 1,
              max_inner=_stock),
        field("hire_done", "bools", length=num_players),
        field("lay_count", "int", low=0, high=num_players),
        field("pending", "choice", choices=("",) + TARGETED),
        field("next_double", "ints", length=num_players, low=0, high=_stock),
        field("next_spy", "ints", length=num_players, low=0, high=lambda g: g.max_spyglasses),
        field("next_short", "ints", length=num_players, low=0, high=1),
        field("events", "custom", read=_read_events, copier=copy_rows),
        field("turns", "int", low=0),
    )

    def setup(self) -> None:
        g = self.game
        n = g.num_players
        deck = [k for k in range(NUM_KINDS) for _ in range(g.copies[k])]
        order = self.rng.permutation(len(deck))
        deck = [deck[i] for i in order]
        self.piles = [deck[i * g.deal:(i + 1) * g.deal] for i in range(n)]
        self.pile_known = [[0] * g.deal for _ in range(n)]
        self.out = [0] * NUM_KINDS
        for k in deck[n * g.deal:]:
            self.out[k] += 1
        self.stock = [[] for _ in range(n)]
        self.stock_src = [[] for _ in range(n)]
        self.crew = [[0] * NUM_KINDS for _ in range(n)]
        self.crew_known = [[[0] * NUM_KINDS for _ in range(n)] for _ in range(n)]
        self.crew_maybe_gone = [[0] * n for _ in range(n)]
        self.laid = [[] for _ in range(n)]
        self.final = [[] for _ in range(n)]
        self.final_left = [[0] * NUM_KINDS for _ in range(n)]
        self.curses = [0] * n
        self.round = 0
        # the race for the Start Player Card: a random seat opens the first round
        self.start = int(self.rng.integers(n))
        self.phase = Phase.DRAW
        self.actor = self.start
        self.draw_target = [0] * n
        self.spy_left = [0] * n
        self.keep = [1] * n
        self.hire_step = 0
        self.hired = [[] for _ in range(n)]
        self.hire_done = [False] * n
        self.lay_count = 0
        self.pending = ""
        self.next_double = [0] * n
        self.next_spy = [0] * n
        self.next_short = [0] * n
        self.events = []
        self._begin_round(first=True)

    # -- whose decision -----------------------------------------------------------------
    def current_players(self) -> tuple[int, ...]:
        ph = self.phase
        if ph != "hire":
            return () if ph == "over" else (self.actor,)
        else:
            s = self.hire_step
            keep, stock = self.keep, self.stock
            return tuple([p for p in range(self.game.num_players)
                          if keep[p] > s and len(stock[p]) > s])

    def legal_actions_mask(self, player: int) -> np.ndarray:
        g = self.game
        mask = np.zeros(g.num_actions, dtype=np.int8)
        ph = self.phase
        if ph == "over" or player not in self.current_players():
            return mask
        n = g.num_players
        if ph == "draw":
            for j in range(n):
                if self.piles[(player + j) % n]:
                    mask[j] = 1
        elif ph == "spyglass":
            sizes = [len(self.piles[(player + j) % n]) for j in range(n)]
            least = 2 if max(sizes) >= 2 else 1
            for j in range(n):
                if sizes[j] >= least:
                    mask[j] = 1
            mask[g.actions.pass_turn] = 1
        elif ph == "hire":
            if not self.hire_done[player]:
                taken = self.hired[player]
                for i in range(len(self.stock[player])):
                    if i not in taken:
                        mask[g.actions.hire + i] = 1
            if self.hire_step > 0:
                mask[g.actions.pass_turn] = 1
        elif ph == "lay":
            crew = np.asarray(self.crew[player], dtype=np.int16)
            fits = np.all(g.combo_matrix <= crew, axis=1)
            mask[g.actions.lay:g.actions.target] = fits
            mask[g.actions.pass_turn] = 1
        elif ph == "target":
            for j in range(1, n):
                if self._target_ok(player, (player + j) % n):
                    mask[g.actions.target + j - 1] = 1
            mask[g.actions.pass_turn] = 1
        return mask

    def _target_ok(self, player: int, target: int) -> bool:
        if target == player:
            return False
        if self.pending == "snatch":
            return sum(self.crew[target]) > 0
        return True

    # -- moves --------------------------------------------------------------------------
    def _apply(self, actions: dict[int, int]) -> None:
        self.turns += 1
        ph = self.phase
        if ph == "hire":
            self._apply_hire(actions)
            return
        (player, action), = actions.items()
        g = self.game
        if ph in ("draw", "spyglass"):
            if action == g.actions.pass_turn:  # forfeit a Spyglass
                self.spy_left[player] -= 1
                self.events.append([player, "forfeit", "spyglass", -1, 0])
            else:
                self._draw(player, (player + action) % g.num_players,
                           g.comps.spyglass_extra if ph == "spyglass" else 1)
                if ph == "spyglass":
                    self.spy_left[player] -= 1
            self._advance_draw()
        elif ph == "lay":
            if action == g.actions.pass_turn:
                self._end_lay_turn()
            else:
                self._lay(player, action - g.actions.lay)
        elif ph == "target":
            act = self.pending
            self.pending = ""
            self.phase = Phase.LAY
            if action == g.actions.pass_turn:
                self.events.append([player, "forfeit", act, -1, 0])
            else:
                self._perform(player, act, (player + action - g.actions.target + 1) % g.num_players)

    # -- outcome ------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase == "over"

    def points(self, player: int) -> int:
        """Score of ``player`` now: laid (and final) combinations, single captains, curses."""
        return _points(self.game, self.laid[player], self.final[player],
                       self.final_left[player], self.curses[player])

    def scores(self) -> list[float]:
        return [float(self.points(p)) for p in range(self.game.num_players)]

    def captains(self, player: int) -> int:
        """Captains in ``player``'s layout (laid, and at the end every one in the Crew Pile)."""
        g = self.game
        return (sum(g.combo_captains[c] for c in self.laid[player])
                + sum(g.combo_captains[c] for c in self.final[player])
                + sum(self.final_left[player][NUM_CREW:]))

    def rank_keys(self) -> list[tuple[float, float]]:
        """(score, captains): ties go to the player with more captains, then are shared."""
        return [(float(self.points(p)), float(self.captains(p)))
                for p in range(self.game.num_players)]

    # -- information --------------------------------------------------------------------
    def python_view(self, player: int) -> AllHandsCrewView:
        g = self.game
        bit = 1 << player
        # stock cards are seen at hiring only: one's own, or everyone's with open stock
        shown = [self.phase == "hire" and (q == player or g.open_stock)
                 for q in range(g.num_players)]
        return AllHandsCrewView(
            player=player, num_players=g.num_players, open_stock=bool(g.open_stock),
            phase=self.phase, acting=self.current_players(), actor=self.actor,
            round=self.round, start=self.start, hire_step=self.hire_step,
            pending=self.pending,
            pile_masks=tuple(tuple(known) for known in self.pile_known),
            pile_seen=tuple(tuple((i, pile[i]) for i, m in enumerate(known) if m & bit)
                            for pile, known in zip(self.piles, self.pile_known)),
            stock=tuple(tuple((k if shown[q] else -1, src) for k, src in zip(cards, srcs))
                        for q, (cards, srcs) in enumerate(zip(self.stock, self.stock_src))),
            my_hired=tuple(self.hired[player]), my_hire_done=self.hire_done[player],
            my_crew=tuple(self.crew[player]), crew_sizes=tuple(map(sum, self.crew)),
            crew_known=tuple(tuple(rows[player]) for rows in self.crew_known),
            crew_maybe_gone=tuple(row[player] for row in self.crew_maybe_gone),
            known_about_me=tuple(tuple(row) for row in self.crew_known[player]),
            maybe_gone_about_me=tuple(self.crew_maybe_gone[player]),
            laid=tuple(map(tuple, self.laid)), final=tuple(map(tuple, self.final)),
            final_left=tuple(map(tuple, self.final_left)), curses=tuple(self.curses),
            draw_target=tuple(self.draw_target), spy_left=tuple(self.spy_left),
            keep=tuple(self.keep), next_double=tuple(self.next_double),
            next_spy=tuple(self.next_spy), next_short=tuple(self.next_short),
            events=tuple((a, what, arg, k if m & bit else -1)
                         for a, what, arg, k, m in self.events),
        )

    # -- copies and text ----------------------------------------------------------------
    def validate(self) -> None:
        """Assert the rules' invariants: every card of the deck is in exactly one zone,
        sizes within limits, knowledge and hiring bookkeeping consistent with the phase."""
        g = self.game
        n = g.num_players
        kinds = range(NUM_KINDS)
        ph = self.phase
        require(ph in PHASES, f"unknown phase {ph!r}")
        # zones have one entry per seat
        for key in ("piles", "pile_known", "stock", "stock_src", "crew", "crew_known",
                    "crew_maybe_gone", "laid", "final", "final_left", "curses", "draw_target", "spy_left", "keep",
                    "hired", "hire_done", "next_double", "next_spy", "next_short"):
            require(len(getattr(self, key)) == n, f"{key} has not one entry per seat")
        # nothing created or lost: every card of the deck in exactly one zone
        require(len(self.out) == NUM_KINDS and min(self.out) >= 0, "negative out-of-game count")
        for p in range(n):
            require(all(k in kinds for k in self.piles[p]), "a pile holds a non-card")
            require(all(k in kinds for k in self.stock[p]), "a stock holds a non-card")
            require(len(self.crew[p]) == NUM_KINDS and min(self.crew[p]) >= 0,
                    "crew: not a count per kind")
            require(len(self.final_left[p]) == NUM_KINDS and min(self.final_left[p]) >= 0,
                    "final_left: not a count per kind")
            require(all(0 <= c < g.num_combos for c in self.laid[p] + self.final[p]),
                    "laid/final: not a combination")
        require(self.card_counts() == list(g.copies), "a card was created or lost")
        # who knows which pile card: the owner (everyone with open stock) of cards put back
        everyone = (1 << n) - 1
        for p in range(n):
            require(len(self.piles[p]) == len(self.pile_known[p]),
                    "pile_known: not one mask per pile card")
            allowed = {0, everyone} if g.open_stock else {0, 1 << p}
            require(set(self.pile_known[p]) <= allowed, "impossible pile knowledge mask")
        # stocks: drawn cards until the hiring ends
        for p in range(n):
            require(len(self.stock[p]) == len(self.stock_src[p]) <= g.max_stock,
                    "stock_src: not one source per stock card")
            require(all(0 <= s < n for s in self.stock_src[p]), "stock_src: not a pile")
            if ph == "draw":
                require(len(self.stock[p]) <= self.draw_target[p],
                        "stock: more cards drawn than the draw target")
            if ph in ("lay", "target", "over"):
                require(not self.stock[p], "stock cards left after the hiring")
        # crew knowledge: what o knows of q's crew is there, but for at most
        # crew_maybe_gone[q][o] cards that unseen Snatches took; nobody tracks their own
        for q in range(n):
            require(len(self.crew_known[q]) == n and len(self.crew_maybe_gone[q]) == n,
                    "crew_known/crew_maybe_gone: not one entry per seat")
            require(not any(self.crew_known[q][q]), "own crew tracked as known by self")
            require(self.crew_maybe_gone[q][q] == 0, "own crew tracked as known by self")
            for o in range(n):
                row = self.crew_known[q][o]
                gone = self.crew_maybe_gone[q][o]
                require(len(row) == NUM_KINDS and min(row) >= 0,
                        "crew_known: not a count per kind")
                require(0 <= gone <= sum(row), "more known cards may be gone than are known")
                missing = sum(max(0, a - b) for a, b in zip(row, self.crew[q]))
                require(missing <= gone, "known card not there")
        # per-seat counters
        require(min(self.curses) >= 0 and min(self.spy_left) >= 0 and min(self.keep) >= 1,
                "curses/spy_left/keep: out of range")
        require(min(self.next_double) >= 0 and min(self.next_spy) >= 0,
                "next_double/next_spy: negative")
        require(set(self.next_short) <= {0, 1} and min(self.draw_target) >= 0,
                "next_short/draw_target: out of range")
        require(self.round >= 1 and 0 <= self.start < n, "round/start: out of range")
        # hiring bookkeeping
        if ph == "hire":
            require(self.actor == -1 and self.hire_step >= 0, "actor: a single actor in hiring")
            for p in range(n):
                picks = self.hired[p]
                require(len(set(picks)) == len(picks), "a stock card hired twice")
                require(all(0 <= i < len(self.stock[p]) for i in picks),
                        "hired: not a stock card")
                full = min(self.hire_step, self.keep[p], len(self.stock[p]))
                if self.hire_done[p]:
                    require(1 <= len(picks) < full, "passed without a first pick")
                else:
                    require(len(picks) == full, "a hiring step without a pick")
        else:
            require(self.hire_step == 0 and not any(self.hired) and not any(self.hire_done),
                    "hire_step/hired/hire_done: hiring bookkeeping outside the hiring")
        # the acting seat and the pending targeted action
        if ph in ("draw", "spyglass", "lay", "target"):
            require(0 <= self.actor < n, "actor: nobody acts")
        if ph == "over":
            require(self.actor == -1, "actor: someone acts after the end")
        require((self.pending in TARGETED) if ph == "target" else self.pending == "",
                "pending: a target phase without its action, or an action outside it")
        if ph == "draw":       # one card a turn, round the table from the start player
            drawn = len(self.stock[self.actor])
            require(drawn < self.draw_target[self.actor],
                    "actor: a seat that has drawn its stock draws again")
            before = (self.actor - self.start) % n
            for p in range(n):
                want = min(self.draw_target[p], drawn + ((p - self.start) % n < before))
                require(len(self.stock[p]) == want,
                        f"stock[{p}]: {len(self.stock[p])} cards drawn, not {want} (one "
                        "card a turn, round the table from the start player)")
        if ph == "spyglass":
            require(self.spy_left[self.actor] > 0, "spy_left: a Spyglass draw without one")
            require(all(self.spy_left[(self.start + k) % n] == 0
                        for k in range((self.actor - self.start) % n)),
                    "actor: a seat before it in turn order still has a Spyglass draw")
        require(0 <= self.lay_count <= n and (self.lay_count < n or ph == "over"),
                "lay_count: out of range")
        if ph in ("lay", "target"):
            require(self.lay_count == (self.actor - self.start) % n,
                    "lay_count: not the seats that laid out before the actor")
        if ph == "over":
            require(all(sum(c) == 0 for c in self.crew), "crew left after the final layout")
            require(sum(len(p) for p in self.piles) < n, "piles: the game ended too early")
        else:
            require(not any(self.final) and not any(map(any, self.final_left)),
                    "final/final_left: a final layout before the end")
        for e in self.events:
            require(len(e) == 5 and 0 <= e[0] < n and 0 <= e[4] <= everyone, "events: a bad event")
            if e[1] == "snatch":
                require(e[0] != e[2] and e[4] == (1 << e[0]) | (1 << e[2]),
                        "events: a Snatch not known to exactly the two involved")
            else:   # hires (cards put back) are public, the others carry no card
                require(e[4] == (everyone if e[1] == "hire" else 0),
                        "events: only a Snatch's card is known to some players alone")
        self._validate_actions()

    def _validate_actions(self) -> None:
        """In-game actions come from laid pairs: no more curses, Double hires, Spyglasses
        or Short rations than the matching pairs laid; stock sizes as the round set them."""
        g = self.game
        n = g.num_players
        pairs = [dict.fromkeys(("double_hire", "spyglass", "short_rations", "curse"), 0)
                 for _ in range(n)]
        for p in range(n):
            for ci in self.laid[p]:
                act = g.combos[ci].action
                if act in pairs[p]:
                    pairs[p][act] += 1
        # a pair whose target is still to be chosen has not acted yet
        require(sum(self.curses) + (self.pending == "curse")
                <= sum(c["curse"] for c in pairs),
                "curses: more curses than Bosun pairs laid")
        require(sum(self.next_short) + (self.pending == "short_rations")
                <= sum(c["short_rations"] for c in pairs),
                "next_short: more Short rations than Carpenter pairs laid")
        for p in range(n):
            require(self.keep[p] - 1 + self.next_double[p] <= pairs[p]["double_hire"],
                    "keep/next_double: more Double hires than Cook pairs laid")
            require(self.spy_left[p] + self.next_spy[p] <= pairs[p]["spyglass"],
                    "spy_left/next_spy: more Spyglasses than Lookout pairs laid")
        if self.phase != "over":
            allowed = (g.comps.short_rations_stock, g.comps.stock_cards)
            require(all(t in allowed for t in self.draw_target),
                    "draw_target: neither a full stock nor Short rations")

    def card_counts(self) -> list[int]:
        """Cards of each kind over every zone (the fuzz tests check nothing is lost)."""
        total = list(self.out)
        g = self.game
        for p in range(g.num_players):
            for k in self.piles[p]:
                total[k] += 1
            for k in self.stock[p]:
                total[k] += 1
            for k in range(NUM_KINDS):
                total[k] += self.crew[p][k] + self.final_left[p][k]
            for ci in self.laid[p] + self.final[p]:
                for k, c in enumerate(g.combos[ci].counts):
                    total[k] += c
        return total


def view_params(g: AllHandsCrewGame) -> tuple:
    """The compiled view builder's constructor arguments (``_cview.ViewBuilder``): the
    sizes, the variant, the view class and the shared constant tuples ``python_view``
    puts in its views."""
    return (g.num_players, NUM_KINDS, bool(g.open_stock), AllHandsCrewView, NO_CARDS,
            g.no_card_rows, g.no_combos)


def _points(g: AllHandsCrewGame, laid, final, final_left, curses) -> int:
    total = sum(g.combos[c].points for c in laid) + sum(g.combos[c].points for c in final)
    total += sum(g.comps.single_value(k) * final_left[k] for k in range(NUM_CREW, NUM_KINDS))
    return total + g.comps.curse * curses


AllHandsCrewGame.state_class = AllHandsCrewState
