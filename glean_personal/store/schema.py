"""The tables of personal.db, their version, and the store-kind probe.

`SCHEMA_VERSION` goes up with every change to the tables; `MIGRATIONS[n]`
turns a version-n file into version n+1 and runs inside one transaction.
"""
from __future__ import annotations

import sqlite3
from typing import Callable, Dict, Iterator

from .graph import GRAPH_NORMS, GRAPH_SCHEMA

SCHEMA_VERSION = 5
TOKENIZER = "porter unicode61 remove_diacritics 2"

# Column weights of the full-text index: a title hit beats a heading hit beats a body hit.
TITLE_WEIGHT, HEADING_WEIGHT, BODY_WEIGHT = 8.0, 3.0, 1.0
# Each field's search form (analysis.alt_text: CJK bigrams, unmarked Greek,
# Cyrillic, Hebrew and Arabic, identifier parts) weighs a quarter of its field:
# in English text it holds only identifier parts, which should not outweigh
# the words themselves (measured on the golden sets: docs/search.md).
ALT_SHARE = 0.25
FTS_COLUMNS = ("title", "heading", "text", "title_alt", "heading_alt", "text_alt")
FTS_WEIGHTS = (TITLE_WEIGHT, HEADING_WEIGHT, BODY_WEIGHT,
               TITLE_WEIGHT * ALT_SHARE, HEADING_WEIGHT * ALT_SHARE, BODY_WEIGHT * ALT_SHARE)
BM25_WEIGHTS = ", ".join(str(w) for w in FTS_WEIGHTS)

ALT_FUNCTION = "glean_alt"
"""The SQL function (registered on every connection) that computes a search form."""

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
    last_report TEXT,
    missing_since REAL,
    redact INTEGER NOT NULL DEFAULT 1
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
    redactions INTEGER NOT NULL DEFAULT 0,
    lang TEXT,            -- the document's language (language.py), NULL when unknown
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
-- What the FTS5 index reads: the passage's fields and their search forms,
-- computed by a function glean-personal registers (no copy is stored).
CREATE VIEW passage_indexed AS
    SELECT id, document_id, title, heading, text,
           {ALT_FUNCTION}(title) AS title_alt, {ALT_FUNCTION}(heading) AS heading_alt,
           {ALT_FUNCTION}(text) AS text_alt
    FROM passage_content;
CREATE VIRTUAL TABLE passage_fts USING fts5(
    {", ".join(FTS_COLUMNS)},
    content='passage_indexed', content_rowid='id',
    tokenize='{TOKENIZER}'
);
INSERT INTO passage_fts(passage_fts, rank) VALUES ('rank', 'bm25({BM25_WEIGHTS})');
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


def _v2_to_v3(conn: sqlite3.Connection) -> None:
    """Add the search-form columns: the FTS5 table is made again, empty (the
    caller rebuilds every full-text index older than REBUILD_FULLTEXT_BEFORE)."""
    kind = conn.execute("SELECT value FROM meta WHERE key = 'store'").fetchone()
    if kind and kind[0] == "fts5":
        conn.execute("DROP TABLE IF EXISTS passage_fts")
        conn.execute("DROP VIEW IF EXISTS passage_indexed")
        for statement in _statements(FTS5):
            conn.execute(statement)


def _v3_to_v4(conn: sqlite3.Connection) -> None:
    """Missing roots, per-source redaction, redaction counts, the graph's stored norms."""
    _add_column(conn, "sources", "missing_since", "REAL")
    _add_column(conn, "sources", "redact", "INTEGER NOT NULL DEFAULT 1")
    _add_column(conn, "documents", "redactions", "INTEGER NOT NULL DEFAULT 0")
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'doc_norms'").fetchone():
        for statement in _statements(GRAPH_NORMS):
            conn.execute(statement)


def _add_column(conn: sqlite3.Connection, table: str, column: str, decl: str) -> None:
    """ALTER TABLE … ADD COLUMN, unless the column is there already."""
    if column not in {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}:
        conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")


def _v4_to_v5(conn: sqlite3.Connection) -> None:
    """Documents learn their language (NULL, unknown, until re-read: the readers'
    revision went up with it, so the next `index` of a source reads every file again)."""
    _add_column(conn, "documents", "lang", "TEXT")


MIGRATIONS: Dict[int, Callable[[sqlite3.Connection], None]] = {
    1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4, 4: _v4_to_v5}

REBUILD_FULLTEXT_BEFORE = 3
"""A file older than this has its full-text index rebuilt from its passages
after migrating (the search forms were added in version 3)."""


def has_fts5(conn: sqlite3.Connection) -> bool:
    """Does this SQLite have FTS5? FTS5 registers an SQL function `fts5()` (how an
    extension finds its API); asking for it costs far less than making and dropping
    a probe table, which every open of an index did (half a millisecond a search)."""
    try:
        conn.execute("SELECT fts5(NULL)").fetchone()
        return True
    except sqlite3.Error:
        return False


def create(conn: sqlite3.Connection, kind: str) -> None:
    """Write a fresh schema of the given store kind (inside the caller's transaction)."""
    script = COMMON + GRAPH_SCHEMA + GRAPH_NORMS + (FTS5 if kind == "fts5" else PLAIN)
    for statement in _statements(script):
        conn.execute(statement)
    conn.executemany("INSERT INTO meta(key, value) VALUES (?, ?)", [
        ("schema_version", str(SCHEMA_VERSION)), ("store", kind),
        ("generation", "0"), ("graph_generation", "-1"),
    ])


def _statements(script: str) -> Iterator[str]:
    buf = ""
    for line in script.splitlines(keepends=True):
        if line.lstrip().startswith("--"):
            continue
        buf += line
        if sqlite3.complete_statement(buf):
            yield buf.strip()
            buf = ""

