"""The two full-text stores behind one interface.

`fts5`: an external-content FTS5 table over the `passage_content` view, so
passage text lives once, keyed by passage rowid (deleting by an UNINDEXED
column would scan the whole table per file). Ranked by weighted `bm25()`.

`plain`: for a SQLite without FTS5, an inverted index in an ordinary table
(weighted term frequency per passage) and a BM25 scorer in Python that weights
each term by its rarity, so a word in most passages cannot outrank the rare
word that distinguishes a hit.
"""
from __future__ import annotations

import contextlib
import functools
import heapq
import math
import sqlite3
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from typing import (Any, Callable, Dict, Hashable, Iterable, Iterator, List, Optional, Sequence, Set,
                    Tuple)

from ..analysis import alt_text, stem, tokenize
from ..docref import storable
from ..query import Filters, Query, Term
from . import bounded
from .connection import interruptible, interrupted
from .schema import (ALT_SHARE, BM25_WEIGHTS, BODY_WEIGHT, FTS_COLUMNS, HEADING_WEIGHT,
                     TITLE_WEIGHT)

PassageScore = Tuple[int, float]  # passage id, score (higher is better)
Row = Tuple[int, str, str, str]  # passage id, document title, heading (JSON), text
_MAX_CHAR = "\U0010ffff"
PLAIN_BULK_REMOVE = 2000   # passages: past this, one pass over the postings to remove them


def filter_sql(filters: Filters) -> Tuple[str, list]:
    """SQL conditions over `documents d JOIN sources s` for the search filters."""
    clauses, params = [], []
    # Labels and paths are stored with undecodable bytes escaped (`\\xff`); a
    # filter typed with them (a lone surrogate) is escaped the same way.
    if filters.sources:
        clauses.append(f"s.label IN ({','.join('?' * len(filters.sources))})")
        params += [storable(label) for label in filters.sources]
    if filters.formats:
        clauses.append(f"d.format IN ({','.join('?' * len(filters.formats))})")
        params += [storable(kind) for kind in filters.formats]
    if filters.path_glob:
        globs = path_globs(storable(filters.path_glob))
        clauses.append("(" + " OR ".join(["d.path GLOB ?"] * len(globs)) + ")")
        params += globs
    if filters.after_ns is not None:
        clauses.append("d.mtime_ns >= ?")
        params.append(filters.after_ns)
    if filters.before_ns is not None:
        clauses.append("d.mtime_ns < ?")
        params.append(filters.before_ns)
    return " AND ".join(clauses) or "1", params


