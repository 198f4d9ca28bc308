"""SQL for autocomplete: titles, headings and passages that start a word with a prefix.

Autocomplete runs per keystroke, so every query here is bounded by a LIMIT
and avoids work that grows with the corpus where it can: titles are one short
column scanned once (`documents` is one row per file); headings and body words
come from the full-text index (an FTS5 prefix query, or a range over the plain
store's term postings), never from a LIKE over every passage. The caller ranks
and shapes the rows; nothing here decides what a good completion is.
"""
from __future__ import annotations

import json
import sqlite3
from typing import List, Tuple

from ..analysis import fold_all
from .connection import FOLD_FUNCTION, like_contains

_MAX_CHAR = "\U0010ffff"

DocRow = Tuple[int, str, str, str, int, str, str]  # id, title, path, format, mtime_ns, root, label


def titles_sql(fragment: str, limit: int) -> Tuple[str, list]:
    """Documents whose title contains `fragment` (SQLite LIKE: ASCII case-insensitive)."""
    return ("SELECT d.id, d.title, d.path, d.format, d.mtime_ns, s.root, s.label "
            "FROM documents d JOIN sources s ON s.id = d.source_id "
            "WHERE d.title LIKE ? ESCAPE '\\' ORDER BY length(d.title), d.id LIMIT ?",
            [like_contains(fragment), limit])


def folded_titles_sql(fragment: str, limit: int) -> Tuple[str, list]:
    """Documents whose title is not all ASCII and, folded as search forms fold it (case,
    the marks of every script), contains `fragment` folded: `Crème`, `Ёлка`, `Αθήνα`,
    which LIKE, folding ASCII letters alone, does not find for `creme`, `ёлк`, `αθη`."""
    return ("SELECT d.id, d.title, d.path, d.format, d.mtime_ns, s.root, s.label "
            "FROM documents d JOIN sources s ON s.id = d.source_id "
            f"WHERE d.title GLOB ? AND {FOLD_FUNCTION}(d.title) LIKE ? ESCAPE '\\' "
            "ORDER BY length(d.title), d.id LIMIT ?",
            [_NOT_ASCII, like_contains(fold_all(fragment)), limit])


_NOT_ASCII = "*[^\x01-\x7f]*"


def titles(conn: sqlite3.Connection, fragment: str, limit: int = 60) -> List[DocRow]:
    """Titles holding `fragment` (LIKE), then the titles not in ASCII that hold it folded."""
    sql, params = titles_sql(fragment, limit)
    rows = [tuple(r) for r in conn.execute(sql, params)]
    if len(rows) < limit:
        seen = {r[0] for r in rows}
        sql, params = folded_titles_sql(fragment, limit)
        rows += [tuple(r) for r in conn.execute(sql, params) if r[0] not in seen][:limit - len(rows)]
    return rows


def fts5_sql(expression: str, limit: int, column: str = "") -> Tuple[str, list]:
    """Passages matching an FTS5 expression (optionally within one column), rowid order.

    No ORDER BY rank: ranking every match of a short prefix would cost more than
    the keystroke allows, and the caller only counts words in a sample.
    """
    match = f"{column} : ({expression})" if column else expression
    return ("SELECT p.id, p.heading, p.text FROM passage_fts f JOIN passages p ON p.id = f.rowid "
            "WHERE passage_fts MATCH ? LIMIT ?", [match, limit])


def plain_sql(stem_prefix: str, limit: int) -> Tuple[str, list]:
    """Passages holding a term that starts with `stem_prefix` in the plain store's postings."""
    return ("SELECT p.id, p.heading, p.text FROM passages p WHERE p.id IN ("
            "SELECT passage_id FROM plain_postings WHERE term >= ? AND term < ? LIMIT ?)",
            [stem_prefix, stem_prefix + _MAX_CHAR, limit])


def passages(conn: sqlite3.Connection, kind: str, expression: str, stem_prefix: str,
             limit: int = 40, column: str = "") -> List[Tuple[int, List[str], str]]:
    """A bounded sample of passages (id, heading path, text) that contain the prefix.

    `expression` is a ready FTS5 expression (its user text already quoted by the
    caller, e.g. with `query.Term.fts5`); the plain store uses `stem_prefix`.
    """
    if kind == "fts5":
        sql, params = fts5_sql(expression, limit, column)
    else:
        sql, params = plain_sql(stem_prefix, limit)
    return [(r[0], json.loads(r[1]), r[2]) for r in conn.execute(sql, params)]
