"""The observation vector of All Hands On Deck: a named layout and ``encode(view)``.

Seats are relative to the viewer: block ``r`` of a per-seat field is the player ``r`` seats
to the viewer's left (``r = 0`` is the viewer). Cards are indexed by card id (``game.cards``;
74 cards, 78 with Prize Crew). Ship slots are in launch order (0-2) per seat.
``encode`` reads nothing but the view.
"""

from __future__ import annotations

import numpy as np

from plunder.envs.core.layout import LayoutBuilder

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


def encode(game, view: AllHandsBattleView) -> np.ndarray:
    """The observation vector of ``view`` (reads nothing but the view)."""
    layout, cards = game.layout, game.cards
    C, S, n, p = game.num_cards, game.components.ships_per_fleet, view.num_players, view.player
    x = np.zeros(layout.size, dtype=np.float32)

    def put(name: str, i: int = 0, value: float = 1.0) -> None:
        x[layout.slice(name).start + i] = value

    def rel(q: int) -> int:
        return (q - p) % n

    located = np.zeros(C, dtype=bool)      # the cards whose place the viewer knows

    def place(name: str, base: int, card_ids) -> None:
        for c in card_ids:
            put(name, base + c)
            located[c] = True

    # whose decision
    put("decision", DECISIONS.index(view.decision))
    put("phase", PHASES.index(view.phase))
    if view.actor >= 0:
        put("acting_seat", rel(view.actor))
        if view.actor == p:
            put("my_decision")
    if view.turn_player >= 0:
        put("turn_seat", rel(view.turn_player))
    put("starter", rel(view.starter))
    # hands, claims and the discard pile
    place("hand", 0, view.hand)
    for q in range(n):
        r = rel(q)
        put("hand_sizes", r, view.hand_sizes[q] / 13.0)
        if view.reserved[q] >= 0:
            place("reserved", r * C, (view.reserved[q],))
        for c in view.known_with[q]:
            put("known_with", r * C + c)
    place("discard_pile", 0, view.discard)
    if view.discard:
        put("discard_top", view.discard[-1])
        if view.decision == CLAIM and view.actor == p:
            sl = layout.slice("claim_outlook")
            x[sl] = claim_outlook(game.rules, view.hand, view.discard[-1])
    put("draw_pile_size", 0, view.deck_size / C)
    # the ships
    for q, fleet in enumerate(view.ships):
        for j, ship in enumerate(fleet):
            k = rel(q) * S + j
            master = cards[ship.master]
            located[ship.master] = True
            put("ship_launched", k)
            put("ship_suit", k * 5 + master.suit)          # NO_SUIT (4) = privateer
            put("ship_rank", k * 3 + {ADMIRAL: 0, CAPTAIN: 1}.get(master.kind, 2))
            if ship.in_play:
                put("ship_in_play", k)
            put("ship_keeper", k * (n + 1) + (n if ship.keeper < 0 else rel(ship.keeper)))
            put("ship_crew_count", k, ship.crew_count / 3.0)
            if ship.crew is not None:
                put("ship_crew_known", k)
                place("ship_crew", k * C, ship.crew)
            if ship.revealed:
                put("ship_revealed", k)
            if ship.spied:
                put("ship_spied", k)
    for spy, q, j in view.spied:
        if spy != p:
            put("ship_spied_by_other", rel(q) * S + j)
    for q in range(n):
        if view.plunder[q]:
            place("plunder_cards", 0, view.plunder[q])
            points = sum(cards[c].value for c in view.plunder[q])
            put("plunder_value", rel(q), min(points / 100.0, 2.0))
    # the launch and the turn's bookkeeping
    if view.launch_master >= 0:
        place("launch_master", 0, (view.launch_master,))
    place("launch_crew", 0, view.launch_crew)
    put("launch_count", 0, view.launch_count / 3.0)
    if view.launched:
        put("launched")
    for q in view.claim_queue:
        put("claim_queue", rel(q))
    put("first_fleet", n if view.first_fleet < 0 else rel(view.first_fleet))
    for q in view.last_turns:
        put("last_turns", rel(q))
    for q in range(n):
        if view.passed[q]:
            put("passed", rel(q))
    if view.forced:
        put("forced")
    if view.selected >= 0:
        put("selected", view.selected)
    put("spies_used", 0, view.spies_used / 2.0)
    # the scores
    target = game.target_score
    for q in range(n):
        put("totals", rel(q), min(view.totals[q] / target, 1.0 + 600.0 / target))
        if view.last_round:
            put("last_round", rel(q), min(view.last_round[q] / 100.0, 6.0))
    put("round", 0, min(view.round / ROUND_SCALE, 1.0))
    # what the viewer has not seen, and what may be in the draw pile
    unseen = ~located
    x[layout.slice("unseen")] = unseen
    if view.deck_size:
        candidates = unseen.copy()
        for kw in view.known_with:        # claimed cards are with their claimers
            candidates[list(kw)] = False
        if view.reshuffled:               # the pile holds the last reshuffle's cards only
            shuffled = np.zeros(C, dtype=bool)
            shuffled[list(view.reshuffled)] = True
            candidates &= shuffled
        x[layout.slice("pile_candidates")] = candidates
    return x


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

