#!/usr/bin/env python3
"""How well a list of passages finds the relevant pages: what agents and /chat read.

    PYTHONPATH=$PWD python bench/passage_rank.py GOLDEN=DB [GOLDEN=DB ...] [--set KNOB=VALUE ...]

MCP's `local_search`, `search --passages` and /chat list passages, not
documents. For each answerable question of a golden set this asks for ten
passages, as they do, and scores the documents of those passages in the order
each first appears (a second passage of a document already listed adds
nothing): nDCG@10 as `evaluate` computes it for documents, and Hit@1 (is the
first passage's document relevant). The same figures for the ten documents
`search` ranks are printed beside them. Per category, and overall.

Each DB must be an index of the golden set's root itself (built as
bench/golden/README.md says), so that a document's path in the index is its
path under the root. `--set` changes a search knob (any SearchTuning field),
e.g. `--set passage_support=false` for passages ranked alone.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import glean_personal  # noqa: E402
from glean_personal.evaluation import load_golden, score_case  # noqa: E402
from chat_abstain import set_knobs  # noqa: E402


def first_seen(paths: List[str]) -> List[str]:
    out: List[str] = []
    for p in paths:
        if p not in out:
            out.append(p)
    return out


def run_set(golden: str, db: str) -> Dict[str, Dict[str, List[float]]]:
    """{measure: {category: [value per question]}} for one golden set and index."""
    out: Dict[str, Dict[str, List[float]]] = {m: {} for m in
                                              ("passages nDCG@10", "passages Hit@1",
                                               "documents nDCG@10", "documents Hit@1")}
    with glean_personal.open_index(db, readonly=True) as ix:
        for case in load_golden(golden):
            if not case.relevant:
                continue
            listed = [h.document["path"] for h in ix.search(case.query, limit=10,
                                                            passages=True).results]
            docs = [h.document["path"] for h in ix.search(case.query, limit=10).results]
            ranked = score_case(first_seen(listed), case.relevant)
            plain = score_case(docs, case.relevant)
            for measure, value in (("passages nDCG@10", ranked["ndcg@10"]),
                                   ("passages Hit@1", ranked["hit@1"]),
                                   ("documents nDCG@10", plain["ndcg@10"]),
                                   ("documents Hit@1", plain["hit@1"])):
                out[measure].setdefault(case.category, []).append(value)
    return out


def main(argv: List[str] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pairs", nargs="+", metavar="GOLDEN=DB")
    ap.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE")
    args = ap.parse_args(argv)
    set_knobs(args.set)
    for pair in args.pairs:
        golden, _, db = pair.partition("=")
        for measure, cats in run_set(golden, db).items():
            every = [v for values in cats.values() for v in values]
            parts = " ".join(f"{c} {sum(v) / len(v):.3f}" for c, v in sorted(cats.items()))
            print(f"{os.path.basename(golden):22} {measure:18} overall {sum(every) / len(every):.3f}"
                  f"  {parts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
