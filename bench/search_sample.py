#!/usr/bin/env python3
"""Where a search's CPU time goes, by sampling: no timer around any call, so none is inflated.

    PYTHONPATH=SRC python bench/search_sample.py DB QUERIES [--passes 10] [--every 0.5] [--top 40]

After a warm-up pass, the queries run `search(q, limit=10)` `--passes` times
while a CPU-time timer (`setitimer(ITIMER_PROF)`) stops the program every
`--every` ms of CPU and notes where it is: the function running (its own
time), every function on the stack (time inside it), and the line. Printed
are ms of CPU per query for each, from the share of samples. Unlike
`bench/search_profile.py` (a timer around each statement and step) and
cProfile (a hook on every call), a sample costs the same wherever it lands,
so many small Python calls are not made to look dearer than one long SQL
statement. A statement's time shows on the line that runs or steps it. POSIX
only; the index is opened read-only. QUERIES is one query a line or a golden
set (`bench/golden/*.json`).
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import signal
import time


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("db")
    ap.add_argument("queries")
    ap.add_argument("--passes", type=int, default=10)
    ap.add_argument("--every", type=float, default=0.5, help="ms of CPU between samples")
    ap.add_argument("--top", type=int, default=40)
    args = ap.parse_args(argv)
    import glean_personal

    with open(args.queries, encoding="utf-8") as fh:
        queries = ([c["query"] for c in json.load(fh)["cases"]] if args.queries.endswith(".json")
                   else [line.strip() for line in fh if line.strip()])
    index = glean_personal.open_index(args.db, readonly=True)
    for q in queries:
        index.search(q, limit=10)

    own: collections.Counter = collections.Counter()
    inside: collections.Counter = collections.Counter()
    lines: collections.Counter = collections.Counter()
    taken = [0]

    def where(frame) -> tuple:
        return os.path.basename(frame.f_code.co_filename), frame.f_code.co_name

    def sample(_signum, frame) -> None:
        taken[0] += 1
        own[where(frame)] += 1
        lines[where(frame) + (frame.f_lineno,)] += 1
        seen = set()
        while frame is not None:
            key = where(frame)
            if key not in seen:
                seen.add(key)
                inside[key] += 1
            frame = frame.f_back

    signal.signal(signal.SIGPROF, sample)
    every = args.every / 1000
    start = time.process_time()
    signal.setitimer(signal.ITIMER_PROF, every, every)
    try:
        for _ in range(args.passes):
            for q in queries:
                index.search(q, limit=10)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
    spent = time.process_time() - start
    n = args.passes * len(queries)
    per = 1000 * spent / n
    total = max(1, taken[0])
    print(f"{per:.3f} ms CPU a query ({len(queries)} queries, {args.passes} passes, "
          f"{taken[0]} samples)")
    for title, counts in (("inside (with what it calls)", inside), ("own time", own),
                          ("lines", lines)):
        print(f"\n| ms | {title} |\n|---|---|")
        for key, count in counts.most_common(args.top):
            print(f"| {per * count / total:.3f} | {':'.join(map(str, key))} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
