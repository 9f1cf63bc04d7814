"""Scallywags rules: coins, cards, takes and the HANDS OFF ME BOOTY! block.

Pure rules (no gymnasium or PettingZoo). Reads top to bottom: the game (parameters), the
state (setup, whose decision, legal moves, effects, knowledge); ``codes`` holds the
phases and action indices, ``sampling`` deals a full state consistent with one player's
view.

A turn is one or more steps of the same player: pick a kind (take a face-down coin,
play card k, discard card k), then the card's targets one step each in a fixed order,
every partial choice masked so it can be completed. A finished action that touches
opponents is offered to each of them in turn order for a block/allow step.
"""

from __future__ import annotations

import numpy as np

from plunder.envs.core.errors import InvalidArgumentError, require
from plunder.envs.core.game import Game, GameState
from plunder.envs.core.layout import EntityGroup
from plunder.envs.core.state_io import copy_rows, derived, field, last_seat, num_players

from .codes import BLOCK, CHOOSE, MAX_OPPONENTS, PHASES, TARGET, Phase, action_ranges
from .components import (
    ARRGH, AVAST, BLOW, BOOTY, HANDS_OFF, LAND_HO, NUM_CARDS, PIECES, SHIVER,
    YO_HO, Components, default_components,
)
from .view import ScallywagsView

MIDDLE = -1

#: ScallywagsState.python_view builds the view positionally, in this order (the compiled
#: engine's State.view and Encoder, _engine.c, use it too: VIEW_FIELDS)
_VIEW_FIELDS = ("player", "num_players", "take_limit", "coin_values", "face_up", "coin_owner",
                "coin_slot", "knowers", "hand", "hand_sizes", "discard", "reshuffled",
                "draw_size", "actor", "phase", "card", "chosen", "block_queue", "acting",
                "turns")
if ScallywagsView._fields != _VIEW_FIELDS:
    raise ImportError("ScallywagsView changed: update python_view and _engine.c")
_new_tuple = tuple.__new__


def _kind_counts(cards: list[int]) -> tuple[int, ...]:
    """How many cards of each kind ``cards`` holds (one pass: cheaper than 9 counts)."""
    counts = [0] * NUM_CARDS
    for k in cards:
        counts[k] += 1
    return tuple(counts)


#: target steps of each card that has targets
TARGET_STEPS = {ARRGH: 1, AVAST: 2, BLOW: 4, BOOTY: 1, SHIVER: 2, LAND_HO: 2, PIECES: 1,
                YO_HO: 2}