class FullText:
    """What both stores offer the search layer."""

    kind = ""

    # Read-only answers kept per connection while the index is unchanged (a REPL or
    # MCP server asks for the same words' counts and vocabulary again and again).
    CACHED_COUNTS = 4096
    CACHED_SLICES = 64
    # Passages read to find a stem that is not its own stem (`a_passage_with`, FTS5).
    PREFIX_PROBES = 20

    # Answers kept by name (`remember`: did-you-mean's, per word): past this many in one,
    # it starts over.
    KEPT_ROWS = 4096

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._stamp: Optional[Tuple[int, int]] = None
        self._counts: Dict[str, int] = {}
        self._slices: Dict[Tuple[str, str], List[Tuple[str, int]]] = {}
        self._kept: Dict[str, dict] = {}
        self._passages: Optional[int] = None
        self._weighed: Optional[int] = None
        self._steady = False   # inside a read transaction (`steady`): no other commit is seen

    def _fresh(self) -> None:
        """Forget the kept answers when the index changed: committed by another
        connection (`data_version`) or written through this one (`total_changes`)."""
        if (self._steady and self._stamp is not None
                and self._stamp[1] == self.conn.total_changes):
            return   # a read transaction sees no other connection's commit: no need to ask
        stamp = (self.conn.execute("PRAGMA data_version").fetchone()[0], self.conn.total_changes)
        if stamp != self._stamp:
            self._stamp = stamp
            self.forget()

    def forget(self) -> None:
        """Drop every kept answer (they are read again when next asked for)."""
        self._counts.clear()
        self._slices.clear()
        self._kept.clear()
        self._passages = None
        self._weighed = None

    def remember(self, name: str, key: Hashable, compute: Callable[[], Any]) -> Any:
        """`compute()`'s answer, kept under `name` and `key` (a word's suggestions, say)
        while the index is unchanged, for a long-lived process (REPL, MCP, a library
        caller) that asks many questions of one index; forgotten with the others when
        the index changes, and a name's answers start over past `KEPT_ROWS`. Callers
        never change what it returns."""
        self._fresh()
        box = self._kept.setdefault(name, {})
        if key not in box:
            if len(box) >= self.KEPT_ROWS:
                box.clear()
            box[key] = compute()
        return box[key]

    @contextlib.contextmanager
    def steady(self) -> Iterator[None]:
        """Around the reads of one read transaction (`Store.reading`): the index's data
        version is asked once, not before every kept answer (a search asked it five
        times); writes through this connection are still seen (`total_changes`)."""
        if self._steady:
            yield
            return
        self._fresh()
        self._steady = True
        try:
            yield
        finally:
            self._steady = False

    def passage_count(self) -> int:
        """How many passages the index holds (every search weighs its terms by it; counting
        reads a whole index of the passages table, so the answer is kept too)."""
        self._fresh()
        if self._passages is None:
            self._passages = self.conn.execute("SELECT count(*) FROM passages").fetchone()[0]
        return self._passages

    def add(self, rows: Sequence[Row]) -> None:
        """Index passages given as stored: (id, title, heading, text), ids ascending."""
        raise NotImplementedError

    def flush(self) -> None:
        """Write what `add` has buffered (a transaction does it before it commits)."""

    def discard(self) -> None:
        """Forget what `add` has buffered (the transaction rolled back).

        Answers kept during the transaction may count rows the rollback undid,
        and neither `data_version` nor `total_changes` goes back: the next `_fresh`
        forgets them all."""
        self._stamp = None

    def remove(self, passage_ids: Sequence[int]) -> None:
        """Unindex stored passages (before their rows are deleted)."""
        raise NotImplementedError

    def search_sql(self, query: Query, limit: int, filters: Filters,
                   among: Sequence[Term] = ()) -> Tuple[str, list]:
        raise NotImplementedError

    def search(self, query: Query, limit: int, filters: Filters,
               among: Sequence[Term] = ()) -> List[PassageScore]:
        """The `limit` best passages by BM25 over all the query's terms.

        With `among` (some of the query's terms), only passages holding one of
        those are candidates; their scores are the same as without it.
        """
        raise NotImplementedError

    def matching(self, terms: Sequence[Term], lo: int, hi: int, in_title: bool = True) -> Set[int]:
        """Passage ids in [lo, hi] that match any of `terms`, by the store's own tokenizer.

        With `in_title` false only headings and body text count: every passage
        carries its document's title, so a title word would match them all.
        """
        raise NotImplementedError

    def matching_counts(self, terms: Sequence[Term], ranges: Sequence[Tuple[int, int]],
                        in_title: bool = True) -> List[int]:
        """For each (lo, hi) range, how many of its passages match any of `terms`."""
        return [len(self.matching(terms, lo, hi, in_title)) for lo, hi in ranges]

    def document_frequency(self, term: Term, at_least: Optional[int] = None) -> int:
        """How many passages match `term`; with `at_least`, counting stops there."""
        raise NotImplementedError

    def frequencies(self, terms: Sequence[Term]) -> List[int]:
        """How many passages match each term (exactly; a phrase or prefix by MATCH)."""
        self._fresh()
        keys = [t.fts5() for t in terms]
        missing = {k: t for k, t in zip(keys, terms) if k not in self._counts}
        if missing:
            if len(self._counts) + len(missing) > self.CACHED_COUNTS:
                self._counts.clear()
            self._counts.update(zip(missing, self._frequencies(list(missing.values()))))
        return [self._counts[k] for k in keys]

    def frequencies_within(self, terms: Sequence[Term],
                           ranges: Sequence[Tuple[int, int]]) -> List[int]:
        """How many passages of the (lo, hi) passage-id ranges match each term, as
        `frequencies` counts them (kept, `remember`, for a long-lived process)."""
        key = tuple(ranges)
        return [self.remember("within", (t.fts5(), key),
                              lambda t=t: sum(self.matching_counts([t], ranges)))
                for t in terms]

    def _frequencies(self, terms: Sequence[Term]) -> List[int]:
        return [self.document_frequency(t) for t in terms]

    def _maybe_held(self, terms: Sequence[Term]) -> List[Term]:
        """The terms less those that `frequencies` already found in no passage (which
        match nothing, and add nothing to a score)."""
        self._fresh()
        return [t for t in terms if self._counts.get(t.fts5()) != 0]

    def vocabulary(self, low: str, high: str) -> List[Tuple[str, int]]:
        """(indexed stem, passages holding it) for stems in [low, high)."""
        self._fresh()
        rows = self._slices.get((low, high))
        if rows is None:
            if len(self._slices) >= self.CACHED_SLICES:
                self._slices.clear()
            rows = self._slices[low, high] = list(self._vocabulary(low, high))
        return list(rows)

    def _vocabulary(self, low: str, high: str) -> List[Tuple[str, int]]:
        raise NotImplementedError

    def a_passage_with(self, stem_: str) -> Optional[int]:
        """Some passage whose text holds the stem (to show a word that has it)."""
        found = self.passages_with(stem_, 1)
        return found[0] if found else None

    def passages_with(self, stem_: str, limit: int) -> List[int]:
        """Up to `limit` passages whose heading or text holds the stem, in id order."""
        raise NotImplementedError

    def filter_report(self, filters: Filters) -> Dict[str, object]:
        """What the index holds for each filter: documents matching each, alone and together,
        and the formats and sources there are."""
        out: Dict[str, object] = {}
        for name, alone in (("type", Filters(formats=filters.formats)),
                            ("source", Filters(sources=filters.sources)),
                            ("path", Filters(path_glob=filters.path_glob)),
                            ("date", Filters(after_ns=filters.after_ns,
                                             before_ns=filters.before_ns))):
            if alone.any:
                out[name] = self._count_documents(alone)
        out["all"] = self._count_documents(filters)
        out["types"] = [r[0] for r in self.conn.execute(
            "SELECT format, count(*) AS n FROM documents GROUP BY format ORDER BY n DESC, format")]
        out["sources"] = [r[0] for r in self.conn.execute(
            "SELECT label FROM sources ORDER BY label")]
        return out

    def documents_matching(self, filters: Filters, ids: Iterable[int]) -> Set[int]:
        """Those of `ids` whose documents pass the filters, as a search applies them
        (`related` filters a document's neighbours by the same rules)."""
        where, params = filter_sql(filters)
        ids = list(ids)
        out: Set[int] = set()
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            out.update(r[0] for r in self.conn.execute(
                "SELECT d.id FROM documents d JOIN sources s ON s.id = d.source_id "
                f"WHERE d.id IN ({','.join('?' * len(chunk))}) AND {where}",
                [*chunk, *params]))
        return out

    def _count_documents(self, filters: Filters) -> int:
        where, params = filter_sql(filters)
        return self.conn.execute(
            "SELECT count(*) FROM documents d JOIN sources s ON s.id = d.source_id "
            f"WHERE {where}", params).fetchone()[0]

    def compact(self) -> None:
        """Rewrite the index so that the text of deleted rows is gone from the file."""

    def rebuild(self) -> None:
        raise NotImplementedError

    def problems(self) -> List[str]:
        raise NotImplementedError


class Fts5Text(FullText):
    kind = "fts5"

    @staticmethod
    def _scored(filters: Filters) -> Tuple[str, list]:
        """The passages matching a MATCH expression (the first parameter) under the
        filters, each with its score, and the filters' parameters."""
        where, params = filter_sql(filters)
        return (f"SELECT f.rowid AS id, -bm25(passage_fts, {BM25_WEIGHTS}) AS score "
                "FROM passage_fts f "
                + ("JOIN passages p ON p.id = f.rowid JOIN documents d ON d.id = p.document_id "
                   "JOIN sources s ON s.id = d.source_id " if filters.any else "")
                + "WHERE passage_fts MATCH ?" + (f" AND {where}" if filters.any else ""),
                params)

    # Single-row statements only: FTS5 keeps new terms in memory (up to its
    # `hashsize`) until a statement that may write several rows, or the commit,
    # makes it write them out as a segment; small segments are merged again later.
    def add(self, rows: Sequence[Row]) -> None:
        self.conn.executemany(
            f"INSERT INTO passage_fts(rowid, {_COLUMNS}) VALUES (?, {_MARKS})", _with_alt(rows))

    def remove(self, passage_ids: Sequence[int]) -> None:
        for i in range(0, len(passage_ids), 500):
            chunk = list(passage_ids[i:i + 500])
            rows = self.conn.execute(
                "SELECT id, title, heading, text FROM passage_content "
                f"WHERE id IN ({','.join('?' * len(chunk))}) ORDER BY id", chunk).fetchall()
            self.conn.executemany(
                f"INSERT INTO passage_fts(passage_fts, rowid, {_COLUMNS}) "
                f"VALUES ('delete', ?, {_MARKS})", _with_alt(rows))

    def search_sql(self, query: Query, limit: int, filters: Filters,
                   among: Sequence[Term] = ()) -> Tuple[str, list]:
        # `ORDER BY bm25(...) LIMIT n` keeps the n best in SQLite's bounded sorter;
        # `ORDER BY rank` would have FTS5 sort every matching row first (about a
        # third slower on common words). Snippets are made later, for the shown.
        select, params = self._scored(filters)
        others = [t for t in query.terms if t not in among]
        if not among or not others:
            return (f"{select} ORDER BY score DESC, f.rowid LIMIT ?",
                    [query.fts5()] + params + [limit])
        # Only passages holding one of `among`: those that hold none of the other
        # terms are scored by `among` alone, the others by every term (an AND that
        # FTS5 answers by seeking in the other terms' lists, not reading them).
        # BM25 adds a positive share per term, so the larger score is the full one.
        # Each part keeps only its `limit` best before they are merged: a passage
        # among the best overall is among the best of the part giving its full
        # score, since a score from `among` alone is never above the full one.
        some = Query(query.text, list(among), query.excluded).fts5()
        both = (f"({' OR '.join(t.fts5() for t in among)}) AND "
                f"({' OR '.join(t.fts5() for t in others)})")
        if query.excluded:
            both = f"({both}) NOT ({' OR '.join(t.fts5() for t in query.excluded)})"
        part = f"SELECT * FROM ({select} ORDER BY score DESC, id LIMIT ?)"
        return (f"SELECT id, max(score) AS score FROM ({part} UNION ALL {part}) "
                "GROUP BY id ORDER BY score DESC, id LIMIT ?",
                [some] + params + [limit] + [both] + params + [limit, limit])

    def search(self, query: Query, limit: int, filters: Filters,
               among: Sequence[Term] = ()) -> List[PassageScore]:
        if query.empty:
            return []
        if not among:
            found = self._search_bounded(query, limit, filters)
            if found is not None:
                return found
        sql, params = self.search_sql(query, limit, filters, among)
        return self.conn.execute(sql, params).fetchall()   # (id, score) tuples as they come

    # Past this many postings of the query's words, `_search_bounded` scores fewer passages.
    BOUNDED_POSTINGS = 8000

    def _search_bounded(self, query: Query, limit: int,
                        filters: Filters) -> Optional[List[PassageScore]]:
        """What `search_sql`'s one OR statement returns, the same scores in the same
        order, from statements that skip the passages that cannot lead (`bounded`);
        None (run the one OR) when the terms are in fewer than BOUNDED_POSTINGS
        passages together, where that costs less, or when a word is excluded: FTS5
        (3.40) then loses an OR's hits under an AND inside the NOT (`("a b" AND ("b"
        OR "c")) NOT "q"` scores a row holding `c a b` without c), so a bounded
        statement would score a passage lower than the one OR does."""
        if query.excluded:
            return None
        dfs = self.frequencies(query.terms)
        if sum(1 for df in dfs if df) < 2 or sum(dfs) < self.BOUNDED_POSTINGS:
            return None
        select, params = self._scored(filters)
        sql = f"{select} ORDER BY score DESC, f.rowid LIMIT ?"
        return bounded.best_passages(
            lambda expr: self.conn.execute(sql, [expr] + params + [limit]),
            query.terms, dfs,
            max(self._rows_weighed(), self.passage_count()), limit)

    def _rows_weighed(self) -> int:
        """The row count `bm25()` weighs each term by: FTS5's own, the first number of its
        averages record (kept while the index is unchanged); if that cannot be read,
        twice the passage count, a looser bound but never a wrong one."""
        self._fresh()
        if self._weighed is None:
            row = self.conn.execute(
                "SELECT block FROM passage_fts_data WHERE id = 1").fetchone()
            count = bounded.varint(row[0]) if row and isinstance(row[0], bytes) else None
            self._weighed = 2 * self.passage_count() + 1 if count is None else count
        return self._weighed

    def matching(self, terms: Sequence[Term], lo: int, hi: int, in_title: bool = True) -> Set[int]:
        if not terms:
            return set()
        expr = _any_of(terms, in_title)
        return {r[0] for r in self.conn.execute(
            "SELECT rowid FROM passage_fts WHERE passage_fts MATCH ? AND rowid BETWEEN ? AND ?",
            (expr, lo, hi))}

    def matching_counts(self, terms: Sequence[Term], ranges: Sequence[Tuple[int, int]],
                        in_title: bool = True) -> List[int]:
        terms = self._maybe_held(terms)   # each term costs a lookup per statement
        if not ranges or not terms:
            return [0] * len(ranges)
        expr = _any_of(terms, in_title)
        if not any(t.prefix for t in terms):
            few = self._few_passages(terms) if len(ranges) > 2 else []
            if few:
                return self._matching_counts_read(terms, few, ranges, in_title)
            # Exact terms, one statement per range: FTS5 steps through each word's list
            # up to the range (a long list has an index to skip by), so a statement costs
            # more the later its range (bench/count_seek.py), yet less than reading every
            # passage of a common word once.
            return [self.conn.execute(
                "SELECT count(*) FROM passage_fts WHERE passage_fts MATCH ? "
                "AND rowid BETWEEN ? AND ?", (expr, lo, hi)).fetchone()[0] for lo, hi in ranges]
        # A prefix term is expanded again by every query: one query over the
        # span of all the ranges costs less than one per range.
        ids = [r[0] for r in self.conn.execute(
            "SELECT rowid FROM passage_fts WHERE passage_fts MATCH ? AND rowid BETWEEN ? AND ? "
            "ORDER BY rowid", (expr, min(lo for lo, _ in ranges), max(hi for _, hi in ranges)))]
        return [bisect_right(ids, hi) - bisect_left(ids, lo) for lo, hi in ranges]

    # A term held by at most this many passages is read once for all the ranges: each
    # statement looks every term up again (about 25 µs a term), and a row read costs 0.5 µs.
    READ_ONCE = 250

    def _few_passages(self, terms: Sequence[Term]) -> List[int]:
        """The indexes of the terms `frequencies` found in at most READ_ONCE passages."""
        self._fresh()
        return [i for i, t in enumerate(terms)
                if self._counts.get(t.fts5(), self.READ_ONCE + 1) <= self.READ_ONCE]

    def _matching_counts_read(self, terms: Sequence[Term], few: Sequence[int],
                              ranges: Sequence[Tuple[int, int]], in_title: bool) -> List[int]:
        """`matching_counts` with the rare terms' passages read once over the span of
        the ranges, and only the other terms looked up in each range."""
        held = [r[0] for r in self.conn.execute(
            "SELECT rowid FROM passage_fts WHERE passage_fts MATCH ? AND rowid BETWEEN ? AND ? "
            "ORDER BY rowid", (_any_of([terms[i] for i in few], in_title),
                               min(lo for lo, _ in ranges), max(hi for _, hi in ranges)))]
        rest = [t for i, t in enumerate(terms) if i not in few]
        expr = _any_of(rest, in_title) if rest else ""
        out = []
        for lo, hi in ranges:
            ids = held[bisect_left(held, lo):bisect_right(held, hi)]
            if not expr:
                out.append(len(ids))
                continue
            found = set(ids)
            found.update(r[0] for r in self.conn.execute(
                "SELECT rowid FROM passage_fts WHERE passage_fts MATCH ? AND rowid BETWEEN ? AND ?",
                (expr, lo, hi)))
            out.append(len(found))
        return out

    def document_frequency(self, term: Term, at_least: Optional[int] = None) -> int:
        limit = "" if at_least is None else f" LIMIT {int(at_least)}"
        return self.conn.execute(
            f"SELECT count(*) FROM (SELECT 1 FROM passage_fts WHERE passage_fts MATCH ?{limit})",
            (term.fts5(),)).fetchone()[0]

    def _vocab(self) -> str:
        # A temporary view of the index's vocabulary, per connection (no schema change).
        # It lives in the connection's temp schema, so a read-only index may make it too.
        read_only = self.conn.execute("PRAGMA query_only").fetchone()[0]
        if read_only:
            self.conn.execute("PRAGMA query_only = OFF")
        try:
            self.conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.glean_vocab "
                              "USING fts5vocab(main, passage_fts, row)")
        finally:
            if read_only:
                self.conn.execute("PRAGMA query_only = ON")
        return "temp.glean_vocab"

    def _vocabulary(self, low: str, high: str) -> List[Tuple[str, int]]:
        return self.conn.execute(
            f"SELECT term, doc FROM {self._vocab()} WHERE term >= ? AND term < ?",
            (low, high)).fetchall()

    def passages_with(self, stem_: str, limit: int) -> List[int]:
        if stem(stem_) == stem_:
            return [r[0] for r in self.conn.execute(
                "SELECT rowid FROM passage_fts WHERE passage_fts MATCH ? LIMIT ?",
                ("{heading text} : " + Term((stem_,)).fts5(), limit))]
        # FTS5 stems a query word again, and Porter's stems are not all their own
        # stem (*database* is indexed as `databas`, which a query reads as `databa`):
        # such a stem is found as a prefix, which FTS5 does not stem, and checked.
        rows = self.conn.execute(
            "SELECT p.id, p.heading, p.text FROM passage_fts f JOIN passages p ON p.id = f.rowid "
            "WHERE passage_fts MATCH ? LIMIT ?",
            ("{heading text} : " + Term((stem_,), prefix=True).fts5(),
             max(limit, self.PREFIX_PROBES)))
        return [pid for pid, heading, text in rows
                if any(stem(tok) == stem_ for tok in tokenize(f"{heading}\n{text}")
                       if tok.startswith(stem_))][:limit]

    def compact(self) -> None:
        # FTS5 keeps deleted rows' tokens in old segments until they merge.
        self.conn.execute("INSERT INTO passage_fts(passage_fts) VALUES ('optimize')")

    def rebuild(self) -> None:
        with interruptible(self.conn):
            self.conn.execute("INSERT INTO passage_fts(passage_fts) VALUES ('rebuild')")

    def problems(self) -> List[str]:
        # A failure is damage only if a second check fails too: Ctrl-C landing in
        # the search-form function fails the check (sqlite3 swallows the
        # KeyboardInterrupt; `interrupted` knows of it unless it struck as the
        # function was entered), and so would a passing glitch.
        failed = None
        for _ in range(2):
            try:
                with interruptible(self.conn):
                    self.conn.execute("INSERT INTO passage_fts(passage_fts, rank) "
                                      "VALUES ('integrity-check', 1)")
                return []
            except sqlite3.DatabaseError as exc:
                if interrupted(exc):
                    raise KeyboardInterrupt from None   # Ctrl-C during the check: not damage
                if isinstance(exc, sqlite3.OperationalError) and (
                        "locked" in str(exc) or "busy" in str(exc)):
                    raise          # another process is writing: busy, not damaged
                failed = exc
        return [f"full-text index does not match the passages ({failed})"]


