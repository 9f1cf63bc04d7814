"""Scallywags rules: coins, cards, takes and the HANDS OFF ME BOOTY! block.

Pure rules (no gymnasium or PettingZoo). Reads top to bottom: action indices, the game
(parameters), the state (setup, whose decision, legal moves, effects, knowledge), and the
sampler that deals a full state consistent with one player's view.

A turn is one or more steps of the same player: pick a kind (take a face-down coin,
play card k, discard card k), then the card's targets one step each in a fixed order,
every partial choice masked so it can be completed. A finished action that touches
opponents is offered to each of them in turn order for a block/allow step.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from plunder.envs.core.game import Game, GameState, clone_rng, rng_from_dict, rng_to_dict
from plunder.envs.core.layout import EntityGroup
from plunder.envs.core.state_io import (
    check_bool, check_choice, check_int, check_int_list, check_int_lists, check_keys,
    check_list,
)

from .components import (
    ARRGH, AVAST, BLOW, BOOTY, CARD_NAMES, HANDS_OFF, LAND_HO, NUM_CARDS, PIECES, SHIVER,
    YO_HO, Components, default_components,
)
from .view import ScallywagsView

MAX_OPPONENTS = 5
MIDDLE = -1

#: ScallywagsState.python_view (and _cview.c) build the view positionally, in this order
_VIEW_FIELDS = ("player", "num_players", "take_limit", "coin_values", "face_up", "coin_owner",
                "coin_slot", "knowers", "hand", "hand_sizes", "discard", "reshuffled",
                "draw_size", "actor", "phase", "card", "chosen", "block_queue", "acting",
                "turns")
assert ScallywagsView._fields == _VIEW_FIELDS, "update python_view and _cview.c"
_new_tuple = tuple.__new__


def _kind_counts(cards: list[int]) -> tuple[int, ...]:
    """How many cards of each kind ``cards`` holds (one pass: cheaper than 9 counts)."""
    counts = [0] * NUM_CARDS
    for k in cards:
        counts[k] += 1
    return tuple(counts)


CHOOSE, TARGET, BLOCK = "choose", "target", "block"
PHASES = (CHOOSE, TARGET, BLOCK)


class ActionIndex:
    """Layout of the single Discrete action space (sizes depend on the coin count)."""

    def __init__(self, num_coins: int):
        self.play = 0                          # play card k: play + k
        self.discard = NUM_CARDS               # discard card k: discard + k
        self.coin = 2 * NUM_CARDS              # choose coin c: coin + c
        self.player = self.coin + num_coins    # choose opponent at seat offset d: player + d - 1
        self.block = self.player + MAX_OPPONENTS
        self.allow = self.block + 1
        self.size = self.allow + 1
        self.num_coins = num_coins


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
        self.actions = ActionIndex(self.num_coins)
        n = self.num_players
        #: per seat, the other seats in turn order after it (ScallywagsState.opponents)
        self.seats_after = tuple(tuple((s + d) % n for d in range(1, n)) for s in range(n))
        from . import observation  # late import: observation imports this module
        self._layout = observation.build_layout(self)
        self.bind_compiled()

    #: the memoising Python encoder (observation.encoder), unused when compiled
    python_encoder_attrs = ("_encoder",)

    def compiled_encoder_params(self, module) -> tuple:
        """The compiled encoder's constants (observation.compiled_params)."""
        from . import observation
        return observation.compiled_params(self, module)

    def compiled_view_params(self) -> tuple:
        """The compiled view builder's constants (view_params)."""
        return view_params(self)

    def compiled_engine_params(self, module) -> tuple:
        """The compiled engine's constants (``_engine.Engine(*params)``, in its order)."""
        from . import observation
        comp = self.components
        return (self.num_players, self.take_limit, comp.coin_values, comp.card_copies,
                comp.hand_size, comp.face_up_probability, self.num_actions,
                observation.compiled_params(self, module), ScallywagsView, PHASES)

    # -- spaces -------------------------------------------------------------------------
    @property
    def num_actions(self) -> int:
        """Cards (play, discard), coins, opponents by seat offset, block, allow."""
        return self.actions.size

    def action_name(self, action: int) -> str:
        """Readable name, e.g. 'play PIECES OF EIGHT!', 'coin 17', 'opponent +2'."""
        a = self.actions
        if a.play <= action < a.discard:
            return f"play {CARD_NAMES[action - a.play]}"
        if a.discard <= action < a.coin:
            return f"discard {CARD_NAMES[action - a.discard]}"
        if a.coin <= action < a.player:
            return f"coin {action - a.coin}"
        if a.player <= action < a.block:
            return f"opponent +{action - a.player + 1}"
        if action == a.block:
            return "block (HANDS OFF ME BOOTY!)"
        if action == a.allow:
            return "allow"
        raise ValueError(f"no action {action}; actions are 0..{a.size - 1}")

    @property
    def layout(self):
        """Named observation layout (see plunder.envs.scallywags.observation)."""
        return self._layout

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

    def _load_state(self, data: dict) -> "ScallywagsState":
        """Rebuild a state from ``to_dict()``, every field checked (types, ranges, one
        entry per coin / seat / card kind); ``validate`` then checks the rules."""
        check_keys(data, f"{self.env_id()} state", ScallywagsState.FIELDS + ("rng",))
        comp = self.components
        n, coins, cards = self.num_players, self.num_coins, sum(comp.card_copies)
        data = copy.deepcopy(data)     # the state must not share the caller's lists
        s = ScallywagsState(self, rng_from_dict(data["rng"]))
        s.values = check_int_list(data["values"], "values", coins,
                                  min(comp.coin_values), max(comp.coin_values))
        s.face_up = check_list(data["face_up"], "face_up", coins)
        for c, up in enumerate(s.face_up):
            check_bool(up, f"face_up[{c}]")
        s.middle = check_int_list(data["middle"], "middle", None, 0, coins - 1, max_len=coins)
        s.takes = check_int_lists(data["takes"], "takes", n, None, 0, coins - 1,
                                  max_inner=self.take_limit)
        s.knowers = check_int_list(data["knowers"], "knowers", coins, 0, (1 << n) - 1)
        s.hands = check_int_lists(data["hands"], "hands", n, NUM_CARDS, 0, comp.hand_size)
        s.draw_pile = check_int_list(data["draw_pile"], "draw_pile", None, 0, NUM_CARDS - 1,
                                     max_len=cards)
        s.discard = check_int_list(data["discard"], "discard", None, 0, NUM_CARDS - 1,
                                   max_len=cards)
        s.reshuffled = check_int_list(data["reshuffled"], "reshuffled", NUM_CARDS, 0, cards)
        s.actor = check_int(data["actor"], "actor", 0, n - 1)
        s.phase = check_choice(data["phase"], "phase", PHASES)
        s.card = check_int(data["card"], "card", -1, NUM_CARDS - 1)
        s.chosen = check_int_list(data["chosen"], "chosen", None, 0, max(coins, n) - 1,
                                  max_len=max(ScallywagsState.TARGET_STEPS.values()))
        s.block_queue = check_int_list(data["block_queue"], "block_queue", None, 0, n - 1,
                                       max_len=n - 1)
        s.turns = check_int(data["turns"], "turns", 0)
        s.refresh()
        return s

    def sample_state(self, view: ScallywagsView, rng: np.random.Generator) -> "ScallywagsState":
        """A full state consistent with the view: unseen coin values and cards redrawn."""
        s = ScallywagsState(self, np.random.default_rng(int(rng.integers(2**63 - 1))))
        comp = self.components
        unseen_values = list(comp.coin_values)
        for v in view.coin_values:
            if v >= 0:
                unseen_values.remove(v)
        unseen_values = [int(v) for v in rng.permutation(unseen_values)]
        s.values = [v if v >= 0 else unseen_values.pop() for v in view.coin_values]
        s.face_up = list(view.face_up)
        s.takes = [list(t) for t in view.takes]
        s.middle = sorted(c for c in range(self.num_coins) if view.coin_owner[c] == MIDDLE)
        s.knowers = list(view.knowers)
        unseen = [comp.card_copies[k] - view.hand[k] - view.discard[k] for k in range(NUM_CARDS)]
        # the draw pile is part of the last reshuffled pile (public), if there was one
        if any(view.reshuffled):
            candidates = [k for k in range(NUM_CARDS)
                          for _ in range(min(view.reshuffled[k], unseen[k]))]
        else:
            candidates = [k for k in range(NUM_CARDS) for _ in range(unseen[k])]
        pile = [int(k) for k in rng.permutation(candidates)[:view.draw_size]]
        for k in pile:
            unseen[k] -= 1
        unseen = [int(k) for k in rng.permutation(
            [k for k in range(NUM_CARDS) for _ in range(unseen[k])])]
        s.hands = []
        for p in range(self.num_players):
            if p == view.player:
                s.hands.append(list(view.hand))
                continue
            hand = [0] * NUM_CARDS
            for _ in range(view.hand_sizes[p]):
                hand[unseen.pop()] += 1
            s.hands.append(hand)
        s.draw_pile = pile
        s.discard = [k for k in range(NUM_CARDS) for _ in range(view.discard[k])]
        if view.card >= 0:   # the card being played lies on top (the rest's order is moot)
            s.discard.remove(view.card)
            s.discard.append(view.card)
        s.reshuffled = list(view.reshuffled)
        s.actor, s.phase, s.card = view.actor, view.phase, view.card
        s.chosen, s.block_queue = list(view.chosen), list(view.block_queue)
        s.turns = view.turns
        s.refresh()
        return s

    def describe_view(self, view: ScallywagsView) -> str:
        """The table as player ``view.player`` sees it."""
        from .render import render_view
        return render_view(self, view)


