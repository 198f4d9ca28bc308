"""Crash safety: SIGKILL the indexer at seeded random moments; nothing is lost or torn.

A corpus of a few thousand small text, Markdown and HTML files is generated
here. The command-line indexer is killed with SIGKILL again and again: during
the first index (each run picks up where the killed one stopped), then during
a re-index after edits (changed, same-size-changed, touched, deleted and new
files). After every kill:

* `PRAGMA integrity_check` and the full-text index's own integrity check pass
  (the next opener rolls back the hot journal the killed writer left);
* every document is whole: its passages equal a fresh extraction of either its
  old or its new bytes (read_document + workers.clean + split_document);
* no process still holds the index file open (the killed indexer's workers
  die with it, so they cannot keep its writer lock);
* a journal left behind is as private as the index (0600).

Each chain ends with an index run that completes, and its result must equal
what a clean index of the same files gives: the same (path, sha256, passages).

Seed: GLEAN_CRASH_SEED (default below); the delays used are in the assert
messages, so a failure can be replayed.
"""
from __future__ import annotations

import hashlib
import os
import random
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Set, Tuple

import pytest

from glean_personal.config import DEFAULT_LIMITS, DEFAULT_PASSAGES
from glean_personal.formats import read_document
from glean_personal.passages import split_document
from glean_personal.workers import clean
from test_security_harness import REPO, integrity_problems

SEED = int(os.environ.get("GLEAN_CRASH_SEED", "20261130"))
FILES = {"fts5": 3000, "plain": 2000}
KILLS_FIRST = {"fts5": 6, "plain": 3}
KILLS_REINDEX = {"fts5": 5, "plain": 3}
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
        import json
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


