"""Code search by definition name, on a real Python package indexed as a folder.

    python bench/code_search.py json            # the standard library's json package
    python bench/code_search.py glean_personal  # this project

Copies the package to a temporary folder, indexes it, and for every function,
class and method searches its name (bare, then qualified: `Parser.parse`).
Counts, per query style, how often the file's hit is the definition's own
section with lines that hold its def/class line ("exact"), the definition's
section but a later passage of it, another section of the file, or not the
file at all. Set GLEAN_PERSONAL_STORE=plain for the plain store.
"""
from __future__ import annotations

import ast
import collections
import importlib
import inspect
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import glean_personal  # noqa: E402


def definitions(root: Path):
    out = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))

        def walk(body, prefix):
            for node in body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    out.append((rel, prefix + node.name, node.name, node.lineno))
                    if isinstance(node, ast.ClassDef):
                        walk(node.body, prefix + node.name + ".")
        walk(tree.body, "")
    return out


def main(package: str) -> None:
    src = Path(inspect.getsourcefile(importlib.import_module(package))).parent
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / package
        shutil.copytree(src, root, ignore=shutil.ignore_patterns("__pycache__"))
        ix = glean_personal.open_index(os.path.join(tmp, "p.db"))
        try:
            report = ix.index(root, label=package)
            print(f"{package}: {report.added} files indexed, {len(report.skipped)} skipped, "
                  f"store {ix.status().store}")
            defs = definitions(root)
            for style in ("bare", "qualified"):
                counts = collections.Counter()
                for rel, qual, name, line in defs:
                    query = name if style == "bare" else qual
                    hit = next((h for h in ix.search(query, limit=50).results
                                if h.document["path"] == rel), None)
                    if hit is None:
                        counts["file not found"] += 1
                    elif hit.section == [qual] and hit.lines and hit.lines[0] <= line <= hit.lines[1]:
                        counts["exact"] += 1
                    elif hit.section == [qual]:
                        counts["definition, later passage"] += 1
                    else:
                        counts["file, other section"] += 1
                print(f"  {style:9} {len(defs)} definitions: " +
                      ", ".join(f"{k} {v}" for k, v in counts.most_common()))
        finally:
            ix.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "json")
