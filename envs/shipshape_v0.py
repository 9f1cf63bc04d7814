"""ShipShape — bid with crew cards for crates and stack them on your hold (2-6 players).

Over three voyages of three turns, every player bids a crew card (1-10) at the same time
for the crates of a stack everyone can see; the highest card takes the top crate, the next
the next one, and so on; matching cards tie and re-bid. Each crate (a 3x3 tile with holes,
goods and rats) is placed on your 3x3 hold in any of 8 orientations; after three crates
you score what shows from above: gold minus rats, cannons above the table's lowest,
contraband unless you have the most, and 8 for a full ship. Most coins after three voyages
wins. Full rules: ``envs/shipshape/rules.md``.

    from plunder.envs import shipshape_v0
    par = shipshape_v0.parallel_env(num_players=4)     # the natural, simultaneous form
    env = shipshape_v0.env(num_players=4)              # AEC form

Agents
    ``player_0`` … ``player_{n-1}``. With 2 or 5 players the dummy **Cap'n Happen Stance**
    is one more seat (seat ``n``, not an agent): the env plays him (his bid is the top card
    of his shuffled deck, he places crates as they lay), he scores and he can win. Six
    seats (6 players, or 5 plus the Cap'n) bid in two groups of three with their own
    stacks; groups change every voyage (no group repeats).

Simultaneous decisions
    Every decision is simultaneous: all bidders of a turn (every group at once), then the
    seats that took a crate place it. ``parallel_env()`` takes the actions of
    ``env.acting_agents()`` per step. The AEC ``env()`` asks those agents one by one and
    applies their choices together; a later bidder never sees an earlier pending bid.

Arguments
    ``num_players`` (2-6, default 2), ``reward_mode`` (``"rank"`` default, ``"win"``,
    ``"score"``), ``max_turns`` (bidding turns, default 100; a game has 9),
    ``render_mode`` (``"ansi"``/``"human"``), ``render_seat`` (None = omniscient, showing
    the Cap'n's deck order). No variant options.

Action space
    ``Discrete(18)``:

    ======  ==============================================================
    0-9     bid crew card 1-10 (legal: the cards in your hand)
    10-17   place the crate you took in orientation k = 0-7, relative to how it lay in
            the stack: k % 4 quarter turns clockwise, then mirrored left-right (flipped
            over) when k >= 4; 10 = exactly as it lay
    ======  ==============================================================

Observation
    ``Dict(observation=Box(float32, (size,)), action_mask=Box(int8, (18,)))``; the size
    depends on the number of seats and the stack: 801 (2-3 players), 1027 (4), 1425 (5-6;
    six seats also see the other group's stack, ``other_stack``).
    Built from the player's view only (everything is public except pending bids and the
    Cap'n's deck order). Seats are relative: slot 0 is you, then the next seats round the
    table (the Cap'n is the seat after ``player_{n-1}``). A 3x3 tile is 9 cells, row-major,
    of 5 features ``[empty, rat, gold/3, cannon/3, contraband/3]``. Placement outcomes
    (``score_now``, ``place_outcomes``, ``stack_outcomes``) are computed from public facts
    only: your voyage score if it ended now, and your hold's totals and voyage score after
    each orientation of the crate you must place (and after the best placement of each
    crate of your group's stack), so a learner need not simulate the 8 orientations.
    While you bid, ``bid_outlook`` gives per card in your hand the crate gain you can
    expect for bidding it, the other bidders modelled as bidding by the heuristic bot's
    rule from their own side (public facts only; ``envs/shipshape/bidding.py``).
    The derived fields, listed apart under their own heading, are computed from the view
    to help bots learn; ``derived_features=False`` leaves them out (the information state
    alone; ``env.unwrapped.layout`` then describes that shorter vector).
    ``env.unwrapped.layout.describe()`` prints the table; read a field with
    ``layout.read(obs, "seat_coins")``. With 4 players:

LAYOUT_TABLE

Rewards
    Zero until the end. ``rank``: (seats beaten - seats that beat you) / (seats - 1) over
    every scoring seat, the Cap'n included; ``win``: 1 for the best (ties share); ``score``:
    your coins. Ties in coins go to the higher-numbered voyage-3 hold.
    ``infos[agent]["scores"]`` holds the agents' coins, ``["winner_mask"]`` one flag per
    scoring seat, true for every seat sharing the win
    (seat ``n`` is the Cap'n).

Version history
    v0: first release.
"""

from plunder.envs.core.env import env_docstring, make_env_functions
from plunder.envs.shipshape.engine import ShipShapeGame

Game = ShipShapeGame
env, raw_env, parallel_env = make_env_functions(Game)

__doc__ = env_docstring(__doc__, Game, 4)

__all__ = ["Game", "env", "parallel_env", "raw_env"]
