"""Two processes at once: readers never see an error, writers take turns, nothing tears.

* Searches (through the facade and the command line) run in a loop while
  another process indexes a few thousand files: not one may fail.
* Two indexers at once: the second waits for the first (a writer lock on the
  index file), both succeed, and the result is what one clean index gives.
* A writer that waits too long gives up with exit code 3 and one line.
* A reader that meets a long write transaction waits it out (busy timeout).
"""
from __future__ import annotations

import fcntl
import os
import random
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from glean_personal import api
from glean_personal.api import open_index
from glean_personal.surfaces.cli import main
from helpers.corpora import Corpus, index_command, stored, writer_lock_held
from helpers.guard import REPO, integrity_problems


@pytest.fixture(params=["fts5", "plain"])
def kind(request):
    return request.param


def _env(kind: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(REPO), GLEAN_PERSONAL_STORE=kind)
    env.pop("GLEAN_PERSONAL_DB", None)
    return env


def _seed_index(tmp_path: Path, kind: str) -> Path:
    """An index that already holds one small source, so searches have something to find."""
    seed = tmp_path / "seed"
    seed.mkdir()
    (seed / "seed.md").write_text("# Seed\n\nthe seed document mentions lanterns")
    db = tmp_path / "db" / "personal.db"
    with open_index(db, store=kind) as ix:
        ix.index(seed)
    return db


def test_searches_never_fail_while_another_process_indexes(tmp_path, kind):
    corpus = Corpus(tmp_path / "corpus", 600, random.Random(7))   # 13+ command-line searches meet it
    db = _seed_index(tmp_path, kind)
    words = corpus.vocab[:200]
    errors, done = [], {"api": 0, "cli": 0}
    writer = index_command(corpus, db, kind)

    def cli_searches() -> None:
        while writer.poll() is None:
            proc = subprocess.run(
                [sys.executable, "-m", "glean_personal", "search", random.choice(words),
                 "--db", str(db), "--json"], env=_env(kind), capture_output=True, text=True)
            if proc.returncode != 0 or proc.stderr:
                errors.append(f"cli: {proc.returncode}: {proc.stderr.strip()}")
            done["cli"] += 1

    thread = threading.Thread(target=cli_searches)
    thread.start()
    rng = random.Random(3)
    try:
        while writer.poll() is None:
            try:
                with open_index(db, readonly=True) as ix:
                    result = ix.search(rng.choice(words) + " lanterns", limit=5)
                    assert result.results, "the seed document is always there"
                    ix.fetch(result.results[0].document["id"])
                    ix.sources()
                done["api"] += 1
            except Exception as exc:   # any error that would reach a user
                errors.append(f"api: {type(exc).__name__}: {exc}")
    finally:
        thread.join(60)
    _, err = writer.communicate()
    assert writer.returncode == 0, err.decode()
    assert errors == []
    assert done["api"] >= 10 and done["cli"] >= 2, done
    assert stored(db).keys() >= corpus.current.keys()
    assert integrity_problems(db) == []


