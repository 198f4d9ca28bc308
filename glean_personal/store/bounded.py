"""The best passages of an FTS5 OR of terms, without scoring every passage that holds one.

FTS5's `bm25()` costs about 1.5 µs for each passage it scores, and a passage
holding only common words seldom leads. A term adds to a passage's score less
than its bound, idf × (k1 + 1), so a passage whose terms' bounds sum below the
n-th best score found so far cannot be among the n best. Taken in query
order, term i's statement scores the passages holding it and one of the later
terms; a passage holding term i alone among it and the later ones is scored
only when term i's bound reaches that floor (a rare word). Each statement
names term i and every later term in query order, so a passage whose first
term is i gets exactly the score the one OR gives it (an earlier term it
lacks adds 0.0 there); a passage whose first term is earlier gets less from a
later statement, and its own statement's larger score is kept. Each
statement keeps its n best: a passage among the n best overall is among the n
best of the statement giving its full score. A term no passage holds adds
nothing and is left out. docs/search.md, "The SQL".
"""
from __future__ import annotations

import heapq
import math
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from ..query import Term

K1 = 1.2   # FTS5's bm25() constant


def bound(df: int, rows: float) -> float:
    """More than a term held by `df` of `rows` passages adds to any passage's bm25()."""
    return (K1 + 1) * max(1e-6, math.log((rows - df + 0.5) / (df + 0.5)))


def best_passages(run: Callable[[str], Iterable[Tuple[int, float]]], terms: Sequence[Term],
                  dfs: Sequence[int], rows: int, limit: int) -> List[Tuple[int, float]]:
    """The `limit` best (passage id, score) of the OR of `terms` (each held by `dfs`
    passages of the `rows` that bm25() counts), in the order the one OR statement gives
    them. `run(expr)` runs the ranked statement for a MATCH expression and returns its
    `limit` best rows. Not for a query with an excluded word: FTS5 then loses an OR's
    hits under an AND inside the NOT (`Fts5Text._search_bounded`)."""
    if limit < 1:
        return []
    live = [t for t, df in zip(terms, dfs) if df]
    # A little more than the rows counted, so that each bound is one.
    bounds = [bound(df, rows * 1.01 + 1) for df in dfs if df]
    best: Dict[int, float] = {}
    floor = -math.inf   # the `limit`-th best score found so far

    def score(expr: str) -> None:
        nonlocal floor
        for pid, value in run(expr):
            if pid not in best or value > best[pid]:
                best[pid] = value
        if len(best) >= limit:
            floor = heapq.nlargest(limit, best.values())[-1]

    def reaches(total: float) -> bool:   # with a margin for rounding
        return total * (1 + 1e-9) + 1e-12 >= floor

    last = len(live) - 1
    later = [" OR ".join(t.fts5() for t in live[i + 1:]) for i in range(last)] + [""]
    for i in range(last):
        if reaches(bounds[i] + sum(bounds[i + 1:])):
            score(f"{live[i].fts5()} AND ({later[i]})")
    for i in sorted(range(len(live)), key=lambda i: (-bounds[i], i)):
        if reaches(bounds[i]):
            score(f"{live[i].fts5()} NOT ({later[i]})" if i < last else live[i].fts5())
    return heapq.nsmallest(limit, best.items(), key=lambda kv: (-kv[1], kv[0]))


def varint(data: bytes) -> Optional[int]:
    """The SQLite varint at the start of `data` (as FTS5 writes its records), or None."""
    value = 0
    for i, byte in enumerate(data[:9]):
        if i == 8:
            return (value << 8) | byte
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value
    return None
