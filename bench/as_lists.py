#!/usr/bin/env python3
"""A golden set's questions rewritten as lists of words, as agents often send them.

    PYTHONPATH=$PWD python bench/as_lists.py GOLDEN OUT [--category paraphrase]

Each question of the category loses the words the parser calls function words
(`glean_personal.query.is_stopword`, tested with the punctuation around a word
stripped); nothing else changes, and no question is edited by hand. OUT is a
golden set of the same shape, for `python -m glean_personal evaluate OUT --root ROOT`.
"""
from __future__ import annotations

import argparse
import json

from glean_personal.query import is_stopword

_PUNCT = "\"'’‘“”.,;:!?()[]"


def as_list(question: str) -> str:
    words = [w for w in question.split() if not is_stopword(w.strip(_PUNCT).lower())]
    return " ".join(words) or question


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("golden")
    ap.add_argument("out")
    ap.add_argument("--category", default="paraphrase")
    args = ap.parse_args(argv)
    with open(args.golden, encoding="utf-8") as f:
        data = json.load(f)
    data["cases"] = [dict(c, query=as_list(c["query"])) for c in data["cases"]
                     if c.get("category") == args.category]
    data["description"] = (f"{args.golden}'s {args.category} questions as lists of words "
                           "(bench/as_lists.py)")
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, ensure_ascii=False)
    print(f"{len(data['cases'])} questions -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
