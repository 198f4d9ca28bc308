"""Incremental indexing (issue #3 item 4), on both store kinds, through the facade.

Unchanged size and mtime: not read. Same bytes, new mtime: "touched", not
re-extracted. New bytes: updated. Gone: removed. A filter change removes what
it now excludes; filters and the size limit are stored per source and a bare
re-index repeats them. The worker pool turns a reader that hangs, crashes or
runs out of memory into one skipped file.
"""
from __future__ import annotations

import gzip
import os
import sqlite3
import sys
import time
from pathlib import Path

import pytest

from glean_personal import formats
from glean_personal.api import open_index
from glean_personal.surfaces.cli import main
from glean_personal.config import Limits
from glean_personal.errors import NotFound, UsageError

OLD = 1_600_000_000_000_000_000   # an mtime long past: never "racily clean"


@pytest.fixture(params=["fts5", "plain"])
def kind(request):
    return request.param


@pytest.fixture()
def src(tmp_path):
    folder = tmp_path / "src"
    folder.mkdir()
    return folder


def put(folder: Path, rel: str, text: str, mtime_ns: int = OLD) -> Path:
    path = folder / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    os.utime(path, ns=(mtime_ns, mtime_ns))
    return path


def counts(report) -> dict:
    d = report.to_dict()
    return {k: d[k] for k in ("added", "updated", "touched", "unchanged", "removed") if d[k]}


def paths(ix, query: str):
    return sorted(h.document["path"] for h in ix.search(query, limit=20).results)


def rows(db: Path, sql: str):
    conn = sqlite3.connect(str(db))
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def test_unchanged_size_and_mtime_is_not_read(tmp_path, src, kind):
    path = put(src, "a.md", "original marmalade words")
    with open_index(tmp_path / "i.db", store=kind) as ix:
        assert counts(ix.index(src)) == {"added": 1}
        # New bytes of the same size behind the same mtime: only a read could notice.
        put(src, "a.md", "imposter tangerine words", OLD)
        assert path.stat().st_size == len("original marmalade words")
        assert counts(ix.index(src)) == {"unchanged": 1}
        assert paths(ix, "marmalade") == ["a.md"] and paths(ix, "tangerine") == []


def test_same_bytes_with_a_new_mtime_are_touched_not_re_extracted(tmp_path, src, kind):
    path = put(src, "a.md", "steady words")
    db = tmp_path / "i.db"
    with open_index(db, store=kind) as ix:
        ix.index(src)
        before = rows(db, "SELECT p.id, d.indexed_at FROM passages p JOIN documents d "
                          "ON d.id = p.document_id")
        os.utime(path, ns=(OLD + 10 ** 9, OLD + 10 ** 9))
        assert counts(ix.index(src)) == {"touched": 1}
        assert rows(db, "SELECT p.id, d.indexed_at FROM passages p JOIN documents d "
                        "ON d.id = p.document_id") == before
        assert rows(db, "SELECT mtime_ns FROM documents") == [(OLD + 10 ** 9,)]
        assert counts(ix.index(src)) == {"unchanged": 1}


def test_edited_files_are_updated_and_their_old_words_forgotten(tmp_path, src, kind):
    put(src, "a.md", "before quince")
    put(src, "b.md", "bystander words")
    with open_index(tmp_path / "i.db", store=kind) as ix:
        ix.index(src)
        put(src, "a.md", "after the edit: persimmon", OLD + 10 ** 9)
        assert counts(ix.index(src)) == {"updated": 1, "unchanged": 1}
        assert paths(ix, "persimmon") == ["a.md"]
        assert paths(ix, "quince") == []


