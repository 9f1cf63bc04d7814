"""Anchors Aweigh! — race to load your ship, then sail through 13 adventures (2-4 players).

Two rounds. In the *loading phase* everybody grabs asset tiles (cannons, swords, sailors,
shovels, spyglasses, ropes, compasses, maps, storage; monkeys are decoys) from a shared
pile at the same time and loads 12 of them plus 2 cargo tokens onto a 14-space ship,
while 13 face-up adventure cards show what will be needed. The first full ship's player
is captain and turns the cards face down. In the *travel phase* the cards come one at a
time: discoveries (spend assets, gain cargo or coins), trades (swap cargo), pirates
(encounter or flee on the strength shown on the back, then beat them with cannons, swords
and sailors or pay 2 coins and a cargo) and, last, contracts (sell cargo for coins). At the
end of a round cargo becomes coins and every 10 coins a treasure chest that blocks an
above-deck space in round 2. Most coins plus chests after round 2 wins. Full rules and
every decision this project made: ``envs/anchors_aweigh/rules.md``.

    from plunder.envs import anchors_aweigh_v0
    env = anchors_aweigh_v0.parallel_env(num_players=4)   # the natural form
    aec = anchors_aweigh_v0.env(num_players=4)            # one agent at a time

Agents
    ``player_0`` … ``player_{n-1}``; seat order is clockwise. Almost every decision is
    simultaneous: the loading race is played in *ticks* (every player whose ship is not
    full acts once per tick) and every travel decision asks every player at once
    (``parallel_env``). The AEC form asks the deciders one by one and never shows an
    earlier pending choice. Cargo rewards are handed out one token at a time, clockwise
    from the captain, each a single-agent step (choose a colour where needed, then stow).

Arguments
    ``num_players`` (2-4, default 2), ``reward_mode`` (``"rank"`` default, ``"win"``,
    ``"score"``), ``max_turns`` (default 3000 ticks/steps; then truncation with the current
    totals as scores), ``render_mode`` (``"ansi"``/``"human"``), ``render_seat`` (None =
    omniscient). Variant options:

    ====================  =================================================================
    meddlesome_monkey     seats playing the Meddlesome Monkey handicap, e.g. ``[0, 2]``
                          (at most 3: the monkeys come from the 84 tiles); each places
                          its monkey on a space of its choice first; it stays all game
    open_ocean            ``""`` (off), ``"custom"`` or ``"random"``: the 13 cards of a
                          round are a custom mix or a random draw, always with >= 1 card
                          of every type
    open_ocean_mix        the custom mix, e.g. ``{"discovery": 4, "trade": 2, "pirates":
                          5, "contract": 2}`` (default: the YAML's ``open_ocean_custom_mix``)
    rough_seas            3-4 players, not with the monkey handicap: starfish rules as
                          with 2 players, monkeys are wild, and at every travel decision
                          you may swap two tiles of a kind for a face-up tile of a kind
    perfect_recall        keep the card fronts in the observation after the captain's
                          call (the rulebook hides them: players cannot look; a player
                          who remembers knows them: ``env.unwrapped.game.
                          observation_memory()`` rebuilds this variant's observations
                          from one player's own, in order)
    ====================  =================================================================

Action space
    ``Discrete(193)``; the mask shows what is legal now.

    =======  ===============================================================
    0        loading: grab a random face-down tile (only you see it)
    1-10     loading: grab a face-up tile of kind k (cannon, sword, sailor, shovel,
             spyglass, rope, compass, map, storage, monkey)
    11       loading: flip a random face-down tile face up
    12-23    place the held tile on A1..A8, B1..B4 (also: the handicap monkey at setup)
    24       loading: return the held tile face up
    25-28    loading: take a blue/white/orange/purple cargo onto C1/C2
    29-40    loading (2 players, Rough Seas): return the starfish tile on A1..B4
    41       skip the card
    42       resolve the card (wild monkeys cover missing assets in Rough Seas)
    43-50    resolve, the parrot standing in for a cannon..map (round 2)
    51, 52   encounter / flee the pirates (before the card is revealed)
    53       pay the pirates' penalty (no cargo to give)
    54-57    pay the penalty, giving a blue/white/orange/purple cargo
    58-61    choose the colour of a grey or short reward cargo
    62-75    stow the reward cargo on A1..C2 (an empty space, or a storage asset there)
    76-87    no room: toss the asset on A1..B4 overboard, the cargo takes its space
    88-91    no room: toss a stored cargo of a colour overboard for the new one
    92       no room: toss the new cargo overboard
    93-192   Rough Seas: swap two tiles of kind g for a face-up tile of kind t
             (93 + 10 g + t)
    =======  ===============================================================

Observation
    ``Dict(observation=Box(float32, (N,)), action_mask=Box(int8, (193,)))`` with N = 1349
    (2 players), 1718 (3) or 2087 (4). Built from the player's view only: everything
    above deck, the pile's face-up tiles and face-down count, the supplies, coins, chests
    and parrots, the cards (fronts of this round's unrevealed cards until the captain's
    call, or always with ``perfect_recall``; the backs always), the public history of
    revealed cards and choices, your whole ship. Another ship's below deck is behind its
    screen: ``below_deck`` shows what went in and has not come out (tiles seen face up by
    kind, how many tiles only its owner saw, cargo per colour), never where it lies; its
    B1..C2 spaces in ``ships`` are zeros. Per-seat blocks are in relative order (entry 0
    is you). The derived fields, listed apart under their own heading, are computed
    from the view to help bots learn; ``derived_features=False`` leaves them out (the
    information state alone; ``env.unwrapped.layout`` then describes that shorter vector).
    ``env.unwrapped.layout.describe()`` prints the table; read a field
    with ``layout.read(obs, "coins")``. The table for 2 players:

LAYOUT_TABLE

Rewards
    Zero until the end. ``rank``: (opponents beaten - opponents that beat you) / (n - 1);
    ``win``: 1 for the best total (ties share), else 0; ``score``: coins + 10 per chest.
    ``infos[agent]["scores"]`` holds every final score, ``["winner_mask"]`` one flag per
    scoring seat, true for every seat sharing the win.

Version history
    v0: first release.
"""

from plunder.envs.anchors_aweigh.engine import AnchorsAweighGame
from plunder.envs.core.env import env_docstring, make_env_functions

Game = AnchorsAweighGame
env, raw_env, parallel_env = make_env_functions(Game)

__doc__ = env_docstring(__doc__, Game)
