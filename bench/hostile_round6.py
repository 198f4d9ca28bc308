"""Round six of hostile inputs: what changed since round five, built as real files and queries.

Usage (from the repository, so the worktree's code runs):

    PYTHONPATH=$PWD python bench/hostile_round6.py [--parts readers,folder,queries,promises]
        [--sizes 250000,500000,1000000] [--files 50000] [--work DIR]
        [--client-python /path/to/python-with-mcp]

1. readers: pages that grow, read by `read_document` in a forked child under a
   CPU limit (a quadratic case cannot hang the run): tables of thousands of rows
   or columns, rowspan/colspan floods, nested and unclosed tables, header-only
   and many small (name-value) tables; a manual page in a `<pre>` with
   100,000 lines ending in a hyphen, lines of only hyphens, one long word
   before a lone ` -`; makeinfo (texi2any) pages with many left-out labels,
   footnote headings and nested navigation; RDoc (Darkfish) pages with many
   "click to toggle" labels, nested method headings, source blocks. CPU
   seconds per size; more than 3x per doubling (from 0.3 s), more than 5 s
   for 1 MB, or any exception but SkipFile, is a finding.
2. folder: `--files` files whose names collide as page/source/data triples
   (`p1.html`, `p1.txt`, `p1.json.gz`), case variants (`A.HTML` + `a.txt`,
   `B.html` + `B.TXT`), an empty page beside its source, a symbolic link as a
   page, `searchindex.js` as a folder, a dangling link and a link loop beside
   `_static/`, a `_static` that is a file, gzip bombs named `.json.gz` beside
   a page and alone, a text bomb; indexed once by the CLI (CPU and peak memory
   printed), re-indexed, and every file must be indexed or skipped with a
   reason, `verify` sound, `index FILE` (walk_one) agreeing with the walk.
3. queries: random Unicode, lone surrogates, operators (`-`, `NOT`, `OR`,
   quotes, `field:value` with odd values, `*` alone), 10 KB queries, through
   the Python API (both stores), the CLI (`search`, `--json`, `--explain`,
   `--passages`), the REPL (`/search`, `/chat`, `/autocomplete`,
   `/getdocuments`, piped stdin) and, with --client-python, MCP driven by the
   official client. A traceback, an internal error, a hang or more than 5 CPU
   seconds for one query is a finding.
4. promises (docs/security.md, docs/database.md): the index 0600 in a 0700
   folder, one file after every command exits (no `-wal`, `-journal`), and no
   network: index, search, the REPL and the MCP server run with `socket`
   replaced in the child by one that raises (and under `strace -f -e
   trace=network` when strace is installed: only `socketpair` may appear).

Exit status 0 when nothing broke. Stdlib only.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import resource
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import traceback
from typing import Callable, Dict, List, Tuple

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROBLEMS: List[str] = []


def problem(text: str) -> None:
    PROBLEMS.append(text)
    print("PROBLEM " + text, flush=True)


def env_for(store: str = "") -> Dict[str, str]:
    env = dict(os.environ, PYTHONPATH=HERE, PYTHONIOENCODING="utf-8")
    env.pop("GLEAN_PERSONAL_DEBUG", None)
    if store:
        env["GLEAN_PERSONAL_STORE"] = store
    return env


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


# ------------------------------------------------------------------ 1. readers

def _page(body: str, head: str = "") -> str:
    return f"<html><head><title>t</title>{head}</head><body><h1>T</h1>{body}<p>end words</p></body></html>"


MAKEINFO = '<meta name="Generator" content="makeinfo">'
RDOC = '<link rel="stylesheet" href="./css/rdoc.css">'


def _man(lines: Callable[[int], str], n: int) -> str:
    return ("<html><body><pre>NAME\n       x - y\n\nDESCRIPTION\n"
            + "\n".join(lines(i) for i in range(n)) + "\n       end words\n</pre></body></html>")


def reader_cases() -> Dict[str, Callable[[int], str]]:
    """Each builds a page of about `size` bytes."""
    def rep(unit: str, size: int) -> int:
        return max(1, size // len(unit))
    c: Dict[str, Callable[[int], str]] = {
        "table rows": lambda s: _page("<table><tr><th>a</th><th>b</th></tr>"
                                      + "<tr><td>x</td><td>y</td></tr>" * rep("<tr><td>x</td><td>y</td></tr>", s) + "</table>"),
        "table columns": lambda s: _page("<table><tr>" + "<th>h</th>" * (s // 20) + "</tr><tr>"
                                         + "<td>v</td>" * (s // 20) + "</tr></table>"),
        "table long names": lambda s: _page("<table><tr>" + ("<th>" + "n" * 79 + "</th>") * (s // 100)
                                            + "</tr><tr>" + "<td>v</td>" * (s // 100) + "</tr></table>"),
        "table span flood": lambda s: _page("<table>" + "<tr><td rowspan=99999 colspan=99999>x</td></tr>"
                                            * rep("<tr><td rowspan=99999 colspan=99999>x</td></tr>", s) + "</table>"),
        "table nested": lambda s: _page("<table><tr><td>" * (s // 30) + "x" + "</td></tr></table>" * (s // 30)),
        "table nested open": lambda s: _page("<table><tr><th>a</th><th>b</th></tr><tr><td>" * (s // 45)),
        "table header only": lambda s: _page("<table><tr><th>a</th><th>b</th></tr></table>" * (s // 45)),
        "table small many": lambda s: _page("<table><tr><th>a</th><th>b</th></tr><tr><td>x</td><td>y</td></tr></table>" * (s // 75)),
        "table cells unclosed": lambda s: _page("<table><tr><th>a<th>b<tr><td>x<td>y" * (s // 35)),
        "table menu cells": lambda s: _page("<table>" + ("<tr><td>" + "<a href=x>l</a>" * 30 + "</td><td>"
                                                          + "word " * 40 + "</td></tr>") * (s // 700) + "</table>"),
        "pre man hyphen lines": lambda s: _man(lambda i: f"       word{i} delet-", s // 22),
        "pre man joins": lambda s: _man(lambda i: "       ing word delet-", s // 23),
        "pre man only hyphens": lambda s: _man(lambda i: "       " + "-" * 60, s // 68),
        "pre man long word": lambda s: _man(lambda i: "       " + "a" * s + " -", 1),
        "pre man splits distinct": lambda s: _man(lambda i: f"       a{i}-\n       b{i}", s // 28),
        "pre man built-in forms": lambda s: _man(lambda i: f"       built-in{i} x built-\n       in{i}", s // 40),
        "makeinfo categories": lambda s: _page("<p>" + 'word <span class="category">:</span> ' * (s // 37) + "</p>", MAKEINFO),
        "makeinfo header cells": lambda s: _page("<table><tr>" + "word <th>:</th> " * (s // 16) + "</tr></table>", MAKEINFO),
        "makeinfo footnotes": lambda s: _page('<h2 class="chapter">c</h2>'
                                              + '<h4 class="footnotes-heading">F</h4><p>x</p>' * (s // 44), MAKEINFO),
        "makeinfo nested spans": lambda s: _page("<p>" + '<span class="category">' * (s // 30) + "x"
                                                 + "</span>" * (s // 30) + "</p>", MAKEINFO),
        "makeinfo nav nest": lambda s: _page('<div class="nav-panel">' * (s // 29) + "x" + "</div>" * (s // 29), MAKEINFO),
        "makeinfo index tables": lambda s: _page(('<table class="index-cp-entries-printindex"><tr><td>'
                                                  '<a href="#x">entry</a></td></tr></table>') * (s // 90), MAKEINFO),
        "rdoc advice": lambda s: _page("<p>" + 'word <span class="method-click-advice">click</span> ' * (s // 52) + "</p>", RDOC),
        "rdoc headings nest": lambda s: _page('<div class="method-heading">' * (s // 34) + "x" + "</div>" * (s // 34), RDOC),
        "rdoc source blocks": lambda s: _page(('<div class="method-heading">m</div><div class="method-source-code">'
                                               "<pre>x</pre></div>") * (s // 90), RDOC),
    }
    return c


def _read_in_child(name: str, data: bytes, cpu_limit: int) -> Tuple[str, float]:
    """(outcome, CPU seconds) of reading `data` as `name` in a forked child."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:   # the child: read, report, exit
        os.close(r)
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 1))
        from glean_personal.errors import SkipFile
        from glean_personal.formats import read_document
        t = time.process_time()
        try:
            doc = read_document(data, name)
            out = "ok" if "words" in doc.text[-40:] else "ok, the last words missing"
        except SkipFile as exc:
            out = f"skip: {exc}"[:60]
        except Exception as exc:   # a bug: only SkipFile may leave read_document
            out = f"EXC {type(exc).__name__}: {exc}"[:200]
        os.write(w, json.dumps([out, time.process_time() - t]).encode())
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as fh:
        raw = fh.read()
    _, status = os.waitpid(pid, 0)
    if not raw:
        return f"killed (status {status}: over {cpu_limit} CPU s?)", float(cpu_limit)
    out, cpu = json.loads(raw)
    return out, cpu