def view_params(game: ScallywagsGame) -> tuple:
    """The compiled view builder's constants (``_cview.ViewBuilder(*view_params(game))``),
    in its constructor's order: the view and state classes, the game's ``num_players``
    and ``take_limit``, the coin and card counts, the range of coin values, the most
    cards of one kind (a bound for hand and reshuffle counts) and the phases."""
    comp = game.components
    return (ScallywagsView, ScallywagsState, game.num_players, game.take_limit,
            game.num_coins, NUM_CARDS, min(comp.coin_values), max(comp.coin_values),
            sum(comp.card_copies), PHASES, BLOCK)


class ScallywagsState(GameState):
    """One position. Coins have stable ids; takes are ordered lists of ids."""

    FIELDS = ("values", "face_up", "middle", "takes", "knowers", "hands", "draw_pile",
              "discard", "reshuffled", "actor", "phase", "card", "chosen", "block_queue",
              "turns")

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

    def clone(self) -> "ScallywagsState":
        """A fast independent copy (lists copied one level deep, generator cloned)."""
        new = ScallywagsState.__new__(ScallywagsState)
        new.__dict__.update(self.__dict__)
        new.rng = clone_rng(self.rng)
        for key in ("values", "face_up", "middle", "knowers", "draw_pile", "discard",
                    "chosen", "block_queue", "where", "slot"):
            setattr(new, key, list(getattr(self, key)))
        new.takes = [list(t) for t in self.takes]
        new.hands = [list(h) for h in self.hands]
        new.seen = [list(v) for v in self.seen]
        return new

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
        raise ValueError(f"no card {card}")

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
        raise ValueError(f"card {card} has no targets")

    TARGET_STEPS = {ARRGH: 1, AVAST: 2, BLOW: 4, BOOTY: 1, SHIVER: 2, LAND_HO: 2,
                    PIECES: 1, YO_HO: 2}

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
        assert coins == list(range(game.num_coins)), "a coin was created or lost"
        assert self.middle == sorted(self.middle), "middle: coin ids are kept ascending"
        assert sorted(self.values) == sorted(game.components.coin_values), "coin values changed"
        assert all(len(t) <= self.limit for t in self.takes), "a take exceeds the limit"
        counts = [self.draw_pile.count(k) + self.discard.count(k)
                  + sum(h[k] for h in self.hands) for k in range(NUM_CARDS)]
        assert counts == list(game.components.card_copies), "a card was created or lost"
        assert all(min(h) >= 0 for h in self.hands), "a negative card count"
        hand_size = game.components.hand_size
        assert all(sum(h) <= hand_size for h in self.hands), "a hand above the hand size"
        if any(self.reshuffled):   # the draw pile is what is left of the last reshuffle
            assert all(self.draw_pile.count(k) <= self.reshuffled[k] for k in range(NUM_CARDS)), \
                "draw_pile holds cards that were not reshuffled"
        for seat, take in enumerate(self.takes):
            assert all(self.where[c] == seat for c in take), "where: out of step with takes"
            assert all(self.knowers[c] >> seat & 1 for c in take), \
                f"knowers: a coin in seat {seat}'s take is unknown to its holder"
            assert [self.slot[c] for c in take] == list(range(1, len(take) + 1)), \
                "slot: out of step with takes"
        assert all(self.slot[c] == 0 and self.where[c] == MIDDLE for c in self.middle), \
            "where/slot: out of step with the middle"
        for p in range(game.num_players):
            for c in range(game.num_coins):
                known = self.face_up[c] or self.knowers[c] >> p & 1
                assert self.seen[p][c] == (self.values[c] if known else -1), \
                    "seen: out of step with knowers"
        self._validate_pending()

    def _validate_pending(self) -> None:
        """The phase's bookkeeping: no card pending while choosing; a played card (on top
        of the discard pile) with legal targets so far, then the touched opponents still
        to be asked, in turn order."""
        if self.phase == CHOOSE:
            assert self.card == -1 and not self.chosen and not self.block_queue, \
                "a pending card outside its target or block phase"
            return
        assert not self.finished, "a card pending after the game ended"
        assert self.card in self.TARGET_STEPS, "card: not a card with targets"
        assert self.discard and self.discard[-1] == self.card, \
            "card: the pending card is not on top of the discard pile"
        steps = self.TARGET_STEPS[self.card]
        probe = self.clone()
        probe.chosen = []
        for target in self.chosen[:steps]:
            _, choices = probe.target_choices()
            assert target in choices, f"chosen: {target} is not a legal target"
            probe.chosen.append(target)
        me = self.actor
        looked = self.chosen[:2] if self.card == BLOW and len(self.chosen) >= 2 else \
            self.chosen[:1] if self.card == LAND_HO else []
        assert all(self.knowers[c] >> me & 1 for c in looked), "a looked-at coin unknown"
        if self.phase == TARGET:
            assert len(self.chosen) < steps and not self.block_queue
        else:
            assert len(self.chosen) == steps, "chosen: blocking before every target"
            touched = probe._touched()
            queue = self.block_queue
            assert queue and queue == touched[len(touched) - len(queue):], \
                "block_queue: not the touched opponents still to be asked, in turn order"

    # -- information --------------------------------------------------------------------
    def view(self, player: int) -> ScallywagsView:
        """What ``player`` knows (the compiled view builder when built, else ``python_view``)."""
        return self.game.view_of(self, player)

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

    def to_dict(self) -> dict:
        """All fields and the generator, JSON-compatible."""
        data: dict[str, Any] = copy.deepcopy({k: getattr(self, k) for k in self.FIELDS})
        data["rng"] = rng_to_dict(self.rng)
        return data

    def describe_full(self) -> str:
        """Omniscient rendering: every coin value and every hand."""
        from .render import render_full
        return render_full(self)
