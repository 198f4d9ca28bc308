"""Ctrl-C and SIGTERM: an interrupted command says so, never reports damage, never
prints a worker's traceback.

* Ctrl-C landing inside the SQL function that computes the FTS5 store's search
  forms: sqlite3 swallows the KeyboardInterrupt and fails the statement ("SQL
  logic error" from FTS5), which `verify` took for a damaged full-text index
  and `verify --repair` for an unusable one. The interrupt is raised again instead
  (and a check fails as damage only when a second check fails too).
* A worker forked while Ctrl-C or SIGTERM arrives: the parent holds both
  signals across the fork, and the worker sets its own dispositions (SIGINT
  ignored, SIGTERM the default) before it lets them in.

The faults are injected where they strike (a KeyboardInterrupt raised at a
chosen call of the search-form function), so the tests are deterministic.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sqlite3
import sys
from pathlib import Path

import pytest

import glean_personal
from glean_personal.config import DEFAULT_LIMITS, DEFAULT_PASSAGES
from glean_personal.store import connection
from glean_personal.store.schema import has_fts5
from glean_personal.workers import Pool

needs_fts5 = pytest.mark.skipif(not has_fts5(sqlite3.connect(":memory:")), reason="no FTS5 here")


def _index(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("GLEAN_PERSONAL_STORE", "fts5")
    folder = tmp_path / "notes"
    folder.mkdir()
    for i in range(12):
        (folder / f"n{i}.md").write_text(f"# Note {i}\n\nThe lantern_{i} harbour quartz.\n\n"
                                         f"## Part\n\nMarble orbit getValue{i} cobalt.\n")
    db = tmp_path / "db" / "personal.db"
    with glean_personal.open_index(db) as ix:
        ix.index(folder)
    return db


def _interrupt_at(monkeypatch, call: int) -> list:
    """Make the search-form function raise KeyboardInterrupt at its `call`-th call."""
    real = connection.alt_text
    calls = [0]

    def alt_text(value):
        calls[0] += 1
        if calls[0] == call:
            raise KeyboardInterrupt
        return real(value)
    monkeypatch.setattr(connection, "alt_text", alt_text)
    return calls


@needs_fts5
@pytest.mark.parametrize("repair", [False, True])
def test_ctrl_c_inside_the_search_form_function_is_an_interrupt_not_damage(tmp_path, monkeypatch, repair):
    db = _index(tmp_path, monkeypatch)
    calls = _interrupt_at(monkeypatch, 5)
    with glean_personal.open_index(db, readonly=not repair) as ix:
        with pytest.raises(KeyboardInterrupt):
            ix.verify(repair=repair)
    assert calls[0] >= 5
    monkeypatch.undo()
    with glean_personal.open_index(db) as ix:
        report = ix.verify()
        assert report.ok, report.to_dict()
        assert ix.search("harbour").results


@needs_fts5
def test_a_check_that_fails_once_is_run_again_before_it_is_called_damage(tmp_path, monkeypatch):
    """Ctrl-C striking as the function is entered escapes the function's own handler."""
    db = _index(tmp_path, monkeypatch)
    real = connection._alt_sql
    calls = [0]

    def entry_struck(value):
        calls[0] += 1
        if calls[0] == 4:
            raise KeyboardInterrupt   # before `_alt_sql` could note it
        return real(value)
    monkeypatch.setattr(connection, "_alt_sql", entry_struck)
    with glean_personal.open_index(db, readonly=True) as ix:
        report = ix.verify()
    assert calls[0] > 4
    assert report.ok, report.to_dict()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_worker_ignores_ctrl_c_and_dies_quietly_on_sigterm(monkeypatch):
    """Even forked from `watch`, whose handlers turn both into KeyboardInterrupt."""
    old_int = signal.signal(signal.SIGINT, signal.default_int_handler)
    old_term = signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        with Pool(DEFAULT_LIMITS, DEFAULT_PASSAGES, 1 << 20, processes=1) as pool:
            worker = pool._spawn()
            pool.workers.append(worker)
            # the parent's own mask is as it was: Ctrl-C still reaches it
            assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])
            status = _proc_status(worker.proc.pid, want_ignored=signal.SIGINT)
            assert _has(status["SigIgn"], signal.SIGINT)
            assert not _has(status["SigCgt"], signal.SIGTERM)
            assert not _has(status["SigBlk"], signal.SIGINT)
            assert not _has(status["SigBlk"], signal.SIGTERM)
    finally:
        signal.signal(signal.SIGINT, old_int)
        signal.signal(signal.SIGTERM, old_term)


def _has(mask_hex: str, sig: int) -> bool:
    return bool(int(mask_hex, 16) >> (int(sig) - 1) & 1)


def _proc_status(pid: int, want_ignored: int) -> dict:
    """The worker's signal masks, once it has set them up (it ignores SIGINT then)."""
    for _ in range(100000):
        try:
            text = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            break
        fields = dict(line.split(":\t", 1) for line in text.splitlines() if ":\t" in line)
        fields = {k: v.strip() for k, v in fields.items()}
        if _has(fields.get("SigIgn", "0"), want_ignored) and not _has(fields.get("SigBlk", "0"), want_ignored):
            return fields
    pytest.fail("the worker never finished setting up its signals")


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


