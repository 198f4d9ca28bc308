"""The content graph: documents linked by the rare phrases they share (docs/graph.md).

How a link is scored, and why:

* **Gate on document frequency, not IDF.**  A phrase in one document connects
  nothing; a phrase in more than `max_df` documents is vocabulary.  `max_df`
  is a share of the corpus with a floor, so a five-file folder still links
  what two of its files share (an IDF threshold finds nothing at that scale).
* **Weight by rarity.**  A shared phrase adds ``ln(1 + N/df)²`` (bigrams a
  little more); a pair's body score is that sum over the phrases both share,
  divided by the two documents' norms (cosine), so a long document does not
  win by size and a near-duplicate scores close to 1.  Two titles sharing a
  rare word move the score a further `title_bonus` of the way towards 1.
* **Candidates from an inverted index** over the gated phrases, never all
  pairs.  When the posting lists would cost more than `pair_budget` visits,
  `max_df` is lowered -- by document frequency, a property of the phrase, so
  both ends of a pair keep a phrase or both drop it (a per-document rank
  would keep disjoint slices of the phrases that connect two copies).  A
  document left with no link by that is scored again over every
  non-vocabulary phrase, so the budget never drops a document from the graph.
* **Top-k from either end.**  Each document ranks its candidates and keeps
  `top_k`; a link survives if either end keeps it, so a hub cannot crowd a
  small document out and an asymmetric relation is not lost.
* **Deterministic.**  Documents are numbered by (source root, path), phrases
  by weight then stable id; every sum runs in that order (norms use
  `math.fsum`: `sum` of floats changed in Python 3.12), each pair is scored
  once (from its lower-numbered end) and ties break on the numbers, so the
  same files give the same links whatever the indexing order, hash seed or
  Python version.

The scoring core, `build_links`, works on plain arrays and is testable
without a database; `link`, `related` and `graph_status` connect it to a Store.
"""
from __future__ import annotations

import heapq
import json
import math
import time
from array import array
from bisect import bisect_left
from collections import Counter, deque
from dataclasses import dataclass, field
from itertools import compress, islice, repeat
from operator import ge, mul, neg
from typing import Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from .config import Progress
from .docref import doc_summary
from .errors import NotFound, NotLinked, UsageError
from .phrases import ID_BITS, ID_TYPECODE, phrase_forms, title_terms, unpack
from .query import Filters
from .store import graph as graph_sql
from .store.core import Store

PhraseSets = Callable[[], Iterable[Tuple[int, array]]]

NOT_BUILT = "the content graph has not been built yet: run `glean-personal link`"
STALE = "the graph is older than the index: run `glean-personal link` to refresh"


@dataclass(frozen=True)
class GraphTuning:
    """The graph's knobs, in one place."""

    vocabulary_share: float = 0.2    # a phrase in more of the documents than this is vocabulary
    vocabulary_floor: int = 3        # ...but one in this few documents never is (small folders)
    pair_budget: int = 8_000_000     # posting visits allowed; max_df is lowered to fit
    bigram_weight: float = 1.25      # a shared bigram says more than a shared word
    title_bonus: float = 0.25        # share of the way to 1.0 that a title match adds
    evidence: int = 8                # phrases stored per link
    postings_per_pass: int = 1_000_000  # df counting reads the phrase sets in slices of ids


DEFAULT_TUNING = GraphTuning()


@dataclass(frozen=True)
class Link:
    """One undirected link between documents `a` < `b` (positions in the build's order)."""

    a: int
    b: int
    score: float
    phrases: Tuple[Tuple[int, float], ...]   # (phrase id, its share of the score), strongest first
    title: Tuple[int, ...] = ()              # rare title words the two share (phrase ids)


# -- pure scoring -------------------------------------------------------------
def vocabulary_cap(n: int, tuning: GraphTuning = DEFAULT_TUNING) -> int:
    """Most documents a phrase may be in and still link: share of N, floored, below N."""
    if n <= 2:
        return 2
    return max(2, min(n - 1, max(tuning.vocabulary_floor, int(tuning.vocabulary_share * n))))


