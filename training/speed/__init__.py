"""The throughput measurement, ``plunder speed``: random legal play through the env APIs
beside PettingZoo and OpenSpiel yardsticks (:mod:`.envs`), and the trainer's end-to-end
learner steps per second (:mod:`.trainer`). It prints numbers; speed is never asserted."""
