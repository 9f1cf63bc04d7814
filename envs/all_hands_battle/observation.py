"""The observation vector of All Hands On Deck: a named layout and ``encode(view)``.

Seats are relative to the viewer: block ``r`` of a per-seat field is the player ``r`` seats
to the viewer's left (``r = 0`` is the viewer). Cards are indexed by card id (``game.cards``;
74 cards, 78 with Prize Crew). Ship slots are in launch order (0-2) per seat.
``encode`` reads nothing but the view.
"""

from __future__ import annotations

import numpy as np

from plunder.envs.core.layout import LayoutBuilder
from plunder.envs.core.memo import remember

from .components import ADMIRAL, CAPTAIN, NO_SUIT
from .engine import BATTLE, CLAIM, DECISIONS, OVER, RECRUIT
from .view import AllHandsBattleView

PHASES = (RECRUIT, BATTLE, OVER)
ROUND_SCALE = 50


def build_layout(game):
    """The layout for this game's player count and card table."""
    C = game.num_cards
    n = game.num_players
    S = game.components.ships_per_fleet
    per_ship = n * S
    top = 1.0 + 600.0 / game.target_score
    b = LayoutBuilder()
    b.add("decision", len(DECISIONS), "current decision, one-hot: turn (launch or discard), "
          "crew, discard, claim, select (battle ship), aim (battle target), over")
    b.add("my_decision", 1, "1 if the viewer must decide now")
    b.add("phase", len(PHASES), "phase one-hot: recruit, battle, over")
    b.add("acting_seat", n, "relative seat that must decide now, one-hot")
    b.add("turn_seat", n, "relative seat whose recruiting/battle turn it is, one-hot")
    b.add("starter", n, "relative seat that began this round, one-hot")
    b.add("hand", C, "cards in the viewer's hand")
    b.add("hand_sizes", n, "cards in hand per relative seat / 13")
    b.add("reserved", n * C, "per relative seat: the card it reserved with Aargh! (one-hot)")
    b.add("known_with", n * C, "per relative seat: claimed cards it picked up and has not "
          "shown since (in its hand or face-down crews)")
    b.add("discard_pile", C, "cards in the discard pile")
    b.add("discard_top", C, "top card of the discard pile (the one offered to Aargh!)")
    # derived: what claiming the top discard would do, evaluated from your hand
    b.add("claim_outlook", 5, "only while the viewer is asked Aargh! (zeros otherwise): it "
          "can launch a ship from its hand; it could with the top discard; the best ship's "
          "launch value (ShipRules.launch_value) / 50 from its hand, and with the top "
          "discard (capped at 2); the top discard is part of that best ship", high=2.0,
          derived=True)
    b.add("draw_pile_size", 1, "cards in the draw pile / card count")
    b.add("pile_candidates", C, "cards that may be in the draw pile as far as the viewer "
          "knows (after a reshuffle: only that reshuffle's unplaced cards)")
    b.add("unseen", C, "cards whose place the viewer does not know")
    b.add("ship_launched", per_ship, "per relative seat and ship slot: launched")
    b.add("ship_suit", per_ship * 5, "shipmaster suit one-hot: navy, merchant, pirate, "
          "raider, privateer")
    b.add("ship_rank", per_ship * 3, "shipmaster one-hot: admiral, captain, privateer")
    b.add("ship_in_play", per_ship, "ship has not fought yet")
    b.add("ship_keeper", per_ship * (n + 1), "relative seat that scores the ship, one-hot; "
          "last entry = sunk")
    b.add("ship_crew_count", per_ship, "crew cards aboard / 3 (fewer after a raid)")
    b.add("ship_crew_known", per_ship, "the viewer knows this crew (own, revealed or spied)")
    b.add("ship_crew", per_ship * C, "the crew cards, where known")
    b.add("ship_revealed", per_ship, "crew revealed to all in a battle")
    b.add("ship_spied", per_ship, "the viewer's Spy has looked at this crew")
    b.add("ship_spied_by_other", per_ship, "another player's Spy has looked at this crew")
    b.add("plunder_cards", C, "treasure taken in raids (any seat)")
    b.add("plunder_value", n, "treasure points taken in raids per relative seat / 100",
          high=2.0)
    b.add("launch_master", C, "shipmaster of the ship being launched now (public)")
    b.add("launch_crew", C, "crew placed so far in the viewer's own launch")
    b.add("launch_count", 1, "crew cards placed so far in the current launch / 3")
    b.add("launched", 1, "the turn player has launched a ship this turn")
    b.add("claim_queue", n, "relative seats still to be asked about the top discard")
    b.add("first_fleet", n + 1, "relative seat that launched the fleet first; last = nobody")
    b.add("last_turns", n, "relative seats still to take their last recruiting turn")
    b.add("passed", n, "relative seats that passed in this round's battles")
    b.add("forced", 1, "the first fleet's compulsory attacks are under way")
    b.add("selected", S, "attacking ship slot chosen by the turn player, one-hot")
    b.add("spies_used", 1, "Spy looks taken by the selected ship this turn / 2")
    b.add("totals", n, "running score per relative seat / target_score", high=top)
    b.add("last_round", n, "previous round's score per relative seat / 100", high=6.0)
    b.add("round", 1, f"round number / {ROUND_SCALE} (capped at 1)")
    return b.build()


