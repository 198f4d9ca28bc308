"""Moving, missing roots, purging, compacting and read-only files, through the Python API."""
from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import glean_personal
from glean_personal.errors import (DatabaseError, GleanError, NotFound, ReadOnlyError,
                                   UsageError)
from helpers.files import bump_mtime, write_tree

FILES = {
    "bikes/brakes.md": "# Brakes\n\nAdjust the brake cable tension before every ride.\n",
    "bikes/chains.md": "# Chains\n\nA stretched chain wears the cassette; measure chain wear.\n",
    "bikes/wheels.md": "# Wheels\n\nTruing a wheel needs a spoke key and patience.\n",
    "volunteers/roster.txt": "Saturday roster: Alice and Bob run the workshop.\n",
    "volunteers/induction.md": "# Induction\n\nEvery volunteer reads the safety notes.\n",
}


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _build(tmp_path: Path, name: str = "notes"):
    folder = write_tree(tmp_path / "old" / name, FILES)
    db = tmp_path / "p.db"
    with glean_personal.open_index(db) as ix:
        ix.index(folder, label=name)
    return folder, db


def _results(ix, query="chain wear brake spoke roster volunteer"):
    return sorted((h.document["id"], h.document["path"]) for h in ix.search(query, limit=20).results)


def test_sources_move_keeps_ids_and_reads_nothing_again(tmp_path, store_kind):
    folder, db = _build(tmp_path)
    with glean_personal.open_index(db) as ix:
        before = _results(ix)
    copy = tmp_path / "copy.db"
    shutil.copyfile(db, copy)
    new = tmp_path / "elsewhere" / "notes"
    new.parent.mkdir()
    shutil.move(str(folder), str(new))
    with glean_personal.open_index(copy) as ix:
        hits = ix.search("chain wear").results
        assert hits and hits[0].document["available"] is False
        [src] = ix.sources()
        assert src["available"] is False
        done = ix.move_source("notes", new)
        assert done.checked == len(FILES) and done.matched == len(FILES)
        assert _results(ix) == before
        hit = ix.search("chain wear").results[0]
        assert hit.document["available"] is True
        assert hit.document["url"].startswith(new.as_uri())
        report = ix.index(new)
        assert (report.added, report.updated, report.removed) == (0, 0, 0)
        assert report.text_chars == 0           # nothing extracted again
        assert [s["label"] for s in ix.sources()] == ["notes"]
        assert _results(ix) == before


def test_index_newpath_with_move_re_points_the_missing_source(tmp_path, store_kind):
    folder, db = _build(tmp_path)
    with glean_personal.open_index(db) as ix:
        before = _results(ix)
    new = tmp_path / "moved"
    shutil.move(str(folder), str(new))
    with glean_personal.open_index(db) as ix:
        assert [c["label"] for c in ix.moved_candidates(new)] == ["notes"]
        report = ix.index(new, move=True)
        assert report.moved_from == str(folder)
        assert (report.added, report.updated, report.removed) == (0, 0, 0)
        assert [(s["label"], s["root"]) for s in ix.sources()] == [("notes", str(new))]
        assert _results(ix) == before


def test_index_newpath_moves_by_itself_only_when_unambiguous(tmp_path, store_kind):
    folder, db = _build(tmp_path)
    twin = write_tree(tmp_path / "old" / "twin", FILES)
    with glean_personal.open_index(db) as ix:
        ix.index(twin, label="twin")
    new = tmp_path / "moved"
    shutil.copytree(folder, new)
    shutil.rmtree(folder)
    shutil.rmtree(twin)
    with glean_personal.open_index(db) as ix:
        with pytest.raises(UsageError, match="more than one missing source"):
            ix.index(new)                      # two missing sources hold these files
        report = ix.index(new, label="twin")   # a label settles it
        assert report.moved_from == str(twin) and report.added == 0
        assert len(ix.sources()) == 2


def test_a_folder_that_does_not_match_is_not_taken_for_a_move(tmp_path, store_kind):
    folder, db = _build(tmp_path)
    other = write_tree(tmp_path / "other", {"bikes/brakes.md": "something else entirely\n"})
    shutil.rmtree(folder)
    with glean_personal.open_index(db) as ix:
        with pytest.raises(GleanError, match="0 of 5 sampled files match"):
            ix.move_source("notes", other)
        assert ix.sources()[0]["root"] == str(folder)
        with pytest.raises(GleanError, match="nothing changed"):
            ix.index(other, move=True)
        report = ix.index(other)
        assert report.label == "other" and report.added == 1


