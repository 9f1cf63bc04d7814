"""The self-play trainer behind ``plunder train GAME``: MaskablePPO against a league of
its own snapshots and scripted bots.

- :mod:`.train`: runs, checkpoints, resume, the league, periodic and final evaluations;
- :mod:`.config`: the training config (dataclasses, YAML, ``--set`` overrides);
- :mod:`.selfplay_env`: the learner-vs-bots env (one learner seat, the rest the pool);
- :mod:`.ppo`: PPO with rollouts played in the env workers;
- :mod:`.actors`: numpy copies of the networks (snapshots, export);
- :mod:`.entity_policy`: the entity network;
- :mod:`.pretrain`, :mod:`.distill`: the warm start and search distillation;
- :mod:`.export`: trained runs as ONNX bots (``plunder export``);
- :mod:`.rllib_ppo`: RLlib's PPO on the same games.

Needs the ``train`` extra; importing this package imports none of it.
"""
