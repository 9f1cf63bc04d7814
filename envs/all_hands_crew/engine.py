"""All Hands on Deck (crew combinations): the rules engine (no gymnasium/PettingZoo).

A round is three phases (see docs/rules/all_hands_crew.md):

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

import copy
from typing import Any

import numpy as np

from plunder.envs.core.errors import InvalidArgumentError, require
from plunder.envs.core.game import Game, GameState, rng_from_dict, rng_to_dict
from plunder.envs.core.layout import EntityGroup
from plunder.envs.core.memo import remember, shared_memos
from plunder.envs.core.state_io import (
    check_bool, check_choice, check_int, check_int_list, check_int_lists, check_keys,
    check_list,
)

from .components import NO_CARDS, NUM_CREW, NUM_KINDS, TARGETED, load_components, partitioner
from .observation import Encoder, build_layout, compiled_params, encode_view
from .view import CrewView, describe_view

PHASES = ("draw", "spyglass", "hire", "lay", "target", "over")


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
        self.comps = load_components()
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
        self.A_DRAW = 0
        self.A_HIRE = n
        self.A_LAY = self.A_HIRE + self.max_stock
        self.A_TARGET = self.A_LAY + self.num_combos
        self.A_PASS = self.A_TARGET + n - 1
        self._num_actions = self.A_PASS + 1
        self.combo_matrix = np.array([cb.counts for cb in self.combos], dtype=np.int16)
        self.combo_captains = [cb.captains for cb in self.combos]
        self._layout = build_layout(self)
        self.layout_starts = {f.name: self._layout.slice(f.name).start
                              for f in self._layout.fields}
        self.combo_parts = [tuple((k, c) for k, c in enumerate(cb.counts) if c)
                            for cb in self.combos]
        self.single_values = [self.comps.single_value(k) for k in range(NUM_KINDS)]
        #: view constants: per seat no card (crew knowledge, final_left), no combination
        self.no_card_rows = (NO_CARDS,) * n
        self.no_combos = ((),) * n
        self._link_memos()
        self.bind_compiled()

    def _link_memos(self) -> None:
        """Attach the memo tables this process keeps for this game's parameters."""
        # pure functions of their keys, so shared by the games of one player count and
        # open_stock (docs/architecture.md, Performance notes)
        memos = shared_memos("all_hands_crew", (self.num_players, self.open_stock), 3)
        #: legal action masks of the frequent phases, on the fields they read
        self.mask_memo: dict = memos[0]
        #: view memos: (player bit, one pile's knower masks) -> positions the player knows
        self.known_positions: dict = memos[1]
        #: view memo: a stock's sources -> the stock as a view shows it face down
        self.hidden_stocks: dict = memos[2]

    def bind_compiled(self) -> None:
        """The compiled encoder and view builder where built (``Game.bind_compiled``); else
        the Python encoder ``enc`` (an unpickled one, or a new one). Compiled, ``enc`` is
        None: the Python encoder and its caches are never built."""
        super().bind_compiled()
        if "encode_into" in self.__dict__:
            self.enc = None
        elif self.__dict__.get("enc") is None:
            self.enc = Encoder(self)

    def compiled_encoder_params(self, module) -> tuple:
        """The compiled encoder's constants (observation.compiled_params)."""
        return compiled_params(self, module)

    def compiled_view_params(self) -> tuple:
        """The compiled view builder's constants (view_params)."""
        return view_params(self)

    # -- pickling (SuperSuit's vector envs, copy.deepcopy) -------------------------------
    def __getstate__(self) -> dict:
        """The game without its process-wide objects (relinked on loading: the packaged
        components, the partition solver, whose memo may hold a million entries, and the
        mask and view memos are the loading process's own) and without the compiled code
        (``Game.__getstate__``: rebuilt on loading, if the loading process has it)."""
        state = super().__getstate__()
        for key in _SHARED_OR_CACHED:
            del state[key]
        return state

    def __setstate__(self, state: dict) -> None:
        """Restore a pickled game, relinked to this process's shared objects."""
        self.__dict__.update(state)
        self.comps = load_components()
        self.partitioner = partitioner()
        self.combos = self.comps.combos
        self._link_memos()
        self.no_card_rows = (NO_CARDS,) * self.num_players
        self.no_combos = ((),) * self.num_players
        self.bind_compiled()

    # -- spaces -------------------------------------------------------------------------
    @property
    def num_actions(self) -> int:
        return self._num_actions

    def action_name(self, action: int) -> str:
        a = int(action)
        n = self.num_players
        if not 0 <= a < self._num_actions:
            return f"<no action {a}>"
        if a < self.A_HIRE:
            return "draw from own pile" if a == 0 else f"draw from the pile {a} seat(s) clockwise"
        if a < self.A_LAY:
            return f"hire stock card {a - self.A_HIRE + 1}"
        if a < self.A_TARGET:
            return f"lay out {self.combos[a - self.A_LAY].name}"
        if a < self.A_PASS:
            return f"choose the player {a - self.A_TARGET + 1} seat(s) clockwise"
        return "pass (end / forfeit)" if n else "pass"

    @property
    def layout(self):
        return self._layout

    def encode(self, view: CrewView) -> np.ndarray:
        return encode_view(self, view)

    @property
    def entity_groups(self) -> tuple[EntityGroup, ...]:
        """The stock slots: slot ``i`` (drawing order) is a label, so a policy may score
        "hire stock card i" with weights shared across the slots."""
        return (EntityGroup("stock", self.max_stock, ("my_stock",), (self.A_HIRE,)),)

    # -- states -------------------------------------------------------------------------
    def new_initial_state(self, rng: np.random.Generator) -> "AllHandsCrewState":
        state = AllHandsCrewState(self, rng)
        state.setup()
        return state

    def _load_state(self, data: dict) -> "AllHandsCrewState":
        """Rebuild a state from ``to_dict()``, every field checked (types, ranges, one
        entry per seat / card kind, known phases and events); ``validate`` then checks the
        rules."""
        check_keys(data, f"{self.env_id()} state", _FIELDS + ("turns", "rng"))
        data = copy.deepcopy(data)    # the state must not share the dict's lists
        n, K = self.num_players, NUM_KINDS
        cards, most = sum(self.copies), max(self.copies)
        seat, stock = n - 1, self.max_stock
        s = AllHandsCrewState(self, rng_from_dict(data["rng"]))
        s.piles = check_int_lists(data["piles"], "piles", n, None, 0, K - 1, max_inner=cards)
        s.pile_known = check_int_lists(data["pile_known"], "pile_known", n, None, 0,
                                       (1 << n) - 1, max_inner=cards)
        s.out = check_int_list(data["out"], "out", K, 0, most)
        s.stock = check_int_lists(data["stock"], "stock", n, None, 0, K - 1, max_inner=stock)
        s.stock_src = check_int_lists(data["stock_src"], "stock_src", n, None, 0, seat,
                                      max_inner=stock)
        s.crew = check_int_lists(data["crew"], "crew", n, K, 0, most)
        s.crew_known = check_list(data["crew_known"], "crew_known", n)
        for q, rows in enumerate(s.crew_known):
            check_int_lists(rows, f"crew_known[{q}]", n, K, 0, most)
        s.crew_maybe_gone = check_int_lists(data["crew_maybe_gone"], "crew_maybe_gone", n, n,
                                            0, cards)
        s.laid = check_int_lists(data["laid"], "laid", n, None, 0, self.num_combos - 1,
                                 max_inner=cards)
        s.final = check_int_lists(data["final"], "final", n, None, 0, self.num_combos - 1,
                                  max_inner=cards)
        s.final_left = check_int_lists(data["final_left"], "final_left", n, K, 0, most)
        s.curses = check_int_list(data["curses"], "curses", n, 0, cards // 2)
        s.round = check_int(data["round"], "round", 1, cards)
        s.start = check_int(data["start"], "start", 0, seat)
        s.phase = check_choice(data["phase"], "phase", PHASES)
        s.actor = check_int(data["actor"], "actor", -1, seat)
        s.draw_target = check_int_list(data["draw_target"], "draw_target", n, 0,
                                       self.comps.stock_cards)
        s.spy_left = check_int_list(data["spy_left"], "spy_left", n, 0, self.max_spyglasses)
        s.keep = check_int_list(data["keep"], "keep", n, 1, stock)
        s.hire_step = check_int(data["hire_step"], "hire_step", 0, stock)
        s.hired = check_int_lists(data["hired"], "hired", n, None, 0, stock - 1,
                                  max_inner=stock)
        s.hire_done = check_list(data["hire_done"], "hire_done", n)
        for q, done in enumerate(s.hire_done):
            check_bool(done, f"hire_done[{q}]")
        s.lay_count = check_int(data["lay_count"], "lay_count", 0, n)
        s.pending = check_choice(data["pending"], "pending", ("",) + TARGETED)
        s.next_double = check_int_list(data["next_double"], "next_double", n, 0, stock)
        s.next_spy = check_int_list(data["next_spy"], "next_spy", n, 0, self.max_spyglasses)
        s.next_short = check_int_list(data["next_short"], "next_short", n, 0, 1)
        s.events = check_list(data["events"], "events", max_len=_MAX_EVENTS)
        for i, event in enumerate(s.events):
            self._check_event(event, f"events[{i}]")
        s.turns = check_int(data["turns"], "turns", 0)
        return s

    def _check_event(self, event, where: str) -> None:
        """One event of the round: [seat, what, argument, kind or count, knower mask]."""
        n, seat = self.num_players, self.num_players - 1
        who, what, arg, kind, mask = check_list(event, where, 5)
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

    def sample_state(self, view: CrewView, rng: np.random.Generator,
                     returned_weights=None, pinned=None) -> "AllHandsCrewState":
        """A full state matching ``view``: unknown cards redrawn from the unseen pool.

        Two optional beliefs (a searcher's, e.g. ``policies/all_hands_crew_belief.py``):
        ``pinned`` maps cards the viewer does not know, ``("pile", seat, position)``
        (from the bottom) or ``("stock", seat, slot)``, to the kind to put there (taken
        from the unseen cards; a key the view does not have, a card the viewer knows or a
        kind with no unseen copy left raises). ``returned_weights`` (one non-negative
        weight per kind) is a belief about the Drawing Pile cards that another player
        knows and the viewer does not (the stock cards that player put back): those not
        pinned are drawn next, each kind in proportion to its unseen copies times its
        weight. Everything else is drawn uniformly."""
        return _sample_state(self, view, rng, returned_weights, pinned)

    def unseen_counts(self, view: CrewView) -> list[int]:
        """Per kind, how many cards of the game are where ``view``'s player does not know
        (the pool ``sample_state`` draws from)."""
        return _unseen_pool(self, view)

    def describe_view(self, view: CrewView) -> str:
        return describe_view(self, view)


#: the kinds of events a round records (``AllHandsCrewState.events``)
_EVENT_KINDS = ("draw", "hire", "lay", "snatch", "curse", "short_rations", "forfeit")
#: most events one round can record (draws, hires, lays and actions of 6 players)
_MAX_EVENTS = 1000

#: game attributes a pickle leaves out (see AllHandsCrewGame.__getstate__)
_SHARED_OR_CACHED = ("comps", "partitioner", "combos", "mask_memo", "known_positions",
                     "hidden_stocks", "no_card_rows", "no_combos")

_FIELDS = ("piles", "pile_known", "out", "stock", "stock_src", "crew", "crew_known",
           "crew_maybe_gone", "laid",
           "final", "final_left", "curses", "round", "start", "phase", "actor",
           "draw_target", "spy_left", "keep", "hire_step", "hired", "hire_done", "lay_count",
           "pending", "next_double", "next_spy", "next_short", "events")


class AllHandsCrewState(GameState):
    """One position of All Hands on Deck."""

    game: AllHandsCrewGame

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
        self.phase = "draw"
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
        # The frequent phases are memoised (per player count) on exactly the fields their mask
        # reads; the caller gets a copy it may modify.
        g = self.game
        ph = self.phase
        if ph == "draw":
            if player != self.actor:
                return np.zeros(g.num_actions, dtype=np.int8)
            key = (ph, player, tuple(map(bool, self.piles)))
        elif ph == "lay":
            if player != self.actor:
                return np.zeros(g.num_actions, dtype=np.int8)
            key = (ph, tuple(self.crew[player]))
        elif ph == "hire":
            s = self.hire_step
            stock = self.stock[player]
            if self.keep[player] <= s or len(stock) <= s:
                return np.zeros(g.num_actions, dtype=np.int8)
            key = (ph, len(stock), tuple(self.hired[player]), self.hire_done[player], s > 0)
        else:
            return self._mask(player)
        mask = g.mask_memo.get(key)
        if mask is None:
            mask = remember(g.mask_memo, key, self._mask(player))
        return mask.copy()

    def _mask(self, player: int) -> np.ndarray:
        """The legal action mask computed from the rules (no memo)."""
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
            mask[g.A_PASS] = 1
        elif ph == "hire":
            if not self.hire_done[player]:
                taken = self.hired[player]
                for i in range(len(self.stock[player])):
                    if i not in taken:
                        mask[g.A_HIRE + i] = 1
            if self.hire_step > 0:
                mask[g.A_PASS] = 1
        elif ph == "lay":
            crew = np.asarray(self.crew[player], dtype=np.int16)
            fits = np.all(g.combo_matrix <= crew, axis=1)
            mask[g.A_LAY:g.A_TARGET] = fits
            mask[g.A_PASS] = 1
        elif ph == "target":
            for j in range(1, n):
                if self._target_ok(player, (player + j) % n):
                    mask[g.A_TARGET + j - 1] = 1
            mask[g.A_PASS] = 1
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
            if action == g.A_PASS:  # forfeit a Spyglass
                self.spy_left[player] -= 1
                self.events.append([player, "forfeit", "spyglass", -1, 0])
            else:
                self._draw(player, (player + action) % g.num_players,
                           g.comps.spyglass_extra if ph == "spyglass" else 1)
                if ph == "spyglass":
                    self.spy_left[player] -= 1
            self._advance_draw()
        elif ph == "lay":
            if action == g.A_PASS:
                self._end_lay_turn()
            else:
                self._lay(player, action - g.A_LAY)
        elif ph == "target":
            act = self.pending
            self.pending = ""
            self.phase = "lay"
            if action == g.A_PASS:
                self.events.append([player, "forfeit", act, -1, 0])
            else:
                self._perform(player, act, (player + action - g.A_TARGET + 1) % g.num_players)

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
            self.phase = "spyglass"
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
        self.phase = "hire"
        self.hire_step = 0
        self.hired = [[] for _ in range(n)]
        self.hire_done = [False] * n
        self.actor = -1

    def _apply_hire(self, actions: dict[int, int]) -> None:
        g = self.game
        for p, a in actions.items():
            if a == g.A_PASS:
                self.hire_done[p] = True
            else:
                self.hired[p].append(a - g.A_HIRE)
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
        self.phase = "lay"
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
                self.phase = "target"
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
        self.phase = "draw"
        self.actor = self.start
        self.lay_count = 0
        self.pending = ""

    def _end_game(self) -> None:
        n = self.game.num_players
        self.phase = "over"
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
    def view(self, player: int) -> CrewView:
        """What ``player`` knows (the compiled view builder when built, else ``python_view``)."""
        return self.game.view_of(self, player)

    def python_view(self, player: int) -> CrewView:
        g = self.game
        n = g.num_players
        bit = 1 << player
        masks = tuple(map(tuple, self.pile_known))
        seen = []
        memo = g.known_positions
        for known, pile in zip(masks, self.piles):
            where = ()
            if any(known):   # someone knows cards here: which I know, memoised on the masks
                key = (bit, known)
                where = memo.get(key)
                if where is None:
                    where = remember(memo, key,
                                     tuple([i for i, m in enumerate(known) if m & bit]))
            seen.append(tuple([(i, pile[i]) for i in where]) if where else ())
        stock_src = self.stock_src
        if not any(stock_src):
            stock = ((),) * n
        elif self.phase == "hire":   # stock cards are seen at hiring only
            stock = tuple([tuple(zip(cards, srcs)) if q == player or g.open_stock
                           else _hidden_stock(g, srcs)
                           for q, (cards, srcs) in enumerate(zip(self.stock, stock_src))])
        else:
            stock = tuple([_hidden_stock(g, srcs) for srcs in stock_src])
        events = tuple([(a, what, arg, k if m & bit else -1)
                        for a, what, arg, k, m in self.events])
        crew_known, maybe_gone = self.crew_known, self.crew_maybe_gone
        final, left = self.final, self.final_left
        # tuple.__new__ skips the NamedTuple's Python-level argument binding. Card counts
        # that are all zero (most rows; all of final and final_left until the end) are
        # shared tuples: nothing to build, and the encoder's comparisons of equal views
        # then stop at identity tests.
        return tuple.__new__(CrewView, (
            player, n, bool(g.open_stock), self.phase, self.current_players(), self.actor,
            self.round, self.start, self.hire_step, self.pending, masks, tuple(seen), stock,
            tuple(self.hired[player]), self.hire_done[player], tuple(self.crew[player]),
            tuple(map(sum, self.crew)),
            _count_rows([row[player] for row in crew_known], g.no_card_rows),
            tuple([row[player] for row in maybe_gone]),
            _count_rows(crew_known[player], g.no_card_rows),
            tuple(maybe_gone[player]),
            tuple(map(tuple, self.laid)),
            tuple(map(tuple, final)) if any(final) else g.no_combos,
            _count_rows(left, g.no_card_rows),
            tuple(self.curses), tuple(self.draw_target), tuple(self.spy_left),
            tuple(self.keep), tuple(self.next_double), tuple(self.next_spy),
            tuple(self.next_short), events,
        ))

    # -- copies and text ----------------------------------------------------------------
    def to_dict(self) -> dict:
        # deep copies: a state rebuilt from this dict must not share the live lists
        data = {key: copy.deepcopy(getattr(self, key)) for key in _FIELDS}
        data["turns"] = self.turns
        data["rng"] = rng_to_dict(self.rng)
        return data

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
        if ph == "spyglass":
            require(self.spy_left[self.actor] > 0, "spy_left: a Spyglass draw without one")
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
        require(sum(self.curses) <= sum(c["curse"] for c in pairs),
                "curses: more curses than Bosun pairs laid")
        require(sum(self.next_short) <= sum(c["short_rations"] for c in pairs),
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

    def describe_full(self) -> str:
        return _describe_full(self)


def view_params(g: AllHandsCrewGame) -> tuple:
    """The compiled view builder's constructor arguments (``_cview.ViewBuilder``): the
    sizes, the variant, the view class and the shared constant tuples ``python_view``
    puts in its views."""
    return (g.num_players, NUM_KINDS, bool(g.open_stock), CrewView, NO_CARDS,
            g.no_card_rows, g.no_combos)


def _count_rows(rows: list, no_cards: tuple) -> tuple:
    """Rows of card counts as tuples: an all-zero row is the shared ``NO_CARDS``, a table
    with no card at all the shared ``no_cards``."""
    if not any(map(any, rows)):
        return no_cards
    return tuple([tuple(row) if any(row) else NO_CARDS for row in rows])


def _hidden_stock(g: AllHandsCrewGame, srcs: list) -> tuple:
    """A stock whose cards the viewer cannot see, as the view gives it: ((-1, source), ...).
    Memoised on the sources (public), so equal stocks are one object: cheaper to build,
    and compared by identity first."""
    key = tuple(srcs)
    out = g.hidden_stocks.get(key)
    if out is None:
        out = remember(g.hidden_stocks, key, tuple([(-1, s) for s in srcs]))
    return out


def _points(g: AllHandsCrewGame, laid, final, final_left, curses) -> int:
    total = sum(g.combos[c].points for c in laid) + sum(g.combos[c].points for c in final)
    total += sum(g.comps.single_value(k) * final_left[k] for k in range(NUM_CREW, NUM_KINDS))
    return total + g.comps.curse * curses


def _describe_full(state: AllHandsCrewState) -> str:
    g = state.game
    names = g.comps.short_names
    lines = [f"All Hands on Deck, {g.num_players} players, round {state.round}, "
             f"phase {state.phase}" + (" (open stock)" if g.open_stock else "")
             + f"; start player {state.start}; acting {list(state.current_players())}"]
    for p in range(g.num_players):
        pile = " ".join(names[k] + ("*" if m else "") for k, m in
                        zip(state.piles[p], state.pile_known[p]))
        lines.append(f"player {p}: score {state.points(p)} (curses {state.curses[p]}), "
                     f"captains {state.captains(p)}")
        lines.append(f"  drawing pile ({len(state.piles[p])}, bottom->top, *=known): {pile}")
        stock = ", ".join(f"{names[k]}<-{s}" + (" [hired]" if i in state.hired[p] else "")
                          for i, (k, s) in enumerate(zip(state.stock[p], state.stock_src[p])))
        lines.append(f"  stock: {stock or '-'}")
        crew = ", ".join(f"{c} {names[k]}" for k, c in enumerate(state.crew[p]) if c)
        lines.append(f"  crew pile: {crew or '-'}")
        laid = "; ".join(g.combos[c].name for c in state.laid[p] + state.final[p])
        lines.append(f"  laid out: {laid or '-'}")
        left = ", ".join(f"{c} {names[k]}" for k, c in enumerate(state.final_left[p]) if c)
        if state.phase == "over":
            lines.append(f"  left over: {left or '-'}")
    lines.append("out of the game: " + ", ".join(
        f"{c} {names[k]}" for k, c in enumerate(state.out) if c))
    return "\n".join(lines)


def _unseen_pool(g: AllHandsCrewGame, v: CrewView) -> list:
    """Per kind, the cards in the game whose place ``v.player`` does not know."""
    if v.num_players != g.num_players or v.open_stock != bool(g.open_stock):
        raise InvalidArgumentError("the view belongs to another game configuration")
    n = g.num_players
    me = v.player
    pool = list(g.copies)

    def take(k):
        pool[k] -= 1

    for seen in v.pile_seen:
        for _, k in seen:
            take(k)
    for q in range(n):
        for k, _ in v.stock[q]:
            if k >= 0:
                take(k)
    for k in range(NUM_KINDS):
        pool[k] -= v.my_crew[k]
        for q in range(n):
            if q != me:   # the known cards that are surely still there
                pool[k] -= max(0, v.crew_known[q][k] - v.crew_maybe_gone[q])
            pool[k] -= v.final_left[q][k]
    for q in range(n):
        for ci in v.laid[q] + v.final[q]:
            for k, c in enumerate(g.combos[ci].counts):
                pool[k] -= c
    if min(pool) < 0:
        raise InvalidArgumentError("inconsistent view: more cards known than exist")
    return pool


def _sample_state(g: AllHandsCrewGame, v: CrewView, rng: np.random.Generator,
                  returned_weights=None, pinned=None):
    """Rebuild a state from a view, redrawing what its player does not know (see
    ``AllHandsCrewGame.sample_state`` for ``returned_weights`` and ``pinned``)."""
    n = g.num_players
    me = v.player
    pool = _unseen_pool(g, v)
    pins = _take_pinned(v, pool, pinned) if pinned else {}
    kept = _sample_kept_known(v, pool, rng)
    # (seat, position) -> kind, for the positions others know and I don't
    returned = {key[1:]: k for key, k in pins.items() if key[0] == "pile"}
    if returned_weights is not None:
        returned.update(_draw_returned(v, pool, returned_weights, rng, skip=returned))
    cards = [k for k in range(NUM_KINDS) for _ in range(pool[k])]
    cards = [cards[i] for i in rng.permutation(len(cards))]
    pos = 0

    def draw():
        nonlocal pos
        pos += 1
        return cards[pos - 1]

    s = AllHandsCrewState(g, np.random.default_rng(int(rng.integers(2**63 - 1))))
    s.piles = []
    for seat in range(n):
        pile = [-1] * len(v.pile_masks[seat])
        for i, k in v.pile_seen[seat]:
            pile[i] = k
        for (q, i), k in returned.items():
            if q == seat:
                pile[i] = k
        s.piles.append([k if k >= 0 else draw() for k in pile])
    s.pile_known = [list(m) for m in v.pile_masks]
    s.stock = [[k if k >= 0 else pins.get(("stock", q, j), -1) for j, (k, _) in
                enumerate(v.stock[q])] for q in range(n)]
    s.stock = [[k if k >= 0 else draw() for k in slots] for slots in s.stock]
    s.stock_src = [[src for _, src in v.stock[q]] for q in range(n)]
    s.crew = [[0] * NUM_KINDS for _ in range(n)]
    s.crew_known = [[[0] * NUM_KINDS for _ in range(n)] for _ in range(n)]
    s.crew_maybe_gone = [[0] * n for _ in range(n)]
    for q in range(n):
        if q == me:
            s.crew[q] = list(v.my_crew)
            s.crew_known[q] = [list(v.known_about_me[o]) for o in range(n)]
            s.crew_maybe_gone[q] = list(v.maybe_gone_about_me)
        else:
            s.crew[q] = kept[q]
            s.crew_known[q][me] = list(v.crew_known[q])
            s.crew_maybe_gone[q][me] = v.crew_maybe_gone[q]
            for _ in range(v.crew_sizes[q] - sum(kept[q])):
                s.crew[q][draw()] += 1
    s.out = [0] * NUM_KINDS
    for k in cards[pos:]:
        s.out[k] += 1
    s.laid = [list(x) for x in v.laid]
    s.final = [list(x) for x in v.final]
    s.final_left = [list(x) for x in v.final_left]
    s.curses = list(v.curses)
    s.round, s.start, s.phase, s.actor = v.round, v.start, v.phase, v.actor
    s.draw_target, s.spy_left, s.keep = list(v.draw_target), list(v.spy_left), list(v.keep)
    s.hire_step, s.pending = v.hire_step, v.pending
    s.next_double, s.next_spy, s.next_short = (list(v.next_double), list(v.next_spy),
                                               list(v.next_short))
    s.lay_count = (v.actor - v.start) % n if v.phase in ("lay", "target") else 0
    s.hired = [[] for _ in range(n)]
    s.hire_done = [False] * n
    if v.phase == "hire":
        for q in range(n):
            if q == me:
                s.hired[q] = list(v.my_hired)
                s.hire_done[q] = v.my_hire_done
                continue
            for step in range(v.hire_step):  # others' pending picks are unknown: guess
                if s.keep[q] > step and len(s.stock[q]) > step:
                    free = [i for i in range(len(s.stock[q])) if i not in s.hired[q]]
                    s.hired[q].append(int(free[int(rng.integers(len(free)))]))
    s.events = [_sampled_event(s, e, rng) for e in v.events]
    s.turns = 0
    return s


def _draw_returned(v: CrewView, pool: list, weights, rng: np.random.Generator,
                   skip=()) -> dict:
    """Kinds for the Drawing Pile positions that another player knows and ``v.player``
    does not (but those in ``skip``), drawn one by one without replacement from ``pool``
    (taken out of it), each kind with probability proportional to its copies left times
    ``weights[kind]``."""
    try:
        weights = [float(w) for w in weights]
    except (TypeError, ValueError):
        weights = None
    if weights is None or len(weights) != NUM_KINDS \
            or not all(0.0 <= w < float("inf") for w in weights):
        raise InvalidArgumentError(f"returned_weights needs {NUM_KINDS} finite non-negative "
                                   f"numbers, one per kind")
    bit = 1 << v.player
    out = {}
    for seat, masks in enumerate(v.pile_masks):
        for i, m in enumerate(masks):
            if m and not m & bit and (seat, i) not in skip:
                w = np.array([pool[k] * weights[k] for k in range(NUM_KINDS)], dtype=float)
                if w.sum() <= 0:      # weights zero on every kind left: uniform
                    w = np.array(pool, dtype=float)
                k = int(rng.choice(NUM_KINDS, p=w / w.sum()))
                pool[k] -= 1
                out[(seat, i)] = k
    return out


def _take_pinned(v: CrewView, pool: list, pinned) -> dict:
    """``pinned`` checked against the view and taken out of ``pool``: keys ``("pile",
    seat, position)`` or ``("stock", seat, slot)`` of cards ``v.player`` does not know,
    values kinds with an unseen copy left."""
    places = {("pile", q, i): kind for q in range(v.num_players)
              for i, (_, kind) in enumerate(v.pile(q))}
    places.update({("stock", q, j): kind for q, slots in enumerate(v.stock)
                   for j, (kind, _) in enumerate(slots)})
    pins = {}
    for key, kind in dict(pinned).items():
        if key not in places:
            raise InvalidArgumentError(f"pinned: {key!r} is no ('pile', seat, position) or "
                                       f"('stock', seat, slot) of this view")
        if places[key] >= 0:
            raise InvalidArgumentError(f"pinned: the card at {key!r} is known to the viewer")
        if isinstance(kind, bool) or not isinstance(kind, (int, np.integer)) \
                or not 0 <= kind < NUM_KINDS:
            raise InvalidArgumentError(f"pinned: {key!r} -> {kind!r} is no card kind")
        if pool[kind] <= 0:
            raise InvalidArgumentError(f"pinned: no unseen card of kind {kind} left for "
                                       f"{key!r}")
        pool[kind] -= 1
        pins[key] = int(kind)
    return pins


def _sample_kept_known(v: CrewView, pool: list, rng: np.random.Generator) -> list:
    """Per seat, the cards the viewer knows of in its Crew Pile that are sampled to be
    still there: the sure ones, plus enough of the ones that may be gone (at most
    ``crew_maybe_gone`` gone, no more kept than the pile holds); the kept uncertain ones are
    taken out of ``pool`` (the unplaced cards, the sure ones already removed)."""
    n, me = v.num_players, v.player
    for _ in range(100):   # an attempt fails only if two piles compete for scarce cards
        left = list(pool)
        kept = [[0] * NUM_KINDS for _ in range(n)]
        for q in rng.permutation(n):
            known, gone = v.crew_known[q], v.crew_maybe_gone[q]
            if q == me or not any(known):
                continue
            sure = [max(0, c - gone) for c in known]
            maybe = [k for k in range(NUM_KINDS) for _ in range(known[k] - sure[k])]
            least = max(sum(sure), sum(known) - gone)
            most = min(sum(known), v.crew_sizes[q])
            if most < least:
                raise InvalidArgumentError(
                    f"inconsistent view: seat {q}'s Crew Pile cannot hold its known cards")
            want = int(rng.integers(least, most + 1)) - sum(sure)
            kept[q] = sure
            for i in rng.permutation(len(maybe)):
                if want == 0:
                    break
                k = maybe[i]
                if left[k] > 0:
                    left[k] -= 1
                    kept[q][k] += 1
                    want -= 1
            if sum(kept[q]) < least:
                break
        else:
            pool[:] = left
            return kept
    raise InvalidArgumentError("inconsistent view: the known Crew Pile cards do not fit")


def _sampled_event(s: AllHandsCrewState, event: tuple, rng: np.random.Generator) -> list:
    """A view's event as the state records it: who knows its card (a Snatch: the two
    involved; a hire's count of cards put back: everyone); a Snatch's card the viewer did
    not see is drawn from the snatcher's sampled Crew Pile (any kind if it laid it out)."""
    who, what, arg, kind = event
    if what == "hire":
        return [who, what, arg, kind, (1 << s.game.num_players) - 1]
    if what != "snatch":
        return [who, what, arg, kind, 0]
    if kind < 0:
        held = [k for k in range(NUM_KINDS) for _ in range(s.crew[who][k])]
        kind = held[int(rng.integers(len(held)))] if held else int(rng.integers(NUM_KINDS))
    return [who, what, arg, kind, (1 << who) | (1 << arg)]
