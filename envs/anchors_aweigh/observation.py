"""Observation layout and encoder of Anchors Aweigh! (reads only the player's view).

Per-seat blocks are in *relative* seat order: entry 0 is the observing player, entry r the
player r seats to the left (clockwise). Counts are scaled to about 0..1 (see each field).
"""

from __future__ import annotations

from itertools import combinations, compress
from operator import add, le, ne

import numpy as np

from plunder.envs.core.layout import LayoutBuilder, ObservationLayout
from plunder.envs.core.memo import remember

from .components import (
    ABOVE, BACKS, CARD_TYPES, COLOURS, CONTRACT, KINDS, NUM_BACKS, NUM_COLOURS, NUM_KINDS,
    NUM_SPACES, PIRATES, TRADE,
)
from .engine import DECIDE, ENCOUNTER
from .view import (
    CELL_CARGO, CELL_CHEST, CELL_EMPTY, CELL_TILE, CELL_UNKNOWN, NUM_CELLS, PublicView,
)

NUM_PHASES = 8
SPACE_FEATURES = ("empty", "chest", "unknown tile") + KINDS + ("starfish",) + tuple(
    f"{c} cargo" for c in COLOURS) + tuple(f"{c} on storage" for c in COLOURS)
SF = len(SPACE_FEATURES)               # 22
HAND_FEATURES = ("empty", "unknown tile") + KINDS + ("starfish",)
HF = len(HAND_FEATURES)                # 13
CARD_FEATURES = tuple(f"type {t}" for t in CARD_TYPES) + tuple(f"back {b}" for b in BACKS) \
    + tuple(f"needs {k}" for k in KINDS[:8]) + tuple(f"needs {c}" for c in COLOURS) \
    + ("coins",) + tuple(f"gives {c}" for c in COLOURS) + ("gives grey",)
CF = len(CARD_FEATURES)                # 31
BELOW_FEATURES = tuple(f"{k} tiles seen" for k in KINDS) + ("starfish tiles seen",
                                                            "tiles not seen") + tuple(
    f"{c} cargo" for c in COLOURS)
BF = len(BELOW_FEATURES)               # 16
NUM_OUTCOMES = 6
NUM_ABOVE = len(ABOVE)
_ZERO = np.zeros(1, np.float32)


#: a seat's returns since its last placement are shown / RETURNS_SCALE, capped at RETURNS_CAP
#: (the heuristic bot changes course after 3 and 6 returns in a row; past 6 a long loop
#: looks like the states imitation data covers)
RETURNS_SCALE, RETURNS_CAP = 6, 6


