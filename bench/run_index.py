#!/usr/bin/env python3
"""Indexing benchmarks: the product's `index` (and `link`) against the floor.

    python bench/run_index.py [--corpus 1k] [--corpus 10k] [--corpus pydoc] [--repeat 3]

For each corpus (generated ones under bench/corpora/ by bench/make_corpus.py
when missing; "pydoc" is Debian's python3.11-doc HTML tree, copied so that it
can be touched) a working copy goes to bench/out/work/, and then:

- floor: bench/floor.py's one-table FTS5 build of the same files (seconds, MB
  of extracted text, db bytes);
- cold: `python -m glean_personal index DIR --db DB --json` into a new db, wall
  time, MB/s of extracted text (the floor's count), ratio to the floor;
- no-change rescan: the same command again (median of --repeat runs);
- touch 1%: os.utime on every 100th file (bytes unchanged), then a rescan;
- edit 1%: a sentence appended to 1% of the .md/.txt/.html files, then a rescan;
- db size against the floor's db size;
- link: `python -m glean_personal link --db DB --json`, wall time and peak RSS,
  when the verb exists.

Every command's wall time is measured around the whole subprocess (interpreter
start included) and its peak RSS comes from os.wait4 on that child. Prints a
Markdown table; raw figures go to bench/out/index-results.json.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from typing import Dict, List, Optional, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
OUT = os.path.join(HERE, "out")
sys.path.insert(0, HERE)
import floor  # noqa: E402
from product_source import glean as product, product_source, run_child  # noqa: E402

SRC = REPO          # set from --at in main()

PYDOC = "/usr/share/doc/python3.11/html"
PYDOC_EXCLUDES = ("_sources", "_static")
GENERATED = {"1k": 1000, "10k": 10000}
NO_CHANGE_TARGET_S = {"10k": 0.25}


def run(argv: Sequence[str]) -> Tuple[float, int, str, str, float]:
    """(wall seconds, exit code, stdout, stderr, peak RSS MB) of one child process."""
    return tuple(run_child(argv, SRC))  # type: ignore[return-value]


def has_verb(verb: str) -> bool:
    _, code, out, err, _ = run(product("--help"))
    if code != 0:
        return False
    return verb in (out + err).split() or f" {verb} " in (out + err) or f"{{{verb}" in out


def prepare(name: str) -> Tuple[str, Tuple[str, ...]]:
    """A fresh working copy of a corpus, and the folder names to exclude."""
    work = os.path.join(OUT, "work", name)
    if os.path.isdir(work):
        shutil.rmtree(work)
    os.makedirs(os.path.dirname(work), exist_ok=True)
    if name == "pydoc":
        if not os.path.isdir(PYDOC):
            raise SystemExit(f"{PYDOC} is missing: apt-get install -y python3.11-doc")
        shutil.copytree(PYDOC, work, symlinks=True)
        return work, PYDOC_EXCLUDES
    source = os.path.join(HERE, "corpora", f"mixed-{name}")
    if not os.path.isdir(source):
        subprocess.run([sys.executable, os.path.join(HERE, "make_corpus.py"), str(GENERATED[name]), source],
                       check=True)
    shutil.copytree(source, work)
    return work, ()


def files_of(root: str, exclude: Sequence[str]) -> List[str]:
    return list(floor.iter_files(root, tuple(exclude)))


def touch(paths: Sequence[str]) -> None:
    later = time.time_ns() + 2_000_000_000
    for p in paths:
        os.utime(p, ns=(later, later))


def edit(paths: Sequence[str]) -> None:
    for p in paths:
        if p.endswith((".html", ".htm")):
            with open(p, "r", encoding="utf-8", errors="surrogateescape") as fh:
                text = fh.read()
            cut = text.rfind("</body>")
            cut = cut if cut >= 0 else len(text)
            text = text[:cut] + "<p>An appended benchmark sentence about quokkas.</p>\n" + text[cut:]
            with open(p, "w", encoding="utf-8", errors="surrogateescape") as fh:
                fh.write(text)
        else:
            with open(p, "a", encoding="utf-8") as fh:
                fh.write("\n\nAn appended benchmark sentence about quokkas.\n")


def _json(out: str) -> Optional[dict]:
    try:
        return json.loads(out)
    except ValueError:
        return None


def bench_corpus(name: str, repeat: int, do_link: bool) -> Dict[str, object]:
    work, exclude = prepare(name)
    files = files_of(work, exclude)
    res: Dict[str, object] = {"corpus": name, "files": len(files),
                              "bytes_on_disk": sum(os.path.getsize(p) for p in files)}
    fdb = os.path.join(OUT, f"floor-{name}.db")
    fl = floor.build(work, fdb, exclude)
    res["floor"] = fl
    text_mb = float(fl["text_mb"])
    db = os.path.join(OUT, f"product-{name}.db")
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    idx = product("index", work, "--db", db, "--json", *[a for e in exclude for a in ("--exclude", e)])
    wall, code, out, err, rss = run(idx)
    if code != 0:
        res["error"] = f"index exited {code}: {err.strip().splitlines()[-1] if err.strip() else out[:200]}"
        return res
    report = _json(out) or {}
    res["cold"] = {"seconds": round(wall, 3), "reported_seconds": report.get("seconds"),
                   "mb_per_s": round(text_mb / wall, 2), "peak_rss_mb": round(rss, 1),
                   "added": report.get("added"), "skipped": len(report.get("skipped") or [])}
    res["ratio_to_floor"] = round(wall / float(fl["seconds"]), 2)
    res["db_bytes"] = os.path.getsize(db)
    res["db_ratio_to_floor"] = round(res["db_bytes"] / float(fl["db_bytes"]), 2)
    res["leftover_files"] = [s for s in ("-wal", "-shm", "-journal") if os.path.exists(db + s)]
    walls, inner = [], []
    for _ in range(repeat):
        wall, code, out, err, _ = run(idx)
        walls.append(wall)
        inner.append((_json(out) or {}).get("seconds"))
    rep = _json(out) or {}
    res["no_change"] = {"seconds": round(statistics.median(walls), 3), "runs": [round(w, 3) for w in walls],
                        "reported_seconds": inner,
                        "unchanged": rep.get("unchanged"), "updated": rep.get("updated")}
    target = NO_CHANGE_TARGET_S.get(name)
    if target:
        res["no_change"]["target_s"] = target
        res["no_change"]["meets_target"] = res["no_change"]["seconds"] < target
    step = max(1, len(files) // 100)
    touched = files[::step][: max(1, len(files) // 100)]
    touch(touched)
    wall, code, out, err, _ = run(idx)
    rep = _json(out) or {}
    res["touch_1pct"] = {"files": len(touched), "seconds": round(wall, 3), "reported_seconds": rep.get("seconds"),
                         "touched": rep.get("touched"),
                         "updated": rep.get("updated"), "exit": code}
    editable = [p for p in files if p.endswith((".md", ".txt", ".html", ".htm")) and p not in set(touched)]
    edited = editable[1::max(1, len(editable) // max(1, len(files) // 100))][: max(1, len(files) // 100)]
    edit(edited)
    wall, code, out, err, _ = run(idx)
    rep = _json(out) or {}
    res["edit_1pct"] = {"files": len(edited), "seconds": round(wall, 3), "reported_seconds": rep.get("seconds"),
                        "updated": rep.get("updated"),
                        "touched": rep.get("touched"), "exit": code}
    if do_link:
        wall, code, out, err, rss = run(product("link", "--db", db, "--json"))
        rep = _json(out) or {}
        res["link"] = {"seconds": round(wall, 3), "peak_rss_mb": round(rss, 1), "exit": code,
                       **{k: rep.get(k) for k in ("documents", "links", "median_score", "max_degree")}}
        if code != 0:
            res["link"]["error"] = err.strip().splitlines()[-1] if err.strip() else ""
    return res


def _fmt(value, suffix: str = "") -> str:
    return "n/a" if value is None else f"{value}{suffix}"


def table(results: Sequence[Dict[str, object]]) -> str:
    cols = [r["corpus"] for r in results]
    rows: List[Tuple[str, List[str]]] = []

    def row(label, fn):
        vals = []
        for r in results:
            try:
                vals.append(fn(r))
            except (KeyError, TypeError):
                vals.append("n/a")
        rows.append((label, vals))

    row("files", lambda r: str(r["files"]))
    row("extracted text (MB, floor's count)", lambda r: str(r["floor"]["text_mb"]))
    row("floor: one FTS5 table, one transaction (s)", lambda r: str(r["floor"]["seconds"]))
    row("index, cold (s, whole command)", lambda r: str(r["cold"]["seconds"]))
    row("index, cold (MB/s of text)", lambda r: str(r["cold"]["mb_per_s"]))
    row("index cold / floor", lambda r: f"{r['ratio_to_floor']}x")
    row("index cold, peak RSS (MB)", lambda r: str(r["cold"]["peak_rss_mb"]))
    row("rescan, nothing changed (s, median)", lambda r: str(r["no_change"]["seconds"])
        + (" (target < 0.25)" if r["no_change"].get("target_s") else ""))
    row("  of which the index's own `seconds`", lambda r: str(sorted(
        x for x in r["no_change"]["reported_seconds"] if x is not None)[len(r["no_change"]["reported_seconds"]) // 2]))
    row("rescan after touching 1% (s)", lambda r: f"{r['touch_1pct']['seconds']} "
        f"({r['touch_1pct']['files']} files, touched={_fmt(r['touch_1pct']['touched'])})")
    row("rescan after editing 1% (s)", lambda r: f"{r['edit_1pct']['seconds']} "
        f"({r['edit_1pct']['files']} files, updated={_fmt(r['edit_1pct']['updated'])})")
    row("db size (MB)", lambda r: f"{r['db_bytes'] / 1e6:.1f}")
    row("floor db size (MB)", lambda r: f"{r['floor']['db_bytes'] / 1e6:.1f}")
    row("db / floor db", lambda r: f"{r['db_ratio_to_floor']}x")
    row("link (s, whole command)", lambda r: str(r["link"]["seconds"]) if not r["link"]["exit"]
        else f"failed: {r['link'].get('error', '')[:60]}")
    row("link peak RSS (MB)", lambda r: str(r["link"]["peak_rss_mb"]))
    row("links / median score / max degree",
        lambda r: f"{r['link']['links']} / {r['link']['median_score']} / {r['link']['max_degree']}")
    lines = ["| measure | " + " | ".join(cols) + " |", "|---|" + "---|" * len(cols)]
    lines += [f"| {label} | " + " | ".join(vals) + " |" for label, vals in rows]
    errors = [f"- {r['corpus']}: {r['error']}" for r in results if r.get("error")]
    return "\n".join(lines + ([""] + errors if errors else []))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Indexing benchmarks against the floor.")
    ap.add_argument("--corpus", action="append", choices=["1k", "10k", "pydoc"])
    ap.add_argument("--repeat", type=int, default=3, help="no-change rescans to take the median of")
    ap.add_argument("--no-link", action="store_true")
    ap.add_argument("--at", default="HEAD", help="git revision of glean_personal to measure, or 'worktree'")
    args = ap.parse_args(argv)
    global SRC
    SRC, label = product_source(args.at)
    os.makedirs(OUT, exist_ok=True)
    if not has_verb("index"):
        print("the product has no `index` verb yet: only the floor can be measured", file=sys.stderr)
    do_link = not args.no_link and has_verb("link")
    load_before = os.getloadavg()
    results = []
    for name in args.corpus or ["1k", "10k", "pydoc"]:
        print(f"... {name}", file=sys.stderr)
        results.append(bench_corpus(name, args.repeat, do_link))
    _, _, where, _, _ = run([sys.executable, "-c", "import glean_personal; print(glean_personal.__file__)"])
    meta = {"load_before": load_before, "load_after": os.getloadavg(), "product": label,
            "product_file": where.strip(), "python": sys.version.split()[0], "cpus": os.cpu_count(),
            "sqlite": __import__("sqlite3").sqlite_version, "results": results}
    with open(os.path.join(OUT, "index-results.json"), "w", encoding="utf-8") as fh:
        json.dump(meta, fh, indent=1)
    print(f"glean_personal {label}; Python {meta['python']}, SQLite {meta['sqlite']}, {meta['cpus']} CPUs; "
          f"load average (1 min) {meta['load_before'][0]:.1f} before, {meta['load_after'][0]:.1f} after\n")
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
