"""Anchors Aweigh! rules engine: two rounds of a simultaneous loading race and a travel phase.

Pure rules (no gymnasium/PettingZoo). The loading race is played in simultaneous *ticks*
(one action per player whose ship is not full); the travel phase asks every player at once
about each adventure card, then hands out cargo rewards one token at a time, clockwise from
the captain. See ``envs/anchors_aweigh/rules.md`` for the rules and every decision made.

State layout (plain data): ship cells are ``-1`` empty, a tile id, ``CARGO + colour`` or
``CHEST``; cargo on a storage tile sits in ``stor[seat][space]``. ``secret[tile]`` marks a
tile whose face only its holder has seen (grabbed face down and kept in hand or below deck).

The state's rules are in three modules: this one (the game, whose decision, the mask and
move dispatch, scoring, invariants and the view), ``loading`` (the set-up and the loading
race) and ``travel`` (the adventure cards, cargo and the end of a round); ``codes`` holds
the cell, phase, outcome and action codes all of them read.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from plunder.envs.core.errors import InvalidArgumentError, InvalidStateError, require
from plunder.envs.core.game import Game, GameState
from plunder.envs.core.layout import EntityGroup
from plunder.envs.core.state_io import (
    cache, check_int, check_int_lists, check_list, copy_rows, field, last_seat,
    num_players,
)

from .components import (
    ABOVE, ASSET_SPACES, BELOW, CONTRACT, MONKEY, NUM_BACKS, NUM_COLOURS, NUM_KINDS, NUM_SPACES,
    PIRATES, STORAGE, Components, check_mix, default_components,
)
from .codes import (  # the codes the bots and tests import from here too (__all__)
    A_CARGO, A_COLOUR, A_DISCARD, A_ENCOUNTER, A_FLEE, A_FLIP, A_GRAB_DOWN, A_GRAB_UP,
    A_PARROT, A_PAY, A_PAY_NONE, A_PLACE, A_RESOLVE, A_RETURN, A_SKIP, A_STAR_RETURN, A_STOW,
    A_SWAP, A_TOSS_ASSET, A_TOSS_CARGO, ACTIONS, CARGO, CHEST, COLOUR, DECIDE, EMPTY,
    ENCOUNTER, GREY, LOADING, NUM_ACTIONS, O_ENCOUNTER, O_FLED, O_NONE, O_PAID, O_RESOLVED,
    O_SKIPPED, OUTCOMES, OVER, PHASES, PIRATE, PLACE, SETUP, Phase, action_name,
)
from .loading import LoadingRace
from .travel import Travel
from .view import (
    CELL_CARGO, CELL_CHEST, CELL_EMPTY, CELL_TILE, CELL_UNKNOWN, NUM_CELLS, AnchorsAweighView,
    BelowDeck, PublicView,
)

class AnchorsAweighGame(Game):
    """Anchors Aweigh! for 2-4 players.

    Options:
      ``meddlesome_monkey``: seats playing the Meddlesome Monkey handicap (list of ints).
      ``open_ocean``: ``""`` (off), ``"custom"`` or ``"random"`` round mixes.
      ``open_ocean_mix``: the custom mix ``{discovery, trade, pirates, contract}`` counts
      (default: the YAML's ``open_ocean_custom_mix``).
      ``rough_seas``: the Rough Seas variant (3-4 players, not with the monkey handicap).
      ``perfect_recall``: keep the card fronts visible after the captain's call.
    """

    name = "anchors_aweigh"
    version = 0
    min_players = 2
    max_players = 4
    simultaneous = True
    default_max_turns = 3000
    actions = ACTIONS
    recall_option = "perfect_recall"
    options = {
        "meddlesome_monkey": (),
        "open_ocean": "",
        "open_ocean_mix": None,
        "rough_seas": False,
        "perfect_recall": False,
    }

    #: the compiled encoder object (None: the Python encoder; see bind_compiled)
    _cencoder = None
    COMPILED_ATTRS = (*Game.COMPILED_ATTRS, "_cencoder")
    #: the Python encoder's tables and caches (observation._setup), built on first use
    python_encoder_attrs = ("_obs_tables", "_obs_start", "_obs_size", "_obs_perms",
                            "_obs_cache", "_obs_seat_idx", "_obs_own_idx", "_obs_memo_own",
                            "_obs_memo_pirates")
    #: see __init__ (here too for games pickled before it was added)
    kinds_up_memo = None

    def __init__(self, num_players: int = 2, **options: Any):
        super().__init__(num_players, **options)
        comp = self.components()
        self.comp = comp
        n = self.num_players
        med = [int(s) for s in self.meddlesome_monkey]
        for s in med:
            if not 0 <= s < n:
                raise InvalidArgumentError(
                    f"meddlesome_monkey: seat {s} does not exist with {n} players")
        if len(med) > comp.monkeys:
            raise InvalidArgumentError(
                f"meddlesome_monkey: {len(med)} players want the handicap but the game has "
                f"only {comp.monkeys} monkey tiles")
        if self.rough_seas and n < 3:
            raise InvalidArgumentError("rough_seas is a variant for 3 or 4 players")
        self.monkey_seats = tuple(sorted(med))
        types = Counter(c.type for c in comp.cards)
        if self.open_ocean == "custom":
            if self.open_ocean_mix is None:
                self.mix = comp.custom_mix
            else:
                from plunder.envs.core.errors import ConfigError
                try:
                    self.mix = check_mix(dict(self.open_ocean_mix), "open_ocean_mix", types)
                except (ConfigError, TypeError, ValueError) as exc:
                    raise InvalidArgumentError(str(exc)) from None
        else:
            self.mix = comp.round_mix
        self.starfish_rule = n == 2 or self.rough_seas
        self.meddlesome_flags = tuple(p in self.monkey_seats for p in range(n))
        self.no_seats = (False,) * n
        #: per seat: the last (ship contents, above codes, storage, below summary) of
        #: ``AnchorsAweighState._public`` (a cache; any state of this game may use it)
        self.ship_memo = [None] * n
        #: the last (card fields, card part of the public view) of ``_public_cards``
        self.cards_memo = None
        #: the last (face-up tiles of the pile, their count per look) of ``_public``
        self.pile_memo = None
        #: the last (face-up tiles of the pile, the kinds among them) of ``_kinds_up``
        self.kinds_up_memo = None
        self.tile_kind = comp.tile_kind
        self.tile_star = comp.tile_star
        self.tile_look = tuple(k * 2 + int(s) for k, s in zip(comp.tile_kind, comp.tile_star))
        # tile id -> look, and -> kind, as bytes.translate tables (tile ids are below 256)
        if comp.num_tiles > 256:
            from plunder.envs.core.errors import ConfigError
            raise ConfigError(f"{comp.num_tiles} tiles: tile ids must fit a byte")
        self.look_table = bytes(self.tile_look) + bytes(256 - comp.num_tiles)
        self.kind_table = bytes(self.tile_kind) + bytes(256 - comp.num_tiles)
        # ship cell / hand value -> view code (index -1, i.e. the last entry, is EMPTY)
        lut = [CELL_EMPTY] * (CHEST + 2)
        for t, lk in enumerate(self.tile_look):
            lut[t] = CELL_TILE + lk
        for c in range(NUM_COLOURS):
            lut[CARGO + c] = CELL_CARGO + c
        lut[CHEST] = CELL_CHEST
        self.cell_lut = lut
        self.num_tiles = comp.num_tiles
        self.cards = comp.cards
        self.card_back = [card.back for card in self.cards]
        self.card_index = {c.id: c.index for c in comp.cards}
        self._layout = None
        # bound once here: an import statement inside encode() costs about 1.5 us a call
        from .observation import encode as encode_view
        self._encode_view = encode_view
        self.bind_compiled()

    def bind_compiled(self) -> None:
        """``Game.bind_compiled``, and ``_cencoder`` the compiled encoder object (its
        public-part cache counters are read by the tests)."""
        super().bind_compiled()
        if "encode_into" in self.__dict__:
            self._cencoder = self.encode_into.__self__

    def compiled_engine_params(self, module) -> tuple:
        """The compiled engine's constructor arguments (``_engine.Engine(*params)``, in its
        order): the codes it was written for (checked there), the tiles, the cards, the
        round mix, the supplies and variants, the view's classes and the encoder's
        constants."""
        from . import observation
        comp = self.comp
        dims = (EMPTY, CARGO, CHEST, NUM_SPACES, NUM_ABOVE, len(ASSET_SPACES), NUM_KINDS,
                STORAGE, MONKEY, NUM_COLOURS, NUM_BACKS, CELL_EMPTY, CELL_UNKNOWN, CELL_TILE,
                NUM_CELLS, len(PHASES), len(OUTCOMES), 13,
                A_GRAB_DOWN, A_GRAB_UP, A_FLIP, A_PLACE, A_RETURN, A_CARGO, A_STAR_RETURN,
                A_SKIP, A_RESOLVE, A_PARROT, A_ENCOUNTER, A_FLEE, A_PAY_NONE, A_PAY,
                A_COLOUR, A_STOW, A_TOSS_ASSET, A_TOSS_CARGO, A_DISCARD, A_SWAP, NUM_ACTIONS)
        cards = tuple((c.type, c.back, c.needs, c.coins, c.cargo, c.grey) for c in self.cards)
        return (self.num_players, dims, comp.tile_kind, tuple(map(int, comp.tile_star)),
                cards, tuple(self.mix), self.open_ocean == "random", comp.storage_capacity,
                comp.cargo_per_colour, comp.chests, comp.parrots, comp.pirate_penalty_coins,
                self.starfish_rule, bool(self.rough_seas), bool(self.perfect_recall),
                self.monkey_seats, tuple(self.cell_lut),
                observation.compiled_params(self, module), AnchorsAweighView, PublicView,
                BelowDeck, tuple(Phase))

    @classmethod
    def components(cls) -> Components:
        """The packaged components (loaded and validated once per process)."""
        return default_components()

    @classmethod
    def validate_options(cls, values: dict) -> None:
        med = values["meddlesome_monkey"]
        if not all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) for s in med):
            raise InvalidArgumentError(
                f"meddlesome_monkey must be a list of seat numbers, got {med!r}")
        if len(set(int(s) for s in med)) != len(med):
            raise InvalidArgumentError(f"meddlesome_monkey lists a seat twice: {med!r}")
        if values["rough_seas"] and med:
            raise InvalidArgumentError(
                "rough_seas cannot be combined with the Meddlesome Monkey handicap")
        if values["open_ocean"] not in ("", "custom", "random"):
            raise InvalidArgumentError(
                f"open_ocean must be '', 'custom' or 'random', got {values['open_ocean']!r}")
        mix = values["open_ocean_mix"]
        if mix is not None:
            if values["open_ocean"] != "custom":
                raise InvalidArgumentError("open_ocean_mix needs open_ocean='custom'")
            if not isinstance(mix, dict):
                raise InvalidArgumentError(
                    "open_ocean_mix must be a dict {discovery, trade, pirates, contract: "
                    f"count}}, got {mix!r}")

    # -- spaces -----------------------------------------------------------------------------
    def observation_memory(self):
        """A player's memory of the round's card fronts after the captain's call
        (``recall.CardMemory``)."""
        from .recall import CardMemory
        return CardMemory(self)

    @property
    def entity_groups(self) -> tuple[EntityGroup, ...]:
        """The 10 tile kinds: each is read from its face-up tiles in the pile, what the
        round's visible cards need of it and its tiles on every ship (its kind and whether
        cards may need it are fixed features), so a policy may score "grab a face-up tile
        of kind k" with weights shared across the kinds; and the round's unrevealed cards
        (``round_cards``, 13 slots), each read by one shared encoder."""
        static = tuple(tuple([float(k == j) for j in range(NUM_KINDS)]
                             + [float(k < STORAGE)]) for k in range(NUM_KINDS))
        return (EntityGroup("kinds", NUM_KINDS, ("pile_up", "pile_up_starfish",
                                                      "round_asset_needs", "held_kind"),
                            (A_GRAB_UP,), strided_fields=("assets_seen",), static=static),
                # the round's unrevealed cards: 13 slots filled in card-id order, so a slot
                # names no particular card; read as a set (its members' mean code)
                EntityGroup("cards", 13, ("round_cards",)))

    def encode(self, view: AnchorsAweighView) -> np.ndarray:
        """The observation vector of ``view`` (the Python encoder; with the compiled one
        the instance attribute set by bind_compiled stands in for this method)."""
        return self._encode_view(self, view)

    # -- states -------------------------------------------------------------------------------
    def new_initial_state(self, rng: np.random.Generator) -> "AnchorsAweighState":
        s = AnchorsAweighState(self, rng)
        s.setup()
        return s

    def _load_state(self, data: dict) -> "AnchorsAweighState":
        """``Game._load_state`` on the data with tuples as lists (a dict from ``to_dict``
        or from JSON alike)."""
        if isinstance(data, dict):
            data = {key: _listify(value) for key, value in data.items()}
        return super()._load_state(data)


NUM_ABOVE = len(ABOVE)
_NO_STORAGE = ((),) * NUM_ABOVE
_NO_SECRETS = (False,) * (NUM_SPACES + 1)
_EMPTY_STORAGE = ((),) * NUM_SPACES


def view_params(game: AnchorsAweighGame) -> tuple:
    """The arguments of the compiled view builder (``_cview.c``'s ``ViewBuilder``): the
    sizes, codes and action indexes it was written for (checked there), the game's tables,
    the view's named-tuple classes, the constant tuples the Python view shares and what
    the mask reads of the game (the cards' needs, the storage capacity, the variants)."""
    if BELOW != tuple(range(NUM_ABOVE, NUM_SPACES)) \
            or ASSET_SPACES != tuple(range(len(ASSET_SPACES))):
        raise RuntimeError("the compiled view expects the spaces below deck last and "
                           "the asset spaces first")
    dims = (EMPTY, CARGO, CHEST, NUM_SPACES, NUM_ABOVE, 2 * NUM_KINDS, NUM_COLOURS,
            NUM_BACKS, NUM_BACKS - NUM_COLOURS,     # the contracts' backs come last
            CELL_EMPTY, CELL_UNKNOWN, NUM_CELLS,
            NUM_ACTIONS, SETUP, LOADING, DECIDE, ENCOUNTER, PIRATE, COLOUR, PLACE, OVER,
            len(PHASES), STORAGE, MONKEY, len(ASSET_SPACES),
            A_GRAB_DOWN, A_GRAB_UP, A_FLIP, A_PLACE, A_RETURN, A_CARGO, A_STAR_RETURN,
            A_SKIP, A_RESOLVE, A_PARROT, A_ENCOUNTER, A_FLEE, A_PAY_NONE, A_PAY, A_COLOUR,
            A_STOW, A_TOSS_ASSET, A_TOSS_CARGO, A_DISCARD, A_SWAP)
    return (dims, game.num_players, tuple(game.cell_lut), game.tile_look,
            tuple(game.card_back), bool(game.perfect_recall), game.meddlesome_flags,
            game.no_seats, AnchorsAweighView, PublicView, BelowDeck, _NO_SECRETS,
            _EMPTY_STORAGE, _NO_STORAGE, tuple(c.needs_assets for c in game.cards),
            tuple(c.needs for c in game.cards), game.comp.storage_capacity,
            game.starfish_rule, bool(game.rough_seas))


def _read_ships(game: "AnchorsAweighGame", value, where: str) -> list:
    """Per seat, its ship's cells: empty, a tile, cargo or a chest."""
    tiles = game.num_tiles
    check_int_lists(value, where, game.num_players, NUM_SPACES, EMPTY, CHEST)
    for p, ship in enumerate(value):
        for sp, c in enumerate(ship):
            if tiles <= c < CARGO:
                raise InvalidStateError(
                    f"{where}[{p}][{sp}]: {c} is neither empty (-1), a tile (0-{tiles - 1}),"
                    f" cargo ({CARGO}-{CARGO + NUM_COLOURS - 1}) nor a chest ({CHEST})")
    return value


def _read_stor(game: "AnchorsAweighGame", value, where: str) -> list:
    """Per seat, per space: the cargo colours on a storage tile."""
    check_list(value, where, game.num_players)
    for p, spaces in enumerate(value):
        check_int_lists(spaces, f"{where}[{p}]", NUM_SPACES, None, 0, NUM_COLOURS - 1,
                        max_inner=game.comp.storage_capacity)
    return value


def _read_cargo_queue(game: "AnchorsAweighGame", value, where: str) -> list:
    """The cargo rewards still to hand out: [seat, colour or GREY]."""
    check_int_lists(value, where, None, 2, 0, GREY)
    for i, (p, _) in enumerate(value):
        check_int(p, f"{where}[{i}][0]", 0, game.num_players - 1)
    return value


def _copy_stor(stor: list) -> list:
    return [[list(x) for x in sp] for sp in stor]


def _most_coins(game: "AnchorsAweighGame") -> int:
    """More coins than one seat can gain in a game: every card's coins once (a seat
    gains a card's coins at most once, and a game plays 26 of the cards) and every cargo
    token sold at the end of both rounds."""
    return sum(c.coins for c in game.cards) + 2 * NUM_COLOURS * game.comp.cargo_per_colour


def _tile(game: "AnchorsAweighGame") -> int:
    """The highest tile id."""
    return game.num_tiles - 1


def _card(game: "AnchorsAweighGame") -> int:
    """The highest card index."""
    return len(game.cards) - 1


def _listify(x):
    """Tuples as lists, all the way down (a dict from ``to_dict`` or from JSON alike)."""
    if isinstance(x, (list, tuple)):
        return [_listify(v) for v in x]
    return x


class AnchorsAweighState(LoadingRace, Travel, GameState):
    """One position of Anchors Aweigh!."""

    game: AnchorsAweighGame

    # every field checked on loading: types, ranges, one entry per seat / space / tile, ids
    # of existing tiles and cards, known phases and actions
    STATE_FIELDS = (
        field("turns", "int", low=0),
        field("phase", "enum", enum=Phase),
        field("round", "int", low=1, high=2),
        field("captain", "int", low=-1, high=last_seat),
        field("ships", "custom", read=_read_ships, copier=copy_rows),
        field("stor", "custom", read=_read_stor, copier=_copy_stor),
        field("hand", "ints", length=num_players, low=-1, high=_tile),
        field("secret", "bools", length=lambda g: g.num_tiles),
        field("pile_up", "ints", low=0, high=_tile, max_len=lambda g: g.num_tiles),
        field("pile_down", "ints", low=0, high=_tile, max_len=lambda g: g.num_tiles),
        field("supply", "ints", length=NUM_COLOURS, low=0,
              high=lambda g: g.comp.cargo_per_colour),
        field("chest_supply", "int", low=0, high=lambda g: g.comp.chests),
        field("parrot_supply", "int", low=0, high=lambda g: g.comp.parrots),
        field("coins", "ints", length=num_players, low=0, high=_most_coins),
        field("chests", "ints", length=num_players, low=0, high=lambda g: g.comp.chests),
        field("parrots", "ints", length=num_players, low=0, high=lambda g: g.comp.parrots),
        field("deck", "ints", low=0, high=_card, max_len=13),
        field("queue", "ints", low=0, high=_card, max_len=13),
        field("current", "int", low=-1, high=_card),
        field("revealed", "bool"),
        field("used", "ints", low=0, high=_card, max_len=26),
        field("fronts_hidden", "bool"),
        field("encounter", "ints", length=num_players, low=-1, high=1),
        field("outcome", "ints", length=num_players, low=0, high=len(OUTCOMES) - 1),
        field("pending", "ints", length=num_players, low=-1, high=NUM_ACTIONS - 1),
        field("returns", "ints", length=num_players, low=0),
        field("cargo_queue", "custom", read=_read_cargo_queue, copier=copy_rows),
        field("unit_colour", "int", low=-1, high=NUM_COLOURS - 1),
        field("cleansed", "bool"),
        # caches of the public view and of who acts (rebuilt when asked)
        cache("_pub"), cache("_acting"),
    )

    # -- helpers ----------------------------------------------------------------------------
    def _asset_counts(self, p: int) -> list[int]:
        counts = [0] * NUM_KINDS
        kind = self.game.tile_kind
        for c in self.ships[p]:
            if 0 <= c < CARGO:
                counts[kind[c]] += 1
        return counts

    def _cargo_counts(self, p: int) -> list[int]:
        counts = [0] * NUM_COLOURS
        for s, c in enumerate(self.ships[p]):
            if CARGO <= c < CHEST:
                counts[c - CARGO] += 1
        for lst in self.stor[p]:
            for c in lst:
                counts[c] += 1
        return counts

    def _has_room(self, p: int) -> bool:
        ship = self.ships[p]
        if EMPTY in ship:
            return True
        cap = self.game.comp.storage_capacity
        kind = self.game.tile_kind
        for s in ASSET_SPACES:
            c = ship[s]
            if 0 <= c < CARGO and kind[c] == STORAGE and len(self.stor[p][s]) < cap:
                return True
        return False

    def _kinds_up(self) -> frozenset[int]:
        """The kinds of the face-up tiles in the pile (found in C: tile ids are bytes); kept
        on the game with the pile it came from, as every seat's mask asks of one pile."""
        g = self.game
        tiles_up = bytes(self.pile_up)
        hit = g.kinds_up_memo
        if hit is None or hit[0] != tiles_up:
            hit = g.kinds_up_memo = (tiles_up, frozenset(tiles_up.translate(g.kind_table)))
        return hit[1]

    def _to_pile(self, tile: int) -> None:
        self.secret[tile] = False
        self.pile_up.append(tile)

    def _remove_tile(self, p: int, s: int) -> None:
        """Return the tile on space s to the pile face up (its storage cargo to the supply)."""
        tile = self.ships[p][s]
        for c in self.stor[p][s]:
            self.supply[c] += 1
        self.stor[p][s] = []
        self.ships[p][s] = EMPTY
        self._to_pile(tile)

    # -- whose decision ---------------------------------------------------------------------
    def current_players(self) -> tuple[int, ...]:
        acting = self.__dict__.get("_acting")
        if acting is None:
            acting = self._acting = self._current_players()
        return acting

    def _current_players(self) -> tuple[int, ...]:
        ph = self.phase
        n = self.game.num_players
        if ph == LOADING:
            return tuple(p for p in range(n) if EMPTY in self.ships[p])
        if ph in (DECIDE, ENCOUNTER):
            return tuple(p for p in range(n) if self.pending[p] < 0)
        if ph == PIRATE:
            return tuple(p for p in range(n) if self.encounter[p] == 1 and self.pending[p] < 0)
        if ph in (COLOUR, PLACE):
            return (self.cargo_queue[0][0],)
        if ph == SETUP:
            return tuple(p for p in range(n) if self.hand[p] >= 0)
        return ()

    def legal_actions_mask(self, player: int) -> np.ndarray:
        """int8 mask of the legal actions: the compiled one when the game has it bound
        (``_cview.c``'s ``mask_into``), else ``python_legal_actions_mask``."""
        into = self.game.__dict__.get("mask_into")
        if into is None:
            return self.python_legal_actions_mask(player)
        out = np.empty(NUM_ACTIONS, np.int8)
        into(self, player, out)
        return out

    def python_legal_actions_mask(self, player: int) -> np.ndarray:
        """The Python mask: the reference of the compiled one."""
        # entries are set in a bytearray (much cheaper than numpy item writes), then
        # viewed as the int8 array without a copy
        if player not in self.current_players():
            return np.zeros(NUM_ACTIONS, np.int8)
        return np.frombuffer(self._choices(player), np.int8)

    def _choices(self, p: int) -> bytearray:
        """The moves of this decision open to seat ``p`` (whether or not it is to act)."""
        mask = bytearray(NUM_ACTIONS)
        ph = self.phase
        ship = self.ships[p]
        g = self.game
        if ph == SETUP:
            for s in ASSET_SPACES:
                if ship[s] == EMPTY:
                    mask[A_PLACE + s] = 1
        elif ph == LOADING:
            self._loading_mask(p, mask)
        elif ph == DECIDE:
            card = g.cards[self.current]
            mask[A_SKIP] = 1
            self._resolve_mask(p, card, mask)
            self._swap_mask(p, mask)
        elif ph == ENCOUNTER:
            mask[A_ENCOUNTER] = 1
            mask[A_FLEE] = 1
            self._swap_mask(p, mask)
        elif ph == PIRATE:
            card = g.cards[self.current]
            self._resolve_mask(p, card, mask)
            cargo = self._cargo_counts(p)
            if any(cargo):
                for c in range(NUM_COLOURS):
                    if cargo[c]:
                        mask[A_PAY + c] = 1
            else:
                mask[A_PAY_NONE] = 1
            self._swap_mask(p, mask)
        elif ph == COLOUR:
            for c in range(NUM_COLOURS):
                if self.supply[c] > 0:
                    mask[A_COLOUR + c] = 1
        elif ph == PLACE:
            self._place_mask(p, mask)
        return mask

    # -- moves ------------------------------------------------------------------------------
    def _apply(self, actions: dict[int, int]) -> None:
        ph = self.phase
        self.turns += 1
        self._pub = None
        self._acting = None
        if ph == LOADING:
            self._apply_loading(actions)
        elif ph == SETUP:
            for p, a in actions.items():
                self.ships[p][a - A_PLACE] = self.hand[p]
                self.hand[p] = -1
            self.phase = LOADING
        elif ph in (DECIDE, ENCOUNTER, PIRATE):
            self._apply_decision(actions)
        elif ph == COLOUR:
            (p, a), = actions.items()
            self.unit_colour = a - A_COLOUR
            self.phase = PLACE
        elif ph == PLACE:
            (p, a), = actions.items()
            self._apply_place(p, a)
            self.cargo_queue.pop(0)
            self.unit_colour = -1
            self._next_unit()
        self._acting = None

    # -- outcome ----------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase == OVER

    def scores(self) -> list[float]:
        return [float(self.coins[p] + 10 * self.chests[p]) for p in range(self.game.num_players)]

    def validate(self) -> None:
        """Assert the rules' invariants, each naming what is broken: every tile, cargo
        token, chest, parrot and card exactly once; tiles, cargo and chests only where the
        ship allows them; secrets only in hands and below deck; the phase's bookkeeping."""
        g = self.game
        n, comp = g.num_players, g.comp
        kind = g.tile_kind
        # components: nothing created or lost
        tiles = self.pile_up + self.pile_down + [t for t in self.hand if t >= 0] + [
            c for ship in self.ships for c in ship if 0 <= c < CARGO]
        require(sorted(tiles) == list(range(g.num_tiles)), "a tile was created or lost")
        cargo = list(self.supply)
        for p in range(n):
            for sp, c in enumerate(self.ships[p]):
                if CARGO <= c < CHEST:
                    cargo[c - CARGO] += 1
                for colour in self.stor[p][sp]:
                    cargo[colour] += 1
        require(cargo == [comp.cargo_per_colour] * NUM_COLOURS, "cargo was created or lost")
        require(self.chest_supply + sum(self.chests) == comp.chests, "a chest was created or lost")
        require(self.parrot_supply + sum(self.parrots) == comp.parrots,
                "a parrot was created or lost")
        cards = self.used + self.deck + self.queue + ([self.current] if self.current >= 0
                                                       else [])
        require(len(cards) == len(set(cards)), "cards: a card in two places")
        require(len(cards) == 13 * self.round, "cards: not 13 adventure cards per round")
        require(len(cards) - len(self.used) <= 13,
                "cards: more than one round's cards still to come")
        require(all(g.cards[c].type == CONTRACT for c in self.queue),
                "queue: a card that is not a contract waits at the bottom")
        # what may lie where
        for p in range(n):
            ship, stor = self.ships[p], self.stor[p]
            require(ship.count(CHEST) == self.chests[p], f"chests: seat {p}'s chests on board")
            for sp, c in enumerate(ship):
                where = f"ships[{p}][{sp}]"
                require(c != CHEST or sp in ABOVE, f"{where}: a chest below deck")
                require(not (0 <= c < CARGO) or sp in ASSET_SPACES,
                        f"{where}: an asset on a cargo-only space")
                if stor[sp]:
                    require(0 <= c < CARGO and kind[c] == STORAGE,
                            f"stor[{p}][{sp}]: cargo on something that is not a storage tile")
                    require(len(stor[sp]) <= comp.storage_capacity,
                            f"stor[{p}][{sp}]: more cargo than a storage tile holds")
                    require(stor[sp] == sorted(stor[sp]), f"stor[{p}][{sp}]: kept sorted")
            if p in g.monkey_seats and self.phase != SETUP:
                require(any(0 <= c < CARGO and kind[c] == MONKEY for c in ship),
                        f"ships[{p}]: the Meddlesome Monkey left the ship")
        below = {self.ships[p][sp] for p in range(n) for sp in BELOW}
        for t, hidden in enumerate(self.secret):
            require(not hidden or t in self.hand or t in below,
                    f"secret[{t}]: a secret tile outside a hand and below deck")
        travel = self.phase in (DECIDE, ENCOUNTER, PIRATE, COLOUR, PLACE)
        require(self.cleansed == (g.starfish_rule and travel),
                "cleansed: the starfish tiles leave the ships exactly when travel starts "
                "(2 players or Rough Seas)")
        if self.cleansed:   # only a Rough Seas swap brings a (face-up) starfish back
            require(not any(0 <= c < CARGO and g.tile_star[c] and self.secret[c]
                           for ship in self.ships for c in ship),
                    "cleansed: a starfish tile is still on a ship")
        require(not any(self.parrots) or self.round == 2, "parrots: given before round 2")
        self._validate_phase()

    def _validate_phase(self) -> None:
        """The phase's bookkeeping: hands only while loading, the current card and its
        decision, the cargo to hand out."""
        g = self.game
        n = g.num_players
        kind = g.tile_kind
        ph = self.phase
        travel = ph in (DECIDE, ENCOUNTER, PIRATE, COLOUR, PLACE)
        if ph == SETUP:
            require(self.round == 1 and all((self.hand[p] >= 0) == (p in g.monkey_seats)
                                           for p in range(n)), "hand: not the monkeys")
            require(all(t < 0 or kind[t] == MONKEY for t in self.hand),
                    "hand: a tile other than the Meddlesome Monkey before loading")
            require(self.turns == 0 and all(c == EMPTY for ship in self.ships for c in ship),
                    "ships/turns: moves made before the monkeys are placed")
        if ph in (SETUP, LOADING):
            require(not any(any(sp) for sp in self.stor), "stor: cargo on storage while loading")
            require(self.current < 0 and not self.queue and not self.cargo_queue,
                    "current/queue/cargo_queue: a card or cargo pending while loading")
            require(self.fronts_hidden == (self.captain >= 0),
                    "fronts_hidden: the fronts are hidden exactly from the captain's call")
            if self.captain >= 0:
                require(EMPTY not in self.ships[self.captain], "captain: the ship is not full")
            require(self._current_players(), "phase: loading with every ship full")
            for p in range(n):
                require(self.hand[p] < 0 or any(self.ships[p][sp] == EMPTY
                                                for sp in ASSET_SPACES),
                        f"hand[{p}]: a tile held without a free asset space to place it")
        else:
            require(not any(t >= 0 for t in self.hand), "hand: a tile held after loading")
        if travel:
            require(self.captain >= 0, "captain: travelling without a captain")
            require(self.current >= 0, "current: no card in the travel phase")
            pirates = g.cards[self.current].type == PIRATES
            require(pirates == (ph == ENCOUNTER) or ph != DECIDE and ph != ENCOUNTER,
                    "phase: the current card does not fit the decision")
            require(self.revealed == (ph != ENCOUNTER), "revealed: the card's face")
            if ph == PIRATE:
                require(pirates and 1 in self.encounter and -1 not in self.encounter,
                        "encounter: resolving pirates nobody encountered")
            elif not (pirates and ph in (COLOUR, PLACE)):
                require(self.encounter == [-1] * n, "encounter: set outside a pirate card")
        elif ph == OVER:
            require(self.round == 2 and self.current < 0, "phase: over before round 2 ended")
            require(not any(CARGO <= c < CHEST or (0 <= c < CARGO and kind[c] != MONKEY)
                           for ship in self.ships for c in ship),
                    "ships: cargo or assets left after the game")
        if ph in (DECIDE, ENCOUNTER, PIRATE):
            legal = {DECIDE: {A_SKIP, A_RESOLVE} | set(range(A_PARROT, A_ENCOUNTER)),
                     ENCOUNTER: {A_ENCOUNTER, A_FLEE},
                     PIRATE: {A_RESOLVE, A_PAY_NONE} | set(range(A_PARROT, A_ENCOUNTER))
                     | set(range(A_PAY, A_COLOUR))}[ph]
            for p, a in enumerate(self.pending):
                require(a < 0 or a in legal, f"pending[{p}]: not a choice of this decision")
                # choices wait to be applied together, so each was open to its seat here
                require(a < 0 or self._choices(p)[a], f"pending[{p}]: not open to the seat")
                if ph == PIRATE and self.encounter[p] != 1:
                    require(a < 0, f"pending[{p}]: a seat that fled has a choice pending")
            require(self._current_players(), "pending: everyone has chosen, nothing applied")
        else:
            require(self.pending == [-1] * n, "pending: a choice outside a card decision")
        require(bool(self.cargo_queue) == (ph in (COLOUR, PLACE)),
                "cargo_queue: cargo to hand out exactly while choosing colours and stowing")
        if ph == PLACE:
            require(self.unit_colour >= 0 and self.supply[self.unit_colour] > 0,
                    "unit_colour: no token of that colour to stow")
        else:
            require(self.unit_colour < 0, "unit_colour: set outside stowing")

    # -- information ------------------------------------------------------------------------
    def touch(self) -> None:
        """Drop the cached public view and acting players (call after editing fields)."""
        self._pub = None
        self._acting = None

    def _public(self) -> PublicView:
        """What everybody knows (cached until the next change): above deck space by space,
        below deck as ``_below_deck``, hands held face down as unknown."""
        pub = self.__dict__.get("_pub")
        if pub is not None:
            return pub
        g = self.game
        n = g.num_players
        secret = self.secret
        secrets = True in secret
        # a face-down tile is only ever in a hand or below deck (validate() checks it), so
        # above-deck cells show their look and only hands and below deck depend on secrets
        code = g.cell_lut.__getitem__
        # per ship: above-deck codes, storage and below-deck summary. A step changes one
        # or two ships, so each is kept on the game with what it came from: the ship's
        # contents and, while any tile is face down, which of its below-deck tiles are
        memo = g.ship_memo
        ships = []
        for p, (ship, stor) in enumerate(zip(self.ships, self.stor)):
            key = (tuple(ship), tuple(map(tuple, stor)) if any(stor) else None,
                   tuple([0 <= c < CARGO and secret[c] for c in ship[NUM_ABOVE:]])
                   if secrets else None)
            hit = memo[p]
            if hit is None or hit[0] != key:
                above_stor = stor[:NUM_ABOVE]
                hit = (key, tuple(map(code, ship[:NUM_ABOVE])),
                       tuple(tuple(x) if x else () for x in above_stor)
                       if any(above_stor) else _NO_STORAGE,
                       self._below_deck(p))
                memo[p] = hit
            ships.append(hit)
        _, above, above_storage, below = zip(*ships)
        if secrets:
            hands = tuple([CELL_UNKNOWN if t >= 0 and secret[t] else code(t)
                           for t in self.hand])
        else:
            hands = tuple(map(code, self.hand))
        # face-up tiles per look, counted in C: the pile can hold dozens of tiles (tile ids
        # are bytes, and translate turns each into its look); kept on the game with the
        # pile it came from, as many steps leave the pile as it was
        tiles_up = bytes(self.pile_up)
        hit = g.pile_memo
        if hit is not None and hit[0] == tiles_up:
            pile_up = hit[1]
        else:
            looks_up = np.frombuffer(tiles_up.translate(g.look_table), np.uint8)
            pile_up = tuple(np.bincount(looks_up, minlength=2 * NUM_KINDS).tolist())
            g.pile_memo = (tiles_up, pile_up)
        backs, fronts, queue = self._public_cards()
        cards = g.cards
        loading = self.phase in (SETUP, LOADING)
        # tuple.__new__ skips the NamedTuple's Python-level argument binding
        pub = tuple.__new__(PublicView, (
            n, self.round, self.phase, self.turns, self.current_players(), self.captain,
            above, above_storage, below,
            hands, tuple(self.coins), tuple(self.chests), tuple(self.parrots),
            g.meddlesome_flags, pile_up, len(self.pile_down), tuple(self.supply),
            self.chest_supply, self.parrot_supply, fronts, self.fronts_hidden,
            backs, queue,
            self.current if self.revealed else -1,
            cards[self.current].back if self.current >= 0 else -1,
            tuple(sorted(self.used)), tuple(self.encounter), tuple(self.outcome),
            tuple([x >= 0 for x in self.pending]),
            tuple([(int(p), int(u)) for p, u in self.cargo_queue]) if self.cargo_queue else (),
            self.unit_colour, self.cleansed,
            tuple([EMPTY not in ship for ship in self.ships]) if loading else g.no_seats,
            tuple(self.returns),
        ))
        self._pub = pub
        return pub

    def _public_cards(self) -> tuple:
        """(cards left per back, unrevealed fronts or None, queued contracts' colours) of
        the public view. They change only when a card moves, so the last result is kept on
        the game with the card fields it came from."""
        g = self.game
        key = (tuple(self.deck), tuple(self.queue), self.current, self.revealed,
               self.fronts_hidden)
        hit = g.cards_memo
        if hit is not None and hit[0] == key:
            return hit[1]
        counts = Counter(map(g.card_back.__getitem__, self.deck))
        backs = tuple(map(counts.__getitem__, range(NUM_BACKS)))
        if not self.fronts_hidden or g.perfect_recall:
            unrevealed = self.deck + self.queue
            if self.current >= 0 and not self.revealed:
                unrevealed = unrevealed + [self.current]
            fronts = tuple(sorted(unrevealed))
        else:
            fronts = None
        queue = tuple([g.cards[c].back - 5 for c in self.queue])
        g.cards_memo = (key, (backs, fronts, queue))
        return backs, fronts, queue

    def _below_deck(self, p: int) -> BelowDeck:
        """What everyone knows of player ``p``'s below deck: the tiles seen going there (by
        look), how many nobody else has seen, and the cargo per colour; never where any
        of it lies (the screen hides that; the rulebook: "everything below deck is hidden
        from other players")."""
        looks = [0] * (2 * NUM_KINDS)
        cargo = [0] * NUM_COLOURS
        unknown = 0
        ship, stor = self.ships[p], self.stor[p]
        look, secret = self.game.tile_look, self.secret
        for sp in BELOW:
            c = ship[sp]
            if CARGO <= c < CHEST:
                cargo[c - CARGO] += 1
            elif 0 <= c < CARGO:
                if secret[c]:
                    unknown += 1
                else:
                    looks[look[c]] += 1
                for colour in stor[sp]:
                    cargo[colour] += 1
        return tuple.__new__(BelowDeck, (tuple(looks), unknown, tuple(cargo)))

    def python_view(self, player: int) -> AnchorsAweighView:
        """The public table plus ``player``'s own ship (every space, every face), hand,
        secrets and pending choice."""
        pub = self._public()
        own = self.ships[player]
        secret = self.secret
        cells = tuple(map(self.game.cell_lut.__getitem__, own))
        hand = self.hand[player]
        if True in secret:
            flags = [0 <= c < CARGO and secret[c] for c in own]
            flags.append(hand >= 0 and secret[hand])
            flags = tuple(flags)
        else:                       # no face-down tile anywhere (most of the game)
            flags = _NO_SECRETS
        stor = self.stor[player]
        return tuple.__new__(AnchorsAweighView, (
            player, cells, tuple(map(tuple, stor)) if any(stor) else _EMPTY_STORAGE,
            self.game.cell_lut[hand], flags, self.pending[player], pub))


AnchorsAweighGame.state_class = AnchorsAweighState

__all__ = [
    "ACTIONS", "A_CARGO", "A_COLOUR", "A_DISCARD", "A_ENCOUNTER", "A_FLEE", "A_FLIP",
    "A_GRAB_DOWN", "A_GRAB_UP", "A_PARROT", "A_PAY", "A_PAY_NONE", "A_PLACE", "A_RESOLVE",
    "A_RETURN", "A_SKIP", "A_STAR_RETURN", "A_STOW", "A_SWAP", "A_TOSS_ASSET", "A_TOSS_CARGO",
    "AnchorsAweighGame", "AnchorsAweighState", "CARGO", "CHEST", "COLOUR", "DECIDE", "EMPTY",
    "ENCOUNTER", "GREY", "LOADING", "NUM_ACTIONS", "OUTCOMES", "OVER", "O_ENCOUNTER", "O_FLED",
    "O_NONE", "O_PAID", "O_RESOLVED", "O_SKIPPED", "PHASES", "PIRATE", "PLACE", "SETUP", "Phase",
    "action_name", "view_params",
]
