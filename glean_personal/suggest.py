"""Completions of what a person is typing: titles, then headings, then words of the index.

Autocomplete runs per keystroke, so every query behind it is bounded (see
store/suggest.py) and only the few completions returned are shaped. The
facade offers this as `Index.suggest`; the REPL's local backend turns the
`Completion`s into Client API results.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from .analysis import fold_all, is_stopword, search_tokens, stem, token_spans, tokenize
from .docref import doc_summary
from .query import MIN_PREFIX_LEN, Term
from .store import suggest as sql
from .store.core import Store

TITLE_SCORE, TITLE_WORD_SCORE, HEADING_SCORE, TERM_SCORE = 1.0, 0.8, 0.6, 0.4
SAMPLE = 25


@dataclass
class Completion:
    """One completion: the text offered, where the typed prefix sits in it, and why.

    `document` (a document summary) is set for a title, which completes to a
    document; headings and words are suggestions that keep what was typed
    before the last word.
    """

    text: str
    score: float
    start: int
    end: int
    document: Optional[dict] = None

    def to_dict(self) -> dict:
        return {"text": self.text, "score": self.score, "range": [self.start, self.end],
                "document": self.document}


# An offer before it is shaped: (score, text, title row or None). Shaping (URLs)
# is left to the few that are returned, because a common prefix matches hundreds
# of titles and a keystroke cannot pay for all of them.
_Offer = Tuple[float, str, Optional[tuple]]


def suggest(store: Store, text: str, limit: int = 10) -> List[Completion]:
    """Ranked completions of `text`: titles, then headings, then words of the index."""
    typed = text.lstrip()
    tokens = tokenize(typed)
    if not tokens:
        return []
    last = tokens[-1]
    head = typed[:_last_token_start(typed)]
    found: Dict[str, _Offer] = {}
    with store.reading():
        conn = store.conn
        folded = fold_all(typed)
        for row in sql.titles(conn, max(tokens, key=len)):
            title = row[1]
            if fold_all(title).startswith(folded):
                _offer(found, (TITLE_SCORE, title, row))
            elif _has_words(title, tokens):
                _offer(found, (TITLE_WORD_SCORE, title, row))
        anchor = _anchor(tokens)
        if anchor:
            expr, key = anchor
            kind = store.kind
            sample = sql.passages(conn, kind, expr, key, SAMPLE)
            heads = sql.passages(conn, kind, expr, key, SAMPLE, "heading") \
                if kind == "fts5" else sample
            for heading in {h for _, path, _ in heads for h in path}:
                if _has_words(heading, tokens):
                    _offer(found, (HEADING_SCORE, heading.rstrip(" \u00b6"), None))
            counts: Dict[str, int] = {}
            starts = _word_start(last, tokens[-2] if len(tokens) > 1 else "")
            for _, _, body in sample:
                for match in starts.finditer(body.lower()):
                    word = tokenize(match.group(1))
                    if word and word[0].startswith(last):
                        counts[word[0]] = counts.get(word[0], 0) + 1
            for word, n in counts.items():
                _offer(found, (round(TERM_SCORE + 0.2 * min(n, 20) / 20, 3), head + word, None))
    ranked = sorted(found.values(), key=lambda c: (-c[0], len(c[1]), c[1]))
    return [_shape(c, typed, last) for c in ranked[:limit]]


def _shape(offer: _Offer, typed: str, last: str) -> Completion:
    score, text, row = offer
    if score == TITLE_SCORE:
        start, end = 0, len(typed.rstrip())
    else:
        start, end = _word_range(text, last)
    summary = None
    if row is not None:
        doc_id, title, path, fmt, mtime_ns, root, label = row
        summary = doc_summary({"id": doc_id, "title": title, "root": root, "path": path,
                               "source": label, "format": fmt, "mtime_ns": mtime_ns})
    return Completion(text, score, start, end, summary)


def _anchor(tokens: Sequence[str]) -> Optional[Tuple[str, str]]:
    """What to sample passages by: (FTS5 expression, plain-store term prefix), or None.

    The word being typed joins as a prefix once it is long enough, and not a
    stopword, for its prefix query to stay cheap (FTS5 expands a prefix into
    every matching term before the LIMIT applies); otherwise the sample comes
    from the words before it, and the caller filters by the prefix.
    """
    *before, last = tokens
    terms = [Term((t,)) for t in before]
    if len(last) >= MIN_PREFIX_LEN and not is_stopword(last):
        terms.append(Term((last,), prefix=True))
    if not terms:
        return None
    rarest = max(terms, key=lambda t: len(t.tokens[0]))
    word = rarest.tokens[0]
    key = _common_prefix(word, stem(word)) if rarest.prefix else stem(word)
    return " AND ".join(t.fts5() for t in terms), key


def _offer(found: Dict[str, _Offer], candidate: _Offer) -> None:
    key = candidate[1].casefold()
    if candidate[1].strip() and (key not in found or found[key][0] < candidate[0]):
        found[key] = candidate


def _has_words(text: str, tokens: Sequence[str]) -> bool:
    """Every typed token begins some word of `text` (the last one may be partial), both
    folded as search forms fold them (`ёлк` begins `Ёлка`, `αθη` begins `Αθήνα`)."""
    words = search_tokens(text)
    return all(any(w.startswith(t) for w in words) for t in search_tokens(" ".join(tokens)))


def _word_start(prefix: str, before: str = "") -> "re.Pattern[str]":
    """Words of lower-cased text that begin with `prefix`, right after `before` if given.

    Group 1 is the word (then folded by `tokenize`). Only the few matching words
    are tokenized, not the whole sample: per keystroke, tokenizing every word of
    every sampled passage cost more than the queries. Requiring the word typed
    before keeps "brake p" to "brake pads", not every p-word near a brake.
    """
    lead = (re.escape(before) + r"[^\w]{1,3}") if before else ""
    return re.compile(r"(?<![^\W_])" + lead + "(" + re.escape(prefix) + r"[^\W_]*)")


def _word_range(text: str, prefix: str) -> Tuple[int, int]:
    want = fold_all(prefix)
    for start, end, tok in token_spans(text):
        if tok.startswith(prefix) or fold_all(tok).startswith(want):
            return start, min(end, start + len(prefix))
    at = text.find(prefix)   # inside a word of Chinese or Japanese (`旅` of `北京旅行`)
    return (at, at + len(prefix)) if at >= 0 else (0, 0)


def _last_token_start(text: str) -> int:
    spans = token_spans(text)
    return spans[-1][0] if spans else len(text)


def _common_prefix(a: str, b: str) -> str:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]
