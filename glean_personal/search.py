"""Ranked documents (or passages) for a query, with snippets and their evidence.

The store returns its best-scoring passages; here they become documents. A
document's score is its best passage's, plus a damped share of its further
matching passages (a document about a subject beats one passing mention; for
a question in plain words that share saturates, so a long page of passing
mentions cannot outrank the passage that answers it), lifted when the query's
words are in its title, and for the leaders scaled by the share of the
query's rarity-weighted terms the best passage holds, because an ORed query
lets a page rank on one word of three. Ranking never abstains: every hit
carries its match strength (that share, halved when the passage holds few of
the query's words), and a surface that wants an answer, not a list, decides
from it. Each document is shown by a passage that mentions the query in its
own text. A question in plain words also searches a few synonyms of its
words (synonyms.py), which count below the words themselves. docs/search.md
gives the numbers and why.
"""
from __future__ import annotations

import functools
import math
import os
import re
from bisect import bisect_left, bisect_right
from typing import Callable, Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

from .analysis import (ascii_equivalent, bigram_chain, has_identifiers, identifier_spans,
                       search_spans, stem, tokenize)
from .docref import doc_summary
from .query import Filters, Query, Term, canonical_type, parse
from .records import Record, field
from .spelling import suggest_words
from .store.core import Store, passage_parts, passage_text


class SearchTuning(Record, frozen=True):
    """Search's knobs, in one place (as `graph.GraphTuning` holds the graph's); docs/search.md."""

    snippet_chars: int = 260
    tie: float = 0.01           # scores this close (relative) are shown as tied
    extra: float = 0.3          # weight of a document's further matching passages (keyword lists)
    title_boost: float = 0.5    # how much a query word in the document title lifts it
    rare: float = 0.5           # a term is rare at this share of the query's top weight
    absent_weight: float = 2.0  # an unknown word weighs this many times the rarest known one
    # A surface that must answer or say "nothing" (/chat) answers when one of its
    # candidate passages has at least this match strength (tuned on the golden
    # sets' unanswerable questions; docs/search.md, "Match strength").
    answer_strength: float = 0.33
    # A passage holding fewer than this many of the query's words (fewer than
    # all, for a shorter query) has its strength scaled by `few_words_factor`.
    strength_words: int = 3
    few_words_factor: float = 0.5
    rerank: int = 20            # leaders whose best passage is checked for query coverage
    pool: int = 120             # best passages fetched from the store per query
    common: float = 0.02        # words in more of the passages choose no candidates (0: all do)
    cover_floor: float = 0.5    # a leader holding none of the query's weight keeps this share
    literal_boost: float = 1.0  # a passage holding a symbol word as typed (`@{upstream}`) gains this share
    listing: float = 0.5        # a table of contents or an index (lines end in `… 12`) keeps this share
    changelog: float = 0.5      # release notes keep this share for a question not about versions
    duplicate: float = 0.6      # estimated phrase Jaccard at which two documents are one text
    sketch: int = 256           # phrase ids per document in that estimate (bottom-k)
    min_phrases: int = 64       # documents with fewer phrases are never folded
    same_passage_chars: int = 200   # a shorter passage shown twice is no sign of one text
    contained: float = 0.8      # share of a document's passages another must hold to be its copy
    # Questions in plain words also search the thesaurus's synonyms of their
    # words (synonyms.py); a slot held only by a synonym counts this share of
    # its weight in the coverage rerank and in match strength.
    synonyms: bool = True
    synonym_cover: float = 0.25
    synonym_strength: float = 0.75


TUNING = SearchTuning()


class Snippet(Record):
    text: str
    ranges: List[Tuple[int, int]]
    ordinal: int = 0

    def to_dict(self) -> dict:
        return {"text": self.text, "snippet": self.text,
                "ranges": [{"startIndex": a, "endIndex": b} for a, b in self.ranges]}


class Hit(Record):
    """One result: a document represented by its best passage (or one passage)."""

    document: dict
    score: float
    section: List[str]
    passages_matched: int
    passages_total: int
    snippets: List[Snippet]
    passage_id: int = 0
    passage_text: str = ""
    matched_terms: Optional[List[str]] = None
    missed_terms: Optional[List[str]] = None
    tied_with_previous: Optional[bool] = None
    relative: float = 1.0
    lines: Optional[List[int]] = None   # the best passage's first and last line in the file
    page: Optional[str] = None          # the best passage's page label (PDF)
    strength: float = 0.0
    rare_matched: bool = False
    also_at: List[dict] = field(default_factory=list)   # near-duplicates folded into this hit
    matched_synonyms: Optional[List[Tuple[str, str]]] = None   # (query word, synonym) found

    @property
    def title(self) -> str:
        return self.document["title"]

    @property
    def url(self) -> str:
        return self.document["url"]

    def to_dict(self) -> dict:
        out = {"document": dict(self.document), "title": self.title, "url": self.url,
               "score": round(self.score, 6), "section": list(self.section),
               "passages_matched": self.passages_matched,
               "passages_total": self.passages_total,
               "snippets": [s.to_dict() for s in self.snippets],
               "passage": {"id": self.passage_id, "text": self.passage_text},
               "strength": round(self.strength, 3), "rare_matched": self.rare_matched}
        if self.lines is not None:
            out["lines"] = list(self.lines)
        if self.page is not None:
            out["page"] = self.page
        if self.also_at:
            out["also_at"] = [dict(d) for d in self.also_at]
        if self.matched_terms is not None:
            out.update(matched_terms=self.matched_terms, missed_terms=self.missed_terms,
                       tied_with_previous=bool(self.tied_with_previous))
        if self.matched_synonyms is not None:
            out["matched_synonyms"] = [{"term": a, "synonym": b}
                                       for a, b in self.matched_synonyms]
        return out


