#!/usr/bin/env python3
"""CPU per search, and the share of it outside the store's ranked full-text statement.

    python bench/search_python_share.py DB QUERIES SRC [SRC ...] [--passes 3] [--slowest N]

Each SRC (a source tree holding `glean_personal/`) runs in its own process on
the same index (opened read-only), after a warm-up pass; the processes take
turns pass by pass, so a busy machine slows them alike. A query's time is its
least CPU time (`time.process_time`) over the passes. Printed per SRC: the
median and p95 of the whole `search(q, limit=10)`, and the mean and median of
what is left once the time of the store's `search` (the ranked FTS5 or plain
query that fetches the candidates) is taken away: the Python of ranking,
folding, snippets and match strength, and the smaller reads they make.
QUERIES is one query a line, or a golden set (`bench/golden/*.json`).
A SRC written `SRC=DB2` searches its own copy DB2 of the index instead (a tree
whose schema is newer migrates its copy once, before it is timed).
With `--slowest N`, the N slowest queries of each SRC are listed too, each
with its ranked statement's share: what makes the p95. With `--cold`, the
answers the connection keeps while the index is unchanged (the terms' passage
counts, vocabulary slices, did-you-mean words) are forgotten before each query,
as if it were the first on its connection (the module-level caches of stems and
titles stay warm).
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

CHILD = r'''
import json, sys, time
sys.path.insert(0, sys.argv[1])
import glean_personal
from glean_personal.store import fulltext
spent = [0.0]
for cls in (fulltext.Fts5Text, fulltext.PlainText):
    def timed(self, *args, _search=cls.search, **kwargs):
        start = time.process_time()
        try:
            return _search(self, *args, **kwargs)
        finally:
            spent[0] += time.process_time() - start
    cls.search = timed
queries = json.loads(sys.argv[3])
index = glean_personal.open_index(sys.argv[2], readonly=True)
for q in queries:
    index.search(q, limit=10)
cold = sys.argv[4] == "cold"
for _ in sys.stdin:
    out = []
    for q in queries:
        spent[0] = 0.0
        if cold:
            index.store.fulltext._stamp = None   # the next freshness check forgets all kept
        start = time.process_time()
        index.search(q, limit=10)
        out.append((time.process_time() - start, spent[0]))
    print(json.dumps(out), flush=True)
'''


def read_queries(path: str) -> list:
    with open(path, encoding="utf-8") as fh:
        if path.endswith(".json"):
            return [case["query"] for case in json.load(fh)["cases"]]
        return [line.strip() for line in fh if line.strip()]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("db")
    ap.add_argument("queries")
    ap.add_argument("sources", nargs="+")
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--slowest", type=int, default=0)
    ap.add_argument("--cold", action="store_true",
                    help="forget the connection's kept answers before each query")
    args = ap.parse_args(argv)
    queries = json.dumps(read_queries(args.queries))
    procs = [subprocess.Popen([sys.executable, "-c", CHILD, src.split("=")[0],
                               src.split("=", 1)[1] if "=" in src else args.db, queries,
                               "cold" if args.cold else "warm"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
             for src in args.sources]
    best: list = [None] * len(procs)
    for _ in range(args.passes):
        for i, proc in enumerate(procs):
            proc.stdin.write("go\n")
            proc.stdin.flush()
            times = json.loads(proc.stdout.readline())
            best[i] = times if best[i] is None else [
                min(a, b, key=lambda t: t[0]) for a, b in zip(best[i], times)]
    for proc in procs:
        proc.stdin.close()
        proc.wait()
    print("| source | median ms | p95 ms | outside the full-text search: mean ms | median ms |")
    print("|---|---|---|---|---|")
    for src, times in zip(args.sources, best):
        total = sorted(1000 * t for t, _ in times)
        rest = [1000 * (t - f) for t, f in times]
        print(f"| {src} | {statistics.median(total):.2f} | {total[int(0.95 * len(total))]:.2f} "
              f"| {statistics.mean(rest):.2f} | {statistics.median(rest):.2f} |")
    for src, times in zip(args.sources, best):
        if not args.slowest:
            break
        print(f"\n{args.slowest} slowest queries, {src}: whole search / ranked statement, ms CPU")
        order = sorted(range(len(times)), key=lambda i: -times[i][0])[:args.slowest]
        for i in order:
            print(f"{1000 * times[i][0]:7.2f} {1000 * times[i][1]:7.2f}  {json.loads(queries)[i]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
