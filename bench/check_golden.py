#!/usr/bin/env python3
"""Sanity-check a golden set against the tree it describes.

    python bench/check_golden.py GOLDEN.json ROOT [--exclude GLOB]... [--include GLOB]... [-v]

For every case: each relevant path exists under ROOT; for a "phrase" case each
quoted span appears in every relevant page's extracted text; for an
"identifier" case the identifier's last dotted part appears in it. Then the
whole-document bm25 baseline (OR of the terms) shows where the relevant pages
rank, as a prompt to look again at a case where some other page looks better.
Exit 1 when a check fails.
"""
from __future__ import annotations

import argparse
import os
import re
import sqlite3
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
from baselines import fts_search  # noqa: E402
import floor  # noqa: E402
from floor import build, extract  # noqa: E402
from glean_personal.evaluation import load_golden  # noqa: E402


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("golden")
    ap.add_argument("root")
    ap.add_argument("--exclude", action="append", default=[])
    ap.add_argument("--include", action="append", default=[])
    ap.add_argument("--db", help="reuse this floor db of ROOT (default: build bench/out/check-golden.db afresh)")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--read-more", action="store_true",
                    help="also read gzipped files, XML, roff man pages and PDF (bench/floor.py)")
    ap.add_argument("--read-sources", action="store_true",
                    help="also read .rst, .adoc and .org files as plain text (bench/floor.py)")
    args = ap.parse_args(argv)
    floor.READ_MORE = args.read_more
    floor.READ_SOURCES = args.read_sources
    cases = load_golden(args.golden)
    failures = 0
    texts = {}
    for case in cases:
        for rel in case.relevant:
            path = os.path.join(args.root, rel)
            if not os.path.isfile(path):
                print(f"FAIL {case.id}: missing {rel}")
                failures += 1
                continue
            if rel not in texts:
                got = extract(path)
                texts[rel] = _norm((got[0] + " " + got[1]) if got else "")
            text = texts[rel]
            if case.category == "phrase":
                for span in re.findall(r'"([^"]+)"', case.query):
                    if _norm(span) not in text:
                        print(f"FAIL {case.id}: phrase {span!r} not in {rel}")
                        failures += 1
            if case.category == "identifier":
                ident = case.query.split()[0].split(".")[-1].lstrip("-")
                if ident.lower() not in text:
                    print(f"FAIL {case.id}: {ident!r} not in {rel}")
                    failures += 1
    db = args.db or os.path.join(HERE, "out", "check-golden.db")
    if not (args.db and os.path.exists(args.db)):
        os.makedirs(os.path.dirname(os.path.abspath(db)), exist_ok=True)
        build(args.root, db, tuple(args.exclude), tuple(args.include))
    conn = sqlite3.connect(db)
    for case in cases:
        ranked = fts_search(conn, case.query, "or", limit=50)
        ranks = [ranked.index(r) + 1 if r in ranked else None for r in case.relevant]
        if args.verbose or (case.relevant and not any(x and x <= 10 for x in ranks)):
            print(f"{case.category:12} {case.id:22} ranks={ranks} top3={ranked[:3]}")
    print(f"{len(cases)} cases, {failures} failed checks")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
