#!/usr/bin/env python3
"""Run one trial collection's questions (bench/trials/): top three documents and
passages per question, and the chat-abstention set built from its question files.

    PYTHONPATH=$PWD python bench/trials_run.py NAME DB [--golden OUT.json]

NAME picks bench/trials/NAME-questions.txt and NAME-unanswerable.txt; DB is an
index of the collection (`python -m glean_personal index DIR --db DB`). Prints,
for each answerable question, the top three documents (path, heading path) and
the top three passages (path, heading path, lines, the passage's first 200
characters), for judging by hand. `--golden OUT.json` also writes the questions
in the golden-set format `bench/chat_abstain.py` reads (answerable ones as
`paraphrase`, the others as `unanswerable`, no relevance lists), so that

    PYTHONPATH=$PWD python bench/chat_abstain.py OUT.json=DB

says whether /chat answers the first and declines the second.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from glean_personal.api import open_index  # noqa: E402


def questions(name: str, kind: str) -> list:
    path = os.path.join(HERE, "trials", f"{name}-{kind}.txt")
    with open(path, encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("name")
    parser.add_argument("db")
    parser.add_argument("--golden", metavar="OUT.json")
    args = parser.parse_args()
    asked = questions(args.name, "questions")
    if args.golden:
        cases = [{"id": f"q{i}", "query": q, "relevant": [], "category": "paraphrase"}
                 for i, q in enumerate(asked, 1)]
        cases += [{"id": f"u{i}", "query": q, "relevant": [], "category": "unanswerable"}
                  for i, q in enumerate(questions(args.name, "unanswerable"), 1)]
        with open(args.golden, "w", encoding="utf-8") as f:
            json.dump({"description": f"trial questions {args.name}", "root": "", "cases": cases},
                      f, indent=1)
    with open_index(args.db, readonly=True) as ix:
        for q in asked:
            print(f"### {q}")
            for hit in ix.search(q, limit=3).results:
                print("  D", hit.document["path"], "|", " › ".join(hit.section or ()))
            for hit in ix.search(q, limit=3, passages=True).results:
                text = " / ".join((hit.passage_text or "").split("\n"))[:200]
                print("  P", hit.document["path"], "|", " › ".join(hit.section or ()), "| lines", hit.lines)
                print("     ", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