def test_a_missing_root_is_kept_until_purged(tmp_path, store_kind):
    folder, db = _build(tmp_path)
    aside = tmp_path / "aside"
    folder.rename(aside)
    with glean_personal.open_index(db) as ix:
        report = ix.index(folder)
        assert report.missing and report.removed == 0
        [reports] = ix.index_all()
        assert reports.missing
        [src] = ix.sources()
        assert src["documents"] == len(FILES) and src["missing_since"] is not None
        assert ix.status().documents == len(FILES)
        aside.rename(folder)                   # plugged back in
        report = ix.index(folder)
        assert not report.missing and report.added == 0
        assert ix.sources()[0]["missing_since"] is None
        folder.rename(aside)
        done = ix.purge("notes")
        assert done.documents == len(FILES) and ix.sources() == []


def test_an_empty_mount_point_does_not_empty_a_source(tmp_path, store_kind):
    folder, db = _build(tmp_path)
    shutil.rmtree(folder)
    folder.mkdir()                            # the drive's mount point, drive unplugged
    with glean_personal.open_index(db) as ix:
        assert ix.index(folder).missing
        assert ix.status().documents == len(FILES)


def test_purge_needs_a_source_or_all(tmp_path, store_kind):
    folder, db = _build(tmp_path)
    with glean_personal.open_index(db) as ix:
        with pytest.raises(UsageError):
            ix.purge()
        with pytest.raises(NotFound):
            ix.purge("nope")
        assert ix.status().documents == len(FILES)
        done = ix.purge(all=True)
        assert done.sources == ["notes"] and done.documents == len(FILES)
        assert ix.status().documents == 0


@pytest.mark.parametrize("named", ["{folder}", "{folder}/", "./notes", "notes/", "notes",
                                   "{folder}/../notes"])
def test_purge_takes_the_folder_as_a_person_writes_it(tmp_path, store_kind, monkeypatch, named):
    """docs/api.md: "one source (label or folder)"; only the absolute path exactly as
    stored was taken (a relative folder, or a trailing slash as tab completion
    writes it, was "no indexed source named …")."""
    folder, db = _build(tmp_path)
    monkeypatch.chdir(folder.parent)
    with glean_personal.open_index(db) as ix:
        ix.index(folder, label="mine")
        done = ix.purge(named.format(folder=folder))
        assert done.sources == ["mine"] and done.documents == len(FILES)
        assert ix.sources() == []


def test_compact_gives_back_what_a_purge_freed(tmp_path, store_kind):
    big = {f"doc{i}.md": f"# Doc {i}\n\n" + ("unique words here %d " % i) * 400 for i in range(60)}
    folder = write_tree(tmp_path / "big", big)
    db = tmp_path / "p.db"
    with glean_personal.open_index(db) as ix:
        ix.index(folder)
        done = ix.purge("big")
        assert done.reclaimable_bytes > 0 and done.suggest_compact
        assert ix.status().reclaimable_bytes == done.reclaimable_bytes
        result = ix.compact()
        assert result.reclaimed_bytes > 0 and result.db_bytes < result.db_bytes_before
        assert ix.status().reclaimable_bytes == 0
        assert ix.verify().ok
    assert not Path(str(db) + "-journal").exists()


def test_read_only_refuses_every_write(tmp_path, store_kind):
    folder, db = _build(tmp_path)
    digest = _digest(db)
    with glean_personal.open_index(db, readonly=True) as ix:
        for write in (lambda: ix.purge("notes"), lambda: ix.purge(all=True),
                      lambda: ix.index(folder), lambda: ix.link(), lambda: ix.compact(),
                      lambda: ix.move_source("notes", folder),
                      lambda: ix.verify(repair=True)):
            with pytest.raises(ReadOnlyError, match="read-only"):
                write()
        assert ix.status().documents == len(FILES)
    assert _digest(db) == digest


