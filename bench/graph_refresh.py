#!/usr/bin/env python3
"""What keeping the graph current costs: incremental update against a full `link`.

    python bench/make_corpus.py 10000 /tmp/c10k
    python -m glean_personal index /tmp/c10k --db /tmp/c10k.db
    python bench/graph_refresh.py /tmp/c10k.db [--shares 0.01 0.1]

For each share, that many documents (evenly spread over the ids) are taken as
changed and linked again with `graph.update_links`, on a fresh copy of a
linked index; the figure is compared with a full `link` of the same copy. Also
reported: how many of the changed documents' neighbours under a full `link`
the incremental update found too (their overlap), as a check on quality.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from glean_personal import graph, open_index  # noqa: E402
from glean_personal.store import graph as graph_sql  # noqa: E402


def neighbours(ix, ids):
    with ix.store.reading():
        return {d: {o for o, _, _ in graph_sql.links_of(ix.store.conn, d)} for d in ids}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("db")
    ap.add_argument("--shares", type=float, nargs="+", default=[0.01, 0.10])
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="graph-refresh-")
    base = os.path.join(work, "linked.db")
    shutil.copyfile(args.db, base)
    with open_index(base) as ix:
        started = time.perf_counter()
        report = ix.link()
        full = time.perf_counter() - started
        ids = ix.store.document_ids()
    print(f"documents {len(ids)}, links {report.links}; full link {full:.2f} s")
    for share in args.shares:
        k = max(1, int(len(ids) * share))
        step = len(ids) / k
        changed = [ids[int(i * step)] for i in range(k)]
        copy = os.path.join(work, f"share-{share}.db")
        shutil.copyfile(base, copy)
        with open_index(copy) as ix:
            reference = neighbours(ix, changed)
            started = time.perf_counter()
            written = graph.update_links(ix.store, changed)
            inc = time.perf_counter() - started
            found = neighbours(ix, changed)
        both = sum(len(reference[d] & found[d]) for d in changed)
        total = sum(len(reference[d]) for d in changed) or 1
        print(f"share {share:.0%} ({k} documents): incremental {inc:.2f} s "
              f"({inc / full:.0%} of a full link), {written} links written, "
              f"{both / total:.0%} of their full-link neighbours found")
        os.unlink(copy)
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
