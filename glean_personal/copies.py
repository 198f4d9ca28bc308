"""The same text at two places: shown once, under "also at", or the chapter before the book.

A source may keep one text twice (`x.html` beside `_sources/x.rst.txt`), and
a book's single-page edition repeats every chapter. Search calls these on
its ranked documents: copies are told by their phrase sketches (the smallest
phrase ids of each document, a bottom-k estimate of how much two phrase sets
overlap) and by the passage each shows. docs/search.md, "Copies of one text".
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

from .store.core import Store
from .kinds import PAGE_EXTS

if TYPE_CHECKING:
    from .search import SearchTuning, _Rows


def fold_near_duplicates(store: Store, ranked: list, doc_of: Dict[int, int], enough: int,
                         passages: bool, tuning: "SearchTuning", paths: Dict[int, str]
                         ) -> Tuple[list, Dict[int, List[int]]]:
    """Show the same text kept at two paths of one source once: the later-ranked copy is
    listed under the first as "also at", unless it is the page built from the first
    (`_shown_first`: `git-reset.html` over its source `git-reset.txt`), which then takes
    its place. Copies are told by their phrase sketches (the smallest phrase ids, a
    bottom-k estimate of how much two phrase sets overlap)."""
    kept: list = []
    kept_docs: Dict[int, _Kept] = {}    # source → its documents kept so far
    also: Dict[int, List[int]] = {}
    folded: Dict[int, int] = {}   # a copy's document → the document it is shown under
    shown: Dict[int, int] = {}   # a kept document → the copy shown in its place
    seen: Set[int] = set()
    width = tuning.sketch * 4   # bytes of packed ids
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
                sketch = (_Sketch(_ids(blob)) if size >= tuning.min_phrases * 4
                          else None)
                if sketch is not None:
                    group = kept_docs.get(sources.get(doc))
                    if group is None:
                        group = kept_docs[sources.get(doc)] = _Kept(tuning)
                    twin = group.copy_or_keep(doc, sketch)
                    if twin is None:
                        shown[doc] = doc
                if twin is not None:
                    rep = shown[twin]
                    if _shown_first(paths.get(doc, "")) < _shown_first(paths.get(rep, "")):
                        kept = _in_place_of(kept, rep, item, doc_of, passages)
                        also[doc] = also.pop(rep, []) + [rep]
                        shown[twin] = doc
                        folded[rep] = doc
                        continue
                    folded[doc] = rep
                    also.setdefault(rep, []).append(doc)
            if twin is not None:
                continue
            kept.append(item)
            if len(kept) >= enough:
                break
    return kept + ranked[pos:], also


# How phrase ids are packed (`phrases.ID_TYPECODE`: native signed 32-bit ints), read here
# through a memoryview: importing `phrases` (and `array`) for its `unpack` alone cost
# every `search` command about a millisecond (a test checks that the two agree).
ID_FORMAT = "i"


def _ids(blob: bytes) -> List[int]:
    """A packed sketch's phrase ids (what `phrases.unpack(blob).tolist()` gives)."""
    return memoryview(blob).cast(ID_FORMAT).tolist()


def _in_place_of(kept: list, doc: int, item: tuple, doc_of: Dict[int, int],
                 passages: bool) -> list:
    """`kept` with `item` (a copy's) at the place of `doc`'s first entry, at its score,
    and `doc`'s further passages left out (the copy's own follow)."""
    out, first = [], True
    for entry in kept:
        if doc_of[entry[0] if passages else entry[0][0][1]] != doc:
            out.append(entry)
        elif first:
            out.append((item[0], entry[1], item[2]))
            first = False
    return out


# A page built from a source (`x.html` from `x.txt`, `x.md`, `x.rst`) is what the
# source was written for, and the one a browser opens; a JSON or XML copy of a text
# (Node.js's `fs.json.gz` beside `fs.md`) is data for programs.
_DATA = (".json", ".xml")


def _shown_first(path: str) -> int:
    """Which of two copies of one text a result shows: the lower (a page, then the rest,
    then data)."""
    path = path.lower()
    if path.endswith(".gz"):
        path = path[:-3]
    return 0 if path.endswith(PAGE_EXTS) else 2 if path.endswith(_DATA) else 1