def test_two_indexers_at_once_take_turns(tmp_path, kind):
    corpus = Corpus(tmp_path / "corpus", 1200 if kind == "fts5" else 500, random.Random(11))
    small = tmp_path / "small"
    small.mkdir()
    (small / "note.md").write_text("a small folder indexed while another index runs")
    db = _seed_index(tmp_path, kind)
    first = index_command(corpus, db, kind)
    deadline = time.monotonic() + 60                 # until the first holds the writer lock
    while not writer_lock_held(db) and first.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    second = subprocess.Popen([sys.executable, "-m", "glean_personal", "index", str(small),
                               "--db", str(db), "--json"], env=_env(kind),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    same = index_command(corpus, db, kind)          # and a third, on the same folder
    for proc in (first, second, same):
        _, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err.decode()
    # The small folder takes a fraction of a second alone, yet its document was written
    # after every one of the big folder's: it waited for the writer lock.
    conn = sqlite3.connect(str(db))
    try:
        ids = {label: [i for i, in conn.execute(
            "SELECT d.id FROM documents d JOIN sources s ON s.id = d.source_id "
            "WHERE s.label = ?", (label,))] for label in ("corpus", "small")}
    finally:
        conn.close()
    assert min(ids["small"]) > max(ids["corpus"]), "the second writer did not wait its turn"
    assert integrity_problems(db) == []
    docs = stored(db)
    assert {p: v for p, v in docs.items() if p in corpus.current} == corpus.current
    with open_index(db, readonly=True) as ix:
        assert sorted(s["label"] for s in ix.sources()) == ["corpus", "seed", "small"]


def test_a_writer_that_waits_too_long_exits_3_with_one_line(tmp_path, monkeypatch, capsys):
    db = _seed_index(tmp_path, "fts5")
    monkeypatch.setattr(api, "WRITER_WAIT_SECONDS", 0.3)
    holder = os.open(db, os.O_RDONLY)
    fcntl.flock(holder, fcntl.LOCK_EX)              # as another indexer would
    try:
        code = main(["index", str(tmp_path / "seed"), "--db", str(db)])   # gives up, 3
        purge = main(["purge", "--all", "--yes", "--db", str(db)])
    finally:
        os.close(holder)
    assert (code, purge) == (3, 3)
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 2 and all("another glean-personal process is writing" in line
                                   for line in lines), lines
    assert list(stored(db)) == ["seed.md"]           # and nothing was lost


def test_a_writer_that_must_wait_says_so_once_then_goes_on(tmp_path, monkeypatch):
    monkeypatch.setattr(api, "WRITER_WAIT_SECONDS", 20)
    db = _seed_index(tmp_path, "fts5")
    holder = os.open(db, os.O_RDONLY)
    fcntl.flock(holder, fcntl.LOCK_EX)              # as another indexer would
    told, releasers = [], []

    def tell(text: str) -> None:                    # the other writer finishes later
        told.append(text)
        releasers.append(threading.Timer(0.3, os.close, (holder,)))
        releasers[-1].start()
    with open_index(db) as ix:
        ix.on_writer_wait = tell
        ix.index(tmp_path / "seed")
    for r in releasers:
        r.join()
    assert len(told) == 1 and "another glean-personal process is writing" in told[0]
    assert "waiting for it (up to 20 s)" in told[0]


def test_a_reader_waits_out_a_long_write_transaction(tmp_path, kind):
    db = _seed_index(tmp_path, kind)
    other = sqlite3.connect(str(db), isolation_level=None, check_same_thread=False)
    other.execute("BEGIN EXCLUSIVE")                 # no reader may even start now
    releasing = threading.Event()

    def release() -> None:
        releasing.set()                              # before the COMMIT the reader waits for
        other.execute("COMMIT")
    releaser = threading.Timer(1.0, release)
    releaser.start()
    try:
        with open_index(db, readonly=True) as ix:
            hits = ix.search("lanterns").results
        waited = releasing.is_set()                  # it answered only after the release
    finally:
        releaser.join()
        other.close()
    assert [h.document["path"] for h in hits] == ["seed.md"]
    assert waited


def test_two_processes_creating_one_new_index_both_succeed(tmp_path):
    import multiprocessing
    ctx = multiprocessing.get_context("fork")
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.md").write_text("words")
    failures = []
    for trial in range(12):
        db = tmp_path / f"new{trial}.db"
        barrier, results = ctx.Barrier(2), ctx.Queue()
        procs = [ctx.Process(target=_create_and_index, args=(db, src, barrier, results))
                 for _ in range(2)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(300)
        failures += [r for r in (results.get(timeout=120), results.get(timeout=120)) if r != "ok"]
    assert failures == []


def _create_and_index(db, src, barrier, results) -> None:
    barrier.wait()
    try:
        with open_index(db) as ix:
            ix.index(src)
        results.put("ok")
    except Exception as exc:
        results.put(f"{type(exc).__name__}: {exc}")
