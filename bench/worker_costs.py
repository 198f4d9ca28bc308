#!/usr/bin/env python3
"""Where a worker's time goes: each step of reading one file, timed in one process.

    python bench/worker_costs.py [CORPUS]     # default bench/corpora/mixed-1k

Runs the steps an indexing worker runs for every file (read and hash, extract,
normalise, cut passages, graph phrases, pack the result as the worker sends
it) over a corpus, single-threaded and with cold caches, and prints the
seconds each step took, plus extraction time by format. Measures the working
tree.
"""
from __future__ import annotations

import collections
import hashlib
import os
import pickle
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

from glean_personal import walk, workers  # noqa: E402
from glean_personal.config import DEFAULT_LIMITS, DEFAULT_PASSAGES  # noqa: E402
from glean_personal.formats import read_document  # noqa: E402
from glean_personal.passages import split_document  # noqa: E402
from glean_personal.phrases import document_phrases  # noqa: E402


def main() -> int:
    corpus = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "bench", "corpora", "mixed-1k")
    files = [c for c in walk.walk(corpus) if isinstance(c, walk.Candidate)]
    steps: collections.Counter = collections.Counter()
    by_format: collections.Counter = collections.Counter()
    chars = 0
    for c in files:
        t0 = time.perf_counter()
        data = workers.read_file(c.fs_path, DEFAULT_LIMITS.max_bytes)
        sha = hashlib.sha256(data).hexdigest()
        t1 = time.perf_counter()
        doc = read_document(data, c.path.rsplit("/", 1)[-1], DEFAULT_LIMITS)
        t2 = time.perf_counter()
        doc = workers.clean(doc)
        t3 = time.perf_counter()
        passages = split_document(doc, DEFAULT_PASSAGES)
        t4 = time.perf_counter()
        text = doc.text
        phrases = document_phrases(doc.title, text)
        t5 = time.perf_counter()
        pickle.dumps(workers.Extracted(
            sha, len(data), doc.title, doc.format, tuple(doc.warnings),
            tuple((p.heading, p.text, p.start, p.end) for p in passages), phrases, len(text)))
        t6 = time.perf_counter()
        for step, a, b in (("read + sha256", t0, t1), ("extract", t1, t2), ("normalise", t2, t3),
                           ("passages", t3, t4), ("graph phrases", t4, t5), ("pack", t5, t6)):
            steps[step] += b - a
        by_format[doc.format] += t2 - t1
        chars += len(text)
    print(f"{len(files)} files, {chars / 1e6:.1f} MB of text, {sum(steps.values()):.2f} s in all")
    for step, seconds in steps.most_common():
        print(f"  {step:<14} {seconds:6.2f} s")
    print("extract by format: " + ", ".join(f"{k} {v:.2f} s" for k, v in by_format.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
