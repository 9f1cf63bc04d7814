"""All Hands On Deck (naval battles) rules: recruiting, launching, Aargh!, battles, reckoning.

Pure rules (no gymnasium or PettingZoo). Reads top to bottom: the action indices, the game
(parameters, card table, ship rules), the state (round setup, whose decision, legal moves,
effects, the reckoning, what each player knows) and the sampler that deals a full state
consistent with one player's view.

Decisions (``state.decision``):

* ``turn``    recruiting turn after the draw: discard a card (ends the turn) or pick a
              shipmaster to launch a ship (at most one ship per turn);
* ``crew``    the ship being launched: one crew card per step, each step masked so that the
              ship can always be completed from the hand;
* ``discard`` after launching: discard a card to end the turn;
* ``claim``   after every discard each other player in turn order (a random order with
              Alternate Aargh!) is asked "Aargh!" or pass; the first claim takes the card;
* ``select``  battle turn: pick one of your unused ships to attack with, or pass;
* ``aim``     pick the ship to attack, or let the ship's Spy look at one first (and, after
              looking, pass instead unless you are the first fleet's compulsory attacker).
"""

from __future__ import annotations

import bisect
import copy
from typing import Any

import numpy as np

from plunder.envs.core.errors import (
    ConfigError, InvalidArgumentError, InvalidStateError, require,
)
from plunder.envs.core.game import Game, GameState, rng_from_dict, rng_to_dict
from plunder.envs.core.layout import EntityGroup
from plunder.envs.core.state_io import (
    check_bool, check_choice, check_int, check_int_list, check_int_lists, check_keys,
    check_list,
)

from .components import (KIND_NAMES, NO_SUIT, SPY, SUIT_NAMES, Card, Components,
                         default_components)
from .ships import ATTACKER, DEFENDER, RAID, ShipRules
from .view import AllHandsBattleView, ShipView

RECRUIT, BATTLE, OVER = "recruit", "battle", "over"
TURN, CREW, DISCARD, CLAIM, SELECT, AIM = "turn", "crew", "discard", "claim", "select", "aim"
DECISIONS = (TURN, CREW, DISCARD, CLAIM, SELECT, AIM, OVER)
MAX_EVENTS = 12


class ActionIndex:
    """Layout of the single Discrete action space.

    ``discard + c``: discard card c · ``master + c``: launch a ship led by card c ·
    ``crew + c``: put card c in the crew being launched · ``claim``/``no_claim``: Aargh! or
    pass · ``select + k``: attack with your ship k · ``attack + 3(d-1) + j``: attack ship j
    of the opponent d seats to your left · ``spy + 3(d-1) + j``: let your Spy look at that
    ship first · ``pass_battle``: stop attacking this round.
    """

    def __init__(self, num_cards: int, num_players: int, ships: int):
        self.num_cards = num_cards
        self.ships = ships
        self.targets = (num_players - 1) * ships
        self.discard = 0
        self.master = num_cards
        self.crew = 2 * num_cards
        self.claim = 3 * num_cards
        self.no_claim = self.claim + 1
        self.select = self.no_claim + 1
        self.attack = self.select + ships
        self.spy = self.attack + self.targets
        self.pass_battle = self.spy + self.targets
        self.size = self.pass_battle + 1

    def target_index(self, offset: int, slot: int) -> int:
        """Index within the attack/spy blocks of ship ``slot`` of the seat ``offset`` left."""
        return (offset - 1) * self.ships + slot


