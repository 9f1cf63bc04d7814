"""Anchors Aweigh! rules engine: two rounds of a simultaneous loading race and a travel phase.

Pure rules (no gymnasium/PettingZoo). The loading race is played in simultaneous *ticks*
(one action per player whose ship is not full); the travel phase asks every player at once
about each adventure card, then hands out cargo rewards one token at a time, clockwise from
the captain. See ``docs/rules/anchors_aweigh.md`` for the rules and every decision made.

State layout (plain data): ship cells are ``-1`` empty, a tile id, ``CARGO + colour`` or
``CHEST``; cargo on a storage tile sits in ``stor[seat][space]``. ``secret[tile]`` marks a
tile whose face only its holder has seen (grabbed face down and kept in hand or below deck).
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

import numpy as np

from plunder.envs.core.errors import InvalidArgumentError, InvalidStateError, require
from plunder.envs.core.game import Game, GameState, rng_from_dict, rng_to_dict
from plunder.envs.core.layout import EntityGroup
from plunder.envs.core.state_io import (
    check_bool, check_choice, check_int, check_int_list, check_int_lists, check_keys,
    check_list,
)

from .components import (
    ABOVE, ASSET_SPACES, BELOW, COLOURS, CONTRACT, KINDS, MONKEY, NUM_BACKS, NUM_COLOURS,
    NUM_KINDS, NUM_SPACES, PIRATES, SPACE_NAMES, STORAGE, Components, check_mix,
    load_components,
)
from .view import (
    CELL_CARGO, CELL_CHEST, CELL_EMPTY, CELL_TILE, CELL_UNKNOWN, NUM_CELLS, AnchorsAweighView,
    BelowDeck, PublicView,
)

# ---- ship cells in the state ------------------------------------------------------------
EMPTY = -1
CARGO = 200      # + colour (tile ids stay below 200)
CHEST = 204

# ---- phases -------------------------------------------------------------------------------
SETUP, LOADING, DECIDE, ENCOUNTER, PIRATE, COLOUR, PLACE, OVER = range(8)
PHASES = ("monkey setup", "loading", "resolve or skip", "encounter or flee",
          "resolve or pay", "choose cargo colour", "stow cargo", "game over")

# ---- what each player did last (public once applied) -------------------------------------
OUTCOMES = ("none", "resolved", "skipped", "encounters", "fled", "paid penalty")
O_NONE, O_RESOLVED, O_SKIPPED, O_ENCOUNTER, O_FLED, O_PAID = range(6)

# ---- actions ----------------------------------------------------------------------------------
A_GRAB_DOWN = 0
A_GRAB_UP = 1            # + kind (10)
A_FLIP = 11
A_PLACE = 12             # + asset space (12)
A_RETURN = 24
A_CARGO = 25             # + colour (4)
A_STAR_RETURN = 29       # + asset space (12)
A_SKIP = 41
A_RESOLVE = 42
A_PARROT = 43            # + needable kind (8)
A_ENCOUNTER = 51
A_FLEE = 52
A_PAY_NONE = 53
A_PAY = 54               # + colour (4)
A_COLOUR = 58            # + colour (4)
A_STOW = 62              # + space (14)
A_TOSS_ASSET = 76        # + asset space (12)
A_TOSS_CARGO = 88        # + colour (4)
A_DISCARD = 92
A_SWAP = 93              # + give kind * 10 + take kind (100)
NUM_ACTIONS = 193

GREY = NUM_COLOURS       # a cargo unit of any colour


def action_name(a: int) -> str:
    """Readable name of action index ``a``."""
    a = int(a)
    if a == A_GRAB_DOWN:
        return "grab a face-down tile"
    if A_GRAB_UP <= a < A_FLIP:
        return f"grab a face-up {KINDS[a - A_GRAB_UP]}"
    if a == A_FLIP:
        return "flip a face-down tile"
    if A_PLACE <= a < A_RETURN:
        return f"place the held tile on {SPACE_NAMES[a - A_PLACE]}"
    if a == A_RETURN:
        return "return the held tile face up"
    if A_CARGO <= a < A_STAR_RETURN:
        return f"take {COLOURS[a - A_CARGO]} cargo"
    if A_STAR_RETURN <= a < A_SKIP:
        return f"return the starfish tile on {SPACE_NAMES[a - A_STAR_RETURN]}"
    if a == A_SKIP:
        return "skip the card"
    if a == A_RESOLVE:
        return "resolve the card"
    if A_PARROT <= a < A_ENCOUNTER:
        return f"resolve with the parrot as a {KINDS[a - A_PARROT]}"
    if a == A_ENCOUNTER:
        return "encounter the pirates"
    if a == A_FLEE:
        return "flee the pirates"
    if a == A_PAY_NONE:
        return "pay the penalty (no cargo to give)"
    if A_PAY <= a < A_COLOUR:
        return f"pay the penalty, giving {COLOURS[a - A_PAY]} cargo"
    if A_COLOUR <= a < A_STOW:
        return f"choose {COLOURS[a - A_COLOUR]} cargo"
    if A_STOW <= a < A_TOSS_ASSET:
        return f"stow the cargo on {SPACE_NAMES[a - A_STOW]}"
    if A_TOSS_ASSET <= a < A_TOSS_CARGO:
        return f"toss the asset on {SPACE_NAMES[a - A_TOSS_ASSET]} overboard for the cargo"
    if A_TOSS_CARGO <= a < A_DISCARD:
        return f"toss a {COLOURS[a - A_TOSS_CARGO]} cargo overboard for the new one"
    if a == A_DISCARD:
        return "toss the new cargo overboard"
    if A_SWAP <= a < NUM_ACTIONS:
        g, t = divmod(a - A_SWAP, 10)
        return f"swap two {KINDS[g]} for a {KINDS[t]}"
    return f"action {a} (out of range)"


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
    recall_option = "perfect_recall"
    options = {
        "meddlesome_monkey": (),
        "open_ocean": "",
        "open_ocean_mix": None,
        "rough_seas": False,
        "perfect_recall": False,
    }

    _components: Components | None = None
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

    def compiled_encoder_params(self, module) -> tuple:
        """The compiled encoder's constants (observation.compiled_params)."""
        from .observation import compiled_params
        return compiled_params(self, module)

    def compiled_view_params(self) -> tuple:
        """The compiled view builder's constants (view_params)."""
        return view_params(self)

    @classmethod
    def components(cls) -> Components:
        """The packaged components (loaded and validated once)."""
        if cls._components is None:
            cls._components = load_components()
        return cls._components

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
    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    def action_name(self, action: int) -> str:
        return action_name(action)

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

    @property
    def layout(self):
        if self._layout is None:
            from .observation import build_layout
            self._layout = build_layout(self)
        return self._layout

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
        """Rebuild a state from ``to_dict()``, every field checked (types, ranges, one entry
        per seat / space / tile, ids of existing tiles and cards, known phases and
        actions); ``validate`` then checks the rules."""
        check_keys(data, f"{self.env_id()} state", _FIELDS + ("rng",))
        n, comp = self.num_players, self.comp
        tiles, cards = self.num_tiles, len(self.cards)
        data = {key: _listify(value) for key, value in data.items()}
        s = AnchorsAweighState(self, rng_from_dict(data["rng"]))
        s.turns = check_int(data["turns"], "turns", 0)
        s.phase = check_choice(data["phase"], "phase", range(len(PHASES)))
        s.round = check_int(data["round"], "round", 1, 2)
        s.captain = check_int(data["captain"], "captain", -1, n - 1)
        s.ships = check_int_lists(data["ships"], "ships", n, NUM_SPACES, EMPTY, CHEST)
        for p, ship in enumerate(s.ships):
            for sp, c in enumerate(ship):
                if tiles <= c < CARGO:
                    raise InvalidStateError(
                        f"ships[{p}][{sp}]: {c} is neither empty (-1), a tile (0-{tiles - 1}),"
                        f" cargo ({CARGO}-{CARGO + NUM_COLOURS - 1}) nor a chest ({CHEST})")
        s.stor = check_list(data["stor"], "stor", n)
        for p, spaces in enumerate(s.stor):
            check_int_lists(spaces, f"stor[{p}]", NUM_SPACES, None, 0, NUM_COLOURS - 1,
                            max_inner=comp.storage_capacity)
        s.hand = check_int_list(data["hand"], "hand", n, -1, tiles - 1)
        s.secret = check_list(data["secret"], "secret", tiles)
        for t, hidden in enumerate(s.secret):
            check_bool(hidden, f"secret[{t}]")
        s.pile_up = check_int_list(data["pile_up"], "pile_up", None, 0, tiles - 1,
                                   max_len=tiles)
        s.pile_down = check_int_list(data["pile_down"], "pile_down", None, 0, tiles - 1,
                                     max_len=tiles)
        s.supply = check_int_list(data["supply"], "supply", NUM_COLOURS, 0,
                                  comp.cargo_per_colour)
        s.chest_supply = check_int(data["chest_supply"], "chest_supply", 0, comp.chests)
        s.parrot_supply = check_int(data["parrot_supply"], "parrot_supply", 0, comp.parrots)
        s.coins = check_int_list(data["coins"], "coins", n, 0)
        s.chests = check_int_list(data["chests"], "chests", n, 0, comp.chests)
        s.parrots = check_int_list(data["parrots"], "parrots", n, 0, comp.parrots)
        s.deck = check_int_list(data["deck"], "deck", None, 0, cards - 1, max_len=13)
        s.queue = check_int_list(data["queue"], "queue", None, 0, cards - 1, max_len=13)
        s.current = check_int(data["current"], "current", -1, cards - 1)
        s.revealed = check_bool(data["revealed"], "revealed")
        s.used = check_int_list(data["used"], "used", None, 0, cards - 1, max_len=26)
        s.fronts_hidden = check_bool(data["fronts_hidden"], "fronts_hidden")
        s.encounter = check_int_list(data["encounter"], "encounter", n, -1, 1)
        s.outcome = check_int_list(data["outcome"], "outcome", n, 0, len(OUTCOMES) - 1)
        s.pending = check_int_list(data["pending"], "pending", n, -1, NUM_ACTIONS - 1)
        s.returns = check_int_list(data["returns"], "returns", n, 0)
        s.cargo_queue = check_int_lists(data["cargo_queue"], "cargo_queue", None, 2, 0, GREY)
        for i, (p, _) in enumerate(s.cargo_queue):
            check_int(p, f"cargo_queue[{i}][0]", 0, n - 1)
        s.unit_colour = check_int(data["unit_colour"], "unit_colour", -1, NUM_COLOURS - 1)
        s.cleansed = check_bool(data["cleansed"], "cleansed")
        return s

    def sample_state(self, view: AnchorsAweighView, rng: np.random.Generator):
        from .sampling import sample_state
        return sample_state(self, view, rng)

    def describe_view(self, view: AnchorsAweighView) -> str:
        from .render import render_view
        return render_view(self, view)


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


