#!/usr/bin/env python3
"""Is a code name's first hit the passage with its signature, not only its doc comment?

    PYTHONPATH=$PWD python bench/signature_shown.py DB [--names 300] [--seed 1]

DB is an index of a source tree. Takes the names bench/definition_rank.py takes
(sections of code files with a `_`, `.` or `::`, defined in one file), searches
each, and for those whose first hit is the definition counts how many show a
passage of only comment lines (a long `/** … */` or `///` doc comment cut from
the code below it) instead of the one with the signature.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import glean_personal  # noqa: E402
from definition_rank import code_names  # noqa: E402

COMMENT = re.compile(r"\s*(?://|/\*|\*|#|--)")


def only_comments(text: str) -> bool:
    lines = [line for line in text.splitlines() if line.strip()]
    return bool(lines) and all(COMMENT.match(line) for line in lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("db")
    ap.add_argument("--names", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    names = code_names(args.db)
    random.Random(args.seed).shuffle(names)
    names = names[:args.names]
    first = comment_only = 0
    with glean_personal.open_index(args.db, readonly=True) as ix:
        for name in names:
            hits = ix.search(name, limit=1).results
            if hits and hits[0].section and hits[0].section[-1].lower() == name.lower():
                first += 1
                comment_only += only_comments(hits[0].passage_text or "")
    print(f"{len(names)} names: definition first {first}, shown by its doc comment only {comment_only}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
