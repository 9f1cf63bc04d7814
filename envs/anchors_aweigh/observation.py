"""Observation layout and encoder of Anchors Aweigh! (reads only the player's view).

Per-seat blocks are in *relative* seat order: entry 0 is the observing player, entry r the
player r seats to the left (clockwise). Counts are scaled to about 0..1 (see each field).
"""

from __future__ import annotations

import numpy as np

from plunder.envs.core.layout import LayoutBuilder, ObservationLayout

from .components import (
    ABOVE, BACKS, CARD_TYPES, COLOURS, KINDS, NUM_BACKS, NUM_COLOURS, NUM_KINDS, NUM_SPACES,
    PIRATES,
)
from .engine import ENCOUNTER
from .view import CELL_CARGO, CELL_CHEST, CELL_EMPTY, CELL_TILE, CELL_UNKNOWN, NUM_CELLS

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
    b.add("round_asset_needs", NUM_KINDS, "tiles per kind (cannon..monkey) needed by all "
          "unrevealed visible cards / 8 (storage and monkey: always 0, no card needs them)",
          high=8)
    b.add("round_cargo_needs", NUM_COLOURS, "cargo per colour needed by all unrevealed "
          "visible cards / 8", high=8)
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
          "not looked at yet)")
    b.add("pirate_odds", 3, "per pirate strength 1..3: the share of the pirate cards of that "
          "strength you may still meet (this round's unrevealed fronts while you see them, "
          "else every pirate card not yet used) whose needs your ship meets now, the parrot "
          "and wild monkeys counted; 0 when there are none")
    b.add("encounter_outlook", 3, "only while you are asked to encounter or flee pirates "
          "(zeros otherwise), over the pirate cards of the back's strength you may meet (as "
          "pirate_odds): the share your ship resolves now; their mean reward, coins plus "
          "cargo units, counting 0 for those it cannot resolve, / 10; what a failed "
          "encounter costs you (the coin penalty you can pay, plus 1 if you hold cargo) / 3")
    return b.build()


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
        self.cards = cards
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
        self.pirate_kinds = np.flatnonzero(self.pirate_needs.sum(0))
        self.pirate_caps = [int(c) for c in self.pirate_needs.max(0)[self.pirate_kinds]]
        self.card_asset_needs = np.zeros((len(game.cards), NUM_KINDS), np.float32)
        self.card_cargo_needs = np.zeros((len(game.cards), NUM_COLOURS), np.float32)
        for card in game.cards:
            for x in card.needs:
                if card.needs_assets:
                    self.card_asset_needs[card.index, x] += 1
                else:
                    self.card_cargo_needs[card.index, x] += 1
        # looks (kind * 2 + starfish) to the below_deck tile features, counts / 4
        self.below_looks = np.zeros((2 * NUM_KINDS, NUM_KINDS + 1), np.float32)
        for lk in range(2 * NUM_KINDS):
            self.below_looks[lk, lk // 2] = 0.25
            self.below_looks[lk, NUM_KINDS] = 0.25 * (lk % 2)
        self.below_rows: dict = {}     # BelowDeck -> its row of _SeatTable
        self.cell_kind = np.full(NUM_CELLS, -1)
        for lk in range(2 * NUM_KINDS):
            self.cell_kind[CELL_TILE + lk] = lk // 2
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
    game._obs_memo_cards = None
    game._obs_memo_ships = None
    a0 = start["current_card"]
    a1 = layout.slice("used").stop
    b0 = start["ships"]
    b1 = layout.slice("below_deck").stop
    names = layout.names()
    assert names[names.index("current_card"):names.index("used") + 1] == [
        "current_card", "current_back", "round_cards", "round_asset_needs",
        "round_cargo_needs", "backs_left", "queue", "queue_next", "used"]
    assert names[names.index("ships"):names.index("below_deck") + 1] == [
        "ships", "hands", "full", "cargo_held", "assets_seen", "unknown_tiles", "below_deck"]
    game._obs_segments = (a0, a1, b0, b1)
    # positions (within the ship block) of everything one seat contributes, in the order
    # that _seat_block lays its values out: one gather-write per seat that changed
    seat_idx = []
    for q in range(n):
        parts = []
        for name, w in (("ships", NUM_ABOVE * SF), ("hands", HF), ("full", 1),
                        ("cargo_held", NUM_COLOURS), ("assets_seen", NUM_KINDS),
                        ("unknown_tiles", 1), ("below_deck", BF)):
            stride = PER_SEAT[name]
            s0 = start[name] - b0 + q * stride
            parts.append(np.arange(s0, s0 + w))
        seat_idx.append(np.concatenate(parts))
    game._obs_seat_idx = seat_idx
    game._obs_memo_seat_blocks = [None] * n
    game._obs_memo_own = [None] * n
    game._obs_memo_pirates = None
    game._obs_memo_odds = [None] * n
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
    obs = base.take(game._obs_perms[me])     # rotated to relative seat order
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
    if hit is not None and hit[0] == key:
        rows, assets = hit[1]
    else:
        rows, sums = _ship_rows(tables, view.own_ship, view.own_storage)
        assets = sums[3:13] / 4
        memo[me] = (key, (rows, assets))
    s0 = st["ships"]
    obs[s0:s0 + NUM_SPACES * SF] = rows
    s0 = st["assets_seen"]
    obs[s0:s0 + NUM_KINDS] = assets
    obs[st["unknown_tiles"]] = 0
    look = view.own_hand - CELL_TILE          # kind * 2 + starfish, for a tile in hand
    if 0 <= look < 2 * NUM_KINDS:
        obs[st["held_kind"] + look // 2] = 1
    s0 = st["pirate_odds"]
    obs[s0:s0 + 3] = _pirate_odds(game, tables, view, assets)
    if pub.phase == ENCOUNTER and me in pub.acting:
        # _pirate_odds just memoised this view's stand-ins and possible pirate cards
        c0 = st["cargo_held"]                  # relative seat 0: your own
        s0 = st["encounter_outlook"]
        obs[s0:s0 + 3] = encounter_outlook(
            tables, pirate_shortfalls(tables, assets * 4), game._obs_memo_odds[me][1],
            game._obs_memo_pirates[1], pub.current_back - BACKS.index("pirates 1") + 1,
            pub.coins[me], bool(obs[c0:c0 + NUM_COLOURS].any()),
            game.comp.pirate_penalty_coins)
    secret = view.own_secret
    if any(secret):
        s0 = st["own_secret"]
        obs[s0:s0 + NUM_SPACES + 1] = secret
        if secret[NUM_SPACES]:
            h0 = st["hands"]
            obs[h0:h0 + HF] = tables.hand[view.own_hand]
    return obs


def _pirate_odds(game, tables, view, assets) -> np.ndarray:
    """pirate_odds: per strength, the share of the pirate cards still possible (as far as
    the player knows) that its ship could resolve now. Which cards are possible is public
    and memoised per game with a cache of odds keyed on what they depend on: the counts of
    the kinds pirates need (capped at the most any card needs) and the stand-ins."""
    pub = view.pub
    extra = int(pub.parrots[view.player] > 0)
    if game.rough_seas:
        extra += int(assets[NUM_KINDS - 1] * 4)
    known = pub.fronts if pub.fronts is not None else (pub.used, pub.current)
    memo = game._obs_memo_pirates      # (known, possible flags, weights, counts, cache)
    if memo is None or memo[0] != known:
        if pub.fronts is not None:
            possible = tuple([c in known for c in tables.pirate_id_list])
        else:
            gone = set(pub.used) | {pub.current}
            possible = tuple([c not in gone for c in tables.pirate_id_list])
        if memo is not None and memo[1] == possible:     # most cards are no pirates
            memo = (known,) + memo[1:]
        else:
            memo = (known, possible) + pirate_weights(tables, possible) + ({},)
        game._obs_memo_pirates = memo
    last = game._obs_memo_odds[view.player]          # same ship, same cards: as before
    if last is not None and last[0] is assets and last[1] == extra and last[2] is memo[4]:
        return last[3]
    have = (assets * 4).take(tables.pirate_kinds).tolist()
    key = (tuple(map(min, have, tables.pirate_caps)), extra)
    odds = memo[4].get(key)
    if odds is None:
        # per pirate card, the assets the ship lacks (small integers, exact in float32)
        short = pirate_shortfalls(tables, assets * 4)
        odds = memo[4][key] = pirate_odds(short, extra, memo[2], memo[3])
    game._obs_memo_odds[view.player] = (assets, extra, memo[4], odds)
    return odds


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


def _encode_public(game, tables, view) -> np.ndarray:
    """The public part in absolute seat order (seat 0 first), as an outsider sees it.

    Incremental: consecutive public views differ in a few fields, so the vector starts
    as a copy of the last one this game encoded and each group of fields (table, seats,
    cards, ships) is rewritten only when the view fields it reads changed. Invariant:
    the cached vector holds every group as memoised (both are replaced together)."""
    prev = game._obs_cache
    if prev is None:
        obs = np.zeros(game._obs_size, np.float32)
        game._obs_memo_sparse = {}
        game._obs_memo_cards = game._obs_memo_ships = None
    else:
        obs = prev[1].copy()
    sparse = game._obs_memo_sparse
    stale: list[int] = []               # positions the changed groups wrote last time
    fresh: list[int] = []               # and those they write now, with their values
    values: list[float] = []
    for name, fields, write in _SPARSE_GROUPS:
        key = tuple(map(view.__getattribute__, fields))
        memo = sparse.get(name)
        if memo is not None and memo[0] == key:
            continue
        hot, idx, val = write(game._obs_start, view)
        if memo is not None:
            stale += memo[1]
        fresh += hot + idx
        values += [1.0] * len(hot) + val
        sparse[name] = (key, hot + idx)
    if fresh:                           # two puts: cheaper than four fancy assignments
        if stale:
            obs.put(stale, 0)
        obs.put(fresh, values)

    a0, a1, b0, b1 = game._obs_segments
    key = (view.fronts, view.current, view.current_back, view.backs_left, view.queue,
           view.used)
    memo = game._obs_memo_cards
    if memo is None or memo[0] != key:
        memo = game._obs_memo_cards = (key, _encode_cards(game, tables, view, a0, a1))
        obs[a0:a1] = memo[1]
    key = (view.above, view.above_storage, view.below, view.hands, view.full)
    memo = game._obs_memo_ships
    if memo is None or memo[0] != key:
        memo = game._obs_memo_ships = (key, _encode_ships(game, tables, view, b0, b1,
                                                          memo))
        obs[b0:b1] = memo[1]
    return obs


def _table_entries(st, view):
    """(positions set to 1, other positions, their values) of the table-wide fields."""
    hot = [st["phase"] + view.phase, st["round"] + view.round - 1]
    idx: list[int] = []
    val: list[float] = []
    if view.fronts is not None:
        hot.append(st["fronts_visible"])
    if view.captain >= 0:
        hot.append(st["captain_called"])
        hot.append(st["captain"] + view.captain)
    pu = view.pile_up
    s0, s1 = st["pile_up"], st["pile_up_starfish"]
    for k in range(NUM_KINDS):
        a, b = pu[2 * k], pu[2 * k + 1]
        if a or b:
            idx.append(s0 + k)
            val.append((a + b) / 9)
            if b:
                idx.append(s1 + k)
                val.append(b / 2)
    idx += [st["pile_down"], st["chest_supply"], st["parrot_supply"]]
    val += [view.pile_down / 84, view.chest_supply / 18, view.parrot_supply / 3]
    s0 = st["supply"]
    for c in range(NUM_COLOURS):
        idx.append(s0 + c)
        val.append(view.supply[c] / 16)
    if view.cargo_queue:
        hot.append(st["unit"] + view.cargo_queue[0][1])
    if view.unit_colour >= 0:
        hot.append(st["unit_colour"] + view.unit_colour)
    return hot, idx, val


def _seat_entries(st, view):
    """(positions set to 1, other positions, their values) of the per-seat counters and
    flags (absolute seat order)."""
    n = view.num_players
    hot: list[int] = []
    idx: list[int] = []
    val: list[float] = []
    returns = [min(r, RETURNS_CAP) for r in view.returns]
    for key, values, scale in (("coins", view.coins, 10), ("chests", view.chests, 8),
                               ("parrots", view.parrots, 1), ("returns", returns, RETURNS_SCALE)):
        s0 = st[key]
        for q in range(n):
            if values[q]:
                idx.append(s0 + q)
                val.append(values[q] / scale)
    s0, s1, s2, s3 = st["meddlesome"], st["decided"], st["encounter"], st["outcome"]
    for q in range(n):
        if view.meddlesome[q]:
            hot.append(s0 + q)
        if view.decided[q]:
            hot.append(s1 + q)
        e = view.encounter[q]
        if e >= 0:
            hot.append(s2 + 2 * q + (0 if e == 1 else 1))
        hot.append(s3 + NUM_OUTCOMES * q + view.outcome[q])
    s0 = st["acting"]
    hot += [s0 + q for q in view.acting]
    return hot, idx, val


#: the sparse field groups of the public part: (name, view fields read, writer)
_SPARSE_GROUPS = (
    ("table", ("phase", "round", "fronts", "captain", "pile_up", "pile_down",
               "chest_supply", "parrot_supply", "supply", "cargo_queue", "unit_colour"),
     _table_entries),
    ("seats", ("coins", "chests", "parrots", "returns", "meddlesome", "decided",
               "encounter", "outcome", "acting"), _seat_entries),
)


def _encode_cards(game, tables, view, a0, a1) -> np.ndarray:
    """The card fields (current_card .. used) as one block."""
    st = game._obs_start
    obs = np.zeros(a1 - a0, np.float32)
    if view.current_back >= 0:
        obs[st["current_back"] - a0 + view.current_back] = 1
    s0 = st["backs_left"] - a0
    obs[s0:s0 + NUM_BACKS] = np.asarray(view.backs_left, np.float32) / 13
    if view.queue:
        s0 = st["queue"] - a0
        for c in view.queue:
            obs[s0 + c] += 1 / 13
        obs[st["queue_next"] - a0 + view.queue[0]] = 1
    if view.used:
        obs[st["used"] - a0 + np.asarray(view.used)] = 1
    if view.current >= 0:
        s0 = st["current_card"] - a0
        obs[s0:s0 + CF] = tables.cards[view.current]
    if view.fronts:
        ids = list(view.fronts)
        s0 = st["round_cards"] - a0
        obs[s0:s0 + len(ids) * CF] = tables.cards[ids].ravel()
        s0 = st["round_asset_needs"] - a0
        obs[s0:s0 + NUM_KINDS] = tables.card_asset_needs[ids].sum(0) / 8
        s0 = st["round_cargo_needs"] - a0
        obs[s0:s0 + NUM_COLOURS] = tables.card_cargo_needs[ids].sum(0) / 8
    return obs


def _ship_rows(tables, cells, stor):
    """(features of the given spaces (len(cells) x SF, flat), their column sums)."""
    rows = tables.cell.take(cells, 0)     # take: much cheaper than indexing with a list
    if any(stor):
        for sp, lst in enumerate(stor):
            for c in lst:
                rows[sp, 18 + c] += 0.5
    return rows.ravel(), rows.sum(0)


def _below_row(tables, below) -> np.ndarray:
    """The ``below_deck`` features of one seat's public below-deck summary."""
    row = np.empty(BF, np.float32)
    # tiles per kind and starfish tiles, / 4: one product with a 0/0.25 table
    row[:NUM_KINDS + 1] = np.dot(below.looks, tables.below_looks)
    row[NUM_KINDS + 1] = below.unknown / 4
    row[NUM_KINDS + 2:] = below.cargo
    row[NUM_KINDS + 2:] /= 8
    return row


def _encode_ships(game, tables, view, b0, b1, prev=None) -> np.ndarray:
    """The ship fields (ships .. below_deck) as one block, absolute seat order, as every
    player sees them: above deck space by space, below deck as its summary.

    Incremental: starting from the previous block (``prev``: (key, block) of the last
    public view), only the seats whose ship, hand or below-deck summary changed are
    rewritten (a step changes one or two ships, rarely all)."""
    n = view.num_players
    if prev is None:
        obs = np.zeros(b1 - b0, np.float32)
        changed = range(n)
    else:
        obs = prev[1].copy()
        old = prev[0]
        changed = [q for q in range(n)
                   if view.above[q] != old[0][q] or view.above_storage[q] != old[1][q]
                   or view.below[q] != old[2][q] or view.hands[q] != old[3][q]
                   or view.full[q] != old[4][q]]
    seat_idx = game._obs_seat_idx
    for q in changed:
        obs.put(seat_idx[q], _seat_block(game, tables, view, q))
    return obs


def _seat_block(game, tables, view, q) -> np.ndarray:
    """Everything seat ``q`` contributes to the ship block, in ``_obs_seat_idx`` order:
    above-deck rows, hand, full, cargo held, assets seen, unknown tiles, below deck
    (memoised per seat on exactly those view fields).

    One gather-sum over ``_SeatTable`` rows (a row per above-deck cell, storage unit,
    hand and full flag) plus the cached row of the below-deck summary; every value is a
    small multiple of 1/8 (exact in float32, whatever the order of the sum) except the
    unknown-tiles count / 12, which is looked up from the count."""
    above, stor, below = view.above[q], view.above_storage[q], view.below[q]
    key = (above, stor, below, view.hands[q], view.full[q])
    memo = game._obs_memo_seat_blocks
    hit = memo[q]
    if hit is not None and hit[0] == key:
        return hit[1]
    seat = tables.seat
    rows = [s * NUM_CELLS + c for s, c in enumerate(above)]
    if any(stor):
        rows += [seat.storage + s * NUM_COLOURS + c
                 for s, colours in enumerate(stor) for c in colours]
    rows.append(seat.hand + view.hands[q])
    if view.full[q]:
        rows.append(seat.full)
    below_vec = tables.below_rows.get(below)
    if below_vec is None:
        if len(tables.below_rows) > 4096:   # bounded: summaries seldom repeat late on
            tables.below_rows.clear()
        below_vec = tables.below_rows[below] = seat.below_vector(_below_row(tables, below))
    values = np.add.reduce(seat.table.take(rows, 0))
    values += below_vec
    values[seat.unknown] = seat.unknown_value[above.count(CELL_UNKNOWN) + below.unknown]
    memo[q] = (key, values)
    return values


class _SeatTable:
    """Rows whose sum is one seat's block of the ship fields (``_seat_block``): the
    block's values are linear in the seat's above-deck cells, storage units, hand and
    full flag, so each of those has a precomputed row with everything it adds (its own
    one-hot features and its share of cargo held and assets seen)."""

    def __init__(self, tables: _Tables):
        rows_w = NUM_ABOVE * SF
        self.hand_at, self.full_at = rows_w, rows_w + HF
        self.cargo_at = self.full_at + 1
        self.assets_at = self.cargo_at + NUM_COLOURS
        self.unknown = self.assets_at + NUM_KINDS
        self.below_at = self.unknown + 1
        width = self.below_at + BF
        self.storage = NUM_ABOVE * NUM_CELLS
        self.hand = self.storage + NUM_ABOVE * NUM_COLOURS
        self.full = self.hand + NUM_CELLS
        table = np.zeros((self.full + 1, width), np.float32)
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
        table[self.hand:self.hand + NUM_CELLS, self.hand_at:self.full_at] = tables.hand
        table[self.full, self.full_at] = 1
        self.table = table
        # unknown tiles (above and below deck) / 12, as float32 divides it
        self.unknown_value = np.arange(2 * NUM_SPACES, dtype=np.float32) / np.float32(12)

    def below_vector(self, below_row: np.ndarray) -> np.ndarray:
        """A below-deck summary's contribution to the block: its own features and its
        share of cargo held and assets seen (its unknown tiles go into the count)."""
        vec = np.zeros(self.table.shape[1], np.float32)
        vec[self.below_at:] = below_row
        vec[self.cargo_at:self.cargo_at + NUM_COLOURS] = below_row[NUM_KINDS + 2:]
        vec[self.assets_at:self.assets_at + NUM_KINDS] = below_row[:NUM_KINDS]
        return vec
