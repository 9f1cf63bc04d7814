"""What one player knows in All Hands on Deck."""

from __future__ import annotations

from typing import NamedTuple


class AllHandsCrewView(NamedTuple):
    """Everything player ``player`` knows (plain tuples, ``==``-comparable).

    A ``NamedTuple``: immutable, and built by position by the compiled view builders
    (``_cview.c``, ``_engine.c``); ``AllHandsCrewState.python_view`` builds it by name.

    Seats are absolute here; the observation encoder rotates them so that the viewer is
    seat offset 0. Unknown cards are -1.
    """

    player: int
    num_players: int
    open_stock: bool
    phase: str
    acting: tuple            # seats that must decide now
    actor: int               # the single actor outside the hiring phase (-1 otherwise)
    round: int
    start: int
    hire_step: int
    pending: str             # action waiting for its target ("snatch", ...) or ""
    pile_masks: tuple        # per pile, bottom->top: bit mask of the players who know the card
    pile_seen: tuple         # per pile: (position from the bottom, kind) of the cards I know
    stock: tuple             # per seat, in stock order: (kind or -1, source pile)
    my_hired: tuple          # my stock slots picked so far in this hiring phase
    my_hire_done: bool       # I passed on a further Double hire pick
    my_crew: tuple           # cards per kind in my Crew Pile
    crew_sizes: tuple
    crew_known: tuple        # per seat q: kinds I know to be in q's Crew Pile ...
    crew_maybe_gone: tuple   # ... but for this many of them, which a Snatch I did not see
                             # may have taken (I do not know which)
    known_about_me: tuple    # per seat o: kinds o knows to be in my Crew Pile ...
    maybe_gone_about_me: tuple  # ... but for this many, as far as o can tell
    laid: tuple              # per seat: combination indices laid during the game
    final: tuple             # per seat: combinations of the final layout
    final_left: tuple        # per seat: cards left over at the end (captains count!)
    curses: tuple
    draw_target: tuple       # regular stock cards each player draws this round
    spy_left: tuple          # Spyglass draws still due this round
    keep: tuple              # stock cards each player keeps this round (Double hire)
    next_double: tuple       # actions due next round (laid this round)
    next_spy: tuple
    next_short: tuple
    events: tuple            # this round: (seat, what, arg, kind or -1); a hire's 4th entry
                             # is how many cards went back on the pile

    def pile(self, seat: int) -> list:
        """Pile ``seat`` bottom->top as (knower mask, kind or -1 if unknown to me)."""
        out = [(m, -1) for m in self.pile_masks[seat]]
        for i, k in self.pile_seen[seat]:
            out[i] = (out[i][0], k)
        return out


CrewView = AllHandsCrewView  # the name older code uses