def index_command(corpus: Corpus, db: Path, kind: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(REPO), GLEAN_PERSONAL_STORE=kind)
    env.pop("GLEAN_PERSONAL_DB", None)
    return subprocess.Popen([sys.executable, "-m", "glean_personal", "index", str(corpus.root),
                             "--db", str(db), "--quiet"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def kill_after(corpus: Corpus, db: Path, kind: str, delay: float) -> bool:
    """Run the indexer; SIGKILL it after `delay` s. True if the kill landed."""
    proc = index_command(corpus, db, kind)
    try:
        proc.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return True
    _, err = proc.communicate()
    assert proc.returncode == 0, err.decode()
    return False


def kill_in_transaction(corpus: Corpus, db: Path, kind: str, nth: int, extra: float) -> bool:
    """Run the indexer; SIGKILL it `extra` s into its `nth` batch transaction (one whose
    rollback journal grows past 32 KB: a batch of documents, not a bookkeeping write).
    True if the kill landed."""
    journal = str(db) + "-journal"
    proc = index_command(corpus, db, kind)
    seen, counted = 0, False
    while proc.poll() is None:
        try:
            size = os.stat(journal).st_size
        except OSError:
            size = -1
        if size < 0:
            counted = False
        elif size > 32_768 and not counted:
            counted = True
            seen += 1
            if seen >= nth:
                time.sleep(extra)
                proc.kill()
                break
        time.sleep(0.001)
    _, err = proc.communicate()
    if proc.returncode == -9:
        return True
    assert proc.returncode == 0, err.decode()
    return False


def crash(corpus: Corpus, db: Path, kind: str, rng: random.Random, trial: int, full: float,
          scale: float) -> Tuple[bool, str]:
    """One seeded trial: every third kills at a random moment; the others inside the
    second or third batch transaction of the run (so some of its work is committed)."""
    if trial % 3 == 2:
        delay = rng.uniform(0.15, scale) * full
        return kill_after(corpus, db, kind, delay), f"after {delay:.3f} s"
    nth, extra = rng.randint(2, 3), rng.uniform(0, 0.005)
    return (kill_in_transaction(corpus, db, kind, nth, extra),
            f"{extra * 1000:.1f} ms into batch transaction {nth}")


def check_after_kill(corpus: Corpus, db: Path, where: str) -> dict:
    journal = Path(str(db) + "-journal")
    hot = journal.exists()
    if hot:
        assert journal.stat().st_mode & 0o777 == 0o600, where
    if sys.platform.startswith("linux"):
        deadline = time.monotonic() + 5
        while holders(db) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert holders(db) == [], f"{where}: a process outlived the killed indexer"
    if db.exists() and db.stat().st_size:
        assert integrity_problems(db) == [], where
    docs = stored(db)
    for path, version in docs.items():
        assert version in corpus.versions.get(path, set()), f"{where}: {path} is torn or stale"
    return {"documents": len(docs), "hot_journal": hot}


def clean_index(corpus: Corpus, db: Path, kind: str) -> Tuple[Dict[str, Version], float]:
    """A fresh, uninterrupted index of the same files, and how long it took."""
    started = time.monotonic()
    assert kill_after(corpus, db, kind, 300) is False
    return stored(db), time.monotonic() - started


def _remove(db: Path) -> None:
    for suffix in ("", "-journal"):
        if os.path.exists(str(db) + suffix):
            os.unlink(str(db) + suffix)


@pytest.mark.parametrize("kind", ["fts5", "plain"])
def test_sigkill_at_random_moments_loses_nothing(tmp_path, kind):
    rng = random.Random(SEED + (kind == "plain"))
    corpus = Corpus(tmp_path / "corpus", FILES[kind], rng)
    db = tmp_path / "db" / "personal.db"
    reference, full = clean_index(corpus, tmp_path / "clean1.db", kind)
    assert reference == corpus.current
    log = []

    # 1. Killed during the first index: each run resumes what the killed one left;
    #    a run that finishes is checked and the next trial starts from nothing again.
    for trial in range(KILLS_FIRST[kind]):
        landed, how = crash(corpus, db, kind, rng, trial, full, 0.95)
        where = f"first index, trial {trial}, seed {SEED}, killed {how}"
        log.append((where, landed, check_after_kill(corpus, db, where)))
        if not landed:
            assert stored(db) == reference, where
            _remove(db)
    assert kill_after(corpus, db, kind, 300) is False
    assert stored(db) == reference

    # 2. Killed during re-indexes after edits; a run that finishes meets new edits.
    corpus.edit()
    for trial in range(KILLS_REINDEX[kind]):
        landed, how = crash(corpus, db, kind, rng, trial, full, 0.6)
        where = f"re-index, trial {trial}, seed {SEED}, killed {how}"
        state = check_after_kill(corpus, db, where)
        state["current"] = stored(db) == corpus.current
        log.append((where, landed, state))
        if not landed:
            assert state["current"], where
            corpus.edit()
    assert kill_after(corpus, db, kind, 300) is False
    final = stored(db)
    assert final == corpus.current
    assert final == clean_index(corpus, tmp_path / "clean2.db", kind)[0]
    assert integrity_problems(db) == []

    # The kills must have landed mid-work, not only before or after it.
    journal = "\n".join(f"{'killed' if e[1] else 'finished'}: {e[0]}: {e[2]}" for e in log)
    first = [e for e in log if e[0].startswith("first")]
    again = [e for e in log if e[0].startswith("re-index")]
    assert len([e for e in first if e[1] and 0 < e[2]["documents"] < FILES[kind]]) >= 2, journal
    assert len([e for e in again if e[1] and not e[2]["current"]]) >= 2, journal
    assert len([e for e in log if e[2]["hot_journal"]]) >= 2, journal
    print(f"\n{kind}: {FILES[kind]} files, clean index {full:.2f} s; "
          f"{sum(1 for e in log if e[1])} of {len(log)} runs killed; "
          f"{sum(1 for e in log if e[2]['hot_journal'])} left a hot journal; "
          f"documents after each first-index kill {[e[2]['documents'] for e in first]}")
