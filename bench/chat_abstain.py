#!/usr/bin/env python3
"""Does /chat answer the answerable questions and decline the others?

    PYTHONPATH=$PWD python bench/chat_abstain.py GOLDEN=DB [GOLDEN=DB ...] [--json] [--verbose]
        [--counts-only] [--citations] [--set KNOB=VALUE ...]

The figures in docs/search.md ("Match strength") come from, for each store S
(fts5, plain), with indexes built as bench/golden/README.md says:

    PYTHONPATH=$PWD python bench/chat_abstain.py \
        bench/golden/python-doc.json=PY-S.db bench/golden/git-doc.json=GIT-S.db \
        bench/golden/chat-tuning2-python.json=PY-S.db bench/golden/chat-tuning2-git.json=GIT-S.db \
        bench/golden/chat-heldout-python.json=PY-S.db bench/golden/chat-heldout-git.json=GIT-S.db \
        bench/golden/sqlite-doc.json=SQLITE-S.db

Each argument pairs a golden set (bench/golden/README.md) with an index of its
root (built as that README says). Every question of the set goes to the real
/chat endpoint, the way the REPL sends it: a ChatRequest with one USER message,
through `LocalBackend` (glean_personal/surfaces/local_backend.py), which reads
the index through the facade (`open_index`). An answer is a message with
citations; a decline is the "nothing on that" message. Questions of the
"unanswerable" category should be declined; all others answered.

Printed per set and store: unanswerable declined and answerable answered, as
counts and rates, then every error with the best candidate's match strength
and, for a wrong answer, the document it quoted. `--verbose` prints the best
strength of every question (to see the margin around the threshold). The
store kind is the index's own (`fts5` or `plain`); the index is opened
read-only and never written. `--counts-only` prints the counts and nothing
per question (the thesaurus in glean_personal/synonyms.py was judged by
aggregate figures only); `--set synonyms=false` (any SearchTuning field) runs
with a knob changed, e.g. the thesaurus off. `--citations` adds, for the
answered questions that list relevant pages, what the answers cite: citations
per answer, the share of them of a relevant page, and how many answers cite
one first and at all.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Dict, List
from urllib.parse import unquote

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import glean_personal.search as search_module  # noqa: E402
from glean_personal.surfaces.local_backend import LocalBackend, CHAT_CANDIDATES  # noqa: E402


def set_knobs(items: List[str]) -> None:
    """Apply `KNOB=VALUE` settings to search's tuning (booleans as true/false/1/0).

    The copy is made from the instance's fields (`vars`), which works whether
    SearchTuning is a dataclass or not.
    """
    tuning = search_module.TUNING
    knobs = dict(vars(tuning))
    for item in items:
        key, _, value = item.partition("=")
        kind = type(getattr(tuning, key))
        knobs[key] = value.lower() in ("1", "true", "yes", "on") if kind is bool else kind(value)
    search_module.TUNING = type(tuning)(**knobs)


def ask(backend: LocalBackend, question: str) -> dict:
    """The /chat response to one question, and what it did."""
    request = {"messages": [{"author": "USER", "fragments": [{"text": question}]}]}
    response = backend.call("chat", request)
    message = response["messages"][0]
    cited = [c["sourceDocument"].get("title") or c["sourceDocument"].get("url")
             for c in message.get("citations") or []]
    urls = [c["sourceDocument"].get("url") or "" for c in message.get("citations") or []]
    text = "".join(f.get("text", "") for f in message["fragments"])
    return {"answered": bool(cited), "cited": cited, "urls": urls, "text": text}


def best_strength(backend: LocalBackend, question: str) -> float:
    """The highest match strength among /chat's candidate passages (for the report)."""
    result = backend.opened().search(question, limit=CHAT_CANDIDATES, passages=True)
    return max((h.strength for h in result.results), default=0.0)


