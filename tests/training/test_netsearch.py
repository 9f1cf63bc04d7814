"""The network-guided search bot (``netsearch:PATH.onnx[:SAMPLES]``): it reads only its
view, plays legal moves, is seeded, and needs a network with a value output."""

from __future__ import annotations

import json

import numpy as np
import pytest

from plunder.envs import ENV_IDS, game_class
from plunder.envs.core import InvalidArgumentError, ModelFileError
from plunder.policies.base import make_bot
from plunder.policies.netsearch import MIN_GAIN, NetSearchPolicy
from plunder.policies.onnx_policy import OnnxPolicy


def random_network(env_id: str, n: int, path, seed: int = 0):
    """An exported bot with random weights (for games no test trains)."""
    from plunder.training.selfplay.actors import Critic, MlpActor
    from plunder.training.selfplay.config import config_from_dict
    from plunder.training.selfplay.export import export_actor

    game = game_class(env_id)(n)
    d, a, h = game.layout.size, game.num_actions, 16
    rng = np.random.default_rng(seed)
    actor = MlpActor([(rng.normal(0, d ** -0.5, (d, h)), np.zeros(h))], "tanh",
                     (rng.normal(0, 1, (h, a)), np.zeros(a)))
    critic = Critic([(rng.normal(0, d ** -0.5, (d, h)), np.zeros(h))], "tanh",
                    (rng.normal(0, 0.5, (h, 1)), np.zeros(1)))
    cfg = config_from_dict({"game": env_id, "num_players": n})
    return export_actor(actor, cfg, 0, {}, path, critic=critic)


def decision_states(game, seed: int, count: int, min_legal: int = 2):
    """States of a random playout where the acting seat has a real choice."""
    rng = np.random.default_rng(seed)
    state = game.new_game(rng)
    out = []
    while not state.is_terminal() and len(out) < count and state.turns < 2000:
        players = state.current_players()
        if any(np.count_nonzero(state.legal_actions_mask(p)) >= min_legal for p in players) \
                and rng.random() < 0.3:
            out.append(state.clone())
        state.apply_joint({p: int(rng.choice(np.flatnonzero(state.legal_actions_mask(p))))
                           for p in players})
    return out


def check_choice_depends_only_on_the_view(env_id, tmp_path, belief="uniform", seed=2,
                                          count=8):
    """Play bots with the same seed on states that differ only in what the seat cannot
    know (drawn with sample_state from its own view) and assert the same legal move;
    returns (decisions checked, how many states had other hidden facts, how many views
    had Drawing Pile cards another player put back)."""
    n = game_class(env_id).min_players
    game = game_class(env_id)(n)
    path = random_network(env_id, n, tmp_path / "net.onnx")
    rng = np.random.default_rng(1)
    checked = hidden_differed = put_back = 0
    for state in decision_states(game, seed=seed, count=count):
        for p in state.current_players():
            mask = state.legal_actions_mask(p)
            if np.count_nonzero(mask) < 2:
                continue
            view = state.view(p)
            put_back += any(m and not m >> p & 1
                            for masks in getattr(view, "pile_masks", ()) for m in masks)
            other = game.sample_state(view, rng)          # same view, other hidden facts
            assert other.view(p) == view
            hidden_differed += other.to_dict() != state.to_dict()
            choices = []
            for st in (state, other):
                bot = NetSearchPolicy(game, OnnxPolicy(path, env_id, n), seed=7, samples=2,
                                      top_k=3, horizon=1, max_rounds=30, belief=belief)
                choices.append(bot.act_view(st.view(p), st.legal_actions_mask(p)))
            assert choices[0] == choices[1]
            assert mask[choices[0]]
            checked += 1
    return checked, hidden_differed, put_back


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_choice_depends_only_on_the_view(env_id, tmp_path):
    """A state that differs only in what the seat cannot know gets the same move from a
    bot with the same seed."""
    checked, hidden_differed, _ = check_choice_depends_only_on_the_view(env_id, tmp_path)
    assert checked >= 3 and hidden_differed >= 1


