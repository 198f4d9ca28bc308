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
That is the corpus's own record of every file's current version, made with the
indexer's extraction (a clean index of the first files is checked against it).

Seed: GLEAN_CRASH_SEED (default below); the delays used are in the assert
messages, so a failure can be replayed.
"""
from __future__ import annotations

import os
import random
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, Optional, Tuple

import pytest

import glean_personal
from helpers.corpora import Corpus, Version, holders, index_command, stored
from helpers.guard import REPO, integrity_problems

SEED = int(os.environ.get("GLEAN_CRASH_SEED", "20261130"))
FILES = {"fts5": 2000, "plain": 2000}   # five batch transactions in a first index
KILLS_FIRST = {"fts5": 6, "plain": 3}
KILLS_REINDEX = {"fts5": 5, "plain": 3}



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
    seen = 0
    # The journal watched: [inode, size last seen, counted]. On a quiet machine one batch
    # commits and the next begins within a poll, so the journal is never seen missing:
    # a new inode, or a size smaller than the last seen, is the next transaction's.
    current: Optional[list] = None
    while proc.poll() is None:
        try:
            st = os.stat(journal)
        except OSError:
            current = None
        else:
            if current is None or st.st_ino != current[0] or st.st_size < current[1]:
                current = [st.st_ino, st.st_size, False]
            current[1] = st.st_size
            if st.st_size > 32_768 and not current[2]:
                current[2] = True
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
        deadline = time.monotonic() + 30
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
    #    The run after the last trial finishes whatever the kills left.
    for trial in range(KILLS_FIRST[kind]):
        landed, how = crash(corpus, db, kind, rng, trial, full, 0.95)
        where = f"first index, trial {trial}, seed {SEED}, killed {how}"
        log.append((where, landed, check_after_kill(corpus, db, where)))
        if not landed:
            assert stored(db) == reference, where
            if trial < KILLS_FIRST[kind] - 1:   # the next trial starts from nothing again
                _remove(db)                     # (after the last, building again adds nothing)
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
            if trial < KILLS_REINDEX[kind] - 1:   # the next trial meets new edits
                corpus.edit()
    assert kill_after(corpus, db, kind, 300) is False
    assert stored(db) == corpus.current   # what a clean index gives (as `reference` was)
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


# -- link, compact and purge killed mid-write --------------------------------------------------
def _verb(db: Path, kind: str, *args: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(REPO), GLEAN_PERSONAL_STORE=kind)
    env.pop("GLEAN_PERSONAL_DB", None)
    return subprocess.Popen([sys.executable, "-m", "glean_personal", *args, "--db", str(db)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def kill_while_writing(db: Path, kind: str, extra: Optional[float], *args: str) -> bool:
    """Run a verb; SIGKILL it `extra` s after its rollback journal appears (its write
    transaction is open; None: let it finish). True if the kill landed."""
    journal = str(db) + "-journal"
    proc = _verb(db, kind, *args)
    while extra is not None and proc.poll() is None:
        if os.path.exists(journal):
            time.sleep(extra)
            proc.kill()
            break
        time.sleep(0.0005)
    _, err = proc.communicate(timeout=600)
    if proc.returncode == -9:
        return True
    assert proc.returncode == 0, err.decode()
    return False


def _links(db: Path) -> int:
    conn = sqlite3.connect(str(db))
    try:
        return conn.execute("SELECT count(*) FROM links").fetchone()[0]
    finally:
        conn.close()


def _after(db: Path, where: str) -> None:
    if sys.platform.startswith("linux"):
        deadline = time.monotonic() + 30
        while holders(db) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert holders(db) == [], f"{where}: a process outlived the killed command"
    with glean_personal.open_index(db, readonly=True) as ix:   # opening rolls back
        report = ix.verify()
    assert report.ok, f"{where}: {report.problems}"
    assert integrity_problems(db) == [], where


@pytest.mark.parametrize("kind", ["fts5", "plain"])
def test_sigkill_during_link_compact_and_purge_leaves_before_or_after(tmp_path, kind):
    """Each of these writes in one transaction: killed anywhere in it, the index is the one
    before (the next run finishes the job) or, if it had committed, the one after."""
    rng = random.Random(SEED + 7 + (kind == "plain"))
    corpus = Corpus(tmp_path / "corpus", 500, rng)
    keep = tmp_path / "keep"
    keep.mkdir()
    (keep / "kept.md").write_text("# Kept\n\na second source that no purge here touches")
    base = tmp_path / "base.db"
    with glean_personal.open_index(base, store=kind) as ix:   # the starting point, in-process
        ix.index(corpus.root)
        ix.index(keep)
        ix.link(top_k=3)
    docs, links = stored(base), _links(base)
    kept = {p: v for p, v in docs.items() if p == "kept.md"}
    relinked = tmp_path / "relinked.db"
    shutil.copyfile(base, relinked)
    assert kill_while_writing(relinked, kind, None, "link", "--top-k", "8") is False
    links8 = _links(relinked)
    assert links8 != links

    landed = []
    cases = [("link", "--top-k", "8")] * 2 + [("compact",)] * 2 + [("purge", "corpus")] * 2
    for trial, args in enumerate(cases):
        db = tmp_path / f"t{trial}.db"
        shutil.copyfile(base, db)
        extra = rng.uniform(0, 0.02)
        where = f"{' '.join(args)}, trial {trial}, killed {extra * 1000:.1f} ms into its write"
        landed.append(kill_while_writing(db, kind, extra, *args))
        _after(db, where)
        now = stored(db)
        if args[0] == "purge":
            assert now in (docs, kept), f"{where}: half purged ({len(now)} documents)"
        else:
            assert now == docs, where
        assert _links(db) in {"link": (links, links8), "compact": (links,),
                              "purge": (links, 0)}[args[0]], where
        # and the next run finishes the job
        assert kill_while_writing(db, kind, None, *args) is False, where
        _after(db, where + ", then run again")
        assert stored(db) == (kept if args[0] == "purge" else docs), where
    assert sum(landed) >= 4, landed
