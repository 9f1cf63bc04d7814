"""Text rendering of a ShipShape table: from one seat (``describe_view``) or omniscient."""

from __future__ import annotations

from plunder.envs.core.board import board_of, count, grid, item, legal_subset, seat_title, zone

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
def _grid(cells) -> list[list[str]]:
    """A 3x3 tile as rows of cell tokens (G2, C1, X3, R, .)."""
    from .geometry import CODE_TOKEN
    return grid([CODE_TOKEN[c] for c in cells])


def _totals_text(cells) -> str:
    """What a hold shows from above: ``gold 5, cannons 2, contraband 3, 1 rat, full``."""
    gold, cannons, contraband, rats, full = totals(cells)
    return (f"gold {gold}, cannons {cannons}, contraband {contraband}"
            + (f", {count(rats, 'rat')}" if rats else "") + (", full" if full else ""))


def _draw(game, v, legal: set[int], me: int | None, capn_deck=None) -> dict:
    """The table of view ``v`` from seat ``me`` (None: omniscient, the Cap'n's deck in
    its order ``capn_deck``)."""
    from .engine import BID0, PLACE0
    from .geometry import COMPOSE, ORIENTATION_NAMES, stack_visible

    voyage = min(v.voyage, 2)
    status = "game over" if v.done else f"voyage {voyage + 1} of 3, turn {v.turn + 1} of 3"
    groups = game.groups(voyage)
    zones = []
    for placing in v.placing:
        for seat, crate, lying in placing:
            if seat == me:
                hold = v.visible[me]
                choices = [item("your hold now", _totals_text(hold), "hold", ["current"], (),
                                _grid(hold), seat=me)]
                for o in range(len(ORIENTATION_NAMES)):
                    if PLACE0 + o not in legal:
                        continue
                    cells = game.oriented(crate, COMPOSE[lying][o])
                    after = stack_visible(hold, [cells])
                    choices.append(item(ORIENTATION_NAMES[o], _totals_text(after), "crate",
                                        ["preview"], [PLACE0 + o], _grid(cells), seat=me,
                                        after=_grid(after), key=f"orient:{o}"))
                zones.append(zone(f"Place crate #{crate}", choices, key="placing",
                                  note="each crate as it would lie, then your hold after it"))
            else:
                zones.append(zone(f"{game.seat_name(seat)} places crate #{crate}",
                                  [item(f"#{crate}", "as it lay in the stack", "crate", (), (),
                                        _grid(game.oriented(crate, lying)), seat=seat)],
                                  key=f"placing:{seat}"))
    recent = {b[3]: b for b in v.bids if (b[0], b[1]) == (v.voyage, v.turn)}
    for s, cells in enumerate(v.visible):
        group = next(k for k, g in enumerate(groups) if s in g)
        items = [item(f"hold {v.holds[s]}", _totals_text(cells), "hold", (), (),
                      _grid(cells), seat=s, key=f"hold:{s}")]
        if s in recent:
            bid = recent[s]
            items.append(item(str(bid[4]), "re-bid" if bid[2] == 2 else "bid this turn",
                              "card", ["number", "bid"], seat=s, key=f"bid:{s}"))
        if s == game.capn:
            deck = capn_deck if capn_deck is not None else v.hands[s]
            items.append(item("crew deck", count(len(deck), "card") + (
                ", top first" if capn_deck is not None else ", face down"), "pile",
                ["face-down"], seat=s, text=" ".join(map(str, deck))))
        else:
            for card in v.hands[s]:
                moves = legal_subset(legal, [BID0 + card - 1]) if s == me else []
                items.append(item(str(card), "", "card", ["number"], moves, seat=s,
                                  key=f"crew:{s}:{card}", group="crew cards"))
        voyages = ", ".join(str(r[s][-1]) for r in v.voyage_scores)
        note = count(v.coins[s], "coin") + (f" (voyages: {voyages})" if voyages else "")
        if len(groups) > 1:
            note += f"; group {'AB'[group]}"
        zones.append(zone(seat_title(game, s, me), items, note=note, seat=s))
    for k, stack in enumerate(v.stacks):
        group = f" (group {'AB'[k]})" if len(v.stacks) > 1 else ""
        zones.append(zone(f"Crate stack{group}, top first",
                          [item(f"#{c}", "", "crate", (), (), _grid(game.oriented(c, o)),
                                key=f"crate:{c}") for c, o in stack],
                          note=f"{len(stack)} left", key=f"stack:{k}"))
    return board_of(zones, status)


def board(game, v, legal: set[int], end=None) -> dict:
    """Every seat's hold from above with its crew cards (yours to bid), the crate you
    place in each orientation the rules allow beside your hold as it is and as it would
    be, the crate stacks."""
    return _draw(game, v, legal, v.player)


def full_board(game, state) -> dict:
    """The omniscient board: the public table and the Cap'n's deck in its order."""
    deck = state.hands[game.capn] if game.capn is not None else None
    return _draw(game, state.view(0), set(), None, capn_deck=deck)


def last_keys(game, v, seat: int, action: int) -> list[str]:
    """What a move touched: the hold a crate went on, the card bid (a bid is revealed by
    the step that takes it)."""
    from .engine import BID0, PLACE0
    if action is None:
        return [f"bid:{seat}"]
    if action >= PLACE0:
        return [f"hold:{seat}"]
    return [f"bid:{seat}", f"crew:{seat}:{action - BID0 + 1}"]
