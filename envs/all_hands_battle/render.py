"""Text rendering of All Hands On Deck: one seat's view, or the omniscient table."""

from __future__ import annotations

from plunder.envs.core.board import (
    board_of, count, item, legal_subset, seat_key, seat_title, stat, zone,
)

from .view import AllHandsBattleView

_DECISION_TEXT = {
    "turn": "launch a ship or discard",
    "crew": "choose crew for the ship being launched",
    "discard": "discard to end the turn",
    "claim": "Aargh! (claim the top discard) or pass",
    "select": "choose a ship to attack with, or pass",
    "aim": "choose the ship to attack (or spy first)",
    "over": "game over",
}


def _names(game, cards) -> str:
    return ", ".join(game.cards[c].name for c in cards) if cards else "-"


def _ship_rows(game, ships):
    rows = []
    for q, fleet in enumerate(ships):
        for j, sh in enumerate(fleet):
            status = "in play" if sh.in_play else (
                "sunk" if sh.keeper < 0 else f"taken by P{sh.keeper}" if sh.keeper != q
                else "kept (fought)" if sh.revealed else "kept")
            if sh.crew is None:
                crew = " ".join("?" for _ in range(sh.crew_count))
            else:
                crew = _names(game, sh.crew)
                if sh.spied and not sh.revealed:
                    crew += "  (seen by your Spy)"
            rows.append(f"| P{q} | {j + 1} | {game.cards[sh.master].name} | {status} | {crew} |")
    return rows


def describe_view(game, view: AllHandsBattleView) -> str:
    """The table as ``view.player`` sees it (a markdown-style text table)."""
    n = view.num_players
    p = view.player
    lines = [f"All Hands On Deck — round {view.round}, {view.phase} — you are P{p}"]
    lines.append("| seat | score | last round | hand | reserved | claimed cards in hand |")
    lines.append("|---|---|---|---|---|---|")
    for q in range(n):
        mark = []
        if q == p:
            mark.append("you")
        if q == view.first_fleet:
            mark.append("first fleet")
        if view.passed[q] and view.phase == "battle":
            mark.append("passed")
        label = f"P{q}" + (f" ({', '.join(mark)})" if mark else "")
        last = view.last_round[q] if view.last_round else "-"
        res = game.cards[view.reserved[q]].name if view.reserved[q] >= 0 else "-"
        lines.append(f"| {label} | {view.totals[q]} | {last} | {view.hand_sizes[q]} | {res} | "
                     f"{_names(game, view.known_with[q])} |")
    if view.actor >= 0:
        who = "you" if view.actor == p else f"P{view.actor}"
        lines.append(f"To act: {who} — {_DECISION_TEXT[view.decision]}")
    else:
        lines.append("Game over.")
    lines.append(f"Draw pile: {count(view.deck_size, 'card')} · discard pile ({len(view.discard)}), "
                 f"top last: {_names(game, view.discard[-8:])}")
    lines.append(f"Your hand: {_names(game, view.hand)}")
    if view.launch_master >= 0:
        crew = _names(game, view.launch_crew) if view.launch_crew or view.turn_player == p \
            else f"{view.launch_count} face down"
        lines.append(f"Launching: {game.cards[view.launch_master].name} with crew {crew}")
    rows = _ship_rows(game, view.ships)
    if rows:
        lines.append("| seat | ship | shipmaster | status | crew |")
        lines.append("|---|---|---|---|---|")
        lines.extend(rows)
    if any(view.plunder):
        lines.append("Plunder: " + "; ".join(f"P{q}: {_names(game, x)}"
                                             for q, x in enumerate(view.plunder) if x))
    if view.events:
        lines.append("Recent: " + " / ".join(view.events[-5:]))
    return "\n".join(lines)


def describe_full(state) -> str:
    """Omniscient text: every hand, crew and the draw pile."""
    game = state.game
    lines = [f"All Hands On Deck (omniscient) — round {state.round}, {state.phase}, "
             f"decision {state.decision}, actor P{state.actor}" if state.actor >= 0 else
             f"All Hands On Deck (omniscient) — round {state.round}, game over"]
    lines.append("| seat | score | hand | reserved | plunder |")
    lines.append("|---|---|---|---|---|")
    for q in range(game.num_players):
        res = game.cards[state.reserved[q]].name if state.reserved[q] >= 0 else "-"
        lines.append(f"| P{q} | {state.totals[q]} | {_names(game, state.hands[q])} | {res} | "
                     f"{_names(game, state.plunder[q])} |")
    lines.append(f"Draw pile (top last): {_names(game, state.deck)}")
    lines.append(f"Discard pile (top last): {_names(game, state.discard)}")
    if state.launch_master >= 0:
        lines.append(f"Launching: {game.cards[state.launch_master].name} with "
                     f"{_names(game, state.launch_crew)}")
    full = state.view(0)
    ships = tuple(tuple(sh._replace(crew=tuple(state.ships[q][j][1]), spied=False)
                        for j, sh in enumerate(fleet)) for q, fleet in enumerate(full.ships))
    rows = _ship_rows(game, ships)
    if rows:
        lines.append("| seat | ship | shipmaster | status | crew |")
        lines.append("|---|---|---|---|---|")
        lines.extend(rows)
    if state.events:
        lines.append("Recent: " + " / ".join(state.events[-5:]))
    return "\n".join(lines)


