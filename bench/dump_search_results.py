#!/usr/bin/env python3
"""Every result of a set of queries as JSON, to show that a change (for speed) changed no result.

    PYTHONPATH=SRC python bench/dump_search_results.py OUT.json DB QUERIES

QUERIES is a golden set (bench/golden/*.json, its cases' queries plus a few odd
ones: exclusions, prefixes, phrases, filters, unknown words, CJK) or a file of one
query a line (bench/queries/mixed-10k-nl.txt). Each query is run as
`search(q, limit=10, explain=True)`; with a golden set also with `passages=True`
and with `limit=5, offset=3`. Run it with the old and the new code on the same
index (a copy: it is opened read-only) and compare the two files byte for byte.
With `--twice`, every query is also asked as the latency runs ask it
(`limit=10`, no `--explain`) and with `limit=3, offset=2`, and those are asked
again in a second round on the same connection, so that answers it keeps between
queries are used too.
"""
from __future__ import annotations

import argparse
import json
import sys

ODD = ["git NOT rebase", "merge -base", "os.path*", '"merge base"', "type:html commit",
       "lamda fuction", "zzzqqq", "the", "東京", "commit OR branch", "source:nosuch foo",
       "type:pdf foo", "rebas*"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("db")
    ap.add_argument("queries")
    ap.add_argument("--twice", action="store_true")
    args = ap.parse_args(argv)
    import glean_personal
    golden = args.queries.endswith(".json")
    if golden:
        with open(args.queries, encoding="utf-8") as fh:
            queries = [c["query"] for c in json.load(fh)["cases"]] + ODD
    else:
        with open(args.queries, encoding="utf-8") as fh:
            queries = [line.strip() for line in fh if line.strip()]
    ix = glean_personal.open_index(args.db, readonly=True)
    out = []
    for q in queries:
        out.append(ix.search(q, limit=10, explain=True).to_dict())
        if golden:
            out.append(ix.search(q, limit=10, passages=True).to_dict())
            out.append(ix.search(q, limit=5, offset=3).to_dict())
    for _ in range(2 if args.twice else 0):
        for q in queries:
            out.append(ix.search(q, limit=10).to_dict())
            out.append(ix.search(q, limit=3, offset=2).to_dict())
    with open(args.out, "w", encoding="utf-8") as fh:
        json.dump(out, fh, indent=1, sort_keys=True, ensure_ascii=False)
    print(f"{len(out)} results of {len(queries)} queries from {glean_personal.__file__}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
