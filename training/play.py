"""`plunder play GAME`: a person plays in the terminal against bots.

The person sees only what their seat may see (the env's text rendering from that seat)
and chooses among the legal actions by number or by (a unique prefix of) their name.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import numpy as np

from plunder.envs import game_class, make
from plunder.envs.core import InvalidArgumentError
from plunder.policies import choose_action, make_bot


def parse_choice(text: str, legal: list[int], names: dict[int, str]) -> int | None:
    """The action a typed answer means: an index, or a unique name prefix; None if unclear."""
    text = text.strip().lower()
    if not text:
        return None
    if text.isdigit() and int(text) in legal:
        return int(text)
    exact = [a for a in legal if names[a].lower() == text]
    if len(exact) == 1:
        return exact[0]
    matches = [a for a in legal if names[a].lower().startswith(text)]
    return matches[0] if len(matches) == 1 else None


def play(env_id: str, seat: int = 0, bots: list[str] | None = None,
         num_players: int | None = None, seed: int | None = None,
         ask: Callable[[str], str] = input, say: Callable[[str], None] = print,
         max_turns: int | None = None, **options) -> list[float]:
    """Play one game; returns the final scores."""
    cls = game_class(env_id)
    n = num_players or (len(bots) + 1 if bots else cls.min_players)
    if not 0 <= seat < n:
        raise InvalidArgumentError(f"--seat must be 0..{n - 1}")
    bots = list(bots or ["heuristic"])
    if len(bots) == 1:
        bots = bots * (n - 1)
    if len(bots) != n - 1:
        raise InvalidArgumentError(f"{n} players need {n - 1} bots (or one for all), "
                                   f"got {len(bots)}")
    env = make(env_id, num_players=n, raw=True, render_mode="ansi", render_seat=seat,
               max_turns=max_turns, **options)
    env.reset(seed=seed)
    game = env.game
    me = env.possible_agents[seat]
    seats = [s for s in range(n) if s != seat]
    policies = {env.possible_agents[s]: make_bot(spec, env_id, n, seed=None if seed is None
                                                  else seed + s, **options)
                for s, spec in zip(seats, bots)}
    say(f"You are {me} in {env_id} with {n} players; bots: "
        + ", ".join(f"{a}={b}" for a, b in zip(policies, bots)))
    info = {}
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        if agent != me:
            env.step(choose_action(policies[agent], env, agent, obs))
            continue
        say("\n" + env.render())
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        names = {a: game.action_name(a) for a in legal}
        say("Your move:")
        for a in legal:
            say(f"  {a:4d}  {names[a]}")
        while True:
            try:
                answer = ask("> ")
            except EOFError:
                say("\nno more input; leaving the game")
                return []
            choice = parse_choice(answer, legal, names)
            if choice is not None:
                break
            say("type the number of a legal action, or a unique start of its name")
        env.step(choice)
    scores = info.get("scores", [])
    say("\nGame over. Scores: " + ", ".join(f"player_{i}: {s:g}" for i, s in enumerate(scores))
        + f"; winners: {', '.join(f'player_{w}' for w in info.get('winners', []))}")
    return scores


def main_play(env_id, seat, bots, players, seed):
    """Entry point used by the CLI."""
    try:
        play(env_id, seat=seat, bots=bots.split(",") if bots else None,
             num_players=players, seed=seed)
    except KeyboardInterrupt:
        sys.exit(130)