def _any_of(terms: Sequence[Term], in_title: bool) -> str:
    """An FTS5 expression for any of `terms`; without `in_title`, in headings and text only."""
    expr = " OR ".join(t.fts5() for t in terms)
    return expr if in_title else "{heading text heading_alt text_alt} : (" + expr + ")"


_COLUMNS = ", ".join(FTS_COLUMNS)
_MARKS = ", ".join("?" * len(FTS_COLUMNS))


def _with_alt(rows: Sequence[Row]) -> List[tuple]:
    """(id, title, heading, text) rows with each field's search form added.

    A document's passages share its title and often a heading: each distinct
    one is analysed once.
    """
    seen: Dict[str, str] = {}

    def alt(value: str) -> str:
        out = seen.get(value)
        if out is None:
            out = seen[value] = alt_text(value)
        return out
    return [(pid, title, heading, text, alt(title), alt(heading), alt_text(text))
            for pid, title, heading, text in rows]


class PlainText(FullText):
    kind = "plain"
    K1, B = 1.2, 0.75

    BATCH_CHARS = 1_000_000   # text whose postings are sorted and written together

    CACHED_PHRASES = 8   # a phrase's postings: its count, then the search, re-read every passage

    def __init__(self, conn: sqlite3.Connection) -> None:
        super().__init__(conn)
        self._pending: List[Row] = []
        self._pending_chars = 0
        self._phrases: Dict[str, Dict[int, float]] = {}
        self._phrase_stamp: Optional[Tuple[int, int]] = None
        self._stats: Optional[Tuple[Optional[Tuple[int, int]], Tuple[int, float]]] = None

    def add(self, rows: Sequence[Row]) -> None:
        self._pending.extend(rows)
        self._pending_chars += sum(len(row[3]) for row in rows)
        if self._pending_chars >= self.BATCH_CHARS:
            self.flush()

    def discard(self) -> None:
        super().discard()
        self._phrases.clear()
        self._stats = None
        self._pending, self._pending_chars = [], 0

    def flush(self) -> None:
        rows, self._pending, self._pending_chars = self._pending, [], 0
        postings, lengths = [], []
        for pid, title, heading, text in rows:
            tf = _weighted_terms(title, heading, text)
            postings.extend((term, pid, weight) for term, weight in tf.items())
            lengths.append((pid, sum(tf.values())))
        postings.sort()  # in key order: far fewer page splits in the WITHOUT ROWID table
        self.conn.executemany(
            "INSERT OR REPLACE INTO plain_postings(term, passage_id, tf) VALUES (?, ?, ?)", postings)
        self.conn.executemany(
            "INSERT OR REPLACE INTO plain_lengths(passage_id, length) VALUES (?, ?)", lengths)

    def remove(self, passage_ids: Sequence[int]) -> None:
        if self._pending and passage_ids:
            lo, hi = min(passage_ids), max(passage_ids)
            if any(lo <= row[0] <= hi for row in self._pending):
                self.flush()   # only what is written can be removed
        if len(passage_ids) > PLAIN_BULK_REMOVE:
            self._remove_bulk(passage_ids)
            return
        for i in range(0, len(passage_ids), 500):
            chunk = list(passage_ids[i:i + 500])
            marks = ",".join("?" * len(chunk))
            rows = self.conn.execute(
                f"SELECT id, title, heading, text FROM passage_content WHERE id IN ({marks})",
                chunk).fetchall()
            self.conn.executemany(
                "DELETE FROM plain_postings WHERE term = ? AND passage_id = ?",
                [(term, pid) for pid, title, heading, text in rows
                 for term in _weighted_terms(title, heading, text)])
            self.conn.execute(f"DELETE FROM plain_lengths WHERE passage_id IN ({marks})", chunk)

    def _remove_bulk(self, passage_ids: Sequence[int]) -> None:
        """Many passages at once (a purge): one pass over the postings, instead of
        re-tokenizing every passage to delete its postings one term at a time, which
        held the write lock long enough for readers to time out."""
        self.conn.execute("CREATE TEMP TABLE IF NOT EXISTS removing (id INTEGER PRIMARY KEY)")
        self.conn.executemany("INSERT OR IGNORE INTO temp.removing(id) VALUES (?)",
                              ((int(i),) for i in passage_ids))
        for table in ("plain_postings", "plain_lengths"):
            self.conn.execute(f"DELETE FROM {table} WHERE passage_id IN "
                              "(SELECT id FROM temp.removing)")
        self.conn.execute("DELETE FROM temp.removing")

    def search_sql(self, query: Query, limit: int, filters: Filters,
                   among: Sequence[Term] = ()) -> Tuple[str, list]:
        # The plain store looks each term up in its postings, then scores in Python.
        params: list = []
        for term in query.terms:
            params.extend(_lookup_params(term))
        return ("SELECT passage_id, tf FROM plain_postings WHERE term = ? "
                "-- or term >= ? AND term < ? for a prefix, one lookup per term", params)

    def search(self, query: Query, limit: int, filters: Filters,
               among: Sequence[Term] = ()) -> List[PassageScore]:
        if query.empty:
            return []
        total, avg = self._length_stats()
        if not total:
            return []
        allowed = self._allowed(filters)
        postings = self._term_postings(query.terms, allowed, among)
        lengths = self._lengths({pid for found, _ in postings for pid in found})
        k1, b = self.K1, self.B
        # Each passage's length part of the BM25 denominator, once, not once per term.
        damp = {pid: k1 * (1 - b + b * lengths.get(pid, avg) / avg)
                for found, _ in postings for pid in found}
        scores: Dict[int, float] = defaultdict(float)
        for found, df in postings:
            if not found:
                continue
            idf = math.log(1 + (total - df + 0.5) / (df + 0.5))
            for pid, tf in found.items():
                scores[pid] += idf * tf * (k1 + 1) / (tf + damp[pid])
        for term in query.excluded:   # `-word`, `NOT word`: passages holding it are out
            for pid in self._postings(term, allowed):
                scores.pop(pid, None)
        return heapq.nsmallest(limit, scores.items(), key=lambda kv: (-kv[1], kv[0]))

    def _term_postings(self, terms: Sequence[Term], allowed: Optional[Set[int]],
                       among: Sequence[Term]) -> List[Tuple[Dict[int, float], int]]:
        """Each term's postings to score and its document frequency, in query order.

        With `among`, only passages holding one of those terms are scored, so the
        other terms' postings are read for those passages alone (a common word's
        whole list is what costs), and their frequency is counted instead: over
        the whole index, as search never passes `among` under a filter."""
        if not among:
            out = []
            for term in terms:
                found = self._postings(term, allowed)
                out.append((found, len(found)))
            return out
        chosen = {t.fts5(): self._postings(t, allowed) for t in among}
        held_set = {pid for found in chosen.values() for pid in found}
        held = sorted(held_set)
        out = []
        for term in terms:
            found = chosen.get(term.fts5())
            if found is not None:
                out.append((found, len(found)))
            elif term.is_phrase or term.prefix:
                found = self._postings(term, allowed)
                out.append(({pid: tf for pid, tf in found.items() if pid in held_set},
                            len(found)))
            else:
                out.append((self._postings_among(term.stems()[0], held),
                            self.frequencies([term])[0]))
        return out

    def _postings_among(self, stem_: str, ids: Sequence[int]) -> Dict[int, float]:
        """A word's postings in the given passages only (each a seek in the term's list)."""
        out: Dict[int, float] = {}
        for i in range(0, len(ids), 900):
            chunk = ids[i:i + 900]
            out.update(self.conn.execute(
                "SELECT passage_id, tf FROM plain_postings WHERE term = ? "
                f"AND passage_id IN ({','.join('?' * len(chunk))})", [stem_] + list(chunk)))
        return out

    def _length_stats(self) -> Tuple[int, float]:
        """(passages indexed, their mean weighted length), kept while the index is unchanged."""
        self._fresh()
        if self._stats is None or self._stats[0] != self._stamp:
            row = self.conn.execute(
                "SELECT count(*), coalesce(avg(length), 1) FROM plain_lengths").fetchone()
            self._stats = (self._stamp, (row[0], row[1]))
        return self._stats[1]

    def matching(self, terms: Sequence[Term], lo: int, hi: int, in_title: bool = True) -> Set[int]:
        out: Set[int] = set()
        for term in terms:
            postings = self._postings(term, None, (lo, hi))
            if not in_title and postings:
                # Postings fold in the title's weighted count; any more came from the body.
                floor = self._title_tf(term, lo)
                postings = {pid: tf for pid, tf in postings.items() if tf > floor}
            out.update(postings)
        return out

    def _title_tf(self, term: Term, lo: int) -> float:
        """The weight a term gets from the title of the document whose passages start at `lo`."""
        row = self.conn.execute("SELECT title FROM passage_content WHERE id = ?", (lo,)).fetchone()
        if not row:
            return 0.0
        want = term.stems()
        total = 0.0
        for field, weight in ((row[0], TITLE_WEIGHT), (alt_text(row[0]), TITLE_WEIGHT * ALT_SHARE)):
            stems = [stem(t) for t in tokenize(field)]
            if len(want) > 1:
                total += _phrase_count(stems, want) * weight
            else:
                total += sum(weight for s in stems
                             if s == want[0] or (term.prefix and s.startswith(want[0])))
        return total

    def _allowed(self, filters: Filters) -> Optional[Set[int]]:
        if not filters.any:
            return None
        where, params = filter_sql(filters)
        return {r[0] for r in self.conn.execute(
            "SELECT p.id FROM passages p JOIN documents d ON d.id = p.document_id "
            f"JOIN sources s ON s.id = d.source_id WHERE {where}", params)}

    def _postings(self, term: Term, allowed: Optional[Set[int]],
                  bounds: Optional[Tuple[int, int]] = None) -> Dict[int, float]:
        """Passage id → weighted tf for one term (a phrase is checked for adjacency)."""
        rng = " AND passage_id BETWEEN ? AND ?" if bounds else ""
        extra = list(bounds) if bounds else []
        stems = term.stems()
        found: Optional[Dict[int, float]] = None
        for i, s in enumerate(stems):
            if term.prefix and i == len(stems) - 1:
                rows = self.conn.execute(
                    f"SELECT passage_id, sum(tf) FROM plain_postings WHERE term >= ? AND term < ?"
                    f"{rng} GROUP BY passage_id", [s, s + _MAX_CHAR] + extra)
            else:
                rows = self.conn.execute(
                    f"SELECT passage_id, tf FROM plain_postings WHERE term = ?{rng}", [s] + extra)
            current = dict(rows) if allowed is None else {
                pid: tf for pid, tf in rows if pid in allowed}
            found = current if found is None else {
                pid: min(found[pid], tf) for pid, tf in current.items() if pid in found}
            if not found:
                return {}
        if found and len(stems) > 1:
            found = self._phrase_postings(term, found, stems, allowed is None and not bounds)
        return found or {}

    def _phrase_postings(self, term: Term, candidates: Dict[int, float],
                         stems: Tuple[str, ...], keep: bool) -> Dict[int, float]:
        """Where the phrase's words are adjacent: every candidate passage is read and
        stemmed again, so whole-index answers are kept while the index is unchanged
        (a search asks for the phrase's count, then for its postings)."""
        if not keep:
            return self._with_phrase(candidates, stems)
        self._fresh()
        if self._phrase_stamp != self._stamp:
            self._phrase_stamp = self._stamp
            self._phrases.clear()
        key = term.fts5()
        found = self._phrases.get(key)
        if found is None:
            found = self._with_phrase(candidates, stems)
            if len(self._phrases) >= self.CACHED_PHRASES:
                self._phrases.pop(next(iter(self._phrases)))
            self._phrases[key] = found
        return found

    def _with_phrase(self, candidates: Dict[int, float], stems: Tuple[str, ...]) -> Dict[int, float]:
        out: Dict[int, float] = {}
        ids = sorted(candidates)
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            for pid, title, heading, text in self.conn.execute(
                    "SELECT id, title, heading, text FROM passage_content "
                    f"WHERE id IN ({','.join('?' * len(chunk))})", chunk):
                count = sum(_phrase_count([stem(t) for t in tokenize(field)], stems) * w
                            for field, w in _fields(title, heading, text))
                if count:
                    out[pid] = count
        return out

    def _lengths(self, pids: Iterable[int]) -> Dict[int, float]:
        ids = list(pids)
        out: Dict[int, float] = {}
        for i in range(0, len(ids), 900):
            chunk = ids[i:i + 900]
            out.update(self.conn.execute(
                "SELECT passage_id, length FROM plain_lengths "
                f"WHERE passage_id IN ({','.join('?' * len(chunk))})", chunk).fetchall())
        return out

    def document_frequency(self, term: Term, at_least: Optional[int] = None) -> int:
        return len(self._postings(term, None))

    def _frequencies(self, terms: Sequence[Term]) -> List[int]:
        out = []
        for t in terms:
            if t.is_phrase or t.prefix:
                out.append(self.document_frequency(t))
            else:
                out.append(self.conn.execute("SELECT count(*) FROM plain_postings WHERE term = ?",
                                             (t.stems()[0],)).fetchone()[0])
        return out

    def _vocabulary(self, low: str, high: str) -> List[Tuple[str, int]]:
        return self.conn.execute(
            "SELECT term, count(*) FROM plain_postings WHERE term >= ? AND term < ? GROUP BY term",
            (low, high)).fetchall()

    def passages_with(self, stem_: str, limit: int) -> List[int]:
        return [r[0] for r in self.conn.execute(
            "SELECT passage_id FROM plain_postings WHERE term = ? ORDER BY passage_id LIMIT ?",
            (stem_, limit))]

    def rebuild(self) -> None:
        self.conn.execute("DELETE FROM plain_postings")
        self.conn.execute("DELETE FROM plain_lengths")
        bounds = self.conn.execute("SELECT min(id), max(id) FROM passages").fetchone()
        if bounds[0] is not None:
            for lo in range(bounds[0], bounds[1] + 1, 2000):
                self.add(self.conn.execute(
                    "SELECT id, title, heading, text FROM passage_content WHERE id BETWEEN ? AND ?",
                    (lo, lo + 1999)).fetchall())
                self.flush()

    def problems(self) -> List[str]:
        missing = self.conn.execute(
            "SELECT count(*) FROM passages WHERE id NOT IN (SELECT passage_id FROM plain_lengths)"
        ).fetchone()[0]
        extra = self.conn.execute(
            "SELECT count(*) FROM plain_lengths WHERE passage_id NOT IN (SELECT id FROM passages)"
        ).fetchone()[0]
        out = []
        if missing or extra:
            out.append(f"term index does not match the passages ({missing} missing, {extra} stale)")
        return out


