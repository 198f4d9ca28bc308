#!/usr/bin/env python3
"""Where a search's CPU time goes: each SQL statement's share, and each step's.

    PYTHONPATH=SRC python bench/search_profile.py DB QUERIES [--passes 3] [--cold]

QUERIES is one query a line (bench/queries/mixed-10k-nl.txt) or a golden set.
After a warm-up pass, each query runs `search(q, limit=10)` `--passes` times;
printed are means per query in ms of CPU (`time.process_time`): the whole
search; each SQL statement (its text cut short, with calls per query), timed
from `execute` to its last row; and the main steps of search.py (a step's time
holds the statements and steps it calls). Timing every statement and step adds
some overhead of its own, so the parts are a guide to the shares, and the whole
is a little above what `search_python_share.py` reports. With `--cold` the
connection's kept answers are forgotten before each query (as that script's
`--cold`). The index is opened read-only.
"""
from __future__ import annotations

import argparse
import collections
import json
import re
import time


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("db")
    ap.add_argument("queries")
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--cold", action="store_true")
    args = ap.parse_args(argv)
    import glean_personal
    from glean_personal import evidence, search
    from glean_personal.store import core, fulltext

    with open(args.queries, encoding="utf-8") as fh:
        queries = ([c["query"] for c in json.load(fh)["cases"]] if args.queries.endswith(".json")
                   else [line.strip() for line in fh if line.strip()])
    clock = time.process_time
    sql: dict = collections.defaultdict(lambda: [0, 0.0])
    steps: dict = collections.defaultdict(float)

    class Timed:   # a connection whose statements are timed to their last row
        def __init__(self, conn) -> None:
            self.conn = conn

        def execute(self, text, *params):
            start = clock()
            rows = self.conn.execute(text, *params).fetchall()
            cell = sql[re.sub(r"\s+", " ", text)[:90]]
            cell[0] += 1
            cell[1] += clock() - start
            return _Rows(rows)

        def __getattr__(self, name):
            return getattr(self.conn, name)

    def timed(owner, name, label) -> None:
        inner = getattr(owner, name)

        def wrapper(*a, **k):
            start = clock()
            try:
                return inner(*a, **k)
            finally:
                steps[label] += clock() - start
        setattr(owner, name, wrapper)

    from glean_personal import spelling
    timed(spelling, "suggest_words", "suggest_words")   # imported by search only when needed
    for name in ("parse", "_candidates", "_title_boosts", "_rank_documents",
                 "_rerank", "_demote_listings", "fold_near_duplicates", "chapters_first",
                 "_representative", "snippet", "doc_summary", "_damp_kinds",
                 "Weights", "_explain"):
        if hasattr(search, name):
            timed(search, name, name)
    for name in ("strength", "scattered", "share"):
        timed(evidence.Weights, name, "Weights." + name)
    for name in ("passage_documents_titled", "passages", "documents", "passage_ranges",
                 "phrase_sketches"):
        timed(core.Store, name, "Store." + name)
    for name in ("search", "matching_counts", "frequencies", "vocabulary"):
        timed(fulltext.FullText if name in ("frequencies", "vocabulary") else fulltext.Fts5Text,
              name, "fulltext." + name)
    timed(fulltext.PlainText, "search", "fulltext.search (plain)")
    timed(fulltext.PlainText, "matching_counts", "fulltext.matching_counts (plain)")

    index = glean_personal.open_index(args.db, readonly=True)
    index.store.conn = index.store.fulltext.conn = Timed(index.store.conn)
    for q in queries:
        index.search(q, limit=10)
    sql.clear()
    steps.clear()
    whole = 0.0
    for _ in range(args.passes):
        for q in queries:
            if args.cold:
                index.store.fulltext._stamp = None   # the next freshness check forgets all kept
            start = clock()
            index.search(q, limit=10)
            whole += clock() - start
    n = args.passes * len(queries)
    print(f"whole search: {1000 * whole / n:.3f} ms a query ({len(queries)} queries, "
          f"{args.passes} passes{', cold' if args.cold else ''})")
    print(f"all SQL statements: {1000 * sum(c[1] for c in sql.values()) / n:.3f} ms\n")
    print("| ms | calls | statement |\n|---|---|---|")
    for text, (calls, spent) in sorted(sql.items(), key=lambda kv: -kv[1][1])[:15]:
        print(f"| {1000 * spent / n:.3f} | {calls / n:.2f} | `{text}` |")
    print("\n| ms | step |\n|---|---|")
    for label, spent in sorted(steps.items(), key=lambda kv: -kv[1]):
        if spent / n >= 1e-5:
            print(f"| {1000 * spent / n:.3f} | {label} |")
    return 0


class _Rows(list):
    """Rows already read, offered as a cursor offers them."""

    def fetchone(self):
        return self[0] if self else None

    def fetchall(self):
        return list(self)


if __name__ == "__main__":
    raise SystemExit(main())