class SearchResult(Record):
    query: str
    store: str
    results: List[Hit] = field(default_factory=list)
    has_more: bool = False
    terms: List[str] = field(default_factory=list)
    absent_terms: List[str] = field(default_factory=list)
    excluded_terms: List[str] = field(default_factory=list)
    suggestions: Dict[str, List[str]] = field(default_factory=dict)
    notices: List[str] = field(default_factory=list)
    # A question's words and the thesaurus's synonyms searched for them.
    expansions: Dict[str, List[str]] = field(default_factory=dict)

    @property
    def strength(self) -> float:
        """The top hit's match strength (0 without results)."""
        return self.results[0].strength if self.results else 0.0

    def to_dict(self) -> dict:
        return {"query": self.query, "store": self.store, "terms": self.terms,
                "excluded_terms": self.excluded_terms,
                "absent_terms": self.absent_terms, "suggestions": self.suggestions,
                "notices": self.notices, "expansions": self.expansions,
                "has_more": self.has_more,
                "results": [h.to_dict() for h in self.results]}


def search(store: Store, text: str, limit: int = 10, offset: int = 0,
           filters: Filters = Filters(), explain: bool = False,
           passages: bool = False) -> SearchResult:
    query = parse(text)
    filters = _known_types(query.filters(filters))
    result = SearchResult(text, store.kind, terms=query.labels(),
                          excluded_terms=[t.label for t in query.excluded])
    if limit <= 0:
        return result
    want = offset + limit
    with store.reading():
        if query.empty:
            if filters.any:
                result.notices = _filter_notices(store, filters)
            return result
        weights = _Weights(store, query)
        result.absent_terms = weights.absent
        if weights.absent:
            result.suggestions = suggest_words(store, [
                t.tokens[0] for t in query.terms
                if t.label in weights.absent and not t.is_phrase])
        pool = max(TUNING.pool, want * 4)
        expansions = weights.expansions
        labels = query.labels()
        for i, syn in expansions:
            result.expansions.setdefault(labels[i], []).append(syn.label)
        hits = _candidates(store, query, weights, pool, filters)
        if not hits:
            if filters.any:
                result.notices = _filter_notices(store, filters)
            return result
        doc_of, titles = store.passage_documents_titled([pid for pid, _ in hits])
        words = {s for t in query.terms for s in t.stems()}
        boost = {d: _title_boost(title, words) for d, title in titles.items()}
        if query.question and not words & _VERSION_WORDS:
            _damp_release_notes(boost, titles, store.document_paths(titles))
        rows = _Rows(store.passages)
        if query.literals:
            hits = _literal_lift(hits, rows, query)
        if passages:
            ranked = _rank_passages(hits, doc_of, boost, rows, query, weights)
        else:
            ranked = _rank_documents(hits, doc_of, boost, rows, query, weights)
        if query.excluded and not passages:
            ranked = _without_excluded(store, query, ranked, doc_of, want + 1)
        ranked, also = _fold_near_duplicates(store, ranked, doc_of, want + 1, passages)
        if not passages:   # the passages that may represent the first documents, in one read
            rows.load([pid for scored, _, _ in ranked[:want + 1] for _, pid in scored[:3]])
        probes = _probes(weights.terms)
        docs = _Rows(store.documents)
        ranked = _chapters_first(store, ranked, rows, docs, probes, doc_of, also, want + 1,
                                 passages)
        shown = []
        for i, (pid, score, count) in enumerate(ranked[:want + 1]):
            if i >= want:
                result.has_more = True
                break
            if i >= offset:
                if not passages:   # a document's passages: show it by one of them
                    pid = _representative(pid, rows, probes)
                shown.append((pid, score, count))
        docs.load([doc_of[pid] for pid, _, _ in shown]
                  + [d for pid, _, _ in shown for d in also.get(doc_of[pid], ())])
        docs_shown = [docs[doc_of[pid]] for pid, _, _ in shown]
        spans = {} if passages else store.passage_ranges([d["id"] for d in docs_shown])
        ranges = [(pid, pid) if passages else spans[doc["id"]]
                  for (pid, _, _), doc in zip(shown, docs_shown)]
        counts = ([n for _, _, n in shown] if passages else
                  store.fulltext.matching_counts(weights.terms, ranges, in_title=False))
        rows.load([pid for pid, _, _ in shown])
        matcher = _Matcher(query, expansions, weights.heads)
        for (pid, score, _), doc, (lo, hi), matched in zip(shown, docs_shown, ranges, counts):
            passage = rows[pid]
            hit = Hit(doc_summary(doc), score, passage["heading"], matched, doc["passages"],
                      [snippet(passage["text"], matcher, passage["ordinal"])], pid,
                      passage["text"], lines=passage["lines"], page=passage["page"])
            hit.strength, hit.rare_matched = weights.strength(passage_text(passage),
                                                              passage_parts(passage))
            hit.also_at = [doc_summary(docs[d]) for d in also.get(doc["id"], ())]
            if explain:
                _explain(store, hit, query, lo, hi, expansions)
            result.results.append(hit)
    _mark_ties(result.results)
    return result


def _candidates(store: Store, query: Query, weights: "_Weights", pool: int,
                filters: Filters) -> List[Tuple[int, float]]:
    """The store's best passages for the query and its synonyms, in one OR: BM25 sums its terms."""
    if weights.expansions:
        query = Query(query.text, weights.terms, query.excluded)
    return store.fulltext.search(query, pool, filters, _rarer(weights, pool, filters))


def _rarer(weights: "_Weights", pool: int, filters: Filters) -> List[Term]:
    """The query's terms that alone choose the candidates, or none for all of them.

    A word in more than `TUNING.common` of the passages costs the store one
    score per passage holding it, and a passage holding none of the rarer words
    seldom leads; so when those hold a pool's worth of passages, only passages
    holding one of them are scored (with every word). Not under a filter or an
    excluded word, which could leave fewer candidates than that.
    """
    if not TUNING.common or filters.any or weights.query.excluded:
        return []
    limit = TUNING.common * weights.passages
    rare = [(t, df) for t, df in zip(weights.terms, weights.counts) if df <= limit]
    if len(rare) == len(weights.terms) or sum(df for _, df in rare) < pool:
        return []
    return [t for t, _ in rare]


def _known_types(filters: Filters) -> Filters:
    """Type filters as stored formats: aliases (`markdown`) and file extensions (`yml`)."""
    if not filters.formats:
        return filters
    from .formats import SUPPORTED   # only when a type is asked for
    formats = tuple(dict.fromkeys(canonical_type(f, SUPPORTED) for f in filters.formats))
    return filters.replace(formats=formats)


