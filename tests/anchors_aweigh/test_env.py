"""The Anchors Aweigh! env: registration, parallel form, rendering, the heuristic bot."""

from __future__ import annotations

import numpy as np
import pytest

from plunder.envs import ENV_IDS, anchors_aweigh_v0, make, make_parallel
from plunder.policies import RandomPolicy, make_bot


def test_registered_with_heuristic():
    assert "anchors_aweigh_v0" in ENV_IDS
    bot = make_bot("heuristic", "anchors_aweigh_v0", 3, seed=0, rough_seas=True)
    assert bot.wild_monkeys


def test_docstring_has_the_layout_table():
    doc = anchors_aweigh_v0.__doc__
    assert "| `ships` |" in doc and "Version history" in doc and "Discrete(193)" in doc


def test_layout_fields_readable_by_name():
    env = make_parallel("anchors_aweigh_v0", num_players=3)
    obs, _ = env.reset(seed=0)
    o = obs["player_0"]["observation"]
    assert env.layout.read(o, "supply").tolist() == [1.0] * 4
    assert env.layout.read(o, "me_acting")[0] == 1
    assert env.layout.size == o.shape[0]


def test_render_from_a_seat_hides_face_down_grabs():
    env = make("anchors_aweigh_v0", num_players=2, raw=True, render_mode="ansi",
               render_seat=1)
    env.reset(seed=0)
    env.step(0)      # player_0 grabs face down
    env.step(11)     # player_1 flips
    text = env.render()
    assert "seen by player_1" in text and "??" in text
    env.render_seat = None
    full = env.render()
    assert "omniscient" in full and "deck (top first)" in full


def _play(n, seed, heuristic_seat, **options):
    env = make_parallel("anchors_aweigh_v0", num_players=n, **options)
    bots = [make_bot("heuristic", "anchors_aweigh_v0", n, seed=seed, **options)
            if i == heuristic_seat else RandomPolicy(seed=seed * 7 + i) for i in range(n)]
    obs, _ = env.reset(seed=seed)
    infos = {}
    while env.agents:
        acts = {a: bots[env.agent_name_mapping[a]].act(obs[a]["observation"],
                                                       obs[a]["action_mask"])
                for a in env.acting_agents()}
        obs, _, terms, truncs, infos = env.step(acts)
    assert all(terms.values()) and not any(truncs.values())
    return [i for i, w in enumerate(infos["player_0"]["winner_mask"]) if w]


@pytest.mark.parametrize("n,options", [(2, {}), (4, {"rough_seas": True}),
                                       (3, {"meddlesome_monkey": [0]})])
def test_heuristic_beats_random(n, options):
    wins = sum(s % n in _play(n, s, s % n, **options) for s in range(4))
    assert wins >= 3


@pytest.mark.slow
def test_heuristic_win_share_vs_random():
    for n in (2, 4):
        share = np.mean([s % n in _play(n, s, s % n) for s in range(60)])
        assert share > 0.8
