"""A hostile folder: links that loop or leave, a FIFO, a socket, trees too deep.

One folder holds every case and is indexed once, in a guarded subprocess that
logs every file it opens under the test folder. Expected: each case gets a
skip with its reason (or, for the deep tree, its file indexed); nothing
outside the source folder is ever opened; a FIFO is never opened at all,
which a writer blocked on it proves (its open() returns only if a reader
arrives); the run ends promptly.
"""
from __future__ import annotations

import os
import re
import socket
import threading
from pathlib import Path

import pytest

from helpers.guard import (documents, file_bytes, integrity_problems, logged,
                           run_index_driver)

OUTSIDE_MARKER = "OUTSIDEFSMARKERqzx"
SECRET_MARKER = "SECRETFSMARKERqzx"
DEPTH = 200


def _deep_tree(root: Path, name: str, depth: int, file_name: str, content: bytes) -> None:
    """`depth` nested folders called `name`, built relative to open folders, so a tree
    whose full path is longer than PATH_MAX can still be made."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(depth):
            os.mkdir(name, dir_fd=fd)
            child = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = child
        leaf = os.open(file_name, os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(leaf, content)
        os.close(leaf)
    finally:
        os.close(fd)


def _build(src: Path, outside: Path) -> None:
    (outside / "folder").mkdir(parents=True)
    (outside / "folder" / "outside.md").write_text(f"outside words {OUTSIDE_MARKER}")
    (outside / "outside.md").write_text(f"outside words {OUTSIDE_MARKER}")
    (src / "inside.md").write_text("inside words, to show the run read something")
    (src / ".env").write_text(f"API_KEY={SECRET_MARKER}")
    os.symlink(".", src / "loop-self")
    (src / "sub").mkdir()
    os.symlink("..", src / "sub" / "loop-parent")
    os.symlink("cycle-b.md", src / "cycle-a.md")
    os.symlink("cycle-a.md", src / "cycle-b.md")
    os.symlink(outside / "folder", src / "outside-folder")
    os.symlink(outside / "outside.md", src / "outside-file.md")
    os.symlink("../" * 12 + str(outside / "outside.md").lstrip("/"), src / "relative-escape.md")
    os.symlink(".env", src / "innocent.md")
    (outside / ".ssh").mkdir()
    (outside / ".ssh" / "id_ed25519").write_text(f"key {SECRET_MARKER}")
    os.symlink(outside / ".ssh" / "id_ed25519", src / "key-notes.md")
    os.symlink("inside.md", src / "alias.md")
    os.symlink("sub", src / "sub-alias")
    os.symlink("does-not-exist.md", src / "dangling.md")
    os.mkfifo(src / "notes.txt")
    _deep_tree(src, "d", DEPTH, "bottom.md", b"bottom of the deep tree words")
    _deep_tree(src, "x" * 40, DEPTH, "unreachable.md", b"too deep to name")


EXPECT = {
    "loop-self": r"^symbolic link loop",
    "sub/loop-parent": r"^symbolic link loop",
    "cycle-a.md": r"^symbolic link loop",
    "cycle-b.md": r"^symbolic link loop",
    "outside-folder": r"^symbolic link leads outside the folder, to /.*/outside/folder: never "
                      r"followed \(index that folder to search its files\)$",
    "outside-file.md": r"^symbolic link leads outside the folder, to /.*/outside\.md: never followed$",
    "key-notes.md": r"^symbolic link leads outside the folder: never followed$",  # no secret's path
    "relative-escape.md": r"^symbolic link leads outside the folder",
    "innocent.md": r"^symbolic link to \.env: not followed",
    "alias.md": r"^symbolic link to inside\.md: not followed",
    "sub-alias": r"^symbolic link to the folder sub: not followed",
    "dangling.md": r"^broken symbolic link",
    "notes.txt": r"^not a regular file \(a FIFO\): never opened$",
    "sock.md": r"^not a regular file \(a socket\): never opened$",
    ".env": r"^secret-looking file: never read$",
}


@pytest.fixture(scope="module")
def fs_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fs")
    src, outside = tmp / "src", tmp / "outside"
    src.mkdir()
    _build(src, outside)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(src / "sock.md"))

    opened_by_someone = threading.Event()

    def writer_that_never_writes() -> None:
        fd = os.open(src / "notes.txt", os.O_WRONLY)   # blocks until a reader opens it
        opened_by_someone.set()
        os.close(fd)

    thread = threading.Thread(target=writer_that_never_writes, daemon=True)
    thread.start()
    try:
        out = run_index_driver(tmp, tmp, tmp / "db" / "personal.db",
                               [{"name": "src", "folder": str(src)}], {"file_seconds": 30},
                               timeout=300)
        fifo_opened = opened_by_someone.is_set()
    finally:
        release = os.open(src / "notes.txt", os.O_RDONLY | os.O_NONBLOCK)
        thread.join(5)
        os.close(release)
        server.close()
    return {"tmp": tmp, "src": src, "outside": outside, "out": out, "fifo_opened": fifo_opened,
            "db": tmp / "db" / "personal.db", "docs": documents(tmp / "db" / "personal.db")}


def _report(fs_run) -> dict:
    return fs_run["out"]["results"]["src"]["report"]


@pytest.mark.parametrize("path", sorted(EXPECT))
def test_each_hostile_entry_is_skipped_with_its_reason(fs_run, path):
    skipped = {s["path"]: s["reason"] for s in _report(fs_run)["skipped"]}
    assert path in skipped, sorted(skipped)
    assert re.search(EXPECT[path], skipped[path]), skipped[path]


def test_the_fifo_is_never_opened_and_nothing_hangs(fs_run):
    assert not fs_run["fifo_opened"], "a reader opened the FIFO"
    assert not [p for p in logged(fs_run["tmp"], "opens") if p.endswith("notes.txt")]
    # and nothing hangs: the driver would have run into its subprocess timeout


def test_nothing_outside_the_root_is_opened_or_stored(fs_run):
    opened = logged(fs_run["tmp"], "opens")
    assert any(p.endswith("/src/inside.md") for p in opened), "the open log saw nothing"
    assert [p for p in opened if p.startswith(str(fs_run["outside"]))] == []
    data = file_bytes(fs_run["db"])
    assert OUTSIDE_MARKER.encode() not in data
    assert SECRET_MARKER.encode() not in data


def test_only_real_files_inside_the_root_are_indexed(fs_run):
    paths = sorted(path for _, path in fs_run["docs"])
    assert paths == ["/".join(["d"] * DEPTH + ["bottom.md"]), "inside.md"]


def test_a_tree_deeper_than_the_system_can_name_is_reported_not_fatal(fs_run):
    skipped = [s for s in _report(fs_run)["skipped"] if s["path"].startswith("x" * 40)]
    assert len(skipped) == 1, skipped
    assert re.search(r"cannot be read \(file name too long\)", skipped[0]["reason"])


def test_the_index_is_sound(fs_run):
    assert integrity_problems(fs_run["db"]) == []
