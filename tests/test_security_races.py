"""A folder changed between the walk and the read: whatever is swapped in then,
nothing outside the source's root is read. The walk never follows a link; the
read must not either, for the file itself or for any folder on its way."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

import glean_personal
from glean_personal import workers

MARKER = "OUTSIDERACEMARKERqzx"


@pytest.fixture
def folders(tmp_path):
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "note.md").write_text("# Public\n\nOrdinary words about herons.\n")
    (root / "top.md").write_text("# Top\n\nThe kettle is by the window.\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "note.md").write_text(f"# Secret\n\n{MARKER} kiwi\n")
    (outside / "top.md").write_text(f"# Secret top\n\n{MARKER} lime\n")
    return root, outside


def _swap_before_the_first_read(monkeypatch, tmp_path: Path, swap) -> None:
    """`swap()` once, before the first read, in whichever process reads first: the
    workers are forked, so a file made only if absent says which one swaps, and the
    others wait until it has (two swapping at once failed on the second's rename)."""
    read = workers.read_file
    claim, done = tmp_path / "swap-claimed", tmp_path / "swap-done"

    def swapping(*args, **kwargs):
        try:
            os.close(os.open(claim, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            for _ in range(2000):
                if done.exists():
                    break
                time.sleep(0.005)
        else:
            swap()
            done.touch()
        return read(*args, **kwargs)
    monkeypatch.setattr(workers, "read_file", swapping)


def _index(tmp_path, root: Path):
    with glean_personal.open_index(tmp_path / "p.db") as ix:
        report = ix.index(root, label="root")
        found = ix.search(MARKER).results
    return report, found


def test_a_folder_swapped_for_a_link_out_after_the_walk_is_not_followed(
        tmp_path, store_kind, folders, monkeypatch):
    root, outside = folders

    def swap():
        os.rename(root / "sub", tmp_path / "sub-moved")
        os.symlink(outside, root / "sub")
    _swap_before_the_first_read(monkeypatch, tmp_path, swap)
    report, found = _index(tmp_path, root)
    assert found == []
    assert {s["path"]: s["reason"] for s in report.skipped} == {
        "sub/note.md": "a folder on its path became a symbolic link or a file after the "
                       "walk: never followed"}
    assert report.added == 1   # top.md, read as it was


def test_a_file_swapped_for_a_link_out_after_the_walk_is_not_followed(
        tmp_path, store_kind, folders, monkeypatch):
    root, outside = folders

    def swap():
        for name in ("top.md", "sub/note.md"):
            os.rename(root / name, tmp_path / name.replace("/", "-"))
            os.symlink(outside / Path(name).name, root / name)
    _swap_before_the_first_read(monkeypatch, tmp_path, swap)
    report, found = _index(tmp_path, root)
    assert found == [] and report.added == 0
    assert sorted(s["reason"] for s in report.skipped) == [
        "became a symbolic link after the walk: never followed"] * 2


def test_a_source_reached_through_a_link_still_reads_its_files(tmp_path, store_kind, folders):
    """The root itself may be a link the user named (`~/Documents` → elsewhere); only
    the parts below it must be what the walk saw."""
    root, _ = folders
    (tmp_path / "via").symlink_to(root)
    report, _ = _index(tmp_path, tmp_path / "via")
    assert report.added == 2 and report.skipped == []


def test_a_folder_swapped_between_its_check_and_the_open_is_caught_before_a_read(
        tmp_path, store_kind, folders, monkeypatch):
    """The folders are checked link by link, then the file is opened by its whole path:
    a swap in between opens the outside file, which is refused (not the same file as
    the checked folder holds) before a byte of it is read."""
    root, outside = folders
    open_file = workers._open_file

    def swap_then_open(fs_path):
        if fs_path.endswith("note.md") and not (root / "sub").is_symlink():
            os.rename(root / "sub", tmp_path / "sub-moved")
            os.symlink(outside, root / "sub")
        return open_file(fs_path)
    monkeypatch.setattr(workers, "_open_file", swap_then_open)
    report, found = _index(tmp_path, root)
    assert found == [] and report.added == 1
    assert [(s["path"], s["reason"]) for s in report.skipped] == [
        ("sub/note.md", "a folder on its path became a symbolic link or a file after the "
                        "walk: never followed")]


@pytest.mark.skipif(not hasattr(os, "fork") or not hasattr(os, "geteuid"),
                    reason="POSIX permissions")
def test_a_folder_that_may_be_gone_through_but_not_listed_still_reads(tmp_path_factory):
    """A folder of mode 711 lets a path through it be opened, not its names be listed:
    its files are read (by `index FILE`, say) as their whole path reads them. The
    folders were opened for reading, one by one, and such a file failed with
    "Permission denied". Run as another user than root (root may list anything)."""
    import tempfile
    base = Path(tempfile.mkdtemp())   # tmp_path's parents may be closed to another user
    try:
        base.chmod(0o755)
        (base / "src" / "a" / "b").mkdir(parents=True)
        note = base / "src" / "a" / "b" / "note.md"
        note.write_text("# Deep\n\nThe lantern hangs low.\n")
        note.chmod(0o644)
        (base / "src" / "a" / "b").chmod(0o755)
        (base / "src" / "a").chmod(0o711)
        pid = os.fork()
        if pid == 0:   # the child reads, as nobody when the tests run as root
            code = 1
            try:
                if os.geteuid() == 0:
                    os.setgid(65534)
                    os.setuid(65534)
                data = workers.read_file(str(note), 1 << 20, below=3)
                code = 0 if data.startswith(b"# Deep") else 2
            except BaseException:
                code = 3
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        assert os.WEXITSTATUS(status) == 0
    finally:
        (base / "src" / "a").chmod(0o755)
        import shutil
        shutil.rmtree(base)


def test_a_file_saved_over_while_it_is_opened_is_read_not_dropped(
        tmp_path, store_kind, folders, monkeypatch):
    """An editor saves by renaming a new file over the old one. Done between the open
    by the whole path and the check of what the folders hold, the two differed, and
    the file was skipped as "a folder on its path became a symbolic link" (a stored
    document so skipped is dropped from the index): the check is made once more."""
    root, _ = folders
    note = root / "sub" / "note.md"
    saved = tmp_path / "saved"
    open_file = workers._open_file

    def open_then_save_over(fs_path):
        fd = open_file(fs_path)
        if fs_path.endswith("note.md") and not saved.exists():
            saved.write_text("done")
            fresh = tmp_path / "fresh.md"
            fresh.write_text("# Public\n\nOrdinary words about egrets.\n")
            os.replace(fresh, note)
        return fd
    monkeypatch.setattr(workers, "_open_file", open_then_save_over)
    with glean_personal.open_index(tmp_path / "p.db") as ix:
        report = ix.index(root, label="root")
        assert report.skipped == [] and report.added == 2
        assert [h.document["path"] for h in ix.search("egrets").results] == ["sub/note.md"]