class ScallywagsGame(Game):
    """Scallywags for 2-6 players with the packaged (or given) component data."""

    name = "scallywags"
    version = 0
    min_players = 2
    max_players = 6
    options = {}
    simultaneous = False
    default_max_turns = 400

    def __init__(self, num_players: int = 2, components: Components | None = None, **options):
        super().__init__(num_players, **options)
        self.components = components or default_components()
        self.take_limit = self.components.take_limit[self.num_players]
        self.num_coins = len(self.components.coin_values)
        self.actions = action_ranges(self.num_coins)
        n = self.num_players
        #: per seat, the other seats in turn order after it (ScallywagsState.opponents)
        self.seats_after = tuple(tuple((s + d) % n for d in range(1, n)) for s in range(n))
        from . import observation  # late import: observation imports this module
        self._layout = observation.build_layout(self)
        self.bind_compiled()

    #: the memoising Python encoder (observation.encoder), unused when compiled
    python_encoder_attrs = ("_encoder",)

    def compiled_engine_params(self, module) -> tuple:
        """The compiled engine's constants (``_engine.Engine(*params)``, in its order)."""
        from . import observation
        comp = self.components
        return (self.num_players, self.take_limit, comp.coin_values, comp.card_copies,
                comp.hand_size, comp.face_up_probability, self.num_actions,
                observation.compiled_params(self, module), ScallywagsView, PHASES)

    # -- spaces -------------------------------------------------------------------------
    @property
    def entity_groups(self) -> tuple[EntityGroup, ...]:
        """The coins: their ids are arbitrary labels, so a policy may share weights."""
        fields = ("coin_in_middle", "coin_in_take", "coin_slot", "coin_face_up",
                  "coin_value_known", "coin_value", "coin_known_by", "coin_selected")
        return (EntityGroup("coin", self.num_coins, fields, (self.actions.coin,)),)

    def encode(self, view: ScallywagsView) -> np.ndarray:
        """Observation vector of a view (the Python encoder; ``bind_compiled`` puts the
        compiled one on the instance)."""
        from . import observation
        return observation.encoder(self).encode(view)

    # -- states -------------------------------------------------------------------------
    def new_initial_state(self, rng: np.random.Generator) -> "ScallywagsState":
        """Spill the coins, shuffle and deal, draw the first player."""
        s = ScallywagsState(self, rng)
        comp = self.components
        s.values = [int(v) for v in rng.permutation(comp.coin_values)]
        s.face_up = [bool(u) for u in rng.random(self.num_coins) < comp.face_up_probability]
        s.middle = list(range(self.num_coins))
        n = self.num_players
        s.takes = [[] for _ in range(n)]
        s.knowers = [0] * self.num_coins
        deck = [k for k in range(NUM_CARDS) for _ in range(comp.card_copies[k])]
        s.draw_pile = [int(k) for k in rng.permutation(deck)]
        s.hands = [[0] * NUM_CARDS for _ in range(n)]
        for _ in range(comp.hand_size):
            for p in range(n):
                s.hands[p][s.draw_pile.pop()] += 1
        s.actor = int(rng.integers(n))
        s.refresh()
        return s


