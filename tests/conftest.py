"""Shared fixtures: both store kinds, and small folders of real files."""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Dict

import pytest

import glean_personal

STORE_KINDS = ("fts5", "plain")


@pytest.fixture(params=STORE_KINDS)
def store_kind(request, monkeypatch) -> str:
    """Run the test once per store kind (the env var picks the kind at creation)."""
    monkeypatch.setenv("GLEAN_PERSONAL_STORE", request.param)
    return request.param


@pytest.fixture(autouse=True)
def _private_home(tmp_path_factory, monkeypatch):
    """Never touch the real ~/.gleancode: every test gets its own home."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("GLEAN_PERSONAL_DB", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)


def write_tree(root: Path, files: Dict[str, str]) -> Path:
    """Write {relative path: text} under root and return root."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def open_ix(tmp_path, store_kind):
    """open_index on a fresh db in tmp_path, closed after the test."""
    opened = []

    def _open(name: str = "p.db"):
        ix = glean_personal.open_index(tmp_path / name)
        opened.append(ix)
        return ix
    yield _open
    for ix in opened:
        ix.close()


def bump_mtime(path: Path, seconds: int = 10) -> None:
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + seconds * 1_000_000_000))


def _has_fts5() -> bool:
    try:
        sqlite3.connect(":memory:").execute("CREATE VIRTUAL TABLE t USING fts5(a)")
    except sqlite3.Error:
        return False
    return True


needs_fts5 = pytest.mark.skipif(
    not _has_fts5(), reason="this Python's SQLite lacks FTS5; nothing to compare against"
)
