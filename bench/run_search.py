#!/usr/bin/env python3
"""Search quality and latency: glean_personal against two baselines, in one run.

    python bench/run_search.py [--golden bench/golden/python-doc.json]
        [--root /usr/share/doc/python3.11/html] [--exclude _sources --exclude _static] [--include GLOB]
        [--latency-corpus bench/corpora/mixed-10k] [--cli-queries 20]

Systems, all over the same files under ROOT:
- fts5-and: whole-document FTS5 bm25 as sqlite-utils searches it (title + body
  columns, one row per document, `quote_fts()` on the query so the quoted terms
  are ANDed, ORDER BY rank); bench/floor.py builds the table;
- fts5-or: the same, with the quoted terms joined by OR;
- bm25s: the bm25s library (see bench/baselines.py for its settings);
- glean: this package, through its Python API (`glean_personal.open_index(db)`
  and `.search(query, limit=10)`; paths from each hit's document), falling
  back to `python -m glean_personal search QUERY --db DB --json --limit 10`.

Metrics come from glean_personal.evaluation. Latency: median and p95 CPU time
per query in process (after one warm-up pass) over the golden queries and, with
--latency-corpus, over 200 generated queries and the natural-language queries of
--latency-queries on that corpus (with and without --explain; for glean_personal
also the first pass on a freshly opened index, before its kept word counts and
vocabulary help); and the median and p95 wall time and child CPU time of the
whole `search --json` command over --cli-queries queries of each set.
Per-case rankings go to bench/out/search-<golden>.json.

Latency alone, on an existing index of the 10k corpus (no baselines needed):

    python bench/run_search.py --latency-only --latency-db /path/to/10k.db [--at worktree]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import sqlite3
import statistics
import sys
import time
from typing import Callable, Dict, List, Optional, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
OUT = os.path.join(HERE, "out")
sys.path.insert(0, HERE)
sys.path.insert(0, REPO)
import floor  # noqa: E402
from baselines import BM25sBaseline, fts_search  # noqa: E402
from product_source import Run, glean, product_source, run_child  # noqa: E402

SRC = REPO          # set from --at in main(), before glean_personal is imported
METRICS = ("ndcg@10", "mrr@10", "recall@5", "recall@10", "hit@1")

SearchFn = Callable[[str], List[str]]


def cli(*args: str) -> Run:
    return run_child(glean(*args), SRC)


def _key(*parts: object) -> str:
    return hashlib.sha1(repr(parts).encode()).hexdigest()[:8]


def floor_db(root: str, exclude: Sequence[str], name: str, include: Sequence[str] = ()) -> str:
    more = (("read-more",) if floor.READ_MORE else ()) + (("read-sources",) if floor.READ_SOURCES else ())
    db = os.path.join(OUT, f"search-floor-{name}-{_key(root, tuple(exclude) + more, tuple(include))}.db")
    if not os.path.exists(db):
        floor.build(root, db, tuple(exclude), tuple(include))
    return db


def product_db(root: str, exclude: Sequence[str], name: str, given: Optional[str],
               tag: str, include: Sequence[str] = ()) -> Optional[str]:
    if given:
        return given
    db = os.path.join(OUT, f"search-product-{name}-{tag}-{_key(root, tuple(exclude), tuple(include))}.db")
    if tag == "worktree" and os.path.exists(db):
        os.remove(db)
    if os.path.exists(db):
        return db
    args = (["index", root, "--db", db, "--json"] + [a for e in exclude for a in ("--exclude", e)]
            + [a for i in include for a in ("--include", i)])
    res = cli(*args)
    if res.code != 0:
        print(f"glean: index failed ({res.code}): {res.err.strip()[-300:]}", file=sys.stderr)
        for suffix in ("", "-wal", "-shm", "-journal"):
            if os.path.exists(db + suffix):
                os.remove(db + suffix)
        return None
    print(f"glean: indexed {root} in {res.wall:.1f} s", file=sys.stderr)
    return db


def _hits(result) -> list:
    return list(getattr(result, "results", result))


def _hit_path(hit) -> str:
    if isinstance(hit, dict):
        return hit["document"]["path"]
    doc = getattr(hit, "document", None)
    return doc["path"] if isinstance(doc, dict) else getattr(doc, "path")


def glean_searcher(db: str) -> Tuple[Optional[SearchFn], str, Optional[object]]:
    """The product's search as a function of the query, and how it is called."""
    try:
        import glean_personal
        ix = glean_personal.open_index(db)  # type: ignore[attr-defined]
        ix = ix.__enter__() if hasattr(ix, "__enter__") else ix
    except (ImportError, AttributeError) as exc:
        print(f"glean: Python API not usable ({exc}); using the CLI", file=sys.stderr)
    else:
        return (lambda q: [_hit_path(h) for h in _hits(ix.search(q, limit=10))]), "Python API", ix

    def via_cli(q: str) -> List[str]:
        res = cli("search", q, "--db", db, "--json", "--limit", "10")
        if res.code != 0:
            return []
        return [r["document"]["path"] for r in json.loads(res.out)["results"]]
    res = cli("search", "probe", "--db", db, "--json")
    if res.code != 0:
        print(f"glean: search verb not usable: {res.err.strip()[-200:]}", file=sys.stderr)
        return None, "unavailable", None
    return via_cli, "CLI search --json", None


