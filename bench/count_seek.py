#!/usr/bin/env python3
"""What one "passages matched" count statement costs, by where its range lies in the index.

    PYTHONPATH=SRC python bench/count_seek.py DB "QUESTION" [--at 10,20000,40000,...]

The statement search runs for each shown document (`Fts5Text.matching_counts`):
`SELECT count(*) FROM passage_fts WHERE passage_fts MATCH ? AND rowid BETWEEN ? AND ?`,
its words limited to headings and text, for a range of ten passage ids starting at
each `--at` (default: ten places spread over the index), ascending as search runs it
and, for comparison, with `ORDER BY rowid DESC`. Printed: the least CPU time of five
runs of 200 statements, µs a statement. FTS5 index only (read-only).
"""
from __future__ import annotations

import argparse
import sys
import time


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("db")
    ap.add_argument("question")
    ap.add_argument("--at", default="")
    args = ap.parse_args(argv)
    import glean_personal
    from glean_personal.query import parse
    from glean_personal.store.fulltext import _any_of
    ix = glean_personal.open_index(args.db, readonly=True)
    conn = ix.store.conn
    if ix.store.kind != "fts5":
        print("an FTS5 index is needed", file=sys.stderr)
        return 2
    last = conn.execute("SELECT max(id) FROM passages").fetchone()[0] or 0
    places = ([int(a) for a in args.at.split(",")] if args.at
              else [max(1, last * k // 10) for k in range(10)])
    expr = _any_of(parse(args.question).terms, in_title=False)
    ascending = ("SELECT count(*) FROM passage_fts WHERE passage_fts MATCH ? "
                 "AND rowid BETWEEN ? AND ?")
    descending = ("SELECT count(*) FROM (SELECT rowid FROM passage_fts WHERE passage_fts MATCH ? "
                  "AND rowid BETWEEN ? AND ? ORDER BY rowid DESC)")

    def cost(sql: str, lo: int) -> float:
        best = float("inf")
        for _ in range(5):
            start = time.process_time()
            for _ in range(200):
                conn.execute(sql, (expr, lo, lo + 9)).fetchone()
            best = min(best, (time.process_time() - start) / 200)
        return best * 1e6

    print(f"{expr}\n{last} passages\n| range from | ascending µs | descending µs |\n|---|---|---|")
    for lo in places:
        print(f"| {lo} | {cost(ascending, lo):.1f} | {cost(descending, lo):.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