def test_new_readers_read_every_file_again_once(tmp_path, src, kind, monkeypatch):
    from glean_personal import indexer
    put(src, "a.md", "steady words")
    put(src, "b.md", "other words")
    db = tmp_path / "i.db"
    with open_index(db, store=kind) as ix:
        ix.index(src)
        assert counts(ix.index(src)) == {"unchanged": 2}
        # A release whose readers read files differently: unchanged bytes are read again.
        monkeypatch.setattr(indexer, "READERS_REVISION", indexer.READERS_REVISION + 1)
        report = ix.index(src)
        assert counts(report) == {"updated": 2} and report.text_chars == len("steady wordsother words")
        assert counts(ix.index(src)) == {"unchanged": 2}
        assert paths(ix, "steady") == ["a.md"]
    # An index written before readers had a revision is read again once, too.
    conn = sqlite3.connect(str(db))
    with conn:
        conn.execute("DELETE FROM meta WHERE key LIKE 'readers_revision:%'")
    conn.close()
    with open_index(db, store=kind) as ix:
        assert counts(ix.index(src)) == {"updated": 2}
        assert counts(ix.index(src)) == {"unchanged": 2}
        ix.purge(all=True)   # a purged source leaves nothing of it behind
    assert rows(db, "SELECT count(*) FROM meta WHERE key LIKE 'readers_revision:%'") == [(0,)]


def test_vanished_files_are_removed(tmp_path, src, kind):
    put(src, "a.md", "doomed apricot")
    put(src, "b.md", "survivor words")
    with open_index(tmp_path / "i.db", store=kind) as ix:
        ix.index(src)
        (src / "a.md").unlink()
        assert counts(ix.index(src)) == {"removed": 1, "unchanged": 1}
        assert paths(ix, "apricot") == []
        with pytest.raises(NotFound):
            ix.fetch("a.md")


def test_a_racily_clean_file_is_checked_again(tmp_path, src, kind):
    """Written twice within one mtime tick, same size: size and mtime cannot tell."""
    now = time.time_ns()
    put(src, "a.md", "first draft words", now)
    with open_index(tmp_path / "i.db", store=kind) as ix:
        assert counts(ix.index(src)) == {"added": 1}
        assert counts(ix.index(src)) == {"unchanged": 1}    # checked, same bytes
        put(src, "a.md", "final draft words", now)          # same size, same mtime
        assert counts(ix.index(src)) == {"updated": 1}
        assert paths(ix, "final") == ["a.md"] and paths(ix, "first") == []


def test_a_filter_change_removes_what_it_now_excludes_and_is_remembered(tmp_path, src, kind):
    put(src, "a.md", "alpha words")
    put(src, "b.txt", "bravo words")
    put(src, "drafts/c.md", "charlie words")
    with open_index(tmp_path / "i.db", store=kind) as ix:
        assert counts(ix.index(src)) == {"added": 3}
        assert counts(ix.index(src, exclude=["drafts"])) == {"removed": 1, "unchanged": 2}
        assert counts(ix.index(src)) == {"unchanged": 2}        # the exclude is repeated
        assert counts(ix.index(src, include=["*.md"])) == {"removed": 1, "unchanged": 1}
        assert counts(ix.index(src)) == {"unchanged": 1}
        (source,) = ix.sources()
        assert (source["includes"], source["excludes"]) == (["*.md"], ["drafts"])
        assert counts(ix.index(src, include=[], exclude=[])) == {"added": 2, "unchanged": 1}


def test_max_bytes_is_stored_per_source(tmp_path, src, kind):
    put(src, "small.md", "tiny")
    put(src, "large.md", "large " * 100)
    with open_index(tmp_path / "i.db", store=kind) as ix:
        report = ix.index(src, max_bytes=100)
        assert counts(report) == {"added": 1}
        assert report.skipped == [{"path": "large.md",
                                   "reason": "larger than --max-bytes (600 > 100 bytes)"}]
        assert counts(ix.index(src)) == {"unchanged": 1}
        assert ix.sources()[0]["max_bytes"] == 100
        assert counts(ix.index(src, max_bytes=10_000)) == {"added": 1, "unchanged": 1}


def test_identical_content_at_two_paths_is_two_documents(tmp_path, src, kind):
    put(src, "one/copy.md", "duplicated walnut text")
    put(src, "two/copy.md", "duplicated walnut text")
    db = tmp_path / "i.db"
    with open_index(db, store=kind) as ix:
        assert counts(ix.index(src)) == {"added": 2}
        assert paths(ix, "walnut") == ["one/copy.md", "two/copy.md"]
        (src / "one" / "copy.md").unlink()
        assert counts(ix.index(src)) == {"removed": 1, "unchanged": 1}
        assert paths(ix, "walnut") == ["two/copy.md"]
    assert len(set(rows(db, "SELECT sha256 FROM documents"))) == 1


