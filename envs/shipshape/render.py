"""Text rendering of a ShipShape table: from one seat (``describe_view``) or omniscient."""

from __future__ import annotations

from plunder.envs.core.board import count, item, legal_subset, seat_title, zone

from .geometry import SCORE_PARTS, grid_rows, orient, totals


def _seat_label(game, seat: int, me: int | None) -> str:
    name = game.seat_name(seat)
    return name + (" (you)" if seat == me else "")


def _table(game, view, me: int | None, capn_deck: list[int] | None = None) -> str:
    comp = game.components
    S = game.num_seats
    voyage = min(view.voyage, 2)
    status = "game over" if view.done else f"voyage {voyage + 1}/3, turn {view.turn + 1}/3"
    lines = [f"ShipShape, {game.num_players} players"
             + (" + Cap'n Happen Stance" if game.capn is not None else "") + f" - {status}"]
    groups = game.groups(voyage)
    decision = {}
    for k, g in enumerate(groups):
        for x in view.placing[k] if view.placing else ():
            decision[x[0]] = "places a crate"
        for s in view.need[k] if view.need else ():
            if s not in decision and not view.done:
                if view.stage[k] == 1:
                    decision[s] = "bids"
                else:
                    decision[s] = ("tied: re-bids next" if view.placing[k]
                                   else "re-bids (tied)")
    holds = view.hold_history[-1]
    lines.append("")
    two = len(groups) > 1
    lines.append("| seat |" + (" group |" if two else "") + " coins | hold | crates | hand | now |")
    lines.append("|---|" + ("---|" if two else "") + "---|---|---|---|---|")
    for s in range(S):
        grp = next(k for k, g in enumerate(groups) if s in g)
        hand = " ".join(map(str, view.hands[s]))
        if s == game.capn:
            hand = ("deck " + " ".join(map(str, capn_deck)) if capn_deck is not None
                    else f"deck of {len(view.hands[s])}: {hand}")
        lines.append(f"| {_seat_label(game, s, me)} |" + (f" {'AB'[grp]} |" if two else "")
                     + f" {view.coins[s]} | {holds[s]} | {len(view.placed[s])} | {hand} | "
                     f"{decision.get(s, '')} |")
    lines.append("")
    lines.append("Holds seen from above (G gold, C cannons, X contraband, R rat, . empty),")
    lines.append("each with what it shows in all (G gold, C cannons, X contraband, R rats):")
    names = [_seat_label(game, s, me) for s in range(S)]
    shown = ["G{} C{} X{} R{}{}".format(*totals(v)[:4], " full" if totals(v)[4] else "")
             for v in view.visible]
    width = max(17, max(len(n) for n in names) + 2, max(len(t) for t in shown) + 3)
    lines.append("".join(n.ljust(width) for n in names).rstrip())
    rows = [grid_rows(v) for v in view.visible]
    for r in range(3):
        lines.append("".join(rows[s][r].ljust(width) for s in range(S)).rstrip())
    lines.append("".join(t.ljust(width) for t in shown).rstrip())
    for k, stack in enumerate(view.stacks):
        label = f"group {'AB'[k]} " if len(view.stacks) > 1 else ""
        lines.append("")
        lines.append(f"{label}crate stack, top first ({len(stack)} left):")
        if stack:
            tiles = [grid_rows(orient(comp.crate(c), o)) for c, o in stack]
            for r in range(3):
                lines.append("".join(t[r].ljust(11) for t in tiles))
            lines.append("".join(f"#{c}".ljust(11) for c, _ in stack))
    for k, placing in enumerate(view.placing):
        for seat, crate, o in placing:
            lines.append("")
            lines.append(f"{_seat_label(game, seat, me)} places crate #{crate} "
                         "(as it lay in the stack):")
            lines.extend(grid_rows(orient(comp.crate(crate), o)))
    recent = [b for b in view.bids if (b[0], b[1]) == (view.voyage, view.turn)]
    if recent:
        lines.append("")
        lines.append("bids this turn: " + ", ".join(
            f"{game.seat_name(b[3])} {b[4]}" + (" (re-bid)" if b[2] == 2 else "")
            for b in recent))
    for v, result in enumerate(view.voyage_scores):
        lines.append("")
        lines.append(f"voyage {v + 1} scoring:")
        for s, parts in enumerate(result):
            d = dict(zip(SCORE_PARTS, parts))
            lines.append(f"  {game.seat_name(s)}: gold {d['gold']}, cannons {d['cannons']}, "
                         f"contraband {d['contraband']}, full ship {d['full_ship']} "
                         f"-> {count(d['coins'], 'coin')}")
    return "\n".join(lines)


def describe_view(game, view) -> str:
    """What one seat sees (the Cap'n's deck as its contents, not its order)."""
    return _table(game, view, view.player)


def describe_full(state) -> str:
    """Omniscient text: the table plus the Cap'n's deck order, top first."""
    game = state.game
    deck = state.hands[game.capn] if game.capn is not None else None
    return _table(game, state.view(0), None, capn_deck=deck)


# -- the web page's board (plunder.envs.core.board) ------------------------------------
def board(game, v, legal: set[int]) -> dict:
    """Your crew cards (bids), every hold from above, the crate stacks, and the crate you
    place in each orientation the rules allow."""
    from plunder.envs.shipshape.engine import BID0, PLACE0
    from plunder.envs.shipshape.geometry import CODE_TOKEN, COMPOSE, ORIENTATION_NAMES

    def grid(cells) -> list[list[str]]:
        """A 3x3 tile as rows of cell tokens (G2, C1, X3, R, .)."""
        return [[CODE_TOKEN[c] for c in cells[r * 3:r * 3 + 3]] for r in range(3)]

    me = v.player
    hand = [item(str(card), "", "card", (), legal_subset(legal, [BID0 + card - 1]))
            for card in v.hands[me]] if me < len(v.hands) else []
    zones = [zone("Your crew cards", hand, note="click a card to bid it"
                  if any(i["actions"] for i in hand) else "")]
    for placing in v.placing:
        for seat, crate, lying in placing:
            if seat == me:
                choices = [item(ORIENTATION_NAMES[o], "", "crate", (), [PLACE0 + o],
                                grid(game.oriented(crate, COMPOSE[lying][o])))
                           for o in range(len(ORIENTATION_NAMES)) if PLACE0 + o in legal]
                zones.append(zone(f"Place crate #{crate}", choices,
                                  note="click the orientation to place it in"))
            else:
                zones.append(zone(f"{game.seat_name(seat)} places crate #{crate}",
                                  [item(f"#{crate}", "", "crate", (), (),
                                        grid(game.oriented(crate, lying)))]))
    holds = [item(seat_title(game, s, me), f"hold {v.holds[s]}, {v.coins[s]} coins", "hold",
                  (), (), grid(cells)) for s, cells in enumerate(v.visible)]
    zones.append(zone("Holds seen from above", holds))
    for k, stack in enumerate(v.stacks):
        group = f" (group {'AB'[k]})" if len(v.stacks) > 1 else ""
        zones.append(zone(f"Crate stack{group}, top first",
                          [item(f"#{c}", "", "crate", (), (), grid(game.oriented(c, o)))
                           for c, o in stack], note=f"{len(stack)} left"))
    hands = [item(seat_title(game, s, me), " ".join(map(str, cards)) or "-", "seat")
             for s, cards in enumerate(v.hands) if s != me]
    zones.append(zone("Other hands", hands))
    return {"zones": zones}
