"""A determinized Monte Carlo search bot that works for every game.

For each legal action it deals ``samples`` full states consistent with what the bot's
seat knows (``Game.sample_state(view)``), plays the action, finishes each game with
rollout policies (uniformly random legal moves by default), and picks the action with the
best mean final reward for its seat. It never looks at hidden information: it receives
its own view, which the env builds from what that seat knows.

Because it needs the view rather than the observation vector, it sets
``needs_view = True``; game loops (``plunder play``, ``plunder eval``) then call
``act_view(view, action_mask)`` instead of ``act``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from plunder.envs.core.rewards import final_rewards

from .base import check_mask


class SearchPolicy:
    """Determinized rollouts from sampled states (Perfect Information Monte Carlo)."""

    name = "search"
    needs_view = True

    def __init__(self, game, seat: int | None = None, seed: int | None = None,
                 samples: int = 6, max_rollout_steps: int = 2000, reward_mode: str = "rank"):
        self.game = game
        self.seat = seat
        self.samples = samples
        self.max_rollout_steps = max_rollout_steps
        self.reward_mode = reward_mode
        self.rng = np.random.default_rng(seed)
        #: asked after each sampled state but the last (None: never): True ends the
        #: search with the samples so far (a caller's deadline); it may also raise to
        #: abandon the move
        self.stop_early: Callable[[], bool] | None = None

    def reset(self) -> None:
        """No memory between games."""

    def act(self, observation, action_mask) -> int:
        """Not usable without a view: raises with an explanation."""
        raise TypeError("SearchPolicy needs the player's view: call act_view(view, mask)")

    def act_view(self, view, action_mask) -> int:
        """The legal action with the best mean rollout reward for this seat."""
        legal = check_mask(action_mask)
        if len(legal) == 1:
            return int(legal[0])
        seat = view.player if self.seat is None else self.seat
        totals = np.zeros(len(legal))
        for done in range(1, self.samples + 1):
            base = self.game.sample_state(view, self.rng)
            for i, action in enumerate(legal):
                state = base.clone()
                totals[i] += self._rollout(state, seat, int(action))
            if done < self.samples and self.stop_early is not None and self.stop_early():
                break
        best = np.flatnonzero(totals == totals.max())
        return int(legal[self.rng.choice(best)])

    def _rollout(self, state, seat: int, action: int) -> float:
        """Reward of ``seat`` after playing ``action`` and finishing at random."""
        joint = {seat: action}
        for p in state.current_players():
            if p != seat:
                joint[p] = self._random_action(state, p)
        state.apply_joint(joint)
        steps = 0
        while not state.is_terminal() and steps < self.max_rollout_steps:
            state.apply_joint({p: self._random_action(state, p)
                               for p in state.current_players()})
            steps += 1
        rewards = final_rewards(self.reward_mode, state.rank_keys(), state.scores(),
                                self.game.num_players)
        return rewards[seat]

    def _random_action(self, state, player: int) -> int:
        legal = np.flatnonzero(state.legal_actions_mask(player))
        return int(legal[self.rng.integers(len(legal))])