_FIELDS = ("turns", "phase", "round", "captain", "ships", "stor", "hand", "secret",
           "pile_up", "pile_down", "supply", "chest_supply", "parrot_supply", "coins",
           "chests", "parrots", "deck", "queue", "current", "revealed", "used",
           "fronts_hidden", "encounter", "outcome", "pending", "returns", "cargo_queue",
           "unit_colour", "cleansed")


@lru_cache(maxsize=None)
def _need_counts(needs: tuple) -> tuple[tuple[int, int], ...]:
    """(kind or colour, count) of each different need of a card (cards are few: cached)."""
    return tuple(Counter(needs).items())


def _listify(x):
    """Tuples as lists, all the way down (a dict from ``to_dict`` or from JSON alike)."""
    if isinstance(x, (list, tuple)):
        return [_listify(v) for v in x]
    return x


def _copy(x):
    if isinstance(x, list):
        return [_copy(v) for v in x]
    return x


class AnchorsAweighState(GameState):
    """One position of Anchors Aweigh!."""

    game: AnchorsAweighGame

    # -- setup ------------------------------------------------------------------------------
    def setup(self) -> None:
        g = self.game
        comp = g.comp
        n = g.num_players
        rng = self.rng
        self.round = 1
        self.captain = -1
        self.ships = [[EMPTY] * NUM_SPACES for _ in range(n)]
        self.stor = [[[] for _ in range(NUM_SPACES)] for _ in range(n)]
        self.hand = [-1] * n
        self.secret = [False] * g.num_tiles
        self.supply = [comp.cargo_per_colour] * NUM_COLOURS
        self.chest_supply = comp.chests
        self.parrot_supply = comp.parrots
        self.coins = [0] * n
        self.chests = [0] * n
        self.parrots = [0] * n
        self.encounter = [-1] * n
        self.outcome = [O_NONE] * n
        self.pending = [-1] * n
        self.returns = [0] * n
        self.cargo_queue = []
        self.unit_colour = -1
        self.cleansed = False
        self.queue = []
        self.current = -1
        self.revealed = False
        self.used = []
        self.fronts_hidden = False
        # Meddlesome Monkey: the monkeys come out of the box before the tiles are poured
        monkeys = [t for t in range(g.num_tiles) if g.tile_kind[t] == MONKEY]
        for seat, tile in zip(g.monkey_seats, monkeys):
            self.hand[seat] = tile
        in_hand = set(self.hand)
        tiles = [t for t in range(g.num_tiles) if t not in in_hand]
        up = rng.random(len(tiles)) < 0.5
        self.pile_up = sorted(t for t, u in zip(tiles, up) if u)
        self.pile_down = sorted(t for t, u in zip(tiles, up) if not u)
        self.deck = self._draw_round_cards()
        self.phase = SETUP if g.monkey_seats else LOADING

    def _draw_round_cards(self) -> list[int]:
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
        mask = bytearray(NUM_ACTIONS)
        if player not in self.current_players():
            return np.frombuffer(mask, np.int8)
        ph = self.phase
        p = player
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
        return np.frombuffer(mask, np.int8)

    def _loading_mask(self, p: int, mask: bytearray) -> None:
        ship = self.ships[p]
        free_asset = EMPTY in ship[:len(ASSET_SPACES)]     # the asset spaces come first
        if self.hand[p] >= 0:
            for s in ASSET_SPACES:
                if ship[s] == EMPTY:
                    mask[A_PLACE + s] = 1
            mask[A_RETURN] = 1
            return
        if self.pile_down:
            mask[A_FLIP] = 1
            if free_asset:
                mask[A_GRAB_DOWN] = 1
        if free_asset and self.pile_up:
            for k in self._kinds_up():
                mask[A_GRAB_UP + k] = 1
        if ship[12] == EMPTY or ship[13] == EMPTY:
            for c in range(NUM_COLOURS):
                if self.supply[c] > 0:
                    mask[A_CARGO + c] = 1
        if self.game.starfish_rule:
            star = self.game.tile_star
            for s in ASSET_SPACES:
                c = ship[s]
                if 0 <= c < CARGO and star[c]:
                    mask[A_STAR_RETURN + s] = 1

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

    def _priority(self) -> list[int]:
        return [int(x) for x in self.rng.permutation(self.game.num_players)]

    def _apply_loading(self, actions: dict[int, int]) -> None:
        g = self.game
        kind = g.tile_kind
        prio = None
        # 1. face-up grabs by kind; a random priority decides when a kind runs short
        by_kind: dict[int, list[int]] = {}
        for p, a in actions.items():
            if A_GRAB_UP <= a < A_FLIP:
                by_kind.setdefault(a - A_GRAB_UP, []).append(p)
        for k in sorted(by_kind):
            players = by_kind[k]
            avail = [t for t in self.pile_up if kind[t] == k]
            if len(players) > len(avail):
                prio = prio or self._priority()
                players = sorted(players, key=prio.index)[:len(avail)]
            for p in players:
                t = avail.pop(int(self.rng.integers(len(avail))))
                self.pile_up.remove(t)
                self.hand[p] = t
        # 2. face-down grabs and flips share the face-down tiles (random priority)
        down = [p for p, a in actions.items() if a in (A_GRAB_DOWN, A_FLIP)]
        if len(down) > 1:
            prio = prio or self._priority()
            down.sort(key=prio.index)
        for p in down:
            if not self.pile_down:
                break
            t = self.pile_down.pop(int(self.rng.integers(len(self.pile_down))))
            if actions[p] == A_GRAB_DOWN:
                self.hand[p] = t
                self.secret[t] = True
            else:
                self.pile_up.append(t)
        # 3. places, returns, cargo and starfish returns (no conflicts possible)
        for p, a in actions.items():
            if A_PLACE <= a < A_RETURN:
                s = a - A_PLACE
                t = self.hand[p]
                self.ships[p][s] = t
                self.hand[p] = -1
                self.returns[p] = 0
                if s in ABOVE:
                    self.secret[t] = False
            elif a == A_RETURN:
                self._to_pile(self.hand[p])
                self.hand[p] = -1
                self.returns[p] += 1
            elif A_CARGO <= a < A_STAR_RETURN:
                c = a - A_CARGO
                self.supply[c] -= 1
                s = 12 if self.ships[p][12] == EMPTY else 13
                self.ships[p][s] = CARGO + c
            elif A_STAR_RETURN <= a < A_SKIP:
                s = a - A_STAR_RETURN
                t = self.ships[p][s]
                self.ships[p][s] = EMPTY
                self._to_pile(t)
        # the captain's call: the first full ship (ties: random among them)
        if self.captain < 0:
            full = [p for p in actions if EMPTY not in self.ships[p]]
            if full:
                self.captain = full[int(self.rng.integers(len(full)))] if len(full) > 1 \
                    else full[0]
                self.fronts_hidden = True
        if all(EMPTY not in ship for ship in self.ships):
            self._start_travel()

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
        if ph in (SETUP, LOADING):
            require(not any(any(sp) for sp in self.stor), "stor: cargo on storage while loading")
            require(self.current < 0 and not self.queue and not self.cargo_queue,
                    "current/queue/cargo_queue: a card or cargo pending while loading")
            require(self.fronts_hidden == (self.captain >= 0),
                    "fronts_hidden: the fronts are hidden exactly from the captain's call")
            if self.captain >= 0:
                require(EMPTY not in self.ships[self.captain], "captain: the ship is not full")
            require(self._current_players(), "phase: loading with every ship full")
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

    def view(self, player: int) -> AnchorsAweighView:
        """What ``player`` knows (the compiled view builder when built, else ``python_view``)."""
        return self.game.view_of(self, player)

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

    # -- copies and text --------------------------------------------------------------------
    def to_dict(self) -> dict:
        d = {key: _copy(getattr(self, key)) for key in _FIELDS}
        d["rng"] = rng_to_dict(self.rng)
        return d

    def clone(self) -> "AnchorsAweighState":
        new = AnchorsAweighState.__new__(AnchorsAweighState)
        new.__dict__.update(self.__dict__)
        for key in ("ships", "hand", "secret", "pile_up", "pile_down", "supply", "coins",
                    "chests", "parrots", "deck", "queue", "used", "encounter", "outcome",
                    "pending", "returns"):
            setattr(new, key, list(getattr(self, key)))
        new.ships = [list(x) for x in self.ships]
        new.stor = [[list(x) for x in sp] for sp in self.stor]
        new.cargo_queue = [list(x) for x in self.cargo_queue]
        new._pub = None
        new._acting = None
        from plunder.envs.core.game import clone_rng
        new.rng = clone_rng(self.rng)
        return new

    def describe_full(self) -> str:
        from .render import render_full
        return render_full(self)
