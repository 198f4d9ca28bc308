"""How a field of link anchor text, for questions only, moves a golden set.

The field was built and measured on the branch `anchors-code` (commit
df27103) and not kept (docs/search.md, "what was kept and dropped"); this
script needs that code, whose search has the knob `anchor_weight`, and
indexes built by it (what is indexed changes: every HTML page's links).
For each weight it prints nDCG@10 by category, then the questions whose
nDCG@10 moved against the first weight, then the CPU time per question.

    git worktree add /tmp/anchors anchors-code && cd /tmp/anchors
    PYTHONPATH=$PWD python -m glean_personal index /usr/share/doc/python3.11/html \\
        --include '*.html' --exclude _sources --exclude _static --db PY.db
    PYTHONPATH=$PWD python bench/anchor_field.py bench/golden/python-doc.json \\
        --root /usr/share/doc/python3.11/html --db PY.db --weights 0 0.3 0.4 0.5 1.0
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import glean_personal  # noqa: E402
import glean_personal.search as search_module  # noqa: E402
from glean_personal.query import parse  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("golden")
    ap.add_argument("--root", required=True)
    ap.add_argument("--db", required=True)
    ap.add_argument("--weights", type=float, nargs="+", default=[0.0, 0.4])
    args = ap.parse_args(argv)
    if not hasattr(search_module.TUNING, "anchor_weight"):
        print("this checkout has no anchor text field: run it on the branch anchors-code")
        return 2
    questions = [c["query"] for c in json.load(open(args.golden, encoding="utf-8"))["cases"]
                 if parse(c["query"]).question]
    first = None
    with glean_personal.open_index(args.db, readonly=True) as ix:
        for weight in args.weights:
            search_module.TUNING = dataclasses.replace(search_module.TUNING,
                                                       anchor_weight=weight)
            report = ix.evaluate(args.golden, args.root).to_dict()
            cats = report["summary"]["by_category"]
            print(f"weight {weight}: overall {report['summary']['overall']['ndcg@10']:.3f} " +
                  " ".join(f"{c} {m['ndcg@10']:.3f}" for c, m in sorted(cats.items())
                           if c != "unanswerable"))
            cases = {c["id"]: c for c in report["cases"]}
            if first is None:
                first = cases
            else:
                for cid, case in cases.items():
                    before = first[cid].get("ndcg@10") or 0.0
                    after = case.get("ndcg@10") or 0.0
                    if abs(before - after) > 1e-3:
                        print(f"   {cid:28s} {before:.3f} -> {after:.3f}  {case.get('query')}")
            for q in questions:   # warm-up
                ix.search(q, limit=10)
            times = []
            for q in questions:
                start = time.process_time()
                ix.search(q, limit=10)
                times.append((time.process_time() - start) * 1000)
            times.sort()
            print(f"   {len(questions)} questions: median {statistics.median(times):.1f} ms, "
                  f"p95 {times[int(0.95 * len(times))]:.1f} ms CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
