"""A hash of what `read_document` makes of each file, to show a reader change alters nothing.

Reads file paths (one a line) from stdin; a line `path<TAB>name` reads the file as if it
were called `name` (`x.rst.txt<TAB>x.rst`). Writes {path: hash} as JSON; a second run
with --against OLD.json prints the files whose extraction differs and a count.

    find /usr/share/doc -name '*.md' | PYTHONPATH=$PWD python bench/reader_hashes.py > before.json
    ... (change a reader) ...
    find /usr/share/doc -name '*.md' | PYTHONPATH=$PWD python bench/reader_hashes.py --against before.json
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time

from glean_personal.errors import SkipFile
from glean_personal.formats import read_document


def digest(path: str, name: str) -> str:
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        return f"unreadable:{type(exc).__name__}"
    try:
        doc = read_document(data, name)
    except SkipFile as skip:
        return "skip:" + str(skip)
    blob = json.dumps(doc.to_dict(), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--against", help="a JSON file from an earlier run: print the differences")
    args = ap.parse_args()
    hashes = {}
    start = time.process_time()
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line:
            continue
        path, _, name = line.partition("\t")
        hashes[path] = digest(path, name or path.rsplit("/", 1)[-1])
    cpu = time.process_time() - start
    if not args.against:
        json.dump(hashes, sys.stdout, indent=0, sort_keys=True)
        print(f"{len(hashes)} files, {cpu:.1f} CPU s", file=sys.stderr)
        return
    with open(args.against) as fh:
        old = json.load(fh)
    changed = [p for p in hashes if old.get(p) != hashes[p]]
    for path in changed:
        print(f"changed: {path} ({str(old.get(path))[:60]} -> {hashes[path][:60]})")
    print(f"{len(changed)} of {len(hashes)} files read differently ({cpu:.1f} CPU s)")


if __name__ == "__main__":
    main()
