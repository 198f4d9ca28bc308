"""Bounds on work, not on the clock: CPU seconds from `resource.getrusage`.

A busy machine stretches wall-clock time but hardly changes how much CPU a
piece of work needs, so a bound that must hold on a loaded 2-core CI box is
a bound on CPU time (user + system), with a generous margin. Speed claims
live in bench/, not here.
"""
from __future__ import annotations

import contextlib
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


@contextlib.contextmanager
def cpu_budget(seconds: float) -> Iterator[None]:
    """Fail if the block uses more than `seconds` of this process's CPU time."""
    before = cpu_seconds()
    yield
    used = cpu_seconds() - before
    assert used < seconds, f"used {used:.2f} CPU seconds, the budget is {seconds} s"