def run_readers(sizes: List[int]) -> None:
    print("== readers ==", flush=True)
    for key, build in reader_cases().items():
        cpus, shown, outcome = [], [], ""
        for size in sizes:
            data = build(size).encode()
            outcome, cpu = _read_in_child("x.html", data, 30)
            cpus.append(cpu)
            shown.append(f"{len(data) // 1000}K:{cpu:.2f}s")
            if outcome.startswith(("EXC", "killed")):
                problem(f"reader {key} at {len(data):,} bytes: {outcome}")
                break
        # html.parser alone costs 1-3 CPU s per MB on a busy 2-core machine, and small
        # times are noisy: a finding is 3x per doubling from 0.3 s, or 5 s for 1 MB.
        ratio = max((b / a for a, b in zip(cpus, cpus[1:]) if a > 0.3), default=0.0)
        flag = ratio > 3.0 or (cpus[-1] > 5 and len(data) <= 1_100_000)
        print(f"  {key:26} {outcome[:28]:28} " + " ".join(shown) + (" <<" if flag else ""), flush=True)
        if flag:
            problem(f"reader {key}: {' '.join(shown)} (x{ratio:.1f} per doubling)")


# ------------------------------------------------------------------- 2. folder

def build_folder(root: str, files: int) -> Dict[str, str]:
    """The hostile folder; returns {path: what must happen} for the named oddities."""
    os.makedirs(root)
    triples = max(1, files // 3)
    for i in range(triples):
        with open(f"{root}/p{i}.html", "w") as fh:
            fh.write(f"<html><title>page {i}</title><body><p>kiwi{i} page words</p></body></html>")
        with open(f"{root}/p{i}.txt", "w") as fh:
            fh.write(f"kiwi{i} source words")
        with open(f"{root}/p{i}.json.gz", "wb") as fh:
            fh.write(gzip.compress(b'{"t": "kiwi data"}'))
    def put(rel: str, data, mode: str = "w") -> None:
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, mode) as fh:
            fh.write(data)
    expect = {}
    put("A.HTML", "<p>upper page alpha</p>"); put("a.txt", "lower source alpha")   # other stems: both read
    expect["A.HTML"] = expect["a.txt"] = "indexed"
    put("B.html", "<p>beta page</p>"); put("B.TXT", "beta source")   # same stem, extension in capitals
    expect["B.TXT"] = "skipped"
    put("empty.html", ""); put("empty.txt", "the only copy of the empty page's words")
    expect["empty.txt"] = "indexed"
    os.symlink("p0.html", f"{root}/linked.html"); put("linked.txt", "source behind a linked page")
    expect["linked.txt"] = "indexed"
    bomb = gzip.compress(b"[" + b'"a",' * 50_000_000 + b'"a"]', 9)
    put("bomb.json.gz", bomb, "wb"); put("bomb.html", "<p>bomb page</p>")
    expect["bomb.json.gz"] = "skipped"
    put("lonebomb.json.gz", bomb, "wb")
    expect["lonebomb.json.gz"] = "skipped"
    put("zeros.txt.gz", gzip.compress(b"\0" * 200_000_000, 9), "wb")
    put("textbomb.md.gz", gzip.compress(b"word " * 40_000_000, 9), "wb")
    # Sphinx marks that are not what they seem
    os.makedirs(f"{root}/s1/searchindex.js"); put("s1/_static/n.md", "notes under a folder-mark")
    expect["s1/_static/n.md"] = "indexed"
    os.makedirs(f"{root}/s2"); os.symlink("missing", f"{root}/s2/searchindex.js")
    put("s2/_static/n.md", "theme beside a dangling mark")
    os.makedirs(f"{root}/s3"); os.symlink("searchindex.js", f"{root}/s3/searchindex.js")   # a loop
    put("s3/_sources/n.txt", "source copy beside a looping mark")
    put("s4/searchindex.js", "Search.setIndex({})"); put("s4/_static", "a file, not a folder")
    put("s4/page.html", "<p>sphinx page</p>")
    return expect


