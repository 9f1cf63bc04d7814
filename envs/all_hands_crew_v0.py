"""All Hands on Deck (crew combinations; *Alle Mann an Deck*) — ``all_hands_crew_v0``.

2-6 players collect pirates in a face-down Crew Pile and lay out combinations of the
score sheet (pairs, threes, fours, streets of 5 or 6 crew kinds, captain's tables, captain
threes). Each round: everyone draws 3 face-down stock cards one at a time from any
Drawing Pile, then all hire at the same time (one card to the Crew Pile, the rest back on
top of their own Drawing Pile, known to them alone), then in turn order each may lay out
combinations; pairs grant in-game actions (Double hire, Snatch, Spyglass, Short rations,
Curse). When the Drawing Piles hold fewer cards than players at the start of a round, every
Crew Pile is laid out in its best partition, single captains cost points, and the highest
score wins (ties: more captains). Full rules and every decision the completion made:
``envs/all_hands_crew/rules.md``.

Usage::

    from plunder.envs import all_hands_crew_v0
    env = all_hands_crew_v0.env(num_players=4)              # AEC, PettingZoo wrappers
    par = all_hands_crew_v0.parallel_env(num_players=4)     # hiring is simultaneous
    env = all_hands_crew_v0.env(num_players=3, open_stock=True)   # the variant

Arguments: ``num_players`` (2-6, default 2), ``open_stock`` (bool, default False: the
rulebook's variant where stock cards are shown to everyone at hiring), ``reward_mode``
(``rank`` default, ``win``, ``score``), ``max_turns`` (decisions, default 20000 — never
reached), ``render_mode`` (``ansi``/``human``), ``render_seat`` (None = omniscient).

Agents and turns
----------------
Agents ``player_0`` … ``player_{n-1}``; clockwise is increasing seat number. A random seat
starts the first round (the race for the Start Player Card); the start player moves one
seat clockwise every round. Drawing, Spyglass draws, laying out and choosing a target are
single-agent turns. Hiring is simultaneous: all agents with a pick to make act in the same
step; the AEC env asks them one by one and a later agent never sees an earlier pending
pick. A Double hire adds further simultaneous picking steps (every agent with a Double hire
is asked; one who passed can only pass again).

Action space
------------
``Discrete(2n + 106)`` (``Game(n).num_actions``); seats in actions are offsets clockwise
from the acting player:

| actions | meaning |
|---|---|
| ``0 .. n-1`` | draw the top card of the Drawing Pile ``j`` seats clockwise (0 = own pile); also the Spyglass draw (2 cards at once) |
| ``n .. n+14`` | hire stock card ``i`` (stock order = drawing order; up to 15 with Spyglasses) |
| ``n+15 .. n+105`` | lay out combination ``c`` of the 91 on the score sheet (``Game.combos[c].name``) |
| ``n+106 .. 2n+104`` | choose the player ``j`` = 1..n-1 seats clockwise as the target of Snatch / Short rations / Curse |
| ``2n+105`` | pass: end your laying out; forfeit a Spyglass, a further Double-hire pick or an action's target |

``env.unwrapped.game.action_name(a)`` names any action. Combinations: 0-5 pairs (Cook,
Gunner, Lookout, Carpenter, Navigator, Bosun), 6-11 threes, 12-17 fours, 18-23 streets
without one kind, 24 full street, 25-84 captain's tables (Anchor, Cutlass, Kraken × the 20
crew trios), 85-87 captain threes, 88-90 captain pairs.

Observation space
-----------------
``Dict(observation=Box(float32, (size,)), action_mask=Box(int8, (num_actions,)))``; the
mask is all zeros for an agent that is not asked to act. Per-seat blocks are rotated so
that offset 0 is the observer. Read a field by name with
``env.unwrapped.layout.read(obs["observation"], "my_crew")``. Sizes:

| players | observation size | actions |
|---|---|---|
| 2 | 436 | 110 |
| 3 | 559 | 112 |
| 4 | 684 | 114 |
| 5 | 811 | 116 |
| 6 | 940 | 118 |

The derived fields, listed apart under their own heading, are computed from the view to
help bots learn; ``derived_features=False`` leaves them out (the information state alone;
``env.unwrapped.layout`` then describes that shorter vector). Layout for 4 players
(``layout.describe()``; per-seat blocks scale with n):

LAYOUT_TABLE

Kind order everywhere: Cook, Gunner, Lookout, Carpenter, Navigator, Bosun, Captain Anchor,
Captain Cutlass, Captain Kraken. What an agent sees follows the completion: its own stock
only from the hiring signal on (everyone's with ``open_stock``), its own Crew Pile, the
cards it put on top of a Drawing Pile until someone draws them, the cards it snatched or
that were snatched from it (a Snatch between two others leaves it knowing the cards it
knew in the victim's pile, but for one it cannot name: ``crew_maybe_gone``); everything
else that is public (pile sizes, who drew from
which pile, stock and crew sizes, laid combinations, curses, actions due).

Rewards
-------
At the end only. ``rank`` (default): (opponents beaten - opponents that beat you)/(n-1),
ranking by (score, captains in the layout); ``win``: 1 for every player with the best key;
``score``: the final score. ``infos[agent]["scores"]`` holds the final scores and
``infos[agent]["winner_mask"]`` one flag per scoring seat, true for every seat sharing the win.

Rendering
---------
``render_mode="ansi"`` returns a text table from ``render_seat`` (``describe_view``) or,
with ``render_seat=None``, the omniscient table (``describe_full``: every pile card,
stock, crew pile and who knows what).

Version history
---------------
- v0: first release.
"""

from plunder.envs.all_hands_crew.engine import AllHandsCrewGame
from plunder.envs.core.env import env_docstring, make_env_functions

Game = AllHandsCrewGame
env, raw_env, parallel_env = make_env_functions(Game)

__doc__ = env_docstring(__doc__, Game, 4)

__all__ = ["Game", "env", "raw_env", "parallel_env"]