def _weighted_terms(title: str, heading: str, text: str) -> Counter:
    tf: Counter = Counter()
    for field, weight in _fields(title, heading, text):
        for token in tokenize(field):
            tf[stem(token)] += weight
    return tf


def _fields(title: str, heading: str, text: str) -> List[Tuple[str, float]]:
    """A passage's fields and their search forms (as the FTS5 columns), with weights."""
    fields = [(title, TITLE_WEIGHT), (heading, HEADING_WEIGHT), (text, BODY_WEIGHT)]
    alts = [(_short_alt(title), TITLE_WEIGHT), (_short_alt(heading), HEADING_WEIGHT),
            (alt_text(text), BODY_WEIGHT)]
    return fields + [(alt, w * ALT_SHARE) for alt, w in alts if alt]


@functools.lru_cache(maxsize=512)
def _short_alt(field: str) -> str:
    """alt_text of a title or heading: a document's passages repeat them."""
    return alt_text(field)


def _phrase_count(stems: List[str], phrase: Tuple[str, ...]) -> int:
    """How often the phrase's stems stand together (list.index finds each first one)."""
    want, n = list(phrase), len(phrase)
    count, i = 0, -1
    while True:
        try:
            i = stems.index(want[0], i + 1)
        except ValueError:
            return count
        count += stems[i:i + n] == want


def _lookup_params(term: Term) -> Iterable[str]:
    return term.stems()


def make_fulltext(kind: str, conn: sqlite3.Connection) -> FullText:
    return Fts5Text(conn) if kind == "fts5" else PlainText(conn)


def path_globs(glob: str) -> List[str]:
    """The globs a path filter tries: as written, below any folder, and, when it does not
    end in `*`, the files below a folder of that name (`notes`, `notes/`, `2024/trips`), as
    a person naming a folder means."""
    bare = glob.rstrip("/") or glob
    globs = [bare, "*/" + bare]
    if not bare.endswith("*"):
        globs += [bare + "/*", "*/" + bare + "/*"]
    return globs
