"""The Store: the only object that speaks SQL to personal.db.

Higher layers (indexer, search, graph, facade) call its methods with plain
values and get plain rows back. Each document is replaced inside one
transaction, so a kill at any moment leaves its old or its new state.
"""
from __future__ import annotations

import contextlib
import errno
import functools
import json
import os
import sqlite3
import time
from pathlib import Path
from typing import (TYPE_CHECKING, Any, Callable, Dict, Iterable, Iterator, List, Optional,
                    Sequence, Tuple)

from ..docref import storable
from ..errors import DatabaseError, NotFound, ReadOnlyError, SchemaTooNew, StoreKindError
from . import graph as graph_sql
from . import schema
from .connection import (connect, create_atomically, drop_dead_temporaries, drop_stale_journal,
                         like_contains, map_for_reading, translate)
from .fulltext import FullText, make_fulltext

if TYPE_CHECKING:   # a search never loads the passage builder
    from ..passages import StoredPassage

DocState = Tuple[int, int, int]  # id, size, mtime_ns

_DOC_FIELDS = ("id", "source_id", "path", "title", "format", "size", "mtime_ns", "sha256",
               "indexed_at", "warnings", "passages", "lang")
# Document columns plus the source's root and label, for `FROM documents d JOIN sources s`.
DOC_SELECT = ", ".join("d." + f for f in _DOC_FIELDS) + ", s.root, s.label"
DOC_FROM = "documents d JOIN sources s ON s.id = d.source_id"
PASSAGE_SELECT = "id, document_id, ordinal, heading, text, start, end, line_start, line_end, page"


def _exists(path: Path) -> bool:
    """Is there a file at `path`? A folder on the way that cannot be searched (no x
    permission) is a database problem with one clear line, not an internal error:
    `Path.exists` raises PermissionError there."""
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.ELOOP, errno.EBADF):
            return False   # as Path.exists: no file there
        raise DatabaseError(f"cannot open the index {path}: {exc.strerror or exc}") from None
    return True