@pytest.mark.parametrize("existing", [False, True])
def test_what_a_killed_creation_left_is_removed_by_the_next_writer(tmp_path, store_kind, existing):
    """`index` killed while it built a new index file leaves .NAME.PID.new (and its
    journal) in the private folder; the next command that writes removes them, but
    never one whose process still runs."""
    db = tmp_path / "private" / "personal.db"
    if existing:
        glean_personal.open_index(db).close()
    else:
        db.parent.mkdir(mode=0o700)
    dead, alive = _dead_pid(), os.getppid()
    left = [db.with_name(f".personal.db.{dead}.new"), db.with_name(f".personal.db.{dead}.new-journal")]
    running = db.with_name(f".personal.db.{alive}.new")
    for path in left + [running]:
        path.write_bytes(b"x")
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nharbour lantern\n")
    with glean_personal.open_index(db) as ix:
        ix.index(folder)
    assert not any(p.exists() for p in left)
    assert running.exists()
    left[0].write_bytes(b"x")
    with glean_personal.open_index(db, readonly=True) as ix:   # readers leave files alone
        assert ix.search("harbour").results
    assert left[0].exists()


def test_a_journal_with_nothing_to_roll_back_is_removed_by_the_next_reader(tmp_path, store_kind):
    """A writer killed after it made its journal but before it wrote the header leaves
    a journal SQLite does not count as hot; the next command, even a search, removes
    it, unless a writer holds the writers' lock (then the journal may be its own)."""
    import fcntl
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nharbour lantern\n")
    db = tmp_path / "private" / "personal.db"
    with glean_personal.open_index(db) as ix:
        ix.index(folder)
    journal = Path(str(db) + "-journal")
    fd = os.open(journal, os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, bytes(4096))   # as a killed writer leaves it: a zeroed header
    os.close(fd)
    held = os.open(db, os.O_RDONLY)
    try:
        fcntl.flock(held, fcntl.LOCK_EX)
        with glean_personal.open_index(db, readonly=True) as ix:
            assert ix.search("harbour").results
        assert journal.exists()
    finally:
        os.close(held)
    with glean_personal.open_index(db, readonly=True) as ix:
        assert ix.search("harbour").results
    assert not journal.exists()
    with glean_personal.open_index(db) as ix:
        assert ix.verify().ok


def test_a_full_disk_is_named_and_what_was_committed_stays(tmp_path, store_kind):
    """SQLite's SQLITE_FULL (here through max_page_count, as a full disk gives it)."""
    from glean_personal.errors import DatabaseError
    first, second = tmp_path / "first", tmp_path / "second"
    for folder, word in ((first, "harbour"), (second, "lantern")):
        folder.mkdir()
        for i in range(40):
            (folder / f"n{i}.md").write_text(f"# N{i}\n\n" + f"{word} quartz{i} marble. " * 400)
    db = tmp_path / "private" / "personal.db"
    with glean_personal.open_index(db) as ix:
        ix.index(first)
        pages = ix.store.conn.execute("PRAGMA page_count").fetchone()[0]
        ix.store.conn.execute(f"PRAGMA max_page_count = {pages + 2}")
        with pytest.raises(DatabaseError, match="no space left writing"):
            ix.index(second)
    with glean_personal.open_index(db) as ix:
        assert ix.verify().ok
        assert ix.search("harbour").results


@needs_fts5
@pytest.mark.parametrize("repair", [False, True])
def test_a_real_ctrl_c_during_a_rebuild_or_check_interrupts_it(tmp_path, monkeypatch, request, repair):
    """SIGINT delivered while the statement runs (raised from inside the function, so
    wherever Python handles it, it is within the statement)."""
    # Python's own handler, as a command started from a terminal has it: a test run
    # started in the background (`pytest &`, nohup) inherits SIGINT ignored, and then
    # neither Python nor the index installs one.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    request.addfinalizer(lambda: signal.signal(signal.SIGINT, previous))
    db = _index(tmp_path, monkeypatch)
    real = connection.alt_text
    calls, returned = [0], []

    def alt_text(value):
        calls[0] += 1
        if calls[0] == 6:
            signal.raise_signal(signal.SIGINT)
            returned.append(True)   # the index's handler ran, not Python's (which raises here)
        return real(value)
    monkeypatch.setattr(connection, "alt_text", alt_text)
    with glean_personal.open_index(db, readonly=not repair) as ix:
        with pytest.raises(KeyboardInterrupt):
            ix.verify(repair=repair)
    assert returned   # the index's handler took the signal…
    assert calls[0] <= 12   # …and SQLite's interrupt stopped the statement (a whole pass: 72 calls)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    monkeypatch.undo()
    with glean_personal.open_index(db) as ix:
        assert ix.verify().ok


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or sys.platform == "win32",
                    reason="POSIX signals")
def test_sigterm_stops_a_verb_as_ctrl_c_does(tmp_path, monkeypatch, capsys):
    """A plain `kill` ended `index` at once (exit 143, a journal left beside the
    file); it now stops the verb where it is, as Ctrl-C does: the open write is
    rolled back and the journal gone (lifecycle trial). The handler is the verb's
    only: the process's own is back afterwards."""
    import time
    from glean_personal.surfaces import cli, verbs
    db = _index(tmp_path, monkeypatch)
    journal = Path(str(db) + "-journal")

    def killed_mid_write(args):
        with glean_personal.open_index(db) as ix:
            with ix.store.transaction():
                ix.store.conn.execute("DELETE FROM passages")
                assert journal.exists()
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(5)   # the signal arrives at once; never reached
        return 0
    monkeypatch.setitem(verbs.VERBS, "status", killed_mid_write)
    before = signal.getsignal(signal.SIGTERM)
    assert cli.main(["status", "--db", str(db)]) == 143
    assert capsys.readouterr().err == "glean-personal: terminated\n"
    assert signal.getsignal(signal.SIGTERM) is before and not journal.exists()
    with glean_personal.open_index(db) as ix:
        assert ix.verify().ok and ix.search("harbour").results
