"""SQL of the content graph: per-document phrase sets and the links built from them.

A link is one row ``(a, b, score, evidence)`` with ``a < b`` (document ids);
``evidence`` is JSON: ``{"phrases": [[phrase_id, share], ...], "title": [phrase_id, ...]}``
-- the shared phrases that contributed most, with their share of the score,
and the rare title words the two documents share.  Phrase ids, not text: the
text is recovered from the documents when it is shown, so it is never stored
twice.
"""
from __future__ import annotations

import heapq
import sqlite3
from typing import Collection, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

GRAPH_SCHEMA = """
-- Each document's graph phrases as a packed array of 32-bit phrase ids,
-- written in the same transaction as the document's passages.
CREATE TABLE doc_phrases (document_id INTEGER PRIMARY KEY, phrases BLOB NOT NULL);
-- Undirected links, a < b; rebuilt whole by each `link`.
CREATE TABLE links (
    a INTEGER NOT NULL, b INTEGER NOT NULL, score REAL NOT NULL, evidence TEXT NOT NULL,
    PRIMARY KEY (a, b)
) WITHOUT ROWID;
CREATE INDEX links_by_b ON links(b);
"""

GRAPH_NORMS = """
-- Each document's norm as the last `link` (or incremental update) weighed its
-- phrases, so a few changed documents can be linked without a full rebuild.
CREATE TABLE doc_norms (document_id INTEGER PRIMARY KEY, norm REAL NOT NULL);
"""

LinkRow = Tuple[int, int, float, str]


def put_doc_phrases(conn: sqlite3.Connection, document_id: int, phrases: bytes) -> None:
    conn.execute("INSERT OR REPLACE INTO doc_phrases(document_id, phrases) VALUES (?, ?)",
                 (document_id, phrases))


def delete_doc_phrases(conn: sqlite3.Connection, document_ids: Iterable[int]) -> None:
    conn.executemany("DELETE FROM doc_phrases WHERE document_id = ?",
                     [(i,) for i in document_ids])


def delete_norms(conn: sqlite3.Connection, document_ids: Iterable[int]) -> None:
    conn.executemany("DELETE FROM doc_norms WHERE document_id = ?", [(i,) for i in document_ids])


def put_norms(conn: sqlite3.Connection, norms: Iterable[Tuple[int, float]]) -> None:
    conn.executemany("INSERT OR REPLACE INTO doc_norms(document_id, norm) VALUES (?, ?)", norms)


def clear_norms(conn: sqlite3.Connection) -> None:
    conn.execute("DELETE FROM doc_norms")


def doc_phrases_of(conn: sqlite3.Connection, document_ids: Sequence[int]) -> List[Tuple[int, bytes]]:
    """(document id, packed phrases) of the given documents."""
    ids = list(document_ids)
    out: List[Tuple[int, bytes]] = []
    for k in range(0, len(ids), 500):
        chunk = ids[k:k + 500]
        out += conn.execute("SELECT document_id, phrases FROM doc_phrases WHERE document_id IN "
                            f"({','.join('?' * len(chunk))})", chunk).fetchall()
    return out


def doc_sketches_of(conn: sqlite3.Connection, document_ids: Sequence[int],
                    max_bytes: int
                    ) -> List[Tuple[int, Optional[bytes], Optional[int], int, int, Optional[str]]]:
    """(document id, the first `max_bytes` of its packed phrases, the whole length, its
    source id, its passage count, its language) for each of the documents; phrase ids
    are hashes stored sorted, so a prefix is a bottom-k sketch. A document without
    phrases has None for both."""
    ids = list(document_ids)
    out: List[Tuple[int, Optional[bytes], Optional[int], int, int, Optional[str]]] = []
    for k in range(0, len(ids), 500):
        chunk = ids[k:k + 500]
        out += conn.execute(
            "SELECT d.id, substr(p.phrases, 1, ?), length(p.phrases), d.source_id, d.passages, "
            "d.lang "
            "FROM documents d LEFT JOIN doc_phrases p ON p.document_id = d.id "
            f"WHERE d.id IN ({','.join('?' * len(chunk))})", [max_bytes] + chunk).fetchall()
    return out


