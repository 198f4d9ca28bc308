"""The tables of personal.db, their version, and the store-kind probe.

`SCHEMA_VERSION` goes up with every change to the tables; `MIGRATIONS[n]`
turns a version-n file into version n+1 and runs inside one transaction.
"""
from __future__ import annotations

import sqlite3
from typing import Callable, Dict

from .graph import GRAPH_SCHEMA

SCHEMA_VERSION = 2
TOKENIZER = "porter unicode61 remove_diacritics 2"

# Column weights of the full-text index: a title hit beats a heading hit beats a body hit.
TITLE_WEIGHT, HEADING_WEIGHT, BODY_WEIGHT = 8.0, 3.0, 1.0

FTS_HASH_BYTES = 16 << 20
"""Terms FTS5 gathers in memory before writing a segment (its default is 1 MB).
Fewer, larger segments merge less: a cold index tokenizes about a third faster."""

COMMON = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sources (
    id INTEGER PRIMARY KEY,
    root TEXT NOT NULL UNIQUE,
    label TEXT NOT NULL UNIQUE,
    includes TEXT NOT NULL DEFAULT '[]',
    excludes TEXT NOT NULL DEFAULT '[]',
    max_bytes INTEGER NOT NULL,
    last_indexed REAL,
    last_report TEXT
);
CREATE TABLE documents (
    id INTEGER PRIMARY KEY,
    source_id INTEGER NOT NULL REFERENCES sources(id),
    path TEXT NOT NULL,
    title TEXT NOT NULL,
    format TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    indexed_at REAL NOT NULL,
    warnings TEXT NOT NULL DEFAULT '[]',
    passages INTEGER NOT NULL DEFAULT 0,
    UNIQUE (source_id, path)
);
CREATE TABLE passages (
    id INTEGER PRIMARY KEY,
    document_id INTEGER NOT NULL REFERENCES documents(id),
    ordinal INTEGER NOT NULL,
    heading TEXT NOT NULL,
    text TEXT NOT NULL,
    start INTEGER NOT NULL,
    end INTEGER NOT NULL,
    line_start INTEGER,   -- first and last line in the file (text and code), 1-based
    line_end INTEGER,
    page TEXT             -- the page label (PDF)
);
CREATE INDEX passages_by_document ON passages(document_id, ordinal);
-- What the full-text index reads: one row per passage, with its document's title.
CREATE VIEW passage_content AS
    SELECT p.id AS id, p.document_id AS document_id, d.title AS title,
           p.heading AS heading, p.text AS text
    FROM passages p JOIN documents d ON d.id = p.document_id;
-- Reserved: per-passage vectors keyed by model name (semantic recall, later).
CREATE TABLE passage_vectors (
    passage_id INTEGER NOT NULL, model TEXT NOT NULL, vector BLOB NOT NULL,
    PRIMARY KEY (passage_id, model)
) WITHOUT ROWID;
"""

FTS5 = f"""
CREATE VIRTUAL TABLE passage_fts USING fts5(
    title, heading, text,
    content='passage_content', content_rowid='id',
    tokenize='{TOKENIZER}'
);
INSERT INTO passage_fts(passage_fts, rank)
    VALUES ('rank', 'bm25({TITLE_WEIGHT}, {HEADING_WEIGHT}, {BODY_WEIGHT})');
INSERT INTO passage_fts(passage_fts, rank) VALUES ('hashsize', {FTS_HASH_BYTES});
"""

PLAIN = """
-- The plain store's inverted index: weighted term frequency per passage.
CREATE TABLE plain_postings (
    term TEXT NOT NULL, passage_id INTEGER NOT NULL, tf REAL NOT NULL,
    PRIMARY KEY (term, passage_id)
) WITHOUT ROWID;
CREATE TABLE plain_lengths (passage_id INTEGER PRIMARY KEY, length REAL NOT NULL);
"""

def _v1_to_v2(conn: sqlite3.Connection) -> None:
    """Passages learn where they sit in the file: line range or page (NULL until re-read)."""
    for column in ("line_start INTEGER", "line_end INTEGER", "page TEXT"):
        conn.execute(f"ALTER TABLE passages ADD COLUMN {column}")


MIGRATIONS: Dict[int, Callable[[sqlite3.Connection], None]] = {1: _v1_to_v2}


def has_fts5(conn: sqlite3.Connection) -> bool:
    """Can this SQLite build an FTS5 table? (Probe in a temporary schema.)"""
    try:
        conn.execute("CREATE VIRTUAL TABLE temp.glean_probe USING fts5(x)")
        conn.execute("DROP TABLE temp.glean_probe")
        return True
    except sqlite3.Error:
        return False


def create(conn: sqlite3.Connection, kind: str) -> None:
    """Write a fresh schema of the given store kind (inside the caller's transaction)."""
    script = COMMON + GRAPH_SCHEMA + (FTS5 if kind == "fts5" else PLAIN)
    for statement in _statements(script):
        conn.execute(statement)
    conn.executemany("INSERT INTO meta(key, value) VALUES (?, ?)", [
        ("schema_version", str(SCHEMA_VERSION)), ("store", kind),
        ("generation", "0"), ("graph_generation", "-1"),
    ])


def _statements(script: str):
    buf = ""
    for line in script.splitlines(keepends=True):
        if line.lstrip().startswith("--"):
            continue
        buf += line
        if sqlite3.complete_statement(buf):
            yield buf.strip()
            buf = ""