class ScallywagsState(GameState):
    """One position. Coins have stable ids; takes are ordered lists of ids."""

    # every field checked on loading: types, ranges, one entry per coin / seat / card kind
    STATE_FIELDS = (
        field("values", "ints", length=lambda g: g.num_coins,
              low=lambda g: min(g.components.coin_values),
              high=lambda g: max(g.components.coin_values)),
        field("face_up", "bools", length=lambda g: g.num_coins),
        field("middle", "ints", low=0, high=lambda g: g.num_coins - 1,
              max_len=lambda g: g.num_coins),
        field("takes", "int_lists", length=num_players, low=0,
              high=lambda g: g.num_coins - 1, max_inner=lambda g: g.take_limit),
        field("knowers", "ints", length=lambda g: g.num_coins, low=0,
              high=lambda g: (1 << g.num_players) - 1),
        field("hands", "int_lists", length=num_players, inner_length=NUM_CARDS,
              low=0, high=lambda g: g.components.hand_size),
        field("draw_pile", "ints", low=0, high=NUM_CARDS - 1,
              max_len=lambda g: sum(g.components.card_copies)),
        field("discard", "ints", low=0, high=NUM_CARDS - 1,
              max_len=lambda g: sum(g.components.card_copies)),
        field("reshuffled", "ints", length=NUM_CARDS, low=0,
              high=lambda g: sum(g.components.card_copies)),
        field("actor", "int", low=0, high=last_seat),
        field("phase", "enum", enum=Phase),
        field("card", "int", low=-1, high=NUM_CARDS - 1),
        field("chosen", "ints", low=0, high=lambda g: max(g.num_coins, g.num_players) - 1,
              max_len=max(TARGET_STEPS.values())),
        field("block_queue", "ints", low=0, high=last_seat,
              max_len=last_seat),
        field("turns", "int", low=0),
        # derived from the fields above (rebuilt by refresh(), never saved)
        derived("where"), derived("slot"), derived("seen", copy_rows),
    )

    def __init__(self, game: ScallywagsGame, rng: np.random.Generator):
        super().__init__(game, rng)
        self.values: list[int] = []        # hidden while face down
        self.face_up: list[bool] = []
        self.middle: list[int] = []        # coin ids, ascending
        self.takes: list[list[int]] = []   # per seat, in order of arrival
        self.knowers: list[int] = []       # per coin: bitmask of seats who know its value
        self.hands: list[list[int]] = []   # per seat: count of each card kind (hidden)
        self.draw_pile: list[int] = []     # card kinds, top last (hidden)
        self.discard: list[int] = []       # card kinds (public)
        self.reshuffled = [0] * NUM_CARDS  # the last reshuffled pile, per kind (public)
        self.actor = 0                     # whose turn it is
        self.phase = CHOOSE
        self.card = -1                     # the card being played, -1 for none
        self.chosen: list[int] = []        # targets chosen so far (coin ids, seats)
        self.block_queue: list[int] = []   # touched seats still to be asked
        # derived from the fields above (rebuilt by refresh(), never serialized):
        self.where: list[int] = []         # per coin: seat holding it, or MIDDLE
        self.slot: list[int] = []          # per coin: 1-based position in its take, 0 if none
        self.seen: list[list[int]] = []    # per seat, per coin: value if known, else -1
        self.finished = False              # every take is full

    def refresh(self) -> None:
        """Rebuild the derived tables after fields were set directly (setup, loading, tests)."""
        n = self.game.num_players
        self.where = [MIDDLE] * self.game.num_coins
        self.slot = [0] * self.game.num_coins
        for seat, take in enumerate(self.takes):
            for i, c in enumerate(take):
                self.where[c] = seat
                self.slot[c] = i + 1
        self.seen = [[v if (up or k >> p & 1) else -1
                      for v, up, k in zip(self.values, self.face_up, self.knowers)]
                     for p in range(n)]
        self.finished = all(len(t) == self.limit for t in self.takes)

    def loaded(self) -> None:
        """The derived tables of a loaded state."""
        self.refresh()

    # -- small helpers ------------------------------------------------------------------
    @property
    def limit(self) -> int:
        """Coins a take holds at the end."""
        return self.game.take_limit

    def room(self, seat: int) -> int:
        """Coins ``seat``'s take can still receive."""
        return self.game.take_limit - len(self.takes[seat])

    def owner(self, coin: int) -> int:
        """Seat holding ``coin``, or MIDDLE."""
        return self.where[coin]

    def learn(self, coin: int, seat: int) -> None:
        """``seat`` sees ``coin``'s value (and remembers it for the rest of the game)."""
        self.knowers[coin] |= 1 << seat
        self.seen[seat][coin] = self.values[coin]

    def opponents(self, seat: int) -> tuple[int, ...]:
        """Other seats in turn order after ``seat``."""
        return self.game.seats_after[seat]   # computed once per game: asked every target step

    def middle_face_down(self) -> list[int]:
        """Face-down coins in the middle."""
        return [c for c in self.middle if not self.face_up[c]]

    def middle_face_up(self) -> list[int]:
        """Face-up coins in the middle."""
        return [c for c in self.middle if self.face_up[c]]

    def opponent_coins(self, seat: int, face_down_only: bool = False) -> list[int]:
        """Coins in the takes of ``seat``'s opponents."""
        takes = self.takes
        coins = [c for q in self.game.seats_after[seat] for c in takes[q]]
        if face_down_only:
            face_up = self.face_up
            return [c for c in coins if not face_up[c]]
        return coins

    # -- whose decision -----------------------------------------------------------------
    def current_players(self) -> tuple[int, ...]:
        """The actor, or the touched player being asked to block."""
        if self.finished:        # is_terminal(), read directly: this runs twice a decision
            return ()
        if self.phase == BLOCK:
            return (self.block_queue[0],)
        return (self.actor,)

    def is_terminal(self) -> bool:
        """Every take holds exactly the limit (checked at the end of each turn)."""
        return self.finished

    def scores(self) -> list[float]:
        """Sum of coin values in each take."""
        return [float(sum(self.values[c] for c in take)) for take in self.takes]

    # -- legal moves --------------------------------------------------------------------
    def _choice_facts(self) -> tuple:
        """What the actor's choose step depends on, computed once for all its options:
        the face-down middle coins, whether a face-up one lies in the middle, the actor's
        room, and its opponents' takes and rooms (in turn order)."""
        me, limit = self.actor, self.game.take_limit
        takes, face_up = self.takes, self.face_up
        down = [c for c in self.middle if not face_up[c]]
        opps = takes[me + 1:] + takes[:me]            # the seats after me, in turn order
        return (down, len(down) < len(self.middle), limit - len(takes[me]), opps,
                [limit - len(t) for t in opps])

    def can_play(self, card: int, facts: tuple | None = None) -> bool:
        """Whether the actor can fully execute ``card`` now (``facts``: _choice_facts())."""
        down, up, room, opps, rooms = facts or self._choice_facts()
        face_up = self.face_up
        if card == HANDS_OFF:
            return False
        if card == ARRGH:
            return any(opps)
        if card == AVAST:
            return (any(not face_up[c] for c in self.takes[self.actor])
                    and any(not face_up[c] for take in opps for c in take))
        if card == BLOW:
            return len(down) >= 2 and (max(rooms) >= 2 or sum(r >= 1 for r in rooms) >= 2)
        if card == BOOTY:
            return room >= 1 and up
        if card == SHIVER:
            return room >= 2 and bool(down) and up
        if card == LAND_HO:          # a face-down coin in the middle or an opponent's take
            return room >= 1 and (bool(down) or any(not face_up[c] for take in opps
                                                    for c in take))
        if card == PIECES:
            return room >= 1 and any(opps)
        if card == YO_HO:
            return up and any(r >= 1 for r in rooms)
        raise InvalidArgumentError(f"no card {card}")

    def _land_ho_coins(self) -> list[int]:
        return self.middle_face_down() + self.opponent_coins(self.actor, face_down_only=True)

    def can_take_face_down(self) -> bool:
        """Whether the actor may take a face-down coin from the middle."""
        return self.room(self.actor) >= 1 and bool(self.middle_face_down())

    def target_choices(self) -> tuple[str, list[int]]:
        """('coin' or 'player', the legal choices) for the next target of the pending card."""
        me, step, ch = self.actor, len(self.chosen), self.chosen
        card = self.card
        if card in (ARRGH, PIECES):
            return "coin", self.opponent_coins(me)
        if card == AVAST:
            if step == 0:
                return "coin", [c for c in self.takes[me] if not self.face_up[c]]
            return "coin", self.opponent_coins(me, face_down_only=True)
        if card == BLOW:
            if step < 2:
                return "coin", [c for c in self.middle_face_down() if c not in ch]
            opps = self.opponents(me)
            if step == 2:
                return "player", [q for q in opps if self.room(q) >= 2 or (
                    self.room(q) == 1 and any(self.room(o) >= 1 for o in opps if o != q))]
            return "player", [q for q in opps if self.room(q) >= 1 + (q == ch[2])]
        if card == BOOTY:
            return "coin", self.middle_face_up()
        if card == SHIVER:
            return "coin", self.middle_face_down() if step == 0 else self.middle_face_up()
        if card == LAND_HO:
            return "coin", self._land_ho_coins()
        if card == YO_HO:
            if step == 0:
                return "coin", self.middle_face_up()
            return "player", [q for q in self.opponents(me) if self.room(q) >= 1]
        raise InvalidArgumentError(f"card {card} has no targets")

    TARGET_STEPS = TARGET_STEPS

    def legal_actions_mask(self, player: int) -> np.ndarray:
        """int8 mask over the action space; zeros for a player not acting."""
        # filled byte by byte, then viewed as int8: cheaper than numpy item writes
        mask = bytearray(self.game.actions.size)
        if player in self.current_players():
            self._fill_mask(mask, player)
        return np.frombuffer(mask, np.int8)

    def _fill_mask(self, mask: bytearray, player: int) -> None:
        """Set the legal actions of the acting ``player`` in ``mask``."""
        a = self.game.actions
        if self.phase == BLOCK:
            mask[a.allow] = 1
            if self.hands[player][HANDS_OFF] > 0:
                mask[a.block] = 1
            return
        if self.phase == TARGET:
            kind, choices = self.target_choices()
            if kind == "coin":
                for c in choices:
                    mask[a.coin + c] = 1
            else:
                n = self.game.num_players
                for q in choices:
                    mask[a.player + (q - self.actor) % n - 1] = 1
            return
        hand = self.hands[player]
        facts = self._choice_facts()
        down, room = facts[0], facts[2]
        any_move = False
        if room >= 1 and down:                          # take a face-down coin
            for c in down:
                mask[a.coin + c] = 1
            any_move = True
        for k in range(NUM_CARDS):
            if hand[k] and self.can_play(k, facts):
                mask[a.play + k] = 1
                any_move = True
        if not any_move:
            for k in range(NUM_CARDS):
                if hand[k]:
                    mask[a.discard + k] = 1

    # -- effects ------------------------------------------------------------------------
    def _apply(self, actions: dict[int, int]) -> None:
        """Apply the single acting player's checked action."""
        (player, action), = actions.items()
        a = self.game.actions
        if self.phase == BLOCK:
            self._answer_block(player, action == a.block)
        elif self.phase == TARGET:
            if action >= a.player:
                target = (self.actor + action - a.player + 1) % self.game.num_players
            else:
                target = action - a.coin
            self._choose_target(target)
        elif action < a.discard:
            self.hands[player][action - a.play] -= 1
            self.discard.append(action - a.play)
            self.card, self.chosen, self.phase = action - a.play, [], TARGET
        elif action < a.coin:
            self.hands[player][action - a.discard] -= 1
            self.discard.append(action - a.discard)
            self._end_turn(draw=True)
        else:
            self._move_to_take(action - a.coin, player)
            self._end_turn(draw=False)

    def _choose_target(self, target: int) -> None:
        self.chosen.append(target)
        me = self.actor
        if self.card == BLOW and len(self.chosen) == 2:
            for c in self.chosen:                      # the two coins are looked at now
                self.learn(c, me)
        if self.card == LAND_HO and len(self.chosen) == 1:
            self.learn(target, me)                     # the look happens before the take
        if len(self.chosen) < self.TARGET_STEPS[self.card]:
            return
        touched = self._touched()
        if touched:
            self.phase, self.block_queue = BLOCK, touched
        else:
            self._execute()

    def _touched(self) -> list[int]:
        """Opponents the finished action takes from, swaps with or gives to, in turn order."""
        ch, card = self.chosen, self.card
        if card in (ARRGH, PIECES):
            seats = {self.owner(ch[0])}
        elif card == AVAST:
            seats = {self.owner(ch[1])}
        elif card == BLOW:
            seats = {ch[2], ch[3]}
        elif card == YO_HO:
            seats = {ch[1]}
        elif card == LAND_HO:
            seats = {self.owner(ch[1])} - {MIDDLE}
        else:
            seats = set()
        return [q for q in self.opponents(self.actor) if q in seats]

    def _answer_block(self, seat: int, block: bool) -> None:
        if block:
            self.hands[seat][HANDS_OFF] -= 1
            self.discard.append(HANDS_OFF)
            while sum(self.hands[seat]) < self.game.components.hand_size and self._draw(seat):
                pass
            self._end_turn(draw=True)
            return
        self.block_queue.pop(0)
        if not self.block_queue:
            self._execute()

    def _execute(self) -> None:
        """Carry out the pending card's fully chosen action."""
        me, ch, card = self.actor, self.chosen, self.card
        if card == ARRGH:
            self._move_to_middle(ch[0])
        elif card == AVAST:
            mine, theirs = ch
            other = self.owner(theirs)
            i, j = self.takes[me].index(mine), self.takes[other].index(theirs)
            self.takes[me][i], self.takes[other][j] = theirs, mine
            self.where[theirs], self.where[mine] = me, other
            self.slot[theirs], self.slot[mine] = self.slot[mine], self.slot[theirs]
            self.learn(theirs, me)
            self.learn(mine, other)
        elif card == BLOW:
            self._move_to_take(ch[0], ch[2])
            self._move_to_take(ch[1], ch[3])
        elif card in (BOOTY, PIECES):
            self._move_to_take(ch[0], me)
        elif card == SHIVER:
            self._move_to_take(ch[0], me)
            self._move_to_take(ch[1], me)
        elif card == LAND_HO:
            self._move_to_take(ch[1], me)
        elif card == YO_HO:
            self._move_to_take(ch[0], ch[1])
        self._end_turn(draw=True)

    def _move_to_take(self, coin: int, seat: int) -> None:
        src = self.where[coin]
        if src == MIDDLE:
            self.middle.remove(coin)
        else:
            self._leave_take(coin, src)
        self.takes[seat].append(coin)
        self.where[coin] = seat
        self.slot[coin] = len(self.takes[seat])
        self.learn(coin, seat)

    def _move_to_middle(self, coin: int) -> None:
        self._leave_take(coin, self.where[coin])
        self.where[coin] = MIDDLE
        self.slot[coin] = 0
        self.middle.append(coin)
        self.middle.sort()

    def _leave_take(self, coin: int, seat: int) -> None:
        """Take ``coin`` out of ``seat``'s take; the coins behind it move up one place."""
        take = self.takes[seat]
        i = take.index(coin)
        del take[i]
        for j in range(i, len(take)):
            self.slot[take[j]] = j + 1

    def _draw(self, seat: int) -> bool:
        """Draw one card (reshuffling the discard pile if needed); False if none is left."""
        if not self.draw_pile:
            if not self.discard:
                return False
            self.draw_pile = [int(k) for k in self.rng.permutation(self.discard)]
            self.reshuffled = [self.discard.count(k) for k in range(NUM_CARDS)]
            self.discard = []
        self.hands[seat][self.draw_pile.pop()] += 1
        return True

    def _end_turn(self, draw: bool) -> None:
        if draw:
            self._draw(self.actor)
        self.phase, self.card, self.chosen, self.block_queue = CHOOSE, -1, [], []
        self.turns += 1
        self.actor = (self.actor + 1) % self.game.num_players
        # takes never exceed the limit, so every take is full when the smallest one is
        self.finished = min(map(len, self.takes)) == self.game.take_limit

    def validate(self) -> None:
        """Assert the invariants: every coin and card exactly once, takes within the limit,
        hands within their size, derived tables in step with the fields, and a pending
        card whose targets so far were legal choices."""
        game = self.game
        coins = sorted(self.middle + [c for t in self.takes for c in t])
        require(coins == list(range(game.num_coins)), "a coin was created or lost")
        require(self.middle == sorted(self.middle), "middle: coin ids are kept ascending")
        require(sorted(self.values) == sorted(game.components.coin_values), "coin values changed")
        require(all(len(t) <= self.limit for t in self.takes), "a take exceeds the limit")
        counts = [self.draw_pile.count(k) + self.discard.count(k)
                  + sum(h[k] for h in self.hands) for k in range(NUM_CARDS)]
        require(counts == list(game.components.card_copies), "a card was created or lost")
        require(all(min(h) >= 0 for h in self.hands), "a negative card count")
        hand_size = game.components.hand_size
        require(all(sum(h) <= hand_size for h in self.hands), "a hand above the hand size")
        # hands are refilled at once: every hand is full, but the actor's while the card
        # it played is pending (one short)
        for seat, hand in enumerate(self.hands):
            want = hand_size - (self.phase != CHOOSE and seat == self.actor)
            require(sum(hand) == want, f"hands[{seat}]: {sum(hand)} cards, not {want} "
                    "(hands are refilled at once; the actor's is one short while its card "
                    "is pending)")
        require(all(r <= c for r, c in zip(self.reshuffled, game.components.card_copies)),
                "reshuffled: more copies of a card than the deck holds")
        if any(self.reshuffled):   # the draw pile is what is left of the last reshuffle
            require(all(self.draw_pile.count(k) <= self.reshuffled[k] for k in range(NUM_CARDS)),
                    "draw_pile holds cards that were not reshuffled")
        for seat, take in enumerate(self.takes):
            require(all(self.where[c] == seat for c in take), "where: out of step with takes")
            require(all(self.knowers[c] >> seat & 1 for c in take),
                    f"knowers: a coin in seat {seat}'s take is unknown to its holder")
            require([self.slot[c] for c in take] == list(range(1, len(take) + 1)),
                    "slot: out of step with takes")
        require(all(self.slot[c] == 0 and self.where[c] == MIDDLE for c in self.middle),
                "where/slot: out of step with the middle")
        for p in range(game.num_players):
            for c in range(game.num_coins):
                known = self.face_up[c] or self.knowers[c] >> p & 1
                require(self.seen[p][c] == (self.values[c] if known else -1),
                        "seen: out of step with knowers")
        self._validate_pending()

    def _validate_pending(self) -> None:
        """The phase's bookkeeping: no card pending while choosing; a played card (on top
        of the discard pile) with legal targets so far, then the touched opponents still
        to be asked, in turn order."""
        if self.phase == CHOOSE:
            require(self.card == -1 and not self.chosen and not self.block_queue,
                    "a pending card outside its target or block phase")
            return
        require(not self.finished, "a card pending after the game ended")
        require(self.card in self.TARGET_STEPS, "card: not a card with targets")
        require(self.discard and self.discard[-1] == self.card,
                "card: the pending card is not on top of the discard pile")
        steps = self.TARGET_STEPS[self.card]
        probe = self.clone()
        probe.chosen = []
        require(probe.can_play(self.card),
                f"card: {self.card} could not have been played by the actor (seat {self.actor})")
        for target in self.chosen[:steps]:
            _, choices = probe.target_choices()
            require(target in choices, f"chosen: {target} is not a legal target")
            probe.chosen.append(target)
        me = self.actor
        looked = self.chosen[:2] if self.card == BLOW and len(self.chosen) >= 2 else \
            self.chosen[:1] if self.card == LAND_HO else []
        require(all(self.knowers[c] >> me & 1 for c in looked), "a looked-at coin unknown")
        if self.phase == TARGET:
            require(len(self.chosen) < steps and not self.block_queue,
                    "chosen/block_queue: every target chosen or a block asked while targeting")
        else:
            require(len(self.chosen) == steps, "chosen: blocking before every target")
            touched = probe._touched()
            queue = self.block_queue
            require(queue and queue == touched[len(touched) - len(queue):],
                    "block_queue: not the touched opponents still to be asked, in turn order")

    # -- information --------------------------------------------------------------------
    def python_view(self, player: int) -> ScallywagsView:
        """What ``player`` knows: public table, own hand, coin values it has seen."""
        # positional, in _VIEW_FIELDS order: cheaper than ScallywagsView(field=...)
        return _new_tuple(ScallywagsView, (
            player, self.game.num_players, self.game.take_limit,
            tuple(self.seen[player]), tuple(self.face_up), tuple(self.where),
            tuple(self.slot), tuple(self.knowers),
            tuple(self.hands[player]), tuple(map(sum, self.hands)),
            _kind_counts(self.discard), tuple(self.reshuffled),
            len(self.draw_pile),
            self.actor, self.phase, self.card, tuple(self.chosen), tuple(self.block_queue),
            self.current_players(), self.turns,
        ))


ScallywagsGame.state_class = ScallywagsState

__all__ = ["BLOCK", "CHOOSE", "MAX_OPPONENTS", "MIDDLE", "PHASES", "TARGET", "Phase",
           "ScallywagsGame", "ScallywagsState"]