def run_folder(work: str, files: int) -> None:
    print("== folder ==", flush=True)
    root = os.path.join(work, "folder")
    t = time.time()
    expect = build_folder(root, files)
    total = sum(len(fs) + sum(1 for d in ds if os.path.islink(os.path.join(p, d)))
                for p, ds, fs in os.walk(root))
    print(f"  built {total:,} entries in {time.time() - t:.0f} s", flush=True)
    for store in ("fts5", "plain"):
        db = os.path.join(work, f"folder-{store}", "ix.sqlite")
        before = children_cpu()
        t = time.time()
        proc = subprocess.run([sys.executable, "-m", "glean_personal", "index", root, "--db", db, "--json"],
                              capture_output=True, env=env_for(store), timeout=3600)
        cpu = children_cpu() - before
        if proc.returncode != 0 or b"Traceback" in proc.stderr:
            problem(f"folder index ({store}): exit {proc.returncode} {proc.stderr[-300:]!r}")
            continue
        report = json.loads(proc.stdout)
        skipped = {s["path"]: s["reason"] for s in report["skipped"]}
        print(f"  {store}: index {time.time() - t:.1f} s wall, {cpu:.1f} CPU s (indexer and workers), "
              f"added {report['added']:,}, skipped {len(skipped):,}", flush=True)
        indexed = set(json.loads(subprocess.run(
            [sys.executable, "-c", "import json, sys; from glean_personal.api import open_index\n"
             "ix = open_index(sys.argv[1])\n"
             "print(json.dumps([p for s in ix.store.sources() for p in ix.store.document_states(s['id'])]))",
             db], capture_output=True, text=True, env=env_for(store), check=True).stdout))
        for path, want in expect.items():
            got = "indexed" if path in indexed else "skipped" if path in skipped else "lost"
            if got != want:
                problem(f"folder ({store}): {path} {got}, expected {want} ({skipped.get(path, '')})")
        lost = []
        for dirpath, dirs, names in os.walk(root):
            rel = os.path.relpath(dirpath, root)
            rel = "" if rel == "." else rel + "/"
            if any(rel.startswith(p + "/") or rel[:-1] == p for p in skipped):
                continue   # under a skipped folder
            for name in names + [d for d in dirs if os.path.islink(os.path.join(dirpath, d))]:
                path = rel + name
                if path not in indexed and path not in skipped:
                    lost.append(path)
        if lost:
            problem(f"folder ({store}): {len(lost)} files neither indexed nor skipped: {lost[:5]}")
        for path in sorted(expect) + ["p1.txt", "p1.json.gz", "s2/_static/n.md", "s3/_sources/n.txt"]:
            one = subprocess.run([sys.executable, "-c", "import sys, json; from glean_personal.walk import walk_one;"
                                  "e = walk_one(sys.argv[1], sys.argv[2]); print(type(e).__name__)", root, path],
                                 capture_output=True, text=True, env=env_for(store))
            alone = one.stdout.strip()
            walked = "Candidate" if path in indexed else "Skipped"
            if path.endswith((".gz",)) and path in skipped and "inflates" in skipped[path]:
                walked = "Candidate"   # the walk passed it; the reader refused it
            if "binary content" in skipped.get(path, "") or "larger than" in skipped.get(path, ""):
                walked = "Candidate" if "binary" in skipped[path] else walked
            if alone != walked:
                problem(f"folder ({store}): walk_one says {alone} for {path}, the walk {walked}")
        again = subprocess.run([sys.executable, "-m", "glean_personal", "index", root, "--db", db, "--json"],
                               capture_output=True, env=env_for(store), timeout=3600)
        rerun = json.loads(again.stdout)
        if rerun["added"] or rerun["updated"] or rerun["removed"]:
            problem(f"folder ({store}): a second index changed {rerun['added']}/{rerun['updated']}/{rerun['removed']}")
        ver = subprocess.run([sys.executable, "-m", "glean_personal", "verify", "--db", db],
                             capture_output=True, text=True, env=env_for(store))
        if ver.returncode != 0:
            problem(f"folder ({store}): verify exit {ver.returncode}: {ver.stdout[-200:]}")
        _one_file(os.path.dirname(db), f"folder ({store})")


