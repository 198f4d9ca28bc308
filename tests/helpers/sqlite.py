"""What this interpreter's SQLite can do."""
from __future__ import annotations

import sqlite3

import pytest


def _has_fts5() -> bool:
    try:
        sqlite3.connect(":memory:").execute("CREATE VIRTUAL TABLE t USING fts5(a)")
    except sqlite3.Error:
        return False
    return True


needs_fts5 = pytest.mark.skipif(
    not _has_fts5(), reason="this Python's SQLite lacks FTS5; nothing to compare against"
)
