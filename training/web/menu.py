"""What the page's setup form offers, in words: the bots by name and the variant options,
each with a sentence.

``BOTS`` is the one table of the bots the page lists: a readable name, a sentence, the
bot spec it sends (``plunder.policies.base.BOT_SPECS`` grammar) and what it needs (a
shipped network for the game and player count, the game's planner, a bot file). A kind
of ``BOT_SPECS`` that this table does not name yet is still offered, under its spec
(``bot_menu``). ``OPTIONS`` says what each variant option of each game does and how the
page asks for it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from plunder.policies import base as policy_base


@dataclass(frozen=True)
class Bot:
    """One entry of the bot menu."""

    #: the bot spec sent (without the argument the person types, if any)
    spec: str
    name: str
    sentence: str
    #: what the person types after ``spec:``: "" nothing, "samples" a number of sampled
    #: states a move, "file" a bot file in the server's bot folder
    arg: str = ""
    #: "shipped": a shipped network for the game and player count (its strength);
    #: "planner": the game has a planner; "" always
    needs: str = ""


#: the bots the page offers, weakest first
BOTS = (
    Bot("random", "Random", "Plays any legal move at random: for learning the rules."),
    Bot("heuristic", "Scripted", "The game's hand-written bot: quick, sensible moves."),
    Bot("planner", "Planner", "A stronger hand-written bot that looks ahead.",
        needs="planner"),
    Bot("search", "Search", "Plays each move out in sampled deals of the cards it cannot "
                            "see and picks the best.", arg="samples"),
    Bot("pretrained:early", "Trained, early", "The network shipped for this game, from "
                                              "early in its training.", needs="early"),
    Bot("pretrained", "Trained", "The network shipped for this game and player count.",
        needs="final"),
    Bot("netsearch:pretrained", "Trained with search", "The shipped network, checking its "
                                                       "best moves in sampled deals: the "
                                                       "strongest bot.", needs="final"),
    Bot("trained", "Your network", "A network file from the server's bot folder (plunder "
                                   "export): its likeliest move.", arg="file"),
    Bot("sampled", "Your network, sampled", "A network file from the server's bot folder, "
                                            "drawing its moves from its probabilities.",
        arg="file"),
    Bot("netsearch", "Your network with search", "A network file from the server's bot "
                                                 "folder, checking its best moves in "
                                                 "sampled deals.", arg="file"),
)


def spec_kind(spec: str) -> str:
    """The kind of a bot spec (its part before the first colon or bracket)."""
    return re.split(r"[:\[]", spec, maxsplit=1)[0]


def level_bots() -> tuple[Bot, ...]:
    """The named strength levels (``policies/pretrained/levels.toml``), weakest first, as
    menu entries: a level that plays a shipped network needs one for the table."""
    from plunder.policies.levels import LEVELS, load_levels

    table = load_levels()["levels"]
    out = []
    for level in LEVELS:
        bot = table[level]["bot"]
        needs = "final" if "pretrained" in bot else ""
        out.append(Bot(f"level:{level}", level.capitalize(), table[level]["sentence"],
                       needs=needs))
    return tuple(out)


def bot_menu() -> list[dict]:
    """The bot menu as the catalogue sends it: the named levels, ``BOTS``, then every
    kind of ``BOT_SPECS`` the table does not name, offered under its spec (an argument
    field where it takes one)."""
    bots = level_bots() + BOTS
    entries = [{"spec": b.spec, "name": b.name, "sentence": b.sentence, "arg": b.arg,
                "needs": b.needs} for b in bots]
    named = {spec_kind(b.spec) for b in bots}
    for spec in policy_base.BOT_SPECS:
        kind = spec_kind(spec)
        if kind not in named:
            entries.append({"spec": kind, "name": kind, "sentence": f"bot spec {spec}",
                            "arg": "text" if spec != kind else "", "needs": ""})
    return entries


@dataclass(frozen=True)
class Option:
    """How the page asks for one variant option."""

    label: str
    sentence: str
    #: "" (from the default's type), "seats" (a box per seat), "choice" (``choices``),
    #: "mix" (a number per card type), or "json"
    widget: str = ""
    #: (value, label) pairs of a "choice"
    choices: tuple[tuple[Any, str], ...] = ()
    #: the names of a "mix"'s numbers
    parts: tuple[str, ...] = ()


#: game name -> option name -> how the page asks for it
OPTIONS: dict[str, dict[str, Option]] = {
    "anchors_aweigh": {
        "meddlesome_monkey": Option(
            "Meddlesome Monkey", "A handicap: each ticked seat places a monkey tile on its "
                                 "ship first, where it stays all game (at most 3).",
            widget="seats"),
        "open_ocean": Option(
            "Open Ocean", "Which 13 adventure cards a round uses: the standard mix, a "
                          "custom mix, or a random draw (at least one of every type).",
            widget="choice",
            choices=(("", "standard"), ("custom", "custom mix"), ("random", "random"))),
        "open_ocean_mix": Option(
            "Custom mix", "With Open Ocean's custom mix: how many cards of each type a "
                          "round uses (13 in all; empty: the game's own custom mix).",
            widget="mix", parts=("discovery", "trade", "pirates", "contract")),
        "rough_seas": Option(
            "Rough Seas", "3-4 players: starfish rules as with 2 players, monkeys are wild, "
                          "and at every travel decision two tiles of a kind may be swapped "
                          "for a face-up tile."),
        "perfect_recall": Option(
            "Perfect recall", "The bots remember the adventure cards after the captain "
                              "turns them face down (the rulebook hides them)."),
    },
    "all_hands_battle": {
        "prize_crew": Option(
            "Prize Crew", "Adds a Ship's Cook to every suit: an Admiral crewed by a Captain, "
                          "the Cook and one more card is a Prize Crew, which beats any "
                          "regular crew."),
        "alternate_aargh": Option(
            "Alternate Aargh!", "After each discard the others are asked in a random order "
                                "(not from the discarder's left); the first claim takes "
                                "the card."),
        "target_score": Option(
            "Target score", "Rounds are played until somebody reaches this many points."),
        "max_rounds": Option(
            "Most rounds", "Stop after this many rounds whatever the scores (0: no "
                           "limit)."),
    },
    "all_hands_crew": {
        "open_stock": Option(
            "Open stock", "Every stock is shown to everyone at the hiring signal, so "
                          "everybody sees who hires what."),
    },
}


def option_entry(game: str, name: str, default: Any, kind: str) -> dict:
    """The catalogue's entry of a variant option: its name, default and type (``kind``,
    as ``app.option_type`` says), and from ``OPTIONS`` its label, sentence and widget."""
    how = OPTIONS.get(game, {}).get(name)
    entry = {"name": name, "default": default, "type": kind,
             "label": how.label if how else name.replace("_", " "),
             "sentence": how.sentence if how else "", "widget": how.widget if how else ""}
    if how and how.choices:
        entry["choices"] = [{"value": v, "label": label} for v, label in how.choices]
    if how and how.parts:
        entry["parts"] = list(how.parts)
    return entry
