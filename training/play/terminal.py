"""`plunder play GAME`: a person plays in the terminal against bots.

The person sees only what their seat may see: before each of their decisions, what every
player did since their last move (the game's move log, ``core.movelog.describe_step``,
built from that seat's views), then the table from their seat (the env's text rendering),
a line saying what is being decided and the legal moves, each labelled with what it acts
on (``core.guide``, from the seat's view). They choose by the number shown, or by a unique
start of the label (or a word of it, such as ``#13``). A move that is their only legal one
is played for them, with a line saying so (``auto_play``, on by default). ``help`` lists
these commands, ``rules`` prints the game's rules page, ``table`` the table again. At the
end a table breaks the final scores down (``GameState.score_breakdown``). Every line fits
``WIDTH`` (80) columns.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable

import numpy as np

from plunder.envs import game_class, make
from plunder.envs.core import InvalidArgumentError
from plunder.envs.core.guide import decision_prompt, forced_line, move_labels, only_move, rules_text
from plunder.envs.core.movelog import describe_step, format_breakdown
from plunder.envs.core.strict import is_whole_number
from plunder.policies import choose_action, make_bot

#: the text is kept readable in a terminal of this many columns
WIDTH = 80


#: the words typed at the move prompt that are not moves
COMMANDS = {
    "help": "this list",
    "rules": "the rules of the game",
    "table": "the table and your moves again",
    "quit": "leave the game",
}


def parse_choice(text: str, legal: list[int], names: dict[int, str]) -> int | None:
    """The action a typed answer means: the number shown beside a move (1, 2, ... in the
    order of ``legal``), a move's whole label, a unique start of one, or words that appear
    in exactly one (``#13``); None if unclear."""
    text = text.strip().lower()
    if not text:
        return None
    if is_whole_number(text):
        k = int(text)
        return legal[k - 1] if 1 <= k <= len(legal) else None
    exact = [a for a in legal if names[a].lower() == text]
    if len(exact) == 1:
        return exact[0]
    matches = [a for a in legal if names[a].lower().startswith(text)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        return None
    words = re.compile(r"(?<!\S)" + re.escape(text) + r"(?![\w#])")
    inside = [a for a in legal if words.search(names[a].lower())]
    return inside[0] if len(inside) == 1 else None


def wrap(line: str, indent: str = "  ") -> str:
    """One log line wrapped to the terminal width (continuation lines indented more)."""
    return textwrap.fill(line, width=WIDTH, initial_indent=indent,
                         subsequent_indent=indent + "  ", break_on_hyphens=False)


def fit(text: str, width: int = WIDTH) -> str:
    """A game's text rendering made readable at ``width`` columns: a Markdown table too
    wide for it becomes one wrapped ``column: value`` paragraph per row, a run of wide
    lines laid out in columns (tiles side by side) is cut between columns into bands, and
    any other long line wraps with its continuation indented."""
    out: list[str] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        j = i + 1
        if lines[i].startswith("|"):
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            out.extend(_table_records(lines[i:j], width))
        elif len(lines[i]) > width:
            while j < len(lines) and len(lines[j]) > width and not lines[j].startswith("|"):
                j += 1
            block = lines[i:j]
            out.extend(_column_bands(block, width) if len(block) > 1 else
                       [_wrap_line(block[0], width)])
        else:
            out.append(lines[i])
        i = j
    return "\n".join(out)


def _wrap_line(line: str, width: int) -> str:
    """One long line wrapped, keeping its indent, continuation lines indented more."""
    lead = line[:len(line) - len(line.lstrip())]
    return textwrap.fill(line.strip(), width=width, initial_indent=lead,
                         subsequent_indent=lead + "    ", break_on_hyphens=False)


def _column_bands(block: list[str], width: int) -> list[str]:
    """Lines laid out in columns cut into bands no wider than ``width``, each cut where
    every line has a gap of at least three spaces (between columns, not inside a tile)."""
    bands: list[list[str]] = []
    rest = block
    while any(len(line) > width for line in rest):
        cut = next((c for c in range(width, 3, -1)
                    if all(not line[c - 3:c].strip() for line in rest)
                    and any(line[c:c + 1].strip() for line in rest)), None)
        if cut is None:
            return [_wrap_line(line, width) for line in rest] if not bands else \
                [x for band in bands for x in band + [""]] + \
                [_wrap_line(line, width) for line in rest]
        bands.append([line[:cut].rstrip() for line in rest])
        rest = [line[cut:] for line in rest]
    bands.append([line.rstrip() for line in rest])
    out: list[str] = []
    for k, band in enumerate(bands):
        out.extend(([""] if k else []) + band)
    return out


def _table_records(rows: list[str], width: int) -> list[str]:
    """A Markdown table as it is if it fits, else one ``head: value; ...`` paragraph per
    row (the header names each value; the ``|---|`` rule is dropped)."""
    if all(len(r) <= width for r in rows):
        return rows
    cells = [[c.strip() for c in r.strip().strip("|").split("|")] for r in rows]
    head, body = cells[0], [c for c in cells[1:] if not all(set(x) <= set("-: ") for x in c)]
    out = []
    for row in body:
        items = [f"{h}: {v}" if h else v for h, v in zip(head, row) if v != ""]
        line = "-"
        for k, item in enumerate(items):       # whole items per line where they fit
            piece = item + (";" if k < len(items) - 1 else "")
            if len(line) + 1 + len(piece) > width and line.strip("- "):
                out.append(line)
                line = "   "
            line += " " + piece
        out.append(line)
    return [x if len(x) <= width else _wrap_line(x, width) for x in out]


def check_setup(env_id: str, seat: int, bots: list[str] | None, num_players: int | None,
                seed: int | None, options: dict) -> tuple[int, list[str]]:
    """The player count and one bot spec per other seat; InvalidArgumentError (with the
    option to fix named) for anything a person typed wrong."""
    cls = game_class(env_id)
    if seed is not None and seed < 0:
        raise InvalidArgumentError(f"--seed must be 0 or more, got {seed}")
    bots = [b.strip() for b in bots] if bots else ["heuristic"]
    if any(not b for b in bots):
        raise InvalidArgumentError("--bots has an empty entry; give comma-separated names "
                                   "such as heuristic,random")
    n = num_players or (len(bots) + 1 if len(bots) > 1 else cls.min_players)
    if not cls.min_players <= n <= cls.max_players:
        raise InvalidArgumentError(f"--players: {env_id} is for {cls.min_players}-"
                                   f"{cls.max_players} players, got {n}")
    if not 0 <= seat < n:
        raise InvalidArgumentError(f"--seat must be 0..{n - 1} with {n} players, got {seat}")
    if len(bots) == 1:
        bots = bots * (n - 1)
    if len(bots) != n - 1:
        raise InvalidArgumentError(f"{n} players need {n - 1} bots (or one for all) in "
                                   f"--bots, got {len(bots)}: {','.join(bots)}")
    for spec in set(bots):
        make_bot(spec, env_id, n, seed=0, **options)     # unknown kinds, missing files
    return n, bots


def play(env_id: str, seat: int = 0, bots: list[str] | None = None,
         num_players: int | None = None, seed: int | None = None,
         ask: Callable[[str], str] = input, say: Callable[[str], None] = print,
         max_turns: int | None = None, auto_play: bool = True, **options) -> list[float]:
    """Play one game; returns the final scores (empty if the person left).
    ``auto_play``: a decision with one legal move is played for the person."""
    n, bots = check_setup(env_id, seat, bots, num_players, seed, options)
    env = make(env_id, num_players=n, raw=True, render_mode="ansi", render_seat=seat,
               max_turns=max_turns, **options)
    env.reset(seed=seed)
    game = env.game
    me = env.possible_agents[seat]
    seat_of = env.unwrapped.agent_name_mapping
    others = [s for s in range(n) if s != seat]
    policies = {env.possible_agents[s]: make_bot(spec, env_id, n, seed=None if seed is None
                                                  else seed + s, **options)
                for s, spec in zip(others, bots)}
    say(_wrap_line(f"You are {me} in {env_id} with {n} players; bots: "
                   + ", ".join(f"{a}={b}" for a, b in zip(policies, bots)), WIDTH))
    say(_wrap_line("At the move prompt type a move's number or words; help lists the "
                   "commands, rules shows the rules.", WIDTH))
    log: list[str] = []          # what the person learned since their last move
    joint: dict[int, int] = {}   # the decisions of the step being collected
    before = None
    info = {}
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        if agent == me:
            show_log(log, say)
            action = ask_move(env, game, obs, ask, say, seat=seat, auto_play=auto_play)
            if action is None:
                say("\nno more input; leaving the game")
                return []
        else:
            action = choose_action(policies[agent], env, agent, obs)
        state = env.unwrapped.game_state
        if not joint:
            before = state.clone()
        joint[seat_of[agent]] = int(action)
        env.step(action)
        if set(joint) >= set(before.current_players()):     # the joint action was applied
            log.extend(describe_step(game, before, joint, env.unwrapped.game_state, seat))
            joint = {}
    show_log(log, say)
    state = env.unwrapped.game_state
    scores = info.get("scores", [])
    say("\nGame over." if state.is_terminal() else "\nThe turn limit is reached.")
    say("\n".join(format_breakdown(game, state, width=WIDTH, you=seat)))
    winners = [game.seat_name(i) for i, w in enumerate(info.get("winner_mask", [])) if w]
    say(_wrap_line("Scores: " + ", ".join(f"{game.seat_name(i)}: {s:g}"
                                          for i, s in enumerate(scores))
                   + f"; {'winner' if len(winners) == 1 else 'winners'}: "
                   + (", ".join(winners) or "none"), WIDTH))
    return scores


def show_log(log: list[str], say: Callable[[str], None]) -> None:
    """Print and clear the lines gathered since the person's last move."""
    if log:
        say("\nSince your last move:")
        for line in log:
            say(wrap(line))
        log.clear()


def ask_move(env, game, obs, ask, say, seat: int | None = None,
             auto_play: bool = False) -> int | None:
    """Show the table, what is being decided and the legal moves (labelled from the
    seat's view); the chosen action (None when input ends or the person quits). With
    ``auto_play`` a single legal move is played at once, with a line saying so."""
    if seat is None:
        seat = env.unwrapped.agent_name_mapping[env.agent_selection]
    legal = np.flatnonzero(obs["action_mask"]).tolist()
    view = env.unwrapped.game_state.view(seat)
    labels = move_labels(game, view, legal)
    forced = only_move(legal) if auto_play else None
    if forced is not None:
        say(wrap(forced_line(labels[forced]), indent=""))
        return forced

    def show():
        say("\n" + fit(env.render()))
        say("\n" + _wrap_line(decision_prompt(game, view, legal), WIDTH))
        say("Your move:")
        for line in move_columns([f"{k:4d}  {labels[a]}" for k, a in enumerate(legal, 1)]):
            say(line)

    show()
    while True:
        try:
            answer = ask("> ")
        except EOFError:
            return None
        word = answer.strip().lower()
        if word in ("help", "?"):
            say(_wrap_line("Type the number beside a move, or its words (a unique start "
                           "such as 'play a', or a word only one move has, such as '#13'). "
                           "Commands:", WIDTH))
            for name, what in COMMANDS.items():
                say(f"  {name:6s} {what}")
            continue
        if word == "rules":
            say("\n" + fit(rules_text(game.env_id())))
            continue
        if word == "table":
            show()
            continue
        if word == "quit":
            return None
        choice = parse_choice(answer, legal, labels)
        if choice is not None:
            return choice
        say(wrap(f"not a move: type a number 1-{len(legal)}, a unique start of a move's "
                 "words, or help", indent=""))


def move_columns(entries: list[str], width: int = WIDTH) -> list[str]:
    """The legal moves, one per line (a long one wrapped under its words), or side by side
    in columns (filled down) when there are many short ones."""
    col = max(len(e) for e in entries) + 4
    per_line = max(1, (width - 2) // col) if len(entries) > 10 else 1
    if per_line == 1:
        return [textwrap.fill(e, width=width, initial_indent="  ", subsequent_indent=" " * 10,
                              break_on_hyphens=False) for e in entries]
    rows = -(-len(entries) // per_line)
    return ["  " + "".join(entries[r + k * rows].ljust(col) for k in range(per_line)
                           if r + k * rows < len(entries)).rstrip() for r in range(rows)]


def main_play(env_id, seat, bots, players, seed, auto_play: bool = True):
    """Entry point used by the CLI: a person's mistake is one ``Error:`` line (exit 1)."""
    import click

    from plunder.envs.core import PlunderError

    try:
        play(env_id, seat=seat, bots=bots.split(",") if bots else None,
             num_players=players, seed=seed, ask=lambda prompt: input(prompt),
             say=click.echo, auto_play=auto_play)
    except PlunderError as exc:
        raise click.ClickException(str(exc)) from None
    except KeyboardInterrupt:
        raise SystemExit(130) from None