def build_layout(game) -> ObservationLayout:
    n = game.num_players
    ncards = len(game.cards)
    b = LayoutBuilder()
    b.add("phase", NUM_PHASES, "one-hot phase: monkey setup, loading, resolve or skip, "
          "encounter or flee, resolve or pay, choose cargo colour, stow cargo, game over")
    b.add("round", 2, "one-hot round 1 / 2")
    b.add("me_acting", 1, "1 if you must act now")
    b.add("fronts_visible", 1, "1 if the fronts of this round's unrevealed cards are shown "
          "(before the captain's call, or perfect_recall)")
    b.add("captain_called", 1, "1 once a captain has called 'Anchors aweigh!' this round")
    b.add("pile_up", NUM_KINDS, "face-up tiles in the pile per kind (cannon..monkey) / 9",
          high=3)
    b.add("pile_up_starfish", NUM_KINDS, "face-up starfish tiles in the pile per kind / 2",
          high=10)
    b.add("pile_down", 1, "face-down tiles in the pile / 84")
    b.add("supply", NUM_COLOURS, "cargo in the supply per colour (blue, white, orange, "
          "purple) / 16", high=4)
    b.add("chest_supply", 1, "treasure chests left in the supply / 18", high=6)
    b.add("parrot_supply", 1, "parrots left in the supply / 3", high=2)
    b.add("current_card", CF, "the revealed current card: " + ", ".join(CARD_FEATURES)
          + " (needs and gives are counts / 4, coins / 12)", high=2)
    b.add("current_back", NUM_BACKS, "one-hot back of the current card (also before a "
          "pirate card is revealed): " + ", ".join(BACKS))
    b.add("round_cards", 13 * CF, "up to 13 unrevealed cards of this round by card id, each "
          "as current_card; zeros when the fronts are hidden", high=2)
    # derived: round_*_needs sum round_cards, held_kind regroups your row of hands, and
    # pirate_odds and the outlooks evaluate the position for you
    b.add("round_asset_needs", NUM_KINDS, "tiles per kind (cannon..monkey) needed by all "
          "unrevealed visible cards / 8 (storage and monkey: always 0, no card needs them)",
          high=8, derived=True)
    b.add("round_cargo_needs", NUM_COLOURS, "cargo per colour needed by all unrevealed "
          "visible cards / 8", high=8, derived=True)
    b.add("backs_left", NUM_BACKS, "cards still in the deck per back / 13")
    b.add("queue", NUM_COLOURS, "contracts moved to the bottom, per featured colour / 13")
    b.add("queue_next", NUM_COLOURS, "one-hot featured colour of the next queued contract")
    b.add("used", ncards, "1 per adventure card already revealed and gone (public history)")
    b.add("unit", NUM_COLOURS + 1, "one-hot cargo unit being handed out: a colour or grey")
    b.add("unit_colour", NUM_COLOURS, "one-hot colour of the unit to stow")
    b.add("unit_mine", 1, "1 if the unit being handed out is yours")
    b.add("my_units_left", 1, "cargo units still to come to you from this card / 8", high=4)
    b.add("own_secret", NUM_SPACES + 1, "your spaces A1..C2 and hand holding a tile the "
          "others have not seen")
    b.add("ships", n * NUM_SPACES * SF, "per relative seat, per space A1..C2: "
          + ", ".join(SPACE_FEATURES) + " (storage counts / 2); another seat's B1..C2 are "
          "all 0 (behind its screen: see below_deck)", high=2)
    b.add("hands", n * HF, "per relative seat, the tile in hand: " + ", ".join(HAND_FEATURES))
    b.add("full", n, "per relative seat: 1 while loading once the ship is full (it waits)")
    b.add("cargo_held", NUM_COLOURS * n, "per relative seat: cargo on the ship per colour / 8",
          high=4)
    b.add("assets_seen", NUM_KINDS * n, "per relative seat: tiles on the ship per kind that "
          "you have seen / 4 (yours: all)", high=4)
    b.add("unknown_tiles", n, "per relative seat: tiles on the ship you have not seen / 12")
    b.add("below_deck", n * BF, "per relative seat, what everyone knows of the ship's below "
          "deck, not where it lies: " + ", ".join(BELOW_FEATURES) + " (tiles / 4, cargo / 8)",
          high=4)
    b.add("coins", n, "per relative seat: coins / 10", high=100)
    b.add("chests", n, "per relative seat: treasure chests / 8", high=4)
    b.add("parrots", n, "per relative seat: parrots held", high=3)
    b.add("captain", n, "per relative seat: 1 for the captain")
    b.add("meddlesome", n, "per relative seat: plays the Meddlesome Monkey handicap")
    b.add("acting", n, "per relative seat: must act now")
    b.add("decided", n, "per relative seat: has a choice pending in this decision")
    b.add("encounter", 2 * n, "per relative seat: [encounters, fled] the current pirates")
    b.add("outcome", NUM_OUTCOMES * n, "per relative seat: one-hot last applied decision: "
          "none, resolved, skipped, encounters, fled, paid penalty")
    b.add("returns", n, "per relative seat: tiles returned to the pile since the seat last "
          f"placed one, / {RETURNS_SCALE} (at most {RETURNS_CAP}; public: a return is seen)",
          high=RETURNS_CAP / RETURNS_SCALE)
    b.add("held_kind", NUM_KINDS, "one-hot kind of the tile in your hand (all 0: none, or "
          "not looked at yet)", derived=True)
    b.add("pirate_odds", 3, "per pirate strength 1..3: the share of the pirate cards of that "
          "strength you may still meet (this round's unrevealed fronts while you see them, "
          "else every pirate card not yet used) whose needs your ship meets now, the parrot "
          "and wild monkeys counted; 0 when there are none", derived=True)
    b.add("encounter_outlook", 3, "only while you are asked to encounter or flee pirates "
          "(zeros otherwise), over the pirate cards of the back's strength you may meet (as "
          "pirate_odds): the share your ship resolves now; their mean reward, coins plus "
          "cargo units, counting 0 for those it cannot resolve, / 10; what a failed "
          "encounter costs you (the coin penalty you can pay, plus 1 if you hold cargo) / 3",
          derived=True)
    b.add("trade_outlook", 3, "only while you are asked to resolve or skip a trade or a "
          "contract that your cargo pays for (zeros otherwise): what resolving it changes, "
          "counting the card's coins and the value of your cargo after against before, "
          "where the value of cargo is its units (each a coin at the end of the round) plus "
          "the best net gain (coins less cargo paid) of a set of the round's unrevealed "
          "contracts you see (round_cards: none while the fronts are hidden) that the cargo "
          "pays for together: [gain / 10, loss / 10, 1 if resolving loses no value]",
          high=4, derived=True)       # a resolve spends <= 4 units, each undoing <= one 8-coin gain
    return b.build()


def card_vectors(game) -> np.ndarray:
    """Each adventure card's ``current_card`` vector, row = card id (a front names its card:
    no two rows are equal)."""
    cards = np.zeros((len(game.cards), CF), np.float32)
    for card in game.cards:
        v = cards[card.index]
        v[card.type] = 1
        v[4 + card.back] = 1
        base = 13 if card.needs_assets else 21
        for x in card.needs:
            v[base + x] += 0.25
        v[25] = card.coins / 12
        for x in card.cargo:
            v[26 + x] += 0.25
        v[30] = card.grey / 4
    return cards