class Store:
    """An open personal.db."""

    # What seeking one passage by id costs, in documents' rows read in a row
    # (`long_documents` chooses its way by it).
    SEEK_ROWS = 50

    def __init__(self, path: Path, conn: sqlite3.Connection, kind: str) -> None:
        self.path = path
        self.conn = conn
        self.kind = kind
        self.fulltext: FullText = make_fulltext(kind, conn)
        self.readonly = False   # opened for reading, or the file cannot be written
        self.writable = True    # the file and its folder can be written
        self.created = False    # this open created the file

    # -- opening -------------------------------------------------------------
    @classmethod
    def open(cls, path: Path, force_kind: Optional[str] = None,
             readonly: bool = False) -> "Store":
        """Open an index file, creating it (whole, never half-made) unless `readonly`.

        An existing file that is empty or not an index is refused: nothing
        but a new file is ever turned into an index.
        """
        path = Path(path).expanduser().absolute()
        if not _exists(path):
            if readonly:
                raise NotFound(f"no index at {path}: run `glean-personal index FOLDER` first")
            kind = force_kind or ("fts5" if _probe_fts5() else "plain")
            if kind == "fts5" and not _probe_fts5():
                raise StoreKindError("this Python's SQLite has no FTS5; use GLEAN_PERSONAL_STORE=plain")
            created = create_atomically(path, lambda conn: _write_schema(conn, kind))
        else:
            created = False
        if path.is_dir():
            raise DatabaseError(f"{path} is a folder, not an index file")
        try:
            empty = path.stat().st_size == 0
        except OSError as exc:
            raise DatabaseError(f"cannot open the index {path}: {exc.strerror}") from None
        if empty:
            raise DatabaseError(f"{path} is an empty file, not an index; move it aside or "
                                "choose another --db (it was left as it is)")
        writable = _can_write(path) and _can_write(path.parent)
        if writable and not readonly and not created:
            drop_dead_temporaries(path, ".new")   # a killed `index` of a new file left it
        # Read-write even for readers when the file allows: a hot journal left by a
        # killed writer must be rolled back before the file can be read.
        conn = connect(path, readonly=not writable)
        try:
            with translate(path):
                kind = cls._initialise(conn, path, writable)
                if writable:
                    drop_stale_journal(conn, path)
                if readonly:
                    conn.execute("PRAGMA query_only = ON")
                    map_for_reading(conn)
        except BaseException:
            conn.close()
            raise
        store = cls(path, conn, kind)
        store.readonly = readonly or not writable
        store.writable = writable
        store.created = created
        return store

    @staticmethod
    def _initialise(conn: sqlite3.Connection, path: Path, writable: bool) -> str:
        tables = _tables(conn)
        if "meta" not in tables:
            raise DatabaseError(f"{path} is an SQLite file but not a glean-personal index; "
                                "it was left as it is")
        meta = dict(conn.execute("SELECT key, value FROM meta"))
        version = int(meta.get("schema_version", "0"))
        if version > schema.SCHEMA_VERSION:
            raise SchemaTooNew(
                f"{path} was written by a newer glean-personal (schema {version}, this one "
                f"reads up to {schema.SCHEMA_VERSION}); upgrade glean-personal")
        kind = meta.get("store", "plain")
        if kind == "fts5" and not schema.has_fts5(conn):
            raise StoreKindError(
                f"{path} was built with FTS5, which this Python's SQLite lacks; use a Python "
                "whose SQLite has FTS5, or index into a new file with GLEAN_PERSONAL_STORE=plain")
        if version < schema.SCHEMA_VERSION:
            if not writable:
                raise ReadOnlyError(
                    f"{path} was written by an older glean-personal (schema {version}) and "
                    "this file cannot be written to upgrade it; open it once where it can be")
            conn.execute("BEGIN IMMEDIATE")
            try:
                for v in range(version, schema.SCHEMA_VERSION):
                    schema.MIGRATIONS[v](conn)
                if version < schema.REBUILD_FULLTEXT_BEFORE:
                    fulltext = make_fulltext(kind, conn)
                    fulltext.rebuild()
                    fulltext.flush()
                conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'",
                             (str(schema.SCHEMA_VERSION),))
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        return kind

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.conn.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """BEGIN IMMEDIATE … COMMIT; rolled back on any exception."""
        if self.readonly:
            raise ReadOnlyError(self.read_only_message())
        with translate(self.path):
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield
                self.fulltext.flush()
            except BaseException:
                self.fulltext.discard()
                with contextlib.suppress(sqlite3.Error):
                    self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """A consistent snapshot for several reads (and readable errors)."""
        with translate(self.path):
            if self.conn.in_transaction:
                yield
                return
            self.conn.execute("BEGIN")
            try:
                with self.fulltext.steady():
                    yield
            finally:
                with contextlib.suppress(sqlite3.Error):
                    self.conn.execute("COMMIT")

    def read_only_message(self) -> str:
        why = ("it was opened read-only" if self.writable else
               "this process cannot write the file or its folder")
        return f"the index {self.path} is read-only here ({why}); nothing was changed"

    # -- meta ----------------------------------------------------------------
    def meta(self, key: str, default: Optional[str] = None) -> Optional[str]:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else default

    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    def bump_generation(self) -> None:
        """Mark the documents as changed (the graph is stale until the next link)."""
        self.conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 "
                          "WHERE key = 'generation'")

    def schema_version(self) -> int:
        return int(self.meta("schema_version", "0") or 0)

    def db_bytes(self) -> int:
        try:
            return os.path.getsize(self.path)
        except OSError:
            return 0

    # -- sources -------------------------------------------------------------
    def sources(self) -> List[dict]:
        rows = self.conn.execute(
            "SELECT s.id, s.root, s.label, s.includes, s.excludes, s.max_bytes, s.last_indexed, "
            "s.last_report, (SELECT count(*) FROM documents d WHERE d.source_id = s.id), "
            "(SELECT coalesce(sum(d.passages), 0) FROM documents d WHERE d.source_id = s.id), "
            "(SELECT coalesce(sum(d.size), 0) FROM documents d WHERE d.source_id = s.id), "
            "s.missing_since, s.redact, "
            "(SELECT coalesce(sum(d.redactions), 0) FROM documents d WHERE d.source_id = s.id) "
            "FROM sources s ORDER BY s.label").fetchall()
        return [{"id": r[0], "root": r[1], "label": r[2], "includes": json.loads(r[3]),
                 "excludes": json.loads(r[4]), "max_bytes": r[5], "last_indexed": r[6],
                 "last_report": json.loads(r[7]) if r[7] else None, "documents": r[8],
                 "passages": r[9], "bytes": r[10], "missing_since": r[11],
                 "redact": bool(r[12]), "redactions": r[13]} for r in rows]

    def source_labels(self) -> Dict[int, str]:
        """Each source's label by its id (no counts: `sources` sums every document's)."""
        return dict(self.conn.execute("SELECT id, label FROM sources"))

    def document_sources(self, doc_ids: Iterable[int]) -> Dict[int, int]:
        """The source id of each document."""
        out: Dict[int, int] = {}
        for chunk in _chunks(list(doc_ids), 500):
            out.update(self.conn.execute(
                f"SELECT id, source_id FROM documents WHERE id IN ({','.join('?' * len(chunk))})",
                chunk))
        return out

    def source_settings(self, root: str) -> Optional[dict]:
        """A source's id, label and filters, without the counts `sources` adds."""
        row = self.conn.execute("SELECT id, label, includes, excludes, max_bytes, redact, "
                                "missing_since FROM sources WHERE root = ?", (root,)).fetchone()
        return row and {"id": row[0], "label": row[1], "includes": json.loads(row[2]),
                        "excludes": json.loads(row[3]), "max_bytes": row[4],
                        "redact": bool(row[5]), "missing_since": row[6]}

    def save_source(self, root: str, label: str, includes: Sequence[str],
                    excludes: Sequence[str], max_bytes: int, redact: bool = True) -> int:
        row = self.conn.execute("SELECT id FROM sources WHERE root = ?", (root,)).fetchone()
        values = (label, json.dumps(list(includes)), json.dumps(list(excludes)), max_bytes,
                  int(bool(redact)))
        if row:
            self.conn.execute("UPDATE sources SET label = ?, includes = ?, excludes = ?, "
                              "max_bytes = ?, redact = ? WHERE id = ?", values + (row[0],))
            return row[0]
        cur = self.conn.execute("INSERT INTO sources(label, includes, excludes, max_bytes, "
                                "redact, root) VALUES (?, ?, ?, ?, ?, ?)", values + (root,))
        return cur.lastrowid

    def set_missing(self, source_id: int, since: Optional[float]) -> None:
        """Record when a source's root was first found missing (None: it is back)."""
        if since is None:
            self.conn.execute("UPDATE sources SET missing_since = NULL WHERE id = ?", (source_id,))
        else:
            self.conn.execute("UPDATE sources SET missing_since = coalesce(missing_since, ?) "
                              "WHERE id = ?", (since, source_id))

    def move_source(self, source_id: int, root: str) -> None:
        """Re-point a source at a new root; its documents (relative paths, ids) stay."""
        self.conn.execute("UPDATE sources SET root = ?, missing_since = NULL WHERE id = ?",
                          (root, source_id))

    def source_by_root(self, root: str) -> Optional[dict]:
        return next((s for s in self.sources() if s["root"] == root), None)

    def sample_documents(self, source_id: int, n: int) -> List[Tuple[str, int, str]]:
        """(path, size, sha256) of up to n documents spread evenly over the source's paths."""
        rows = self.conn.execute("SELECT path, size, sha256 FROM documents WHERE source_id = ? "
                                 "ORDER BY path", (source_id,)).fetchall()
        if len(rows) <= n:
            return rows
        step = len(rows) / n
        return [rows[int(k * step)] for k in range(n)]

    def label_taken(self, label: str, root: str) -> bool:
        row = self.conn.execute("SELECT root FROM sources WHERE label = ?", (label,)).fetchone()
        return bool(row) and row[0] != root

    def record_run(self, source_id: int, report: dict) -> None:
        self.conn.execute("UPDATE sources SET last_indexed = ?, last_report = ? WHERE id = ?",
                          (time.time(), json.dumps(report), source_id))

    def readers_revision(self, source_id: int) -> Optional[str]:
        """The readers' revision that last read the whole source (None: before they had one)."""
        return self.meta(f"readers_revision:{source_id}")

    def set_readers_revision(self, source_id: int, revision: str) -> None:
        self.set_meta(f"readers_revision:{source_id}", revision)

    def reread(self, source_id: int) -> Optional[dict]:
        """The whole-source re-read under way, if one was begun and not finished:
        {"readers": revision, "redact": bool, "since": time it began}."""
        value = self.meta(f"reread:{source_id}")
        try:
            return json.loads(value) if value else None
        except ValueError:
            return None

    def set_reread(self, source_id: int, reread: Optional[dict]) -> None:
        if reread is None:
            self.conn.execute("DELETE FROM meta WHERE key = ?", (f"reread:{source_id}",))
        else:
            self.set_meta(f"reread:{source_id}", json.dumps(reread))

    def paths_indexed_since(self, source_id: int, since: float) -> set:
        """The documents of a source (re-)read at or after `since`."""
        return {r[0] for r in self.conn.execute(
            "SELECT path FROM documents WHERE source_id = ? AND indexed_at >= ?",
            (source_id, since))}

    def document_paths(self, source_id: int) -> Iterator[str]:
        """The paths of a source's documents, lazily (a caller may stop at the first)."""
        return (r[0] for r in self.conn.execute(
            "SELECT path FROM documents WHERE source_id = ?", (source_id,)))

    def delete_source(self, source_id: int) -> int:
        ids = [r[0] for r in self.conn.execute(
            "SELECT id FROM documents WHERE source_id = ?", (source_id,))]
        self.remove_documents(ids)
        self.conn.execute("DELETE FROM sources WHERE id = ?", (source_id,))
        self.conn.execute("DELETE FROM meta WHERE key IN (?, ?)",
                          (f"readers_revision:{source_id}", f"reread:{source_id}"))
        self.fulltext.compact()
        return len(ids)

    # -- documents -----------------------------------------------------------
    def document_states(self, source_id: int) -> Dict[str, DocState]:
        return {r[0]: (r[1], r[2], r[3]) for r in self.conn.execute(
            "SELECT path, id, size, mtime_ns FROM documents WHERE source_id = ?", (source_id,))}

    def document_count(self, source_id: int) -> int:
        return self.conn.execute("SELECT count(*) FROM documents WHERE source_id = ?",
                                 (source_id,)).fetchone()[0]

    def document_hashes(self, source_id: int) -> Dict[int, str]:
        return dict(self.conn.execute("SELECT id, sha256 FROM documents WHERE source_id = ?",
                                      (source_id,)))

    def put_document(self, source_id: int, path: str, title: str, fmt: str, size: int,
                     mtime_ns: int, sha256: str, warnings: Sequence[str],
                     passages: Sequence[StoredPassage],
                     phrases: bytes, redactions: int = 0, lang: Optional[str] = None) -> int:
        """Insert or replace one document with its passages (caller holds the transaction);
        `lang` is its language's code (language.py), None when unknown."""
        row = self.conn.execute("SELECT id FROM documents WHERE source_id = ? AND path = ?",
                                (source_id, path)).fetchone()
        values = (title, fmt, size, mtime_ns, sha256, time.time(), json.dumps(list(warnings)),
                  len(passages), redactions, lang)
        if row:
            doc_id = row[0]
            self._drop_passages([doc_id])
            graph_sql.delete_norms(self.conn, [doc_id])   # the graph has yet to link it again
            self.conn.execute("UPDATE documents SET title = ?, format = ?, size = ?, mtime_ns = ?, "
                              "sha256 = ?, indexed_at = ?, warnings = ?, passages = ?, "
                              "redactions = ?, lang = ? WHERE id = ?", values + (doc_id,))
        else:
            doc_id = self.conn.execute(
                "INSERT INTO documents(title, format, size, mtime_ns, sha256, indexed_at, "
                "warnings, passages, redactions, lang, source_id, path) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                values + (source_id, path)).lastrowid
        first = self.conn.execute("SELECT coalesce(max(id), 0) + 1 FROM passages").fetchone()[0]
        rows = [(first + i, doc_id, i, _heading_json(tuple(h)), t, s, e, l1, l2, page)
                for i, (h, t, s, e, l1, l2, page) in enumerate(passages)]
        self.conn.executemany(
            "INSERT INTO passages(id, document_id, ordinal, heading, text, start, end, "
            "line_start, line_end, page) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        self.fulltext.add([(r[0], title, r[3], r[4]) for r in rows])
        if not self.conn.in_transaction:
            self.fulltext.flush()
        graph_sql.put_doc_phrases(self.conn, doc_id, phrases)
        return doc_id

    def move_document(self, doc_id: int, path: str, mtime_ns: int) -> None:
        """A file renamed or moved inside its source: only its path (and mtime) change."""
        self.conn.execute("UPDATE documents SET path = ?, mtime_ns = ? WHERE id = ?",
                          (path, mtime_ns, doc_id))

    def touch_document(self, doc_id: int, size: int, mtime_ns: int) -> None:
        self.conn.execute("UPDATE documents SET size = ?, mtime_ns = ? WHERE id = ?",
                          (size, mtime_ns, doc_id))

    def remove_documents(self, doc_ids: Sequence[int]) -> None:
        for chunk in _chunks(list(doc_ids), 500):
            self._drop_passages(chunk)
            marks = ",".join("?" * len(chunk))
            self.conn.execute(f"DELETE FROM documents WHERE id IN ({marks})", chunk)
            self.conn.execute(f"DELETE FROM links WHERE a IN ({marks}) OR b IN ({marks})",
                              chunk + chunk)
            graph_sql.delete_doc_phrases(self.conn, chunk)
            graph_sql.delete_norms(self.conn, chunk)

    def _drop_passages(self, doc_ids: Sequence[int]) -> None:
        marks = ",".join("?" * len(doc_ids))
        ids = [r[0] for r in self.conn.execute(
            f"SELECT id FROM passages WHERE document_id IN ({marks})", list(doc_ids))]
        if ids:
            self.fulltext.remove(ids)
            for chunk in _chunks(ids, 500):
                self.conn.execute(
                    f"DELETE FROM passages WHERE id IN ({','.join('?' * len(chunk))})", chunk)

    def document(self, doc_id: int) -> Optional[dict]:
        row = self.conn.execute(f"SELECT {DOC_SELECT} FROM {DOC_FROM} WHERE d.id = ?",
                                (doc_id,)).fetchone()
        return _doc_row(row) if row else None

    def documents(self, doc_ids: Iterable[int]) -> Dict[int, dict]:
        ids = list(doc_ids)
        out: Dict[int, dict] = {}
        for chunk in _chunks(ids, 500):
            marks = ",".join("?" * len(chunk))
            for row in self.conn.execute(
                    f"SELECT {DOC_SELECT} FROM {DOC_FROM} WHERE d.id IN ({marks})", chunk):
                out[row[0]] = _doc_row(row)
        return out

    def find_documents(self, fragment: str, limit: int = 50) -> List[dict]:
        """Documents whose relative or absolute path ends with, or contains, `fragment`
        (undecodable bytes in it escaped as the stored paths have them)."""
        fragment = storable(fragment)
        pattern = like_contains(fragment)
        rows = self.conn.execute(
            f"SELECT {DOC_SELECT} FROM {DOC_FROM} "
            "WHERE (s.root || '/' || d.path) LIKE ? ESCAPE '\\' OR d.title = ? "
            "ORDER BY length(d.path), d.path LIMIT ?", (pattern, fragment, limit)).fetchall()
        return [_doc_row(r) for r in rows]

    def document_ids(self) -> List[int]:
        return [r[0] for r in self.conn.execute("SELECT id FROM documents ORDER BY id")]

    def passages_of(self, doc_id: int) -> List[dict]:
        return [_passage_row(r) for r in self.conn.execute(
            f"SELECT {PASSAGE_SELECT} FROM passages WHERE document_id = ? ORDER BY ordinal",
            (doc_id,))]

    def passages(self, passage_ids: Iterable[int]) -> Dict[int, dict]:
        ids = list(passage_ids)
        out: Dict[int, dict] = {}
        for chunk in _chunks(ids, 500):
            for r in self.conn.execute(
                    f"SELECT {PASSAGE_SELECT} FROM passages "
                    f"WHERE id IN ({','.join('?' * len(chunk))})", chunk):
                out[r[0]] = _passage_row(r)
        return out

    def passage_documents_titled(self, passage_ids: Iterable[int]) -> Tuple[
            Dict[int, int], Dict[int, str], Dict[int, str], Dict[int, Optional[str]],
            Dict[int, int]]:
        """The document of each passage, and those documents' titles, paths (relative
        to the source's root), languages and numbers of passages, in one read (no
        passage text: what ranking needs first)."""
        doc_of: Dict[int, int] = {}
        titles: Dict[int, str] = {}
        paths: Dict[int, str] = {}
        langs: Dict[int, Optional[str]] = {}
        sizes: Dict[int, int] = {}
        for chunk in _chunks(list(passage_ids), 500):
            for pid, doc_id, title, path, lang, count in self.conn.execute(
                    "SELECT p.id, p.document_id, d.title, d.path, d.lang, d.passages "
                    "FROM passages p LEFT JOIN documents d ON d.id = p.document_id "
                    f"WHERE p.id IN ({','.join('?' * len(chunk))})", chunk):
                doc_of[pid] = doc_id
                if title is not None:
                    titles[doc_id] = title
                    paths[doc_id] = path
                    langs[doc_id] = lang
                    sizes[doc_id] = count or 0
        return doc_of, titles, paths, langs, sizes

    def passage_shape(self, doc_id: int) -> Tuple[int, int, float]:
        """A document's number of passages, of different heading paths among them, and
        their mean length in characters (one aggregate read of its passages' rows)."""
        count, headings, mean = self.conn.execute(
            'SELECT count(*), count(DISTINCT heading), avg("end" - start) FROM passages '
            "WHERE document_id = ?", (doc_id,)).fetchone()
        return count, headings, mean or 0.0

    # Passages read to estimate the index's mean passage length.
    LENGTH_SAMPLE = 250

    def mean_passage_length(self) -> float:
        """The index's mean passage length in characters, estimated from at most
        `LENGTH_SAMPLE` passages spread evenly over the ids (reading every passage
        cost 0.21 s of CPU on the 10k corpus's 100,638); kept while the index is
        unchanged."""
        def read() -> float:
            lo, hi = self.conn.execute("SELECT min(id), max(id) FROM passages").fetchone()
            if lo is None:
                return 1.0
            step = -(-(hi - lo + 1) // self.LENGTH_SAMPLE)   # at most LENGTH_SAMPLE ids
            ids = list(range(lo, hi + 1, step))
            total = count = 0
            for chunk in _chunks(ids, 500):
                for (n,) in self.conn.execute(
                        'SELECT "end" - start FROM passages '
                        f"WHERE id IN ({','.join('?' * len(chunk))})", chunk):
                    total += n
                    count += 1
            return total / count if count else 1.0
        return self.fulltext.remember("mean passage length", 0, read)

    def main_language(self) -> Optional[str]:
        """The language most of the index's passages are in (None: most are of no known
        language). Kept while the index is unchanged."""
        def read() -> Optional[str]:
            row = self.conn.execute("SELECT lang FROM documents GROUP BY lang "
                                    "ORDER BY sum(passages) DESC, lang LIMIT 1").fetchone()
            return row[0] if row else None
        return self.fulltext.remember("main language", None, read)

    def translation_trees(self, languages: Callable[[Dict[str, str]], Dict[str, str]]
                          ) -> Dict[str, str]:
        """`languages` (`language.tree_languages`) of every document path that has a
        folder in it, kept while the index is unchanged: whether a page sits in a
        translation tree depends on its siblings, which need not be among a search's
        candidates."""
        def read() -> Dict[str, str]:
            paths = {path: path for (path,) in self.conn.execute(
                "SELECT DISTINCT path FROM documents WHERE instr(path, '/') > 0")}
            return languages(paths)
        return self.fulltext.remember("translation trees", None, read)

    def language_folders(self, confirm: Callable[[List[Tuple[str, str]]], frozenset]
                         ) -> frozenset:
        """`confirm` (`language.language_folders`) of every document's path and
        language, kept while the index is unchanged: whether a folder named like a
        language holds pages in it depends on pages a search need not find."""
        def read() -> frozenset:
            return confirm(self.conn.execute(
                "SELECT path, lang FROM documents WHERE lang IS NOT NULL "
                "AND instr(path, '/') > 0").fetchall())
        return self.fulltext.remember("language folders", None, read)

    def contained_share(self, part: int, whole: int) -> float:
        """The share of document `part`'s passages whose text is also a passage of `whole`."""
        total, shared = self.conn.execute(
            "SELECT count(*), count(CASE WHEN EXISTS (SELECT 1 FROM passages b"
            " WHERE b.document_id = ? AND b.text = a.text) THEN 1 END)"
            " FROM passages a WHERE a.document_id = ?", (whole, part)).fetchone()
        return shared / total if total else 0.0

    def phrase_sets(self, doc_ids: Sequence[int]) -> List[Tuple[int, bytes]]:
        """(document id, its packed phrase ids) of those of the documents that have them."""
        return graph_sql.doc_phrases_of(self.conn, doc_ids)

    def phrase_sketches(self, doc_ids: Sequence[int],
                        max_bytes: int
                        ) -> Dict[int, Tuple[bytes, int, int, int, Optional[str]]]:
        """Each document's phrase sketch (a prefix of its sorted phrase ids), full size,
        source id, passage count and language (what telling copies apart needs, in one
        read); b"", 0 without phrases."""
        return {d: (blob or b"", size or 0, source, passages or 0, lang)
                for d, blob, size, source, passages, lang
                in graph_sql.doc_sketches_of(self.conn, doc_ids, max_bytes)}

    def passage_ranges(self, doc_ids: Sequence[int]) -> Dict[int, Tuple[int, int]]:
        """The first and last passage id of each document (they are contiguous, numbered
        in the passages' order: `put_document`). Two seeks in the index by document and
        ordinal, not a walk over every passage of a long document."""
        out: Dict[int, Tuple[int, int]] = {d: (0, -1) for d in doc_ids}
        for chunk in _chunks(list(out), 500):
            for doc_id, lo, hi in self.conn.execute(
                    "SELECT d.id, (SELECT id FROM passages WHERE document_id = d.id "
                    "ORDER BY ordinal LIMIT 1), (SELECT id FROM passages WHERE document_id = d.id "
                    "ORDER BY ordinal DESC LIMIT 1) FROM documents d "
                    f"WHERE d.id IN ({','.join('?' * len(chunk))})", chunk):
                if lo is not None:
                    out[doc_id] = (lo, hi)
        return out

    def long_documents(self, passages: int) -> List[Tuple[str, str, int, int]]:
        """The title, path and first and last passage id of each document of at least
        `passages` passages. Kept while the index is unchanged: a search asks on every
        question.

        A document's passage ids are contiguous (`put_document`), so each document of
        `passages` or more holds a multiple of `passages`. Where those ids are few
        beside the documents (a search asks for a hundredth of the index's passages:
        about a hundred ids), only the documents holding them are read, not every
        document's row (2 ms for 10,000 documents in a fresh process, as a command
        is, and 1 for the hundred seeks)."""
        def read() -> List[Tuple[str, str, int, int]]:
            last_passage, last_document = self.conn.execute(
                "SELECT (SELECT max(id) FROM passages), (SELECT max(id) FROM documents)").fetchone()
            seeks = (last_passage or 0) // max(1, passages)   # multiples of `passages`
            if passages >= 1 and seeks * self.SEEK_ROWS < (last_document or 0):
                rows = self.conn.execute(
                    "WITH RECURSIVE every(id) AS (SELECT ?1 UNION ALL SELECT id + ?1 FROM every "
                    "WHERE id + ?1 <= ?2) SELECT id, title, path FROM documents "
                    "WHERE passages >= ?1 AND id IN (SELECT document_id FROM passages "
                    "WHERE id IN (SELECT id FROM every)) ORDER BY id",
                    (passages, last_passage)).fetchall()
            else:
                rows = self.conn.execute("SELECT id, title, path FROM documents "
                                         "WHERE passages >= ?", (passages,)).fetchall()
            spans = self.passage_ranges([d for d, _, _ in rows])
            return [(title, path) + spans[d] for d, title, path in rows]
        return self.fulltext.remember("long documents", passages, read)

    def format_counts(self) -> Dict[int, Dict[str, int]]:
        """{source id: {format: documents}}."""
        out: Dict[int, Dict[str, int]] = {}
        for source_id, fmt, n in self.conn.execute(
                "SELECT source_id, format, COUNT(*) FROM documents GROUP BY source_id, format "
                "ORDER BY source_id, COUNT(*) DESC, format"):
            out.setdefault(source_id, {})[fmt] = n
        return out

    def counts(self) -> Dict[str, int]:
        docs, passages, redactions = self.conn.execute(
            "SELECT count(*), coalesce(sum(passages), 0), coalesce(sum(redactions), 0) "
            "FROM documents").fetchone()
        return {"documents": docs, "passages": passages, "redactions": redactions}

    def passage_count(self) -> int:
        """How many passages the index holds (read from an index, not by summing documents)."""
        return self.fulltext.passage_count()

    def free_bytes(self) -> int:
        """Bytes of free pages in the file: what `compact` gives back at least."""
        free = self.conn.execute("PRAGMA freelist_count").fetchone()[0]
        return free * self.conn.execute("PRAGMA page_size").fetchone()[0]

    def vacuum(self) -> None:
        """Rewrite the file without its free pages (caller holds the writer lock)."""
        if self.readonly:
            raise ReadOnlyError(self.read_only_message())
        with translate(self.path):
            self.conn.execute("PRAGMA temp_store = FILE")   # the copy may not fit in memory
            try:
                self.conn.execute("VACUUM")
            finally:
                self.conn.execute("PRAGMA temp_store = MEMORY")

    def optimize_fulltext(self) -> None:
        with self.transaction():
            self.fulltext.compact()

    def last_indexed(self) -> Optional[float]:
        return self.conn.execute("SELECT max(last_indexed) FROM sources").fetchone()[0]


def _can_write(path: Path) -> bool:
    """Writable by this process, and meant to be: a file or folder with no write bit is
    taken as read-only even by a superuser, whom the permissions do not stop."""
    try:
        return os.access(path, os.W_OK) and bool(path.stat().st_mode & 0o222)
    except OSError:
        return False


@functools.lru_cache(maxsize=1)
def _probe_fts5() -> bool:
    conn = sqlite3.connect(":memory:")
    try:
        return schema.has_fts5(conn)
    finally:
        conn.close()


def _write_schema(conn: sqlite3.Connection, kind: str) -> None:
    conn.execute("BEGIN IMMEDIATE")
    try:
        schema.create(conn, kind)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


@functools.lru_cache(maxsize=1024)
def _heading_json(heading: tuple) -> str:
    """A heading path as stored; passages in a row share theirs, so each is encoded once."""
    return json.dumps(heading, ensure_ascii=False)


def _heading(stored: str) -> Any:
    """A stored heading path read back, a list of its own for each row."""
    path = _heading_path(stored)
    return list(path) if path is not None else json.loads(stored)


@functools.lru_cache(maxsize=1024)
def _heading_path(stored: str) -> Optional[tuple]:
    """A stored heading path as a tuple of strings (None if it is something else): a
    document's passages share a few, so each is decoded once."""
    value = _json_value(stored)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


_SCAN_JSON = json.JSONDecoder().scan_once


def _json_value(stored: str) -> Any:
    """`json.loads(stored)`, by the decoder's own C scanner when the text is one JSON value
    and nothing more, as `_heading_json` writes it (`json.loads` wraps the same scanner
    in Python, about three times the cost of a short heading path); anything else goes
    to `json.loads`, which reads it or raises as before. Most passages read are the
    first of their heading path that a search sees, so the cache above seldom holds it."""
    try:
        value, end = _SCAN_JSON(stored, 0)
    except (StopIteration, ValueError):
        return json.loads(stored)
    return value if end == len(stored) else json.loads(stored)


def _tables(conn: sqlite3.Connection) -> set:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def _doc_row(r: Sequence) -> dict:
    return {"id": r[0], "source_id": r[1], "path": r[2], "title": r[3], "format": r[4],
            "size": r[5], "mtime_ns": r[6], "sha256": r[7], "indexed_at": r[8],
            "warnings": json.loads(r[9]) if r[9] != "[]" else [], "passages": r[10],
            "lang": r[11], "root": r[12], "source": r[13]}


def _passage_row(r: Sequence) -> dict:
    return {"id": r[0], "document_id": r[1], "ordinal": r[2], "heading": _heading(r[3]),
            "text": r[4], "start": r[5], "end": r[6],
            "lines": [r[7], r[8]] if r[7] is not None else None, "page": r[9]}


def passage_text(passage: dict) -> str:
    """A passage row's heading path and text: what match strength and did-you-mean read."""
    return "\n".join(passage_parts(passage))


def passage_parts(passage: dict) -> List[str]:
    """The lines `passage_text` joins: each heading of the path, then the text."""
    heading = passage.get("heading") or []
    if isinstance(heading, str):
        heading = [heading]
    return list(heading) + [passage["text"]]


def _chunks(items: list, size: int) -> Iterator[list]:
    for i in range(0, len(items), size):
        yield items[i:i + size]