# ------------------------------------------------------------------ 3. queries

OPS = ["-", "NOT", "OR", '"', "*", "type:", "source:", "path:", "path:*", "path:[", "path:**/", "type:\x00",
       'source:"', '-"', '""', "NOT NOT", "OR OR", "(", ")", "NEAR(", "^", "AND", "*-*", "path:" + "*" * 50,
       "path:" + "[!" * 30, "title:", "-*", "--", "-X", "\u2014", "\u2010", "after:", "before:2020-13-45"]
WORDS = ["kiwi", "page", "words", "alpha", "source", "the", "a", "os.path.join", "C++", "@{upstream}",
         "HEAD~3", "don't", "Tom's", "volunteer", "bike", "budget", "parseArgs", "add_patterns", "x" * 300, "sched*"]
FIXED = ["*", "-", "--", "NOT", "OR", '"', '""', "-*", "type:", "path:", "source:", "type:\u202e", "path:[",
         "path:" + "*" * 3000, "kiwi OR", "OR kiwi", "NOT kiwi", "-kiwi", '"kiwi', 'kiwi"page', "kiwi* page*",
         "x" * 10_000, "a " * 5000, "\u00e9" * 5000, "\u0301" * 3000, "\U0001d518\U0001d52b\U0001d526" * 1000,
         "\ufeffkiwi", "\u200bkiwi", "\u0130stanbul \u00df \ufb01", "\u0643\u064a\u0648\u064a",
         "\u30ad\u30a6\u30a4", "os.path.join", "@{upstream}", "C++", "HEAD~3", "a.a." * 2000, "-X importtime",
         "type:md type:html type:nope", "source:nope kiwi", "path:**/x kiwi", "\\", "'", "`", "$(id)", "%s%n",
         "\x1b[2J kiwi", "NEAR(kiwi page)", "kiwi^2", "title:kiwi", "(kiwi)", "{kiwi}", "[kiwi]", "<script>",
         "kiwi\tpage", 'kiwi -"page words" OR -', " ".join(f"w{i}" for i in range(3000)),
         " OR ".join(["kiwi"] * 2000), " NOT ".join(["x"] * 2000), '"' + " ".join(["kiwi"] * 3000) + '"',
         "-" * 10000, "*" * 10000, "type:" * 2000]


