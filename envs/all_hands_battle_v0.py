"""All Hands On Deck — build three ships from your hand, launch them, fight naval battles (2-5).

Each round every player is dealt 12 cards and turns them into three ships (a shipmaster and
three crew of its suit; a Privateer leads any crew) by drawing, launching and discarding,
claiming other players' discards with "Aargh!". The first to launch a full fleet earns 50
and everyone else gets one last turn. Then the ships fight: Mariners (Navy, Merchant) and
Marauders (Pirate, Raider) attack each other, Privateers attack anyone; Raiders plunder
treasure, the Black Spot always wins, crews duel card by card. Ships kept or won score 25,
treasure its value; admirals, captains and treasure left in hand cost points. Rounds repeat
until someone reaches ``target_score`` (500). Full rules: ``envs/all_hands_battle/rules.md``.

    from plunder.envs import all_hands_battle_v0
    env = all_hands_battle_v0.env(num_players=4, prize_crew=True)

Agents
    ``player_0`` … ``player_{n-1}``; seat order is turn order (the seat to your left is
    the next seat). The first round's starter is drawn at random, then it passes left.
    Turn-based (AEC only; there is no ``parallel_env``). A recruiting turn is several steps
    of the same agent (launch choices, then a discard); after every discard each other
    agent gets one Aargh!/pass step out of turn, in turn order from the discarder's left.

Arguments
    ``num_players`` (2-5, default 2), ``reward_mode`` (``"rank"`` default, ``"win"``,
    ``"score"``), ``max_turns`` (default 10000 game turns — recruiting turns plus battle
    turns — then truncation with the current totals), ``render_mode``
    (``"ansi"``/``"human"``), ``render_seat`` (None = omniscient). Variant options:
    ``prize_crew`` (bool, default False: adds a Ship's Cook per suit and the Prize Crew
    ship), ``alternate_aargh`` (bool, default False: claimants are asked in a random
    order instead of from the discarder's left), ``target_score`` (int, default 500),
    ``max_rounds`` (int, default 0 = no limit: the game ends after that many rounds).

Action space
    ``Discrete(3C + 3 + 2*3(n-1) + 3)`` where C is the card count (74; 78 with
    ``prize_crew``); with 74 cards and 2 players ``Discrete(234)``. ``C`` below = 74.

    ===================  ======================================================
    0 .. C-1             discard card c (ends a recruiting turn)
    C .. 2C-1            launch a ship led by card c (Admiral, Captain, Privateer)
    2C .. 3C-1           put card c into the crew being launched (one per step)
    3C                   Aargh! — claim the top discard as your next draw
    3C+1                 pass (no claim)
    3C+2 .. 3C+4         attack with your ship k (launch order 1-3)
    next 3(n-1)          attack ship j of the opponent d seats to your left:
                         index = base + 3(d-1) + j
    next 3(n-1)          let the selected ship's Spy look at that ship first
    last                 pass: no more attacks this round (never during the first
                         fleet's compulsory attacks; after a Spy look it ends the turn)
    ===================  ======================================================

    Every partial choice is masked so it can be completed: a shipmaster is offered only
    when the hand holds a legal crew for it, and each crew card only when the ship can
    still be finished. ``game.action_name(a)`` names any action.

Observation
    ``Dict(observation=Box(float32, (OBS_SIZE,)), action_mask=Box(int8, (234,)))`` for 2
    players and 74 cards (the size grows with players and the Prize Crew cards). Built
    from the player's view only: own hand, own crews, the crews a battle revealed or the
    player's Spy saw, the discard pile, reserved (claimed) cards and claimed cards known
    to be in a player's hand, shipmasters of every launched ship, plunder, hand sizes and
    scores, and while you are asked Aargh! what claiming the top discard would do to the
    best ship your hand can launch. Seats are relative (block 0 is you, block d the
    player d seats to your left). The derived fields, listed apart under their own
    heading, are computed from the view to help bots learn; ``derived_features=False``
    leaves them out (the information state alone; ``env.unwrapped.layout`` then
    describes that shorter vector).
    ``env.unwrapped.layout.describe()`` prints the table; read a field with
    ``layout.read(obs, "hand")``. The table for 2 players:

LAYOUT_TABLE

Rewards
    Zero until the game ends. ``rank``: (opponents beaten - opponents that beat you) /
    (n - 1) on the final totals; ``win``: 1 for the best total (ties share), else 0;
    ``score``: the final total. ``infos[agent]["scores"]`` holds every total,
    ``["winner_mask"]`` one flag per
    scoring seat, true for every seat sharing the win.

Version history
    v0: first release.
"""

from plunder.envs.all_hands_battle.engine import AllHandsBattleGame
from plunder.envs.core.env import env_docstring, make_env_functions

Game = AllHandsBattleGame
env, raw_env, parallel_env = make_env_functions(Game)

__doc__ = env_docstring(__doc__, Game)
