"""Training and the apps around the games, one subpackage each:

- :mod:`.selfplay`: the self-play trainer (MaskablePPO against a league of snapshots and
  bots, the learner-vs-bots env, warm starts, export to ONNX);
- :mod:`.evaluation`: tournaments between bots (seat rotation, Wilson intervals, ratings),
  the public API the trainer and the benchmark both use;
- :mod:`.benchmark`: named benchmark tasks and their scoring;
- :mod:`.cli`: the ``plunder`` command;
- :mod:`.play`: playing in the terminal; :mod:`.web`: playing in a browser;
- :mod:`.speed`: the throughput measurement (``plunder speed``).

:mod:`.games` (game names), :mod:`.atomic` (atomic file writes) and :mod:`.threads`
(worker processes and numpy threads) are shared by them.
"""
