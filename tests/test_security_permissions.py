"""Unreadable files and folders, tested as a user whom mode 000 really stops.

CI runs as root, and root reads a mode-000 file as easily as any other, so a
permission test run as root would pass without testing anything. These tests
run the command line in a subprocess that drops to the unprivileged `nobody`
user before it indexes (everything it needs is imported first, because the
interpreter may live where `nobody` cannot read). Where the privileges cannot
be dropped the tests are skipped, saying why; they never pass silently.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from helpers.guard import REPO

NOBODY = 65534

RUN_AS = textwrap.dedent('''
    import json, os, sys
    # Import everything first: after the drop, the interpreter's own folder may be closed.
    import encodings.cp1252, encodings.latin_1, encodings.utf_16, encodings.idna
    import ctypes, fcntl, gettext, heapq, locale, resource, multiprocessing.popen_fork, multiprocessing.connection
    import glean_personal.surfaces.cli, glean_personal.surfaces.verbs, glean_personal.api, glean_personal.indexer
    import glean_personal.workers, glean_personal.walk, glean_personal.formats
    glean_personal.surfaces.args.build_parser().parse_args(sys.argv[2:])   # argparse's lazy imports
    uid = int(sys.argv[1])
    if uid >= 0 and os.getuid() != uid:
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
    sys.exit(glean_personal.surfaces.cli.main(sys.argv[2:]))
''')


def _unprivileged_uid() -> int:
    """The uid to test as: ourselves if we are not root, else `nobody` (or skip)."""
    if os.getuid() != 0:
        return -1
    probe = subprocess.run([sys.executable, "-c",
                            f"import os; os.setgroups([]); os.setgid({NOBODY}); os.setuid({NOBODY})"],
                           capture_output=True)
    if probe.returncode != 0:
        pytest.skip("running as root and cannot drop to `nobody` (no CAP_SETUID?): "
                    "mode 000 would not stop root, so this test would prove nothing")
    return NOBODY


@pytest.fixture()
def tree():
    """A tree `nobody` can reach: /tmp/glean-perm-XXXX (0755) holding its own folders."""
    base = Path(tempfile.mkdtemp(prefix="glean-perm-"))
    os.chmod(base, 0o755)
    yield base
    for folder, _, files in os.walk(base):
        os.chmod(folder, 0o755)
    shutil.rmtree(base, ignore_errors=True)


def _run(uid: int, args, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO), PYTHONDONTWRITEBYTECODE="1")
    env.pop("GLEAN_PERSONAL_DB", None)
    return subprocess.run([sys.executable, "-c", RUN_AS, str(uid), *args], cwd=str(cwd),
                          env=env, capture_output=True, text=True, timeout=300)


def _chown_tree(path: Path, uid: int) -> None:
    if uid < 0:
        return
    for folder, dirs, files in os.walk(path):
        os.chown(folder, uid, uid)
        for name in files:
            os.chown(os.path.join(folder, name), uid, uid)


def test_a_mode_000_file_and_folder_are_skipped_with_reasons(tree):
    uid = _unprivileged_uid()
    src, state = tree / "src", tree / "state"
    (src / "private").mkdir(parents=True)
    state.mkdir()
    (src / "readable.md").write_text("readable words")
    (src / "locked.md").write_text("locked words")
    (src / "private" / "hidden.md").write_text("hidden words")
    _chown_tree(tree, uid)
    os.chmod(src / "locked.md", 0)
    os.chmod(src / "private", 0)
    db = state / "index" / "personal.db"
    proc = _run(uid, ["index", str(src), "--db", str(db), "--json"], tree)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    skipped = {s["path"]: s["reason"] for s in report["skipped"]}
    assert skipped == {"locked.md": "cannot be read (permission denied)",
                       "private": "folder cannot be read (permission denied)"}
    assert report["added"] == 1
    # The index it wrote is private to the user who wrote it.
    assert (db.stat().st_mode & 0o777, db.parent.stat().st_mode & 0o777) == (0o600, 0o700)
    if uid >= 0:
        assert db.stat().st_uid == uid

    # Made readable again, the file is indexed; unreadable again, its indexed version
    # is kept (it is there: a drive's permissions, a file locked while it is saved).
    os.chmod(src / "locked.md", 0o644)
    proc = _run(uid, ["index", str(src), "--db", str(db), "--json"], tree)
    assert json.loads(proc.stdout)["added"] == 1, proc.stderr
    os.chmod(src / "locked.md", 0)
    os.utime(src / "locked.md", ns=(0, 10 ** 18))
    proc = _run(uid, ["index", str(src), "--db", str(db), "--json"], tree)
    report = json.loads(proc.stdout)
    assert report["removed"] == 0 and report["added"] == 0, report
    skipped = {s["path"]: s["reason"] for s in report["skipped"]}
    assert skipped["locked.md"] == ("cannot be read (permission denied); "
                                    "the indexed version is kept"), skipped


def test_an_index_folder_the_user_cannot_create_is_one_clear_line(tree):
    uid = _unprivileged_uid()
    src, closed = tree / "src", tree / "closed"
    src.mkdir()
    closed.mkdir(mode=0o755)
    (src / "a.md").write_text("words")
    _chown_tree(src, uid)
    if uid < 0:
        os.chmod(closed, 0o555)
    proc = _run(uid, ["index", str(src), "--db", str(closed / "sub" / "personal.db")], tree)
    assert proc.returncode == 3, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot create the index folder" in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("verb", [["status"], ["search", "words"], ["index", "SRC"]])
def test_an_index_behind_a_folder_the_user_cannot_search_is_a_database_problem(
        tree, store_kind, verb):
    """`--db` inside a folder the user may not enter: `stat` fails with EACCES, which
    `Path.exists` raises; one line and exit 3, never an internal error."""
    uid = _unprivileged_uid()
    src, closed = tree / "src", tree / "closed"
    src.mkdir()
    (src / "a.md").write_text("words")
    _chown_tree(src, uid)
    closed.mkdir(mode=0o700)
    if uid < 0:
        os.chmod(closed, 0o000)
    args = [str(src) if a == "SRC" else a for a in verb]
    proc = _run(uid, [*args, "--db", str(closed / "personal.db")], tree)
    assert proc.returncode == 3, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "cannot open the index" in lines[0] and "ermission denied" in lines[0], lines
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr
