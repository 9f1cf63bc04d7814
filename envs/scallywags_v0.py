"""Scallywags — grab, steal and swap hidden coins with action cards (2-6 players).

Each player builds a *take* of coins from the middle: face-down coins (values 0, 1, 3, 5,
8, unseen) and face-up ones, using nine action cards to grab, steal, swap, peek and give
coins. The game ends when every take holds exactly the take limit (8 coins with 2-3
players, 6 with 4-6); the highest total wins. Full rules: ``envs/scallywags/rules.md``.

    from plunder.envs import scallywags_v0
    env = scallywags_v0.env(num_players=4)

Agents
    ``player_0`` … ``player_{n-1}``; seat order is turn order, the first player is drawn at
    random. Turn-based (AEC only; there is no ``parallel_env``). A turn is one or more steps
    of the same agent; a touched opponent gets one block/allow step out of turn.

Arguments
    ``num_players`` (2-6, default 2), ``reward_mode`` (``"rank"`` default, ``"win"``,
    ``"score"``), ``max_turns`` (default 400 turns; then truncation with the current
    takes as scores), ``render_mode`` (``"ansi"``/``"human"``), ``render_seat`` (None =
    omniscient). No variant options.

Action space
    ``Discrete(65)`` with the 40 packaged coins:

    ======  ==============================================================
    0-8     play card k (ARRGH!, AVAST ME HEARTIES!, BLOW ME DOWN!, GIVES US ME
            BOOTY!, SHIVER ME TIMBERS!, UM, LIKE, LAND HO!, PIECES OF EIGHT!,
            YO HO HO!, HANDS OFF ME BOOTY!)
    9-17    discard card k and draw (only when nothing else is possible)
    18-57   coin c: at the start of a turn, take face-down coin c from the middle;
            after playing a card, choose coin c as its next target
    58-62   opponent at seat offset d = 1..5 (to your left) as the next target
    63      block with HANDS OFF ME BOOTY!
    64      allow
    ======  ==============================================================

    Targets are asked in a fixed order per card: ARRGH!/PIECES OF EIGHT! a coin in an
    opponent's take; AVAST! your face-down coin, then an opponent's face-down coin; BLOW
    ME DOWN! two face-down middle coins (you see them), then the receiver of each; GIVES
    US ME BOOTY! a face-up middle coin; SHIVER ME TIMBERS! a face-down then a face-up
    middle coin; LAND HO! the coin to look at, then the face-down coin to take; YO HO HO!
    a face-up middle coin, then its receiver. Every partial choice is masked so it can be
    completed. An action that takes from, swaps with or gives to opponents is then offered
    to each of them (turn order from the actor) as block/allow; block is legal only with
    HANDS OFF ME BOOTY! in hand, but every touched player is asked, so being asked reveals
    nothing.

Observation
    ``Dict(observation=Box(float32, (OBS_SIZE,)), action_mask=Box(int8, (65,)))`` with 40
    coins. Built from the player's view only: face-up values, the values of coins the
    player has seen (its own take, coins it looked at, held, gave or swapped away:
    perfect recall, following coin ids), who has seen each coin (public), own hand, hand
    sizes, the discard pile, the pending card and its targets. Seats are relative (offset
    0 is you). The derived fields, listed apart under their own heading, are computed
    from the view to help bots learn; ``derived_features=False`` leaves them out (the
    information state alone; ``env.unwrapped.layout`` then describes that shorter vector).
    ``env.unwrapped.layout.describe()`` prints the table; read a field with
    ``layout.read(obs, "hand")``:

LAYOUT_TABLE

Rewards
    Zero until the end. ``rank``: (opponents beaten - opponents that beat you) / (n - 1);
    ``win``: 1 for the best total (ties share), else 0; ``score``: the take's value.
    ``infos[agent]["scores"]`` holds every final score, ``["winner_mask"]`` one flag per
    scoring seat, true for every seat sharing the win.

Version history
    v0: first release.
"""

from plunder.envs.core.env import env_docstring, make_env_functions
from plunder.envs.scallywags.engine import ScallywagsGame

Game = ScallywagsGame
env, raw_env, parallel_env = make_env_functions(Game)

__doc__ = env_docstring(__doc__, Game)
