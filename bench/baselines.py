"""Baseline retrievers the search benchmark compares against.

- Whole-document FTS5 bm25, the way sqlite-utils searches: one row per
  document with `title` and `body` columns (bench/floor.py builds exactly that
  table), the user's text passed through sqlite-utils' `quote_fts()` (every
  bare term quoted, so the terms are ANDed, as `sqlite-utils search` does), and
  results ordered by FTS5's `rank` (bm25 with equal column weights). The `or`
  variant joins the same quoted terms with OR.
- The `bm25s` library (BM25 "lucene" variant, k1 1.5, b 0.75) with its own
  tokenizer, English stopwords and the PyStemmer English (Snowball) stemmer,
  over title + text of the same extracted documents. Third-party: only the
  bench uses it, never the package.
"""
from __future__ import annotations

import re
import sqlite3
from typing import List, Sequence, Tuple

_quote_fts_re = re.compile(r'\s+|(".*?")')


def quote_fts(query: str) -> str:
    """sqlite-utils' Database.quote_fts(), reproduced: quote each bare term, keep quoted spans."""
    if query.count('"') % 2:
        query += '"'
    bits = _quote_fts_re.split(query)
    bits = [b for b in bits if b and b != '""']
    return " ".join('"{}"'.format(bit) if not bit.startswith('"') else bit for bit in bits)


def fts_match_expression(query: str, mode: str = "and") -> str:
    quoted = quote_fts(query)
    if mode == "and":
        return quoted
    bits = [b for b in _quote_fts_re.split(quoted) if b and b.strip()]
    return " OR ".join(bits)


def fts_search(conn: sqlite3.Connection, query: str, mode: str = "and", limit: int = 10) -> List[str]:
    """Paths from the floor's `docs` table, best first (sqlite-utils: ORDER BY rank)."""
    expr = fts_match_expression(query, mode)
    if not expr:
        return []
    try:
        rows = conn.execute("SELECT path FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT ?",
                            (expr, limit)).fetchall()
    except sqlite3.OperationalError:
        return []   # what sqlite-utils would surface as an error; counted as no results
    return [r[0] for r in rows]


class BM25sBaseline:
    """The bm25s library over (path, title, text) documents."""

    def __init__(self, docs: Sequence[Tuple[str, str, str]]) -> None:
        import bm25s          # third-party, bench only
        import Stemmer        # PyStemmer
        self._bm25s = bm25s
        self.stemmer = Stemmer.Stemmer("english")
        self.paths = [d[0] for d in docs]
        tokens = bm25s.tokenize([f"{d[1]}\n{d[2]}" for d in docs], stopwords="en",
                                stemmer=self.stemmer, show_progress=False)
        self.retriever = bm25s.BM25()
        self.retriever.index(tokens, show_progress=False)
        self.description = (f"bm25s {bm25s.__version__}: method=lucene k1=1.5 b=0.75, "
                            "tokenize(stopwords='en', stemmer=PyStemmer english)")

    def search(self, query: str, limit: int = 10) -> List[str]:
        tokens = self._bm25s.tokenize([query], stopwords="en", stemmer=self.stemmer,
                                      return_ids=False, show_progress=False)
        if not tokens or not tokens[0]:
            return []
        k = min(limit, len(self.paths))
        try:
            ids, scores = self.retriever.retrieve(tokens, k=k, show_progress=False)
        except (KeyError, ValueError):
            return []
        return [self.paths[int(i)] for i, s in zip(ids[0], scores[0]) if float(s) > 0]