def _without_excluded(store: Store, query: Query, ranked: list, doc_of: Dict[int, int],
                      enough: int) -> list:
    """Drop documents any of whose passages holds an excluded term (the title included)."""
    out = []
    i = 0
    while i < len(ranked) and len(out) < enough:
        chunk = ranked[i:i + 4 * enough]
        i += len(chunk)
        docs = [doc_of[scored[0][1]] for scored, _, _ in chunk]
        spans = store.passage_ranges(docs)
        counts = store.fulltext.matching_counts(query.excluded, [spans[d] for d in docs])
        out.extend(item for item, n in zip(chunk, counts) if not n)
    return out[:enough]


def _fold_near_duplicates(store: Store, ranked: list, doc_of: Dict[int, int],
                          enough: int, passages: bool) -> Tuple[list, Dict[int, List[int]]]:
    """Show the same text kept at two paths of one source once: the later-ranked copy is
    listed under the first as "also at". Copies are told by their phrase sketches (the
    smallest phrase ids, a bottom-k estimate of how much two phrase sets overlap)."""
    from .phrases import unpack
    kept: list = []
    kept_docs: Dict[int, _Kept] = {}    # source → its documents kept so far
    also: Dict[int, List[int]] = {}
    folded: Dict[int, int] = {}   # a copy's document → the document it is shown under
    seen: Set[int] = set()
    width = TUNING.sketch * 4   # bytes of packed ids
    pos = 0
    while pos < len(ranked) and len(kept) < enough:
        chunk = ranked[pos:pos + 2 * enough]
        docs = [doc_of[first if passages else first[0][1]] for first, _, _ in chunk]
        sketches = store.phrase_sketches(docs, width)
        sources = {d: source for d, (_, _, source) in sketches.items()}
        for item, doc in zip(chunk, docs):
            pos += 1
            twin = folded.get(doc)
            if twin is None and doc not in seen:
                seen.add(doc)
                blob, size, _ = sketches.get(doc, (b"", 0, None))
                sketch = (_Sketch(unpack(blob).tolist()) if size >= TUNING.min_phrases * 4
                          else None)
                group = kept_docs.get(sources.get(doc))
                twin = None if sketch is None or group is None else group.copy_of(sketch)
                if twin is not None:
                    folded[doc] = twin
                    also.setdefault(twin, []).append(doc)
                elif sketch is not None:
                    kept_docs.setdefault(sources.get(doc), _Kept()).add(doc, sketch)
            if twin is not None:
                continue
            kept.append(item)
            if len(kept) >= enough:
                break
    return kept + ranked[pos:], also


def _chapters_first(store: Store, ranked: list, rows: "_Rows", docs: "_Rows",
                    probes: Sequence[str],
                    doc_of: Dict[int, int], also: Dict[int, List[int]], enough: int,
                    passages: bool) -> list:
    """Rank a chapter above the all-in-one page that repeats it; show a passage once.

    A book's single-page edition (mdBook's `print.html`, a single-page build,
    SQLite's `capi3ref.html`) holds every chapter, so for a question it shows
    the chapter's own passage and outranks it on its further passages. When
    a leading hit shows the passage a larger hit above it shows, and nearly
    every passage of the smaller one (`TUNING.contained`) is in the larger,
    the smaller moves up to the larger's place and score; both stay listed.
    Pages that only share a paragraph keep their order. A list of passages
    shows such a text once, from the smaller document, naming the other
    under "also at".
    """
    head = ranked[:enough]
    pids = [item[0] if passages else _representative(item[0], rows, probes) for item in head]
    rows.load(pids)
    docs.load([doc_of[pid] for pid in pids])
    out: list = []
    first: Dict[Tuple[int, str], int] = {}   # (source, text) → its index in `out`
    for item, pid in zip(head, pids):
        doc = doc_of[pid]
        text = " ".join(rows[pid]["text"].split())
        key = (docs[doc]["source_id"], text)
        j = first.get(key) if len(text) >= TUNING.same_passage_chars else None
        other = None if j is None else doc_of[out[j][0] if passages else out[j][0][0][1]]
        if other is None or other == doc:
            first.setdefault(key, len(out))
            out.append(item)
            continue
        smaller = docs[doc]["passages"] < docs[other]["passages"]
        if passages:
            host, copy = (doc, other) if smaller else (other, doc)
            if smaller:
                out[j] = (item[0], out[j][1], item[2])
            named = also.setdefault(host, [])
            if copy not in named:
                named.append(copy)
        elif smaller and store.contained_share(doc, other) >= TUNING.contained:
            out.insert(j, (item[0], out[j][1], item[2]))
            first = {k: (i + 1 if i >= j else i) for k, i in first.items()}
            first[key] = j
        else:
            out.append(item)
    return out + ranked[enough:]


class _Sketch:
    """A document's phrase sketch: its ids, sorted and unique as stored, and their set,
    made only when a comparison needs it (most pairs are told apart without)."""

    __slots__ = ("ids", "_members")

    def __init__(self, ids: List[int]) -> None:
        self.ids = ids
        self._members: Optional[FrozenSet[int]] = None

    @property
    def members(self) -> FrozenSet[int]:
        if self._members is None:
            self._members = frozenset(self.ids)
        return self._members


class _Kept:
    """The documents of one source kept so far by `_fold_near_duplicates`, in rank order."""

    def __init__(self) -> None:
        self.docs: List[Tuple[int, _Sketch]] = []
        self.ids: Set[int] = set()   # every id of their sketches

    def add(self, doc: int, sketch: _Sketch) -> None:
        self.docs.append((doc, sketch))
        self.ids.update(sketch.ids)

    def copy_of(self, sketch: _Sketch) -> Optional[int]:
        """The first kept document whose text the sketch's is (`_same_text`), or None."""
        # The ids it shares with them all bound those it shares with each: one set
        # operation tells a new text from every kept one at once.
        shared = len(self.ids.intersection(sketch.ids))
        return next((d for d, kept in self.docs
                     if not _too_few(shared, kept, sketch) and _same_text(kept, sketch)), None)