def chapters_first(store: Store, ranked: list, pids: Sequence[int], rows: "_Rows",
                   docs: "_Rows", doc_of: Dict[int, int], also: Dict[int, List[int]],
                   enough: int, passages: bool, tuning: "SearchTuning") -> list:
    """Rank a chapter above the all-in-one edition that repeats it; show a passage once.

    A book's single-page edition (mdBook's `print.html`, a single-page build,
    SQLite's `capi3ref.html`, a manual's PDF or text edition beside its HTML
    chapters) holds every chapter, so for a question it shows the chapter's
    own passage and outranks it on its further passages. When a leading hit
    is contained in a larger hit of its source above it, it moves up to the
    larger's place and score; both stay listed. Contained: it shows the
    passage the larger shows and nearly every passage of it (`tuning.contained`)
    is one of the larger's; or it is a page, the larger a PDF or text edition
    holding nearly all its word pairs (`_containers`), and the two shown passages
    share nearly all their words (an edition cuts its passages elsewhere). Pages
    that only share a paragraph keep their order. A list of passages shows
    such a text once, from the smaller document, naming the other under
    "also at".
    """
    head = ranked[:enough]   # `pids`: the passage each of them shows
    rows.load(pids)
    docs.load([doc_of[pid] for pid in pids])
    containers = {} if passages else _containers(
        store, {doc_of[pid]: rows[pid]["text"] for pid in pids}, docs, tuning)
    out: list = []
    first: Dict[Tuple[int, str], int] = {}   # (source, text) → its index in `out`
    placed: Dict[int, int] = {}   # a document → its index in `out`
    for item, pid in zip(head, pids):
        doc = doc_of[pid]
        text = " ".join(rows[pid]["text"].split())
        key = (docs[doc]["source_id"], text)
        j = first.get(key) if len(text) >= tuning.same_passage_chars else None
        other = None if j is None else doc_of[out[j][0] if passages else out[j][0][0][1]]
        if passages:
            if other is not None and other != doc:
                smaller = docs[doc]["passages"] < docs[other]["passages"]
                host, copy = (doc, other) if smaller else (other, doc)
                if smaller:
                    out[j] = (item[0], out[j][1], item[2])
                named = also.setdefault(host, [])
                if copy not in named:
                    named.append(copy)
                continue
        else:
            host = next((d for d in containers.get(doc, ()) if d in placed), None)
            if host is None and other is not None and other != doc and (
                    docs[doc]["passages"] < docs[other]["passages"]
                    and store.contained_share(doc, other) >= tuning.contained):
                host = other
            if host is not None:
                j = placed[host]
                out.insert(j, (item[0], out[j][1], item[2]))
                first = {k: (i + 1 if i >= j else i) for k, i in first.items()}
                placed = {d: (i + 1 if i >= j else i) for d, i in placed.items()}
                first[key] = placed[doc] = j
                continue
        first.setdefault(key, len(out))
        placed.setdefault(doc, len(out))
        out.append(item)
    return out + ranked[enough:]


# Phrases kept per document (`phrases.MAX_PHRASES`, the smallest ids): a larger
# document's set stops at its largest kept id (a test checks that the two agree).
MAX_PHRASES = 20_000


def _containers(store: Store, shows: Dict[int, str], docs: "_Rows", tuning: "SearchTuning"
                ) -> Dict[int, List[int]]:
    """For each page among the documents of `shows` (each with the passage it shows, in
    rank order), the editions of its source ranked above it that are no page (a PDF, a text or help
    file: `_shown_first`), hold at least twice its passages and nearly all its word
    pairs (`tuning.contained`), and show a passage `_alike` its own.

    Pages only: a page holding another (SQLite's `session.html` and its function
    list) is a text of its own as often as an edition. Word pairs only: a manual's
    words recur on every page, its word pairs do not. A larger document keeps its
    smallest phrase ids only (`MAX_PHRASES`), so the page's are counted up to the
    larger's last kept id. Phrase sets are read only when such a pair is there."""
    rank = {d: i for i, d in enumerate(shows)}
    pages = [d for d in shows if _shown_first(docs[d]["path"]) == 0]
    editions = [d for d in shows if _shown_first(docs[d]["path"]) > 0] if pages else []
    words: Dict[int, Set[str]] = {}
    pairs = [(part, whole) for part in pages for whole in editions
             if rank[whole] < rank[part]
             and docs[part]["source_id"] == docs[whole]["source_id"]
             and docs[whole]["passages"] >= 2 * docs[part]["passages"]
             and _alike(_words(part, shows, words), _words(whole, shows, words), tuning)]
    if not pairs:
        return {}
    sets = store.phrase_sketches(list({d for pair in pairs for d in pair}), MAX_PHRASES * 4)
    out: Dict[int, List[int]] = {}
    for part, whole in pairs:
        ids = [x for x in _ids(sets[part][0]) if x & 1]
        held = _ids(sets[whole][0])
        if len(held) >= MAX_PHRASES:
            ids = ids[:bisect_right(ids, held[-1])]
        if len(ids) < tuning.min_phrases // 4:
            continue
        found = sum(1 for x in ids if _has(held, x))
        if found >= tuning.contained * len(ids):
            out.setdefault(part, []).append(whole)
    return out


