#!/usr/bin/env python3
"""A straightforward reference implementation of the content graph (docs/graph.md).

    python bench/reference_graph.py CORPUS_DIR [--exclude NAME]...
    python bench/reference_graph.py --db GLEAN_DB
        [--top-k 10] [--min-score 0] [--max-df-share 0.5] [--candidate-df N] [--json] [--links-out FILE]
        [--compare-db GLEAN_DB]

Reads each document's text from a folder (with bench/floor.py's extraction) or
from a glean_personal database (the passages table, joined to documents), then:

1. phrase sets per document: single terms and adjacent-term bigrams, lowercase
   \\w+ tokens of two or more characters, no pure numbers; a stopword is never a
   single-term phrase, and no bigram is made of two stopwords;
2. a document-frequency gate: a phrase is discriminating when 2 <= df <= the
   larger of 2 and max_df_share * N (a phrase in one document connects
   nothing; one in most documents is vocabulary);
3. candidate pairs from an inverted index over discriminating phrases whose df
   is at most --candidate-df (pruning by df, a property of the phrase, so both
   ends of a pair keep or drop it alike; default: no extra cap), never all pairs;
4. pair score = sum of idf = ln(N / df) over the shared candidate phrases,
   normalised by sqrt(W_a * W_b), where W is a document's total weight over
   the same phrases (so 1.0 means identical phrase sets), plus a title bonus of
   0.1 per rare (gated) word the two titles share, at most 0.2;
5. each document ranks its neighbours (score, then path), keeps its --top-k,
   and a link survives when either end keeps it; each link records its
   highest-weighted shared phrases as evidence.

Deterministic: documents are processed in path order and ties break on path.
Prints documents, links, median score, max and median degree, seconds and the
peak resident memory of the process.
"""
from __future__ import annotations

import argparse
import json
import heapq
import math
import os
import re
import resource
import sqlite3
import sys
import time
from array import array
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

STOPWORDS = frozenset("""
a about above after again against all also am an and any are as at be because been before being below
between both but by can could did do does doing down during each either few for from further had has
have having he her here hers herself him himself his how i if in into is it its itself just let me more
most my myself neither no nor not now of off on once only or other ought our ours ourselves out over own
per same shall she should so some such than that the their theirs them themselves then there these they
this those through to too under until up upon very was we were what when where which while who whom
whose why will with within without would you your yours yourself yourselves may might must one
""".split())

TOKEN_RE = re.compile(r"\w\w+")
TITLE_BONUS = 0.1
TITLE_BONUS_MAX = 0.2
EVIDENCE = 8


def tokens(text: str) -> List[str]:
    return [t for t in TOKEN_RE.findall(text.lower()) if not t.isdigit()]


def phrases(text: str) -> set:
    toks = tokens(text)
    out = {t for t in toks if t not in STOPWORDS}
    out.update(f"{a} {b}" for a, b in zip(toks, toks[1:])
               if not (a in STOPWORDS and b in STOPWORDS))
    return out


def docs_from_folder(root: str, exclude: Sequence[str]) -> List[Tuple[str, str, str]]:
    from floor import iter_documents
    return sorted(iter_documents(root, tuple(exclude)))