def test_trained_netsearch_plays_legal_seeded_moves(scallywags_run):
    path = scallywags_run / "bot.onnx"
    game = game_class("scallywags_v0")(2)
    states = decision_states(game, seed=4, count=6)
    for state in states:
        p = state.current_players()[0]
        view, mask = state.view(p), state.legal_actions_mask(p)
        a = make_bot(f"netsearch:{path}:3", "scallywags_v0", 2, seed=5)
        b = make_bot(f"netsearch:{path}:3", "scallywags_v0", 2, seed=5)
        assert a.samples == 3
        choice = a.act_view(view, mask)
        assert mask[choice] and choice == b.act_view(view, mask)
    with pytest.raises(TypeError, match="view"):
        make_bot(f"netsearch:{path}", "scallywags_v0", 2).act(np.zeros(3), np.ones(3))


def test_netsearch_spec_and_argument_errors(scallywags_run, tmp_path):
    path = scallywags_run / "bot.onnx"
    assert make_bot(f"netsearch:{path}", "scallywags_v0", 2).samples == 16
    with pytest.raises(InvalidArgumentError, match="needs a path"):
        make_bot("netsearch", "scallywags_v0", 2)
    with pytest.raises(InvalidArgumentError, match="positive"):
        make_bot(f"netsearch:{path}:0", "scallywags_v0", 2)
    with pytest.raises(ModelFileError, match="no bot file"):
        make_bot(f"netsearch:{tmp_path / 'missing.onnx'}:4", "scallywags_v0", 2)
    with pytest.raises(ModelFileError, match="trained for 2 players"):
        make_bot(f"netsearch:{path}", "scallywags_v0", 3)
    net = OnnxPolicy(path, "scallywags_v0", 2)
    with pytest.raises(InvalidArgumentError, match="top_k"):
        NetSearchPolicy(game_class("scallywags_v0")(2), net, top_k=0)
    with pytest.raises(InvalidArgumentError, match="confidence"):
        NetSearchPolicy(game_class("scallywags_v0")(2), net, confidence=-1.0)
    for bad in (-0.1, float("nan"), "0.1", True):
        with pytest.raises(InvalidArgumentError, match="min_gain"):
            NetSearchPolicy(game_class("scallywags_v0")(2), net, min_gain=bad)


def test_the_network_favourite_stands_unless_another_is_clearly_better(scallywags_run):
    bot = make_bot(f"netsearch:{scallywags_run / 'bot.onnx'}", "scallywags_v0", 2)
    noisy = np.array([[0.0, 1.0, -0.5], [0.0, -0.8, 0.6], [0.0, 0.9, -0.4]])
    assert bot._choose(noisy) == 0                     # mean +0.37, but se 0.58
    clear = np.array([[0.0, 0.30, 0.1], [0.1, 0.35, 0.2], [-0.1, 0.25, 0.0]])
    assert bot._choose(clear) == 1                     # +0.3 each time
    bot.confidence = None                              # plain best mean
    assert bot._choose(noisy) == 1


def test_a_steady_small_gain_does_not_override_the_network(scallywags_run):
    """Paired differences without spread pass any standard-error test: a systematic
    difference of the critic's smaller than ``min_gain`` leaves the favourite."""
    bot = make_bot(f"netsearch:{scallywags_run / 'bot.onnx'}", "scallywags_v0", 2)
    assert bot.min_gain == MIN_GAIN > 0
    steady = np.array([[0.20, 0.21, 0.10], [0.40, 0.41, 0.30], [-0.1, -0.09, -0.2]])
    assert bot._choose(steady) == 0                    # +0.01 every time, se 0
    bot.min_gain = 0.0
    assert bot._choose(steady) == 1
    bot.min_gain = MIN_GAIN
    steady[:, 2] += 0.30                               # +0.01 and +0.20, both se 0
    assert bot._choose(steady) == 2