class _Offsets:
    """Start index of every field (computed once per game)."""

    def __init__(self, layout):
        for name in layout.names():
            setattr(self, name, layout.slice(name).start)


_TABLE_CACHE_MAX = 512          # memoised table blocks per game (cleared when full)
_RESH_CACHE_MAX = 256
_CLAIM_CACHE_MAX = 1024


def _tables(game):
    """Per-card lookup arrays and memo caches used by ``encode`` (created once per game)."""
    t = game.__dict__.get("_obs_tables")
    if t is None:
        cards = game.cards
        suit = [4 if c.suit == NO_SUIT else c.suit for c in cards]
        rank = [0 if c.kind == ADMIRAL else 1 if c.kind == CAPTAIN else 2 for c in cards]
        value = [c.value for c in cards]
        t = game._obs_tables = (_Offsets(game.layout), suit, rank, value, {}, {}, {})
    return t


def claim_outlook(rules, hand, card: int) -> tuple[float, ...]:
    """The ``claim_outlook`` entries for ``hand`` offered ``card`` (see the layout): what
    claiming it would do to the best ship the hand can launch."""
    # the best ship per shipmaster of hand + card, in rules.best_launch's order (ties go
    # to the first); a master's best ship without the card is the same one unless that
    # one holds the card
    held = rules.card_mask(hand)
    full = held | rules.bit[card]
    after, before = None, None
    for m in (*hand, card):
        if not rules.is_master[m]:
            continue
        ship = rules.best_ship(m, full)
        if ship is None:
            continue
        if after is None or ship[0] > after[0]:
            after = (ship[0], m, ship[1])
        if m != card:
            if card in ship[1]:
                ship = rules.best_ship(m, held)
            if ship is not None and (before is None or ship[0] > before):
                before = ship[0]
    return (float(before is not None), float(after is not None),
            min(before / 50.0, 2.0) if before is not None else 0.0,
            min(after[0] / 50.0, 2.0) if after else 0.0,
            float(after is not None and (card == after[1] or card in after[2])))


