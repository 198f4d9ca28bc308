"""verify finds damage to every derived structure; --repair rebuilds it from the passages."""
from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
import time

import pytest

import glean_personal
from helpers.files import write_tree
from helpers.templates import index_copy

FILES = {f"note{i}.md": f"# Note {i}\n\nEspresso grinder calibration step {i}. "
                        f"Shared phrase burr alignment appears here.\n" for i in range(6)}


def _build(home):
    db = home / "p.db"
    with glean_personal.open_index(db) as ix:
        ix.index(write_tree(home / "files", FILES))
        ix.link()
    return db


@pytest.fixture
def built(tmp_path, tmp_path_factory, store_kind):
    """A copy of FILES indexed and linked once per store kind; the folder is shared."""
    return index_copy(tmp_path_factory, "maintenance", store_kind, _build, tmp_path / "p.db")


def _damage(db, sql):
    conn = sqlite3.connect(db)
    conn.executescript(sql)
    conn.commit()
    conn.close()


DAMAGE = {
    "fulltext": {
        "fts5": "INSERT INTO passage_fts(passage_fts, rowid, title, heading, text, "
                "title_alt, heading_alt, text_alt) SELECT 'delete', id, title, heading, text, "
                "'', '', '' FROM passage_content WHERE id = 1;",
        "plain": "DELETE FROM plain_lengths WHERE passage_id = 1;",
    },
    "cross": {
        "any": "DELETE FROM doc_phrases WHERE document_id = 2; "
               "INSERT INTO links(a, b, score, evidence) VALUES (1, 999, 0.5, '{}'); "
               "UPDATE documents SET passages = 7 WHERE id = 3;",
    },
}


@pytest.mark.parametrize("area", ["fulltext", "cross"])
def test_damage_is_found_and_repaired(built, store_kind, area):
    sql = DAMAGE[area].get(store_kind) or DAMAGE[area]["any"]
    with glean_personal.open_index(built) as ix:
        assert ix.verify().ok
    _damage(built, sql)
    with glean_personal.open_index(built) as ix:
        report = ix.verify()
        assert not report.ok and report.problems[area]
        repaired = ix.verify(repair=True)
        assert repaired.ok, repaired.problems_after
        assert ix.verify().ok
        hits = ix.search("espresso grinder", limit=10).results
        assert len(hits) == len(FILES)


def test_verify_cli_exit_codes(built):
    _damage(built, "DELETE FROM doc_phrases WHERE document_id = 1;")
    run = [sys.executable, "-m", "glean_personal", "verify", "--db", str(built)]
    bad = subprocess.run(run, capture_output=True, text=True)
    assert bad.returncode == 3 and "problem (cross)" in bad.stdout
    fixed = subprocess.run(run + ["--repair"], capture_output=True, text=True)
    assert fixed.returncode == 0 and "consistent after repair" in fixed.stdout


def test_export_is_a_private_consistent_copy(built, tmp_path):
    dest = tmp_path / "copy" / "backup.db"
    old = os.umask(0)
    try:
        with glean_personal.open_index(built) as ix:
            done = ix.export(dest)
    finally:
        os.umask(old)
    assert done.bytes == dest.stat().st_size
    assert stat.S_IMODE(dest.stat().st_mode) == 0o600
    with glean_personal.open_index(dest, readonly=True) as copy:
        assert copy.verify().ok
        assert len(copy.search("burr alignment").results) == len(FILES)
    with glean_personal.open_index(built) as ix, pytest.raises(glean_personal.GleanError):
        ix.export(dest)  # never overwrites


def test_export_while_another_process_indexes(tmp_path, store_kind):
    root = write_tree(tmp_path / "big", {f"d{i:04}/n{i}.md": ("word%d alpha beta gamma. " % i) * 200
                                          for i in range(600)})
    db = tmp_path / "p.db"
    glean_personal.open_index(db).close()
    writer = subprocess.Popen([sys.executable, "-m", "glean_personal", "index", str(root),
                               "--db", str(db), "--quiet"])
    try:
        time.sleep(0.5)
        copies = []
        for n in range(3):
            dest = tmp_path / f"copy{n}.db"
            with glean_personal.open_index(db) as ix:
                ix.export(dest)
            copies.append(dest)
            time.sleep(0.3)
    finally:
        assert writer.wait(timeout=120) == 0
    for dest in copies:
        with glean_personal.open_index(dest, readonly=True) as copy:
            assert copy.verify().ok