def test_default_excludes_are_not_indexed(tmp_path, src, kind):
    put(src, "kept.md", "kept words")
    for rel in (".git/x.md", "node_modules/p/x.md", "__pycache__/x.txt", "~$lock.docx",
                ".venv/x.md", "build/x.md"):
        put(src, rel, "hidden words")
    with open_index(tmp_path / "i.db", store=kind) as ix:
        report = ix.index(src)
        assert counts(report) == {"added": 1} and report.skipped == []
        assert paths(ix, "hidden") == []


def test_label_renames_a_source_and_cannot_be_stolen(tmp_path, src, kind):
    put(src, "a.md", "labelled words")
    other = tmp_path / "other"
    put(other, "b.md", "other words")
    with open_index(tmp_path / "i.db", store=kind) as ix:
        ix.index(src, label="first")
        assert counts(ix.index(src, label="second")) == {"unchanged": 1}
        assert [s["label"] for s in ix.sources()] == ["second"]
        assert [h.document["source"] for h in ix.search("labelled", source="second").results] \
            == ["second"]
        assert ix.search("labelled", source="first").results == []
        with pytest.raises(UsageError):
            ix.index(other, label="second")
        assert counts(ix.index(src)) == {"unchanged": 1}
        assert [s["label"] for s in ix.sources()] == ["second"]