class AllHandsBattleGame(Game):
    """All Hands On Deck for 2-5 players with the packaged (or given) component data."""

    name = "all_hands_battle"
    version = 0
    min_players = 2
    max_players = 5
    options = {"prize_crew": False, "alternate_aargh": False, "target_score": 500,
               "max_rounds": 0}
    simultaneous = False
    default_max_turns = 10000

    def __init__(self, num_players: int = 2, components: Components | None = None, **options):
        super().__init__(num_players, **options)
        self.components = components or default_components()
        comp = self.components
        self.cards: tuple[Card, ...] = comp.deck(self.prize_crew)
        self.num_cards = len(self.cards)
        if self.num_cards < self.num_players * comp.hand_size + 2:
            raise ConfigError(f"the deck of {self.num_cards} cards is too small for "
                              f"{self.num_players} players")
        self.rules = ShipRules(self.cards, comp.alliance, comp.crew_per_ship, self.prize_crew)
        self.actions = ActionIndex(self.num_cards, self.num_players, comp.ships_per_fleet)
        from . import observation  # late import: observation imports this module
        self._layout = observation.build_layout(self)
        self.bind_compiled()

    #: the Python encoder's lookup tables and memos (observation._tables), unused compiled
    python_encoder_attrs = ("_obs_tables",)

    def compiled_encoder_params(self, module) -> tuple:
        """The compiled encoder's constants (observation.compiled_params)."""
        from . import observation
        return observation.compiled_params(self, module)

    def compiled_view_params(self) -> tuple:
        """The compiled view builder's constants (view_params)."""
        return view_params(self)

    def __getstate__(self) -> dict:
        """Pickled without the compiled code and without the Python encoder's memo tables
        (a cache of up to ~700 observation blocks, rebuilt as it is used)."""
        state = super().__getstate__()
        state.pop("_obs_tables", None)
        return state

    @classmethod
    def validate_options(cls, values: dict[str, Any]) -> None:
        """``target_score`` must be positive and ``max_rounds`` >= 0 (0 = no limit)."""
        if values["target_score"] < 1:
            raise InvalidArgumentError(f"target_score must be >= 1, got {values['target_score']}")
        if values["max_rounds"] < 0:
            raise InvalidArgumentError(
                f"max_rounds must be >= 0 (0 means no limit), got {values['max_rounds']}")

    # -- spaces -------------------------------------------------------------------------
    @property
    def num_actions(self) -> int:
        """Cards (discard, shipmaster, crew), claim, pass, ship, target, spy, pass."""
        return self.actions.size

    def card_name(self, card: int) -> str:
        """Name of a card id."""
        return self.cards[card].name

    def action_name(self, action: int) -> str:
        """Readable name, e.g. 'discard Navy 7', 'attack +1 ship 2', 'Aargh!'."""
        a = self.actions
        if not 0 <= action < a.size:
            raise InvalidArgumentError(f"no action {action}; actions are 0..{a.size - 1}")
        C = self.num_cards
        if action < a.master:
            return f"discard {self.card_name(action)}"
        if action < a.crew:
            return f"launch with {self.card_name(action - C)}"
        if action < a.claim:
            return f"crew {self.card_name(action - 2 * C)}"
        if action == a.claim:
            return "Aargh! (claim the discard)"
        if action == a.no_claim:
            return "pass (no claim)"
        if action < a.attack:
            return f"attack with ship {action - a.select + 1}"
        if action < a.spy:
            d, j = divmod(action - a.attack, a.ships)
            return f"attack opponent +{d + 1} ship {j + 1}"
        if action < a.pass_battle:
            d, j = divmod(action - a.spy, a.ships)
            return f"spy on opponent +{d + 1} ship {j + 1}"
        return "pass (no more attacks this round)"

    @property
    def layout(self):
        """Named observation layout (see plunder.envs.all_hands_battle.observation)."""
        return self._layout

    def encode(self, view: AllHandsBattleView) -> np.ndarray:
        """Observation vector of a view (the Python encoder; ``bind_compiled`` puts the
        compiled one on the instance)."""
        from . import observation
        return observation.encode(self, view)

    @property
    def entity_groups(self) -> tuple[EntityGroup, ...]:
        """The cards: ids are arbitrary labels, so a policy may share weights across them;
        each card's fixed features (kind, suit, alliance, levels, points, penalty) say what
        the id stands for."""
        fields = ("hand", "discard_pile", "discard_top", "pile_candidates", "unseen",
                  "plunder_cards", "launch_master", "launch_crew")
        strided = ("reserved", "known_with", "ship_crew")
        a = self.actions
        cards = EntityGroup("card", self.num_cards, fields, (a.discard, a.master, a.crew),
                            strided, tuple(self._card_features(c) for c in self.cards))
        # Ship slots, the viewer's first: select + k names your ship k and attack + t the
        # t-th opponent ship, so one range from select names every slot in this order.
        S, n = self.components.ships_per_fleet, self.num_players
        ship_fields = ("ship_launched", "ship_suit", "ship_rank", "ship_in_play",
                       "ship_keeper", "ship_crew_count", "ship_crew_known", "ship_crew",
                       "ship_revealed", "ship_spied", "ship_spied_by_other")
        slots = tuple(tuple([float(k // S == r) for r in range(n)]
                            + [float(k % S == j) for j in range(S)]) for k in range(n * S))
        ships = EntityGroup("ship", n * S, ship_fields, (a.select,), static=slots)
        return (cards, ships)

    def _card_features(self, card: Card) -> tuple[float, ...]:
        """A card's fixed features: kind and suit one-hot, alliance (mariners, marauders,
        none) one-hot, level, Spy levels, Ruth's bonus, points, hand penalty, sails."""
        kind = [float(card.kind == k) for k in range(len(KIND_NAMES))]
        suit = [float(card.suit == s) for s in range(len(SUIT_NAMES))]
        alliance = self.components.alliance[card.suit] if card.suit != NO_SUIT else 2
        return (*kind, *suit, *(float(alliance == k) for k in range(3)), card.level / 10,
                card.attack_level / 10, card.defend_level / 10, float(card.bonus),
                card.value / 30, card.penalty / 30, card.rank / 3)

    # -- states -------------------------------------------------------------------------
    def new_initial_state(self, rng: np.random.Generator) -> "AllHandsBattleState":
        """Draw the first player, shuffle and deal round 1."""
        s = AllHandsBattleState(self, rng)
        n = self.num_players
        s.totals = [0] * n
        s.starter = int(rng.integers(n))
        s.round = 1
        s._start_round()
        return s

    def _load_state(self, data: dict) -> "AllHandsBattleState":
        """Rebuild a state from ``to_dict()``, every field checked (types, ranges, one
        entry per seat, card ids of this deck, known phases and decisions); ``validate``
        then checks the rules."""
        check_keys(data, f"{self.env_id()} state", AllHandsBattleState.FIELDS + ("rng",))
        data = copy.deepcopy(data)     # never share the caller's lists
        comp = self.components
        n, C = self.num_players, self.num_cards
        card, seat = C - 1, n - 1
        s = AllHandsBattleState(self, rng_from_dict(data["rng"]))
        s.round = check_int(data["round"], "round", 1, self.max_rounds or None)
        s.starter = check_int(data["starter"], "starter", 0, seat)
        s.totals = check_int_list(data["totals"], "totals", n, 0)
        s.last_round = check_int_list(data["last_round"], "last_round", None, 0, max_len=n)
        if s.last_round and len(s.last_round) != n:
            raise InvalidStateError(f"last_round: expected 0 or {n} entries, "
                                    f"got {len(s.last_round)}")
        s.phase = check_choice(data["phase"], "phase", (RECRUIT, BATTLE, OVER))
        s.decision = check_choice(data["decision"], "decision", DECISIONS)
        s.actor = check_int(data["actor"], "actor", -1, seat)
        s.turn_player = check_int(data["turn_player"], "turn_player", -1, seat)
        s.deck = check_int_list(data["deck"], "deck", None, 0, card, max_len=C)
        s.discard = check_int_list(data["discard"], "discard", None, 0, card, max_len=C)
        s.hands = check_int_lists(data["hands"], "hands", n, None, 0, card,
                                  max_inner=comp.hand_size + 1)
        s.reserved = check_int_list(data["reserved"], "reserved", n, -1, card)
        s.known_with = check_int_lists(data["known_with"], "known_with", n, None, 0, card,
                                       max_inner=comp.hand_size + 1)
        s.ships = check_list(data["ships"], "ships", n)
        for q, fleet in enumerate(s.ships):
            check_list(fleet, f"ships[{q}]", max_len=comp.ships_per_fleet)
            for j, ship in enumerate(fleet):
                where = f"ships[{q}][{j}]"
                master, crew, in_play, keeper, revealed = check_list(ship, where, 5)
                check_int(master, f"{where}[0] (shipmaster)", 0, card)
                check_int_list(crew, f"{where}[1] (crew)", None, 0, card,
                               max_len=comp.crew_per_ship)
                check_bool(in_play, f"{where}[2] (in play)")
                check_int(keeper, f"{where}[3] (keeper)", -1, seat)
                check_bool(revealed, f"{where}[4] (revealed)")
        s.plunder = check_int_lists(data["plunder"], "plunder", n, None, 0, card, max_inner=C)
        s.launch_master = check_int(data["launch_master"], "launch_master", -1, card)
        s.launch_crew = check_int_list(data["launch_crew"], "launch_crew", None, 0, card,
                                       max_len=comp.crew_per_ship)
        s.launched = check_bool(data["launched"], "launched")
        s.claim_queue = check_int_list(data["claim_queue"], "claim_queue", None, 0, seat,
                                       max_len=n - 1)
        s.first_fleet = check_int(data["first_fleet"], "first_fleet", -1, seat)
        s.last_turns = check_int_list(data["last_turns"], "last_turns", None, 0, seat,
                                      max_len=n - 1)
        s.reshuffled = check_int_list(data["reshuffled"], "reshuffled", None, 0, card,
                                      max_len=C)
        s.passed = check_list(data["passed"], "passed", n)
        for q, flag in enumerate(s.passed):
            check_bool(flag, f"passed[{q}]")
        s.forced = check_bool(data["forced"], "forced")
        s.selected = check_int(data["selected"], "selected", -1, comp.ships_per_fleet - 1)
        s.spies_used = check_int(data["spies_used"], "spies_used", 0, comp.crew_per_ship)
        s.spied = check_list(data["spied"], "spied", max_len=n * n * comp.ships_per_fleet)
        for i, look in enumerate(s.spied):
            spy, owner, slot = check_list(look, f"spied[{i}]", 3)
            check_int(spy, f"spied[{i}][0] (the Spy's owner)", 0, seat)
            check_int(owner, f"spied[{i}][1] (the ship's owner)", 0, seat)
            check_int(slot, f"spied[{i}][2] (the ship)", 0, comp.ships_per_fleet - 1)
        s.events = check_list(data["events"], "events", max_len=MAX_EVENTS)
        for i, text in enumerate(s.events):
            if not isinstance(text, str):
                raise InvalidStateError(f"events[{i}]: expected text, got {text!r}")
        s.turns = check_int(data["turns"], "turns", 0)
        return s

    def sample_state(self, view: AllHandsBattleView, rng: np.random.Generator
                     ) -> "AllHandsBattleState":
        """A full state consistent with the view: every card the viewer cannot place redrawn.

        Redrawn: the draw pile (only from the last reshuffle's cards when there was one),
        opponents' hands, their face-down crews (legal crews for the shipmaster where the
        cards allow) and the crew of a ship an opponent is launching (completable from the
        hand it is given). Cards publicly known to be with an opponent stay with it.
        """
        from .sampling import sample_state
        return sample_state(self, view, rng)

    def describe_view(self, view: AllHandsBattleView) -> str:
        """The table as player ``view.player`` sees it."""
        from .render import render_view
        return render_view(self, view)


def view_params(game: AllHandsBattleGame) -> tuple:
    """The compiled view builder's constructor arguments (``_cview.ViewBuilder``): the
    player count and the view's named-tuple classes (filled by position, in the order the
    module's VIEW_FIELDS and SHIP_FIELDS name)."""
    return (game.num_players, AllHandsBattleView, ShipView)


_tuple_new = tuple.__new__   # positional NamedTuple construction (no __new__ wrapper)
if len(AllHandsBattleView._fields) != 33 or len(ShipView._fields) != 7:
    raise ImportError("AllHandsBattleView or ShipView changed: update python_view and _cview.c")


class AllHandsBattleState(GameState):
    """One position. Card ids index ``game.cards``; seats are absolute."""

    FIELDS = ("round", "starter", "totals", "last_round", "phase", "decision", "actor",
              "turn_player", "deck", "discard", "hands", "reserved", "known_with", "ships",
              "plunder", "launch_master", "launch_crew", "launched", "claim_queue",
              "first_fleet", "last_turns", "reshuffled", "passed", "forced", "selected",
              "spies_used", "spied", "events", "turns")

    def __init__(self, game: AllHandsBattleGame, rng: np.random.Generator):
        super().__init__(game, rng)
        n = game.num_players
        self.round = 1
        self.starter = 0
        self.totals: list[int] = [0] * n
        self.last_round: list[int] = []
        self.phase = RECRUIT
        self.decision = TURN
        self.actor = 0
        self.turn_player = 0
        self.deck: list[int] = []          # draw pile, top last (hidden)
        self.discard: list[int] = []       # top last (public)
        self.hands: list[list[int]] = []   # sorted (hidden)
        self.reserved: list[int] = []      # claimed card per seat, -1 none (public)
        self.known_with: list[list[int]] = []  # claimed cards taken into hand (public)
        # ships[seat] = list of [master, crew, in_play, keeper, revealed]
        self.ships: list[list[list]] = []
        self.plunder: list[list[int]] = []
        self.launch_master = -1
        self.launch_crew: list[int] = []
        self.launched = False
        self.claim_queue: list[int] = []
        self.first_fleet = -1
        self.last_turns: list[int] = []
        self.reshuffled: list[int] = []
        self.passed: list[bool] = []
        self.forced = False
        self.selected = -1
        self.spies_used = 0
        self.spied: list[list[int]] = []   # [spy owner, target owner, slot] (public)
        self.events: list[str] = []

    # -- helpers --------------------------------------------------------------------------
    def _event(self, text: str) -> None:
        self.events.append(text)
        if len(self.events) > MAX_EVENTS:
            del self.events[0]

    def _name(self, card: int) -> str:
        return self.game.cards[card].name

    def _ship_name(self, seat: int, slot: int) -> str:
        return f"P{seat}'s ship {slot + 1} ({self._name(self.ships[seat][slot][0])})"

    def has_turn_left(self, seat: int) -> bool:
        """Whether ``seat`` takes another recruiting turn this round (public)."""
        if self.phase != RECRUIT:
            return False
        return self.first_fleet < 0 or seat in self.last_turns

    # -- rounds ---------------------------------------------------------------------------
    def _start_round(self) -> None:
        g = self.game
        n = g.num_players
        hand_size = g.components.hand_size
        self.deck = [int(c) for c in self.rng.permutation(g.num_cards)]
        self.hands = [sorted(self.deck[-hand_size * (p + 1):len(self.deck) - hand_size * p])
                      for p in range(n)]
        del self.deck[len(self.deck) - hand_size * n:]
        self.discard = []
        self.reserved = [-1] * n
        self.known_with = [[] for _ in range(n)]
        self.ships = [[] for _ in range(n)]
        self.plunder = [[] for _ in range(n)]
        self.launch_master = -1
        self.launch_crew = []
        self.launched = False
        self.claim_queue = []
        self.first_fleet = -1
        self.last_turns = []
        self.reshuffled = []
        self.passed = [False] * n
        self.forced = False
        self.selected = -1
        self.spies_used = 0
        self.spied = []
        self.phase = RECRUIT
        self._event(f"round {self.round}: cards dealt; P{self.starter} begins")
        self._start_turn(self.starter)

    def _reshuffle(self) -> None:
        """The draw pile is empty: shuffle the discard pile except its top card."""
        if len(self.discard) < 2:
            return
        top = self.discard[-1]
        rest = self.discard[:-1]
        self.deck = [int(c) for c in self.rng.permutation(rest)]
        self.discard = [top]
        self.reshuffled = sorted(rest)
        self._event(f"the discard pile ({len(rest)} cards) is shuffled into a new draw pile")

    def _start_turn(self, seat: int) -> None:
        self.turn_player = seat
        self.actor = seat
        self.decision = TURN
        self.launched = False
        card = self.reserved[seat]
        if card >= 0:
            self.reserved[seat] = -1
            bisect.insort(self.hands[seat], card)
            self.known_with[seat].append(card)
            self._event(f"P{seat} picks up the reserved {self._name(card)}")
            return
        if not self.deck:
            self._reshuffle()
        if self.deck:
            bisect.insort(self.hands[seat], self.deck.pop())

    def _end_recruit_turn(self, seat: int) -> None:
        """After ``seat``'s discard: first fleet, last turns, then the Aargh! questions."""
        self.turns += 1
        n = self.game.num_players
        fleet = self.game.components.ships_per_fleet
        if self.first_fleet >= 0:
            if self.last_turns and self.last_turns[0] == seat:
                self.last_turns.pop(0)
            if not self.last_turns:
                self._start_battles()
                return
        elif len(self.ships[seat]) == fleet and not self.hands[seat]:
            self.first_fleet = seat
            self.last_turns = [(seat + i) % n for i in range(1, n)]
            self._event(f"P{seat} has launched the fleet first (+"
                        f"{self.game.components.first_fleet_bonus}); everyone else has one "
                        "last turn")
        others = [(seat + i) % n for i in range(1, n)]
        if self.game.alternate_aargh:
            others = [others[int(i)] for i in self.rng.permutation(len(others))]
        self.claim_queue = others
        self.decision = CLAIM
        self.actor = others[0]

    def _next_recruit_turn(self) -> None:
        self.claim_queue = []
        if self.first_fleet >= 0:
            self._start_turn(self.last_turns[0])
        else:
            self._start_turn((self.turn_player + 1) % self.game.num_players)

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

    # -- whose decision -----------------------------------------------------------------
    def current_players(self) -> tuple[int, ...]:
        """The single deciding seat, or () at the end."""
        return () if self.actor < 0 else (self.actor,)

    def legal_actions_mask(self, player: int) -> np.ndarray:
        """int8 mask over ``game.num_actions``; zeros unless ``player`` decides now."""
        g = self.game
        A = g.actions
        mask = np.zeros(A.size, dtype=np.int8)
        if player != self.actor or self.actor < 0:
            return mask
        d = self.decision
        hand = self.hands[player]
        rules = g.rules
        if d in (TURN, DISCARD):
            mask[hand] = 1
            if d == TURN and len(self.ships[player]) < g.components.ships_per_fleet:
                for c in hand:
                    if rules.is_master[c] and rules.can_launch(c, hand):
                        mask[A.master + c] = 1
        elif d == CREW:
            for c in rules.crew_choices(self.launch_master, self.launch_crew, hand):
                mask[A.crew + c] = 1
        elif d == CLAIM:
            mask[A.no_claim] = 1
            if self.reserved[player] < 0 and self.has_turn_left(player):
                mask[A.claim] = 1
        elif d == SELECT:
            for k in range(len(self.ships[player])):
                if self.targets(player, k):
                    mask[A.select + k] = 1
            if not self.forced:
                mask[A.pass_battle] = 1
        elif d == AIM:
            n = g.num_players
            k = self.selected
            spies = self.spies_left(player, k)
            seen = {(o, j) for s, o, j in self.spied if s == player}
            for q, j in self.targets(player, k):
                idx = A.target_index((q - player) % n, j)
                mask[A.attack + idx] = 1
                if spies > 0 and (q, j) not in seen:
                    mask[A.spy + idx] = 1
            if self.spies_used > 0 and not self.forced:
                mask[A.pass_battle] = 1
        return mask

    def spies_left(self, seat: int, slot: int) -> int:
        """Spy looks ``seat``'s ship ``slot`` may still take this turn."""
        kind = self.game.rules.kind
        n = sum(1 for c in self.ships[seat][slot][1] if kind[c] == SPY)
        return n - self.spies_used if self.selected == slot else n

    # -- moves --------------------------------------------------------------------------
    def _apply(self, actions: dict[int, int]) -> None:
        (p, a), = actions.items()
        g = self.game
        A = g.actions
        d = self.decision
        if d in (TURN, DISCARD):
            if a < A.master:
                self.hands[p].remove(a)
                self.discard.append(a)
                if a in self.known_with[p]:
                    self.known_with[p].remove(a)
                self._event(f"P{p} discards {self._name(a)}")
                self._end_recruit_turn(p)
            else:
                c = a - A.master
                self.hands[p].remove(c)
                if c in self.known_with[p]:   # a face-up shipmaster: public elsewhere now
                    self.known_with[p].remove(c)
                self.launch_master = c
                self.launch_crew = []
                self.decision = CREW
        elif d == CREW:
            c = a - A.crew
            self.hands[p].remove(c)
            self.launch_crew.append(c)
            if len(self.launch_crew) == g.components.crew_per_ship:
                self.ships[p].append([self.launch_master, sorted(self.launch_crew), True, p,
                                      False])
                self._event(f"P{p} launches ship {len(self.ships[p])}: "
                            f"{self._name(self.launch_master)} and 3 crew face down")
                self.launch_master = -1
                self.launch_crew = []
                self.launched = True
                self.decision = DISCARD
        elif d == CLAIM:
            if a == A.claim:
                card = self.discard.pop()
                self.reserved[p] = card
                self._event(f"P{p}: Aargh! reserves {self._name(card)}")
                self._next_recruit_turn()
            else:
                self.claim_queue.pop(0)
                if self.claim_queue:
                    self.actor = self.claim_queue[0]
                else:
                    self._next_recruit_turn()
        elif d == SELECT:
            if a == A.pass_battle:
                self._pass(p)
            else:
                self.selected = a - A.select
                self.spies_used = 0
                self.decision = AIM
        elif d == AIM:
            n = g.num_players
            if a == A.pass_battle:
                self._pass(p)
                return
            spy = a >= A.spy
            off, j = divmod(a - (A.spy if spy else A.attack), A.ships)
            q = (p + off + 1) % n
            if spy:
                self.spies_used += 1
                self.spied.append([p, q, j])
                self._event(f"P{p}'s Spy looks at {self._ship_name(q, j)}")
            else:
                self._attack(p, self.selected, q, j)
                self.turns += 1
                self._next_battle_turn(p)

    def _pass(self, p: int) -> None:
        self.passed[p] = True
        self.turns += 1
        self._event(f"P{p} passes (no more attacks this round)")
        self._next_battle_turn(p)

    # -- outcome ------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        """Someone reached the target score (or ``max_rounds`` rounds were played)."""
        return self.phase == OVER

    def scores(self) -> list[float]:
        """Running totals (final once terminal)."""
        return [float(t) for t in self.totals]

    # -- information --------------------------------------------------------------------
    def view(self, player: int) -> AllHandsBattleView:
        """What ``player`` knows (the compiled view builder when built, else ``python_view``)."""
        return self.game.view_of(self, player)

    def python_view(self, player: int) -> AllHandsBattleView:
        """Everything ``player`` knows: own hand and crews, what its Spy saw, the table."""
        spied_ = self.spied
        seen = {(o, j) for s, o, j in spied_ if s == player} if spied_ else ()
        ships = []
        for q, fleet in enumerate(self.ships):
            if not fleet:
                ships.append(())
                continue
            row = []
            own = q == player
            for j, (m, crew, in_play, keeper, revealed) in enumerate(fleet):
                spied = (q, j) in seen
                row.append(_tuple_new(ShipView, (
                    m, in_play, keeper, len(crew),
                    tuple(crew) if own or revealed or spied else None, revealed, spied)))
            ships.append(tuple(row))
        turn_player = self.turn_player
        return _tuple_new(AllHandsBattleView, (
            player,
            self.game.num_players,
            self.round,
            self.starter,
            tuple(self.totals),
            tuple(self.last_round),
            self.phase,
            self.decision,
            self.actor,
            turn_player,
            tuple(self.hands[player]),
            tuple(map(len, self.hands)),
            tuple(self.reserved),
            tuple(map(tuple, self.known_with)),
            tuple(self.discard),
            len(self.deck),
            tuple(self.reshuffled),
            tuple(ships),
            tuple(map(tuple, self.plunder)),
            self.launch_master,
            tuple(self.launch_crew) if player == turn_player else (),
            len(self.launch_crew),
            self.launched,
            tuple(self.claim_queue),
            self.first_fleet,
            tuple(self.last_turns),
            tuple(self.passed),
            self.forced,
            self.selected,
            self.spies_used,
            tuple(map(tuple, spied_)),
            tuple(self.events),
            self.turns,
        ))

    # -- copies and text ----------------------------------------------------------------
    def clone(self) -> "AllHandsBattleState":
        """A fast independent copy (fields are plain lists)."""
        new = AllHandsBattleState.__new__(AllHandsBattleState)
        new.__dict__.update(self.__dict__)
        from plunder.envs.core.game import clone_rng
        new.rng = clone_rng(self.rng)
        new.totals = list(self.totals)
        new.last_round = list(self.last_round)
        new.deck = list(self.deck)
        new.discard = list(self.discard)
        new.hands = [list(h) for h in self.hands]
        new.reserved = list(self.reserved)
        new.known_with = [list(k) for k in self.known_with]
        new.ships = [[[s[0], list(s[1]), s[2], s[3], s[4]] for s in fleet]
                     for fleet in self.ships]
        new.plunder = [list(x) for x in self.plunder]
        new.launch_crew = list(self.launch_crew)
        new.claim_queue = list(self.claim_queue)
        new.last_turns = list(self.last_turns)
        new.reshuffled = list(self.reshuffled)
        new.passed = list(self.passed)
        new.spied = [list(x) for x in self.spied]
        new.events = list(self.events)
        return new

    def to_dict(self) -> dict:
        """JSON-compatible dict of the whole state."""
        d = {k: copy.deepcopy(getattr(self, k)) for k in self.FIELDS}   # copies, not aliases
        d["rng"] = rng_to_dict(self.rng)
        return d

    def card_count(self) -> int:
        """Cards anywhere in the game (a fuzzing invariant: always the whole deck)."""
        n = len(self.deck) + len(self.discard) + sum(len(h) for h in self.hands)
        n += sum(1 for r in self.reserved if r >= 0)
        n += sum(1 + len(s[1]) for fleet in self.ships for s in fleet)
        n += sum(len(x) for x in self.plunder)
        n += (self.launch_master >= 0) + len(self.launch_crew)
        return n

    def all_cards(self) -> list[int]:
        """Every card id in every location (sorted); equals range(C) in a sound state."""
        out = list(self.deck) + list(self.discard)
        for h in self.hands:
            out += h
        out += [r for r in self.reserved if r >= 0]
        for fleet in self.ships:
            for s in fleet:
                out.append(s[0])
                out += s[1]
        for x in self.plunder:
            out += x
        if self.launch_master >= 0:
            out.append(self.launch_master)
        out += self.launch_crew
        return sorted(out)

    def validate(self) -> None:
        """Assert every invariant of the rules (the fuzz tests and the shared suite call it,
        also on states made by ``sample_state``): each of the 74 (78) cards in exactly one
        place, hand and fleet sizes, legal ships, a completable launch, claimed cards where
        the public record says they are, and a decision that fits the phase."""
        g = self.game
        rules = g.rules
        comp = g.components
        n = g.num_players
        C = g.num_cards
        crew_size = comp.crew_per_ship
        require(self.all_cards() == list(range(C)), "a card was created, lost or duplicated")
        for name in ("totals", "hands", "reserved", "known_with", "ships", "plunder",
                     "passed"):
            require(len(getattr(self, name)) == n, f"{name} is not per seat")
        require(self.phase in (RECRUIT, BATTLE, OVER) and self.decision in DECISIONS,
                "an unknown phase or decision")
        if self.phase == OVER:
            require(self.decision == OVER and self.actor == -1, "actor: someone acts after the end")
        else:
            require(0 <= self.actor < n, "nobody is to act in a running game")
            require(self.decision in ((TURN, CREW, DISCARD, CLAIM) if self.phase == RECRUIT
                                     else (SELECT, AIM)), "decision does not fit the phase")
        require((self.decision == CREW) == (self.launch_master >= 0), "launch without CREW")
        if self.decision in (TURN, CREW, DISCARD):
            require(self.actor == self.turn_player, "actor: not the turn player in its turn")
        if self.decision == CLAIM:
            require(self.claim_queue and self.actor == self.claim_queue[0] and self.discard,
                    "claim_queue: the claim decision is not the next asked seat's, on a discard")
        if self.reshuffled:
            resh = set(self.reshuffled)
            require(all(c in resh for c in self.deck), "a drawn card was not reshuffled")
        for q in range(n):
            hand = self.hands[q]
            require(hand == sorted(hand), "hands are kept sorted")
            fleet = self.ships[q]
            require(len(fleet) <= comp.ships_per_fleet, "more ships than a fleet")
            held = len(hand) + (1 + crew_size) * len(fleet)
            if self.phase == RECRUIT and q == self.turn_player and \
                    self.decision in (TURN, CREW, DISCARD):
                held += (self.launch_master >= 0) + len(self.launch_crew)
                require(held == comp.hand_size + 1, "the turn player holds its deal + a draw")
            else:
                require(held == comp.hand_size, "a player holds other than its deal")
            face_down = set(hand)
            for ship in fleet:
                master, crew, in_play, keeper, revealed = ship
                require(rules.is_master[master], "a ship without a shipmaster")
                require(list(crew) == sorted(crew), "crews are kept sorted")
                require(-1 <= keeper < n, "a ship kept by no seat")
                require(rules.ship_crew_ok(master, crew), "an illegal ship was launched")
                if len(crew) < crew_size:
                    require(not in_play and not revealed, "a raided ship left play unshown")
                if in_play:
                    require(keeper == q and not revealed, "a ship in play is its owner's")
                if not revealed:
                    face_down.update(crew)
            if q == self.turn_player and self.launch_master >= 0:
                face_down.update(self.launch_crew)
            kw = self.known_with[q]
            require(len(set(kw)) == len(kw), "a claimed card is listed twice")
            require(all(c in face_down for c in kw),
                    "a claimed card is listed with a player but is not in its hand or face down")
            if self.reserved[q] >= 0:
                require(self.reserved[q] not in kw, "a reserved card also taken into hand")
                require(self.phase == RECRUIT and self.has_turn_left(q),
                        "a reserved card nobody will pick up")
            require(all(rules.is_treasure[c] for c in self.plunder[q]), "plunder of non-treasure")
        if self.launch_master >= 0:
            require(rules.is_master[self.launch_master], "launch_master: not a shipmaster")
            require(len(self.launch_crew) < crew_size, "launch_crew: a full crew still launching")
            require(rules.completable(self.launch_master, self.launch_crew,
                                     self.hands[self.turn_player]), "a launch that cannot end")
        else:
            require(not self.launch_crew, "crew placed without a shipmaster")
        if self.phase != RECRUIT:
            require(self.first_fleet >= 0, "battles without a first fleet")
        if self.first_fleet >= 0:
            require(len(self.ships[self.first_fleet]) == comp.ships_per_fleet,
                    "first_fleet: that fleet is not complete")
        require(min(self.round_scores()) >= 0, "a negative round score")
        self._validate_bookkeeping()

    def _validate_bookkeeping(self) -> None:
        """The public bookkeeping fits the phase and decision: claims, last turns, the
        battle turn (forced first attack, selected ship, Spy looks), the running totals."""
        g = self.game
        n = g.num_players
        require(len(self.last_round) in (0, n), "last_round is not per seat")
        if self.phase == OVER:
            require(self.turn_player == -1, "turn_player: someone's turn after the game")
        else:
            require(0 <= self.turn_player < n, "turn_player: nobody's turn in a running game")
            require(max(self.totals) < g.target_score,
                    "totals: the target score was reached but the game goes on")
        queue = self.claim_queue
        if self.decision == CLAIM:
            require(len(set(queue)) == len(queue) and self.turn_player not in queue,
                    "claim_queue: a seat asked twice, or the discarding player")
        else:
            require(not queue, "claim_queue: claims asked outside a claim decision")
        if self.decision == DISCARD:
            require(self.launched, "launched: a discard decision without a launch")
        elif self.decision in (TURN, CREW):
            require(not self.launched, "launched: a second launch in one turn")
        ff = self.first_fleet
        if self.phase == RECRUIT and ff >= 0:
            order = [(ff + i) % n for i in range(1, n)]
            require(self.last_turns and self.last_turns == order[n - 1 - len(self.last_turns):],
                    "last_turns: not the players after the first fleet still to play")
        else:
            require(not self.last_turns, "last_turns: last turns without a first fleet")
        if self.phase == RECRUIT:
            require(not any(self.passed) and not self.forced and not self.spied,
                    "passed/forced/spied: battle bookkeeping while recruiting")
        if self.forced:
            require(self.phase == BATTLE and self.actor == ff,
                    "forced: the compulsory attack is not the first fleet's")
        if self.decision == AIM:
            fleet = self.ships[self.actor]
            require(0 <= self.selected < len(fleet) and fleet[self.selected][2],
                    "selected: not a ship of the attacker in play")
            spies = sum(1 for c in fleet[self.selected][1] if g.rules.kind[c] == SPY)
            require(self.spies_used <= spies, "spies_used: more looks than Spies")
        else:
            require(self.selected == -1 and self.spies_used == 0,
                    "selected/spies_used: a ship selected outside an aim decision")
        for spy, owner, slot in self.spied:
            require(spy != owner and slot < len(self.ships[owner]),
                    "spied: a look at one's own or a missing ship")

    def describe_full(self) -> str:
        """Omniscient text: every hand, crew and the draw pile shown."""
        from .render import render_full
        return render_full(self)

