"""All Hands On Deck (naval battles) rules: recruiting, launching, Aargh!, battles, reckoning.

Pure rules (no gymnasium or PettingZoo). Reads top to bottom: the game
(parameters, card table, ship rules), the state (round setup, whose decision, legal moves,
effects, what each player knows); ``battles`` holds the battle phase and the reckoning,
``codes`` the phases, decisions and action indices, and ``sampling`` deals a full state
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
from typing import Any

import numpy as np

from plunder.envs.core.errors import (
    ConfigError, InvalidArgumentError, InvalidStateError, require,
)
from plunder.envs.core.game import Game, GameState
from plunder.envs.core.layout import EntityGroup
from plunder.envs.core.state_io import (
    check_bool, check_int, check_int_list, check_list, copy_rows, field, last_seat,
    num_players,
)

from .components import (KIND_NAMES, NO_SUIT, SPY, SUIT_NAMES, Card, Components,
                         default_components)
from .battles import Battles
from .codes import (  # the codes the bots and tests import from here too (__all__)
    AIM, BATTLE, CLAIM, CREW, DECISIONS, DISCARD, MAX_EVENTS, OVER, RECRUIT, SELECT, TURN,
    BattleActions, Phase,
)
from .ships import ShipRules
from .view import AllHandsBattleView, ShipView

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
        self.actions = BattleActions(tuple(c.name for c in self.cards), self.num_players,
                                     comp.ships_per_fleet)
        from . import observation  # late import: observation imports this module
        self._layout = observation.build_layout(self)
        self.bind_compiled()

    @classmethod
    def validate_options(cls, values: dict[str, Any]) -> None:
        """``target_score`` must be positive and ``max_rounds`` >= 0 (0 = no limit)."""
        if values["target_score"] < 1:
            raise InvalidArgumentError(f"target_score must be >= 1, got {values['target_score']}")
        if values["max_rounds"] < 0:
            raise InvalidArgumentError(
                f"max_rounds must be >= 0 (0 means no limit), got {values['max_rounds']}")

    # -- spaces -------------------------------------------------------------------------
    def card_name(self, card: int) -> str:
        """Name of a card id."""
        return self.cards[card].name

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

    def compiled_engine_params(self, module) -> tuple:
        """The compiled engine's constants (``_engine.Engine(*params)``, in its order): the
        rules' sizes and variant flags, the card table (``module.CARD_COLUMNS`` per card)
        and names, the action and observation sizes, the layout blocks as (start, stop) in
        ``module.LAYOUT_FIELDS`` order, the view classes, the phases and decisions."""
        from . import observation
        comp, layout = self.components, self.layout
        cards = tuple(tuple(getattr(c, k) for c in self.cards) for k in module.CARD_COLUMNS)
        blocks = tuple((layout.slice(f).start, layout.slice(f).stop)
                       for f in module.LAYOUT_FIELDS)
        return (self.num_players, comp.hand_size, comp.crew_per_ship, comp.ships_per_fleet,
                comp.ship_points, comp.first_fleet_bonus, comp.alliance, self.prize_crew,
                self.alternate_aargh, self.target_score, self.max_rounds, cards,
                tuple(c.name for c in self.cards), self.num_actions, layout.size, blocks,
                observation.ROUND_SCALE, AllHandsBattleView, ShipView, tuple(Phase), DECISIONS)

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


def view_params(game: AllHandsBattleGame) -> tuple:
    """The compiled view builder's constructor arguments (``_cview.ViewBuilder``): the
    player count and the view's named-tuple classes (filled by position, in the order the
    module's VIEW_FIELDS and SHIP_FIELDS name)."""
    return (game.num_players, AllHandsBattleView, ShipView)


if len(AllHandsBattleView._fields) != 33 or len(ShipView._fields) != 7:
    raise ImportError("AllHandsBattleView or ShipView changed: update python_view and _cview.c")


def _cards(game: AllHandsBattleGame) -> int:
    return game.num_cards


def _card(game: AllHandsBattleGame) -> int:
    """The highest card id."""
    return game.num_cards - 1


def _read_last_round(game: AllHandsBattleGame, value, where: str) -> list[int]:
    """Last round's points: none before the first reckoning, else one per seat."""
    n = game.num_players
    check_int_list(value, where, None, 0, max_len=n)
    if value and len(value) != n:
        raise InvalidStateError(f"{where}: expected 0 or {n} entries, got {len(value)}")
    return value


def _read_ships(game: AllHandsBattleGame, value, where: str) -> list:
    """Per seat, its ships: [shipmaster, crew, in play, keeper, revealed]."""
    comp, n = game.components, game.num_players
    card, seat = game.num_cards - 1, n - 1
    check_list(value, where, n)
    for q, fleet in enumerate(value):
        check_list(fleet, f"{where}[{q}]", max_len=comp.ships_per_fleet)
        for j, ship in enumerate(fleet):
            at = f"{where}[{q}][{j}]"
            master, crew, in_play, keeper, revealed = check_list(ship, at, 5)
            check_int(master, f"{at}[0] (shipmaster)", 0, card)
            check_int_list(crew, f"{at}[1] (crew)", None, 0, card, max_len=comp.crew_per_ship)
            check_bool(in_play, f"{at}[2] (in play)")
            check_int(keeper, f"{at}[3] (keeper)", -1, seat)
            check_bool(revealed, f"{at}[4] (revealed)")
    return value