def random_query(rng: random.Random) -> str:
    def uni(k: int) -> str:
        out = []
        for _ in range(k):
            r = rng.random()
            if r < 0.3:
                out.append(chr(rng.randrange(0x20, 0x7f)))
            elif r < 0.5:
                out.append(chr(rng.randrange(0x80, 0x800)))
            elif r < 0.7:
                out.append(chr(rng.randrange(0x800, 0xd800)))
            elif r < 0.8:
                out.append(chr(rng.randrange(0xe000, 0x110000)))
            elif r < 0.85:
                out.append(chr(rng.randrange(0xd800, 0xe000)))   # a lone surrogate
            elif r < 0.9:
                out.append(chr(rng.randrange(0, 0x20)))
            else:
                out.append(rng.choice(["\u202e", "\u200b", "\ufeff", "\u0301", "\u0130", "\u00df", "\ufb01"]))
        return "".join(out)
    r = rng.random()
    if r < 0.2:
        return uni(rng.randrange(1, 60))
    if r < 0.25:
        return uni(10_000)
    if r < 0.3:
        return rng.choice(OPS) * rng.randrange(1, 4000)
    if r < 0.35:
        return " ".join(rng.choice(WORDS + OPS) for _ in range(2500))
    if r < 0.4:
        return rng.choice(["*", "-", "NOT", "OR", '"', "-*", "type:", "path:", '"*"', " ", ""])
    parts = []
    for _ in range(rng.randrange(1, 12)):
        p = rng.choice(WORDS + OPS)
        if rng.random() < 0.3:
            p += rng.choice(WORDS + [uni(3)])
        if rng.random() < 0.2:
            p = '"' + p
        parts.append(p)
    return " ".join(parts)


def query_corpus(work: str) -> str:
    root = os.path.join(work, "qcorpus")
    os.makedirs(root)
    for name in os.listdir(os.path.join(HERE, "examples")):
        shutil.copy(os.path.join(HERE, "examples", name), root)
    for i in range(2000):
        with open(f"{root}/p{i}.html", "w") as fh:
            fh.write(f"<html><title>page {i}</title><body><h2>kiwi {i}</h2><p>kiwi{i} page words "
                     f"alpha source</p></body></html>")
    with open(f"{root}/man.html", "w") as fh:
        fh.write(_man(lambda i: f"       word{i} delet-\n       ing", 2000))
    return root