def _hold_writer(db):
    """What an indexer mid-batch holds: the writer lock (flock) and SQLite's write lock."""
    import fcntl
    fd = os.open(db, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    conn = sqlite3.connect(str(db), isolation_level=None, check_same_thread=False)
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("UPDATE meta SET value = value WHERE key = 'store'")

    def release() -> None:
        conn.execute("COMMIT")
        conn.close()
        os.close(fd)
    return release


def test_verify_during_a_write_waits_for_it_and_never_calls_it_damage(built, monkeypatch):
    import threading
    from glean_personal.store import connection
    monkeypatch.setattr(connection, "BUSY_TIMEOUT_MS", 200)   # SQLite gives up at once
    release = _hold_writer(built)
    timer = threading.Timer(1.0, release)
    timer.start()
    try:
        with glean_personal.open_index(built, readonly=True) as ix:
            report = ix.verify()
    finally:
        timer.join()
    assert report.ok, report.problems


def test_verify_during_a_long_write_says_another_process_is_writing(built, monkeypatch):
    from glean_personal import api
    from glean_personal.errors import LockedError
    from glean_personal.store import connection
    monkeypatch.setattr(connection, "BUSY_TIMEOUT_MS", 200)
    monkeypatch.setattr(api, "WRITER_WAIT_SECONDS", 0.3)
    release = _hold_writer(built)
    try:
        with glean_personal.open_index(built, readonly=True) as ix:
            with pytest.raises(LockedError, match="another glean-personal process is writing"):
                ix.verify()
    finally:
        release()


def test_a_killed_export_never_leaves_a_partial_file_under_its_name(tmp_path):
    """SIGKILL the export the moment its file (or its private temporary) appears: the name
    asked for is then missing, or a whole copy; never a half-written file."""
    import random
    from helpers.corpora import REPO, stored
    root = write_tree(tmp_path / "big", {f"d{i % 20:02}/n{i}.md": ("word%d alpha beta. " % i) * 150
                                          for i in range(400)})
    db = tmp_path / "p.db"
    with glean_personal.open_index(db) as ix:
        ix.index(root)
    whole = stored(db)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    rng = random.Random(5)
    for trial in range(6):
        dest = tmp_path / "out" / f"copy{trial}.db"
        dest.parent.mkdir(exist_ok=True)
        proc = subprocess.Popen([sys.executable, "-m", "glean_personal", "export", str(dest),
                                 "--db", str(db)], env=env, stderr=subprocess.PIPE)
        while proc.poll() is None and not any(dest.parent.glob(f"*copy{trial}.db*")):
            time.sleep(0.0002)
        time.sleep(rng.uniform(0, 0.004))
        proc.kill()
        proc.communicate()
        if dest.exists():
            assert stored(dest) == whole, f"trial {trial}: a partial export at {dest}"
    with glean_personal.open_index(db) as ix:        # exporting again to each name
        for trial in range(6):                        # clears what the killed one left
            if not (tmp_path / "out" / f"copy{trial}.db").exists():
                ix.export(tmp_path / "out" / f"copy{trial}.db")
    assert [p.name for p in (tmp_path / "out").iterdir() if ".part" in p.name] == []
    assert all(stored(tmp_path / "out" / f"copy{t}.db") == whole for t in range(6))


def test_export_to_a_taken_name_is_a_usage_error_not_a_database_problem(built, tmp_path):
    """Exit 3 says the index is damaged or locked; a destination that already exists
    (or the index itself) is the caller's choice to change: exit 2, the index untouched."""
    taken = tmp_path / "taken.db"
    taken.write_text("keep me")
    for dest in (taken, tmp_path, built):
        done = subprocess.run([sys.executable, "-m", "glean_personal", "export", str(dest),
                               "--db", str(built)], capture_output=True, text=True)
        assert done.returncode == 2, (dest, done.stderr)
        assert done.stderr.count("\n") == 1 and done.stdout == ""
    assert taken.read_text() == "keep me"
    with glean_personal.open_index(built, readonly=True) as ix:
        assert ix.verify().ok