def _copy_ships(ships: list) -> list:
    return [[[s[0], list(s[1]), s[2], s[3], s[4]] for s in fleet] for fleet in ships]


def _read_spied(game: AllHandsBattleGame, value, where: str) -> list:
    """The Spy looks of this battle: [spy owner, ship owner, ship slot]."""
    n, ships = game.num_players, game.components.ships_per_fleet
    check_list(value, where, max_len=n * n * ships)
    for i, look in enumerate(value):
        spy, owner, slot = check_list(look, f"{where}[{i}]", 3)
        check_int(spy, f"{where}[{i}][0] (the Spy's owner)", 0, n - 1)
        check_int(owner, f"{where}[{i}][1] (the ship's owner)", 0, n - 1)
        check_int(slot, f"{where}[{i}][2] (the ship)", 0, ships - 1)
    return value


def _read_events(game: AllHandsBattleGame, value, where: str) -> list[str]:
    """The last public events, as text."""
    check_list(value, where, max_len=MAX_EVENTS)
    for i, text in enumerate(value):
        if not isinstance(text, str):
            raise InvalidStateError(f"{where}[{i}]: expected text, got {text!r}")
    return value


class AllHandsBattleState(Battles, GameState):
    """One position. Card ids index ``game.cards``; seats are absolute."""

    # every field checked on loading: types, ranges, one entry per seat, card ids of this
    # deck, known phases and decisions
    STATE_FIELDS = (
        field("round", "int", low=1, high=lambda g: g.max_rounds or None),
        field("starter", "int", low=0, high=last_seat),
        field("totals", "ints", length=num_players, low=0),
        field("last_round", "custom", read=_read_last_round, copier=list),
        field("phase", "enum", enum=Phase),
        field("decision", "choice", choices=DECISIONS),
        field("actor", "int", low=-1, high=last_seat),
        field("turn_player", "int", low=-1, high=last_seat),
        field("deck", "ints", low=0, high=_card, max_len=_cards),
        field("discard", "ints", low=0, high=_card, max_len=_cards),
        field("hands", "int_lists", length=num_players, low=0, high=_card,
              max_inner=lambda g: g.components.hand_size + 1),
        field("reserved", "ints", length=num_players, low=-1, high=_card),
        field("known_with", "int_lists", length=num_players, low=0, high=_card,
              max_inner=lambda g: g.components.hand_size + 1),
        field("ships", "custom", read=_read_ships, copier=_copy_ships),
        field("plunder", "int_lists", length=num_players, low=0, high=_card, max_inner=_cards),
        field("launch_master", "int", low=-1, high=_card),
        field("launch_crew", "ints", low=0, high=_card,
              max_len=lambda g: g.components.crew_per_ship),
        field("launched", "bool"),
        field("claim_queue", "ints", low=0, high=last_seat, max_len=last_seat),
        field("first_fleet", "int", low=-1, high=last_seat),
        field("last_turns", "ints", low=0, high=last_seat, max_len=last_seat),
        field("reshuffled", "ints", low=0, high=_card, max_len=_cards),
        field("passed", "bools", length=num_players),
        field("forced", "bool"),
        field("selected", "int", low=-1, high=lambda g: g.components.ships_per_fleet - 1),
        field("spies_used", "int", low=0, high=lambda g: g.components.crew_per_ship),
        field("spied", "custom", read=_read_spied, copier=copy_rows),
        field("events", "custom", read=_read_events, copier=list),
        field("turns", "int", low=0),
    )

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
    def python_view(self, player: int) -> AllHandsBattleView:
        """Everything ``player`` knows: own hand and crews, what its Spy saw, the table."""
        seen = {(owner, slot) for spy, owner, slot in self.spied if spy == player}
        ships = []
        for q, fleet in enumerate(self.ships):
            row = []
            for j, (master, crew, in_play, keeper, revealed) in enumerate(fleet):
                spied = (q, j) in seen
                known = q == player or revealed or spied
                row.append(ShipView(master, in_play, keeper, len(crew),
                                    tuple(crew) if known else None, revealed, spied))
            ships.append(tuple(row))
        return AllHandsBattleView(
            player,
            self.game.num_players,
            self.round,
            self.starter,
            tuple(self.totals),
            tuple(self.last_round),
            self.phase,
            self.decision,
            self.actor,
            self.turn_player,
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
            tuple(self.launch_crew) if player == self.turn_player else (),
            len(self.launch_crew),
            self.launched,
            tuple(self.claim_queue),
            self.first_fleet,
            tuple(self.last_turns),
            tuple(self.passed),
            self.forced,
            self.selected,
            self.spies_used,
            tuple(map(tuple, self.spied)),
            tuple(self.events),
            self.turns,
        )

    # -- copies and text ----------------------------------------------------------------
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
        crew_size = comp.crew_per_ship
        require(self.all_cards() == list(range(g.num_cards)),
                "a card was created, lost or duplicated")
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
                require(q != self.turn_player,
                        "a reserved card not picked up at the start of its seat's turn")
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


AllHandsBattleGame.state_class = AllHandsBattleState

__all__ = [
    "AIM", "BATTLE", "CLAIM", "CREW", "DECISIONS", "DISCARD", "MAX_EVENTS", "OVER", "RECRUIT",
    "SELECT", "TURN", "AllHandsBattleGame", "AllHandsBattleState", "BattleActions", "Phase",
    "view_params",
]
