"""Whether pages are slices of one order: for each golden question, the pages of
`--limit` results at offsets 0, limit, 2*limit, ... up to `--depth`, against one
request of `--depth` results, in documents and passages modes.

    PYTHONPATH=TREE python bench/page_repeats.py GOLDEN.json=INDEX.db [...] [--limit 10] [--depth 60]

Prints, per golden file and mode, the questions whose pages differ from the one
request, and those whose pages show a document (a passage, in passages mode) twice.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from glean_personal.search import search
from glean_personal.store.core import Store


def keys(result, passages: bool) -> list:
    return [h.passage_id if passages else h.document["id"] for h in result.results]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("pairs", nargs="+", help="GOLDEN.json=INDEX.db")
    ap.add_argument("--limit", type=int, default=10)
    ap.add_argument("--depth", type=int, default=60)
    a = ap.parse_args()
    totals = {False: [0, 0, 0], True: [0, 0, 0]}   # mode → questions, differ, twice
    for pair in a.pairs:
        golden, db = pair.split("=", 1)
        cases = json.loads(Path(golden).read_text())["cases"]
        store = Store.open(Path(db), readonly=True)
        try:
            for passages in (False, True):
                differ = twice = 0
                for case in cases:
                    whole = keys(search(store, case["query"], limit=a.depth,
                                        passages=passages), passages)
                    paged: list = []
                    for offset in range(0, a.depth, a.limit):
                        paged += keys(search(store, case["query"], limit=a.limit,
                                             offset=offset, passages=passages), passages)
                    differ += paged != whole
                    twice += len(set(paged)) != len(paged)
                n = totals[passages]
                n[0] += len(cases); n[1] += differ; n[2] += twice
                print(f"{Path(golden).stem:24s} {Path(db).stem:18s} "
                      f"{'passages ' if passages else 'documents'} {len(cases):4d} questions, "
                      f"{differ:3d} pages differ, {twice:3d} show one twice", flush=True)
        finally:
            store.close()
    for passages, (n, differ, twice) in totals.items():
        print(f"all {'passages ' if passages else 'documents'}: {n} questions, "
              f"{differ} pages differ from one request, {twice} show one twice")


if __name__ == "__main__":
    main()
