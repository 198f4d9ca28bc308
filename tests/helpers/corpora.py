"""Corpora of real files for the tests, and ways to read back what the index stored.

* `Corpus`: thousands of small seeded text, Markdown and HTML files, edited in
  place (changed, same-size-changed, touched, deleted, new) with every version
  a document may show remembered; `index_command` indexes it in a subprocess.
* `write_corpus`/`build_index`: six documents a person might keep, indexed.
* `stored`, `holders`: the index as SQLite holds it, and who holds it open.
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Set, Tuple

import pytest

import glean_personal
from glean_personal.config import DEFAULT_LIMITS, DEFAULT_PASSAGES
from glean_personal.formats import read_document
from glean_personal.passages import split_document
from glean_personal.workers import clean
from helpers.guard import REPO

OLD = 1_500_000_000_000_000_000

Version = Tuple[str, Tuple[Tuple[Tuple[str, ...], str], ...]]   # sha256, passages


def _words(rng: random.Random) -> List[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return ["".join(rng.choice(letters) for _ in range(rng.randint(3, 10))) for _ in range(4000)]


def _content(rng: random.Random, vocab: List[str], i: int, ext: str, tag: str = "") -> bytes:
    paras = [". ".join(" ".join(rng.choice(vocab) for _ in range(rng.randint(5, 14)))
                       for _ in range(rng.randint(1, 5))) for _ in range(rng.randint(2, 9))]
    if tag:
        paras[0] = f"{tag} {paras[0]}"
    if ext == ".txt":
        text = "\n\n".join(paras)
    elif ext == ".md":
        text = f"# Note {i} {tag}\n\n" + "\n\n".join(
            (f"## Part {k}\n\n" if k % 2 else "") + p for k, p in enumerate(paras))
    else:
        text = (f"<html><head><title>Page {i} {tag}</title></head><body><h1>Page {i}</h1>"
                + "".join(f"<p>{p}</p>" for p in paras) + "</body></html>")
    return text.encode()


def extract(rel: str, data: bytes) -> Version:
    """What a clean index stores for these bytes."""
    doc = clean(read_document(data, rel.rsplit("/", 1)[-1], DEFAULT_LIMITS))
    return (hashlib.sha256(data).hexdigest(),
            tuple((p.heading, p.text) for p in split_document(doc, DEFAULT_PASSAGES)))


class Corpus:
    def __init__(self, root: Path, n: int, rng: random.Random) -> None:
        self.root, self.rng = root, rng
        self.vocab = _words(rng)
        self.versions: Dict[str, Set[Version]] = {}   # every version a document may show
        self.current: Dict[str, Version] = {}
        self.clock = OLD
        for i in range(n):
            ext = (".txt", ".md", ".html")[i % 3]
            self.write(f"f{i % 40:02d}/n{i}{ext}", _content(rng, self.vocab, i, ext))

    def write(self, rel: str, data: bytes) -> None:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        self.touch(rel)
        version = extract(rel, data)
        self.versions.setdefault(rel, set()).add(version)
        self.current[rel] = version

    def touch(self, rel: str) -> None:
        self.clock += 1_000_000_007   # mtimes long past and all distinct: never racily clean
        os.utime(self.root / rel, ns=(self.clock, self.clock))

    def edit(self) -> dict:
        """Change, same-size-change, touch, delete and add files; return the counts."""
        rng = self.rng
        names = sorted(self.current)
        rng.shuffle(names)
        n = len(names) // 10
        changed, same_size = names[:2 * n], names[2 * n:3 * n]
        touched, deleted = names[3 * n:4 * n], names[4 * n:4 * n + n // 2]
        for rel in changed:
            ext = os.path.splitext(rel)[1]
            self.write(rel, _content(rng, self.vocab, 0, ext, tag="edited"))
        rot = bytes.maketrans(b"abcdefghijklmnopqrstuvwxyz", b"bcdefghijklmnopqrstuvwxyza")
        for rel in same_size:   # new words, same byte count (text between tags only)
            data = (self.root / rel).read_bytes()
            self.write(rel, re.sub(rb">([^<]*)<", lambda m: b">" + m.group(1).translate(rot) + b"<",
                                   data) if rel.endswith(".html") else data.translate(rot))
        for rel in touched:
            self.touch(rel)
        for rel in deleted:
            (self.root / rel).unlink()
            del self.current[rel]
        for i in range(n // 2):
            ext = (".txt", ".md", ".html")[i % 3]
            self.write(f"new/m{i}{ext}", _content(rng, self.vocab, i, ext, tag="fresh"))
        return {"changed": len(changed) + len(same_size), "touched": len(touched),
                "deleted": len(deleted), "added": n // 2}


def stored(db: Path) -> Dict[str, Version]:
    """path -> (sha256, passages) as the index holds them."""
    if not db.exists() or db.stat().st_size == 0:
        return {}
    conn = sqlite3.connect(str(db))
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        if "documents" not in tables:
            return {}
        out: Dict[str, list] = {}
        shas: Dict[str, str] = {}
        counts: Dict[str, int] = {}
        for path, sha, n in conn.execute("SELECT path, sha256, passages FROM documents"):
            shas[path], counts[path], out[path] = sha, n, []
        for path, heading, text in conn.execute(
                "SELECT d.path, p.heading, p.text FROM passages p "
                "JOIN documents d ON d.id = p.document_id ORDER BY d.path, p.ordinal"):
            out[path].append((tuple(json.loads(heading)), text))
        for path, n in counts.items():
            assert len(out[path]) == n, f"{path}: {len(out[path])} passages, row says {n}"
        return {path: (shas[path], tuple(out[path])) for path in out}
    finally:
        conn.close()


def holders(db: Path) -> List[str]:
    """Processes that hold the index file open (Linux: /proc)."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                try:
                    if os.readlink(f"/proc/{pid}/fd/{fd}") == str(db):
                        found.append(pid)
                except OSError:
                    continue
        except OSError:
            continue
    return found