def timed(fn: SearchFn, queries: Sequence[str], warm: bool = True,
          clock: Callable[[], float] = time.process_time) -> Tuple[List[List[str]], List[float]]:
    """Results and times per query: CPU time of this process by default (the machine is
    shared, so wall time mostly measures the neighbours); pass time.perf_counter for a
    function whose work runs in a child process."""
    if warm:
        for q in queries:
            fn(q)
    results, times = [], []
    for q in queries:
        start = clock()
        results.append(fn(q))
        times.append(clock() - start)
    return results, times


def first_pass(fn: SearchFn, queries: Sequence[str]) -> List[float]:
    """CPU time per query on its first run in a fresh index handle (no warm-up)."""
    return timed(fn, queries, warm=False)[1]


def cli_lines(name: str, db: str, queries: Sequence[str]) -> List[str]:
    """The whole `search --json` command per query: wall time, and the child's CPU time,
    with the interpreter's own start (`python -c pass`) as the floor under both."""
    floor_runs = [run_child([sys.executable, "-c", "pass"], SRC) for _ in range(10)]
    runs = [cli("search", q, "--db", db, "--json") for q in queries]
    walls = [r.wall for r in runs]
    cpus = [r.cpu for r in runs]
    bad = sum(1 for r in runs if r.code != 0)
    return [f"CLI `search --json` on {name}, whole command (interpreter start included), "
            f"{len(runs)} queries{f' ({bad} failed)' if bad else ''}:",
            "",
            "| measure | median ms | p95 ms | `python -c pass` median ms |",
            "|---|---|---|---|",
            f"| wall | {ms(statistics.median(walls))} | {ms(pct(walls, 0.95))} | "
            f"{ms(statistics.median(r.wall for r in floor_runs))} |",
            f"| child CPU (user + sys) | {ms(statistics.median(cpus))} | {ms(pct(cpus, 0.95))} | "
            f"{ms(statistics.median(r.cpu for r in floor_runs))} |"]


