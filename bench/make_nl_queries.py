#!/usr/bin/env python3
"""Natural-language questions of 5-12 words for the latency benchmark.

    python bench/make_nl_queries.py CORPUS_DIR OUT.txt [--n 200] [--seed 11]

Each question takes two to five content words from one random document of
the corpus (read with glean_personal's own extractor) and wraps them in an
everyday question frame ("how do I ... for ...", "where is the note about
..."), so the query has the request words, function words and several content
words that a person types. The output is one query a line; the committed set
for the 10k corpus is bench/queries/mixed-10k-nl.txt (same N, seed and corpus
give the same file).
"""
from __future__ import annotations

import argparse
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

FRAMES = [
    "how do I {a} the {b}",
    "how do I {a} the {b} for {c}",
    "where is the note about {a} and {b}",
    "what did we decide about the {a} {b} last time",
    "show me everything about {a} {b} and {c}",
    "find the document that explains {a} with {b}",
    "why does the {a} keep {b} when {c} changes",
    "what is the best way to {a} {b} {c} {d}",
    "who wrote about {a} and {b} in the {c} report",
    "is there a summary of {a} {b} {c} and {d}",
    "how can I make {a} work with {b} and {c} {d} {e}",
    "list the steps to set up {a} for {b}",
]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus")
    ap.add_argument("out")
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args(argv)
    from glean_personal.analysis import is_stopword
    from glean_personal.formats import extract
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(args.corpus) for f in fs)
    rng = random.Random(args.seed)
    out = []
    while len(out) < args.n:
        try:
            text = extract(rng.choice(files)).text
        except Exception:   # a file the extractor skips: take another
            continue
        words = [w for w in re.findall(r"[^\W\d_]{4,}", text.lower()) if not is_stopword(w)]
        if len(set(words)) < 8:
            continue
        frame = rng.choice(FRAMES)
        slots = re.findall(r"\{(\w)\}", frame)
        picked = rng.sample(sorted(set(words)), len(slots))
        query = frame.format(**dict(zip(slots, picked)))
        if 5 <= len(query.split()) <= 12:
            out.append(query)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as fh:
        fh.write("\n".join(out) + "\n")
    print(f"{len(out)} queries to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