def writer_lock_held(db: Path) -> bool:
    """Does some process hold the index's writer lock (a flock on the file; Linux: /proc/locks)?"""
    try:
        st = os.stat(db)
        with open("/proc/locks") as fh:
            table = fh.read().splitlines()
    except OSError:
        return False
    inode = f":{st.st_ino} "
    return any(" FLOCK " in f" {line} " and inode in line for line in table)


def index_command(corpus: Corpus, db: Path, kind: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(REPO), GLEAN_PERSONAL_STORE=kind)
    env.pop("GLEAN_PERSONAL_DB", None)
    return subprocess.Popen([sys.executable, "-m", "glean_personal", "index", str(corpus.root),
                             "--db", str(db), "--quiet"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


CORPUS = {
    "notes/espresso.md": (
        "# Espresso care\n\n"
        "Descale the espresso machine every month with citric acid, then run two "
        "rinse cycles of clean water before pulling the next shot.\n\n"
        "## Grinder\n\n"
        "Clean the burr grinder weekly; stale oils make the espresso bitter.\n"),
    "notes/roadmap.md": (
        "# Roadmap\n\n## Quarter one goals\n\nShip the offline sync engine and the "
        "conflict resolver.\n\n## Quarter two goals\n\nMigrate the billing service.\n"),
    "hr/salary.txt": "Salary bands for 2024 are set by the compensation committee each March.\n",
    "web/lisbon.html": (
        "<html><head><title>Lisbon trip</title></head><body><h1>Lisbon</h1>"
        "<p>Tram 28 climbs to the castle; pastel de nata at Belem.</p></body></html>"),
    "data/build.json": '{"title": "Build settings", "compiler": {"flags": "-O2 -g"}}',
    "notes/compost.md": "# Compost\n\n" + "\n\n".join(
        f"Compost pile note {i}: turn the compost heap and keep the compost moist; "
        "brown leaves balance green kitchen scraps in every layer of the heap." for i in range(40)),
}


def write_corpus(root: Path) -> Path:
    for rel, text in CORPUS.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def build_index(folder: Path, db: Path, kind: str) -> Path:
    """A real index of the corpus; GLEAN_PERSONAL_STORE picks the store kind at creation."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GLEAN_PERSONAL_STORE", kind)
        with glean_personal.open_index(db) as ix:
            ix.index(write_corpus(folder), label="notes")
            assert ix.store.kind == kind
    return db