def run_queries(work: str, count: int, client_python: str) -> None:
    print("== queries ==", flush=True)
    root = query_corpus(work)
    rng = random.Random(6)
    for store in ("fts5", "plain"):
        db = os.path.join(work, f"q-{store}", "ix.sqlite")
        subprocess.run([sys.executable, "-m", "glean_personal", "index", root, "--db", db],
                       capture_output=True, env=env_for(store), check=True)
        # the Python API, in a child with the store chosen
        code = (
            "import json, random, sys, time, traceback\n"
            "sys.path.insert(0, sys.argv[3])\n"
            "from hostile_round6 import random_query, FIXED\n"
            "from glean_personal.api import open_index\n"
            "rng = random.Random(int(sys.argv[2])); bad = []; worst = 0.0\n"
            "ix = open_index(sys.argv[1])\n"
            "queries = FIXED + [random_query(rng) for _ in range(int(sys.argv[4]))]\n"
            "for q in queries:\n"
            "    kw = {}\n"
            "    if rng.random() < 0.3: kw['explain'] = True\n"
            "    if rng.random() < 0.2: kw['passages'] = True\n"
            "    if rng.random() < 0.1: kw['path'] = rng.choice(['[', '*' * 100, '**/**/**', '\\x00', 'a' * 5000])\n"
            "    if rng.random() < 0.1: kw['type'] = rng.choice(['\\x00', 'md', 'nonsense', '', '*', ['md'] * 5000])\n"
            "    if rng.random() < 0.05: kw['offset'] = rng.choice([10 ** 9, 2 ** 63])\n"
            "    t = time.process_time()\n"
            "    try: ix.search(q, **kw)\n"
            "    except Exception: bad.append(repr(q[:80]) + ' ' + traceback.format_exc().splitlines()[-1])\n"
            "    c = time.process_time() - t; worst = max(worst, c)\n"
            "    if c > 5: bad.append('slow %.1f s: %r' % (c, q[:80]))\n"
            "print(json.dumps({'n': len(queries), 'bad': bad, 'worst': worst}))\n")
        proc = subprocess.run([sys.executable, "-c", code, db, "6", os.path.dirname(os.path.abspath(__file__)),
                               str(count)], capture_output=True, text=True, env=env_for(store), timeout=3600)
        try:
            out = json.loads(proc.stdout)
        except ValueError:
            problem(f"api queries ({store}): {proc.stderr[-400:]}")
            continue
        print(f"  api ({store}): {out['n']} queries, worst {out['worst']:.2f} CPU s", flush=True)
        for b in out["bad"]:
            problem(f"api query ({store}): {b}")
        # the CLI
        runs = 0
        worst = (0.0, "")
        for i, q in enumerate(FIXED):
            for flags in ([], ["--json"], ["--explain"], ["--passages", "--json"]):
                before = children_cpu()
                try:
                    p = subprocess.run([sys.executable, "-m", "glean_personal", "search", "--db", db] + flags
                                       + ["--", q], capture_output=True, env=env_for(store), timeout=60)
                except subprocess.TimeoutExpired:
                    problem(f"cli ({store}) {flags} query #{i}: no answer in 60 s")
                    continue
                cpu = children_cpu() - before
                runs += 1
                worst = max(worst, (cpu, f"{flags} #{i}"))
                text = (p.stdout + p.stderr).decode("utf-8", "replace")
                if "Traceback" in text or "internal error" in text or p.returncode not in (0, 1, 2) or cpu > 5:
                    problem(f"cli ({store}) {flags} query #{i} {q[:30]!r}: exit {p.returncode}, "
                            f"{cpu:.1f} CPU s, {text[-200:]!r}")
        print(f"  cli ({store}): {runs} runs, worst {worst[0]:.2f} CPU s ({worst[1]})", flush=True)
        # the REPL, piped: one session per endpoint so a slow line shows which
        for cmd in ("", "/search ", "/chat ", "/autocomplete ", "/getdocuments "):
            lines = [cmd + q for q in FIXED] + ["/more", "/json on", cmd + "kiwi page", "/", "/chat", "/\x00"]
            before = children_cpu()
            try:
                p = subprocess.run([sys.executable, "-m", "glean_personal", "repl", "--db", db],
                                   input="\n".join(lines).encode("utf-8", "surrogatepass") + b"\n",
                                   capture_output=True, env=env_for(store), timeout=600)
            except subprocess.TimeoutExpired:
                problem(f"repl ({store}) {cmd or 'bare'}: no end in 600 s")
                continue
            cpu = children_cpu() - before
            text = (p.stdout + p.stderr).decode("utf-8", "replace")
            print(f"  repl ({store}) {cmd.strip() or 'bare lines'}: {len(lines)} lines, {cpu:.1f} CPU s", flush=True)
            # 68 lines cost 0.4-1.6 CPU s in all; a line of 3,000 document names cost 12 s
            if "Traceback" in text or "internal error" in text or p.returncode != 0 or cpu > 10:
                problem(f"repl ({store}) {cmd or 'bare'}: exit {p.returncode}, {cpu:.1f} CPU s, {text[-300:]!r}")
        _one_file(os.path.dirname(db), f"queries ({store})")
        if client_python:
            mcp_env = env_for(store)
            mcp_env["GLEAN_SERVER_PYTHON"] = sys.executable
            before = children_cpu()
            p = subprocess.run([client_python, os.path.abspath(__file__), "--mcp-client", db],
                               capture_output=True, text=True, env=mcp_env, timeout=3600)
            for line in p.stdout.splitlines():
                if line.startswith("PROBLEM"):
                    problem(f"mcp ({store}): {line[8:]}")
                elif line.startswith("INFO"):
                    print(f"  mcp ({store}): {line[5:]}", flush=True)
            if p.returncode != 0:
                problem(f"mcp ({store}): client exit {p.returncode} {p.stderr[-300:]}")