def pct(values: Sequence[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = max(0, min(len(ordered) - 1, int(round(p * (len(ordered) - 1)))))
    return ordered[k]


def ms(v: float) -> str:
    return f"{v * 1000:.2f}"


def _f(v) -> str:
    return "–" if v is None else f"{v:.3f}"


def quality_tables(summaries: Dict[str, dict]) -> str:
    systems = list(summaries)
    lines = ["| system | nDCG@10 | MRR@10 | Recall@5 | Recall@10 | Hit@1 | unanswerable: empty |",
             "|---|---|---|---|---|---|---|"]
    for s in systems:
        o = summaries[s]["overall"]
        lines.append(f"| {s} | " + " | ".join(_f(o[m]) for m in METRICS)
                     + f" | {_f(o['unanswerable_empty'])} |")
    cats = [c for c in next(iter(summaries.values()))["by_category"] if c != "unanswerable"]
    for metric in ("ndcg@10", "mrr@10", "recall@10", "hit@1"):
        lines += ["", f"{metric} by category:", "",
                  "| system | " + " | ".join(
                      f"{c} ({next(iter(summaries.values()))['by_category'][c]['cases']})" for c in cats) + " |",
                  "|---|" + "---|" * len(cats)]
        for s in systems:
            lines.append(f"| {s} | " + " | ".join(_f(summaries[s]["by_category"][c][metric]) for c in cats) + " |")
    return "\n".join(lines)


def generated_queries(db: str, n: int = 200, seed: int = 7) -> List[str]:
    """Queries of 1-3 words taken from random documents of a floor db."""
    rng = random.Random(seed)
    conn = sqlite3.connect(db)
    count = conn.execute("SELECT count(*) FROM docs").fetchone()[0]
    out = []
    while len(out) < n:
        body = conn.execute("SELECT body FROM docs WHERE rowid = ?", (rng.randint(1, count),)).fetchone()
        if not body:
            continue
        words = [w for w in re.findall(r"[^\W\d_]{4,}", body[0].lower())]
        if len(words) < 10:
            continue
        k = rng.choice([1, 2, 2, 3])
        if rng.random() < 0.15:
            i = rng.randrange(len(words) - 1)
            out.append(f'"{words[i]} {words[i + 1]}"')
        else:
            out.append(" ".join(rng.sample(words, k)))
    conn.close()
    return out


def chat_backend(db: str):
    """The REPL's /chat backend over DB (its module moved under surfaces/ at some point)."""
    for name in ("glean_personal.surfaces.local_backend", "glean_personal.local_backend"):
        try:
            module = __import__(name, fromlist=["LocalBackend"])
        except ImportError:
            continue
        return module.LocalBackend(db)
    return None


def chat_answers(backend, question: str) -> bool:
    """Does /chat quote something (True) or say the index has nothing (False)?"""
    reply = backend.chat({"messages": [{"author": "USER", "fragments": [{"text": question}]}]})
    return any("citation" in f for f in reply["messages"][0]["fragments"])


def abstention_lines(db: str, cases) -> List[str]:
    backend = chat_backend(db)
    if backend is None:
        return ["/chat: no local backend in this revision"]
    unanswerable = [c for c in cases if not c.answerable]
    answerable = [c for c in cases if c.answerable]
    declined = [c for c in unanswerable if not chat_answers(backend, c.query)]
    answered = [c for c in answerable if chat_answers(backend, c.query)]
    lines = [f"/chat: unanswerable questions declined {len(declined)} of {len(unanswerable)} "
             f"({len(declined) / max(1, len(unanswerable)):.0%}); answerable questions answered "
             f"{len(answered)} of {len(answerable)} ({len(answered) / max(1, len(answerable)):.0%})"]
    wrong = [c.query for c in unanswerable if c not in declined]
    missed = [c.query for c in answerable if c not in answered]
    if wrong:
        lines.append("  answered although unanswerable: " + "; ".join(wrong))
    if missed:
        lines.append("  declined although answerable: " + "; ".join(missed))
    return lines


def latency_block(label: str, systems: Dict[str, SearchFn], queries: Sequence[str],
                  fresh: Optional[Dict[str, SearchFn]] = None) -> List[str]:
    """Median and p95 CPU time per query after a warm-up pass; for the systems in
    `fresh` (a function on a newly opened index), also the first pass's, which no
    kept vocabulary or word counts help."""
    lines = [f"| {label} | median ms | p95 ms | first pass median ms | first pass p95 ms |",
             "|---|---|---|---|---|"]
    for name, fn in systems.items():
        cold = first_pass(fresh[name], queries) if fresh and name in fresh else None
        _, times = timed(fn, queries)
        first = (f"{ms(statistics.median(cold))} | {ms(pct(cold, 0.95))}" if cold
                 else "– | –")
        lines.append(f"| {name} | {ms(statistics.median(times))} | {ms(pct(times, 0.95))} | {first} |")
    return lines


def glean_latency_systems(db: str) -> Tuple[Dict[str, SearchFn], Dict[str, SearchFn]]:
    """glean_personal's in-process search on `db`, with and without --explain, and the same
    on a second, untouched handle for the first-pass figures."""
    import glean_personal
    systems: Dict[str, SearchFn] = {}
    fresh: Dict[str, SearchFn] = {}
    for label, explain in (("glean_personal", False), ("glean_personal --explain", True)):
        for table in (systems, fresh):
            ix = glean_personal.open_index(db, readonly=True)
            table[label] = (lambda ix, explain: lambda q: [
                _hit_path(h) for h in _hits(ix.search(q, limit=10, explain=explain))])(ix, explain)
    return systems, fresh


def latency_only(args: argparse.Namespace, label: str) -> int:
    """In-process and whole-command latency of glean_personal on the latency corpus's
    natural-language queries, without the quality run or the baselines."""
    db = args.latency_db
    with open(args.latency_queries, encoding="utf-8") as fh:
        nl = [line.strip() for line in fh if line.strip()]
    print(f"glean_personal {label}; db {db}; load average (1 min) {os.getloadavg()[0]:.1f}.\n")
    systems, fresh = glean_latency_systems(db)
    print(f"In-process latency (CPU time) on {os.path.basename(db)}, {len(nl)} natural-language "
          f"queries of 5-12 words ({os.path.relpath(args.latency_queries, REPO)}):\n")
    print("\n".join(latency_block("system", systems, nl, fresh)))
    if args.cli_queries:
        print("\n" + "\n".join(cli_lines(os.path.basename(db), db, nl[: args.cli_queries])))
    print(f"\nLoad average (1 min) at the end: {os.getloadavg()[0]:.1f}.")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Search quality and latency against baselines.")
    ap.add_argument("--golden", default=os.path.join(HERE, "golden", "python-doc.json"))
    ap.add_argument("--root", default="/usr/share/doc/python3.11/html")
    ap.add_argument("--exclude", action="append", default=None,
                    help="folder or file name glob to leave out (default: _sources and _static)")
    ap.add_argument("--include", action="append", default=[], help="index only files whose name matches")
    ap.add_argument("--db", help="an existing glean_personal db of ROOT (default: index it into bench/out)")
    ap.add_argument("--latency-corpus", help="also time generated queries on this folder (e.g. the 10k corpus)")
    ap.add_argument("--latency-db", help="an existing glean_personal db of the latency corpus")
    ap.add_argument("--latency-queries", default=os.path.join(HERE, "queries", "mixed-10k-nl.txt"),
                    help="natural-language queries (one a line) timed on the latency corpus")
    ap.add_argument("--cli-queries", type=int, default=30,
                    help="queries timed as whole `search --json` commands (0: none)")
    ap.add_argument("--latency-only", action="store_true",
                    help="only glean_personal's latency on --latency-db (in process and whole "
                         "command), no quality run and no baselines")
    ap.add_argument("--at", default="HEAD", help="git revision of glean_personal to measure, or 'worktree'")
    ap.add_argument("--read-more", action="store_true",
                    help="the baselines also read gzipped files, XML, roff man pages and PDF (bench/floor.py)")
    ap.add_argument("--read-sources", action="store_true",
                    help="the baselines also read .rst, .adoc and .org files as plain text (bench/floor.py)")
    args = ap.parse_args(argv)
    floor.READ_MORE = args.read_more
    floor.READ_SOURCES = args.read_sources
    for attr in ("golden", "root", "db", "latency_corpus", "latency_db"):
        if getattr(args, attr):
            setattr(args, attr, os.path.abspath(getattr(args, attr)))
    global SRC
    SRC, label = product_source(args.at)
    sys.path.insert(0, SRC)
    if args.latency_only:
        if not args.latency_db:
            ap.error("--latency-only needs --latency-db (an index of the latency corpus)")
        return latency_only(args, label)
    from glean_personal.evaluation import load_golden, score_cases, summarize
    tag = label.split()[-1] if label.startswith("commit") else "worktree"
    exclude = args.exclude if args.exclude is not None else ["_sources", "_static"]
    os.makedirs(OUT, exist_ok=True)
    name = os.path.splitext(os.path.basename(args.golden))[0]
    cases = load_golden(args.golden)
    queries = [c.query for c in cases]

    fdb = floor_db(args.root, exclude, name, args.include)
    conn = sqlite3.connect(fdb)
    docs = conn.execute("SELECT path, title, body FROM docs ORDER BY path").fetchall()
    start = time.perf_counter()
    bm25s = BM25sBaseline(docs)
    bm25s_index_s = time.perf_counter() - start
    systems: Dict[str, SearchFn] = {
        "fts5-and (sqlite-utils)": lambda q: fts_search(conn, q, "and"),
        "fts5-or": lambda q: fts_search(conn, q, "or"),
        "bm25s": bm25s.search,
    }
    load_before = os.getloadavg()[0]
    notes = [f"{len(docs)} documents under {args.root} (excluding {', '.join(exclude) or 'nothing'}"
             f"{'; only ' + ', '.join(args.include) if args.include else ''}); "
             f"{len(cases)} golden cases.", f"bm25s: {bm25s.description}; indexed in {bm25s_index_s:.1f} s."]
    pdb = product_db(args.root, exclude, name, args.db, tag, args.include)
    glean_fn, how, ix = glean_searcher(pdb) if pdb else (None, "unavailable", None)
    if glean_fn:
        systems["glean_personal"] = glean_fn
        notes.append(f"glean_personal {label} via its {how}, db {os.path.relpath(pdb, REPO)}.")
    else:
        notes.append("glean_personal: not measured (no working index/search yet).")

    summaries, per_case, latency = {}, {}, {}
    for sname, fn in systems.items():
        via_cli = sname == "glean_personal" and how != "Python API"
        ranked, times = timed(fn, queries, warm=not via_cli,
                              clock=time.perf_counter if via_cli else time.process_time)
        rows = score_cases(cases, {c.id: r for c, r in zip(cases, ranked)})
        summaries[sname] = summarize(rows)
        per_case[sname] = [dict(r, ranked=rk[:10]) for r, rk in zip(rows, ranked)]
        latency[sname] = (statistics.median(times), pct(times, 0.95))

    notes.append(f"Load average (1 min): {load_before:.1f} before the queries, {os.getloadavg()[0]:.1f} after.")
    print("\n".join(notes) + "\n")
    print(quality_tables(summaries))
    print(f"\nIn-process latency (CPU time) over the {len(queries)} golden queries "
          "(after one warm-up pass):\n")
    print("| system | median ms | p95 ms |\n|---|---|---|")
    for sname, (med, p95) in latency.items():
        via = " (one CLI process per query)" if sname == "glean_personal" and how != "Python API" else ""
        print(f"| {sname}{via} | {ms(med)} | {ms(p95)} |")

    if glean_fn and how == "Python API":
        print("\n" + "\n".join(abstention_lines(pdb, cases)))
        zero = [c.query for c, r in zip(cases, per_case["glean_personal"])
                if c.answerable and r["empty"]]
        print(f"answerable questions with no result: {len(zero)}" + (f" ({'; '.join(zero)})" if zero else ""))

    if glean_fn and args.cli_queries:
        print("\n" + "\n".join(cli_lines(name, pdb, queries[: args.cli_queries])))

    if args.latency_corpus:
        lname = os.path.basename(os.path.normpath(args.latency_corpus))
        ldb = floor_db(args.latency_corpus, (), lname)
        lqueries = generated_queries(ldb)
        lconn = sqlite3.connect(ldb)
        lbm25s = BM25sBaseline(lconn.execute("SELECT path, title, body FROM docs ORDER BY path").fetchall())
        lsystems: Dict[str, SearchFn] = {
            "fts5-and (sqlite-utils)": lambda q: fts_search(lconn, q, "and"),
            "fts5-or": lambda q: fts_search(lconn, q, "or"),
            "bm25s": lbm25s.search,
        }
        lpdb = product_db(args.latency_corpus, (), lname, args.latency_db, tag)
        lfresh: Dict[str, SearchFn] = {}
        if lpdb:
            lfn, lhow, lix = glean_searcher(lpdb)
            if lfn and lhow == "Python API":
                gsystems, lfresh = glean_latency_systems(lpdb)
                lsystems.update(gsystems)
        print(f"\nIn-process latency (CPU time) on {lname}, {len(lqueries)} generated queries of 1-3 words "
              f"(15% quoted bigrams):\n")
        print("\n".join(latency_block("system", lsystems, lqueries)))
        if args.latency_queries and os.path.exists(args.latency_queries):
            with open(args.latency_queries, encoding="utf-8") as fh:
                nl = [line.strip() for line in fh if line.strip()]
            print(f"\nIn-process latency (CPU time) on {lname}, {len(nl)} natural-language queries of "
                  f"5-12 words ({os.path.relpath(args.latency_queries, REPO)}):\n")
            print("\n".join(latency_block("system", lsystems, nl, lfresh)))
            if lpdb and args.cli_queries:
                print("\n" + "\n".join(cli_lines(lname, lpdb, nl[: args.cli_queries])))

    with open(os.path.join(OUT, f"search-{name}.json"), "w", encoding="utf-8") as fh:
        json.dump({"notes": notes, "summaries": summaries, "per_case": per_case}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
