"""A tiny game for the training tests: multi-step turns and simultaneous decisions.

Each round the leader names a first and a second target number (two steps of the same
seat; the second step masks the first choice), then every player picks a number at once:
the first target scores 2, the second 1. Six rounds. Registered as ``toyrace_v0`` by the
``toy_registered`` fixture (not shipped; it only exercises the generic training code on a
game with simultaneous decisions).
"""

from __future__ import annotations

import numpy as np

from plunder.envs.core import Game, GameState, LayoutBuilder
from plunder.envs.core import rng_from_dict, rng_to_dict
from plunder.envs.core.spec import GameSpec

K = 4
ROUNDS = 6


class ToyGame(Game):
    name = "toyrace"
    version = 0
    min_players = 2
    max_players = 4
    options = {"rounds": ROUNDS}
    simultaneous = True
    default_max_turns = 100

    @property
    def num_actions(self):
        return K

    def action_name(self, action):
        return f"pick {action}"

    @property
    def layout(self):
        if not hasattr(self, "_layout"):
            b = LayoutBuilder()
            b.add("scores", self.num_players, "scores / 20, own first", 0, 1)
            b.add("t1", K, "first target one-hot")
            b.add("t2", K, "second target one-hot")
            b.add("phase", 3, "phase one-hot: name t1, name t2, pick")
            b.add("round", 1, "round / rounds")
            self._layout = b.build()
        return self._layout

    def encode(self, view):
        obs = np.zeros(self.layout.size, np.float32)
        n = self.num_players
        me = view["me"]
        obs[:n] = [min(view["scores"][(me + k) % n] / 20.0, 1.0) for k in range(n)]
        if view["t1"] >= 0:
            obs[n + view["t1"]] = 1
        if view["t2"] >= 0:
            obs[n + K + view["t2"]] = 1
        obs[n + 2 * K + view["phase"]] = 1
        obs[n + 2 * K + 3] = view["round"] / self.rounds
        return obs

    def new_initial_state(self, rng):
        return ToyState(self, rng)

    def _load_state(self, d):
        s = ToyState(self, rng_from_dict(d["rng"]))
        for k in ("scores", "leader", "phase", "t1", "t2", "round", "turns"):
            setattr(s, k, d[k])
        return s

    def sample_state(self, view, rng):
        s = ToyState(self, rng)
        for k in ("scores", "leader", "phase", "t1", "t2", "round"):
            setattr(s, k, view[k] if k != "scores" else list(view[k]))
        return s


class ToyState(GameState):
    def __init__(self, game, rng):
        super().__init__(game, rng)
        n = game.num_players
        self.scores_ = [0] * n
        self.leader = int(rng.integers(n))
        self.phase = 0
        self.t1 = -1
        self.t2 = -1
        self.round = 0

    def current_players(self):
        if self.is_terminal():
            return ()
        if self.phase < 2:
            return (self.leader,)
        return tuple(range(self.game.num_players))

    def legal_actions_mask(self, player):
        m = np.zeros(K, np.int8)
        if player in self.current_players():
            m[:] = 1
            if self.phase == 1:
                m[self.t1] = 0
        return m

    def _apply(self, actions):
        if self.phase == 0:
            self.t1 = actions[self.leader]
            self.phase = 1
        elif self.phase == 1:
            self.t2 = actions[self.leader]
            self.phase = 2
        else:
            for p, a in actions.items():
                self.scores_[p] += 2 if a == self.t1 else 1 if a == self.t2 else 0
            self.phase, self.t1, self.t2 = 0, -1, -1
            self.leader = (self.leader + 1) % self.game.num_players
            self.round += 1
            self.turns += 1

    def is_terminal(self):
        return self.round >= self.game.rounds

    def scores(self):
        return [float(s) for s in self.scores_]

    def view(self, player):
        return {"me": player, "scores": tuple(self.scores_), "leader": self.leader,
                "phase": self.phase, "t1": self.t1, "t2": self.t2, "round": self.round}

    def to_dict(self):
        return {"rng": rng_to_dict(self.rng), "scores": self.scores_, "leader": self.leader,
                "phase": self.phase, "t1": self.t1, "t2": self.t2, "round": self.round,
                "turns": self.turns}


class ToyHeuristic:
    """Names 0 then 1; picks the first target."""

    def __init__(self, game, seed=None):
        self.game = game

    def reset(self):
        pass

    def act(self, observation, action_mask):
        t1 = self.game.layout.read(observation, "t1")
        if t1.max() > 0 and action_mask[int(t1.argmax())]:
            return int(t1.argmax())
        return int(np.flatnonzero(action_mask)[0])


#: the toy game's declaration (registered only by ``install``)
SPEC = GameSpec(name="toyrace", package=__name__, game=f"{__name__}:ToyGame",
                title="Toy race", description="Name two targets, then everyone picks one.",
                min_players=2, max_players=4, simultaneous=True,
                heuristic=f"{__name__}:ToyHeuristic")


def install():
    """Register ``toyrace_v0`` (its spec: env, heuristic) in this process."""
    from plunder.envs import register

    register(SPEC)


def uninstall():
    from plunder.envs import unregister

    unregister(SPEC.env_id)
