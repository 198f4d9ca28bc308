"""Checking, repairing and copying personal.db.

Everything derived from the passages (the full-text index, the graph's
phrase sets and links, per-document counts) can be rebuilt without reading a
single file again; the passages and documents themselves are the record.
"""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Callable, Dict, List, Optional

from ..document import SECTION_SEPARATOR
from ..errors import DatabaseError, UsageError
from ..passages import regroup
from . import graph as graph_sql
from .connection import drop_dead_temporaries, prepare_file, translate
from .core import Store

CROSS_CHECKS = {
    "passages whose document is missing":
        "SELECT count(*) FROM passages WHERE document_id NOT IN (SELECT id FROM documents)",
    "documents whose passage count is wrong":
        "SELECT count(*) FROM documents d WHERE d.passages != "
        "(SELECT count(*) FROM passages p WHERE p.document_id = d.id)",
    "documents whose source is missing":
        "SELECT count(*) FROM documents WHERE source_id NOT IN (SELECT id FROM sources)",
    "graph phrase sets of missing documents":
        "SELECT count(*) FROM doc_phrases WHERE document_id NOT IN (SELECT id FROM documents)",
    "documents without graph phrases":
        "SELECT count(*) FROM documents WHERE id NOT IN (SELECT document_id FROM doc_phrases)",
    "links to missing documents":
        "SELECT count(*) FROM links WHERE a NOT IN (SELECT id FROM documents) "
        "OR b NOT IN (SELECT id FROM documents)",
}


def problems(store: Store) -> Dict[str, List[str]]:
    """SQLite's own check, the full-text index's check, and the cross-checks."""
    with translate(store.path):
        rows = [r[0] for r in store.conn.execute("PRAGMA integrity_check")]
        sqlite_problems = [] if rows == ["ok"] else rows
        cross = []
        for label, sql in CROSS_CHECKS.items():
            n = store.conn.execute(sql).fetchone()[0]
            if n:
                cross.append(f"{n} {label}")
        return {"sqlite": sqlite_problems, "fulltext": _fulltext_problems(store),
                "cross": cross}


READ_ONLY_FTS_NOTE = ("the full-text index's own check needs a writable file; skipped "
                      "(the other checks ran)")


def _fulltext_problems(store: Store) -> List[str]:
    """The full-text index's own check. FTS5 runs it as a command that writes nothing
    but still needs a writable connection: on a file this process cannot write it is
    skipped (`skipped_checks` says so); on one merely opened read-only it runs."""
    if store.kind != "fts5" or not store.readonly:
        return store.fulltext.problems()
    if not store.writable:
        return []
    store.conn.execute("PRAGMA query_only = OFF")
    try:
        return store.fulltext.problems()
    finally:
        store.conn.execute("PRAGMA query_only = ON")


def skipped_checks(store: Store) -> List[str]:
    """Checks `problems` could not run on this file."""
    if store.kind == "fts5" and not store.writable:
        return [READ_ONLY_FTS_NOTE]
    return []


def repair(store: Store, phrases_of: Callable[[str, str], bytes]) -> List[str]:
    """Rebuild what the passages determine; returns what was done."""
    done = []
    with store.transaction():
        conn = store.conn
        orphans = conn.execute("SELECT count(*) FROM passages WHERE document_id NOT IN "
                               "(SELECT id FROM documents)").fetchone()[0]
        if orphans:
            conn.execute("DELETE FROM passages WHERE document_id NOT IN (SELECT id FROM documents)")
            done.append(f"removed {orphans} passages of missing documents")
        conn.execute("DELETE FROM documents WHERE source_id NOT IN (SELECT id FROM sources)")
        conn.execute("UPDATE documents SET passages = "
                     "(SELECT count(*) FROM passages p WHERE p.document_id = documents.id)")
        store.fulltext.rebuild()
        done.append("rebuilt the full-text index from the passages")
        conn.execute("DELETE FROM doc_phrases")
        for doc_id, title in conn.execute("SELECT id, title FROM documents").fetchall():
            sections = regroup(store.passages_of(doc_id))
            text = SECTION_SEPARATOR.join(s["text"] for s in sections)
            graph_sql.put_doc_phrases(conn, doc_id, phrases_of(title, text))
        conn.execute("DELETE FROM links WHERE a NOT IN (SELECT id FROM documents) "
                     "OR b NOT IN (SELECT id FROM documents)")
        store.bump_generation()
        done.append("recomputed the graph phrases (run `link` to rebuild the links)")
    return done


def _drop_dead_parts(dest: Path) -> None:
    """Remove what earlier exports to `dest` that were killed left (.NAME.PID.part and its
    journal), when no process of that id runs any more (and this process's own)."""
    if dest.parent.is_dir():
        drop_dead_temporaries(dest, ".part")


def export(store: Store, dest: Path) -> int:
    """A consistent copy through SQLite's backup API, created 0600; returns its size.

    The copy is written to a private temporary file beside `dest` and moved into
    place whole, so an export killed midway never leaves a partial file under the
    name asked for (at most a hidden `.NAME.PID.part`)."""
    dest = Path(dest).expanduser().absolute()
    if dest.exists() and dest.stat().st_size > 0:
        raise UsageError(f"{dest} already exists; choose a new file name")
    if dest.resolve() == store.path.resolve():
        raise UsageError("export needs a different file than the index itself")
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.part")
    _drop_dead_parts(dest)
    prepare_file(tmp)
    target: Optional[sqlite3.Connection] = None
    try:
        with translate(dest):
            target = sqlite3.connect(str(tmp))
            store.conn.backup(target)
            target.execute("PRAGMA journal_mode = DELETE")
        target.close()
        target = None
        os.chmod(tmp, 0o600)
        if dest.exists() and dest.stat().st_size > 0:   # made meanwhile: never replaced
            raise UsageError(f"{dest} already exists; choose a new file name")
        os.replace(tmp, dest)
    finally:
        if target is not None:
            target.close()
        for leftover in (tmp, Path(str(tmp) + "-journal")):
            try:
                os.unlink(leftover)
            except OSError:
                pass
    return dest.stat().st_size
