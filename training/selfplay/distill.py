"""Search distillation after PPO, one step of expert iteration (``distill.samples > 0``).

When PPO has finished, the run's network is exported and plays one seat of
``distill.samples`` decisions' worth of games, greedily, as the shipped bot plays, against
``distill.opponents`` (taken in turn, one game each). At every one of its decisions the
search with that same network (``netsearch``: the game's default settings, changed by
``distill.search_settings``) names the move it would make there instead. The policy is
then fitted to the search's moves by cross-entropy
(:func:`plunder.training.selfplay.pretrain.imitate`), the critic held to its own values from before
the fit, meant to teach the network where the search overrides it.

Why: the search with the network wins more games than the network alone, at many times
the computation per move; distilling its moves would keep some of that gain at the
network's cost. The fit has not taken up the search's moves in the games it was tried on
(the network's greedy moves then agree with the search's less often after the fit than
before), so no packaged config distills.

The games are played in ``distill.collect_parts`` independently seeded parts on up to
``vec_workers`` processes (:func:`plunder.training.selfplay.pretrain.collect_in_parts`); the search
reads only its seat's view, as it does in every game it plays. A recall run cannot distill
(its network reads remembered observations, which these games do not record).
"""

from __future__ import annotations

import numpy as np

from plunder.envs import game_class


def collect_search_decisions(env_id: str, num_players: int, options: dict, bot_path: str,
                             opponents: list[str], search: str, samples: int, seed: int,
                             max_turns: int | None = None):
    """(observations, masks, the search's moves, the network's moves) at ``samples``
    decisions of the exported network ``bot_path`` playing greedily in one seat (drawn
    each game) against the ``opponents`` bot specs in turn; the search is
    ``netsearch:BOT_PATH`` with the ``search`` settings (``KEY=VALUE`` parts joined by
    ``:``, as in a bot spec)."""
    from plunder.policies.base import ask_bot, make_bot

    cls = game_class(env_id)
    game = cls(num_players, **options)
    max_turns = int(max_turns or cls.default_max_turns)
    rng = np.random.default_rng(seed)

    def bot(spec: str):
        return make_bot(spec, env_id, num_players, seed=int(rng.integers(2**31 - 1)),
                        **options)

    learner = bot(f"trained:{bot_path}")
    teacher = bot(f"netsearch:{bot_path}" + (f":{search}" if search else ""))
    rivals = [[bot(spec) for _ in range(num_players)] for spec in opponents]
    obs, masks, labels, played = [], [], [], []
    game_index = 0
    while len(labels) < samples:
        state = game.new_game(rng)
        me = int(rng.integers(num_players))
        others = rivals[game_index % len(rivals)]
        game_index += 1
        for b in [learner, teacher, *others]:
            b.reset()
        while not state.is_terminal() and state.turns < max_turns:
            joint = {}
            for p in state.current_players():
                view = state.view(p)
                mask = state.legal_actions_mask(p)
                o = game.encode(view)
                if p == me:
                    joint[p] = int(learner.act(o, mask))
                    obs.append(o)
                    masks.append(mask.astype(bool))
                    labels.append(int(teacher.act_view(view, mask)))
                    played.append(joint[p])
                else:
                    joint[p] = ask_bot(others[p], view, o, mask)
            state.apply_joint(joint)
    n = samples
    return (np.asarray(obs[:n], np.float32), np.asarray(masks[:n]),
            np.asarray(labels[:n], np.int64), np.asarray(played[:n], np.int64))


def critic_values(policy, observations: np.ndarray, batch: int = 4096) -> np.ndarray:
    """The policy's value estimates of ``observations`` (float32), without gradients."""
    import torch

    out = []
    with torch.no_grad():
        for start in range(0, len(observations), batch):
            chunk = torch.as_tensor(observations[start:start + batch], device=policy.device)
            out.append(policy.predict_values(chunk).flatten().cpu().numpy())
    return np.concatenate(out).astype(np.float32) if out else np.zeros(0, np.float32)