def mcp_client(db: str) -> int:
    """Runs under a Python with the `mcp` package: hostile queries through the official client."""
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    async def main() -> None:
        params = StdioServerParameters(command=os.environ.get("GLEAN_SERVER_PYTHON", "python3"),
                                       args=["-m", "glean_personal", "mcp", "--db", db], env=dict(os.environ))
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                names = [t.name for t in (await session.list_tools()).tools]
                rng = random.Random(7)
                calls, errors, slowest = 0, 0, (0.0, "")
                kinds: Dict[str, int] = {}
                # JSON cannot carry a lone surrogate: the client refuses to send one
                queries = [q.encode("utf-8", "replace").decode("utf-8")
                           for q in FIXED + [random_query(rng) for _ in range(60)]]
                argsets = []
                for q in queries:
                    argsets.append(("local_search", {"query": q}))
                    argsets.append(("local_search", {"query": q[:200], "type": ["md"] * 500, "path": "[!",
                                                     "limit": 50, "max_chars": 2000}))
                    for name in names:
                        if name != "local_search" and name != "local_sources":
                            argsets.append((name, {"doc": q[:5000]}))
                for name, args in argsets:
                    t = time.monotonic()
                    try:
                        with anyio.fail_after(60):
                            res = await session.call_tool(name, args)
                    except TimeoutError:
                        print(f"PROBLEM {name} {json.dumps(args)[:80]}: no reply in 60 s", flush=True)
                        continue
                    except Exception as exc:
                        if "Traceback" in str(exc) or not str(exc).strip():
                            print(f"PROBLEM {name}: {type(exc).__name__} {str(exc)[:200]}", flush=True)
                        continue
                    took = time.monotonic() - t
                    slowest = max(slowest, (took, f"{name} {json.dumps(args)[:60]}"))
                    calls += 1
                    body = " ".join(getattr(c, "text", "") for c in res.content)
                    if "Traceback" in body or "internal error" in body:
                        print(f"PROBLEM {name} {json.dumps(args)[:80]}: {body[:200]}", flush=True)
                    if res.is_error:
                        errors += 1
                        kinds[f"{name}: {body[:70]}"] = kinds.get(f"{name}: {body[:70]}", 0) + 1
                        if not body.strip():
                            print(f"PROBLEM {name}: an error with no message", flush=True)
                    if took > 10:
                        print(f"PROBLEM {name} {json.dumps(args)[:80]}: {took:.1f} s", flush=True)
                print(f"INFO {calls} tool calls, {errors} isError, slowest {slowest[0]:.2f} s wall "
                      f"({slowest[1]})", flush=True)
                for kind, n in sorted(kinds.items(), key=lambda kv: -kv[1])[:8]:
                    print(f"INFO   {n} x {kind!r}", flush=True)

    anyio.run(main)
    return 0


# ------------------------------------------------------------------ 4. promises

def _one_file(folder: str, label: str) -> None:
    """The index file 0600 in a 0700 folder, alone once every command has exited."""
    names = sorted(os.listdir(folder))
    extra = [n for n in names if n != "ix.sqlite"]
    if extra:
        problem(f"{label}: left beside the index: {extra}")
    mode = stat.S_IMODE(os.stat(folder).st_mode)
    if mode != 0o700:
        problem(f"{label}: folder mode {oct(mode)}")
    if "ix.sqlite" in names:
        fmode = stat.S_IMODE(os.stat(os.path.join(folder, "ix.sqlite")).st_mode)
        if fmode != 0o600:
            problem(f"{label}: index mode {oct(fmode)}")