def test_a_stolen_label_is_one_line_and_exit_code_2_on_the_command_line(tmp_path, src, capsys):
    put(src, "a.md", "words")
    other = tmp_path / "other"
    put(other, "b.md", "words")
    db = str(tmp_path / "i.db")
    assert main(["index", str(src), "--label", "mine", "--db", db, "--quiet"]) == 0
    assert main(["index", str(other), "--label", "mine", "--db", db]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "already names another folder" in err[0]


def test_a_folder_with_an_undecodable_name_is_indexed_and_found_again(tmp_path, kind):
    folder = os.path.join(os.fsencode(tmp_path), b"caf\xe9")
    os.mkdir(folder)
    with open(os.path.join(folder, b"a.md"), "wb") as fh:
        fh.write(b"undecodable folder words")
    with open_index(tmp_path / "i.db", store=kind) as ix:
        report = ix.index(os.fsdecode(folder))
        assert counts(report) == {"added": 1}
        assert report.root.endswith("caf\\xe9") and report.label == "caf\\xe9"
        assert counts(ix.index(os.fsdecode(folder))) == {"unchanged": 1}
        assert paths(ix, "undecodable") == ["a.md"]


# -- the worker pool: one bad file costs only itself -------------------------------
def _hostile_txt(data: bytes, limits):
    if data.startswith(b"HANG"):
        time.sleep(60)
    if data.startswith(b"NAP"):
        time.sleep(1.5)   # on the clock, as a busy machine makes a large file, but no CPU
    if data.startswith(b"SPIN"):
        while True:
            pass
    if data.startswith(b"CRASH"):
        os._exit(3)
    if data.startswith(b"GREEDY"):
        return bytearray(2_000_000_000)   # over the worker's memory ceiling
    if data.startswith(b"SURROGATE"):
        from glean_personal.document import Document, Section
        return Document(title="lone \ud800 title",
                        format="txt", sections=[Section((), "lone \udcff surrogate words")])
    return _REAL_TXT(data, limits)


_REAL_TXT = formats.READERS["txt"]


def test_a_reader_that_hangs_crashes_or_overeats_costs_only_its_file(tmp_path, src, kind,
                                                                      monkeypatch):
    monkeypatch.setitem(formats.READERS, "txt", _hostile_txt)
    for i in range(6):
        put(src, f"fine{i}.txt", f"fine words number{i}")
    put(src, "hang.txt", "HANG forever")
    put(src, "crash.txt", "CRASH now")
    put(src, "greedy.txt", "GREEDY for memory")
    put(src, "odd.txt", "SURROGATE text")
    # The hang never ends: only the budget can end it. 2 s is far more than the small
    # files need even on a busy machine, so none of them can be cut short by it.
    limits = Limits(file_seconds=2.0, file_wall_seconds=2.0, worker_memory_bytes=400_000_000)
    with open_index(tmp_path / "i.db", store=kind, limits=limits) as ix:
        report = ix.index(src)
        assert counts(report) == {"added": 7}
        skipped = {s["path"]: s["reason"] for s in report.skipped}
        assert skipped.pop("greedy.txt") in ("too large to read in memory",   # formats' words
                                             "needed more memory than a reader may use")
        assert skipped == {"hang.txt": "took too long to read (over 2 s)",
                           "crash.txt": "the reader crashed (exit code 3)"}
        assert paths(ix, "surrogate") == ["odd.txt"]
        assert ix.fetch("odd.txt").document["title"] == "lone \ufffd title"


def test_a_reader_is_timed_by_its_cpu_not_by_the_clock(tmp_path, src, kind, monkeypatch):
    """Which files an index holds must not depend on the machine's load: a reader
    that spends its budget computing is ended; one slowed by the clock is not."""
    if sys.platform == "win32":
        pytest.skip("no CPU-time ceiling: the clock is the only bound")
    monkeypatch.setitem(formats.READERS, "txt", _hostile_txt)
    put(src, "spin.txt", "SPIN forever")
    put(src, "nap.txt", "NAP then words napping")
    with open_index(tmp_path / "i.db", store=kind, limits=Limits(file_seconds=1.0)) as ix:
        report = ix.index(src)
        assert {s["path"]: s["reason"] for s in report.skipped} == {
            "spin.txt": "took too long to read (over 1 s of CPU time)"}
        assert paths(ix, "napping") == ["nap.txt"]


def test_workers_die_with_a_killed_indexer(tmp_path, src, monkeypatch):
    """A forked worker shares its parent's open files (the writer lock among them); if it
    outlived a killed indexer, stuck on a hostile file, the next `index` would wait on it."""
    import signal

    from glean_personal.config import DEFAULT_PASSAGES
    from glean_personal.workers import Pool, Task
    from helpers.corpora import holders
    if not sys.platform.startswith("linux"):
        pytest.skip("finds open files through /proc")
    monkeypatch.setitem(formats.READERS, "txt", _hostile_txt)
    hang = put(src, "hang.txt", "HANG forever")
    held = tmp_path / "held-by-the-indexer"
    pid = os.fork()
    if pid == 0:   # the indexer: holds a file, starts a worker on a file that never ends
        try:
            os.open(held, os.O_CREAT | os.O_RDWR)
            with Pool(Limits(file_seconds=120, file_wall_seconds=120), DEFAULT_PASSAGES,
                      1000) as pool:
                for _ in pool.run([Task("hang.txt", str(hang), None)]):
                    pass
        finally:
            os._exit(0)
    deadline = time.monotonic() + 60
    while len(holders(held)) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(holders(held)) == 2, "the worker did not start"
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    deadline = time.monotonic() + 30
    while holders(held) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert holders(held) == [], "a worker outlived its killed parent"


def test_the_pool_draws_tasks_lazily_from_a_slow_walk(tmp_path, src):
    """The indexer's walk goes on while workers read: tasks come from a generator,
    and a slow walk costs no reader its file."""
    from glean_personal.config import DEFAULT_PASSAGES
    from glean_personal.workers import Extracted, Pool, Task
    files = [put(src, f"f{i}.txt", f"words of file {i}") for i in range(3)]

    def slow_walk():
        for i, path in enumerate(files):
            if i:
                time.sleep(2.2)   # longer than a reader may take
            yield Task(path.name, str(path), None)

    # 2 s: far more than a small file needs even on a busy machine, less than the pauses
    with Pool(Limits(file_seconds=2.0, file_wall_seconds=2.0), DEFAULT_PASSAGES, 1000,
              processes=2) as pool:
        outcomes = {t.path: o for t, o in pool.run(slow_walk())}
    assert sorted(outcomes) == ["f0.txt", "f1.txt", "f2.txt"]
    assert all(isinstance(o, Extracted) for o in outcomes.values()), outcomes
    with Pool(Limits(), DEFAULT_PASSAGES, 1000, processes=2) as pool:
        assert [t.path for t, _ in pool.run(iter([Task("f0.txt", str(files[0]), None)]))] \
            == ["f0.txt"]
        assert len(pool.workers) == 1   # workers start only as there are files for them


def progress_of(db: Path, folder: Path) -> list:
    """Every (done, total) an index of the folder reports."""
    seen = []
    with open_index(db) as ix:
        ix.index(folder, progress=lambda done, total: seen.append((done, total)))
    return seen


def test_index_progress_counts_files_while_the_walk_goes_on_and_ends_complete(tmp_path, src):
    for i in range(5):
        put(src, f"n{i}.md", f"# Note {i}\n\nbody {i}")
    seen = progress_of(tmp_path / "i.db", src)
    assert seen[-1] == (5, 5)
    assert [d for d, _ in seen[:-1]] == list(range(1, len(seen)))
    assert all(t is None or d < t for d, t in seen[:-1])   # never "done" before the end


def test_the_walk_runs_ahead_so_the_total_is_known_early(tmp_path, src):
    for i in range(300):
        put(src, f"d{i // 20}/n{i}.md", f"note {i}")
    seen = progress_of(tmp_path / "i.db", src)
    known = [d for d, t in seen if t == 300]
    assert known and known[0] < 150, seen[:5]


def test_a_slow_stretch_of_walk_never_holds_a_batch_open(tmp_path, src, monkeypatch):
    """Workers read while the walk goes on, so written documents wait in an open
    transaction; a long stretch of unchanged files must still let it commit.

    No clock is read: the indexer's clock is one the walk moves, 0.05 s per
    unchanged file, and the walk waits (in real time, as long as it takes) until
    the workers have results to write before it reaches the unchanged stretch."""
    from types import SimpleNamespace

    from glean_personal import indexer
    for i in range(100):
        put(src, f"a{i:03}.md", f"note {i}")
    for i in range(40):
        put(src, f"z{i:03}.md", f"other {i}")
    started = tmp_path / "started.log"
    real_md = formats.READERS["md"]

    def logged_md(data, limits):   # runs in the (forked) workers
        fd = os.open(started, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        os.write(fd, b"x")
        os.close(fd)
        return real_md(data, limits)

    with open_index(tmp_path / "i.db") as ix:
        ix.index(src)
        for i in range(100):
            put(src, f"a{i:03}.md", f"note {i} edited")
        monkeypatch.setitem(formats.READERS, "md", logged_md)
        clock = [1000.0]
        monkeypatch.setattr(indexer, "time", SimpleNamespace(monotonic=lambda: clock[0],
                                                             time_ns=time.time_ns))
        monkeypatch.setattr(indexer, "BATCH_SECONDS", 0.3)
        in_transaction = []
        real_walk = indexer.walk

        def slow_walk(*args, **kwargs):
            for entry in real_walk(*args, **kwargs):
                path = getattr(entry, "path", "")
                if path == "a020.md":
                    # Some worker has begun its second file, so a result is on its way:
                    # the indexer writes it before the walk reaches the z files.
                    deadline = time.monotonic() + 120
                    while (not started.exists() or started.stat().st_size < 3) \
                            and time.monotonic() < deadline:
                        time.sleep(0.01)
                if path.startswith("z"):
                    clock[0] += 0.05
                    in_transaction.append(ix.store.conn.in_transaction)
                yield entry

        monkeypatch.setattr(indexer, "walk", slow_walk)
        report = ix.index(src)
    assert counts(report) == {"updated": 100, "unchanged": 40}
    assert True in in_transaction, "the scenario needs a batch open when the slow stretch starts"
    assert in_transaction[-1] is False


def test_a_generic_file_name_is_titled_with_its_folder(tmp_path, src, kind):
    # Every project has a README: "README" alone tells a reader of results
    # nothing, "README (zstd)" does. A heading of its own is kept as it is.
    put(src, "zstd/README.md", "Fast compression at many levels.\n")
    put(src, "pyenv/README.md", "Switch between Python versions per project.\n")
    put(src, "named/README.md", "# Named Project\n\nA README with a title of its own.\n")
    put(src, "CHANGELOG.md", "Version 2 adds levels.\n")
    # and as Debian keeps a package's papers, one folder a package
    put(src, "sqlite3/copyright", "Files: *\nLicense: public-domain\n")
    (src / "sqlite3" / "changelog.Debian.gz").write_bytes(
        gzip.compress(b"sqlite3 (3.40.1-2) bookworm; urgency=medium\n\n  * New upstream.\n"))
    with open_index(tmp_path / "i.db", store=kind) as ix:
        ix.index(src)
        titles = {h.document["path"]: h.title for h in ix.search(
            "compression OR versions OR title OR levels OR public OR upstream").results}
    assert titles == {"zstd/README.md": "README (zstd)", "pyenv/README.md": "README (pyenv)",
                      "named/README.md": "Named Project", "CHANGELOG.md": "CHANGELOG",
                      "sqlite3/copyright": "copyright (sqlite3)",
                      "sqlite3/changelog.Debian.gz": "changelog.Debian (sqlite3)"}


def test_a_root_that_goes_away_during_a_run_loses_nothing(tmp_path, src, kind):
    for i in range(6):
        put(src, f"d{i % 2}/n{i}.md", f"# Note {i}\n\nfirst draft {i} of the plan")
    aside = tmp_path / "unplugged"
    with open_index(tmp_path / "i.db", store=kind) as ix:
        ix.index(src)
        for i in range(6):
            put(src, f"d{i % 2}/n{i}.md", f"# Note {i}\n\nsecond draft {i}", OLD + 10 ** 9)

        def unplug(done, total):
            if done == 1 and src.exists():
                src.rename(aside)             # the drive is pulled while files are read
        report = ix.index(src, progress=unplug)
        assert report.missing and report.removed == 0
        assert "not there" in report.missing_reason
        assert ix.status().documents == 6
        assert ix.sources()[0]["missing_since"] is not None
        aside.rename(src)
        report = ix.index(src)
        assert not report.missing and report.removed == 0
        assert ix.status().documents == 6 and len(paths(ix, "second draft")) == 6


def test_a_file_that_cannot_be_read_now_keeps_its_indexed_version(tmp_path, src, kind):
    from office_factory import docx, para
    good = docx(para("The quarterly budget for the bicycle workshop."))
    (src / "budget.docx").write_bytes(good)
    os.utime(src / "budget.docx", ns=(OLD, OLD))
    put(src, "gone.md", "a note deleted later")
    db = tmp_path / "i.db"
    with open_index(db, store=kind) as ix:
        assert counts(ix.index(src)) == {"added": 2}
        [doc_id] = [r[0] for r in rows(db, "SELECT id FROM documents WHERE path = 'budget.docx'")]
        (src / "budget.docx").write_bytes(good[: len(good) // 2])   # half saved
        (src / "gone.md").unlink()            # gone from a folder that is there: removed
        report = ix.index(src)
        assert counts(report) == {"removed": 1}
        [skip] = [s for s in report.skipped if s["path"] == "budget.docx"]
        assert skip["reason"].endswith("; the indexed version is kept"), skip
        assert paths(ix, "quarterly budget") == ["budget.docx"]
        assert rows(db, "SELECT id FROM documents WHERE path = 'budget.docx'") == [(doc_id,)]
        # `index FILE` keeps it the same way; saved whole, it is read again.
        single = ix.index(src / "budget.docx")
        assert single.removed == 0 and single.skipped[0]["reason"].endswith("is kept")
        (src / "budget.docx").write_bytes(docx(para("The yearly budget, revised.")))
        assert counts(ix.index(src)) == {"updated": 1}
        assert rows(db, "SELECT id FROM documents WHERE path = 'budget.docx'") == [(doc_id,)]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file whatever its permissions")
def test_a_folder_without_read_permission_keeps_its_documents(tmp_path, src, kind):
    put(src, "locked/a.md", "secret plans")
    put(src, "locked/b.md", "more plans")
    put(src, "open.md", "open words")
    with open_index(tmp_path / "i.db", store=kind) as ix:
        ix.index(src)
        (src / "locked").chmod(0)
        try:
            report = ix.index(src)
        finally:
            (src / "locked").chmod(0o755)
        assert report.removed == 0 and ix.status().documents == 3
        assert any("2 files are kept" in s["reason"] for s in report.skipped), report.skipped


def interrupted_index(ix, folder: Path, after: int, monkeypatch, **options) -> None:
    """Index `folder`, stopped (as Ctrl-C or a kill would) once `after` documents
    are committed: every document is a batch of its own."""
    from glean_personal import indexer
    monkeypatch.setattr(indexer, "BATCH_DOCUMENTS", 1)

    def stop(done, total):
        if done == after:
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        ix.index(folder, progress=stop, **options)
    monkeypatch.setattr(indexer, "BATCH_DOCUMENTS", 400)


def test_a_stopped_first_index_picks_up_where_it_stopped(tmp_path, src, kind, monkeypatch):
    for i in range(8):
        put(src, f"n{i}.md", f"# Note {i}\n\nwords {i}")
    with open_index(tmp_path / "i.db", store=kind) as ix:
        interrupted_index(ix, src, 3, monkeypatch)
        stored = ix.status().documents
        assert 3 <= stored < 8
        report = ix.index(src)
        assert counts(report) == {"added": 8 - stored, "unchanged": stored}


@pytest.mark.parametrize("cause", ["new readers", "redaction switched"])
def test_a_stopped_re_read_picks_up_where_it_stopped(tmp_path, src, kind, monkeypatch, cause):
    """A re-read of every file (the readers changed, or redaction was switched) stopped
    midway is finished by the next run, which reads only what it had not; a redaction
    switch too, though the source's setting already says it."""
    from glean_personal import indexer
    for i in range(8):
        put(src, f"n{i}.md", f"# Note {i}\n\nwords {i}")
    with open_index(tmp_path / "i.db", store=kind) as ix:
        ix.index(src)
        if cause == "new readers":
            monkeypatch.setattr(indexer, "READERS_REVISION", indexer.READERS_REVISION + 1)
            interrupted_index(ix, src, 3, monkeypatch)
        else:
            interrupted_index(ix, src, 3, monkeypatch, redact=False)
        report = ix.index(src)
        done = report.unchanged
        assert 3 <= done < 8 and counts(report) == {"updated": 8 - done, "unchanged": done}
        assert counts(ix.index(src)) == {"unchanged": 8}


def test_a_file_renamed_or_moved_inside_its_source_keeps_its_document(tmp_path, src, kind):
    put(src, "inbox/plan.md", "# Plan\n\nthe walnut harvest plan")
    put(src, "draft.md", "# Draft\n\nthe chestnut roasting draft")
    put(src, "other.md", "# Other\n\nbystander words")
    db = tmp_path / "i.db"
    ids = "SELECT path, id FROM documents ORDER BY path"
    passages = "SELECT p.id, d.path FROM passages p JOIN documents d ON d.id = p.document_id"
    with open_index(db, store=kind) as ix:
        ix.index(src)
        before = dict(rows(db, ids))
        before_passages = {p: i for i, p in rows(db, passages)}
        (src / "archive").mkdir()
        (src / "inbox" / "plan.md").rename(src / "archive" / "plan.md")   # moved: same name
        (src / "draft.md").rename(src / "final.md")                       # renamed
        report = ix.index(src)
        assert counts(report) == {"unchanged": 1} and report.moved == 2
        assert sorted(report.changes) == [("moved", "archive/plan.md"), ("moved", "final.md")]
        after = dict(rows(db, ids))
        assert after == {"archive/plan.md": before["inbox/plan.md"],
                         "final.md": before["draft.md"], "other.md": before["other.md"]}
        # moved with its name: not read again, its passages kept
        assert {p: i for i, p in rows(db, passages)}["archive/plan.md"] \
            == before_passages["inbox/plan.md"]
        assert paths(ix, "walnut") == ["archive/plan.md"]
        assert paths(ix, "chestnut") == ["final.md"]
        assert counts(ix.index(src)) == {"unchanged": 3}
