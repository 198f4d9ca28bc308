#!/usr/bin/env python3
"""Replay parts of a search alone: the matched-passage counts, the passage ranges and
did-you-mean's edit distance, to time one step without the noise of the rest.

    PYTHONPATH=SRC python bench/search_reads.py DB QUERIES [--read-once 100 250 500]

QUERIES is one query a line (bench/queries/mixed-10k-nl.txt) or a golden set.
Each query is searched once (limit 10) to record the store calls it makes;
then each recorded `matching_counts` call is replayed with each `READ_ONCE`
given (each call's least CPU time over three tries, three rounds), checking
that the counts never change. The passage ranges of ten of the thirty longest
documents are read by the store's statement and by `min(id), max(id)` over
every passage, and the edit distance is timed on made-up pairs of similar
words. CPU time (`time.process_time`); the index is opened read-only.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time


def least(fn, tries: int = 3) -> float:
    best = float("inf")
    for _ in range(tries):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("db")
    ap.add_argument("queries")
    ap.add_argument("--read-once", type=int, nargs="*", default=[250])
    args = ap.parse_args(argv)
    import glean_personal
    from glean_personal.spelling import _distance
    from glean_personal.store import fulltext

    with open(args.queries, encoding="utf-8") as fh:
        if args.queries.endswith(".json"):
            queries = [c["query"] for c in json.load(fh)["cases"]]
        else:
            queries = [line.strip() for line in fh if line.strip()]
    index = glean_personal.open_index(args.db, readonly=True)
    store = index.store
    calls = []
    cls = type(store.fulltext)
    original = cls.matching_counts

    def record(self, terms, ranges, in_title=True):
        calls.append((terms, ranges, in_title))
        return original(self, terms, ranges, in_title)
    cls.matching_counts = record
    for q in queries:
        index.search(q, limit=10)
    cls.matching_counts = original
    ft = store.fulltext
    with store.reading():
        if calls and isinstance(ft, fulltext.Fts5Text):
            want = [ft.matching_counts(*c) for c in calls]
            spent = {v: 0.0 for v in args.read_once}
            for _ in range(3):
                for value in args.read_once:
                    ft.READ_ONCE = value
                    for call, counts in zip(calls, want):
                        assert ft.matching_counts(*call) == counts
                        spent[value] += least(lambda: ft.matching_counts(*call))
            for value, total in spent.items():
                print(f"matched counts, READ_ONCE={value}: "
                      f"{1000 * total / 3 / len(calls):.3f} ms a search ({len(calls)} searches)")
        docs = [r[0] for r in store.conn.execute(
            "SELECT id FROM documents ORDER BY passages DESC LIMIT 30")][::3]
        marks = ",".join("?" * len(docs))
        walk = (f"SELECT document_id, min(id), max(id) FROM passages WHERE document_id IN ({marks}) "
                "GROUP BY document_id")
        assert {d: (lo, hi) for d, lo, hi in store.conn.execute(walk, docs)} == {
            d: r for d, r in store.passage_ranges(docs).items() if r != (0, -1)}
        ranged = least(lambda: store.passage_ranges(docs), 50)
        walked = least(lambda: store.conn.execute(walk, docs).fetchall(), 50)
        print(f"passage ranges of {len(docs)} long documents: min/max over their passages "
              f"{1000 * walked:.3f} ms, by ordinal {1000 * ranged:.3f} ms")
    rng = random.Random(2)
    words = ["".join(rng.choice("aeioulnrst") for _ in range(rng.randint(5, 11)))
             for _ in range(3000)]
    pairs = [(words[i], words[i - 1][:2] + words[i][2:]) for i in range(1, len(words))]
    took = least(lambda: [_distance(a, b, 2) for a, b in pairs])
    print(f"edit distance: {1e6 * took / len(pairs):.1f} µs a pair")
    return 0


if __name__ == "__main__":
    sys.exit(main())
