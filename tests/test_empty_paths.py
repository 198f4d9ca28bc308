"""An empty path names nothing: `--db ""` is not the default index and `index ""`
is not the current folder. An agent that passes an unset variable (`--db "$DB"`)
must get a usage error, never a write to (or a purge of) the user's own index."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import glean_personal
from glean_personal.api import resolve_db
from glean_personal.errors import UsageError
from helpers.files import write_tree


def run(*args, cwd=None):
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    return subprocess.run([sys.executable, "-m", "glean_personal", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, env=env, timeout=60)


@pytest.fixture
def default_index(tmp_path, store_kind):
    """The user's own index (at the default path under the test's private home), one note."""
    folder = write_tree(tmp_path / "own", {"note.md": "# Note\n\nThe heron waits by the weir.\n"})
    with glean_personal.open_index() as ix:
        ix.index(folder, label="own")
        path = ix.path
    return path


@pytest.mark.parametrize("argv", [
    ("purge", "--all", "--yes", "--db", ""),
    ("purge", "own", "--db", ""),
    ("index", "{folder}", "--db", ""),
    ("status", "--db", ""),
    ("search", "heron", "--db=", "--json"),
])
def test_an_empty_db_is_a_usage_error_not_the_default_index(default_index, tmp_path, argv):
    other = write_tree(tmp_path / "other", {"b.md": "# B\n\nAnother note.\n"})
    before = default_index.read_bytes()
    done = run(*(a.replace("{folder}", str(other)) for a in argv))
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.count("\n") == 1 and "--db is an empty path" in done.stderr
    assert done.stdout == ""
    assert default_index.read_bytes() == before
    with glean_personal.open_index(readonly=True) as ix:
        assert [s["label"] for s in ix.sources()] == ["own"]


def test_the_api_refuses_an_empty_db_and_keeps_none_for_the_default(tmp_path):
    with pytest.raises(UsageError, match="empty path"):
        glean_personal.open_index(db="")
    assert resolve_db(None) == Path.home() / ".gleancode" / "personal.db"
    assert not (Path.home() / ".gleancode").exists()


@pytest.mark.parametrize("argv, said", [
    (("index", ""), "the folder to index is an empty path"),
    (("watch", ""), "a folder to watch is an empty path"),
    (("export", ""), "the export file is an empty path"),
    (("sources", "move", "own", ""), "the new folder is an empty path"),
])
def test_an_empty_folder_or_file_argument_is_not_the_current_folder(tmp_path, store_kind,
                                                                     argv, said):
    here = write_tree(tmp_path / "here", {"cwd.md": "# Working folder\n\nNot to be indexed.\n"})
    folder = write_tree(tmp_path / "own", {"note.md": "# Note\n\nThe heron waits.\n"})
    db = tmp_path / "p.db"
    with glean_personal.open_index(db) as ix:
        ix.index(folder, label="own")
    done = run(*argv, "--db", db, cwd=here)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.count("\n") == 1 and said in done.stderr
    with glean_personal.open_index(db, readonly=True) as ix:
        assert [(s["label"], s["root"]) for s in ix.sources()] == [("own", str(folder))]
    assert sorted(os.listdir(here)) == ["cwd.md"]


def test_index_of_an_empty_path_on_a_new_file_leaves_no_index(tmp_path, store_kind):
    db = tmp_path / "new.db"
    with pytest.raises(UsageError, match="the folder to index is an empty path"):
        with glean_personal.open_index(db) as ix:
            ix.index("")
    assert not db.exists()