def _table_block(game, view, o, suit, rank, value):
    """The slowly changing part of the observation (a pure function of the view fields in
    the cache key of ``encode``): the vector with those fields set, the cards they place
    and the complement of the claimed cards taken into hand."""
    C = game.num_cards
    n = view.num_players
    p = view.player
    S = game.components.ships_per_fleet
    target = game.target_score
    top = 1.0 + 600.0 / target
    x = np.zeros(game.layout.size, dtype=np.float32)
    ones = [o.starter + (view.starter - p) % n,
            o.first_fleet + (n if view.first_fleet < 0 else (view.first_fleet - p) % n)]
    vi, vv = [o.round], [min(view.round / ROUND_SCALE, 1.0)]
    located = []
    plunder, all_ships = view.plunder, view.ships
    last_round, totals, passed = view.last_round, view.totals, view.passed
    o_pc = o.plunder_cards
    o_sl, o_ss, o_sr, o_sp = o.ship_launched, o.ship_suit, o.ship_rank, o.ship_in_play
    o_sk, o_scc, o_sck, o_sc = o.ship_keeper, o.ship_crew_count, o.ship_crew_known, o.ship_crew
    o_srv, o_ssp = o.ship_revealed, o.ship_spied
    for q in range(n):
        r = (q - p) % n
        vi.append(o.totals + r)
        vv.append(min(totals[q] / target, top))
        if last_round:
            vi.append(o.last_round + r)
            vv.append(min(last_round[q] / 100.0, 6.0))
        pl = plunder[q]
        if pl:
            located.extend(pl)
            ones.extend([o_pc + c for c in pl])
            pv = sum([value[c] for c in pl])
            vi.append(o.plunder_value + r)
            vv.append(min(pv / 100.0, 2.0))
        k = r * S
        for master, in_play, keeper, crew_count, crew, revealed, spied in all_ships[q]:
            located.append(master)
            ones.append(o_sl + k)
            ones.append(o_ss + k * 5 + suit[master])
            ones.append(o_sr + k * 3 + rank[master])
            if in_play:
                ones.append(o_sp + k)
            ones.append(o_sk + k * (n + 1) + (n if keeper < 0 else (keeper - p) % n))
            vi.append(o_scc + k)
            vv.append(crew_count / 3.0)
            if crew is not None:
                ones.append(o_sck + k)
                base = o_sc + k * C
                located.extend(crew)
                ones.extend([base + c for c in crew])
            if revealed:
                ones.append(o_srv + k)
            if spied:
                ones.append(o_ssp + k)
            k += 1
        if passed[q]:
            ones.append(o.passed + r)
    for s_, q, j in view.spied:
        if s_ != p:
            ones.append(o.ship_spied_by_other + ((q - p) % n) * S + j)
    x[ones] = 1
    x[vi] = vv
    loc = np.zeros(C, dtype=bool)
    loc[located] = True
    return x, loc


def encode(game, view: AllHandsBattleView) -> np.ndarray:
    """The observation vector of ``view`` (reads nothing but the view)."""
    o, suit, rank, value, cache, resh_cache, claim_cache = _tables(game)
    (p, n, round_, starter, totals, last_round, phase, decision, actor, turn_player, hand,
     hand_sizes, reserved, known_with, discard, deck_size, reshuffled, ships, plunder,
     launch_master, launch_crew, launch_count, launched, claim_queue, first_fleet,
     last_turns, passed, forced, selected, spies_used, spied, _events, _turns) = view
    key = (p, round_, starter, totals, last_round, ships, plunder, first_fleet, passed, spied)
    block = cache.get(key)
    if block is None:
        block = remember(cache, key, _table_block(game, view, o, suit, rank, value),
                         _TABLE_CACHE_MAX)
    xa, loca = block
    x = xa.copy()
    C = game.num_cards
    ones = [o.decision + _DECISION_INDEX[decision], o.phase + _PHASE_INDEX[phase]]
    if actor >= 0:
        ones.append(o.acting_seat + (actor - p) % n)
        if actor == p:
            ones.append(o.my_decision)
    if turn_player >= 0:
        ones.append(o.turn_seat + (turn_player - p) % n)
    base = o.hand
    ones.extend([base + c for c in hand])
    located = list(hand)
    tied = []
    o_res, o_kw = o.reserved, o.known_with
    for r in range(n):                       # seats in order from the viewer
        q = (p + r) % n
        card = reserved[q]
        if card >= 0:
            ones.append(o_res + r * C + card)
            located.append(card)
        kw = known_with[q]
        if kw:
            base = o_kw + r * C
            for c in kw:                     # (few: a loop beats a comprehension)
                ones.append(base + c)
            tied.extend(kw)
    for q in claim_queue:
        ones.append(o.claim_queue + (q - p) % n)
    for q in last_turns:
        ones.append(o.last_turns + (q - p) % n)
    if discard:
        base = o.discard_pile
        located.extend(discard)
        ones.extend([base + c for c in discard])
        ones.append(o.discard_top + discard[-1])
    if launch_master >= 0:
        ones.append(o.launch_master + launch_master)
        located.append(launch_master)
    if launch_crew:
        located.extend(launch_crew)
        base = o.launch_crew
        ones.extend([base + c for c in launch_crew])
    if launched:
        ones.append(o.launched)
    if forced:
        ones.append(o.forced)
    if selected >= 0:
        ones.append(o.selected + selected)
    x[np.array(ones, np.intp)] = 1       # (faster than indexing with the list)
    i = o.hand_sizes
    x[i:i + n] = [h / 13.0 for h in hand_sizes[p:] + hand_sizes[:p]]
    x[o.draw_pile_size] = deck_size / C
    x[o.launch_count] = launch_count / 3.0
    x[o.spies_used] = spies_used / 2.0
    if decision == CLAIM and actor == p and discard:
        key = (hand, discard[-1])
        outlook = claim_cache.get(key)
        if outlook is None:
            outlook = remember(claim_cache, key, claim_outlook(game.rules, hand, discard[-1]),
                               _CLAIM_CACHE_MAX)
        x[o.claim_outlook:o.claim_outlook + 5] = outlook
    loc = loca.copy()
    loc[np.array(located, np.intp)] = True
    unseen = np.logical_not(loc, out=loc)
    x[o.unseen:o.unseen + C] = unseen
    if deck_size:
        if tied:
            unseen[np.array(tied, np.intp)] = False
        if reshuffled:
            resh = resh_cache.get(reshuffled)
            if resh is None:
                resh = np.zeros(C, dtype=bool)
                resh[list(reshuffled)] = True
                remember(resh_cache, reshuffled, resh, _RESH_CACHE_MAX)
            unseen &= resh
        x[o.pile_candidates:o.pile_candidates + C] = unseen
    return x


_DECISION_INDEX = {d: i for i, d in enumerate(DECISIONS)}
_PHASE_INDEX = {ph: i for i, ph in enumerate(PHASES)}


def unseen_cards(game, view: AllHandsBattleView) -> list[int]:
    """Cards whose place ``view.player`` does not know (helper for samplers and tests)."""
    located = set(view.hand) | set(view.discard) | {r for r in view.reserved if r >= 0}
    for x in view.plunder:
        located.update(x)
    for fleet in view.ships:
        for ship in fleet:
            located.add(ship.master)
            if ship.crew is not None:
                located.update(ship.crew)
    if view.launch_master >= 0:
        located.add(view.launch_master)
    located.update(view.launch_crew)
    return [c for c in range(game.num_cards) if c not in located]


def compiled_params(game, module) -> tuple:
    """The constructor arguments of the compiled encoder ``module.Encoder`` (_cencode.c)
    for ``game``: its sizes, the layout blocks as (start, stop) in ``module.LAYOUT_FIELDS``
    order, the per-card tables in ``module.CARD_COLUMNS`` order and the ship rules' crew
    sets per shipmaster in ``module.MASTER_SETS`` order (all computed here, so the C code
    holds no layout offsets or card data of its own)."""
    from .components import BLACK_SPOT, DAUGHTER

    layout, rules = game.layout, game.rules
    C = game.num_cards
    comp = game.components
    columns = {               # suit and rank as in _tables, then ShipRules' tables
        "suit": [4 if c.suit == NO_SUIT else c.suit for c in game.cards],
        "rank": [0 if c.kind == ADMIRAL else 1 if c.kind == CAPTAIN else 2
                 for c in game.cards],
        "value": rules.value, "is_master": rules.is_master,
        "sails": rules.rank, "defend_level": rules._defend_level,
        "ruth_bonus": rules._ruth_bonus, "duelling": rules._duelling, "lady": rules._lady,
        "black_spot": [k == BLACK_SPOT for k in rules.kind],
        "daughter": [k == DAUGHTER for k in rules.kind],
    }

    def cards_of(mask: int) -> tuple[int, ...]:
        return tuple(c for c in range(C) if mask >> c & 1)

    none = ((), ())
    sets = {
        "elig": [tuple(sorted(rules.elig[m] - {m})) if m in rules.elig else ()
                 for m in range(C)],
        "pool": [cards_of(rules._pool[m]) if m in rules._pool else () for m in range(C)],
        "caps": [tuple(sorted(rules.prize_parts.get(m, none)[0])) for m in range(C)],
        "cooks": [tuple(sorted(rules.prize_parts.get(m, none)[1])) for m in range(C)],
    }
    return (game.num_players, comp.ships_per_fleet, comp.crew_per_ship, layout.size,
            game.target_score, 1.0 + 600.0 / game.target_score, ROUND_SCALE,
            tuple((layout.slice(f).start, layout.slice(f).stop) for f in module.LAYOUT_FIELDS),
            DECISIONS, PHASES, CLAIM,
            tuple(tuple(int(v) for v in columns[k]) for k in module.CARD_COLUMNS),
            tuple(tuple(sets[k]) for k in module.MASTER_SETS),
            tuple(int(m in rules.prize_parts) for m in range(C)))

