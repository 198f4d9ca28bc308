#!/usr/bin/env python3
"""The floor: the least an indexer of these files can do, in one bare process.

    python bench/floor.py CORPUS DB [--exclude GLOB]... [--include GLOB]... [--json]

Walks CORPUS, extracts text from the formats glean_personal reads (plain read
for .txt/.md, html.parser text for .html, flattened .json, zipfile + ElementTree
for .docx/.xlsx/.pptx), and inserts one row per file into a single FTS5 table
(tokenize 'porter unicode61 remove_diacritics 2') in one transaction. No
passages, no hashes, no incremental bookkeeping, no skip report. Prints the
seconds taken, MB of extracted text and the database size.

The extraction functions here (`extract`, `iter_documents`) are reused by the
other bench scripts as an independent, simple reading of the same files.
"""
from __future__ import annotations

import argparse
import fnmatch
import json
import gzip
import os
import re
import sqlite3
import sys
import time
import zipfile
import zlib
from html.parser import HTMLParser
from typing import Iterator, List, Optional, Tuple
from xml.etree import ElementTree as ET

# Mallard help pages (.page, GNOME's /usr/share/help) are XML; the HTML tag stripper reads them
# well enough for a baseline (every <title> goes to the title).
EXTENSIONS = {".txt": "text", ".md": "text", ".markdown": "text", ".html": "html", ".htm": "html",
              ".page": "html", ".json": "json", ".docx": "docx", ".xlsx": "xlsx", ".pptx": "pptx"}
# With READ_MORE (run_search.py and check_golden.py --read-more), the baselines also read
# gzipped files (by the name under .gz), DocBook and other XML (the tag stripper), roff man
# pages (requests and font escapes dropped), PDF (the text operators of Flate streams) and
# POD and Info files (`name.info`, the parts `name.info-N` of a split manual) as plain text
# (POD's `=head1` and `C<…>` marks, Info's node lines, menus and index entries left in):
# enough for a baseline on trees such as man pages or gzipped PDF manuals. Off by default, so
# the figures of the sets written before it do not move.
READ_MORE = False
MORE_EXTENSIONS = {".xml": "html", ".docbook": "html", ".pdf": "pdf", ".pod": "text"}
# With READ_SOURCES (run_search.py and check_golden.py --read-sources), the baselines also
# read reStructuredText, AsciiDoc and Org files as plain text, the way they read Markdown
# (directives, roles, attributes and `#+` keywords left in; the file name is the title).
# Off by default, so the figures of the sets written before it do not move.
READ_SOURCES = False
SOURCE_EXTENSIONS = {".rst": "text", ".rest": "text", ".adoc": "text", ".asciidoc": "text", ".org": "text"}
ROFF_NAME = re.compile(r"\.[1-9][a-z]*$")
INFO_NAME = re.compile(r"\.info(-[0-9]+)?$")
SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", "dist", "build",
             ".tox", ".mypy_cache", ".pytest_cache", ".cache"}
MAX_BYTES = 5_000_000

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
S = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
DC_TITLE = "{http://purl.org/dc/elements/1.1/}title"


def decode(data: bytes) -> str:
    if data.startswith(b"\xff\xfe") or data.startswith(b"\xfe\xff"):
        return data.decode("utf-16")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