_WORDS = re.compile(r"\w{3,}")


def _words(doc: int, shows: Dict[int, str], cache: Dict[int, Set[str]]) -> Set[str]:
    """The distinct words of the passage `doc` shows, made once."""
    if doc not in cache:
        cache[doc] = set(_WORDS.findall(shows[doc].lower()))
    return cache[doc]


def _alike(a: Set[str], b: Set[str], tuning: "SearchTuning") -> bool:
    """Whether two passages' words read as one text, cut and wrapped elsewhere: most
    words of the one with fewer are words of the other."""
    return bool(a and b) and len(a & b) >= tuning.contained * min(len(a), len(b))


def _has(ids: List[int], x: int) -> bool:
    """Whether sorted `ids` hold `x`."""
    i = bisect_left(ids, x)
    return i < len(ids) and ids[i] == x


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
    """The documents of one source kept so far by `fold_near_duplicates`, in rank order."""

    def __init__(self, tuning: "SearchTuning") -> None:
        self.tuning = tuning
        self.docs: List[Tuple[int, _Sketch]] = []
        self.ids: Set[int] = set()   # every id of their sketches
        self.smallest: Optional[_Sketch] = None   # the sketch of fewest ids

    def copy_or_keep(self, doc: int, sketch: _Sketch) -> Optional[int]:
        """The first kept document whose text the sketch's is (`_same_text`), or None,
        and then `doc` is kept too."""
        # The ids it shares with them all bound those it shares with each: one set
        # operation tells a new text from every kept one at once. Its ids are unique,
        # so adding them tells how many were there already (an intersection as well
        # would cost as much again), and they are taken out again for a copy.
        before = len(self.ids)
        self.ids.update(sketch.ids)
        shared = before + len(sketch.ids) - len(self.ids)
        # `_too_few` holds for every kept sketch when it holds for the smallest.
        if self.smallest is not None and not _too_few(shared, self.smallest, sketch,
                                                      self.tuning):
            twin = next((d for d, kept in self.docs
                         if not _too_few(shared, kept, sketch, self.tuning)
                         and _same_text(kept, sketch, self.tuning)), None)
            if twin is not None:
                self.ids = set().union(*(kept.ids for _, kept in self.docs))
                return twin
        self.docs.append((doc, sketch))
        if self.smallest is None or len(sketch.ids) < len(self.smallest.ids):
            self.smallest = sketch
        return None


def _too_few(bound: int, one: "_Sketch", other: "_Sketch", tuning: "SearchTuning") -> bool:
    """Whether two sketches sharing at most `bound` ids fail `_same_text`'s first test
    (sharing fewer fails it too: its limit falls as the count grows)."""
    return bound < tuning.duplicate * min(tuning.sketch, len(one.ids) + len(other.ids) - bound)


def _overlap_bound(a: Sequence[int], b: Sequence[int]) -> int:
    """At most how many ids two sorted sketches share: those of the range both span."""
    if not a or not b:
        return 0
    lo, hi = max(a[0], b[0]), min(a[-1], b[-1])
    if lo > hi:
        return 0
    return min(bisect_right(a, hi) - bisect_left(a, lo), bisect_right(b, hi) - bisect_left(b, lo))


def _same_text(one: _Sketch, other: _Sketch, tuning: "SearchTuning") -> bool:
    """Bottom-k Jaccard estimate: of the k smallest ids of the union, the share in both."""
    # Two documents of unlike sizes have sketches over unlike ranges: such pairs
    # stop here, without making sets.
    if _too_few(_overlap_bound(one.ids, other.ids), one, other, tuning):
        return False
    a, b = one.members, other.members
    common = len(a & b)
    # The ids in both are at most all the common ones: most pairs fail here, unsorted.
    if common < tuning.duplicate * min(tuning.sketch, len(a) + len(b) - common):
        return False
    union = sorted(a | b)[:tuning.sketch]
    both = sum(1 for x in union if x in a and x in b)
    return both >= tuning.duplicate * len(union)
