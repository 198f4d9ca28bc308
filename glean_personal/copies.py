"""The same text at two places: shown once, under "also at", or the chapter before the book.

A source may keep one text twice (`x.html` beside `_sources/x.rst.txt`), and
a book's single-page edition repeats every chapter. Search calls these on
its ranked documents: copies are told by their phrase sketches (the smallest
phrase ids of each document, a bottom-k estimate of how much two phrase sets
overlap) and by the passage each shows. docs/search.md, "Copies of one text".
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING, Callable, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

from .store.core import Store
from .kinds import PAGE_EXTS

if TYPE_CHECKING:
    from .search import SearchTuning, _Rows


def fold_near_duplicates(store: Store, ranked: list, doc_of: Dict[int, int], enough: int,
                         passages: bool, tuning: "SearchTuning", paths: Dict[int, str],
                         block: int = 0, tiers: Optional[Dict[int, int]] = None,
                         titles: Optional[Dict[int, str]] = None
                         ) -> Tuple[list, Dict[int, List[int]]]:
    """Show the same text kept at two paths of one source once: the later-ranked copy is
    listed under the first as "also at", unless it is the page built from the first
    (`_shown_first`: `git-reset.html` over its source `git-reset.txt`), or, of the same
    kind, the fuller edition of it (`_fuller`: a specification's later version, which
    holds the earlier's text and more), which then takes its place. Copies are told by
    their phrase sketches (the smallest phrase ids, a bottom-k estimate of how much two
    phrase sets overlap).

    With `block`, a copy takes the place of a document only within the block of
    `block` results it is found in (else it is listed under the one kept before),
    so the first blocks are the same whatever `enough` is: search asks for whole
    blocks, and its pages are slices of one order. A copy among a deeper pool's
    results (`tiers`: a document's, or a passage's, tier; 0 when not there) of one
    of an earlier tier's is listed under it, never in its place."""
    kept: list = []
    kept_docs: Dict[int, _Kept] = {}    # source → its documents kept so far
    also: Dict[int, List[int]] = {}
    folded: Dict[int, int] = {}   # a copy's document → the document it is shown under
    shown: Dict[int, int] = {}   # a kept document → the copy shown in its place
    sketch_of: Dict[int, _Sketch] = {}   # each copy's sketch (the shown ones compared)
    counts: Dict[int, Tuple[int, Optional[str]]] = {}   # each document's passages and language
    seen: Set[int] = set()
    width = tuning.sketch * 4   # bytes of packed ids
    pos = 0
    tier = origin = 0   # the tier of the last result looked at, and where it began in `kept`
    while pos < len(ranked) and len(kept) < enough:
        # the sketches of the documents still wanted and a few more, in one read: a
        # search seldom folds more than `SPARE_SKETCHES` copies among its first results
        chunk = ranked[pos:pos + enough - len(kept) + SPARE_SKETCHES]
        docs = [result_document(item, doc_of, passages) for item in chunk]
        sketches = store.phrase_sketches(docs, width)
        sources = {d: source for d, (_, _, source, _, _) in sketches.items()}
        counts.update((d, (n, lang)) for d, (_, _, _, n, lang) in sketches.items())
        for item, doc in zip(chunk, docs):
            pos += 1
            if tiers and tiers.get(item[0] if passages else doc, 0) != tier:
                tier, origin = tiers.get(item[0] if passages else doc, 0), len(kept)
            twin = folded.get(doc)
            if twin is None and doc not in seen:
                seen.add(doc)
                blob, size, _, _, _ = sketches.get(doc, (b"", 0, None, 0, None))
                sketch = (_Sketch(_ids(blob)) if size >= tuning.min_phrases * 4
                          else None)
                if sketch is not None:
                    sketch_of[doc] = sketch
                    group = kept_docs.get(sources.get(doc))
                    if group is None:
                        group = kept_docs[sources.get(doc)] = _Kept(tuning)
                    twin = group.copy_or_keep(doc, sketch, lambda other, kept: _part_and_whole(
                        doc, sketch, other, kept, counts, titles, tuning))
                    if twin is None:
                        shown[doc] = doc
                if twin is not None:
                    rep = shown[twin]
                    kind, rep_kind = (_shown_first(paths.get(doc, "")),
                                      _shown_first(paths.get(rep, "")))
                    if ((kind < rep_kind or kind == rep_kind
                         and _same_title(titles, doc, rep)
                         and _fuller(sketch_of[doc], sketch_of[rep], tuning))
                            and _in_block(kept, rep, doc_of, passages, block, origin)):
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


# Documents read beyond those still wanted when folding (`fold_near_duplicates`; more are
# read when copies take them): of the 200 questions on the 10k corpus, 27 fold one or
# two copies among their first 11 results; of the Python, Git and Apache golden
# questions, 9 of 183 fold any, one of them five.
SPARE_SKETCHES = 4


# How phrase ids are packed (`phrases.ID_TYPECODE`: native signed 32-bit ints), read here
# through a memoryview: importing `phrases` (and `array`) for its `unpack` alone cost
# every `search` command about a millisecond (a test checks that the two agree).
ID_FORMAT = "i"
# How many phrase ids a document keeps at most, its smallest (`phrases.MAX_PHRASES`).
MAX_PHRASES = 20_000


def _ids(blob: bytes) -> List[int]:
    """A packed sketch's phrase ids (what `phrases.unpack(blob).tolist()` gives)."""
    return memoryview(blob).cast(ID_FORMAT).tolist()


def result_document(item: tuple, doc_of: Dict[int, int], passages: bool) -> int:
    """The document of a ranked result: a passage's (in a list of passages), or the
    one whose passages it lists."""
    return doc_of[item[0] if passages else item[0][0][1]]


def _in_block(kept: list, doc: int, doc_of: Dict[int, int], passages: bool,
              block: int, origin: int = 0) -> bool:
    """Whether `doc`'s first entry in `kept` is in the block the next entry joins
    (and not before `origin`, where the entry's tier began)."""
    if not block:
        return True
    first = next(i for i, entry in enumerate(kept)
                 if result_document(entry, doc_of, passages) == doc)
    return first >= _block_start(len(kept), block, origin)


def _block_start(n: int, block: int, origin: int) -> int:
    """Where the part of its block that the `n`-th result may move within begins: the
    block's start, or `origin` where its tier began, if later."""
    return max(n // block * block, origin)


def _in_place_of(kept: list, doc: int, item: tuple, doc_of: Dict[int, int],
                 passages: bool) -> list:
    """`kept` with `item` (a copy's) at the place of `doc`'s first entry, at its score,
    and `doc`'s further passages left out (the copy's own follow)."""
    out, first = [], True
    for entry in kept:
        if result_document(entry, doc_of, passages) != doc:
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
                   enough: int, passages: bool, tuning: "SearchTuning", block: int = 0,
                   tiers: Optional[Dict[int, int]] = None) -> list:
    """Rank a chapter above the all-in-one page that repeats it; show a passage once.

    A book's single-page edition (mdBook's `print.html`, a single-page build,
    SQLite's `capi3ref.html`) holds every chapter, so for a question it shows
    the chapter's own passage and outranks it on its further passages. When
    a leading hit shows the passage a larger hit above it shows, and nearly
    every passage of the smaller one (`tuning.contained`) is in the larger,
    the smaller moves up to the larger's place and score; both stay listed.
    Pages that only share a paragraph keep their order. A list of passages
    shows such a text once, from the smaller document, naming the other
    under "also at".
    With `block`, a hit moves up (or takes a passage's place) only within the
    block of `block` results it is found in, so that the first blocks are the
    same whatever `enough` is (search asks for whole blocks; pages are slices),
    and a deeper pool's result (`tiers`, as `fold_near_duplicates` has them)
    never above an earlier tier's.
    """
    head = ranked[:enough]   # `pids`: the passage each of them shows
    rows.load(pids)
    docs.load([doc_of[pid] for pid in pids])
    out: list = []
    first: Dict[Tuple[int, str], int] = {}   # (source, text) → its index in `out`
    books = (None if passages or not tuning.book_pages else
             _Books(store, docs, doc_of, tuning))
    tier = origin = 0   # the tier of the last result looked at, and where it began in `out`
    for item, pid in zip(head, pids):
        doc = doc_of[pid]
        if tiers and tiers.get(item[0] if passages else doc, 0) != tier:
            tier, origin = tiers.get(item[0] if passages else doc, 0), len(out)
        # the part of the block `item` joins that it may move within
        start = _block_start(len(out), block, origin) if block else origin
        text = _one_spaced(rows[pid]["text"])
        key = (docs[doc]["source_id"], text)
        j = first.get(key) if len(text) >= tuning.same_passage_chars else None
        other = None if j is None else result_document(out[j], doc_of, passages)
        if other is None and books is not None:
            j = books.above(out, doc, start)
            if j is not None:   # a chapter of a book in another form (a PDF of the pages)
                out.insert(j, (item[0], out[j][1], item[2]))
                first = {k: (i + 1 if i >= j else i) for k, i in first.items()}
                first.setdefault(key, j)
                continue
        if other is None or other == doc:
            first.setdefault(key, len(out))
            out.append(item)
            continue
        smaller = docs[doc]["passages"] < docs[other]["passages"] and j >= start
        if passages:
            host, copy = (doc, other) if smaller else (other, doc)
            if smaller:
                out[j] = (item[0], out[j][1], item[2])
            named = also.setdefault(host, [])
            if copy not in named:
                named.append(copy)
        elif smaller and store.contained_share(doc, other) >= tuning.contained:
            out.insert(j, (item[0], out[j][1], item[2]))
            first = {k: (i + 1 if i >= j else i) for k, i in first.items()}
            first[key] = j
        else:
            out.append(item)
    return out + ranked[enough:]


def _one_spaced(text: str) -> str:
    """`" ".join(text.split())`: the text's spaces, line ends and other white space made
    one space, and none at its ends; a text that is so already (no white space but
    single spaces inside, about half of the passages shown) is not split and joined
    again (every white-space character but the space is unprintable)."""
    if text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text
    return " ".join(text.split())


class _Books:
    """Which leading document holds a smaller one's text in another form: a manual's PDF
    or help file beside its HTML pages (`chapters_first`). Their passages differ (a
    PDF's are its pages), so the passages cannot tell; their phrases do. The smaller
    is a chapter of the larger, of another format and at least `tuning.book_pages`
    times its passages, when nearly all of its word pairs (`tuning.contained`) are
    among the larger's: of a sample, its `tuning.book_sample` smallest pair ids
    (phrase ids are hashes, kept sorted). A large document keeps only its smallest
    phrase ids (`phrases.MAX_PHRASES`), so only the sample's ids in that range count."""

    def __init__(self, store: Store, docs: "_Rows", doc_of: Dict[int, int],
                 tuning: "SearchTuning") -> None:
        self.store, self.docs, self.doc_of, self.tuning = store, docs, doc_of, tuning
        self._ids: Dict[int, Sequence[int]] = {}
        self._sample: Dict[int, List[int]] = {}

    def above(self, out: list, doc: int, start: int = 0) -> Optional[int]:
        """The index in `out` (from `start`) of the first document that holds `doc`'s
        text, or None."""
        part = self.docs[doc]
        for j, entry in enumerate(out[start:], start):
            whole = self.doc_of[entry[0][0][1]]
            big = self.docs[whole]
            if (big["format"] != part["format"] and big["source_id"] == part["source_id"]
                    and big["passages"] >= self.tuning.book_pages * part["passages"]
                    and self._holds(whole, doc)):
                return j
        return None

    def ids(self, doc: int) -> Sequence[int]:
        """The document's phrase ids, sorted (read once, when first compared)."""
        got = self._ids.get(doc)
        if got is None:
            blob = dict(self.store.phrase_sets([doc])).get(doc) or b""
            got = self._ids[doc] = memoryview(blob).cast(ID_FORMAT)
        return got

    def _holds(self, whole: int, part: int) -> bool:
        big = self.ids(whole)
        if not big:
            return False
        sample = self._sample.get(part)
        if sample is None:   # its smallest pair ids: a sample of its pairs (ids are hashes)
            sample = self._sample[part] = []
            for i in self.ids(part):
                if i & 1:
                    sample.append(i)
                    if len(sample) >= self.tuning.book_sample:
                        break
        if len(big) >= MAX_PHRASES:   # it kept only its smallest ids: compare those
            sample = sample[:bisect_right(sample, big[-1])]
        return _mostly_in(sample, big, self.tuning.contained)


def _mostly_in(ids: Sequence[int], sorted_ids: Sequence[int], need: float,
               least: int = 5) -> bool:
    """Are at least `need` of `ids` (and `least` of them) in `sorted_ids`? Stops at the
    miss that settles it: unrelated documents are told apart in a few lookups."""
    if len(ids) < least or not sorted_ids:
        return False
    misses = int((1.0 - need) * len(ids))   # the most that may be missing
    n = len(sorted_ids)
    for i in ids:
        k = bisect_left(sorted_ids, i)
        if k >= n or sorted_ids[k] != i:
            misses -= 1
            if misses < 0:
                return False
    return True


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

    def copy_or_keep(self, doc: int, sketch: _Sketch,
                     apart: Optional[Callable[[int, _Sketch], bool]] = None) -> Optional[int]:
        """The first kept document whose text the sketch's is (`_same_text`) and that
        `apart` (given a kept document and its sketch) does not tell from it, or None,
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
                         and _same_text(kept, sketch, self.tuning)
                         and not (apart is not None and apart(d, kept))), None)
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


def _same_title(titles: Optional[Dict[int, str]], one: int, other: int) -> bool:
    """Whether two documents have one title (case and spacing aside): two editions of
    one work, not two works sharing text (`ffmpeg-all.html` and `ffplay-all.html`)."""
    if not titles:
        return False
    a, b = titles.get(one), titles.get(other)
    return a is not None and b is not None and " ".join(a.casefold().split()) == " ".join(
        b.casefold().split())


def _part_and_whole(one: int, one_sketch: _Sketch, other: int, other_sketch: _Sketch,
                    counts: Dict[int, Tuple[int, Optional[str]]],
                    titles: Optional[Dict[int, str]],
                    tuning: "SearchTuning") -> bool:
    """Whether two documents that pass for copies of one text are a part and a whole
    that holds it (a man page and the manual that repeats it; `git-show.html` and
    `git-log.html`, which includes its text): under two titles, one holds words the
    other lacks (`_fuller`) and has more passages, in one language. Two editions of
    one text have one title (the fuller is then shown in the other's place); a copy
    with its own title has as many passages or fewer; a translation left half done is
    in another language than its original, whatever it lacks (WeeChat's Italian
    guide, under its own title, with a third of its paragraphs still English)."""
    if not titles or titles.get(one) is None or titles.get(other) is None or _same_title(
            titles, one, other):
        return False
    (one_count, one_lang), (other_count, other_lang) = (counts.get(one, (0, None)),
                                                        counts.get(other, (0, None)))
    if one_lang and other_lang and one_lang != other_lang:
        return False
    if one_count > other_count:
        return _fuller(one_sketch, other_sketch, tuning)
    return other_count > one_count and _fuller(other_sketch, one_sketch, tuning)


def _fuller(one: _Sketch, other: _Sketch, tuning: "SearchTuning") -> bool:
    """Whether `one` is the fuller edition of a text `other` is a copy of: of the k
    smallest ids of both, at least `tuning.fuller` are `one`'s alone, and more than
    four times as many as are `other`'s alone (a later version that kept the earlier's
    text and added to it; two copies of one text differ by a few ids either way, and a
    translation left half done has words of its own and lacks those it replaced)."""
    a, b = one.members, other.members
    union = sorted(a | b)[:tuning.sketch]
    own = sum(1 for x in union if x not in b)
    lacks = sum(1 for x in union if x not in a)
    return own >= tuning.fuller * len(union) and own > 4 * lacks


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