class _HTMLText(HTMLParser):
    BLOCK = {"p", "div", "br", "li", "tr", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6",
             "section", "article", "pre", "dt", "dd", "table", "ul", "ol", "blockquote"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: List[str] = []
        self.title_parts: List[str] = []
        self.skip = 0
        self.in_title = False

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        elif tag == "title":
            self.in_title = True
        elif tag in self.BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip = max(0, self.skip - 1)
        elif tag == "title":
            self.in_title = False
        elif tag in self.BLOCK:
            self.parts.append("\n")

    def handle_data(self, data):
        if self.skip:
            return
        if self.in_title:
            self.title_parts.append(data)
        else:
            self.parts.append(data)


def html_text(raw: str) -> Tuple[str, str]:
    parser = _HTMLText()
    parser.feed(raw)
    parser.close()
    return "".join(parser.title_parts).strip(), "".join(parser.parts)


def _flatten(value, prefix: str, out: List[str]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(v, f"{prefix}.{k}" if prefix else str(k), out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _flatten(v, f"{prefix}.{i}" if prefix else str(i), out)
    elif value is not None:
        out.append(f"{prefix}: {value}")


def json_text(raw: str) -> Tuple[str, str]:
    data = json.loads(raw)
    lines: List[str] = []
    _flatten(data, "", lines)
    title = ""
    if isinstance(data, dict):
        for key in ("title", "name", "subject"):
            if isinstance(data.get(key), str):
                title = data[key]
                break
    return title, "\n".join(lines)


def _core_title(zf: zipfile.ZipFile) -> str:
    try:
        node = ET.fromstring(zf.read("docProps/core.xml")).find(DC_TITLE)
    except (KeyError, ET.ParseError):
        return ""
    return (node.text or "").strip() if node is not None else ""


def docx_text(zf: zipfile.ZipFile) -> str:
    root = ET.fromstring(zf.read("word/document.xml"))
    return "\n".join("".join(t.text or "" for t in p.iter(W + "t")) for p in root.iter(W + "p"))


def xlsx_text(zf: zipfile.ZipFile) -> str:
    names = set(zf.namelist())
    shared: List[str] = []
    if "xl/sharedStrings.xml" in names:
        for si in ET.fromstring(zf.read("xl/sharedStrings.xml")).iter(S + "si"):
            shared.append("".join(t.text or "" for t in si.iter(S + "t")))
    lines = []
    for name in sorted(n for n in names if n.startswith("xl/worksheets/") and n.endswith(".xml")):
        for row in ET.fromstring(zf.read(name)).iter(S + "row"):
            cells = []
            for c in row.iter(S + "c"):
                v = c.find(S + "v")
                if c.get("t") == "s" and v is not None:
                    cells.append(shared[int(v.text)])
                elif c.get("t") == "inlineStr":
                    cells.append("".join(t.text or "" for t in c.iter(S + "t")))
                elif v is not None and v.text:
                    cells.append(v.text)
            lines.append(" ".join(cells))
    return "\n".join(lines)


def pptx_text(zf: zipfile.ZipFile) -> str:
    lines = []
    for name in sorted(n for n in zf.namelist()
                       if n.startswith(("ppt/slides/slide", "ppt/notesSlides/notesSlide")) and n.endswith(".xml")):
        root = ET.fromstring(zf.read(name))
        lines.extend("".join(t.text or "" for t in p.iter(A + "t")) for p in root.iter(A + "p"))
    return "\n".join(lines)


def kind_of(name: str) -> Optional[str]:
    """The reader for a file name, or None."""
    gz = False
    if READ_MORE and name.lower().endswith(".gz"):
        name, gz = name[:-3], True
    ext = os.path.splitext(name)[1].lower()
    kind = EXTENSIONS.get(ext)
    if kind is None and READ_SOURCES:
        kind = SOURCE_EXTENSIONS.get(ext)
    if kind is None and READ_MORE:
        kind = (MORE_EXTENSIONS.get(ext) or ("roff" if ROFF_NAME.search(name.lower()) else None)
                or ("text" if INFO_NAME.search(name.lower()) else None))
    if kind is None:
        return None
    return kind + "+gz" if gz else kind


def roff_text(raw: str) -> str:
    lines = []
    for line in raw.splitlines():
        if line.startswith((".", "'")):
            words = line.split(None, 1)
            if len(words) == 2 and words[0] in (".SH", ".SS", ".B", ".I", ".BR", ".IR", ".BI", ".IP", ".TP"):
                line = words[1].replace('"', "")
            else:
                continue
        line = re.sub(r"\\f(\[[^]]*\]|\(..|.)", "", line)
        line = re.sub(r"\\[-e]", lambda m: "-" if m.group(0)[1] == "-" else "\\", line)
        line = re.sub(r"\\[&|^%]", "", line)
        lines.append(line)
    return "\n".join(lines)


def pdf_text(data: bytes) -> str:
    out: List[str] = []
    for m in re.finditer(rb"stream\r?\n(.*?)endstream", data, re.S):
        try:
            s = zlib.decompress(m.group(1))
        except zlib.error:
            continue
        for t in re.finditer(rb"\[(.*?)\]\s*TJ|\(((?:\\.|[^\\)])*)\)\s*Tj|(T\*|Td|TD|ET)", s, re.S):
            if t.group(3):
                out.append(" ")
            elif t.group(1) is not None:
                for piece, num in re.findall(rb"\(((?:\\.|[^\\)])*)\)|(-?\d+\.?\d*)", t.group(1)):
                    if piece:
                        out.append(piece.decode("latin-1"))
                    elif num and float(num) < -200:
                        out.append(" ")
            else:
                out.append(t.group(2).decode("latin-1"))
    return re.sub(r"\\(.)", r"\1", "".join(out))


def extract(path: str) -> Optional[Tuple[str, str]]:
    """(title, text) of one file, or None when its format is not read or it cannot be read."""
    kind = kind_of(os.path.basename(path))
    if kind is None:
        return None
    if kind.endswith("+gz") or kind in ("roff", "pdf"):
        try:
            if os.path.getsize(path) > MAX_BYTES:
                return None
            with open(path, "rb") as fh:
                data = fh.read()
            if kind.endswith("+gz"):
                data, kind = gzip.decompress(data), kind[:-3]
        except (OSError, EOFError, ValueError):
            return None
        title = os.path.basename(path).split(".")[0]
        if kind == "pdf":
            return title, pdf_text(data)
        raw = decode(data)
        if kind == "html":
            return html_text(raw)[0] or title, html_text(raw)[1]
        if kind == "roff":
            return title, roff_text(raw)
        if kind == "json":
            return json_text(raw)[0] or title, json_text(raw)[1]
        return title, raw
    try:
        if os.path.getsize(path) > MAX_BYTES:
            return None
        if kind in ("docx", "xlsx", "pptx"):
            with zipfile.ZipFile(path) as zf:
                text = {"docx": docx_text, "xlsx": xlsx_text, "pptx": pptx_text}[kind](zf)
                title = _core_title(zf)
        else:
            with open(path, "rb") as fh:
                raw = decode(fh.read())
            if kind == "html":
                title, text = html_text(raw)
            elif kind == "json":
                title, text = json_text(raw)
            else:
                title, text = "", raw
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, ET.ParseError):
        return None
    if not title:
        title = os.path.splitext(os.path.basename(path))[0]
    return title, text


def iter_files(root: str, exclude: Tuple[str, ...] = (), include: Tuple[str, ...] = ()) -> Iterator[str]:
    """Paths of readable-format files under root, sorted.

    Like the product's filters: `exclude` globs skip any folder or file whose
    name matches (on top of the default folders); with `include` globs, a file
    is read only when its name matches one.
    """
    excluded = tuple(SKIP_DIRS) + tuple(exclude) + ("~$*",)

    def hit(name: str, patterns: Tuple[str, ...]) -> bool:
        return any(fnmatch.fnmatchcase(name, p) for p in patterns)

    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not hit(d, excluded))
        for name in sorted(filenames):
            if (kind_of(name) is not None and not hit(name, excluded)
                    and (not include or hit(name, include))):
                yield os.path.join(dirpath, name)


def iter_documents(root: str, exclude: Tuple[str, ...] = (),
                   include: Tuple[str, ...] = ()) -> Iterator[Tuple[str, str, str]]:
    """(path relative to root with '/', title, text) for every file `extract` can read."""
    for path in iter_files(root, exclude, include):
        got = extract(path)
        if got is not None:
            yield os.path.relpath(path, root).replace(os.sep, "/"), got[0], got[1]


def build(root: str, db: str, exclude: Tuple[str, ...] = (), include: Tuple[str, ...] = ()) -> dict:
    for suffix in ("", "-journal", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    start = time.perf_counter()
    conn = sqlite3.connect(db)
    conn.execute("CREATE VIRTUAL TABLE docs USING fts5(path UNINDEXED, title, body, "
                 "tokenize = 'porter unicode61 remove_diacritics 2')")
    chars = files = 0
    with conn:
        for rel, title, text in iter_documents(root, exclude, include):
            conn.execute("INSERT INTO docs(path, title, body) VALUES (?, ?, ?)", (rel, title, text))
            chars += len(text.encode("utf-8"))
            files += 1
    conn.close()
    seconds = time.perf_counter() - start
    return {"files": files, "seconds": round(seconds, 3), "text_mb": round(chars / 1e6, 2),
            "mb_per_s": round(chars / 1e6 / seconds, 2) if seconds else None,
            "db_bytes": os.path.getsize(db)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Bare one-process FTS5 index of a folder (the floor).")
    ap.add_argument("corpus")
    ap.add_argument("db")
    ap.add_argument("--exclude", action="append", default=[], help="folder or file name glob to skip")
    ap.add_argument("--include", action="append", default=[], help="read only files whose name matches")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    result = build(args.corpus, args.db, tuple(args.exclude), tuple(args.include))
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['files']} files, {result['text_mb']} MB of text in {result['seconds']} s "
              f"({result['mb_per_s']} MB/s); db {result['db_bytes'] / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