def test_netsearch_refuses_a_network_without_value_output(scallywags_run, tmp_path):
    """A plunder-bot/1 file (no value output) still plays greedily but cannot search."""
    import onnx

    model = onnx.load(str(scallywags_run / "bot.onnx"))
    keep = [o for o in model.graph.output if o.name != "value"]
    del model.graph.output[:]
    model.graph.output.extend(keep)
    meta = json.loads({p.key: p.value for p in model.metadata_props}["plunder"])
    meta["format"] = "plunder-bot/1"
    onnx.helper.set_model_props(model, {"plunder": json.dumps(meta, sort_keys=True)})
    old = tmp_path / "old.onnx"
    old.write_bytes(model.SerializeToString())
    bot = make_bot(f"trained:{old}", "scallywags_v0", 2)
    assert not bot.has_value
    with pytest.raises(ModelFileError, match="re-export"):
        make_bot(f"netsearch:{old}", "scallywags_v0", 2)
    # a format-2 file must have the value output
    meta["format"] = "plunder-bot/2"
    onnx.helper.set_model_props(model, {"plunder": json.dumps(meta, sort_keys=True)})
    old.write_bytes(model.SerializeToString())
    with pytest.raises(ModelFileError, match="unexpected graph"):
        OnnxPolicy(old, "scallywags_v0", 2)


def test_rollouts_to_the_end_score_the_finished_games():
    """``horizon=None`` plays every rollout to the end of the game (or its turn limit) and
    takes the game's reward there, never the critic's value; All Hands crew, whose shipped
    critic predicts results poorly, searches that way by default."""
    from plunder.policies.netsearch import default_horizon

    env_id, n = "all_hands_crew_v0", 2
    game = game_class(env_id)(n)
    bot = make_bot("netsearch:pretrained:2", env_id, n, seed=3)
    assert bot.horizon is None and bot.max_rounds is None and default_horizon(env_id) is None
    assert default_horizon("scallywags_v0") == 2
    assert default_horizon("anchors_aweigh_v0") == 24       # its critic: docs/training.md
    assert make_bot("netsearch:pretrained", "anchors_aweigh_v0", 2).horizon == 24
    state = decision_states(game, seed=5, count=1)[0]
    seat = next(p for p in state.current_players()
                if np.count_nonzero(state.legal_actions_mask(p)) >= 2)
    firsts = [int(a) for a in np.flatnonzero(state.legal_actions_mask(seat))[:2]]
    states = [state.clone() for _ in firsts]
    values = bot._rollouts(states, seat, firsts)
    for st, v in zip(states, values):
        assert st.is_terminal() or st.turns >= bot.max_turns
        assert v == bot._final_reward(st, seat)
    two_turns = NetSearchPolicy(game, bot.net, seed=3, samples=2, horizon=2)
    assert two_turns.max_rounds == 200
    with pytest.raises(InvalidArgumentError, match="horizon must be a positive int or None"):
        NetSearchPolicy(game, bot.net, horizon=0)


def test_an_explicit_max_rounds_is_kept_with_rollouts_to_the_end():
    game = game_class("all_hands_crew_v0")(2)
    net = make_bot("pretrained", "all_hands_crew_v0", 2)
    assert NetSearchPolicy(game, net, horizon=None, max_rounds=50).max_rounds == 50
    assert NetSearchPolicy(game, net, horizon=None).max_rounds is None
    assert NetSearchPolicy(game, net, horizon=3).max_rounds == 200
    with pytest.raises(InvalidArgumentError, match="max_rounds must be a positive int or None"):
        NetSearchPolicy(game, net, max_rounds=0)


def test_the_spec_takes_each_game_s_default_minimum_gain():
    """``netsearch:`` bots get the per-game minimum gain (Anchors Aweigh!'s was tuned
    higher); the Python API keeps its own argument."""
    from plunder.policies.netsearch import DEFAULT_MIN_GAIN, default_min_gain

    assert default_min_gain("anchors_aweigh_v0") == DEFAULT_MIN_GAIN["anchors_aweigh_v0"]
    assert default_min_gain("scallywags_v0") == MIN_GAIN
    for env_id in ENV_IDS:
        assert make_bot("netsearch:pretrained", env_id, 2).min_gain == default_min_gain(env_id)
    net = make_bot("pretrained", "anchors_aweigh_v0", 2)
    assert NetSearchPolicy(game_class("anchors_aweigh_v0")(2), net).min_gain == MIN_GAIN


