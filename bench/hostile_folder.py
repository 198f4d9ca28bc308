"""A folder of a few thousand small hostile files of every supported kind, indexed whole.

Each file is one of: random bytes, a real file cut short, a real file with bytes
flipped, a real file's head glued to random bytes, a ZIP archive holding random
members under an Office or EPUB name, or an empty file, under every extension
the reader registry claims (and `.gz` of some, a name no reader claims, no
extension). Then `index DIR --db X --json` runs once (a forked CLI, its CPU time
and exit status printed), the skip report is grouped by reason, and `verify`
must call the index sound. A file is "lost" when it is neither indexed nor
skipped with a reason.

    PYTHONPATH=$PWD python bench/hostile_folder.py --work /tmp/hf --per-kind 40 [--seed 1]
"""
from __future__ import annotations

import argparse
import collections
import gzip
import io
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import time
import zipfile

from glean_personal.config import SUPPORTED, SUPPORTED_NAMES

# Where real files of some kinds are, to cut and flip (any that exist are used).
SAMPLES = ["/work/shared/corpus", "/usr/share/doc/python3.11/html/_sources",
           "/usr/share/doc/git", "/usr/lib/python3.11/email", "/usr/share/doc/nodejs/api",
           "/usr/share/doc/python3.11/html/library"]


def real_files() -> dict:
    """Real files by extension (lower case, with dot), at most 30 each."""
    found = collections.defaultdict(list)
    for root in SAMPLES:
        for dirpath, _, names in os.walk(root):
            for name in names:
                ext = os.path.splitext(name)[1].lower()
                if len(found[ext]) < 30:
                    found[ext].append(os.path.join(dirpath, name))
    return found


def zip_of(rng: random.Random, ext: str) -> bytes:
    """A ZIP with the member names an Office or EPUB file has, random contents."""
    names = {".docx": ["[Content_Types].xml", "word/document.xml"],
             ".xlsx": ["[Content_Types].xml", "xl/workbook.xml", "xl/worksheets/sheet1.xml",
                       "xl/sharedStrings.xml"],
             ".pptx": ["[Content_Types].xml", "ppt/presentation.xml", "ppt/slides/slide1.xml"],
             ".epub": ["mimetype", "META-INF/container.xml", "OEBPS/content.opf"]}.get(
                 ext, ["mimetype", "content.xml", "meta.xml"])
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in names:
            body = rng.choice([b"", rng.randbytes(rng.randrange(1, 400)),
                               b"<?xml version='1.0'?><a>" + rng.randbytes(50),
                               b"<w:document><w:body><w:p><w:r><w:t>hi"])
            zf.writestr(name, body)
    return buf.getvalue()


def hostile(rng: random.Random, ext: str, reals: list) -> bytes:
    kinds = ["random", "empty", "zip"] + (["cut", "flip", "glue"] * 2 if reals else [])
    kind = rng.choice(kinds)
    if kind == "random":
        return rng.randbytes(rng.choice([1, 7, 100, 1000, 4000]))
    if kind == "empty":
        return b""
    if kind == "zip":
        return zip_of(rng, ext)
    with open(rng.choice(reals), "rb") as fh:
        data = fh.read(2_000_000)
    if kind == "cut":
        return data[:rng.randrange(len(data) + 1)]
    if kind == "flip":
        data = bytearray(data)
        for _ in range(rng.choice([1, 5, 50])):
            if data:
                data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data)
    return data[:rng.randrange(len(data) + 1)] + rng.randbytes(rng.randrange(1, 3000))


def build(work: str, per_kind: int, seed: int) -> int:
    rng = random.Random(seed)
    reals = real_files()
    folder = os.path.join(work, "files")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    exts = sorted(SUPPORTED) + [".xml", ".sgml", ".log", ".weird", ""]
    count = 0
    for ext in exts:
        pool = reals.get(ext) or reals.get({".htm": ".html", ".markdown": ".md"}.get(ext, ""), [])
        for i in range(per_kind):
            data = hostile(rng, ext, pool)
            # a stem of its own per kind: `f3.txt` beside `f3.htm` would be skipped unread
            # as the page's source (the walk's rule for a page's copies)
            name = f"f{i}-{ext[1:] or 'none'}{ext}"
            if ext and rng.random() < 0.05:
                data, name = gzip.compress(data), name + ".gz"
            with open(os.path.join(folder, name), "wb") as fh:
                fh.write(data)
            count += 1
    for name in SUPPORTED_NAMES:
        with open(os.path.join(folder, name), "wb") as fh:
            fh.write(rng.randbytes(rng.randrange(1, 2000)))
        count += 1
    return count


def cli(args: list) -> tuple:
    """(exit status, stdout, stderr, CPU seconds of the child) of the CLI."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run([sys.executable, "-m", "glean_personal"] + args, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return run.returncode, run.stdout, run.stderr, cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--per-kind", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    n = build(args.work, args.per_kind, args.seed)
    db = os.path.join(args.work, "index.db")
    for leftover in (db, db + "-wal", db + "-shm"):
        if os.path.exists(leftover):
            os.remove(leftover)
    start = time.time()
    rc, out, err, cpu = cli(["index", os.path.join(args.work, "files"), "--db", db, "--json"])
    print(f"{n} files; index exit {rc}, {cpu:.1f} CPU s (CLI and its workers), {time.time() - start:.0f} s wall")
    if "Traceback" in err:
        print("TRACEBACK:\n" + err[-3000:])
    try:
        report = json.loads(out)
    except ValueError:
        print("not JSON:", out[-2000:], err[-2000:])
        return
    with open(os.path.join(args.work, "report.json"), "w") as fh:
        json.dump(report, fh, indent=1)
    skipped = report.get("skipped") or report.get("skips") or []
    print("report keys:", sorted(report))
    reasons = collections.Counter()
    for item in skipped:
        reason = item.get("reason", "") if isinstance(item, dict) else str(item)
        reasons[reason.split(":")[0][:90]] += 1
    for reason, k in reasons.most_common():
        print(f"{k:6}  {reason}")
    rc, out, err, cpu = cli(["verify", "--db", db])
    print(f"verify exit {rc}: {(out + err).strip()[:600]}")


if __name__ == "__main__":
    main()