def _too_few(bound: int, one: "_Sketch", other: "_Sketch") -> bool:
    """Whether two sketches sharing at most `bound` ids fail `_same_text`'s first test
    (sharing fewer fails it too: its limit falls as the count grows)."""
    return bound < TUNING.duplicate * min(TUNING.sketch, len(one.ids) + len(other.ids) - bound)


def _overlap_bound(a: Sequence[int], b: Sequence[int]) -> int:
    """At most how many ids two sorted sketches share: those of the range both span."""
    if not a or not b:
        return 0
    lo, hi = max(a[0], b[0]), min(a[-1], b[-1])
    if lo > hi:
        return 0
    return min(bisect_right(a, hi) - bisect_left(a, lo), bisect_right(b, hi) - bisect_left(b, lo))


def _same_text(one: _Sketch, other: _Sketch) -> bool:
    """Bottom-k Jaccard estimate: of the k smallest ids of the union, the share in both."""
    # Two documents of unlike sizes have sketches over unlike ranges: such pairs
    # stop here, without making sets.
    if _too_few(_overlap_bound(one.ids, other.ids), one, other):
        return False
    a, b = one.members, other.members
    common = len(a & b)
    # The ids in both are at most all the common ones: most pairs fail here, unsorted.
    if common < TUNING.duplicate * min(TUNING.sketch, len(a) + len(b) - common):
        return False
    union = sorted(a | b)[:TUNING.sketch]
    both = sum(1 for x in union if x in a and x in b)
    return both >= TUNING.duplicate * len(union)


class _Rows:
    """Passage rows (`store.passages`) or document rows (`store.documents`), read from
    the store only when needed, and once per query."""

    def __init__(self, read: Callable[[List[int]], Dict[int, dict]]) -> None:
        self.read = read
        self.rows: Dict[int, dict] = {}
        self._lower: Dict[int, str] = {}

    def load(self, ids: Sequence[int]) -> None:
        missing = list(dict.fromkeys(i for i in ids if i not in self.rows))
        if missing:
            self.rows.update(self.read(missing))

    def __getitem__(self, pid: int) -> dict:
        return self.rows[pid]

    def lower(self, pid: int) -> str:
        """The passage's text lower-cased (kept: several steps look for words in it)."""
        low = self._lower.get(pid)
        if low is None:
            low = self._lower[pid] = self.rows[pid]["text"].lower()
        return low


def _rank_passages(hits, doc_of, boost, rows: _Rows, query: Query,
                   weights: "_Weights") -> List[Tuple[int, float, int]]:
    scored = [(pid, score * boost[doc_of[pid]], 1) for pid, score in hits]
    return _rerank(scored, rows, query, weights, listings=True)


# Release notes by their titles: "What's New In Python 3.8", "Release Notes", "Git v2.30.2
# Release Notes", "Release History Of SQLite", "Changes", "CHANGELOG (zstd)", "Recent SQLite News",
# a package's HISTORY file ("History", "Version History"; not "History and License").
_CHANGELOG_TITLE = re.compile(r"^(?:what[\u2019']?s new|changes\b|change ?log|release (?:notes|history)|"
                             r"history of .* releases|recent .*news|.*older news|news\b|"
                             r"(?:version |revision )?history\b(?!\s+(?:and|of)\b))"
                             r"|release notes\b|\bchangelog\b", re.IGNORECASE)
# …and by their folder: `release-notes/TypeScript 5.0.md`, `releases/4.2.txt`,
# `releaselog/3_45_0.html`, `changelog/`, `whatsnew/3.12.rst`, `news/`.
_CHANGELOG_FOLDER = re.compile(r"(?:^|/)(?:release[-_ ]?(?:notes?|logs?)|releases|change[-_ ]?logs?"
                               r"|what[-_]?s[-_]?new|news)/", re.IGNORECASE)
# The stems of a question about versions or changes, which release notes answer.
_VERSION_WORDS = frozenset({"version", "releas", "new", "ad", "add", "chang", "deprec", "remov",
                            "sinc", "histori", "upgrad", "migrat"})


def _damp_release_notes(boost: Dict[int, float], titles: Dict[int, str],
                        paths: Dict[int, str]) -> None:
    """Release notes name every feature in passing, version after version, so for a
    question in plain words they match almost anything, and a long one outranks the
    page that explains. For a question that is not about versions or changes (no
    *version*, *new*, *added*, *changed*, *since*…), a document titled as release
    notes, or filed in a release-notes folder (whose pages are often titled by
    their version alone, `TypeScript 5.0`), counts `TUNING.changelog` of its score."""
    for d, title in titles.items():
        if _is_changelog(title) or _CHANGELOG_FOLDER.search(paths.get(d, "")):
            boost[d] *= TUNING.changelog


@functools.lru_cache(maxsize=8192)
def _is_changelog(title: str) -> bool:
    """Whether a title names release notes (kept, as `_title_stems` is)."""
    return _CHANGELOG_TITLE.search(title) is not None


# A line of a table of contents or a back-of-book index: words, a dot leader
# (an ellipsis once a reader has read it) and a page number or label. Each
# part is looked for in the line's last few characters only, so a long run of
# dots or digits costs no backtracking.
_PAGE_AT_END = re.compile(r" ?[0-9ivxlcdmIVXLCDM]+(?:[-\u2013][0-9]+)?[ \t]*$")
_LEADER_AT_END = re.compile(r"(?:\u2026|(?:\. ?){4})$")


def _is_listing_line(line: str) -> bool:
    tail = line[-24:]
    page = _PAGE_AT_END.search(tail)
    if page is None:
        return False
    head = line[:len(line) - len(tail) + page.start()]
    return _LEADER_AT_END.search(head[-8:]) is not None


def _is_listing(text: str) -> bool:
    """Whether a passage is a table of contents or an index: at least four lines, and
    most of them ending in a dot leader and a page number."""
    if "\u2026" not in text and "...." not in text and ". . . ." not in text:
        return False
    lines = [line for line in text.split("\n") if line.strip()]
    return len(lines) >= 4 and 2 * sum(map(_is_listing_line, lines)) >= len(lines)