# -- the web page's board (plunder.envs.core.board) ------------------------------------
#: what each kind of card does, in a sentence (components.KIND_NAMES order)
KIND_TEXT = (
    "Shipmaster only, 3 sails; costs its flag if left in hand.",
    "Shipmaster only, 2 sails; costs its flag if left in hand.",
    "A 1-sail shipmaster of any crew, or crew at level 6 on any ship.",
    "Crew: duels at its level.",
    "Treasure: scores for whoever keeps or captures its ship.",
    "Treasure that duels first and wins her duel.",
    "Its ship wins the battle (two Black Spots sink both).",
    "Level 1, and +1 to every other duelling crew member.",
    "Level 2 attacking, 6 defending; may look at an enemy ship first.",
    "Duels last at the level of her ship's strongest crew.",
    "Prize Crew: crew at level 5 that beats any regular crew.",
)


def _card(game, c: int, actions=(), tags=(), seat=None, group="", key="") -> dict:
    """Card ``c`` face up: its name, kind, suit and the numbers that matter."""
    from .components import KIND_NAMES, SPY, SUIT_NAMES
    card = game.cards[c]
    stats = []
    if card.rank:
        stats.append(stat("sail", card.rank))
    if card.kind == SPY:
        stats += [("attack", card.attack_level), ("defend", card.defend_level)]
    elif card.level:
        stats.append(("level", card.level))
    if card.value:
        stats.append(stat("point", card.value))
    if card.penalty:
        stats.append(("flag", -card.penalty))
    kind = KIND_NAMES[card.kind].replace("_", " ")
    suit = SUIT_NAMES[card.suit]
    return item(card.name, kind if suit == "none" else f"{suit} {kind}", "card",
                [f"suit-{suit}", *tags], actions, stats=stats, text=KIND_TEXT[card.kind],
                seat=seat, group=group, key=key or f"card:{c}")


def _hidden(what: str, seat=None, group="", key="") -> dict:
    """A card face down."""
    return item("face down", what, "card", ["face-down"], seat=seat, group=group, key=key)