def top_links(conn: sqlite3.Connection, top_k: int,
              leave_out: Collection[int] = ()) -> Dict[int, List[Tuple[float, int]]]:
    """Per document, its `top_k` best links as (score, -other), best first, leaving out
    every link with an end in `leave_out`."""
    found: Dict[int, List[Tuple[float, int]]] = {}
    for a, b, score in conn.execute("SELECT a, b, score FROM links"):
        if a in leave_out or b in leave_out:
            continue
        found.setdefault(a, []).append((score, -b))
        found.setdefault(b, []).append((score, -a))
    return {d: heapq.nlargest(top_k, v) for d, v in found.items()}


def unlinked_documents(conn: sqlite3.Connection) -> List[int]:
    """Documents written since the graph last linked them: those without a norm (writing a
    document drops its norm; `link` and each incremental update write one). None when no
    document has a norm: a graph built before norms were kept."""
    if conn.execute("SELECT 1 FROM doc_norms LIMIT 1").fetchone() is None:
        return []
    return [r[0] for r in conn.execute(
        "SELECT id FROM documents WHERE id NOT IN (SELECT document_id FROM doc_norms)")]


def norms(conn: sqlite3.Connection) -> Dict[int, float]:
    return dict(conn.execute("SELECT document_id, norm FROM doc_norms"))


def delete_links_of(conn: sqlite3.Connection, document_ids: Sequence[int]) -> None:
    ids = list(document_ids)
    for k in range(0, len(ids), 400):
        chunk = ids[k:k + 400]
        marks = ",".join("?" * len(chunk))
        conn.execute(f"DELETE FROM links WHERE a IN ({marks}) OR b IN ({marks})", chunk + chunk)


def add_links(conn: sqlite3.Connection, rows: Iterable[LinkRow]) -> None:
    """Insert or replace links (a < b) without touching the others."""
    conn.executemany("INSERT OR REPLACE INTO links(a, b, score, evidence) VALUES (?, ?, ?, ?)",
                     rows)


# -- reading the phrase sets ---------------------------------------------------
def graph_documents(conn: sqlite3.Connection) -> List[Tuple[int, str, str, str]]:
    """(id, source root, path, title) of every document."""
    return conn.execute(
        "SELECT d.id, s.root, d.path, d.title FROM documents d "
        "JOIN sources s ON s.id = d.source_id").fetchall()


def phrase_bytes(conn: sqlite3.Connection) -> int:
    """Total size of the packed phrase sets (cheap: SQLite reads blob sizes from headers)."""
    return conn.execute("SELECT coalesce(sum(length(phrases)), 0) FROM doc_phrases").fetchone()[0]


def iter_doc_phrases(conn: sqlite3.Connection) -> Iterator[Tuple[int, bytes]]:
    """(document id, packed phrases) for every document, streamed."""
    cur = conn.execute("SELECT document_id, phrases FROM doc_phrases")
    while True:
        rows = cur.fetchmany(256)
        if not rows:
            return
        yield from rows


# -- the links -------------------------------------------------------------------
def replace_links(conn: sqlite3.Connection, rows: Iterable[LinkRow]) -> None:
    """Drop every link and write `rows` (caller holds the transaction).

    Links to documents that vanished meanwhile are dropped too.
    """
    conn.execute("DELETE FROM links")
    conn.executemany("INSERT INTO links(a, b, score, evidence) VALUES (?, ?, ?, ?)", rows)
    conn.execute("DELETE FROM links WHERE a NOT IN (SELECT id FROM documents) "
                 "OR b NOT IN (SELECT id FROM documents)")


def links_of(conn: sqlite3.Connection, document_id: int) -> List[Tuple[int, float, str]]:
    """(other document id, score, evidence JSON) for each link of one document."""
    return conn.execute(
        "SELECT b, score, evidence FROM links WHERE a = ? "
        "UNION ALL SELECT a, score, evidence FROM links WHERE b = ?",
        (document_id, document_id)).fetchall()


def link_figures(conn: sqlite3.Connection) -> Dict[str, float]:
    """Links, documents with a link, highest degree and median score."""
    links = conn.execute("SELECT count(*) FROM links").fetchone()[0]
    linked, max_degree = conn.execute(
        "SELECT count(*), coalesce(max(n), 0) FROM (SELECT d, count(*) AS n FROM "
        "(SELECT a AS d FROM links UNION ALL SELECT b FROM links) GROUP BY d)").fetchone()
    median = 0.0
    if links:
        middle = [r[0] for r in conn.execute(
            "SELECT score FROM links ORDER BY score LIMIT ? OFFSET ?",
            (2 - links % 2, (links - 1) // 2))]
        median = sum(middle) / len(middle)
    return {"links": links, "documents": linked, "max_degree": max_degree,
            "median_score": median}