def _demote_listings(by_doc: Dict[int, List[Tuple[float, int]]], boost: Dict[int, float],
                     rows: _Rows) -> None:
    """A contents or index page names a subject without saying anything about it, and
    its short lines of titles make it a strong BM25 match. Among the leading
    documents, such a passage counts `TUNING.listing` of its score, so the page
    that explains comes first and is the one shown. Only a document whose best
    passage is a listing costs a look at its next two."""
    leaders = sorted(by_doc, key=lambda d: (-by_doc[d][0][0] * boost.get(d, 1.0), d))[:TUNING.rerank]
    rows.load([by_doc[d][0][1] for d in leaders])
    for d in leaders:
        scored = by_doc[d]
        if not _is_listing(rows[scored[0][1]]["text"]):
            continue
        rows.load([pid for _, pid in scored[1:3]])
        scored[:3] = [(s * TUNING.listing, pid) if _is_listing(rows[pid]["text"]) else (s, pid)
                      for s, pid in scored[:3]]
        scored.sort(key=lambda t: (-t[0], t[1]))


def _rank_documents(hits, doc_of, boost, rows: _Rows, query: Query,
                    weights: "_Weights") -> List[tuple]:
    """(the document's passages by score, its score, matching passages) per document."""
    by_doc: Dict[int, List[Tuple[float, int]]] = {}
    for pid, score in hits:
        by_doc.setdefault(doc_of[pid], []).append((score, pid))
    for scored in by_doc.values():
        scored.sort(key=lambda t: (-t[0], t[1]))
    _demote_listings(by_doc, boost, rows)
    ranked = []
    for doc_id, scored in by_doc.items():
        best, pid = scored[0]
        extra = sum(s / math.sqrt(i + 1) for i, (s, _) in enumerate(scored[1:21], start=1))
        if query.question:   # saturating: the further passages at most double the best
            score = best * (1 + extra / (extra + best)) if extra > 0 else best
        else:
            score = best + TUNING.extra * extra
        ranked.append((pid, score * boost[doc_id], len(scored)))
    ranked = _rerank(ranked, rows, query, weights)
    return [(by_doc[doc_of[pid]], score, n) for pid, score, n in ranked]


def _probes(terms: Sequence[Term]) -> List[str]:
    """Lower-case word beginnings that a passage mentioning one of the terms contains."""
    out = []
    for term in terms:
        for tok, st in zip(term.tokens, term.stems()):
            out.append(os.path.commonprefix([tok, st]) or tok)
    return out


def _representative(scored: List[Tuple[float, int]], rows: _Rows, probes: Sequence[str]) -> int:
    """The best passage that mentions a query word (or a synonym searched) in its own text.

    Every passage carries its document's title, so when only the title
    matches, BM25 prefers the shortest passage, which may say nothing about
    the query; of the three best, take the first whose text does. `probes`
    are the terms' `_probes`, made once per query.
    """
    rows.load([pid for _, pid in scored[:3]])
    for _, pid in scored[:3]:
        text = rows.lower(pid)
        if any(p in text for p in probes):
            return pid
    return scored[0][1]


def _rerank(ranked, rows: _Rows, query: Query, weights: "_Weights",
            listings: bool = False) -> List[Tuple[int, float, int]]:
    """Scale the leaders by query coverage (costly, so only the first `TUNING.rerank`);
    with `listings`, contents and index passages by `TUNING.listing` too."""
    ranked.sort(key=lambda t: (-t[1], t[0]))
    rows.load([pid for pid, _, _ in ranked[:TUNING.rerank]])
    head = [(pid, score * _coverage(rows[pid]["text"], query, weights)
             * (TUNING.listing if listings and _is_listing(rows[pid]["text"]) else 1.0), n)
            for pid, score, n in ranked[:TUNING.rerank]]
    head.sort(key=lambda t: (-t[1], t[0]))
    return head + ranked[TUNING.rerank:]


def _literal_lift(hits: List[Tuple[int, float]], rows: _Rows,
                  query: Query) -> List[Tuple[int, float]]:
    """Lift the passages that hold a symbol word as typed (`@{upstream}`, not just `upstream`)."""
    rows.load([pid for pid, _ in hits])
    lift = 1.0 + TUNING.literal_boost
    return [(pid, score * lift if any(w in low for w in query.literals) else score)
            for pid, score in hits for low in (rows.lower(pid),)]


def _stems(text: str) -> Set[str]:
    return set(map(stem, set(_search_words(text))))


def _search_words(text: str) -> List[str]:
    """The text's tokens and their search forms (the extra column's words)."""
    if text.isascii() and not has_identifiers(text):
        return tokenize(text)
    return [tok for _, _, tok in search_spans(text)]


def _title_boost(title: str, words: Set[str]) -> float:
    """1 + TUNING.title_boost × the share of the query's words (stems) found in the title."""
    if not words:
        return 1.0
    found = _title_stems(title).intersection(words)
    return 1.0 + TUNING.title_boost * len(found) / len(words)


@functools.lru_cache(maxsize=8192)
def _title_stems(title: str) -> FrozenSet[str]:
    """A title's stems, kept: a long-lived process (REPL, MCP) sees the same titles often."""
    return frozenset(_stems(title))


def _coverage(text: str, query: Query, weights: "_Weights") -> float:
    """`TUNING.cover_floor` to 1.0: the share of the query's rarity-weighted terms in the passage text."""
    if len(query.terms) < 2:
        return 1.0
    return TUNING.cover_floor + (1 - TUNING.cover_floor) * weights.share(text)


def _term_in(term: Term, stems: Set[str], joined: str) -> bool:
    wanted = term.stems()
    if all(s in stems for s in wanted):
        return True
    return term.prefix and all(s in stems for s in wanted[:-1]) and "\n" + wanted[-1] in joined


def _heads(stems: Iterable[str]) -> Tuple[str, ...]:
    """What a word must begin with for its stem to be one of `stems`, or to begin with one.

    Porter's steps only cut a word's end, except three that rewrite it: step 1b
    may add an e, step 1c turns a final y into i, and step 2 swaps a suffix for
    another (biliti -> ble, the most: two letters differ); every later step only
    cuts. So an ASCII word whose stem is s begins with s less its last two
    letters (its first letter, for a stem of three or fewer).
    """
    return tuple({s[:max(1, len(s) - 2)] for s in stems if s})