class _Tables:
    """Precomputed rows: ship cell codes and hand codes to features, card vectors."""

    def __init__(self, game):
        cell = np.zeros((NUM_CELLS, SF), np.float32)
        hand = np.zeros((NUM_CELLS, HF), np.float32)
        cell[CELL_EMPTY, 0] = 1
        cell[CELL_CHEST, 1] = 1
        cell[CELL_UNKNOWN, 2] = 1
        hand[CELL_EMPTY, 0] = 1
        hand[CELL_UNKNOWN, 1] = 1
        for lk in range(2 * NUM_KINDS):
            k, star = divmod(lk, 2)
            cell[CELL_TILE + lk, 3 + k] = 1
            cell[CELL_TILE + lk, 13] = star
            hand[CELL_TILE + lk, 2 + k] = 1
            hand[CELL_TILE + lk, 12] = star
        for c in range(NUM_COLOURS):
            cell[CELL_CARGO + c, 14 + c] = 1
        self.cell = cell
        self.hand = hand
        self.cards = card_vectors(game)
        # the pirate cards, for pirate_odds: ids, strength 1..3, needs per kind
        pirates = [c for c in game.cards if c.type == PIRATES]
        self.pirate_id_list = [c.index for c in pirates]
        self.pirate_strength_hot = np.zeros((len(pirates), 3), np.float64)
        self.pirate_needs = np.zeros((len(pirates), NUM_KINDS), np.float32)
        self.pirate_strength = np.array([c.strength for c in pirates])
        self.pirate_reward = np.array([c.coins + len(c.cargo) + c.grey for c in pirates],
                                      np.float64)
        for i, c in enumerate(pirates):
            self.pirate_strength_hot[i, c.strength - 1] = 1
            for x in c.needs:
                self.pirate_needs[i, x] += 1
        # the kinds pirates need and the most any card needs of each: the odds depend on
        # a ship's counts of those kinds only, capped there
        kinds = np.flatnonzero(self.pirate_needs.sum(0))
        self.pirate_caps = tuple((int(k), int(self.pirate_needs[:, k].max())) for k in kinds)
        #: per strength 1..3, its pirate cards as bits (pirate_id_list order)
        self.pirate_strength_bits = [_bits([c.strength == s for c in pirates])
                                     for s in (1, 2, 3)]
        self.beaten: dict = {}          # (capped counts, stand-ins) -> cards resolved, bits
        self.card_asset_needs = np.zeros((len(game.cards), NUM_KINDS), np.float32)
        self.card_cargo_needs = np.zeros((len(game.cards), NUM_COLOURS), np.float32)
        for card in game.cards:
            for x in card.needs:
                if card.needs_assets:
                    self.card_asset_needs[card.index, x] += 1
                else:
                    self.card_cargo_needs[card.index, x] += 1
        self.below_parts: dict = {}    # BelowDeck -> its part of a ship block
        self.above_parts: dict = {}    # (above-deck codes, storage) -> its part
        self.quarters = np.arange(NUM_SPACES + 1, dtype=np.float32) / 4   # counts / 4
        self.cell_kind = np.full(NUM_CELLS, -1)
        for lk in range(2 * NUM_KINDS):
            self.cell_kind[CELL_TILE + lk] = lk // 2
        # cell code -> kind (255: no tile) as a bytes.translate table
        self.cell_kind_bytes = bytes([k if k >= 0 else 255 for k in self.cell_kind]) \
            + bytes([255] * (256 - NUM_CELLS))
        self.seat = _SeatTable(self)


#: per-seat fields: name -> width of one seat's block (blocks are in seat order)
PER_SEAT = {"ships": NUM_SPACES * SF, "hands": HF, "coins": 1, "chests": 1, "parrots": 1,
            "captain": 1, "full": 1, "meddlesome": 1, "acting": 1, "decided": 1,
            "encounter": 2, "outcome": NUM_OUTCOMES, "cargo_held": NUM_COLOURS,
            "assets_seen": NUM_KINDS, "unknown_tiles": 1, "below_deck": BF, "returns": 1}


def _setup(game):
    layout = game.layout
    tables = _Tables(game)
    start = {name: layout.slice(name).start for name in layout.names()}
    n = game.num_players
    perms = []
    for me in range(n):
        perm = np.arange(layout.size)
        for name, w in PER_SEAT.items():
            s0 = start[name]
            for r in range(n):
                q = (me + r) % n
                perm[s0 + r * w:s0 + (r + 1) * w] = np.arange(s0 + q * w, s0 + (q + 1) * w)
        perms.append(perm)
    game._obs_tables = tables
    game._obs_start = start
    game._obs_size = layout.size
    game._obs_perms = perms
    game._obs_cache = None
    names = layout.names()     # fields that the writers of the public part fill together
    if names[names.index("round_cards"):names.index("round_cargo_needs") + 1] != [
            "round_cards", "round_asset_needs", "round_cargo_needs"] \
            or names[names.index("pile_up"):names.index("pile_up_starfish") + 1] != [
            "pile_up", "pile_up_starfish"]:
        raise RuntimeError("layout: the round and pile fields are written together, "
                           "so they must stay adjacent")
    # positions of everything one seat's ship contributes (its hand and full flag apart),
    # in the order that _ship_block lays its values out: one gather-write per changed ship
    seat_idx = []
    for q in range(n):
        parts = []
        for name, w in (("ships", NUM_ABOVE * SF), ("cargo_held", NUM_COLOURS),
                        ("assets_seen", NUM_KINDS), ("unknown_tiles", 1), ("below_deck", BF)):
            s0 = start[name] + q * PER_SEAT[name]
            parts.append(np.arange(s0, s0 + w))
        seat_idx.append(np.concatenate(parts))
    game._obs_seat_idx = seat_idx
    # positions of what one's own ship adds to the rotated public part (relative seat 0):
    # its below-deck rows (the above-deck rows are public), assets seen and unknown tiles
    s0 = start["ships"]
    game._obs_own_idx = np.concatenate([
        np.arange(s0 + NUM_ABOVE * SF, s0 + NUM_SPACES * SF),
        np.arange(start["assets_seen"], start["assets_seen"] + NUM_KINDS),
        [start["unknown_tiles"]]])
    game._obs_memo_own = [None] * n
    game._obs_memo_pirates = None
    return tables


