"""Question by question: where plain BM25 over whole pages (bm25s) ranks a listed page higher.

    python bench/bm25s_cases.py GOLDEN --root ROOT --db DB [--include GLOB]... [--exclude GLOB]...
                                [--category paraphrase] [--margin 0.05] [--json OUT]
                                [--first3] [--read-more]

For each question of the category, bm25s (bench/baselines.py, over the pages
bench/floor.py reads under ROOT) and glean_personal (the index DB) each rank ten
documents; printed are both nDCG@10 (binary gains, as bench/run_search.py counts
them) and, for the questions where bm25s leads by more than the margin, the
rank of each listed page in both lists (30 fetched; `-` for none) and what
became of each listed page bm25s puts in its first ten and glean_personal does
not: `folded` (shown as a copy under another hit, `also_at`), `leader` (among
the documents the coverage rerank reads, `SearchTuning.rerank`, and ranked
lower after it), `pool` (among the store's first candidates, below those),
`rarer` (not among them because only the passages holding a rarer word were
scored, `search._rarer`, while its best passage is among the pool's worth of
all the query's words) or `missed` (not among them).
With `--first3`, the questions listed are those where bm25s puts a listed page
in its first three and glean_personal none in its first five, and the pages
described those of bm25s's first three (docs/search.md, "Listed again on all
45 sets").
Needs the venv of run_search.py (bm25s, PyStemmer). docs/search.md, "Where
plain BM25 still leads".
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
from typing import Dict, List, Sequence, Set

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, REPO)
import floor  # noqa: E402
from baselines import BM25sBaseline  # noqa: E402

import glean_personal  # noqa: E402
from glean_personal import search as search_module  # noqa: E402


def ndcg(ranked: Sequence[str], relevant: Set[str]) -> float:
    dcg = sum(1 / math.log2(i + 2) for i, p in enumerate(ranked[:10]) if p in relevant)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(len(relevant), 10)))
    return dcg / ideal if ideal else 0.0


def main(argv: List[str] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("golden")
    ap.add_argument("--root", required=True)
    ap.add_argument("--db", required=True)
    ap.add_argument("--include", action="append", default=[])
    ap.add_argument("--exclude", action="append", default=[])
    ap.add_argument("--category", default="paraphrase")
    ap.add_argument("--margin", type=float, default=0.05)
    ap.add_argument("--json", default="")
    ap.add_argument("--first3", action="store_true")
    ap.add_argument("--read-more", action="store_true",
                    help="bm25s also reads gzipped files, man pages, POD and XML (floor.READ_MORE)")
    a = ap.parse_args(argv)

    floor.READ_MORE = a.read_more
    bm = BM25sBaseline(list(floor.iter_documents(a.root, tuple(a.exclude), tuple(a.include))))
    ix = glean_personal.open_index(a.db)
    # The store's candidates of the last search, to tell a page ranked low from one never fetched.
    seen: Dict[str, list] = {}
    candidates = search_module._candidates

    def recording(store, query, weights, pool, filters):
        hits = candidates(store, query, weights, pool, filters)
        seen.update(hits=hits, store=store, query=query, weights=weights, filters=filters)
        return hits

    rerank = search_module._rerank

    def reranking(ranked, rows, query, weights, listings=False):
        seen["leaders"] = {pid for pid, _, _ in sorted(ranked, key=lambda t: (-t[1], t[0]))
                           [:search_module.TUNING.rerank]}
        return rerank(ranked, rows, query, weights, listings)

    search_module._candidates = recording
    search_module._rerank = reranking
    cases = [c for c in json.load(open(a.golden))["cases"] if c["category"] == a.category]
    out, ahead, behind = [], 0, 0
    for case in cases:
        relevant = set(case["relevant"])
        theirs = bm.search(case["query"], 30)
        results = ix.search(case["query"], limit=30).results
        ours = [h.document["path"] for h in results]
        nb, ng = ndcg(theirs, relevant), ndcg(ours, relevant)
        row = {"id": case["id"], "query": case["query"], "bm25s": round(nb, 3),
               "glean": round(ng, 3), "lost": {}}
        if (relevant & set(theirs[:3]) and not relevant & set(ours[:5]) if a.first3
                else nb > ng + a.margin):
            ahead += 1
            also = {d["path"] for h in results[:10] for d in h.also_at}
            store = seen["store"]
            doc_of, _, paths, *_ = store.passage_documents_titled([p for p, _ in seen["hits"]])
            fetched = {paths[doc_of[p]] for p, _ in seen["hits"]}
            leading = {paths[doc_of[p]] for p in seen.get("leaders", ())}
            for page in sorted(relevant):
                if (page in theirs[:3] if a.first3 else
                        page in theirs[:10] and page not in ours[:10]):
                    row["lost"][page] = ("folded" if page in also else
                                         "leader" if page in leading else
                                         "pool" if page in fetched else
                                         "rarer" if cut(seen, page) else "missed")
            print(f"{nb:.2f} {ng:.2f} BM> {case['id']}: {case['query']}")
            for page in sorted(relevant):
                where = (theirs.index(page) + 1 if page in theirs else "-",
                         ours.index(page) + 1 if page in ours else "-")
                print(f"    {page}: bm25s {where[0]}, glean {where[1]}"
                      + (f" ({row['lost'][page]})" if page in row["lost"] else ""))
        else:
            behind += ng > nb + a.margin
            print(f"{nb:.2f} {ng:.2f}     {case['id']}: {case['query']}")
        out.append(row)
    n = len(cases) or 1
    lost = [w for r in out for w in r["lost"].values()]
    print(f"mean nDCG@10: bm25s {sum(r['bm25s'] for r in out) / n:.3f}, "
          f"glean_personal {sum(r['glean'] for r in out) / n:.3f}; bm25s ahead on {ahead}, "
          f"behind on {behind} of {len(cases)}; listed pages lost: "
          + ", ".join(f"{k} {lost.count(k)}" for k in ("folded", "leader", "pool", "rarer",
                                                        "missed")))
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(out, fh, indent=1)
    return 0


def cut(seen: dict, page: str) -> bool:
    """Did only the rarer words choosing (`search._rarer`) leave `page` out of the
    candidates, its best passage being among the pool's worth of all the words?"""
    weights, filters = seen["weights"], seen["filters"]
    if not search_module._rarer(weights, filters):
        return False
    query = seen["query"]
    if weights.expansions:
        query = search_module.Query(query.text, weights.terms, query.excluded)
    hits = seen["store"].fulltext.search(query, search_module.TUNING.pool, filters)
    _, _, paths, *_ = seen["store"].passage_documents_titled([p for p, _ in hits])
    return page in paths.values()


if __name__ == "__main__":
    sys.exit(main())