def _head_finder(heads: Tuple[str, ...]) -> Optional["re.Pattern[str]"]:
    """A pattern for the tokens of lower-cased ASCII text (runs of [0-9a-z], as `tokenize`
    cuts it) that begin with one of `heads`, found at C speed; None when no head is ASCII."""
    plain = sorted(h for h in heads if h.isascii())
    if not plain:
        return None
    # A token begins the text or follows a separator: `words` puts one before the
    # text, so the pattern starts with a character class, which the engine scans
    # for quickly (a look-behind would be tried at every position).
    return re.compile("[^0-9a-z]((?:%s)[0-9a-z]*)" % "|".join(map(re.escape, plain)))


class _Heads:
    """The words worth stemming for a set of query stems: those that begin as one does."""

    def __init__(self, stems: Iterable[str]) -> None:
        stems = list(stems)
        self.stems = frozenset(stems)
        self.heads = _heads(stems)
        self.finder = _head_finder(self.heads)
        self.firsts = {s[:1] for s in stems}
        self._words: Dict[str, Set[str]] = {}

    def may_stem_to(self, tok: str) -> bool:
        """Whether the token's stem may be, or begin with, one of the stems (a non-ASCII
        word, stemmed byte by byte, is judged only by its first letter)."""
        return tok.startswith(self.heads) or (tok[:1] in self.firsts and not tok.isascii())

    def words(self, low: str) -> Set[str]:
        """The distinct tokens of lower-cased ASCII text that may stem to one of the stems
        (kept per text, not to be changed: match strength and the snippet read the same
        passage)."""
        found = self._words.get(low)
        if found is None:
            found = set(self.finder.findall(" " + low)) if self.finder else set()
            if len(self._words) < 512:
                self._words[low] = found
        return found


class _Matcher:
    """Which text tokens a query's terms match, by stem or prefix; each token judged once."""

    def __init__(self, query: Query, expansions: Sequence[Tuple[int, Term]],
                 heads: Optional["_Heads"] = None) -> None:
        self.wanted: Dict[str, int] = {}
        self.prefixes: List[Tuple[str, int]] = []
        self.literals: List[Tuple[str, int]] = []   # CJK words, found as written
        # A synonym marks the words it matches as its query word's (the snippet's
        # window counts distinct query words).
        for i, term in list(enumerate(query.terms)) + list(expansions):
            chain = bigram_chain(term.tokens)
            if chain:
                self.literals.append((chain, i))
                continue
            for s in term.stems():
                self.wanted.setdefault(s, i)
            if term.prefix:
                self.prefixes.append((term.stems()[-1], i))
        self.starts = tuple(p for p, _ in self.prefixes)
        # The match strength's heads when they are for the same stems: found words are shared.
        same = heads is not None and heads.stems == frozenset(self.wanted)
        self.heads = heads if same else _Heads(self.wanted)
        self.verdict: Dict[str, int] = {}

    def judge(self, tok: str) -> int:
        """The index of the term that matches the token, or -1."""
        idx = self.verdict.get(tok)
        if idx is None and not self.heads.may_stem_to(tok):
            idx = self.verdict[tok] = -1
        if idx is None:
            s = stem(tok)
            idx = self.wanted.get(s, -1)
            if idx < 0 and self.starts and (s.startswith(self.starts)
                                            or tok.startswith(self.starts)):
                idx = next(i for p, i in self.prefixes if s.startswith(p) or tok.startswith(p))
            self.verdict[tok] = idx
        return idx

    def positions(self, text: str) -> List[Tuple[int, int, int]]:
        """(start, end, term index) for each token of the text that a query term matches."""
        judge = self.judge
        plain = text if text.isascii() else ascii_equivalent(text)
        if not self.wanted:   # only CJK words, found below as written
            marks = []
        elif plain is not None:
            # Judge each distinct word that may match, then find only the matching ones;
            # then the parts of identifiers (parseArgs), which search_spans would add.
            low = plain.lower()
            matched = {tok: idx for tok in self.heads.words(low) for idx in (judge(tok),)
                       if idx >= 0}
            marks = _ascii_occurrences(low, matched) if matched else []
            marks += [(start, end, idx) for start, end, part in identifier_spans(plain)
                      for idx in (judge(part),) if idx >= 0]
        else:   # tokens and their search forms: folded words, identifier parts
            marks = [(start, end, idx) for start, end, tok in search_spans(text)
                     for idx in (judge(tok),) if idx >= 0]
        if self.literals:
            marks += _literal_occurrences(text, self.literals)
        return _merge_marks(marks)


_ASCII_WORD = frozenset("0123456789abcdefghijklmnopqrstuvwxyz")


def _ascii_occurrences(low: str, words: Dict[str, int]) -> List[Tuple[int, int, int]]:
    """(start, end, value) for each whole-token occurrence of the words in lower-cased ASCII."""
    out = []
    n = len(low)
    for word, value in words.items():
        i = low.find(word)
        while i >= 0:
            end = i + len(word)
            if ((i == 0 or low[i - 1] not in _ASCII_WORD)
                    and (end == n or low[end] not in _ASCII_WORD)):
                out.append((i, end, value))
            i = low.find(word, end)   # a later token cannot start inside this run
    out.sort()
    return out


def _literal_occurrences(text: str, literals: Sequence[Tuple[str, int]]
                         ) -> List[Tuple[int, int, int]]:
    """(start, end, term index) for each place the text holds a CJK query word."""
    out = []
    for word, idx in literals:
        i = text.find(word)
        while i >= 0:
            out.append((i, i + len(word), idx))
            i = text.find(word, i + 1)
    return out


def _merge_marks(marks: List[Tuple[int, int, int]]) -> List[Tuple[int, int, int]]:
    """Sorted marks, overlapping or touching ones (a word and its parts) made one."""
    marks.sort()
    out: List[Tuple[int, int, int]] = []
    for start, end, idx in marks:
        if out and start <= out[-1][1]:
            if end > out[-1][1]:
                out[-1] = (out[-1][0], end, out[-1][2])
            continue
        out.append((start, end, idx))
    return out