def test_the_spec_takes_each_game_s_search_settings():
    """``netsearch:`` specs take :func:`default_settings`: crew's tuned confidence and
    candidate count, the constructor's own defaults elsewhere."""
    import inspect

    from plunder.policies.netsearch import default_settings

    crew = make_bot("netsearch:pretrained", "all_hands_crew_v0", 2)
    assert (crew.confidence, crew.top_k, crew.horizon, crew.belief) == (2.0, 2, None,
                                                                        "memory")
    params = inspect.signature(NetSearchPolicy).parameters
    plain = default_settings("scallywags_v0")
    assert plain == {k: params[k].default for k in plain}
    for env_id in ENV_IDS:
        bot = make_bot("netsearch:pretrained:4", env_id, 2)
        assert bot.samples == 4
        assert {k: getattr(bot, k) for k in plain} == default_settings(env_id)


def test_the_spec_sets_search_settings_by_name():
    """``netsearch:PATH[:SAMPLES][:KEY=VALUE]`` overrides one setting at a time and keeps
    the game's defaults for the rest; bad keys and values are refused, not ignored."""
    import inspect

    from plunder.policies.netsearch import SPEC_SETTINGS, default_settings

    assert set(SPEC_SETTINGS) <= set(inspect.signature(NetSearchPolicy).parameters)
    bot = make_bot("netsearch:pretrained:8:min_gain=0.05:horizon=end", "scallywags_v0", 2)
    assert (bot.samples, bot.min_gain, bot.horizon) == (8, 0.05, None)
    assert (bot.confidence, bot.top_k) == (default_settings("scallywags_v0")["confidence"],
                                           default_settings("scallywags_v0")["top_k"])
    bot = make_bot("netsearch:pretrained:top_k=2:confidence=1.5:samples=6:horizon=3",
                   "all_hands_crew_v0", 2)
    assert (bot.top_k, bot.confidence, bot.samples, bot.horizon) == (2, 1.5, 6, 3)
    assert bot.min_gain == default_settings("all_hands_crew_v0")["min_gain"]
    bad = {"netsearch:pretrained:depth=3": "unknown netsearch setting 'depth'",
           "netsearch:pretrained:top_k=two": "top_k must be int",
           "netsearch:pretrained:top_k=0": "top_k must be a positive int",
           "netsearch:pretrained:min_gain=-1": "min_gain must be a number >= 0",
           "netsearch:pretrained:min_gain=0.1:min_gain=0.2": "sets min_gain twice",
           "netsearch:pretrained:8:samples=4": "samples twice",
           "netsearch:pretrained:horizon=soon": "horizon must be int or end",
           "netsearch:pretrained:belief=returns": "unknown belief 'returns' for scallywags",
           "netsearch:min_gain=0.1": "needs a path"}
    for spec, message in bad.items():
        with pytest.raises(InvalidArgumentError, match=message):
            make_bot(spec, "scallywags_v0", 2)
    # a path with "=" in it is a path, not a setting
    with pytest.raises(ModelFileError, match="no bot file"):
        make_bot("netsearch:runs/lr=1e-3/bot.onnx:min_gain=0.1", "scallywags_v0", 2)


def test_a_belief_is_named_per_game_and_feeds_the_sampler():
    """``belief=NAME`` picks one of the game's ``BELIEFS`` (``uniform``: the plain
    sampler); an unknown name is refused."""
    from plunder.policies.netsearch import BELIEFS

    from plunder.policies.all_hands_crew_belief import RETURNED_WEIGHTS, CrewMemory

    game = game_class("all_hands_crew_v0")(2)
    state = game.new_game(np.random.default_rng(0))
    seat = state.current_players()[0]
    view, mask = state.view(seat), state.legal_actions_mask(seat)
    rng = np.random.default_rng(0)
    assert set(BELIEFS["all_hands_crew_v0"]) == {"returns", "memory"}
    bot = make_bot("netsearch:pretrained:belief=returns", "all_hands_crew_v0", 2)
    assert bot.belief == "returns"
    assert bot.beliefs.sample_kwargs(view, rng) == {"returned_weights": RETURNED_WEIGHTS}
    plain = make_bot("netsearch:pretrained:belief=uniform", "all_hands_crew_v0", 2)
    assert plain.beliefs.sample_kwargs(view, rng) == {}
    bot = make_bot("netsearch:pretrained:belief=memory", "all_hands_crew_v0", 2)
    assert isinstance(bot.beliefs, CrewMemory)
    bot.act_view(view, mask)
    assert bot.beliefs.last == view        # every view the bot gets feeds the memory
    bot.reset()
    assert bot.beliefs.last is None
    with pytest.raises(InvalidArgumentError,
                       match="unknown belief 'hunch'.*uniform, returns, memory"):
        make_bot("netsearch:pretrained:belief=hunch", "all_hands_crew_v0", 2)


