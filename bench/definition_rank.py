#!/usr/bin/env python3
"""Does a search for a code name show its definition first?

    PYTHONPATH=$PWD python bench/definition_rank.py DB [--names 300] [--seed 1] [--set definition=0]

DB is an index of a source tree (for example `python -m glean_personal index
git-source/ --db g.db`). The names are the index's own: the last heading of
code passages (a function, class or method, as the code reader names its
sections) that has a `_`, `.` or `::` in it and is defined in one file only,
a random sample of them. Each name is searched as typed; its rank is that of
the first hit whose section is the name (the definition), 99 when none of the
top 20 is. Printed: how many are first and in the top 3, how many are missed,
and the mean reciprocal rank. `--set KNOB=VALUE` changes a SearchTuning knob
(`definition=0` turns the definition lift off).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import sqlite3
import statistics
import sys
from typing import Dict, List, Set

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import glean_personal  # noqa: E402
import glean_personal.search as search_module  # noqa: E402
from glean_personal.config import CODE_EXTENSIONS  # noqa: E402

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:(?:\.|::)[A-Za-z_][A-Za-z0-9_]*)*")


def code_names(db: str) -> List[str]:
    """Section names of code passages defined in exactly one file, with a `_`, `.` or `::` inside."""
    files: Dict[str, Set[str]] = {}
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT p.heading, d.path FROM passages p "
                           "JOIN documents d ON d.id = p.document_id").fetchall()
    finally:
        con.close()
    for heading, path in rows:
        if os.path.splitext(path)[1].lower() not in CODE_EXTENSIONS:
            continue
        parts = json.loads(heading)
        name = parts[-1] if parts else ""
        if NAME.fullmatch(name) and len(name) > 3 and re.search(r"[A-Za-z0-9](_|\.|::)[A-Za-z0-9]", name):
            files.setdefault(name, set()).add(path)
    return sorted(n for n, where in files.items() if len(where) == 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("db")
    ap.add_argument("--names", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE")
    args = ap.parse_args()
    knobs = {}
    for item in args.set:
        key, _, value = item.partition("=")
        knobs[key] = type(getattr(search_module.TUNING, key))(value)
    search_module.TUNING = search_module.TUNING.replace(**knobs)
    names = code_names(args.db)
    random.Random(args.seed).shuffle(names)
    names = names[:args.names]
    ranks = []
    with glean_personal.open_index(args.db, readonly=True) as ix:
        for name in names:
            hits = ix.search(name, limit=20).results
            ranks.append(next((i + 1 for i, h in enumerate(hits)
                               if h.section and h.section[-1] == name), 99))
    mrr = statistics.mean(1 / r if r < 99 else 0.0 for r in ranks) if ranks else 0.0
    print(f"{len(names)} names{' ' + str(knobs) if knobs else ''}: first {sum(r == 1 for r in ranks)}, "
          f"top 3 {sum(r <= 3 for r in ranks)}, not in the top 20 {sum(r == 99 for r in ranks)}, "
          f"MRR {mrr:.3f}")


if __name__ == "__main__":
    main()
