#!/usr/bin/env python3
"""bm25s's top three for one trial collection's questions (bench/trials/), to compare.

    python bench/trials_bm25s.py NAME DIR

Needs `bm25s` and `PyStemmer` (bench only). Reads DIR as `bench/floor.py` does
(its HTML, Markdown, text and JSON files, one document a file) and ranks them
with `bench/baselines.py`'s `BM25sBaseline`. NAME picks
bench/trials/NAME-pages.txt (a question, a tab, the pages expected to answer
it); each question's top three is printed with `HIT` when one of them is an
expected page. Judge the misses by hand as the README does: another page may
answer too.
"""
from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from baselines import BM25sBaseline  # noqa: E402
from floor import iter_documents  # noqa: E402


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    name, root = sys.argv[1:3]
    docs = sorted(iter_documents(root))
    ranker = BM25sBaseline(docs)
    print(ranker.description, len(docs), "documents")
    hits = total = 0
    with open(os.path.join(HERE, "trials", f"{name}-pages.txt"), encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            question, _, pages = line.rstrip("\n").partition("\t")
            top = ranker.search(question, 3)
            hit = any(path in pages.split() for path in top)
            hits += hit
            total += 1
            print("###", question, "| expected:", pages, "| HIT" if hit else "| miss")
            for path in top:
                print("   ", path)
    print(f"{hits}/{total} with an expected page in the top three")
    return 0


if __name__ == "__main__":
    sys.exit(main())
