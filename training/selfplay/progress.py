"""What ``plunder train`` shows while it learns: a bar on a terminal, and a line every so
many steps where its output is not one (a log file, a CI job), each with the steps done,
the rate, the time elapsed and left, and the latest evaluation.

PPO learns in whole rollouts (``n_envs`` games times ``ppo.n_steps`` steps), so a run
stops at the first whole rollout at or past the steps asked for: the total shown is that
real end (:func:`planned_total`), never the number asked for.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from plunder.training.tables import wrap

#: progress lines a run prints by default where its output is not a terminal
DEFAULT_LINES = 50


def planned_total(start: int, asked: int, rollout: int) -> int:
    """The step count a run that is at ``start`` ends at when asked for ``asked`` steps
    in all: the first whole number of ``rollout``-step rollouts at or past ``asked``."""
    if asked <= start:
        return start
    return start + -(-(asked - start) // rollout) * rollout


def clock_text(seconds: float) -> str:
    """``1h02m03s``, ``4m05s`` or ``6s``."""
    s = int(round(max(seconds, 0.0)))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}h{m:02d}m{s:02d}s" if h else f"{m}m{s:02d}s" if m else f"{s}s"


class TrainingProgress:
    """The progress of one ``learn`` call from ``start`` to ``asked`` learner steps, in
    rollouts of ``rollout`` steps. ``tty`` (default: whether stdout is a terminal) shows
    a bar; otherwise ``echo`` gets a line every ``every`` steps (0: about
    ``DEFAULT_LINES`` lines a run, at whole rollouts) and one at the end. ``latest()``
    words the latest evaluation ("" before the first). ``show`` False shows nothing."""

    def __init__(self, start: int, asked: int, rollout: int, echo: Callable[[str], None],
                 *, every: int = 0, tty: bool | None = None, show: bool = True,
                 latest: Callable[[], str] = lambda: "",
                 clock: Callable[[], float] = time.perf_counter):
        self.start, self.asked, self.rollout = start, asked, max(rollout, 1)
        self.total = planned_total(start, asked, self.rollout)
        self.echo, self.latest, self.clock = echo, latest, clock
        self.show = show
        self.tty = sys.stdout.isatty() if tty is None else tty
        run = self.total - start
        if every <= 0:       # about DEFAULT_LINES lines, each at a whole rollout
            every = max(self.rollout, -(-run // DEFAULT_LINES // self.rollout) * self.rollout)
        self.every = every
        self.next_line = start + every
        self.steps = self.lined = start
        self.t0 = clock()
        self.bar = None

    def open(self) -> None:
        """Say what the run will do, and start the bar (on a terminal)."""
        if not self.show or self.total <= self.start:
            return
        if self.total != self.asked:
            self.say(wrap(f"training to {self.total:,} steps: {self.asked:,} asked for, "
                          f"rounded up to whole rollouts of {self.rollout:,} steps"))
        if self.tty:
            from tqdm import tqdm

            self.bar = tqdm(total=self.total, initial=self.start, unit="step",
                            desc="training", dynamic_ncols=True, file=sys.stdout)

    def say(self, text: str) -> None:
        """A line of news (above the bar, where there is one)."""
        if self.bar is not None:
            self.bar.write(text, file=sys.stdout)
        else:
            self.echo(text)

    def update(self, steps: int) -> None:
        """The run has reached ``steps`` learner steps."""
        if steps > self.total:           # more than planned: show the real count
            self.total = steps
            if self.bar is not None:
                self.bar.total = steps
        done, self.steps = steps - self.steps, steps
        if not self.show:
            return
        if self.bar is not None:
            self.bar.update(done)
            latest = self.latest()
            if latest:
                self.bar.set_postfix_str(latest, refresh=False)
        elif steps >= self.next_line:
            self.next_line = steps + self.every - (steps - self.start) % self.every
            self.lined = steps
            self.echo(self.line())

    def line(self) -> str:
        """``262,144/1,050,624 steps (25%), 1,234 steps/s, 3m32s elapsed, 10m38s left``,
        and the latest evaluation."""
        elapsed = self.clock() - self.t0
        done = self.steps - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.steps) / rate if rate > 0 else 0.0
        share = self.steps / self.total if self.total else 1.0
        text = (f"{self.steps:,}/{self.total:,} steps ({share:.0%}), {rate:,.0f} steps/s, "
                f"{clock_text(elapsed)} elapsed, {clock_text(left)} left")
        latest = self.latest()
        return wrap(text + (f"; {latest}" if latest else ""), hang="    ")

    def close(self) -> None:
        """The end of the run's learning: the bar closed, or the last line."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None
        elif self.show and self.steps > self.start and self.steps != self.lined:
            self.echo(self.line())

    def callback(self):
        """An SB3 callback that reports ``num_timesteps`` after every env step."""
        from stable_baselines3.common.callbacks import BaseCallback

        progress = self

        class ProgressCallback(BaseCallback):
            def _on_training_start(self) -> None:
                progress.open()

            def _on_step(self) -> bool:
                progress.update(int(self.num_timesteps))
                return True

            def _on_training_end(self) -> None:
                progress.close()

        return ProgressCallback()


def latest_eval_text(evals: list[dict]) -> str:
    """The latest periodic evaluation in words: ``eval at 200,704: vs heuristic 45%``."""
    if not evals:
        return ""
    last = evals[-1]
    return (f"eval at {last['steps']:,}: " + ", ".join(
        f"vs {spec} {s['win_share']:.0%}" for spec, s in last["results"].items()))


__all__ = ["DEFAULT_LINES", "TrainingProgress", "clock_text", "latest_eval_text",
           "planned_total"]
