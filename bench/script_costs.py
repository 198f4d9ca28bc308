#!/usr/bin/env python3
"""What the search-form columns cost: cold index time and db size, two revisions side by side.

    python bench/script_costs.py --at 944cb7f --at HEAD [--corpus 10k] [--corpus cjk] \
        [--corpus cyrillic] [--store fts5] [--store plain] [--repeat 3]

Corpora:
- 10k: bench/make_corpus.py's 10,000 mixed English files (made when missing);
- cjk: the Japanese, Chinese (simplified and traditional) and Korean manual
  pages Debian installs under /usr/share/man/{ja,zh_CN,zh_TW,ko}, inflated
  into .txt files as they are (troff source: CJK prose with English markup);
- cyrillic: the same for /usr/share/man/{ru,uk}.

Runs alternate between the revisions (A B A B ...) so that a change in the
machine's load falls on both. Each run is `python -m glean_personal index DIR
--db NEW.db` timed as a whole child process: wall time, and CPU time (user +
system, the command and the worker processes it waited for), which a busy
machine disturbs much less. The db size is the file after the run. Prints a
Markdown table of medians.
"""
from __future__ import annotations

import argparse
import gzip
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from typing import Dict, List, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from product_source import product_source, run_child  # noqa: E402

CORPORA = os.path.join(HERE, "corpora")
MAN = "/usr/share/man"
LANGS = {"cjk": ("ja", "zh_CN", "zh_TW", "ko"), "cyrillic": ("ru", "uk")}


def corpus_dir(name: str) -> str:
    if name == "10k":
        path = os.path.join(CORPORA, "mixed-10k")
        if not os.path.isdir(path):
            subprocess.run([sys.executable, os.path.join(HERE, "make_corpus.py"), "10000", path],
                           check=True)
        return path
    path = os.path.join(CORPORA, "man-" + name)
    if not os.path.isdir(path):
        _inflate_man_pages(LANGS[name], path)
    return path


def _inflate_man_pages(langs: Tuple[str, ...], dest: str) -> None:
    count = 0
    for lang in langs:
        for folder, _, files in os.walk(os.path.join(MAN, lang)):
            for name in sorted(files):
                if not name.endswith(".gz"):
                    continue
                try:
                    with gzip.open(os.path.join(folder, name)) as fh:
                        text = fh.read().decode("utf-8")
                except (OSError, UnicodeDecodeError):
                    continue
                rel = os.path.relpath(folder, MAN)
                os.makedirs(os.path.join(dest, rel), exist_ok=True)
                with open(os.path.join(dest, rel, name[:-3] + ".txt"), "w", encoding="utf-8") as out:
                    out.write(text)
                count += 1
    if not count:
        raise SystemExit(f"no manual pages under {MAN} for {', '.join(langs)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--at", action="append", required=True, help="revision (twice: before, after)")
    ap.add_argument("--corpus", action="append", choices=("10k", "cjk", "cyrillic"))
    ap.add_argument("--store", action="append", choices=("fts5", "plain"))
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    sources = [product_source(rev) for rev in args.at]
    corpora = args.corpus or ["10k", "cjk", "cyrillic"]
    stores = args.store or ["fts5"]
    times: Dict[tuple, List[float]] = {}
    cpu: Dict[tuple, List[float]] = {}
    sizes: Dict[tuple, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for corpus in corpora:
            folder = corpus_dir(corpus)
            for store in stores:
                for rep in range(args.repeat):
                    for (src, label) in sources:
                        db = os.path.join(tmp, "x.db")
                        for suffix in ("", "-journal"):
                            if os.path.exists(db + suffix):
                                os.remove(db + suffix)
                        os.environ["GLEAN_PERSONAL_STORE"] = store
                        before = _children_cpu()
                        run = run_child([sys.executable, "-m", "glean_personal", "index", folder,
                                         "--db", db, "--json"], src)
                        if run.code != 0:
                            raise SystemExit(f"{label}: index failed: {run.err[-2000:]}")
                        key = (corpus, store, label)
                        times.setdefault(key, []).append(run.wall)
                        cpu.setdefault(key, []).append(_children_cpu() - before)
                        sizes[key] = os.path.getsize(db)
                        print(f"{corpus} {store} {label}: {run.wall:.1f} s, "
                              f"{cpu[key][-1]:.1f} s CPU, "
                              f"{sizes[key] / 1e6:.2f} MB", file=sys.stderr)
    print("| corpus | store | revision | cold index: wall s | CPU s | db MB | db vs first |")
    print("|---|---|---|---|---|---|---|")
    for corpus in corpora:
        for store in stores:
            first = sizes[(corpus, store, sources[0][1])]
            for _, label in sources:
                key = (corpus, store, label)
                print(f"| {corpus} | {store} | {label} | {statistics.median(times[key]):.1f} | "
                      f"{statistics.median(cpu[key]):.1f} | "
                      f"{sizes[key] / 1e6:.2f} | {100 * (sizes[key] / first - 1):+.1f}% |")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    main()
