#!/usr/bin/env python3
"""The whole `search --json` command, two or more revisions taking turns.

    python bench/command_ab.py DB --at REV --at worktree [--queries FILE] [--n 30]
        [--rounds 3] [--python PY] [--no-site]

Each query of the first N of FILE (default: the 10k corpus's questions in
plain words) runs as `python -m glean_personal search Q --db DB --json` once
per revision per round, the revisions one after the other for the same
query, so a change in the machine's load falls on all of them alike. Beside
them, every round, `python -c pass` and `python -S -c pass` ten times each:
the interpreter's own start, with and without its site packages (a `.pth`
file there can cost more than the package). Times are the child's CPU time
(user + system, from `os.wait4`); wall time on a shared machine says more
about the other work than about the command. With `--no-site` the commands
run under `python -S` too, which shows what the package itself imports
(`typing`, `re`...) where no `.pth` file has imported it already.

Prints one Markdown table of medians and p95 per revision, the load average
before and after, and whether every revision printed the same JSON for every
query (it must: byte for byte).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
from typing import Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from product_source import product_source, run_child  # noqa: E402


def pct(values: List[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, int(round(p * (len(ordered) - 1)))))]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("db")
    ap.add_argument("--at", action="append", required=True,
                    help="a git revision, or 'worktree' (repeat: two or more)")
    ap.add_argument("--queries", default=os.path.join(HERE, "queries", "mixed-10k-nl.txt"))
    ap.add_argument("--n", type=int, default=30, help="queries per round (default 30)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--no-site", action="store_true", help="run the commands under python -S")
    args = ap.parse_args(argv)
    with open(args.queries, encoding="utf-8") as fh:
        queries = [line.strip() for line in fh if line.strip()][: args.n]
    sources = [product_source(rev) for rev in args.at]
    labels = [f"{rev} ({label})" for rev, (_, label) in zip(args.at, sources)]
    py = [args.python] + (["-S"] if args.no_site else [])
    cpu: Dict[str, List[float]] = {k: [] for k in labels}
    wall: Dict[str, List[float]] = {k: [] for k in labels}
    floors: Dict[str, List[float]] = {"python -c pass": [], "python -S -c pass": []}
    outputs: Dict[str, Dict[str, str]] = {k: {} for k in labels}
    failed = 0
    load0 = os.getloadavg()[0]
    for r in range(args.rounds):
        for _ in range(10):
            floors["python -c pass"].append(run_child([args.python, "-c", "pass"], sources[0][0]).cpu)
            floors["python -S -c pass"].append(
                run_child([args.python, "-S", "-c", "pass"], sources[0][0]).cpu)
        for i, q in enumerate(queries):
            turn = list(range(len(sources)))
            if (i + r) % 2:      # who goes first alternates too
                turn.reverse()
            for k in turn:
                res = run_child(py + ["-m", "glean_personal", "search", q, "--db", args.db,
                                      "--json"], sources[k][0])
                failed += res.code != 0
                cpu[labels[k]].append(res.cpu)
                wall[labels[k]].append(res.wall)
                outputs[labels[k]].setdefault(q, res.out)
    load1 = os.getloadavg()[0]
    ms = lambda v: f"{v * 1000:.1f}"  # noqa: E731
    print(f"`search --json`{' under python -S' if args.no_site else ''}, {len(queries)} queries x "
          f"{args.rounds} rounds, child CPU; load average {load0:.1f} before, {load1:.1f} after"
          f"{f'; {failed} runs failed' if failed else ''}\n")
    print("| command | CPU median ms | CPU p95 ms | wall median ms |")
    print("|---|---|---|---|")
    for k in labels:
        print(f"| {k} | {ms(statistics.median(cpu[k]))} | {ms(pct(cpu[k], 0.95))} | "
              f"{ms(statistics.median(wall[k]))} |")
    for name, vals in floors.items():
        print(f"| `{name}` | {ms(statistics.median(vals))} | {ms(pct(vals, 0.95))} | – |")
    same = all(outputs[k] == outputs[labels[0]] for k in labels[1:])
    print(f"\nJSON output identical across revisions for all {len(queries)} queries: {same}")
    return 0 if same and not failed else 1


if __name__ == "__main__":
    sys.exit(main())
