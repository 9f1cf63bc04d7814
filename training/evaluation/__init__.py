"""Tournaments between bots, the one evaluation code the trainer, ``plunder eval`` and the
benchmark share: seat rotation, win shares with Wilson 95% intervals, scores, OpenSkill
ratings, and tournament seeds disjoint from every training seed (:mod:`.tournament`).

>>> from plunder.training.evaluation import bot_factories, run_tournament
>>> t = run_tournament("scallywags_v0", 2, bot_factories(["heuristic", "random"],
...                    "scallywags_v0", 2), games=20, seed=0)
>>> t.bots[0].win_share, t.bots[0].ci95

Needs only the core install (ratings need ``openskill``, in the train extra).
"""

from .tournament import (EVAL_SEED_FLOOR, BotStats, Tournament, bot_factories, bot_seed,
                         check_seed, game_record, game_seed, play_game, ranked_seats,
                         rating_model, run_tournament, schedule, update_ratings, wilson)

__all__ = ["EVAL_SEED_FLOOR", "BotStats", "Tournament", "bot_factories", "bot_seed",
           "check_seed", "game_record", "game_seed", "play_game", "ranked_seats",
           "rating_model", "run_tournament", "schedule", "update_ratings", "wilson"]