def snippet(text: str, matcher: _Matcher, ordinal: int = 0,
            width: int = TUNING.snippet_chars) -> Snippet:
    """The densest window of matched terms, cut at word boundaries, with match ranges."""
    marks = matcher.positions(text)
    if not marks:
        cut = _cut_end(text, min(len(text), width))
        return Snippet(text[:cut].strip(), [], ordinal)
    first = marks[_densest(marks, width)][0]
    start = max(0, first - width // 4)
    start = _cut_start(text, start)
    end = _cut_end(text, min(len(text), start + width))
    snippet_text = text[start:end]
    lead = len(snippet_text) - len(snippet_text.lstrip())
    snippet_text = snippet_text.strip()
    ranges = [(a - start - lead, b - start - lead) for a, b, _ in marks
              if a >= start + lead and b <= start + lead + len(snippet_text)]
    return Snippet(snippet_text, ranges, ordinal)


def _densest(marks: Sequence[Tuple[int, int, int]], width: int) -> int:
    """The first mark of the window of `width` characters holding the most distinct terms,
    then the most marks (the earliest such). The window slides: each mark enters and
    leaves its term's count once."""
    best, best_key = 0, (-1, -1)
    held: Dict[int, int] = {}   # term index → its marks in the window
    j = 0
    for i, (at, _, term) in enumerate(marks):
        held[term] = held.get(term, 0) + 1
        while at - marks[j][0] > width:
            gone = marks[j][2]
            held[gone] -= 1
            if not held[gone]:
                del held[gone]
            j += 1
        key = (len(held), i - j + 1)
        if key > best_key:
            best, best_key = j, key
    return best


def _cut_start(text: str, pos: int) -> int:
    if pos <= 0:
        return 0
    space = text.rfind(" ", max(0, pos - 30), pos)
    return space + 1 if space >= 0 else pos


def _cut_end(text: str, pos: int) -> int:
    if pos >= len(text):
        return len(text)
    space = text.rfind(" ", max(0, pos - 30), pos)
    return space if space > 0 else pos


def _matched_labels(store: Store, query: Query, lo: int, hi: int) -> List[str]:
    """The terms found in passages lo..hi, asked of the store's own tokenizer per term."""
    return [label for label, term in zip(query.labels(), query.terms)
            if store.fulltext.matching([term], lo, hi)]


def _explain(store: Store, hit: Hit, query: Query, lo: int, hi: int,
             expansions: Sequence[Tuple[int, Term]]) -> None:
    matched = _matched_labels(store, query, lo, hi)
    labels = query.labels()
    hit.matched_terms = matched
    hit.missed_terms = [label for label in labels if label not in matched]
    hit.matched_synonyms = [(labels[i], syn.label) for i, syn in expansions
                            if store.fulltext.matching([syn], lo, hi)]


class _Weights:
    """Each query term's weight by its rarity in the index, and a passage's match strength.

    A term's weight is its BM25 inverse document frequency over passages. A
    word the index does not know weighs `TUNING.absent_weight` times the rarest known
    one, so a hit that rests on a query's commoner words shows a low strength. Terms
    joined by OR are one slot: the passage covers it with any of them.
    """

    def __init__(self, store: Store, query: Query) -> None:
        self.query = query
        terms = query.terms
        wanted = query.expansions if TUNING.synonyms else []
        dfs = store.fulltext.frequencies(terms + [t for _, t in wanted]) if terms else []
        total = max(1, store.passage_count())
        # The synonyms some passage holds; self.terms is the query's terms, then those.
        self.expansions = [(i, t) for (i, t), df in zip(wanted, dfs[len(terms):]) if df]
        # Passages holding each of self.terms, and in all.
        self.counts = dfs[:len(terms)] + [df for df in dfs[len(terms):] if df]
        self.passages = total
        dfs = dfs[:len(terms)]
        self.terms = terms + [t for _, t in self.expansions]
        labels = query.labels()
        self.absent = [lab for lab, df in zip(labels, dfs) if df == 0]
        known = [math.log(1 + (total - df + 0.5) / (df + 0.5)) for df in dfs if df]
        unknown = TUNING.absent_weight * max(known, default=1.0)
        self.term = [math.log(1 + (total - df + 0.5) / (df + 0.5)) if df else unknown
                     for df in dfs]
        self.slots = query.slots()
        self.slot = [max(self.term[i] for i in group) for group in self.slots]
        top = max(self.slot, default=0.0)
        self.rare = [w >= TUNING.rare * top for w in self.slot]
        self.total = sum(self.slot)
        self.heads = _Heads(s for t in self.terms for s in t.stems())
        self.sequence = any(t.is_phrase and not t.prefix for t in self.terms)   # needs word order
        # Each slot's synonyms (indexes into self.terms).
        slot_of = {i: k for k, group in enumerate(self.slots) for i in group}
        self.synonyms_of: List[List[int]] = [[] for _ in self.slots]
        for j, (i, _) in enumerate(self.expansions):
            self.synonyms_of[slot_of[i]].append(len(terms) + j)
        self._seen: Dict[str, List[bool]] = {}
        self._line_stems: Dict[str, Set[str]] = {}
        self.prefixed = any(t.prefix for t in self.terms)
        self._needs = [(frozenset(t.stems()), t.prefix, frozenset(t.stems()[:-1]),
                        "\n" + t.stems()[-1] if t.prefix and t.stems() else "")
                       for t in self.terms]
        # The query's words, for strength: each slot by its longest alternative.
        words: Set[str] = set()
        for group in self.slots:
            words.update(max((terms[i].stems() for i in group), key=len))
        self.need = min(TUNING.strength_words, len(words))
        # Short words whose stem is a two-letter clip of them (lfs -> lf): for
        # strength, only a passage word at least as long counts (LF is not LFS).
        self.clipped = {i: t.tokens[0] for i, t in enumerate(terms)
                        if not t.is_phrase and not t.prefix
                        and len(t.stems()[0]) <= 2 < len(t.tokens[0])}

    def present(self, text: str) -> List[bool]:
        """Which terms the text holds, by stem (a phrase by adjacent stems)."""
        return self.present_in([text])

    def present_in(self, lines: Sequence[str]) -> List[bool]:
        """Which terms the lines joined by newlines hold (a passage's headings and text).

        Without a phrase, and in ASCII (or text whose other characters are all
        separators: `ascii_equivalent`), which stems a text holds is all that
        counts, and no word spans a newline: each line's stems are found once
        and kept, as the coverage rerank reads a passage's text and match
        strength reads it again under its headings.
        """
        plain = [] if self.sequence else [line if line.isascii() else ascii_equivalent(line)
                                          for line in lines]
        if self.sequence or None in plain:
            return self._present_in_tokens("\n".join(lines))
        if len(plain) == 1:
            stems = self._ascii_stems(plain[0])
        else:
            stems = set().union(*map(self._ascii_stems, plain))
        joined = "\n" + "\n".join(stems) if self.prefixed else ""
        # _term_in, with each term's stems as sets made once
        return [need <= stems or (prefix and head <= stems and last in joined)
                for need, prefix, head, last in self._needs]

    def _ascii_stems(self, line: str) -> Set[str]:
        """The stems of an ASCII line's words that may be query stems (only words that
        begin as a query stem does are worth stemming: _heads); kept per line."""
        stems = self._line_stems.get(line)
        if stems is None:
            stems = set(map(stem, self.heads.words(line.lower())))
            if len(self._line_stems) < 512:
                self._line_stems[line] = stems
        return stems

    def _present_in_tokens(self, text: str) -> List[bool]:
        """`present_in` for text with a phrase to find in order, or not in ASCII."""
        known = self._seen.get(text)
        if known is not None:
            return known
        terms = self.terms
        toks = tokenize(text)
        heads, firsts = self.heads.heads, self.heads.firsts   # _Heads.may_stem_to, inlined
        stem_of = {tok: stem(tok) for tok in set(toks)
                   if tok.startswith(heads) or (tok[:1] in firsts and not tok.isascii())}
        stems = set(stem_of.values())
        joined = "\n" + "\n".join(stems)
        out = []
        for t in terms:
            if t.is_phrase and not t.prefix:
                want = t.stems()
                n = len(want)
                found = all(s in stems for s in want) and any(
                    tuple(stem_of.get(x, "") for x in toks[i:i + n]) == want
                    for i in range(len(toks) - n + 1) if stem_of.get(toks[i]) == want[0])
                out.append(found)
            else:
                out.append(_term_in(t, stems, joined))
        if len(self._seen) < 256:
            self._seen[text] = out
        return out

    def share(self, text: str) -> float:
        if not self.total:
            return 0.0
        have = self.present(text)
        return sum(w * self._credit(have, k, TUNING.synonym_cover)
                   for k, w in enumerate(self.slot)) / self.total

    def _credit(self, have: Sequence[bool], k: int, synonym: float) -> float:
        """1 when the text holds slot k's own word, `synonym` when only a synonym of it."""
        for i in self.slots[k]:
            if have[i]:
                return 1.0
        for j in self.synonyms_of[k]:
            if have[j]:
                return synonym
        return 0.0

    def strength(self, text: str, lines: Optional[Sequence[str]] = None) -> Tuple[float, bool]:
        """(match strength of the text, whether it holds every rare slot); `lines`, when
        given, are the text's lines (`present_in`).

        The strength is the share of the slots' weight the text holds, scaled
        by `TUNING.few_words_factor` when the text holds fewer than
        `TUNING.strength_words` of the query's words (all, for a shorter
        query): one or two words in common are often chance.
        """
        if not self.total:
            return 0.0, False
        have = list(self.present_in(lines) if lines else self.present(text))
        if any(have[i] for i in self.clipped):
            toks = set(tokenize(text))
            for i, word in self.clipped.items():
                if have[i]:
                    clip = self.query.terms[i].stems()[0]
                    have[i] = any(len(tok) >= len(word) and tok[:1] == clip[:1]
                                  and stem(tok) == clip for tok in toks)
        credit = [self._credit(have, k, TUNING.synonym_strength)
                  for k in range(len(self.slots))]
        covered = [c > 0 for c in credit]
        got = sum(w * c for w, c in zip(self.slot, credit)) / self.total
        held: Set[str] = set()   # the query's words held, each slot by its longest alternative held
        for k, group in enumerate(self.slots):
            found = [self.query.terms[i].stems() for i in group if have[i]]
            if not found and covered[k]:   # held by a synonym: the word it stands for
                found = [self.query.terms[i].stems() for i in group]
            if found:
                held.update(max(found, key=len))
        if len(held) < self.need:
            got *= TUNING.few_words_factor
        rare_ok = all(c for c, r in zip(covered, self.rare) if r)
        return got, rare_ok


def _mark_ties(hits: Sequence[Hit]) -> None:
    top = hits[0].score if hits else 0
    for i, hit in enumerate(hits):
        hit.relative = hit.score / top if top > 0 else 0.0
        prev = hits[i - 1].score if i else None
        hit.tied_with_previous = (prev is not None and prev > 0
                                  and abs(prev - hit.score) <= TUNING.tie * abs(prev))


def bar(relative: float, width: int = 12) -> str:
    return "\u2588" * max(1, int(round(max(0.0, min(1.0, relative)) * width)))



# -- helpful empties ----------------------------------------------------------

def _filter_notices(store: Store, filters: Filters) -> List[str]:
    """Why a filtered search found nothing, when the filters themselves match nothing."""
    report = store.fulltext.filter_report(filters)
    if report["all"]:
        return []
    out = []
    types = ", ".join(report["types"]) or "none"
    sources = ", ".join(report["sources"]) or "none"
    if report.get("type") == 0:
        out.append(f"no documents of type {', '.join(filters.formats)} in this index; "
                   f"types here: {types}")
    if report.get("source") == 0:
        out.append(f"no source named {', '.join(filters.sources)} in this index; "
                   f"sources here: {sources}")
    if report.get("path") == 0:
        out.append(f"no document path matches {filters.path_glob}")
    if report.get("date") == 0:
        out.append("no documents were modified in that date range")
    if not out:
        out.append("no documents match these filters together")
    return out
