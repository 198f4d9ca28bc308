"""How often a result is shown by text its folder repeats on many pages.

    PYTHONPATH=TREE python bench/repeated_shown.py DB GOLDEN.json [GOLDEN.json ...]
        [--min-docs 10] [--share 0.33] [--passages]

Runs every question of the golden sets through TREE's `search` (limit 10) on DB,
and counts the results whose shown passage is made only of paragraphs that at
least --min-docs documents of the folder, and --share of them, hold word for
word (the paragraphs counted from the index's own passages, as
bench/repeated_paragraphs.py does, so the figure means the same for any tree):
at rank 1, and in the first ten. With --passages, the passage lists instead.
"""
import argparse
import json
import math
import re
import sqlite3
from collections import defaultdict

import glean_personal

BREAK = re.compile(r"\n[ \t\r\f\v]*\n")


def repeated_passages(db, min_docs, share):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    docs = {}
    for did, src in con.execute("SELECT id, source_id FROM documents"):
        docs[did] = src
    per_source = defaultdict(int)
    for src in docs.values():
        per_source[src] += 1
    holders = defaultdict(set)
    paras = {}
    for pid, did, text in con.execute("SELECT id, document_id, text FROM passages"):
        ps = [" ".join(p.split()) for p in BREAK.split(text)]
        ps = [p for p in ps if p]
        paras[pid] = (docs[did], ps)
        for p in ps:
            holders[(docs[did], p)].add(did)
    con.close()
    out = set()
    for pid, (src, ps) in paras.items():
        need = max(min_docs, math.ceil(share * per_source[src]))
        if ps and all(len(holders[(src, p)]) >= need for p in ps):
            out.add(pid)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("db")
    ap.add_argument("golden", nargs="+")
    ap.add_argument("--min-docs", type=int, default=10)
    ap.add_argument("--share", type=float, default=0.33)
    ap.add_argument("--passages", action="store_true")
    a = ap.parse_args()
    boxed = repeated_passages(a.db, a.min_docs, a.share)
    first = anywhere = questions = 0
    with glean_personal.open_index(a.db, readonly=True) as ix:
        for path in a.golden:
            for case in json.load(open(path))["cases"]:
                questions += 1
                hits = ix.search(case["query"], limit=10, passages=a.passages).results
                ids = [h.passage_id for h in hits]
                first += bool(ids) and ids[0] in boxed
                anywhere += sum(1 for i in ids if i in boxed)
    print(f"{a.db}: {len(boxed)} passages only of repeated paragraphs; {questions} questions: "
          f"shown at rank 1 {first}, among the first ten {anywhere}")


if __name__ == "__main__":
    main()