NO_NETWORK = (
    "import socket, sys, runpy\n"
    "class _Refused(socket.socket):\n"
    "    def __init__(self, family=-1, *a, **k):\n"
    "        if family not in (-1, socket.AF_UNIX):\n"
    "            raise SystemExit('NETWORK: a socket of family %r was opened' % (family,))\n"
    "        super().__init__(family, *a, **k)\n"
    "def _refuse(*a, **k):\n"
    "    raise SystemExit('NETWORK: %r' % (a[:1],))\n"
    "socket.socket = _Refused\n"
    "socket.create_connection = socket.getaddrinfo = socket.gethostbyname = _refuse\n"
    "sys.argv = ['glean_personal'] + sys.argv[1:]\n"
    "runpy.run_module('glean_personal', run_name='__main__')\n")


def run_promises(work: str) -> None:
    print("== promises ==", flush=True)
    root = os.path.join(work, "promise-files")
    shutil.copytree(os.path.join(HERE, "examples"), root)
    strace = shutil.which("strace")
    mcp_input = "\n".join(json.dumps(m) for m in [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "r6", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
         "params": {"name": "local_search", "arguments": {"query": "bike"}}}]) + "\n"
    for store in ("fts5", "plain"):
        db = os.path.join(work, f"promise-{store}", "ix.sqlite")
        commands = [(["index", root], None), (["search", "bike"], None), (["link"], None),
                    (["status"], None), (["verify"], None), (["compact"], None),
                    (["repl"], "/search bike\n/chat what is the earn a bike programme\n"), (["mcp"], mcp_input)]
        for argv, stdin in commands:
            full = argv + ["--db", db] if argv[0] != "repl" else ["repl", "--db", db]
            p = subprocess.run([sys.executable, "-c", NO_NETWORK] + full, input=stdin, capture_output=True,
                               text=True, env=env_for(store), timeout=600)
            if "NETWORK" in p.stderr + p.stdout or "Traceback" in p.stderr or p.returncode not in (0, 1):
                problem(f"promises ({store}) {argv[0]}: exit {p.returncode} {p.stderr[-300:]!r}")
            _one_file(os.path.dirname(db), f"promises ({store}) after {argv[0]}")
            if strace:
                log = os.path.join(work, f"strace-{store}-{argv[0]}.txt")
                subprocess.run([strace, "-f", "-qq", "-e", "trace=network", "-o", log, sys.executable,
                                "-m", "glean_personal"] + full, input=stdin, capture_output=True, text=True,
                               env=env_for(store), timeout=600)
                with open(log) as fh:
                    calls = {line.split(None, 1)[1].split("(")[0] for line in fh
                             if "(" in line and "---" not in line and "+++" not in line}
                if calls - {"socketpair", "getsockname", "getsockopt", "setsockopt", "shutdown"}:
                    problem(f"promises ({store}) {argv[0]}: network calls under strace: {sorted(calls)}")
        print(f"  {store}: {len(commands)} commands with socket refused"
              + (" and under strace" if strace else ""), flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--parts", default="readers,folder,queries,promises")
    ap.add_argument("--sizes", default="250000,500000,1000000")
    ap.add_argument("--files", type=int, default=50_000)
    ap.add_argument("--queries", type=int, default=400, help="random queries per store (API)")
    ap.add_argument("--work", default="")
    ap.add_argument("--client-python", default="")
    ap.add_argument("--mcp-client", default="", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.mcp_client:
        return mcp_client(a.mcp_client)
    work = a.work or tempfile.mkdtemp(prefix="hostile6-")
    if os.path.exists(work) and os.listdir(work):
        sys.exit(f"{work} is not empty")
    os.makedirs(work, exist_ok=True)
    parts = a.parts.split(",")
    if "readers" in parts:
        run_readers([int(s) for s in a.sizes.split(",")])
    if "folder" in parts:
        run_folder(work, a.files)
    if "queries" in parts:
        run_queries(work, a.queries, a.client_python)
    if "promises" in parts:
        run_promises(work)
    print(f"== {len(PROBLEMS)} problem(s) ==")
    for p in PROBLEMS:
        print("  " + p)
    return 1 if PROBLEMS else 0


if __name__ == "__main__":
    sys.exit(main())