def max_df(n: int, df_histogram: Mapping[int, int], tuning: GraphTuning = DEFAULT_TUNING) -> int:
    """The document-frequency cap: the vocabulary cap, lowered until the work fits.

    `df_histogram` maps a document frequency to how many phrases have it; a
    phrase in f documents costs f² posting visits.  Phrases with df 2 are
    always kept: they are the rarest, and cost the least.
    """
    cap = vocabulary_cap(n, tuning)
    work = 0
    for f in range(2, cap + 1):
        work += df_histogram.get(f, 0) * f * f
        if work > tuning.pair_budget:
            return max(2, f - 1)
    return cap


def phrase_weight(df: int, n: int, bigram: bool, tuning: GraphTuning = DEFAULT_TUNING) -> float:
    """What one shared phrase adds to a pair's score before normalisation."""
    w = math.log1p(n / df) * (tuning.bigram_weight if bigram else 1.0)
    return w * w


def combine(body: float, title: float, tuning: GraphTuning = DEFAULT_TUNING) -> float:
    """Body cosine plus the title bonus: `title_bonus` × title similarity of the way to 1."""
    return body + tuning.title_bonus * title * (1.0 - body)


def document_frequencies(phrase_sets: PhraseSets, total_postings: int = 0,
                         per_pass: int = DEFAULT_TUNING.postings_per_pass) -> Dict[int, int]:
    """df of every phrase in two or more documents.

    Counting every id at once would hold millions of one-off phrases in a
    dict; instead the id space is cut into slices (a sorted array's slice is
    two bisections) and each pass counts one slice, so memory stays bounded.
    """
    passes = max(1, -(-total_postings // per_pass))
    step = (1 << ID_BITS) // passes
    bounds = [-(1 << (ID_BITS - 1)) + k * step for k in range(passes)] + [1 << (ID_BITS - 1)]
    df: Dict[int, int] = {}
    for lo, hi in zip(bounds, bounds[1:]):
        counts: Counter = Counter()
        for _, ids in phrase_sets():
            counts.update(ids[bisect_left(ids, lo):bisect_left(ids, hi)])
        df.update((p, f) for p, f in counts.items() if f > 1)
        del counts
    return df


def build_links(n: int, phrase_sets: PhraseSets, titles: Sequence[Sequence[int]],
                top_k: int = 10, min_score: float = 0.0,
                tuning: GraphTuning = DEFAULT_TUNING, progress: Optional[Progress] = None,
                total_postings: int = 0, stats: Optional[dict] = None) -> List[Link]:
    """Link documents 0..n-1 from their phrase sets; links sorted by (a, b).

    `phrase_sets()` yields (document position, sorted phrase ids) and is
    called more than once; `titles[i]` is document i's title word ids.
    """
    df = document_frequencies(phrase_sets, total_postings, tuning.postings_per_pass)
    vocabulary = vocabulary_cap(n, tuning)
    cap = max_df(n, Counter(df.values()), tuning)
    body = _Index(n, _weights(df, n, cap, tuning))
    common = {p: f for p, f in df.items() if cap < f <= vocabulary}  # budget-dropped only
    del df
    for i, ids in phrase_sets():
        body.add(i, ids)
    body.finish()
    if stats is not None:   # what an incremental update needs to score like this build
        stats["cap"] = cap
        stats["norms"] = list(body.norm)
    tdf = Counter(t for words in titles for t in set(words))
    title = _Index(n, _weights({t: f for t, f in tdf.items() if f > 1}, n, cap, tuning,
                                  bigrams=False))
    for i, words in enumerate(titles):
        title.add(i, set(words))
    title.finish()
    chosen = _top_k_pairs(n, body, title, top_k, min_score, tuning, progress)
    links: List[Link] = []
    last, mine = -1, set()
    for (a, b), score in sorted(chosen.items()):
        if a != last:
            last, mine = a, set(body.docs[a])
        links.append(_evidence(a, b, score, mine, body, title, tuning))
    if common:
        linked = {lk.a for lk in links}.union(lk.b for lk in links)
        starved = [i for i in range(n) if i not in linked]
        if starved:
            extra = _starved_links(n, starved, phrase_sets, body, title, common, top_k,
                                   min_score, tuning)
            found = {(lk.a, lk.b) for lk in links}
            links.extend(lk for lk in extra if (lk.a, lk.b) not in found)
            links.sort(key=lambda lk: (lk.a, lk.b))
    return links


def _starved_links(n: int, starved: List[int], phrase_sets: PhraseSets, body: "_Index",
                   title: "_Index", common: Dict[int, int], top_k: int, min_score: float,
                   tuning: GraphTuning) -> List[Link]:
    """Links for documents the budget left unlinked, over every non-vocabulary phrase.

    When `pair_budget` lowers `max_df`, a short document whose phrases are
    all somewhat common (release-note stubs, notes from one template) can
    lose every phrase and drop out of the graph.  Each such document is
    scored, by cosine over these wider phrase sets, against every document
    it shares one with, and keeps its own top k (a wide norm is the gated
    norm plus the budget-dropped phrases).  Few documents starve; this costs
    two more reads of the phrase sets.
    """
    extra = _weights(common, n, max(common.values()), tuning)
    weight = dict(zip(body.phrase[1:], body.weight[1:]))
    weight.update(extra)
    hungry = set(starved)
    mine: Dict[int, List[int]] = {}        # starved document -> its phrases, strongest first
    for i, ids in phrase_sets():
        if i in hungry:
            mine[i] = _strongest_first(weight.keys() & ids, weight)
    # The same budget bounds this pass: the commonest of these phrases go first.
    visits = Counter(common[p] for phrases in mine.values() for p in phrases if p in common)
    limit = work = 0
    for f in sorted(visits):
        work += f * visits[f]
        if work > tuning.pair_budget:
            break
        limit = f
    extra = {p: w for p, w in extra.items() if common[p] <= limit}
    for i, phrases in mine.items():
        mine[i] = [p for p in phrases if p not in common or p in extra]
    wanted = set().union(*mine.values())
    holders: Dict[int, List[int]] = {}     # phrase -> documents holding it
    held: Dict[int, set] = {}
    norm: Dict[int, float] = {}
    for i, ids in phrase_sets():
        have = wanted.intersection(ids)
        if have:
            held[i] = have
            norm[i] = math.sqrt(body.norm2[i] + math.fsum(map(extra.__getitem__,
                                                              extra.keys() & ids)))
            for p in have:
                holders.setdefault(p, []).append(i)
    out: Dict[Tuple[int, int], Link] = {}
    for i in starved:
        acc: Dict[int, float] = {}
        for p in mine.get(i, ()):
            w = weight[p]
            for j in holders[p]:
                acc[j] = acc.get(j, 0.0) + w
        acc.pop(i, None)
        scored = []
        for j, total in acc.items():
            a, b = min(i, j), max(i, j)
            score = total * (1.0 / norm[a]) * (1.0 / norm[b])
            words = set(title.docs[a]).intersection(title.docs[b])
            if words:
                t = 0.0                   # as _top_k_pairs adds it up
                for k in title.docs[a]:
                    if k in words:
                        t += title.weight[k]
                score = combine(score, t * (1.0 / title.norm[a]) * (1.0 / title.norm[b]), tuning)
            if score >= min_score:
                scored.append((score, -j))
        for score, j in heapq.nlargest(top_k, scored):
            j = -j
            a, b = min(i, j), max(i, j)
            shared = [p for p in mine[i] if p in held[j]][:tuning.evidence]
            words = set(title.docs[a]).intersection(title.docs[b])
            out[(a, b)] = Link(a, b, score,
                               tuple((p, weight[p] / (norm[a] * norm[b])) for p in shared),
                               tuple(sorted(title.phrase[k] for k in words)))
    return [out[key] for key in sorted(out)]


def _strongest_first(ids: Iterable[int], weight: Dict[int, float]) -> List[int]:
    """Phrase ids by weight, then id: the order every sum runs in."""
    out = sorted(ids)
    out.sort(key=weight.__getitem__, reverse=True)
    return out


def _weights(df: Dict[int, int], n: int, cap: int, tuning: GraphTuning,
             bigrams: bool = True) -> Dict[int, float]:
    """Weight of every phrase with df <= cap (one `phrase_weight` call per df value)."""
    table = {f: (phrase_weight(f, n, False, tuning), phrase_weight(f, n, bigrams, tuning))
             for f in set(df.values()) if f <= cap}
    return {p: table[f][p & 1] for p, f in df.items() if f <= cap}


class _Index:
    """Gated phrases per document, with weights, norms and descending postings.

    Phrases are renumbered 1..G strongest first (ties: lower phrase id), so a
    document's sorted numbers are also its phrases by weight: evidence is the
    first shared numbers, sums run strongest first, and lists replace dicts in
    the hot loops.  Number 0 is unused, so `filter(None, ...)` drops misses.
    """

    def __init__(self, n: int, weights: Dict[int, float]) -> None:
        order = sorted(weights)
        order.sort(key=weights.__getitem__, reverse=True)  # stable: ids stay ascending
        self.phrase: List[int] = [0] + order
        self.weight: List[float] = [0.0] + list(map(weights.__getitem__, order))
        self.number: Dict[int, int] = dict(zip(order, range(1, len(order) + 1)))
        self.docs: List[List[int]] = [[]] * n
        self.norm2: List[float] = [0.0] * n
        self.norm: List[float] = [0.0] * n
        self.postings: List[List[int]] = []

    def add(self, i: int, ids: Iterable[int]) -> None:
        """Document i's gated phrases, by number."""
        self.docs[i] = sorted(filter(None, map(self.number.get, ids)))

    def finish(self) -> None:
        """Norms, and postings in descending document order (see `accumulate`)."""
        self.number = {}
        postings = self.postings = [[] for _ in self.weight]
        weight = self.weight
        for i in range(len(self.docs) - 1, -1, -1):
            mine = self.docs[i]
            self.norm2[i] = math.fsum(map(weight.__getitem__, mine))  # same on every Python
            self.norm[i] = math.sqrt(self.norm2[i])
            deque(map(list.append, map(postings.__getitem__, mine), repeat(i)), maxlen=0)

    def accumulate(self, i: int, acc: Dict[int, float]) -> None:
        """Add to acc[j] the weight of each phrase i shares with a later document j.

        Documents are visited in ascending order and each posting list is
        descending, so i is the last entry of each of its lists: popping it
        leaves exactly the later documents -- each pair is scored once.
        """
        weight, postings = self.weight, self.postings
        get = acc.get
        for k in self.docs[i]:
            later = postings[k]
            later.pop()
            if later:
                w = weight[k]
                for j in later:
                    acc[j] = get(j, 0.0) + w


def _top_k_pairs(n: int, body: _Index, title: _Index, top_k: int, min_score: float,
                 tuning: GraphTuning, progress: Optional[Progress]) -> Dict[Tuple[int, int], float]:
    """Score each candidate pair once; keep those in either end's top k.

    Document i scores its pairs with every later document j.  Its own top k
    is then final: the best of its candidates and of what earlier documents
    offered it.  Each j is offered (score, -i) if the score reaches j's floor:
    the k-th best of what j was offered so far, known whenever its list is
    pruned.  Most candidates share one middling phrase and are dropped by
    C-level map/compress before any Python code sees them.
    """
    offered: List[List[Tuple[float, int]]] = [[] for _ in range(n)]  # (score, -other)
    floor = [min_score] * n        # an offer below this cannot enter j's top k
    prune_at = 2 * top_k
    inv = [1.0 / x if x else 0.0 for x in body.norm]
    t_inv = [1.0 / x if x else 0.0 for x in title.norm]
    chosen: Dict[Tuple[int, int], float] = {}
    for i in range(n):
        acc: Dict[int, float] = {}
        body.accumulate(i, acc)
        t_acc: Dict[int, float] = {}
        if title.docs[i]:
            title.accumulate(i, t_acc)
            for j in t_acc:
                acc.setdefault(j, 0.0)
        later = list(acc)
        scores = list(map(mul, map(mul, acc.values(), repeat(inv[i])),
                          map(inv.__getitem__, later)))
        if t_acc:                           # the title bonus, for the few that have one
            where = dict(zip(later, range(len(later))))
            for j, t in t_acc.items():
                x = where[j]
                scores[x] = combine(scores[x], t * t_inv[i] * t_inv[j], tuning)
        mine = offered[i]
        offered[i] = []
        if scores:
            kth = sorted(scores, reverse=True)[min(top_k, len(scores)) - 1]
            mine.extend(compress(zip(scores, map(neg, later)),
                                 map(ge, scores, repeat(max(kth, floor[i])))))
            for s, j in compress(zip(scores, later), map(ge, scores, map(floor.__getitem__, later))):
                theirs = offered[j]
                theirs.append((s, -i))
                if len(theirs) > prune_at:
                    theirs[:] = heapq.nlargest(top_k, theirs)
                    floor[j] = max(floor[j], theirs[-1][0])
        for s, j in heapq.nlargest(top_k, mine):
            chosen[(i, -j) if i < -j else (-j, i)] = s
        if progress is not None and (i % 128 == 127 or i == n - 1):
            progress(i + 1, n)
    return chosen


def _evidence(a: int, b: int, score: float, a_phrases: set, body: _Index, title: _Index,
              tuning: GraphTuning) -> Link:
    """The link with the shared phrases that weigh most (ties: lower phrase id)."""
    top = list(islice(filter(a_phrases.__contains__, body.docs[b]), tuning.evidence))
    scale = body.norm[a] * body.norm[b]
    words = ()
    if title.docs[a] and title.docs[b]:
        words = sorted(title.phrase[k] for k in set(title.docs[a]).intersection(title.docs[b]))
    return Link(a, b, score, tuple((body.phrase[k], body.weight[k] / scale) for k in top),
                tuple(words))


def median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


# -- the store side ---------------------------------------------------------------
@dataclass
class LinkReport:
    """What `link` did (docs/reference.md, `link --json`)."""

    documents: int
    links: int
    median_score: float
    max_degree: int
    seconds: float

    def to_dict(self) -> dict:
        return {"documents": self.documents, "links": self.links,
                "median_score": round(self.median_score, 4), "max_degree": self.max_degree,
                "seconds": round(self.seconds, 3)}


@dataclass
class Neighbour:
    """A linked document, its score, and the phrases the two share."""

    document: dict
    score: float
    phrases: List[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"document": dict(self.document), "score": round(self.score, 4),
                "phrases": list(self.phrases)}


@dataclass
class Related:
    """A document's neighbours (docs/reference.md, `related --json`); `stale` if the index moved on."""

    document: dict
    neighbours: List[Neighbour]
    stale: bool = False
    notices: List[str] = field(default_factory=list)   # why a filter left nothing

    def to_dict(self) -> dict:
        out = {"document": dict(self.document),
               "neighbours": [nb.to_dict() for nb in self.neighbours], "stale": self.stale}
        if self.notices:
            out["notices"] = list(self.notices)
        return out


def link(store: Store, top_k: int = 10, min_score: float = 0.0,
         progress: Optional[Progress] = None, tuning: GraphTuning = DEFAULT_TUNING) -> LinkReport:
    """Rebuild every link from the stored phrase sets, in one transaction."""
    if top_k < 1:
        raise UsageError(f"--top-k must be at least 1 (got {top_k})")
    if not math.isfinite(min_score):   # NaN kept every link now and dropped every later one
        raise UsageError(f"--min-score must be a number (got {min_score})")
    started = time.perf_counter()
    conn = store.conn
    with store.reading():
        generation = store.meta("generation", "0") or "0"
        rows = sorted(graph_sql.graph_documents(conn), key=lambda r: (r[1], r[2]))
        position = {r[0]: k for k, r in enumerate(rows)}

        def phrase_sets() -> Iterable[Tuple[int, array]]:
            for doc_id, blob in graph_sql.iter_doc_phrases(conn):
                k = position.get(doc_id)
                if k is not None:
                    yield k, unpack(blob)

        stats: dict = {}
        links = build_links(len(rows), phrase_sets, [title_terms(r[3]) for r in rows],
                            top_k, min_score, tuning, progress,
                            graph_sql.phrase_bytes(conn) // array(ID_TYPECODE).itemsize, stats)
    out = []
    degree: Counter = Counter()
    for lk in links:
        a, b = rows[lk.a][0], rows[lk.b][0]
        out.append((min(a, b), max(a, b), lk.score, _evidence_json(lk)))
        degree[a] += 1
        degree[b] += 1
    with store.transaction():
        graph_sql.replace_links(conn, out)
        graph_sql.clear_norms(conn)
        graph_sql.put_norms(conn, ((rows[k][0], nm) for k, nm in enumerate(stats["norms"])))
        store.set_meta("graph_generation", generation)
        store.set_meta("graph_cap", str(stats["cap"]))
        store.set_meta("graph_top_k", str(top_k))
        store.set_meta("graph_min_score", repr(float(min_score)))
    return LinkReport(len(rows), len(out), median([lk.score for lk in links]),
                      max(degree.values(), default=0), time.perf_counter() - started)


RELINK_SHARE = 0.25
"""Above this share of the corpus changed, `refresh` rebuilds the graph whole: an
incremental update costs about one pass over the phrase sets plus work that
grows with the number of changed documents (docs/graph.md has the figures)."""


def unlinked_left(store: Store) -> bool:
    """Are there documents a built graph has not linked since they were written (an
    update stopped between writing them and linking them)?"""
    with store.reading():
        return is_linked(store) and bool(graph_sql.unlinked_documents(store.conn))


def refresh(store: Store, changed: Sequence[int], removed: int = 0,
            tuning: GraphTuning = DEFAULT_TUNING) -> Optional[dict]:
    """Keep a built graph current after documents changed; None if there is none yet.

    Links of removed documents went with them. Changed and added documents are
    linked again by `update_links`, or, past `RELINK_SHARE` of the corpus, the
    whole graph is rebuilt by `link` with the settings it was last built with.
    Documents an earlier update never reached (it was stopped) are linked with
    them: each document the graph has not linked since it was written lacks a norm.
    """
    if not is_linked(store):
        return None
    started = time.perf_counter()
    with store.reading():
        changed = sorted(set(changed).union(graph_sql.unlinked_documents(store.conn)))
    total = store.counts()["documents"]
    top_k = int(store.meta("graph_top_k", "10") or 10)
    min_score = float(store.meta("graph_min_score", "0") or 0)
    if total and (len(changed) + removed) > RELINK_SHARE * total:
        report = link(store, top_k=top_k, min_score=min_score, tuning=tuning)
        return {"mode": "relinked", "documents": len(changed), "removed": removed,
                "links": report.links, "seconds": round(time.perf_counter() - started, 3)}
    added = update_links(store, changed, top_k, min_score, tuning)
    return {"mode": "incremental", "documents": len(changed), "removed": removed,
            "links": added, "seconds": round(time.perf_counter() - started, 3)}


def update_links(store: Store, changed: Sequence[int], top_k: int = 10, min_score: float = 0.0,
                 tuning: GraphTuning = DEFAULT_TUNING) -> int:
    """Link `changed` documents again against the whole corpus; returns the links written.

    One pass over the phrase sets finds, for every phrase of a changed
    document, the documents holding it (its document frequency); phrases are
    gated and weighed as `link` does (the document-frequency cap it used is
    kept in meta), the changed documents' norms are computed, the others'
    come from the last build. Each changed document keeps its `top_k`
    strongest neighbours, and a document that did not change keeps a changed
    one if it ranks among its own `top_k` -- of its stored links to unchanged
    documents and the changed documents' offers -- so a link survives if
    either end keeps it, as in `link`, and documents added together do not
    link to every one of each other. A full `link` is what makes every
    document rank all of its candidates again.
    """
    conn = store.conn
    with store.reading():
        generation = store.meta("generation", "0") or "0"
        rows = graph_sql.graph_documents(conn)
        n = len(rows)
        cap = vocabulary_cap(n, tuning)
        if store.meta("graph_cap"):
            cap = max(2, min(cap, int(store.meta("graph_cap") or cap)))
        present = {r[0] for r in rows}
        changed = sorted(set(changed) & present)
        mine: Dict[int, array] = {doc_id: unpack(blob) for doc_id, blob
                                  in graph_sql.doc_phrases_of(conn, changed)}
        wanted = set().union(*mine.values()) if mine else set()
        holders: Dict[int, set] = {}
        if wanted:
            over: set = set()
            for doc_id, blob in graph_sql.iter_doc_phrases(conn):
                for p in wanted.intersection(unpack(blob)):
                    h = holders.get(p)
                    if h is None:
                        holders[p] = {doc_id}
                    else:
                        h.add(doc_id)
                        if len(h) > cap:
                            over.add(p)
                if over:   # vocabulary: no longer looked for
                    wanted -= over
                    for p in over:
                        del holders[p]
                    over.clear()
        # The other end ranks too (a link survives if either end keeps it, as in `link`):
        # an unchanged document keeps a changed one if it is among its top_k of what it
        # has -- its stored links to unchanged documents, whose scores stand -- and of
        # what the changed documents now offer it. A changed document's own ranking is
        # over the whole corpus, below.
        is_changed = set(changed)
        have = graph_sql.top_links(conn, top_k, is_changed)
        bar = {j: best[-1][0] for j, best in have.items() if len(best) >= top_k}
        table: Dict[int, Tuple[float, float]] = {}
        weight: Dict[int, float] = {}
        for p, docs in holders.items():
            f = len(docs)
            if 2 <= f <= cap:
                if f not in table:
                    table[f] = (phrase_weight(f, n, False, tuning), phrase_weight(f, n, True, tuning))
                weight[p] = table[f][p & 1]
        stored = graph_sql.norms(conn)
        partial: Dict[int, float] = {}      # fallback norm: the weighed phrases a document holds
        for p, w in weight.items():
            for j in holders[p]:
                partial[j] = partial.get(j, 0.0) + w
        norm = {c: math.sqrt(math.fsum(weight[p] for p in _strongest_first(
            (q for q in mine.get(c, ()) if q in weight), weight))) for c in changed}
        titles = {r[0]: title_terms(r[3]) for r in rows}
        tdf = Counter(t for words in titles.values() for t in set(words))
        tweight = {t: phrase_weight(f, n, False, tuning) for t, f in tdf.items() if 2 <= f <= cap}
        tnorms: Dict[int, float] = {}
        tholders: Dict[int, List[int]] = {}   # gated title word -> documents with it
        for d, words in titles.items():
            for t in set(words):
                if t in tweight:
                    tholders.setdefault(t, []).append(d)

        def tnorm(d: int) -> float:
            if d not in tnorms:
                tnorms[d] = math.sqrt(math.fsum(tweight[t] for t in sorted(set(titles[d]))
                                                if t in tweight))
            return tnorms[d]

        own: Dict[int, list] = {}                   # changed document -> its top_k
        offers: Dict[int, list] = {}                # unchanged document -> best offers, a heap
        ordered_of: Dict[int, List[int]] = {}
        new_norms = []
        for c in changed:
            nc = norm.get(c, 0.0)
            new_norms.append((c, nc))
            ordered = ordered_of[c] = _strongest_first((p for p in mine[c] if p in weight),
                                                       weight)
            acc: Dict[int, float] = {}
            for p in ordered:
                w = weight[p]
                for j in holders[p]:
                    if j != c:
                        acc[j] = acc.get(j, 0.0) + w
            tc = tnorm(c)
            my_words = set(titles[c]) & tweight.keys()
            for t in my_words:   # a shared rare title word is a candidate by itself
                for j in tholders[t]:
                    if j != c and j not in acc:
                        acc[j] = 0.0
            scored = []
            for j, total in acc.items():
                nj = norm.get(j) or stored.get(j) or math.sqrt(partial.get(j, 0.0))
                score = total / (nc * nj) if nc and nj else 0.0
                shared_words = my_words.intersection(titles[j])
                if shared_words and tc:
                    tj = tnorm(j)
                    if tj:
                        t = math.fsum(tweight[w] for w in sorted(shared_words))
                        score = combine(score, t / (tc * tj), tuning)
                if score > 0 and score >= min_score:
                    scored.append((score, -j, nj, shared_words))
                    if score >= bar.get(j, 0.0) and j not in is_changed:   # offered to j
                        heap = offers.setdefault(j, [])
                        if len(heap) < top_k:
                            heapq.heappush(heap, (score, -c, nj, shared_words))
                        elif (score, -c) > heap[0][:2]:
                            heapq.heapreplace(heap, (score, -c, nj, shared_words))
            own[c] = heapq.nlargest(top_k, scored, key=lambda x: (x[0], x[1]))
        kept: Dict[int, list] = {c: [(s, -j, nj, w) for s, j, nj, w in own[c]] for c in changed}
        for j, heap in offers.items():
            best = heapq.nlargest(top_k, [x[:2] for x in heap] + have.get(j, []))
            won = set(best)
            for score, c, nj, shared_words in heap:
                if (score, c) in won:
                    kept[-c].append((score, j, nj, shared_words))
        out: Dict[Tuple[int, int], Tuple[float, str]] = {}
        for c in changed:
            nc = norm.get(c, 0.0)
            ordered = ordered_of[c]
            for score, j, nj, shared_words in kept[c]:
                key = (min(c, j), max(c, j))
                if key in out:
                    continue
                theirs = set(_holding(j, ordered, holders, tuning.evidence))
                top = [p for p in ordered if p in theirs][:tuning.evidence]
                lk = Link(key[0], key[1], score,
                          tuple((p, weight[p] / (nc * nj)) for p in top) if nc and nj else (),
                          tuple(sorted(shared_words)))
                out[key] = (score, _evidence_json(lk))
    with store.transaction():
        graph_sql.delete_links_of(conn, changed)
        graph_sql.add_links(conn, [(a, b, sc, ev) for (a, b), (sc, ev) in sorted(out.items())])
        graph_sql.put_norms(conn, new_norms)
        if store.meta("generation", "0") == generation:
            store.set_meta("graph_generation", generation)
    return len(out)


def _holding(j: int, ordered: Sequence[int], holders: Dict[int, set],
             enough: int) -> Iterable[int]:
    """The first `enough` of `ordered` phrases that document j holds."""
    found = 0
    for p in ordered:
        if j in holders[p]:
            yield p
            found += 1
            if found >= enough:
                return


def _evidence_json(lk: Link) -> str:
    """The links table's evidence column (formatted directly: json.dumps is 3x slower)."""
    return '{"phrases":[%s],"title":[%s]}' % (
        ",".join(["[%d,%.6g]" % ps for ps in lk.phrases]), ",".join(map(str, lk.title)))


def is_linked(store: Store) -> bool:
    return int(store.meta("graph_generation", "-1") or -1) >= 0


def is_stale(store: Store) -> bool:
    """Have documents changed since the last `link`?"""
    return store.meta("graph_generation", "-1") != store.meta("generation", "0")


def graph_status(store: Store) -> dict:
    """Graph figures for `status`: links, documents linked, median score, max degree."""
    with store.reading():
        figures = graph_sql.link_figures(store.conn)
        linked = is_linked(store)
        return {"linked": linked, "stale": linked and is_stale(store),
                "links": figures["links"], "documents": figures["documents"],
                "median_score": round(figures["median_score"], 4),
                "max_degree": figures["max_degree"]}


def related(store: Store, doc_id: int, limit: int = 10,
            filters: Optional[Filters] = None) -> Related:
    """A document's strongest neighbours with the phrases that connect them; with
    `filters`, only neighbours that pass them, as a search applies them.

    Phrase text is recovered from the document itself (every shared phrase
    is in it), falling back to the neighbour for any it does not yield.
    Phrases show by their share of the score, the more frequent first among
    equals (the rarest phrases often tie).
    """
    with store.reading():
        if not is_linked(store):
            raise NotLinked(NOT_BUILT)
        stale = is_stale(store)
        row = store.document(doc_id)
        if row is None:
            raise NotFound(f"no document with id {doc_id}")
        found = graph_sql.links_of(store.conn, doc_id)
        rows = store.documents([other for other, _, _ in found])
        found = [f for f in found if f[0] in rows]
        if filters is not None and filters.any:
            kept = store.fulltext.documents_matching(filters, [f[0] for f in found])
            found = [f for f in found if f[0] in kept]
        found.sort(key=lambda f: (-f[1], rows[f[0]]["root"], rows[f[0]]["path"]))
        found = found[:max(0, limit)]
        evidence = [_evidence_shares(raw) for _, _, raw in found]
        wanted = {p for shares in evidence for p in shares}
        forms = phrase_forms(row["title"], _text(store, doc_id), wanted) if wanted else {}
        for (other, _, _), shares in zip(found, evidence):
            missing = set(shares).difference(forms)
            if missing:  # not recoverable from this side: ask the other
                forms.update(phrase_forms(rows[other]["title"], _text(store, other), missing))
        neighbours = []
        for (other, score, _), shares in zip(found, evidence):
            shown = sorted((p for p in shares if p in forms),
                           key=lambda p: (-shares[p], -forms[p][1], forms[p][0]))
            neighbours.append(Neighbour(doc_summary(rows[other]), score,
                                        _unique(forms[p][0] for p in shown)))
        return Related(doc_summary(row), neighbours, stale)


def _evidence_shares(raw: str) -> Dict[int, float]:
    """Phrase id -> share of the score; title words (the bonus) rank after phrases."""
    data = json.loads(raw)
    shares = {p: share for p, share in data.get("phrases", [])}
    for t in data.get("title", []):
        shares.setdefault(t, -1.0)
    return shares


def _unique(texts: Iterable[str]) -> List[str]:
    seen: set = set()
    return [t for t in texts if not (t in seen or seen.add(t))]


def _text(store: Store, doc_id: int) -> str:
    return "\n".join(p["text"] for p in store.passages_of(doc_id))
