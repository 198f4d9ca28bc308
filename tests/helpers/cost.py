"""Bounds on work, not on the clock: CPU seconds from `resource.getrusage`.

A busy machine stretches wall-clock time but hardly changes how much CPU a
piece of work needs, so a bound that must hold on a loaded 2-core CI box is
a bound on CPU time (user + system), with a generous margin. Speed claims
live in bench/, not here.
"""
from __future__ import annotations

import contextlib
import functools
import re
import resource
from typing import Iterator


def cpu_seconds(children: bool = False) -> float:
    """CPU seconds this process has used so far (plus its reaped children's, if asked)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    total = own.ru_utime + own.ru_stime
    if children:
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        total += kids.ru_utime + kids.ru_stime
    return total


def _calibration_work() -> int:
    """A fixed piece of pure-Python work of the kinds the readers do: splitting,
    matching and counting words."""
    words = re.compile(r"[a-z]+")
    text = " ".join(f"word{i % 97} other-{i % 13}, more text" for i in range(2_000))
    seen: dict = {}
    for _ in range(12):
        for word in words.findall(text):
            seen[word] = seen.get(word, 0) + 1
        text.split()
    return len(seen)


# What the calibration work takes, in CPU seconds, on the machines the budgets were
# set on. Those are gone; a 2-core machine met later runs it in 0.056-0.062 s and
# everything else about three times as slowly as they did (`python -c pass` 70 ms of
# CPU against 27, the 10k corpus's searches 14 ms against 4.6: docs/benchmarks.md),
# so the reference is a third of that: budgets there are about three times as large.
REFERENCE_SECONDS = 0.02


@functools.lru_cache(maxsize=None)
def machine_factor() -> float:
    """How much slower this machine is than the one the budgets were set on (never
    below 1): the least of three timings of the calibration work, against
    `REFERENCE_SECONDS`. A busy machine hardly stretches CPU time, so this measures
    the machine, not its load."""
    least = float("inf")
    for _ in range(3):
        before = cpu_seconds()
        _calibration_work()
        least = min(least, cpu_seconds() - before)
    return max(1.0, least / REFERENCE_SECONDS)


@contextlib.contextmanager
def cpu_budget(seconds: float) -> Iterator[None]:
    """Fail if the block uses more than `seconds` of this process's CPU time, on the
    machine the budgets were set on (`machine_factor` times as much on a slower one)."""
    allowed = seconds * machine_factor()
    before = cpu_seconds()
    yield
    used = cpu_seconds() - before
    assert used < allowed, (f"used {used:.2f} CPU seconds, the budget is {allowed:.2f} s "
                            f"({seconds} s on the reference machine)")