@pytest.mark.parametrize("belief", ["returns", "memory"])
def test_choice_with_a_belief_depends_only_on_the_view(tmp_path, belief):
    """Crew's search with a belief reads only the view too; some of the views had cards
    the opponent put back, so the belief was at work."""
    checked, hidden_differed, put_back = check_choice_depends_only_on_the_view(
        "all_hands_crew_v0", tmp_path, belief=belief, seed=4, count=12)
    assert checked >= 3 and hidden_differed >= 1 and put_back >= 1


def test_choice_with_the_memory_depends_only_on_the_views(tmp_path):
    """The memory belief reads the seat's earlier views as well: two games that differ
    only in cards the seat has not seen (the bottom card of each Drawing Pile swapped
    with a card out of the game), played with the same moves, give the seat the same
    views and the bot the same choices until someone sees a swapped card."""
    env_id = "all_hands_crew_v0"
    game = game_class(env_id)(2)
    path = random_network(env_id, 2, tmp_path / "net.onnx")
    checked = 0
    for seed in range(2):
        state = game.new_game(np.random.default_rng(seed))
        other = state.clone()
        for pile in other.piles:
            swap = next(k for k in range(len(other.out)) if other.out[k] and k != pile[0])
            other.out[swap] -= 1
            other.out[pile[0]] += 1
            pile[0] = swap
        other.validate()
        bots = [NetSearchPolicy(game, OnnxPolicy(path, env_id, 2), seed=7, samples=2,
                                max_rounds=30, belief="memory") for _ in range(2)]
        play = np.random.default_rng(seed)
        while not state.is_terminal():
            if any(state.view(p) != other.view(p) for p in range(2)):
                break         # a swapped card has been seen: the histories part here
            views = [s.view(0) for s in (state, other)]
            joint = {}
            for p in state.current_players():
                mask = state.legal_actions_mask(p)
                if p == 0:
                    choices = [bot.act_view(v, mask) for bot, v in zip(bots, views)]
                    assert choices[0] == choices[1]
                    joint[p] = choices[0]
                    checked += 1
                else:
                    joint[p] = int(play.choice(np.flatnonzero(mask)))
            state.apply_joint(joint)
            other.apply_joint(joint)
        assert state.round >= 3
        assert all(bot.beliefs.resyncs == 0 for bot in bots)
        assert bots[0].beliefs.records      # the memory was at work
    assert checked >= 20


def test_measuring_the_returns_belief_gives_a_share_per_kind():
    """A few games: one share per kind, each in [0, 1], and captains (the last three
    kinds), which the network rarely keeps, put back more often than the fifth crew
    kind, which it nearly always keeps."""
    from plunder.policies.all_hands_crew_belief import measure_returned_weights

    shares = measure_returned_weights(games=20)
    assert len(shares) == 9 and all(0.0 <= x <= 1.0 for x in shares)
    assert min(shares[6:]) > shares[4]


@pytest.mark.slow
def test_the_returns_belief_is_what_its_measurement_gives():
    """The crew table is ``measure_returned_weights()`` with its defaults, exactly."""
    from plunder.policies.all_hands_crew_belief import (RETURNED_WEIGHTS,
                                                       measure_returned_weights)

    assert measure_returned_weights() == RETURNED_WEIGHTS
