#!/usr/bin/env python3
"""Golden-set scores with and without the thesaurus, by category, aggregate only.

    PYTHONPATH=$PWD python bench/synonyms_eval.py GOLDEN=DB=ROOT [...] [--set knob=value ...]

Prints nDCG@10 / Hit@1 / Recall@10 overall and per category for each set and
index, first with `synonyms=false` (the thesaurus off), then with the knobs given
(none: the defaults). Nothing per question is printed: the table in
glean_personal/synonyms.py was written and judged blind (docs/search.md,
"Synonyms").
"""
from __future__ import annotations

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

import glean_personal  # noqa: E402
import glean_personal.search as search_module  # noqa: E402
from chat_abstain import set_knobs  # noqa: E402


def _cell(m: dict) -> str:
    return " / ".join("%.3f" % m.get(k, 0.0) for k in ("ndcg@10", "hit@1", "recall@10"))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("triples", nargs="+", metavar="GOLDEN=DB=ROOT")
    ap.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE")
    args = ap.parse_args(argv)
    base = search_module.TUNING
    for golden, db, root in (t.split("=", 2) for t in args.triples):
        ix = glean_personal.open_index(db, readonly=True)
        try:
            for name, knobs in (("before", ["synonyms=false"]), ("after", args.set)):
                search_module.TUNING = base
                set_knobs(knobs)
                summary = ix.evaluate(golden, root).to_dict()["summary"]
                row = [_cell(summary["overall"])]
                row += [f"{c} {_cell(m)}" for c, m in summary["by_category"].items()
                        if c != "unanswerable"]
                print(f"{os.path.basename(golden)} {ix.store.kind} {name}: " + " | ".join(row),
                      flush=True)
        finally:
            search_module.TUNING = base
            ix.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