def docs_from_db(db: str) -> List[Tuple[str, str, str]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    rows = conn.execute("SELECT d.id, d.path, d.title, p.text FROM passages p "
                        "JOIN documents d ON d.id = p.document_id ORDER BY d.id, p.ordinal")
    docs: Dict[int, List[object]] = {}
    for doc_id, path, title, text in rows:
        entry = docs.setdefault(doc_id, [path, title, []])
        entry[2].append(text)  # type: ignore[union-attr]
    conn.close()
    return sorted((str(p), str(t), "\n".join(parts)) for p, t, parts in docs.values())  # type: ignore[arg-type]


def build_graph(docs: Sequence[Tuple[str, str, str]], top_k: int = 10, min_score: float = 0.0,
                max_df_share: float = 0.5, candidate_df: Optional[int] = None) -> Dict[str, object]:
    n = len(docs)
    ids: Dict[str, int] = {}
    doc_sets: List[array] = []
    df: List[int] = []
    for path, title, text in docs:
        row = array("i")
        for ph in phrases(f"{title}\n{text}"):
            pid = ids.get(ph)
            if pid is None:
                pid = ids[ph] = len(df)
                df.append(0)
            df[pid] += 1
            row.append(pid)
        doc_sets.append(row)
    max_df = max(2, int(max_df_share * n))
    cap = min(max_df, candidate_df) if candidate_df else max_df
    weight = [math.log(n / d) if 2 <= d <= cap else 0.0 for d in df]
    names = [""] * len(df)
    for ph, pid in ids.items():
        if weight[pid]:
            names[pid] = ph
    del ids
    postings: Dict[int, List[int]] = {}
    kept: List[frozenset] = []
    totals: List[float] = []
    for doc, row in enumerate(doc_sets):
        mine = frozenset(p for p in row if weight[p])
        kept.append(mine)
        totals.append(sum(weight[p] for p in mine))
        for p in mine:
            postings.setdefault(p, []).append(doc)
    del doc_sets
    title_terms = [frozenset(t for t in tokens(title) if t not in STOPWORDS and t in names_set)
                   for names_set in [set(names)] for _, title, _ in docs]
    # One row at a time: document a's scores to every candidate b, then its top k.
    # Each pair is scored from both ends (the score is symmetric), which keeps
    # memory at the postings plus the kept links instead of every candidate pair.
    links: Dict[Tuple[int, int], float] = {}
    increments = 0
    for a in range(n):
        row_acc: Dict[int, float] = {}
        for p in kept[a]:
            w = weight[p]
            for b in postings[p]:
                row_acc[b] = row_acc.get(b, 0.0) + w
            increments += len(postings[p]) - 1
        row_acc.pop(a, None)
        scored = []
        for b, s in row_acc.items():
            score = s / math.sqrt(totals[a] * totals[b]) if totals[a] and totals[b] else 0.0
            score += min(TITLE_BONUS_MAX, TITLE_BONUS * len(title_terms[a] & title_terms[b]))
            if score >= min_score and score > 0:
                scored.append((-score, docs[b][0], b))
        for neg, _, b in heapq.nsmallest(top_k, scored):
            links[(min(a, b), max(a, b))] = -neg
    del postings
    degree = [0] * n
    out_links = []
    for (a, b), score in sorted(links.items()):
        degree[a] += 1
        degree[b] += 1
        shared = sorted(kept[a] & kept[b], key=lambda p: (-weight[p], names[p]))[:EVIDENCE]
        out_links.append({"a": docs[a][0], "b": docs[b][0], "score": round(score, 4),
                          "phrases": [names[p] for p in shared]})
    scores = sorted(l["score"] for l in out_links)
    degrees = sorted(degree)
    return {
        "documents": n, "links": len(out_links),
        "median_score": _median(scores), "max_degree": max(degrees) if degrees else 0,
        "median_degree": _median(degrees), "isolated": sum(1 for d in degree if d == 0),
        "phrases": len(df), "discriminating": sum(1 for w in weight if w), "max_df": cap,
        "posting_visits": increments, "links_list": out_links,
    }


def compare(links_list: Sequence[Dict[str, object]], db: str) -> Dict[str, object]:
    """Overlap between these links and a glean_personal db's links (pairs of paths)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    rows = conn.execute("SELECT da.path, db.path, l.score FROM links l JOIN documents da ON da.id = l.a "
                        "JOIN documents db ON db.id = l.b").fetchall()
    conn.close()
    product = {tuple(sorted((a, b))) for a, b, _ in rows}
    ours = {tuple(sorted((str(l["a"]), str(l["b"])))) for l in links_list}
    best_ours = _best_neighbour((str(l["a"]), str(l["b"]), float(l["score"])) for l in links_list)  # type: ignore[arg-type]
    best_product = _best_neighbour((a, b, float(s)) for a, b, s in rows)
    shared_docs = set(best_ours) & set(best_product)
    same_best = sum(1 for d in shared_docs if best_ours[d] == best_product[d])
    both = len(product & ours)
    return {"product_links": len(product), "reference_links": len(ours), "in_both": both,
            "share_of_product_in_reference": round(both / len(product), 3) if product else None,
            "share_of_reference_in_product": round(both / len(ours), 3) if ours else None,
            "same_best_neighbour": round(same_best / len(shared_docs), 3) if shared_docs else None}


def _best_neighbour(triples: Iterable[Tuple[str, str, float]]) -> Dict[str, str]:
    best: Dict[str, Tuple[float, str]] = {}
    for a, b, score in triples:
        for x, y in ((a, b), (b, a)):
            key = (-score, y)
            if x not in best or key < best[x]:
                best[x] = key
    return {d: v[1] for d, v in best.items()}


def _median(values: Sequence[float]) -> float:
    if not values:
        return 0.0
    mid = len(values) // 2
    return float(values[mid]) if len(values) % 2 else (values[mid - 1] + values[mid]) / 2


def peak_rss_mb() -> float:
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(kb / 1024, 1)   # Linux reports KiB


def main(argv: Optional[Iterable[str]] = None) -> int:
    ap = argparse.ArgumentParser(description="Reference content graph (docs/graph.md).")
    ap.add_argument("corpus", nargs="?")
    ap.add_argument("--db")
    ap.add_argument("--exclude", action="append", default=[])
    ap.add_argument("--top-k", type=int, default=10)
    ap.add_argument("--min-score", type=float, default=0.0)
    ap.add_argument("--max-df-share", type=float, default=0.5)
    ap.add_argument("--candidate-df", type=int, default=None)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--links-out", help="write every link with its phrases to this JSON file")
    ap.add_argument("--compare-db", help="a glean_personal db whose `link` ran over the same files: "
                    "report how far its links agree with these")
    args = ap.parse_args(list(argv) if argv is not None else None)
    if bool(args.corpus) == bool(args.db):
        ap.error("give a corpus folder or --db, not both")
    start = time.perf_counter()
    docs = docs_from_db(args.db) if args.db else docs_from_folder(args.corpus, args.exclude)
    read_s = time.perf_counter() - start
    result = build_graph(docs, args.top_k, args.min_score, args.max_df_share, args.candidate_df)
    total_s = time.perf_counter() - start
    links_list = result.pop("links_list")
    result.update({"read_seconds": round(read_s, 2), "graph_seconds": round(total_s - read_s, 2),
                   "seconds": round(total_s, 2), "peak_rss_mb": peak_rss_mb(),
                   "median_score": round(float(result["median_score"]), 4)})
    if args.compare_db:
        result["agreement"] = compare(links_list, args.compare_db)
    if args.links_out:
        with open(args.links_out, "w", encoding="utf-8") as fh:
            json.dump(links_list, fh, indent=0)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:16} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