def _draw(game, v, legal: set[int], me: int | None, hands=None, crews=None,
          launch=None, deck=None, revealed: bool = False) -> dict:
    """The table of view ``v`` from seat ``me``; ``hands``, ``crews`` (per seat, per
    ship) and ``launch`` (the crew being launched) show every hand and crew (None: as the
    view knows them); ``deck`` the draw pile top last; ``revealed``: drawn as the game's
    end turned them over."""
    a = game.actions
    n = v.num_players
    zones = []
    if me is not None:
        hand = [_card(game, c, legal_subset(legal, [a.discard + c, a.master + c, a.crew + c]),
                      seat=me) for c in v.hand]
        zones.append(zone("Your hand", hand, key="hand", seat=me))
    piles = [item("Draw pile", count(v.deck_size, "card"), "pile", ["face-down"], key="draw",
                  text=("top last: " + ", ".join(game.card_name(c) for c in deck))
                  if deck is not None else "")]
    if v.discard:
        top = v.discard[-1]
        piles.append(_card(game, top, legal_subset(legal, [a.claim, a.no_claim]),
                           ["top-discard"], key="discard"))
        piles[-1]["detail"] += f" · top of {count(len(v.discard), 'discard')}"
    zones.append(zone("Piles", piles, key="piles",
                      note="Aargh! claims the top discard" if a.claim in legal else ""))
    if v.launch_master >= 0:
        crew = [_card(game, c, seat=v.turn_player) for c in v.launch_crew]
        if launch is not None:
            crew = [_card(game, c, seat=v.turn_player) for c in launch]
        crew += [_hidden("crew", seat=v.turn_player) for _ in range(v.launch_count - len(crew))]
        zones.append(zone(f"{game.seat_name(v.turn_player)} launches",
                          [_card(game, v.launch_master, (), ["shipmaster"], seat=v.turn_player)]
                          + crew, key="launch"))
    for q in range(n):
        offset = (q - me) % n if me is not None else 0
        items = []
        for slot, ship in enumerate(v.ships[q]):
            if me is None:
                moves = []
            elif q == me:
                moves = [a.select + slot]
            else:
                target = a.target_index(offset, slot)
                moves = [a.attack + target, a.spy + target]
            tags = ["in-play"] if ship.in_play else ["used"]
            status = "in play" if ship.in_play else "fought"
            if ship.keeper < 0:
                tags.append("sunk")
                status = "sunk"
            elif ship.keeper != q:
                status = f"taken by {game.seat_name(ship.keeper)}"
            if v.selected == slot and q == v.turn_player and v.decision == "aim":
                tags.append("chosen")
            group = f"ship {slot + 1}"
            master = _card(game, ship.master, legal_subset(legal, moves), tags, seat=q,
                           group=group, key=f"ship:{q}:{slot}")
            master["kind"] = "ship"
            master["detail"] = status + " · " + master["detail"]
            items.append(master)
            crew = crews[q][slot] if crews is not None else ship.crew
            if crew is not None:
                seen = ["revealed"] if revealed or (ship.spied and not ship.revealed) else []
                items += [_card(game, c, (), seen, seat=q, group=group) for c in crew]
            else:
                items += [_hidden("crew", seat=q, group=group) for _ in range(ship.crew_count)]
        if hands is not None and q != me:
            items += [_card(game, c, (), ["in-hand"] + (["revealed"] if revealed else []),
                            seat=q, group="hand") for c in hands[q]]
        elif q != me:
            known = [_card(game, c, (), ["known"], seat=q, group="hand")
                     for c in v.known_with[q]]
            unseen = v.hand_sizes[q] - len(known)
            items += known + ([item("hand", f"{count(unseen, 'card')} face down", "pile",
                                    ["face-down"], seat=q, group="hand")] if unseen else [])
        if v.reserved[q] >= 0:
            items.append(_card(game, v.reserved[q], (), ["reserved"], seat=q,
                               group="reserved (its next draw)"))
        items += [_card(game, c, (), ["plunder"], seat=q, group="plunder")
                  for c in v.plunder[q]]
        marks = (["first fleet"] if v.first_fleet == q else []) + \
            (["passed"] if v.passed[q] and v.phase == "battle" else [])
        last = f"; last round {v.last_round[q]}" if v.last_round else ""
        zones.append(zone(f"{seat_title(game, q, me)}: {count(v.totals[q], 'point')}", items,
                          note=f"{count(v.hand_sizes[q], 'card')} in hand{last}"
                               + (f"; {', '.join(marks)}" if marks else ""), seat=q))
    return board_of(zones, f"round {v.round}, {v.phase}")


def board(game, v, legal: set[int], end=None) -> dict:
    """Your hand (discard, launch, crew), the piles (Aargh! on the top discard), the ship
    being launched and every fleet (your ships attack, the others' ships are targets);
    at the end of the game every crew and hand turned over (``end``)."""
    if end is None:
        return _draw(game, v, legal, v.player)
    return _draw(game, v, legal, v.player, hands=end["hands"], crews=end["crews"],
                 revealed=True)


def end_facts(state) -> dict:
    """What the reckoning shows everyone: every crew aboard and every card left in hand."""
    return {"hands": [list(h) for h in state.hands],
            "crews": [[list(ship[1]) for ship in fleet] for fleet in state.ships],
            "launch": list(state.launch_crew)}


def full_board(game, state) -> dict:
    """The omniscient board: every hand, every crew, the draw pile in its order."""
    facts = end_facts(state)
    return _draw(game, state.view(0), set(), None, hands=facts["hands"],
                 crews=facts["crews"], launch=facts["launch"], deck=list(state.deck))


def last_keys(game, v, seat: int, action: int) -> list[str]:
    """What a move touched: the discard, the ship launched or attacked."""
    a = game.actions
    n = v.num_players
    if action is None:      # a crew card put aboard face down
        return ["launch"]
    if a.discard <= action < a.master or action in (a.claim, a.no_claim):
        return ["discard"]
    if a.master <= action < a.claim:
        return ["launch", seat_key(seat)]
    if a.select <= action < a.attack:
        return [f"ship:{seat}:{action - a.select}"]
    if a.attack <= action < a.pass_battle:
        index = (action - a.attack) % (a.spy - a.attack)
        offset, slot = divmod(index, game.components.ships_per_fleet)
        return [f"ship:{(seat + offset + 1) % n}:{slot}"]
    return [seat_key(seat)]
