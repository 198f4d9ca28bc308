"""PDF extraction: word recall/precision against pdftotext, and speed against pypdf.

    python bench/run_pdf.py DIR [--pypdf-python PATH] [--repeat N] [--markdown]

For every PDF under DIR (recursively): the words (lowercased alphabetic runs of
3+ letters, as a set per file) that pdftotext finds, compared with the words
glean_personal finds and, when `--pypdf-python` names an interpreter that has
pypdf, with the words pypdf's `extract_text` finds. Times are wall-clock for
extracting every file `--repeat` times, glean_personal in this process and pypdf
in a child process over the same files in the same run. pdftotext and pypdf are
reference tools only; glean_personal never needs them.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from glean_personal.errors import SkipFile  # noqa: E402
from glean_personal.formats import read_document  # noqa: E402

_WORD = re.compile(r"[^\W\d_]{3,}")

_PYPDF = r"""
import json, sys, time, warnings, logging
warnings.simplefilter("ignore")
logging.disable(logging.CRITICAL)
from pypdf import PdfReader
paths = json.loads(sys.argv[1]); repeat = int(sys.argv[2])
texts = {}
start = time.process_time()
for _ in range(repeat):
    for p in paths:
        try:
            r = PdfReader(p)
            texts[p] = "\n".join((page.extract_text() or "") for page in r.pages)
        except Exception as exc:
            texts[p] = None
print(json.dumps({"seconds": time.process_time() - start, "texts": texts}))
"""


def words(text: str) -> set:
    return {w.lower() for w in _WORD.findall(text or "")}


def ours(path: str) -> str:
    try:
        return read_document(Path(path).read_bytes(), path).text
    except SkipFile as exc:
        return f"\x00skip: {exc}"


def pdftotext(path: str) -> str:
    try:
        out = subprocess.run(["pdftotext", "-q", "-enc", "UTF-8", path, "-"], capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return out.stdout.decode("utf-8", "replace")


def score(ref: set, got: set):
    if not ref:
        return None, None
    hit = len(ref & got)
    recall = hit / len(ref)
    precision = hit / len(got) if got else 0.0
    return recall, precision


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("--pypdf-python")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    paths = sorted(str(p) for p in Path(args.folder).rglob("*.pdf"))
    start = time.process_time()
    texts = {}
    for _ in range(args.repeat):
        for p in paths:
            texts[p] = ours(p)
    our_seconds = time.process_time() - start
    ref_texts = {p: pdftotext(p) for p in paths}
    py = None
    if args.pypdf_python:
        out = subprocess.run([args.pypdf_python, "-c", _PYPDF, json.dumps(paths), str(args.repeat)],
                             capture_output=True, text=True)
        py = json.loads(out.stdout) if out.returncode == 0 else None
        if py is None:
            print(out.stderr[-2000:], file=sys.stderr)
    rows = []
    tot = {"ours": [0, 0, 0], "pypdf": [0, 0, 0]}   # hits, ref words, got words
    for p in paths:
        ref = words(ref_texts[p])
        mine = words("" if texts[p].startswith("\x00") else texts[p])
        r, pr = score(ref, mine)
        row = {"file": os.path.relpath(p, args.folder), "ref_words": len(ref), "recall": r, "precision": pr,
               "skip": texts[p][7:] if texts[p].startswith("\x00") else ""}
        if ref:   # files where pdftotext finds nothing have no reference to score against
            tot["ours"][0] += len(ref & mine)
            tot["ours"][1] += len(ref)
            tot["ours"][2] += len(mine)
        if py is not None:
            theirs = words(py["texts"].get(p) or "")
            r2, p2 = score(ref, theirs)
            row.update(pypdf_recall=r2, pypdf_precision=p2)
            if ref:
                tot["pypdf"][0] += len(ref & theirs)
                tot["pypdf"][1] += len(ref)
                tot["pypdf"][2] += len(theirs)
        rows.append(row)

    def pct(v):
        return "–" if v is None else f"{100 * v:.1f}"

    if args.markdown:
        print("| file | words | recall | precision | pypdf recall | pypdf precision |")
        print("|---|---:|---:|---:|---:|---:|")
    for row in rows:
        extra = f" ({row['skip']})" if row["skip"] else ""
        cells = [row["file"] + extra, str(row["ref_words"]), pct(row["recall"]), pct(row["precision"]),
                 pct(row.get("pypdf_recall")), pct(row.get("pypdf_precision"))]
        print(("| " + " | ".join(cells) + " |") if args.markdown else "  ".join(cells))
    h, n, g = tot["ours"]
    print(f"\nglean_personal: recall {100 * h / max(n, 1):.1f}%  precision {100 * h / max(g, 1):.1f}%  "
          f"(word sets summed over the files pdftotext finds words in)  {our_seconds:.2f} s for {len(paths)} files x{args.repeat}")
    if py is not None:
        h, n, g = tot["pypdf"]
        print(f"pypdf:          recall {100 * h / max(n, 1):.1f}%  precision {100 * h / max(g, 1):.1f}%  "
              f"{py['seconds']:.2f} s; pypdf/glean_personal time ratio {py['seconds'] / our_seconds:.2f}")


if __name__ == "__main__":
    main()
