#!/usr/bin/env python3
"""Does any MCP tool response exceed its budget? Many argument combinations, one server.

    python bench/mcp_budget.py --db INDEX.db [--queries bench/queries/mixed-10k-nl.txt]
                               [--n-queries 40] [--seed 1]

Starts `python -m glean_personal mcp --db INDEX.db` as a subprocess and speaks
JSON-RPC lines to it, as an agent's client does. For every tool it tries many
arguments (limits 1-50, offsets, filters, budgets from the 2,000 minimum to
100,000, every way local_fetch reads a part, on the longest documents it
finds) and measures each reply line in characters. The budget of a call is
its `max_chars`, or the default (32,000). Prints, per tool, the calls made,
the largest reply, and the largest reply as a share of its budget; exits 1 if
any reply was over. Build the 10k corpus with bench/make_corpus.py, index it
(and `link` it, for local_related) first.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from typing import Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_BUDGET = 32_000
BUDGETS = (None, 2_000, 5_000, 8_000, 16_000, 100_000)


class Client:
    def __init__(self, db: str) -> None:
        env = dict(os.environ, PYTHONPATH=ROOT)
        self.proc = subprocess.Popen([sys.executable, "-m", "glean_personal", "mcp", "--db", db],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        self.n = 0
        self.stats: Dict[str, dict] = {}
        self.over: List[str] = []
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "bench", "version": "0"}})
        self.proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')

    def request(self, method: str, params: dict) -> dict:
        self.n += 1
        line = json.dumps({"jsonrpc": "2.0", "id": self.n, "method": method, "params": params})
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()
        raw = self.proc.stdout.readline()
        reply = json.loads(raw)
        reply["_chars"] = len(raw.decode("utf-8").rstrip("\n"))
        return reply

    def call(self, tool: str, arguments: dict) -> Optional[dict]:
        started = time.perf_counter()
        reply = self.request("tools/call", {"name": tool, "arguments": arguments})
        took = time.perf_counter() - started
        budget = arguments.get("max_chars") or DEFAULT_BUDGET
        size = reply["_chars"]
        s = self.stats.setdefault(tool, {"calls": 0, "errors": 0, "max": 0, "share": 0.0,
                                         "slowest": 0.0})
        s["calls"] += 1
        s["max"] = max(s["max"], size)
        s["share"] = max(s["share"], size / budget)
        s["slowest"] = max(s["slowest"], took)
        if size > budget:
            self.over.append(f"{tool} {json.dumps(arguments)}: {size} > {budget}")
        result = reply.get("result") or {}
        if result.get("isError"):
            s["errors"] += 1
            return None
        return result.get("structuredContent")

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--queries", default=os.path.join(HERE, "queries", "mixed-10k-nl.txt"))
    ap.add_argument("--n-queries", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with open(args.queries, encoding="utf-8") as f:
        queries = [q.strip() for q in f if q.strip() and not q.startswith("#")]
    queries = rng.sample(queries, min(args.n_queries, len(queries)))
    queries += ["the", "a OR the OR of OR and", '"of the"', "zzqxv nothing here"]
    c = Client(args.db)
    started = time.time()
    sources = c.call("local_sources", {}) or {"sources": []}
    for budget in BUDGETS:
        c.call("local_sources", {} if budget is None else {"max_chars": budget})
    labels = [s["label"] for s in sources["sources"]]
    docs: Dict[int, dict] = {}
    for q in queries:
        for limit in (1, 8, 50):
            for budget in BUDGETS:
                a = {"query": q, "limit": limit}
                if budget:
                    a["max_chars"] = budget
                data = c.call("local_search", a)
                for r in (data or {}).get("results", []):
                    docs[r["id"]] = r
        c.call("local_search", {"query": q, "offset": 40, "limit": 50})
        c.call("local_search", {"query": q, "type": ["md", "html"], "limit": 50,
                                "max_chars": 2000})
        if labels:
            c.call("local_search", {"query": q, "source": labels[0], "path": "*",
                                    "after": "2000-01-01", "limit": 50})
    # the longest documents seen, read every way
    seen = sorted(docs.values(), key=lambda r: -r["passage_chars"])
    ids = list(dict.fromkeys(r["id"] for r in seen))[:12] + rng.sample(list(docs), min(12, len(docs)))
    for doc_id in ids:
        outline = c.call("local_fetch", {"id": doc_id, "outline": True}) or {}
        c.call("local_fetch", {"id": doc_id, "outline": True, "max_chars": 2000})
        whole = None
        for budget in BUDGETS:
            a = {"id": doc_id}
            if budget:
                a["max_chars"] = budget
            whole = c.call("local_fetch", a) or whole
        data = c.call("local_fetch", {"id": doc_id, "max_chars": 2000})
        for _ in range(5):   # follow `next` a few steps at the smallest budget
            if not data or not data.get("next"):
                break
            data = c.call("local_fetch", dict(data["next"], id=doc_id, max_chars=2000))
        for s in (outline.get("sections") or [])[:6]:
            for budget in (None, 2000):
                a = {"id": doc_id, "section": s["heading"]}
                if budget:
                    a["max_chars"] = budget
                c.call("local_fetch", a)
        total = (whole or {}).get("total_lines")
        if total:
            for lo, hi in ((1, 40), (1, total), (max(1, total // 2), total), (total, total + 50)):
                for budget in (None, 2000):
                    a = {"id": doc_id, "lines": f"{lo}-{hi}"}
                    if budget:
                        a["max_chars"] = budget
                    c.call("local_fetch", a)
        if (whole or {}).get("pages"):
            for p in (1, whole["pages"]):
                c.call("local_fetch", {"id": doc_id, "page": p})
                c.call("local_fetch", {"id": doc_id, "page": p, "max_chars": 2000})
        c.call("local_fetch", {"id": doc_id, "offset": 10**9})
    for r in seen[:30]:
        for context in (0, 2, 20):
            for budget in (None, 2000):
                a = {"around": r["passage_id"], "context": context}
                if budget:
                    a["max_chars"] = budget
                c.call("local_fetch", a)
    for doc_id in ids:
        for limit in (1, 10, 50):
            for budget in (None, 2000):
                a = {"id": doc_id, "limit": limit}
                if budget:
                    a["max_chars"] = budget
                c.call("local_related", a)
        c.call("local_related", {"id": doc_id, "limit": 50, "type": "md"})
    c.close()
    print(f"{args.db}: {sum(s['calls'] for s in c.stats.values())} calls in "
          f"{time.time() - started:.0f} s")
    print(f"{'tool':<14} {'calls':>6} {'errors':>6} {'largest':>9} {'of budget':>10} {'slowest':>8}")
    for tool, s in c.stats.items():
        print(f"{tool:<14} {s['calls']:>6} {s['errors']:>6} {s['max']:>9,} "
              f"{s['share']:>9.1%} {s['slowest']:>7.2f}s")
    for line in c.over:
        print("OVER BUDGET:", line)
    return 1 if c.over else 0


if __name__ == "__main__":
    sys.exit(main())