def test_verify_on_an_unwritable_file_checks_what_it_can(tmp_path, store_kind):
    folder, db = _build(tmp_path)
    db.chmod(0o444)
    try:
        with glean_personal.open_index(db) as ix:   # even asked for writing
            assert ix.readonly
            report = ix.verify()
            assert report.ok and report.read_only
            with pytest.raises(ReadOnlyError):
                ix.purge("notes")
        run = subprocess.run([sys.executable, "-m", "glean_personal", "verify", "--db", str(db)],
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        assert "read-only" in run.stdout and "--repair" not in run.stdout.split("read-only")[0]
    finally:
        db.chmod(0o600)


def test_a_missing_folder_leaves_no_index_file(tmp_path, store_kind):
    db = tmp_path / "sub" / "p.db"
    with glean_personal.open_index(db) as ix:
        with pytest.raises(NotFound):
            ix.index(tmp_path / "no-such-folder")
    assert not db.exists()
    run = subprocess.run([sys.executable, "-m", "glean_personal", "index",
                          str(tmp_path / "nope"), "--db", str(db)], capture_output=True, text=True)
    assert run.returncode == 1 and not db.exists()
    for verb in (["watch", tmp_path / "nope"], ["purge", "typo"], ["sources", "move", "x", tmp_path]):
        run = _cli(*verb, "--db", db)
        assert run.returncode in (1, 2) and not db.exists(), (verb, run.stderr)


@pytest.mark.parametrize("content", [b"", b"hello, not a database\n" * 50,
                                     b"SQLite format 3\x00" + b"\x00" * 200])
def test_an_empty_or_foreign_file_never_becomes_an_index(tmp_path, content):
    db = tmp_path / "p.db"
    db.write_bytes(content)
    for readonly in (False, True):
        with pytest.raises(DatabaseError):
            glean_personal.open_index(db, readonly=readonly)
    for verb in (["status"], ["index", str(tmp_path)]):
        run = subprocess.run([sys.executable, "-m", "glean_personal", *verb, "--db", str(db)],
                             capture_output=True, text=True)
        assert run.returncode == 3 and "Traceback" not in run.stderr
    assert db.read_bytes() == content


def test_index_one_file_in_the_source_that_holds_it(tmp_path, store_kind):
    folder, db = _build(tmp_path)
    (folder / "bikes" / "pedals.md").write_text("# Pedals\n\nGrease the pedal threads.\n")
    (folder / "bikes" / "saddles.md").write_text("# Saddles\n\nSaddle height matters.\n")
    with glean_personal.open_index(db) as ix:
        report = ix.index(folder / "bikes" / "pedals.md")
        assert (report.label, report.added, report.changes) == ("notes", 1, [("added", "bikes/pedals.md")])
        assert ix.search("saddle").results == []
        (folder / "bikes" / "pedals.md").write_text("# Pedals\n\nClipless pedals need cleats.\n")
        bump_mtime(folder / "bikes" / "pedals.md")
        assert ix.index(folder / "bikes" / "pedals.md").updated == 1
        (folder / "bikes" / "pedals.md").unlink()
        assert ix.index(folder / "bikes" / "pedals.md").removed == 1
        with pytest.raises(NotFound):
            ix.index(tmp_path / "elsewhere.md")


def test_a_source_kept_by_a_link_takes_its_files_and_folder_by_their_real_paths(
        tmp_path, store_kind):
    """A source indexed as a link to its folder (`~/notes` → `/data/notes`): one of its
    files, or the folder, written by the real path was "not inside any indexed folder"
    and "no indexed source named …"."""
    real = write_tree(tmp_path / "data" / "notes", FILES)
    link = tmp_path / "notes"
    link.symlink_to(real)
    with glean_personal.open_index(tmp_path / "p.db") as ix:
        ix.index(link, label="mine")
        (real / "bikes" / "pedals.md").write_text("# Pedals\n\nGrease the pedal threads.\n")
        report = ix.index(real / "bikes" / "pedals.md")
        assert (report.label, report.changes) == ("mine", [("added", "bikes/pedals.md")])
        assert [h.document["path"] for h in ix.search("pedal threads").results] == [
            "bikes/pedals.md"]
        done = ix.purge(str(real))
        assert done.sources == ["mine"] and ix.sources() == []


def test_the_graph_follows_index_and_purge(tmp_path, store_kind):
    groups = ["derailleur hanger alignment", "sprocket tension gauge", "tubeless sealant valve"]
    files = {f"n{i}.md": f"# Note {i}\n\n{groups[i % 3]} topic{i} words{i}\n" for i in range(6)}
    folder = write_tree(tmp_path / "g", files)
    db = tmp_path / "p.db"
    with glean_personal.open_index(db) as ix:
        ix.index(folder)
        ix.link()
        (folder / "new.md").write_text(f"# New\n\n{groups[0]} fresh\n")
        report = ix.index(folder)
        assert report.graph["mode"] in ("incremental", "relinked")
        related = ix.related("new.md")
        assert {n.document["path"] for n in related.neighbours} == {"n0.md", "n3.md"}
        assert not related.stale
        (folder / "n0.md").unlink()
        ix.index(folder)
        left = {n.document["path"] for d in ("n3.md", "new.md") for n in ix.related(d).neighbours}
        assert "n0.md" not in left and "n3.md" in left
        assert not ix.status().graph["stale"]
        assert ix.verify().ok


def _cli(*args):
    run = subprocess.run([sys.executable, "-m", "glean_personal", *map(str, args)],
                         capture_output=True, text=True, stdin=subprocess.DEVNULL)
    return run


def _search_json(db, query="chain wear brake spoke roster volunteer"):
    import json
    run = _cli("search", query, "--limit", "20", "--json", "--db", db)
    assert run.returncode == 0, run.stderr
    return [(r["document"]["id"], r["document"]["path"], r["url"], r["document"]["available"])
            for r in json.loads(run.stdout)["results"]]


@pytest.mark.parametrize("how", ["sources move", "index --move", "index, not on a terminal"])
def test_copy_the_db_move_the_folder_and_carry_on(tmp_path, store_kind, how):
    import json
    folder, db = _build(tmp_path)   # as `index` on the command line would (its label: "notes")
    before = _search_json(db)
    copy = tmp_path / "copy.db"
    shutil.copyfile(db, copy)
    new = tmp_path / "new" / "notes"
    new.parent.mkdir()
    shutil.move(str(folder), str(new))
    assert all(not avail for *_, avail in _search_json(copy))     # not on this machine
    if how == "sources move":
        run = _cli("sources", "move", "notes", new, "--db", copy)
        assert run.returncode == 0, run.stderr
        assert "5 of 5 sampled files matched" in run.stdout
        run = _cli("index", new, "--json", "--db", copy)
    elif how == "index --move":
        run = _cli("index", new, "--move", "--json", "--db", copy)
    else:   # one missing source matches: moved without asking
        run = _cli("index", new, "--json", "--db", copy)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert (report["added"], report["updated"], report["removed"], report["text_chars"]) == (0, 0, 0, 0)
    after = _search_json(copy)
    assert [(i, p) for i, p, _, _ in after] == [(i, p) for i, p, _, _ in before]
    assert all(url.startswith(new.as_uri()) and avail for _, _, url, avail in after)
    sources = json.loads(_cli("sources", "--json", "--db", copy).stdout)
    assert [(s["label"], s["root"]) for s in sources] == [("notes", str(new))]


def test_purge_from_the_command_line_needs_a_source_or_all(tmp_path, store_kind):
    folder, db = _build(tmp_path)
    run = _cli("purge", "--db", db)
    assert run.returncode == 2 and "--all" in run.stderr
    run = _cli("purge", "--all", "--db", db)      # not a terminal: no question
    assert run.returncode == 0 and "Removed 5 documents of 1 source" in run.stdout
    assert str(folder) in run.stdout


def test_status_and_sources_say_missing_since(tmp_path, store_kind):
    folder, db = _build(tmp_path)
    folder.rename(tmp_path / "aside")
    run = _cli("index", folder, "--db", db)
    assert run.returncode == 0 and "not on this machine" in run.stdout
    for verb in ("status", "sources"):
        run = _cli(verb, "--db", db)
        assert run.returncode == 0 and "missing since" in run.stdout, run.stdout
    run = _cli("index", "--db", db)                # every source: the missing one is kept
    assert run.returncode == 0 and "its documents are kept" in run.stdout
    with glean_personal.open_index(db, readonly=True) as ix:
        assert ix.status().documents == len(FILES)


def test_a_read_only_copy_answers_and_refuses_writes_from_the_command_line(tmp_path, store_kind):
    folder, db = _build(tmp_path)
    copy = tmp_path / "ro" / "copy.db"
    copy.parent.mkdir()
    shutil.copyfile(db, copy)
    copy.chmod(0o444)
    digest = _digest(copy)
    try:
        assert _search_json(copy)
        run = _cli("status", "--db", copy)
        assert run.returncode == 0 and "read-only" in run.stdout
        for verb in (["index", folder], ["purge", "notes"], ["compact"], ["link"],
                     ["sources", "move", "notes", folder]):
            run = _cli(*verb, "--db", copy)
            assert run.returncode == 3 and "read-only" in run.stderr, (verb, run.stderr)
            assert "Traceback" not in run.stderr
    finally:
        copy.chmod(0o600)
    assert _digest(copy) == digest


def _fts5_segments(db) -> int:
    """How many segments FTS5's structure record lists (4-byte cookie, then the varints
    nLevel and nSegment)."""
    import sqlite3
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        block = conn.execute("SELECT block FROM passage_fts_data WHERE id = 10").fetchone()[0]
    values, value = [], 0
    for byte in block[4:]:
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            values.append(value)
            value = 0
            if len(values) == 2:
                return values[1]
    raise AssertionError("no structure record")


def test_an_index_run_that_changed_much_leaves_one_full_text_segment(tmp_path, monkeypatch):
    # Each run's words land in a new segment that every search reads: a run that
    # changed a tenth of the documents or more merges them; a small refresh leaves
    # them to FTS5's own merging.
    monkeypatch.setenv("GLEAN_PERSONAL_STORE", "fts5")
    folder = write_tree(tmp_path / "notes", {f"n{i}.md": f"# Note {i}\n\nWord{i} and shared text.\n"
                                             for i in range(40)})
    db = tmp_path / "p.db"
    with glean_personal.open_index(db) as ix:
        ix.index(folder)
    for i in range(8):   # a fifth of the notes
        (folder / f"n{i}.md").write_text(f"# Note {i}\n\nRevised{i} and shared text.\n",
                                         encoding="utf-8")
        bump_mtime(folder / f"n{i}.md")
    with glean_personal.open_index(db) as ix:
        assert ix.index(folder).updated == 8
    assert _fts5_segments(db) == 1
    (folder / "extra.md").write_text("# Extra\n\nOne more note.\n", encoding="utf-8")
    with glean_personal.open_index(db) as ix:
        ix.index(folder)
        assert {h.title for h in ix.search("revised3 extra").results} == {"Note 3", "Extra"}
    assert _fts5_segments(db) == 2


def test_a_name_that_is_not_utf8_has_its_own_url_and_is_on_this_machine(tmp_path, store_kind):
    """Such a name is stored escaped (`caf\\xe9 \\xff.md`); its URL, `available`, a fetch by
    that URL and `sources move` reach the real file, not one named with backslashes."""
    import os
    from urllib.parse import quote_from_bytes
    folder = tmp_path / "notes"
    folder.mkdir()
    raw = os.path.join(os.fsencode(folder), b"caf\xe9 \xff.md")
    with open(raw, "wb") as fh:
        fh.write(b"# Ledger\n\nThe lanternfish ledger of the harbour.\n")
    with glean_personal.open_index(tmp_path / "p.db") as ix:
        assert ix.index(folder).added == 1
        [hit] = ix.search("lanternfish").results
        doc = hit.document
        assert doc["path"] == "caf\\xe9 \\xff.md"
        assert doc["url"] == "file://" + quote_from_bytes(raw)
        assert doc["available"] is True
        assert ix.fetch(doc["url"]).document["id"] == doc["id"]
        assert ix.fetch(doc["path"]).document["available"] is True
        new = tmp_path / "moved"
        shutil.move(str(folder), str(new))
        done = ix.move_source("notes", new)
        assert (done.checked, done.matched, done.missing) == (1, 1, 0)
        moved = ix.search("lanternfish").results[0].document
        assert moved["available"] is True
        assert moved["url"] == "file://" + quote_from_bytes(os.fsencode(new) + b"/caf\xe9 \xff.md")


def test_a_source_whose_folder_name_is_not_utf8_is_refreshed_not_missing(tmp_path, store_kind):
    """Its root is stored escaped (`caf\\xe9 notes`): a bare re-index (index_all, `watch`)
    took that text for the folder, found none, and marked the source missing forever."""
    import os
    raw = os.path.join(os.fsencode(tmp_path), b"caf\xe9 notes")
    os.mkdir(raw)
    note = os.path.join(raw, b"n.md")
    with open(note, "w") as fh:
        fh.write("# Note\n\nThe quokka of the harbour.\n")
    with glean_personal.open_index(tmp_path / "p.db") as ix:
        first = ix.index(os.fsdecode(raw))
        assert first.added == 1 and first.root.endswith("caf\\xe9 notes")
        with open(note, "a") as fh:
            fh.write("\nA lanternfish too.\n")
        bump_mtime(Path(os.fsdecode(note)))
        [again] = ix.index_all()
        assert again.missing_since is None and again.updated == 1
        assert [s["available"] for s in ix.sources()] == [True]
        assert ix.search("lanternfish").results[0].document["available"] is True


@pytest.mark.parametrize("leftover", ["dsstore", "lost+found", "stray"])
def test_a_mount_point_with_something_left_in_it_does_not_empty_a_source(
        tmp_path, store_kind, leftover):
    folder, db = _build(tmp_path)
    folder.rename(tmp_path / "unplugged")
    folder.mkdir()                            # the drive's mount point, drive unplugged
    if leftover == "dsstore":
        (folder / ".DS_Store").write_bytes(b"\0\0\0\1Bud1")
    elif leftover == "lost+found":
        (folder / "lost+found").mkdir()
    else:
        (folder / "readme.txt").write_text("This drive is the workshop's archive.\n")
    with glean_personal.open_index(db) as ix:
        before = _results(ix)
        report = ix.index(folder)
        assert report.missing and report.removed == 0 and report.added == 0
        assert "none of its 5 indexed files" in report.missing_reason
        [again] = ix.index_all()
        assert again.missing
        [src] = ix.sources()
        assert not src["available"] and src["missing_since"] is not None
        assert _results(ix) == before         # kept and searchable
        assert [ix.watch_pass([str(folder)])[0].missing] == [True]
    shutil.rmtree(folder)
    (tmp_path / "unplugged").rename(folder)   # plugged back in
    with glean_personal.open_index(db) as ix:
        report = ix.index(folder)
        assert not report.missing and report.removed == 0 and report.unchanged == len(FILES)
        assert _results(ix) == before


def test_a_missing_source_says_why_and_how_to_drop_it(tmp_path, store_kind):
    folder, db = _build(tmp_path)
    folder.rename(tmp_path / "unplugged")
    write_tree(folder, {"new.md": "# New\n\nEvery file was replaced by another.\n"})
    run = subprocess.run([sys.executable, "-m", "glean_personal", "index", str(folder),
                          "--db", str(db)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "none of its 5 indexed files is in its folder any more" in run.stdout
    assert "`purge notes` drops it" in run.stdout
    with glean_personal.open_index(db) as ix:   # purged, the folder is a new source
        ix.purge("notes")
        assert ix.index(folder).added == 1


def test_a_source_whose_files_all_moved_into_a_subfolder_is_refreshed(tmp_path, store_kind):
    """None of its indexed files is where it was, yet the folder holds them all: a
    reorganised folder, not an unplugged drive's mount point. Each keeps its document."""
    folder, db = _build(tmp_path)
    with glean_personal.open_index(db) as ix:
        ids = {d["path"]: d["id"] for d in map(ix.resolve, FILES)}
        (folder / "2026").mkdir()
        for name in ("bikes", "volunteers"):
            (folder / name).rename(folder / "2026" / name)
        report = ix.index(folder)
        assert not report.missing and report.moved == len(FILES) and report.removed == 0
        assert {p: ix.resolve("2026/" + p)["id"] for p in FILES} == ids


def test_a_small_source_whose_files_were_all_replaced_is_refreshed(tmp_path, store_kind):
    folder = write_tree(tmp_path / "two", {"a.md": "# A\n\nfirst\n", "b.md": "# B\n\nsecond\n"})
    with glean_personal.open_index(tmp_path / "p.db") as ix:
        ix.index(folder)
        for name in ("a.md", "b.md"):
            (folder / name).unlink()
        write_tree(folder, {"c.md": "# C\n\nthird\n"})
        report = ix.index(folder)
        assert not report.missing and (report.added, report.removed) == (1, 2)


def test_a_root_replaced_by_a_file_is_missing_and_the_others_are_refreshed(tmp_path, store_kind):
    folder, db = _build(tmp_path)
    other = write_tree(tmp_path / "other", {"o.md": "# O\n\nother words\n"})
    with glean_personal.open_index(db) as ix:
        ix.index(other)
    folder.rename(tmp_path / "away")
    folder.write_text("x\n")
    write_tree(other, {"p.md": "# P\n\nmore words\n"})
    run = subprocess.run([sys.executable, "-m", "glean_personal", "index", "--db", str(db)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "not a folder now" in run.stdout and "added 1" in run.stdout
    with glean_personal.open_index(db) as ix:
        assert ix.index(folder).missing
        assert ix.status().documents == len(FILES) + 2


def test_index_of_a_path_that_is_not_there_says_file_or_folder(tmp_path, store_kind):
    folder, db = _build(tmp_path)
    with glean_personal.open_index(db) as ix:
        with pytest.raises(NotFound, match="no such file or folder"):
            ix.index(folder / "bikes" / "nonexist.md")