def encode(game, view) -> np.ndarray:
    """The observation vector of ``view``.

    The public part is encoded once per public view (in absolute seat order, as an
    outsider sees it), then rotated to the player's relative order and completed with the
    player's own secrets.
    """
    tables = game.__dict__.get("_obs_tables") or _setup(game)
    pub = view.pub
    cache = game._obs_cache
    if cache is not None and cache[0] is pub:
        base = cache[1]
    else:
        base = _encode_public(game, tables, pub)
        game._obs_cache = (pub, base)
    me = view.player
    # rotated to relative seat order (seat 0's order is the absolute one)
    obs = base.take(game._obs_perms[me]) if me else base.copy()
    st = game._obs_start
    if me in pub.acting:
        obs[st["me_acting"]] = 1
    if pub.cargo_queue:
        if pub.cargo_queue[0][0] == me:
            obs[st["unit_mine"]] = 1
        obs[st["my_units_left"]] = sum(1 for q, _ in pub.cargo_queue if q == me) / 8
    # your own ship, every space and tile (the public part shows only what others see);
    # memoised per observer: most steps leave one's own ship as it was
    memo = game._obs_memo_own
    key = (view.own_ship, view.own_storage)
    hit = memo[me]
    if hit is None or hit[0] != key:
        hit = memo[me] = (key,) + _own_ship(tables, view.own_ship, view.own_storage)
    _, own, counts, have = hit
    obs[game._obs_own_idx] = own
    look = view.own_hand - CELL_TILE          # kind * 2 + starfish, for a tile in hand
    if 0 <= look < 2 * NUM_KINDS:
        obs[st["held_kind"] + look // 2] = 1
    extra = int(pub.parrots[me] > 0)        # stand-ins: the parrot, wild monkeys
    if game.rough_seas:
        extra += counts[NUM_KINDS - 1]
    pirates = _possible_pirates(game, tables, pub)
    odds = pirates[3].get((have, extra))
    if odds is None:
        odds = pirates[3][have, extra] = _pirate_odds(tables, pirates[2], have, extra)
    s0 = st["pirate_odds"]
    obs[s0:s0 + 3] = odds
    if pub.phase == ENCOUNTER and me in pub.acting:
        c0 = st["cargo_held"]                  # relative seat 0: your own
        s0 = st["encounter_outlook"]
        obs[s0:s0 + 3] = encounter_outlook(
            tables, pirate_shortfalls(tables, np.array(counts, np.float32)), extra, pirates[1],
            pub.current_back - BACKS.index("pirates 1") + 1,
            pub.coins[me], bool(obs[c0:c0 + NUM_COLOURS].any()),
            game.comp.pirate_penalty_coins)
    if pub.phase == DECIDE and me in pub.acting and pub.current >= 0 \
            and game.cards[pub.current].type in (TRADE, CONTRACT):
        c0 = st["cargo_held"]                  # your cargo: a multiple of 1/8, exact
        s0 = st["trade_outlook"]
        obs[s0:s0 + 3] = trade_outlook(
            game.cards, pub.current, [round(x * 8) for x in obs[c0:c0 + NUM_COLOURS].tolist()],
            pub.fronts)
    secret = view.own_secret
    if any(secret):
        s0 = st["own_secret"]
        obs[s0:s0 + NUM_SPACES + 1] = secret
        if secret[NUM_SPACES]:
            h0 = st["hands"]
            obs[h0:h0 + HF] = tables.hand[view.own_hand]
    return obs


def _own_ship(tables, cells, stor) -> tuple:
    """(what one's own ship adds at ``_obs_own_idx``: below-deck rows, assets seen / 4 and
    0 unknown tiles; tiles per kind; the counts of the kinds pirates need, capped at the
    most any card needs) of one's own ship. Its above-deck rows are the public ones."""
    # tiles per kind, counted in C: cell codes are bytes, translate turns each into its kind
    kinds = bytes(cells).translate(tables.cell_kind_bytes)
    counts = tuple(map(kinds.count, range(NUM_KINDS)))
    have = tuple([min(counts[k], cap) for k, cap in tables.pirate_caps])
    rows = tables.cell.take(cells[NUM_ABOVE:], 0)
    for sp, colours in enumerate(stor[NUM_ABOVE:]):
        for c in colours:
            rows[sp, 18 + c] += 0.5           # storage counts / 2
    own = np.concatenate([rows.ravel(), tables.quarters.take(counts), _ZERO])
    return own, counts, have


def _possible_pirates(game, tables, pub) -> tuple:
    """(what is known of the cards, possible flags, the same as bits, odds cache) of the
    pirate cards a player may still meet: this round's fronts while they are shown, else
    every pirate card not yet used. Public, so memoised per game; the odds cache (keyed
    on the capped counts of the kinds pirates need and the stand-ins) lives as long as
    the possible cards stay the same."""
    known = pub.fronts if pub.fronts is not None else (pub.used, pub.current)
    memo = game._obs_memo_pirates
    if memo is not None and memo[0] == known:
        return memo
    if pub.fronts is not None:
        possible = tuple([c in known for c in tables.pirate_id_list])
    else:
        gone = set(pub.used) | {pub.current}
        possible = tuple([c not in gone for c in tables.pirate_id_list])
    if memo is not None and memo[1] == possible:     # most cards are no pirates
        memo = (known,) + memo[1:]
    else:
        memo = (known, possible, _bits(possible), {})
    game._obs_memo_pirates = memo
    return memo


def _bits(flags) -> int:
    """A set of pirate cards (one flag each, ``pirate_id_list`` order) as an int's bits."""
    return sum(1 << i for i, flag in enumerate(flags) if flag)


def _pirate_odds(tables, possible: int, have: tuple, extra: int) -> np.ndarray:
    """pirate_odds for the ``possible`` pirate cards (bits) and a ship with the capped
    counts ``have`` and ``extra`` stand-ins, by counting bits: the same quotients as
    ``pirate_odds`` (whole counts divided once)."""
    beaten = tables.beaten.get((have, extra))
    if beaten is None:                  # which cards such a ship resolves (few such keys)
        counts = np.zeros(NUM_KINDS, np.float32)
        counts[[k for k, _ in tables.pirate_caps]] = have
        short = pirate_shortfalls(tables, counts).tolist()
        beaten = tables.beaten[have, extra] = _bits([s <= extra for s in short])
    odds = []
    for cards in tables.pirate_strength_bits:
        count = (possible & cards).bit_count()
        odds.append((beaten & possible & cards).bit_count() / count if count else 0.0)
    return np.array(odds, np.float32)


def pirate_weights(tables, possible) -> tuple[np.ndarray, list[float]]:
    """(per pirate card, its strength one-hot if it is possible; the count per strength)
    for ``possible``, one flag per pirate card in ``tables.pirate_id_list`` order."""
    weights = tables.pirate_strength_hot * np.array(possible, np.float64)[:, None]
    return weights, weights.sum(0).tolist()


def pirate_shortfalls(tables, have) -> np.ndarray:
    """Per pirate card, the assets a ship with ``have`` (count per kind) lacks for it."""
    return np.maximum(tables.pirate_needs - have, 0).sum(1)


def encounter_outlook(tables, short, extra: int, possible, strength: int, coins: int,
                      has_cargo: bool, penalty: int) -> np.ndarray:
    """encounter_outlook from the shortfalls per pirate card, the stand-ins, which cards
    are ``possible`` (one flag per card of ``tables.pirate_id_list``), the strength on the
    back, your coins and cargo, and the rules' coin penalty."""
    meet = np.array(possible, bool) & (tables.pirate_strength == strength)
    count = int(meet.sum())
    beaten = meet & (short <= extra)
    share = beaten.sum() / count if count else 0.0
    reward = tables.pirate_reward[beaten].sum() / count / 10 if count else 0.0
    return np.array([share, reward, (min(penalty, coins) + has_cargo) / 3], np.float32)


def pirate_odds(short, extra: int, weights, counts) -> np.ndarray:
    """pirate_odds from the shortfalls, the stand-ins (parrot, wild monkeys) and
    ``pirate_weights``: the share per strength of possible cards with shortfall <= extra."""
    wins = np.dot(short <= extra, weights).tolist()
    return np.array([w / c if c else 0.0 for w, c in zip(wins, counts)], np.float32)


def cargo_value(cards, cargo, contracts) -> int | None:
    """The value of ``cargo`` (units per colour) given ``contracts`` (card ids): its units
    plus the best net gain (coins less the cargo paid) of a set of the contracts that it
    pays for together (trade_outlook); None if a count is negative."""
    if min(cargo) < 0:
        return None
    best = 0
    for r in range(1, len(contracts) + 1):
        for chosen in combinations(contracts, r):
            need = [0] * NUM_COLOURS
            gain = 0
            for c in chosen:
                card = cards[c]
                for colour in card.needs:
                    need[colour] += 1
                gain += card.coins - len(card.needs)
            if gain > best and all(map(le, need, cargo)):
                best = gain
    return sum(cargo) + best


def trade_outlook(cards, card_id: int, cargo, fronts) -> np.ndarray:
    """trade_outlook of resolving trade or contract ``card_id`` with ``cargo`` (units per
    colour) while the round's unrevealed cards are ``fronts`` (ids; None: hidden)."""
    card = cards[card_id]
    after = list(cargo)
    for colour in card.needs:
        after[colour] -= 1
    for colour in card.cargo:
        after[colour] += 1
    contracts = [c for c in fronts or () if cards[c].type == CONTRACT]
    value_after = cargo_value(cards, after, contracts)
    if value_after is None:             # it cannot pay: nothing to weigh
        return np.zeros(3, np.float32)
    gain = card.coins + value_after - cargo_value(cards, cargo, contracts)
    return np.array([max(gain, 0) / 10, max(-gain, 0) / 10, gain >= 0], np.float32)


def _encode_public(game, tables, view) -> np.ndarray:
    """The public part in absolute seat order (seat 0 first), as an outsider sees it.

    Incremental: consecutive public views differ in a few fields, so the vector is the
    last one this game encoded (``game._obs_cache``, rewritten in place: observations are
    copies of it) and only the fields that differ from that view's are rewritten, each by
    its writer in ``_WRITERS``. Writers compare content, never identity, so any two views
    of any states will do."""
    prev = game._obs_cache
    game._obs_cache = None              # until the vector matches the new view again
    if prev is None:
        obs = np.zeros(game._obs_size, np.float32)
        old = None
        changed = _WRITERS
    else:
        old, obs = prev
        changed = map(_WRITERS.__getitem__, compress(_FIELD_INDEX, map(ne, view, old)))
    # a writer covers one field or a group of them: each runs at most once
    for write in dict.fromkeys(changed):
        if write is not None:
            write(game, tables, obs, old, view)
    return obs


def _hot(positions):
    """The writer of a field shown as ones at ``positions(start, view)``: it clears the
    old ones that went and sets the new ones that came."""
    def write(game, tables, obs, old, new):
        st = game._obs_start
        now = set(positions(st, new))
        if old is not None:
            was = set(positions(st, old))
            for i in was - now:
                obs[i] = 0
            now -= was
        for i in now:
            obs[i] = 1
    return write


def _counts(field, scale, cap=None):
    """The writer of counts (per seat or per colour) shown as ``min(count, cap) / scale``."""
    def write(game, tables, obs, old, new):
        s0 = game._obs_start[field]
        values = getattr(new, field)
        if cap is not None:
            values = [min(v, cap) for v in values]
        obs[s0:s0 + len(values)] = [v / scale for v in values]
    return write


def _scalar(field, scale):
    """The writer of a table-wide count shown as ``count / scale``."""
    def write(game, tables, obs, old, new):
        obs[game._obs_start[field]] = getattr(new, field) / scale
    return write


def _write_pile_up(game, tables, obs, old, new):
    """pile_up (face-up tiles per kind / 9) and, right after it, pile_up_starfish (/ 2)."""
    pu = new.pile_up
    plain, star = pu[0::2], pu[1::2]          # per kind: looks without / with starfish
    s0 = game._obs_start["pile_up"]
    obs[s0:s0 + 2 * NUM_KINDS] = [(a + b) / 9 for a, b in zip(plain, star)] \
        + [b / 2 for b in star]


def _write_hands(game, tables, obs, old, new):
    """The hands that changed, as others see them (one's own tile is added by ``encode``)."""
    s0 = game._obs_start["hands"]
    for q, code in enumerate(new.hands):
        if old is None or code != old.hands[q]:
            obs[s0 + q * HF:s0 + (q + 1) * HF] = tables.hand[code]


def _write_full(game, tables, obs, old, new):
    s0 = game._obs_start["full"]
    obs[s0:s0 + len(new.full)] = new.full


def _write_ships(game, tables, obs, old, new):
    """The ships that changed: above-deck rows, cargo held, assets seen, unknown tiles
    and below deck, one gather-write each."""
    seat_idx = game._obs_seat_idx
    above, stor, below = new.above, new.above_storage, new.below
    for q in range(new.num_players):
        if old is None or above[q] != old.above[q] or stor[q] != old.above_storage[q] \
                or below[q] != old.below[q]:
            obs[seat_idx[q]] = _ship_block(tables, above[q], stor[q], below[q])


def _write_fronts(game, tables, obs, old, new):
    """fronts_visible and, while the fronts are shown, the round's unrevealed cards:
    round_cards (by card id), round_asset_needs and round_cargo_needs."""
    st = game._obs_start
    obs[st["fronts_visible"]] = new.fronts is not None
    s0 = st["round_cards"]
    obs[s0:st["round_cargo_needs"] + NUM_COLOURS] = 0
    if new.fronts:
        ids = list(new.fronts)
        obs[s0:s0 + len(ids) * CF] = tables.cards[ids].ravel()
        s0 = st["round_asset_needs"]
        obs[s0:s0 + NUM_KINDS] = tables.card_asset_needs[ids].sum(0) / 8
        s0 = st["round_cargo_needs"]
        obs[s0:s0 + NUM_COLOURS] = tables.card_cargo_needs[ids].sum(0) / 8


def _write_current(game, tables, obs, old, new):
    s0 = game._obs_start["current_card"]
    obs[s0:s0 + CF] = tables.cards[new.current] if new.current >= 0 else 0


def _write_backs_left(game, tables, obs, old, new):
    s0 = game._obs_start["backs_left"]
    obs[s0:s0 + NUM_BACKS] = np.asarray(new.backs_left, np.float32) / 13


def _write_queue(game, tables, obs, old, new):
    """queue (contracts per featured colour / 13, added up in float32) and queue_next."""
    st = game._obs_start
    s0, s1 = st["queue"], st["queue_next"]
    obs[s0:s0 + NUM_COLOURS] = 0
    obs[s1:s1 + NUM_COLOURS] = 0
    if new.queue:
        step = np.float32(1 / 13)    # float32 + float32 on every numpy (1.x promoted to double)
        for c in new.queue:
            obs[s0 + c] += step
        obs[s1 + new.queue[0]] = 1


def _encounter_hot(st, view):
    s0 = st["encounter"]
    return [s0 + 2 * q + (0 if e == 1 else 1) for q, e in enumerate(view.encounter)
            if e >= 0]


def _outcome_hot(st, view):
    s0 = st["outcome"]
    return [s0 + NUM_OUTCOMES * q + o for q, o in enumerate(view.outcome)]


def _flags_hot(field):
    """Positions of a per-seat flag field's seats that are set."""
    def positions(st, view):
        s0 = st[field]
        return [s0 + q for q, flag in enumerate(getattr(view, field)) if flag]
    return positions


#: per PublicView field, the writer of its part of the observation (None: not shown,
#: or shown by encode() for the observer alone)
_FIELD_WRITERS = {
    "round": _hot(lambda st, v: (st["round"] + v.round - 1,)),
    "phase": _hot(lambda st, v: (st["phase"] + v.phase,)),
    "acting": _hot(lambda st, v: [st["acting"] + q for q in v.acting]),
    "captain": _hot(lambda st, v: (st["captain_called"], st["captain"] + v.captain)
                    if v.captain >= 0 else ()),
    "above": _write_ships, "above_storage": _write_ships, "below": _write_ships,
    "hands": _write_hands,
    "coins": _counts("coins", 10),
    "chests": _counts("chests", 8),
    "parrots": _counts("parrots", 1),
    "meddlesome": _hot(_flags_hot("meddlesome")),
    "pile_up": _write_pile_up,
    "pile_down": _scalar("pile_down", 84),
    "supply": _counts("supply", 16),
    "chest_supply": _scalar("chest_supply", 18),
    "parrot_supply": _scalar("parrot_supply", 3),
    "fronts": _write_fronts,
    "backs_left": _write_backs_left,
    "queue": _write_queue,
    "current": _write_current,
    "current_back": _hot(lambda st, v: (st["current_back"] + v.current_back,)
                         if v.current_back >= 0 else ()),
    "used": _hot(lambda st, v: [st["used"] + c for c in v.used]),
    "encounter": _hot(_encounter_hot),
    "outcome": _hot(_outcome_hot),
    "decided": _hot(_flags_hot("decided")),
    "cargo_queue": _hot(lambda st, v: (st["unit"] + v.cargo_queue[0][1],)
                        if v.cargo_queue else ()),
    "unit_colour": _hot(lambda st, v: (st["unit_colour"] + v.unit_colour,)
                        if v.unit_colour >= 0 else ()),
    "full": _write_full,
    "returns": _counts("returns", RETURNS_SCALE, RETURNS_CAP),
}
if not set(_FIELD_WRITERS) <= set(PublicView._fields):
    raise ImportError("_FIELD_WRITERS names a field PublicView does not have")
_WRITERS = tuple(_FIELD_WRITERS.get(name) for name in PublicView._fields)
_FIELD_INDEX = range(len(PublicView._fields))


def _ship_block(tables, above, stor, below) -> np.ndarray:
    """Everything one seat's ship contributes to the public part, in ``_obs_seat_idx``
    order: above-deck rows, cargo held, assets seen, unknown tiles, below deck.

    The above-deck part is one gather-sum over ``_SeatTable`` rows (a row per above-deck
    cell and storage unit), the below-deck part the row of its summary, each cached on
    its content (a step seldom changes both); every value is a small multiple of 1/8
    (exact in float32, whatever the order of the sum) except the unknown-tiles count / 12,
    which is looked up from the count."""
    seat = tables.seat
    above_vec = tables.above_parts.get((above, stor))
    if above_vec is None:
        rows = list(map(add, seat.space_offsets, above))
        if any(stor):
            rows += [seat.storage + s * NUM_COLOURS + c
                     for s, colours in enumerate(stor) for c in colours]
        # bounded: ships seldom repeat late on
        above_vec = remember(tables.above_parts, (above, stor),
                             np.add.reduce(seat.table.take(rows, 0)))
    below_vec = tables.below_parts.get(below)
    if below_vec is None:
        below_vec = remember(tables.below_parts, below, seat.below_vector(below))
    values = above_vec + below_vec
    values[seat.unknown] = seat.unknown_value[above.count(CELL_UNKNOWN) + below.unknown]
    return values


class _SeatTable:
    """Rows whose sum is one seat's ship block (``_ship_block``): the block's values are
    linear in the ship's above-deck cells and storage units, so each of those has a
    precomputed row with everything it adds (its own one-hot features and its share of
    cargo held and assets seen)."""

    def __init__(self, tables: _Tables):
        self.cargo_at = NUM_ABOVE * SF
        self.assets_at = self.cargo_at + NUM_COLOURS
        self.unknown = self.assets_at + NUM_KINDS
        self.below_at = self.unknown + 1
        width = self.below_at + BF
        self.storage = NUM_ABOVE * NUM_CELLS
        #: the row of above-deck space s holding cell code c is space_offsets[s] + c
        self.space_offsets = tuple(s * NUM_CELLS for s in range(NUM_ABOVE))
        table = np.zeros((self.storage + NUM_ABOVE * NUM_COLOURS, width), np.float32)
        for s in range(NUM_ABOVE):
            for c in range(NUM_CELLS):
                row = table[s * NUM_CELLS + c]
                row[s * SF:(s + 1) * SF] = tables.cell[c]
                if CELL_CARGO <= c < CELL_CARGO + NUM_COLOURS:
                    row[self.cargo_at + c - CELL_CARGO] = 1 / 8
                kind = tables.cell_kind[c]
                if kind >= 0:
                    row[self.assets_at + kind] = 1 / 4
            for colour in range(NUM_COLOURS):
                row = table[self.storage + s * NUM_COLOURS + colour]
                row[s * SF + 18 + colour] = 0.5       # storage counts / 2
                row[self.cargo_at + colour] = 1 / 8
        self.table = table
        # unknown tiles (above and below deck) / 12, as float32 divides it
        self.unknown_value = np.arange(2 * NUM_SPACES, dtype=np.float32) / np.float32(12)

    def below_vector(self, below) -> np.ndarray:
        """A below-deck summary's part of the block: its below_deck features (tiles per
        kind, starfish tiles and unseen tiles / 4, cargo / 8) and its share of cargo held
        and assets seen (its unknown tiles go into the count). Exact quotients."""
        plain, star = below.looks[0::2], below.looks[1::2]   # per kind, without / with
        tiles = [(a + b) / 4 for a, b in zip(plain, star)]
        cargo = [c / 8 for c in below.cargo]
        vec = np.zeros(self.table.shape[1], np.float32)
        vec[self.below_at:] = tiles + [sum(star) / 4, below.unknown / 4] + cargo
        vec[self.cargo_at:self.cargo_at + NUM_COLOURS] = cargo
        vec[self.assets_at:self.assets_at + NUM_KINDS] = tiles
        return vec


def compiled_params(game, module) -> tuple:
    """The constructor arguments of the compiled encoder ``module.Encoder`` (``_cencode.c``)
    for ``game``: everything it needs besides the view, computed here from the layout and
    the components (the C code hard-codes no offset). Built from a throwaway ``_Tables``,
    so the rows are the Python encoder's own; nothing is kept on the game."""
    tables = _Tables(game)
    layout = game.layout
    fields = tuple((layout.slice(name).start, layout.slice(name).stop - layout.slice(name).start)
                   for name in module.LAYOUT_FIELDS)
    round_cards = layout.slice("round_cards")
    dims = (NUM_PHASES, NUM_SPACES, NUM_ABOVE, NUM_KINDS, NUM_COLOURS, NUM_BACKS, NUM_CELLS,
            SF, HF, CF, BF, NUM_OUTCOMES, SPACE_FEATURES.index(f"{COLOURS[0]} on storage"),
            (round_cards.stop - round_cards.start) // CF)
    cell_cargo = [-1] * NUM_CELLS
    for c in range(NUM_COLOURS):
        cell_cargo[CELL_CARGO + c] = c
    pirates = [c for c in game.cards if c.type == PIRATES]
    rules = (int(game.rough_seas), game.comp.pirate_penalty_coins, ENCOUNTER,
             BACKS.index("pirates 1"), RETURNS_SCALE, RETURNS_CAP, DECIDE, TRADE, CONTRACT)
    card_trade = []          # per card: type, coins, cargo given per colour
    for card in game.cards:
        card_trade += [card.type, card.coins] + [card.cargo.count(c)
                                                 for c in range(NUM_COLOURS)]
    return (dims, game.num_players, layout.size, fields,
            tables.cards.ravel().tolist(),
            tables.card_asset_needs.astype(int).ravel().tolist(),
            tables.card_cargo_needs.astype(int).ravel().tolist(), card_trade,
            tables.cell.ravel().tolist(), tables.hand.ravel().tolist(),
            tables.cell_kind.tolist(), cell_cargo, (CELL_UNKNOWN, CELL_TILE),
            tables.pirate_id_list, [c.strength for c in pirates],
            tables.pirate_needs.astype(int).ravel().tolist(),
            tables.pirate_reward.astype(int).tolist(), rules)