def run_set(golden: str, db: str) -> dict:
    with open(golden, encoding="utf-8") as f:
        cases = json.load(f)["cases"]
    backend = LocalBackend(db)
    try:
        store = backend.opened().store.kind
        rows = []
        for case in cases:
            want = case["category"] != "unanswerable"
            got = ask(backend, case["query"])
            rows.append({"id": case["id"], "query": case["query"], "category": case["category"],
                         "answerable": want, "answered": got["answered"],
                         "right": got["answered"] == want, "cited": got["cited"][:3],
                         "relevant_cited": [any(unquote(u).endswith("/" + r)
                                                for r in case.get("relevant", []))
                                            for u in got["urls"]] if case.get("relevant") else [],
                         "strength": round(best_strength(backend, case["query"]), 3),
                         "reason": "" if got["answered"] else got["text"]})
    finally:
        backend.close()
    una = [r for r in rows if not r["answerable"]]
    ans = [r for r in rows if r["answerable"]]
    return {"set": os.path.basename(golden), "db": db, "store": store,
            "unanswerable": len(una), "declined": sum(not r["answered"] for r in una),
            "answerable": len(ans), "answered": sum(r["answered"] for r in ans),
            "cases": rows}


def print_citations(reports: List[dict]) -> None:
    """Per set: of the answered questions that list relevant pages, citations per
    answer, the share of citations that are of a relevant page, and how many answers
    cite one first and at all."""
    for r in reports:
        cited = [c["relevant_cited"] for c in r["cases"] if c["answered"] and c["relevant_cited"]]
        if not cited:
            continue
        n, total = len(cited), sum(map(len, cited))
        print(f"{r['set']:28} {r['store']:5}  citations per answer {total / n:.2f}, "
              f"of a relevant page {sum(map(sum, cited)) / total:.2f}; "
              f"first cited relevant {sum(c[0] for c in cited)}/{n}, any {sum(any(c) for c in cited)}/{n}")


def _rate(n: int, d: int) -> str:
    return f"{n}/{d} ({n / d:.0%})" if d else "-"


def main(argv: List[str] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pairs", nargs="+", metavar="GOLDEN=DB")
    ap.add_argument("--json", action="store_true", help="print every case as JSON")
    ap.add_argument("--verbose", action="store_true", help="print each question's best strength")
    ap.add_argument("--counts-only", action="store_true", help="print nothing per question")
    ap.add_argument("--citations", action="store_true",
                    help="what the answers cite: of the answered questions with a relevance list")
    ap.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE",
                    help="a SearchTuning field, e.g. synonyms=false")
    args = ap.parse_args(argv)
    set_knobs(args.set)
    reports = []
    for pair in args.pairs:
        golden, sep, db = pair.partition("=")
        if not sep or not os.path.exists(golden) or not os.path.exists(db):
            ap.error(f"want GOLDEN=DB with both files present, got {pair!r}")
        reports.append(run_set(golden, db))
    if args.json:
        json.dump(reports, sys.stdout, indent=1)
        print()
        return 0
    totals: Dict[str, List[int]] = {}
    for r in reports:
        print(f"{r['set']:28} {r['store']:5}  unanswerable declined {_rate(r['declined'], r['unanswerable']):13}"
              f"  answerable answered {_rate(r['answered'], r['answerable'])}")
        t = totals.setdefault(r["store"], [0, 0, 0, 0])
        for i, k in enumerate(("declined", "unanswerable", "answered", "answerable")):
            t[i] += r[k]
    for store, (dec, una, ansd, ans) in sorted(totals.items()):
        print(f"{'all sets':28} {store:5}  unanswerable declined {_rate(dec, una):13}"
              f"  answerable answered {_rate(ansd, ans)}")
    if args.citations:
        print_citations(reports)
    if args.counts_only:
        return 0
    for r in reports:
        wrong = [c for c in r["cases"] if not c["right"]]
        if wrong:
            print(f"\nerrors, {r['set']} ({r['store']}):")
        for c in wrong:
            if c["answerable"]:
                print(f"  declined an answerable question {c['id']}: {c['query']!r} "
                      f"(best strength {c['strength']:.2f})")
            else:
                print(f"  answered an unanswerable question {c['id']}: {c['query']!r} "
                      f"(best strength {c['strength']:.2f}; quoted {'; '.join(c['cited'])})")
    if args.verbose:
        for r in reports:
            print(f"\nstrengths, {r['set']} ({r['store']}):")
            for c in sorted(r["cases"], key=lambda c: c["strength"]):
                mark = "ok " if c["right"] else "ERR"
                print(f"  {mark} {c['strength']:.3f} {'A' if c['answerable'] else 'U'} "
                      f"{c['id']}: {c['query']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
