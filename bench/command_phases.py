#!/usr/bin/env python3
"""Where the whole `search --json` command's CPU goes, part by part, trees taking turns.

    python bench/command_phases.py DB SRC [SRC ...] [--queries FILE] [--n 100]

Each query of the first N of FILE (default: the 10k corpus's questions in
plain words) runs once per SRC (a source tree holding `glean_personal/`, or a
git revision as `bench/command_ab.py` takes it) in a fresh process that does
what `python -m glean_personal search Q --db DB --json` does, step by step,
noting its CPU time (`time.process_time`, the process's own since it began)
after each: the interpreter and site (`start`), importing the command line,
building the parser and parsing, importing the verbs, the facade and search,
opening the index, the search itself (the first on a fresh connection in a
fresh process: nothing is kept yet), the result's dict, the JSON written, and
closing the index. The SRCs take turns query by query (who goes first
alternates). Prints the median of each part per SRC, and the load average.
"""
from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from product_source import product_source  # noqa: E402

CHILD = r"""
import time
marks = [("start", time.process_time())]
import os, sys
src, db, query = sys.argv[1:4]
sys.path.insert(0, src)
def mark(name):
    marks.append((name, time.process_time()))
import glean_personal.surfaces.cli
mark("import cli")
from glean_personal.surfaces.args import build_parser
args = build_parser("search").parse_args(["search", query, "--db", db, "--json"])
mark("parse")
from glean_personal.surfaces import verbs
mark("import verbs")
import glean_personal.api as api
mark("import api")
import glean_personal.search
mark("import search")
ix = api.open_index(db, readonly=True)
mark("open")
result = ix.search(query)
mark("search")
data = result.to_dict()
mark("to_dict")
from glean_personal.surfaces.render import json as render_json
with open(os.devnull, "w") as out:
    print(render_json.dumps(data), file=out)
mark("JSON")
ix.close()
mark("close")
parts = {"start": marks[0][1] * 1000}
parts.update({name: (t - marks[i][1]) * 1000 for i, (name, t) in enumerate(marks[1:])})
parts["total"] = marks[-1][1] * 1000
import json   # only now: the command imports it with the facade
print(json.dumps(parts))
"""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("db")
    ap.add_argument("src", nargs="+", help="a source tree, a git revision, or 'worktree'")
    ap.add_argument("--queries", default=os.path.join(HERE, "queries", "mixed-10k-nl.txt"))
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--python", default=sys.executable)
    args = ap.parse_args(argv)
    with open(args.queries, encoding="utf-8") as fh:
        queries = [line.strip() for line in fh if line.strip()][: args.n]
    trees = []
    for src in args.src:
        if os.path.isdir(os.path.join(src, "glean_personal")):
            compileall.compile_dir(os.path.join(src, "glean_personal"), quiet=1)
            trees.append(src)
        else:
            trees.append(product_source(src)[0])
    parts = {s: {} for s in args.src}
    load0 = os.getloadavg()[0]
    for i, query in enumerate(queries):
        order = list(zip(args.src, trees))
        if i % 2:
            order.reverse()
        for name, tree in order:
            done = subprocess.run([args.python, "-c", CHILD, tree, args.db, query],
                                  capture_output=True, text=True, check=True)
            for part, ms in json.loads(done.stdout).items():
                parts[name].setdefault(part, []).append(ms)
    print(f"`search --json` part by part, {len(queries)} queries, CPU ms, median; load average "
          f"{load0:.1f} before, {os.getloadavg()[0]:.1f} after\n")
    print("| part | " + " | ".join(args.src) + " |")
    print("|---|" + "---|" * len(args.src))
    for part in parts[args.src[0]]:
        print(f"| {part} | " + " | ".join(f"{statistics.median(parts[s][part]):.2f}"
                                          for s in args.src) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
