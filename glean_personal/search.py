"""Ranked documents (or passages) for a query, with snippets and their evidence.

The store returns its best-scoring passages; here they become documents. A
document's score is its best passage's, plus a damped share of its further
matching passages (a document about a subject beats one passing mention; for
a question written as a sentence that share saturates, so a long page of passing
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
from typing import (Callable, Dict, FrozenSet, Iterator, List, Mapping, NamedTuple, Optional,
                    Sequence, Set, Tuple)

from .analysis import cjk_pairs, is_stopword, stem, tokenize
from .copies import chapters_first, fold_near_duplicates, result_document
from .docref import doc_summary
from .evidence import Weights, words_of
from .kinds import (is_code_path, is_legal_notice, is_listing_title, is_release_notes_path,
                    is_release_notes_title, is_style_sheet, is_test_path, is_test_section)
from .language import named_language, path_hint
from .patterns import holds_any, lazy
from .query import (MIN_PREFIX_LEN, Filters, Query, Term, canonical_type, heading_words,
                    names_heading, parse, word_runs)
from .records import Record, field
from .snippets import SNIPPET_CHARS, Matcher, Snippet, snippet
from .store.core import Store, passage_parts, passage_text


class SearchTuning(Record, frozen=True):
    """Search's knobs, in one place (as `graph.GraphTuning` holds the graph's); docs/search.md."""

    snippet_chars: int = SNIPPET_CHARS
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
    # An index of fewer passages than this is small: its vocabulary lacks most
    # everyday words and two words seldom meet by chance, so a passage there needs
    # only `small_strength_words` of a question's words, and /chat does not decline
    # for a word foreign to it (docs/search.md, "Small indexes").
    small_index: int = 200
    small_strength_words: int = 2
    # A passage holding `strength_words` or more of the query's words, no two of
    # them within this many words of each other, is `scattered` (0: never);
    # /chat does not quote it (docs/search.md, "Match strength").
    scatter_window: int = 28
    # /chat declines a question with a word the index does not know nor any
    # word close to it (docs/search.md, "Match strength").
    decline_foreign: bool = True
    # ... and one with a word typed as a name (*Venmo*) that it does not know, a
    # word close to it or not.
    foreign_names: bool = True
    # ... but never for a word of the calendar or the clock (*tomorrow*, *April*:
    # query.TIME_WORDS), which says when, not what; it weighs as any word.
    time_words: bool = True
    # ... nor for a word with a verb's ending, -ed or -ing (*messed*, *oriented*,
    # *cluttering*: query.is_inflected), which is a wording, not a name.
    inflected_words: bool = True
    # /chat quotes, beside its best passage, only those with at least this share of
    # its strength (docs/search.md, "What /chat quotes").
    quote_share: float = 0.7
    rerank: int = 20            # leaders whose best passage is checked for query coverage
    # ... and the next documents checked too: each whose best passage holds more of
    # the query than every leader's joins them (0: none, nor with `rerank` 0;
    # docs/search.md, "How results are ranked", step 4).
    below: int = 10
    # A sentence's passages, listed one by one (--passages, MCP, /chat): each
    # document's best carries the document's support from its further passages,
    # as documents are ranked (docs/search.md, "Passages").
    passage_support: bool = True
    pool: int = 120             # best passages fetched from the store per query
    deeper: int = 3             # times the pool may grow ×4 when it holds too few documents
    # (and, for a later page, deeper pools in a row that may add no result)
    common: float = 0.02        # words in more of the passages choose no candidates (0: all do)
    cover_floor: float = 0.5    # a leader holding none of the query's weight keeps this share
    literal_boost: float = 1.0  # a passage holding a symbol word as typed (`@{upstream}`) gains this share
    definition: float = 1.0     # a passage headed by a code name typed (its definition) gains this share
    defines: float = 3.0        # a document defining one, for a search of code names only, gains this share
    listing: float = 0.5        # a table of contents or an index (lines end in `… 12`, or so titled) keeps this share
    references: bool = True     # a cross-reference (lines of a word and the files naming it) is one
    changelog: float = 0.5      # release notes keep this share for a search not about versions
    # A question's further passages that hold its words only in their document's title
    # (which every passage carries) lend the document no support (docs/search.md,
    # "How results are ranked", step 2).
    title_echoes: bool = True
    # Release notes holding this share of the index's passages or more count, all
    # together, as one passage when words are weighed by rarity (0: as many as they hold).
    bulky_notes: float = 0.01
    tests: float = 0.5          # test files keep this share for a question not about tests
    # A long list of short entries (a glossary, a list of settings, of errors, of C
    # functions: `entry_passages` passages or more, `entry_headings` of them or more
    # under a heading of their own, and on average shorter than `entry_length` of the
    # index's passages) keeps this share for a question written as a sentence
    # (docs/search.md, "Long lists of short entries"; 1.0: off).
    entries: float = 0.4
    entry_passages: int = 200
    entry_headings: float = 0.85
    entry_length: float = 0.8
    legal: float = 0.5          # licence and copyright notices keep this share for a question not about them
    style: float = 0.5          # style sheets keep this share for a question in plain words not about styling
    other_language: float = 0.5   # a document in another language than the question's keeps this share
    named_source: float = 2.0     # a document of the source a query names by its label counts this many times
    duplicate: float = 0.6      # estimated phrase Jaccard at which two documents are one text
    sketch: int = 256           # phrase ids per document in that estimate (bottom-k)
    min_phrases: int = 64       # documents with fewer phrases are never folded
    # Of two copies of one kind, the one holding this share of both's phrase sketch
    # that the other lacks (and more than four times what it lacks) is shown: the fuller
    # edition (docs/search.md, "Copies of one text"; above 1: the first ranked).
    fuller: float = 0.08
    same_passage_chars: int = 200   # a shorter passage shown twice is no sign of one text
    contained: float = 0.8      # share of a document's passages another must hold to be its copy
    # Copies fold and chapters move up within blocks of this many results, the same
    # whatever page is asked, so that pages (offset, limit) are slices of one order
    # (docs/search.md, "Copies of one text").
    fold_block: int = 11
    # A chapter in another form: a leading document of another format than one above
    # it, which has this many times its passages and nearly all (`contained`) of a
    # sample of its word pairs, moves up to its place (0: off; a manual's PDF beside
    # its pages; docs/search.md, "Copies of one text").
    book_pages: float = 10.0
    book_sample: int = 64       # word pairs of the smaller document compared
    # Questions in plain words also search the thesaurus's synonyms of their
    # words (synonyms.py); a slot held only by a synonym counts this share of
    # its weight in the coverage rerank and in match strength.
    synonyms: bool = True
    synonym_cover: float = 0.25
    synonym_strength: float = 0.75
    # ... but one the thesaurus gives as the same word (`folder = directory`) this
    # share of it in match strength (docs/search.md, "Match strength").
    synonym_same: float = 1.0
    # A passage holding `strength_words` or more of the query's words whose weights
    # sum to at least log(passages) + this (by chance, e^-3 ≈ 1/20 of a passage would
    # hold them all) has them `rare_together` (0: never); /chat answers from it as
    # from one of enough strength (docs/search.md, "Match strength").
    together_margin: float = 3.0
    # A word of the question that names nothing (a request word's other form, a
    # function word the stop list lacks: `query.names_nothing`) and that the index
    # does not hold weighs nothing in match strength (False: it weighs as any
    # unknown word), and /chat never takes it for a foreign word (docs/search.md,
    # "Words that name nothing").
    unheld_fillers: bool = True
    # A word only a question's subordinate clause holds (*before sending them*, *when
    # I leave the terminal*: `query.main_clause`) says the circumstances, not the
    # request: for strength, a passage lacking it lacks this share of its weight,
    # and the rule on few words counts the main clause's words (docs/search.md, "The
    # circumstances of a request"; 1.0: off).
    clause_share: float = 0.5


TUNING = SearchTuning()


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
    scattered: bool = False   # the query's words only far apart in the passage (evidence.py)
    rare_together: bool = False   # it holds three or more query words that seldom meet (evidence.py)
    also_at: List[dict] = field(default_factory=list)   # near-duplicates folded into this hit
    matched_synonyms: Optional[List[Tuple[str, str]]] = None   # (query word, synonym) found
    matched_forms: Optional[List[Tuple[str, str]]] = None      # (query word, its other form) found

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
               "strength": round(self.strength, 3), "rare_matched": self.rare_matched,
               "scattered": self.scattered, "rare_together": self.rare_together}
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
        if self.matched_forms is not None:
            out["matched_forms"] = [{"term": a, "form": b} for a, b in self.matched_forms]
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
    # The index holds fewer than `SearchTuning.small_index` passages: a passage needs
    # fewer of the query's words for its full strength, and /chat declines for no
    # word foreign to it (not in `to_dict`).
    small_index: bool = False
    # Words the index lacks whose rest, less a prefix, it holds (*unfinished*:
    # *finished*): a wording, not a thing it never mentions (not in `to_dict`).
    bases: Dict[str, str] = field(default_factory=dict)
    # Words the index lacks with a word of it near, a looser reach than the
    # suggestions offered (`spelling.near_words`; not in `to_dict`).
    near_words: List[str] = field(default_factory=list)
    # The page asked for starts past the last result; `notices` says where they end
    # (not in `to_dict`).
    past_end: bool = False

    # The hits, as a list's: `for hit in ix.search(q)`, `len(...)`, `[0]` (docs/api.md: "behaves as that list").
    def __iter__(self) -> Iterator[Hit]:
        return iter(self.results)

    def __len__(self) -> int:
        return len(self.results)

    def __getitem__(self, index):
        return self.results[index]

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
    result.notices = [short_prefix_notice(w) for w in query.short_prefixes]
    if limit <= 0:
        return result
    want = offset + limit
    with store.reading():
        if query.empty:
            if filters.any:
                result.notices += filter_notices(store, filters)
            return result
        weights = Weights(store, query, TUNING)
        split = _split_absent_runs(query, weights.absent)
        if split is not None:   # a sentence of Chinese or Japanese: searched by its pairs
            query, weights = split, Weights(store, split, TUNING)
            result.terms = query.labels()
        result.absent_terms, result.small_index = weights.absent, weights.small
        if weights.absent:
            # only for a word the index lacks
            from .spelling import known_bases, near_words, suggest_words
            unknown = [t.tokens[0] for t in query.terms
                       if t.label in weights.absent and not t.is_phrase]
            result.suggestions = suggest_words(store, unknown)
            result.near_words = near_words(store, unknown)
            result.bases = known_bases(store, unknown)
        expansions = weights.expansions
        labels = query.labels()
        for i, syn in expansions:
            result.expansions.setdefault(labels[i], []).append(syn.label)
        pool = TUNING.pool
        hits = _candidates(store, query, weights, pool, filters)
        if not hits:
            if filters.any:
                result.notices += filter_notices(store, filters)
            return result
        found = store.passage_documents_titled([pid for pid, _ in hits])
        # whole blocks of results, whatever the page: a page is a slice of one order
        block = max(1, TUNING.fold_block)
        window = -(-(want + 1) // block) * block
        # A few long documents can fill the pool: fetch deeper until it holds a block
        # of documents (a page of 10 and one more), or none are left to fetch; the
        # same pool whatever page is asked.
        steps = TUNING.deeper
        while (steps and not passages and len(hits) >= pool
               and len(set(found[0].values())) < block):
            steps -= 1
            pool *= 4
            hits = _candidates(store, query, weights, pool, filters)
            found = store.passage_documents_titled([pid for pid, _ in hits])
        doc_of, titles, paths = found[0], found[1], found[2]
        rows = _Rows(store.passages)
        ranked = _rank_pool(store, query, weights, hits, found, rows, passages)
        probes = _probes(weights.terms)
        docs = _Rows(store.documents)
        # A later page may need more results than the pool gives: a deeper pool's
        # (×4) come after them, ranked among themselves (`tiers`: their tier), so the
        # earlier results keep their order whatever the page (docs/search.md, "Filters
        # and paging").
        tiers: Dict[int, int] = {}
        # results looked at: more when an excluded word or a repeated text left too few
        depth = window
        before, idle = -1, 0   # the results before the last deeper pool; pools adding none
        while True:
            listed, whole = ranked, True
            if query.excluded:
                listed, whole = _without_excluded(store, query, listed, doc_of, depth,
                                                  passages)
            folded, also = fold_near_duplicates(store, listed, doc_of, depth, passages,
                                                TUNING, paths, block, tiers, titles)
            if not passages:   # the first documents' best passages, in one read
                rows.load([scored[0][1] for scored, _, _ in folded[:depth]])
            pids = [item[0] if passages else _representative(item[0], rows, probes)
                    for item in folded[:depth]]
            # each document's representative, by its best passage (chapters_first reorders them)
            chosen = {} if passages else {item[0][0][1]: pid for item, pid in zip(folded, pids)}
            listed = chapters_first(store, folded, pids, rows, docs, doc_of, also, depth,
                                    passages, TUNING, block, tiers)
            # the results looked at (a list of passages leaves out a text shown twice);
            # those after them were not, and may yet be folded or left out
            made = len(listed) - max(0, len(folded) - depth)
            if made >= window:
                break
            if not whole or len(folded) > depth:   # too few kept of those looked at
                depth += window
                continue
            # deeper while there are more, until `TUNING.deeper` pools in a row added no
            # result (an excluded word in all of them): the same pools whatever the page
            idle = idle + 1 if made <= before else 0
            if len(hits) < pool or idle >= TUNING.deeper:
                break
            before = made
            pool *= 4
            hits = _candidates(store, query, weights, pool, filters)
            found = store.passage_documents_titled([pid for pid, _ in hits])
            doc_of.update(found[0])
            titles.update(found[1])
            paths.update(found[2])
            ranked = _after(ranked, _rank_pool(store, query, weights, hits, found, rows,
                                               passages), doc_of, passages, tiers)
        ranked = listed
        if offset and len(ranked) <= offset:
            result.past_end = True
            result.notices.append(past_end_notice(len(ranked)))
        shown = []
        for i, (pid, score, count) in enumerate(ranked[:want + 1]):
            if i >= want:
                result.has_more = True
                break
            if i >= offset:
                if not passages:   # a document's passages: show it by one of them
                    pid = chosen.get(pid[0][1]) or _representative(pid, rows, probes)
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
        matcher = Matcher(query, expansions, weights.heads)
        for (pid, score, _), doc, (lo, hi), matched in zip(shown, docs_shown, ranges, counts):
            passage = rows[pid]
            hit = Hit(doc_summary(doc), score, passage["heading"], matched, doc["passages"],
                      [snippet(passage["text"], matcher, passage["ordinal"],
                               TUNING.snippet_chars)], pid,
                      passage["text"], lines=passage["lines"], page=passage["page"])
            parts = _with_title(doc.get("title") or "", passage_parts(passage))
            hit.strength, hit.rare_matched, hit.rare_together = weights.strength(
                passage_text(passage), parts)
            # judged where it matters: for a passage strong enough to quote
            hit.scattered = ((hit.strength >= TUNING.answer_strength or hit.rare_together)
                             and weights.scattered(parts, TUNING.scatter_window))
            hit.also_at = [doc_summary(docs[d]) for d in also.get(doc["id"], ())]
            if explain:
                _explain(store, hit, query, lo, hi, expansions)
            result.results.append(hit)
    _mark_ties(result.results)
    return result


def _rank_pool(store: Store, query: Query, weights: Weights, hits: List[Tuple[int, float]],
               found: tuple, rows: "_Rows", passages: bool) -> list:
    """The candidates (`hits`, their documents `found` as `Store.passage_documents_titled`
    gives them) ranked: documents, each as (its passages by score, score, matching
    passages), or passages as (id, score, 1), best first."""
    doc_of, titles, paths, langs, sizes = found
    words = {s for t in query.terms for s in t.stems()}
    marks = {d: _marks(title, paths[d]) for d, title in titles.items()}
    boost = _title_boosts(marks, words)
    damp_tests = query.question and not words & _TEST_WORDS
    # Bulky release notes count as one passage (`Weights.notes`): for a search not
    # about releases, their further passages lend their document no support.
    alone = (_notes_documents(hits, doc_of, weights.notes)
             if weights.notes and not _about_releases(query, words) else set())
    about_versions = _about_versions(query, words)
    _damp_kinds(boost, marks, query, words, about_versions, damp_tests)
    _damp_other_languages(boost, langs, marks, paths, store, query)
    _prefer_named_sources(boost, store, words, titles)
    if query.sentence and not passages:
        _damp_entry_lists(boost, sizes, store)
    if about_versions and alone:
        _damp_bulky_notes(boost, alone)
    runs = frozenset() if query.names else word_runs(query)   # a name typed is the name
    code: Set[int] = set()   # the candidates from code files, whose headings are names
    if damp_tests or runs or query.bare_name:
        code_docs = {d for d, m in marks.items() if m.code}
        if code_docs:   # most questions' candidates hold no code file
            code = {pid for pid, _ in hits if doc_of[pid] in code_docs}
    if damp_tests and code:
        hits = _damp_test_sections(hits, rows, code)
    if query.literals:
        hits = _literal_lift(hits, rows, query)
    defined: Set[int] = set()
    if (query.names and not query.bare_name) or code and (runs or query.bare_name):
        hits, defined = _definition_lift(hits, rows, query, runs, code)
    echoes = (_title_echoes(hits[:TUNING.pool], doc_of, titles, rows, weights)
              if query.sentence and TUNING.title_echoes else frozenset())
    if passages:
        return _rank_passages(hits, doc_of, boost, rows, query, weights, defined, alone,
                              echoes)
    return _rank_documents(hits, doc_of, boost, rows, query, weights, defined, alone, echoes)


def _after(ranked: list, deeper: list, doc_of: Dict[int, int], passages: bool,
           tiers: Dict[int, int]) -> list:
    """`ranked` (a pool's results), then those of a deeper pool's (`deeper`) that it
    lacks, in their own order and scaled down together below its last (`_at_most`),
    each noted in `tiers` (document, or passage, → tier) as of the next tier.

    A deeper pool ranks afresh: a document found only there may lift above the first
    pool's (a title's word, release notes damped above it), so ranked together the
    pages up to the 30th result changed with the page asked, and a later page
    repeated or skipped a document an earlier one had (or had not) shown."""
    tier = max(tiers.values(), default=0) + 1
    key = _result_key(doc_of, passages)
    held = {key(item) for item in ranked}
    new = [item for item in deeper if key(item) not in held]
    for item in new:
        tiers[key(item)] = tier
    return ranked + (_at_most(new, ranked[-1][1]) if ranked else new)


def _result_key(doc_of: Dict[int, int], passages: bool) -> Callable[[tuple], int]:
    """What a ranked result is: its passage (a list of passages) or its document."""
    if passages:
        return lambda item: item[0]
    return lambda item: doc_of[item[0][0][1]]


def _split_absent_runs(query: Query, absent: Sequence[str]) -> Optional[Query]:
    """The query with each run of Chinese or Japanese of three or more characters that
    no passage holds whole made its character pairs, each a term of its own; None
    when there is none such.

    A run is found as the phrase of its pairs, so that `京都の寺` does not find
    `東京都`; but a question written as a sentence (`東京で何をしましたか`) is one
    run, held by no passage, and found nothing although `東京` is indexed. Its
    pairs, weighed by rarity, find the passages that hold its words; the pairs
    no passage holds (`で何`) still count against a passage's match strength.
    Runs a punctuation mark parts (`渋谷区に行った。新宿で`) are one phrase,
    and split so too.
    A quoted run is a phrase as typed; a question with synonyms keeps its terms
    (their places are counted by index).
    """
    if not absent or query.expansions:
        return None
    gone = set(absent)
    terms: List[Term] = []
    split = False
    for term in query.terms:
        if term.label in gone and len(term.tokens) > 1 and not term.prefix \
                and not term.quoted and term.slot < 0 and cjk_pairs(term.tokens):
            terms.extend(Term((pair,)) for pair in term.tokens)
            split = True
        else:
            terms.append(term)
    if not split:
        return None
    return query.replace(terms=list({(t.tokens, t.prefix, t.slot): t for t in terms}.values()))


def _with_title(title: str, parts: List[str]) -> List[str]:
    """A passage's heading path, under its document's title when the path does not
    begin with it (a sheet or a slide: `Income` of *Budget 2024*), then its text:
    what a passage holds for match strength, as the index holds the title with it."""
    return parts if not title or (len(parts) > 1 and parts[0] == title) else [title] + parts


def _candidates(store: Store, query: Query, weights: Weights, pool: int,
                filters: Filters) -> List[Tuple[int, float]]:
    """The store's best passages for the query and its synonyms, in one OR: BM25 sums its terms."""
    if weights.expansions:
        query = Query(query.text, weights.terms, query.excluded)
    rarer = _rarer(weights, filters)
    hits = store.fulltext.search(query, pool, filters, rarer)
    if rarer and len(hits) < pool:
        # A page past the passages holding a rarer word (`_rarer`): the others follow
        # them, in their own order, so that the earlier pages keep theirs.
        held = {pid for pid, _ in hits}
        more = [h for h in store.fulltext.search(query, pool, filters) if h[0] not in held]
        if hits:
            more = _at_most(more, hits[-1][1])
        hits += more[:pool - len(hits)]
    return hits


def _rarer(weights: Weights, filters: Filters) -> List[Term]:
    """The query's terms that alone choose the candidates, or none for all of them.

    A word in more than `TUNING.common` of the passages costs the store one
    score per passage holding it, and a passage holding none of the rarer words
    seldom leads; so when those hold a pool's worth of passages, only passages
    holding one of them are scored (with every word). Not under a filter or an
    excluded word, which could leave fewer candidates than that, nor when only
    synonyms or other forms are rarer: every word the question typed is common,
    and a rare synonym choosing alone left out the page that answers in the
    words typed (Git's manual with its 3,716-passage changelog: *push delete
    remote branch* chose by *erase* and lost `git-push.html`). The pool is
    `TUNING.pool` even when a later page fetches more: the candidates then
    come from the same passages, and the first pages keep their order.
    """
    if not TUNING.common or filters.any or weights.query.excluded:
        return []
    limit = TUNING.common * weights.passages
    rare = [(t, df) for t, df in zip(weights.terms, weights.counts) if df <= limit]
    if len(rare) == len(weights.terms) or sum(df for _, df in rare) < TUNING.pool:
        return []
    if all(df > limit for df in weights.counts[:len(weights.query.terms)]):
        return []   # a synonym alone never chooses: the words typed are what was asked
    return [t for t, _ in rare]


def _known_types(filters: Filters) -> Filters:
    """Type filters as stored formats: aliases (`markdown`) and file extensions (`yml`)."""
    if not filters.formats:
        return filters
    from .config import SUPPORTED   # only when a type is asked for (not the readers: 0.13 s)
    formats = tuple(dict.fromkeys(canonical_type(f, SUPPORTED) for f in filters.formats))
    return filters.replace(formats=formats)


def _without_excluded(store: Store, query: Query, ranked: list, doc_of: Dict[int, int],
                      enough: int, passages: bool = False) -> Tuple[list, bool]:
    """Drop documents any of whose passages holds an excluded term (the title included),
    in a list of passages too (a passage's document holding it is about it): the first
    `enough` kept, and whether they are all that `ranked` keeps."""
    out = []
    i = 0
    while i < len(ranked) and len(out) < enough:
        chunk = ranked[i:i + 4 * enough]
        i += len(chunk)
        docs = [result_document(item, doc_of, passages) for item in chunk]
        unique = list(dict.fromkeys(docs))
        spans = store.passage_ranges(unique)
        counts = store.fulltext.matching_counts(query.excluded, [spans[d] for d in unique])
        holding = {d for d, n in zip(unique, counts) if n}
        out.extend(item for item, d in zip(chunk, docs) if d not in holding)
    return out[:enough], i >= len(ranked) and len(out) <= enough


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


def _rank_passages(hits, doc_of, boost, rows: _Rows, query: Query, weights: Weights,
                   defined: Set[int] = frozenset(), alone: Set[int] = frozenset(),
                   echoes: Set[int] = frozenset()) -> List[Tuple[int, float, int]]:
    """Passages by score, each scaled by its document's title boost; for a question
    written as a sentence, a document's best passage also by the document's support
    (`_support`).

    Ranked alone, a question's passages lost what ranks its documents: a short
    passing mention beat the best passage of the page about the subject. Now
    each document's best passage comes in the order its document would, and the
    others by their own scores among them, so that one long manual still shows
    its several sections (docs/search.md, "Passages"). Not when a definition
    was lifted for the question's words (`defined`): that passage is the
    answer, and a test file calling the name twenty times must not gain by it.

    Support counts the store's first `TUNING.pool` candidates only: a later page
    (`offset`) fetches more, and the passages of the first pages must keep their
    order on it, or a page repeats a passage an earlier one showed. The documents
    in `alone` (bulky release notes, one passage) have none, and the passages in
    `echoes` (`_title_echoes`) lend none.
    """
    support = {}
    if query.sentence and TUNING.passage_support and not defined:
        by_doc: Dict[int, List[float]] = {}
        for pid, score in sorted(hits[:TUNING.pool], key=lambda t: (-t[1], t[0])):
            if pid not in echoes or doc_of[pid] not in by_doc:   # its best always counts
                by_doc.setdefault(doc_of[pid], []).append(score)
        support = {d: _support(sorted(v, reverse=True), True) for d, v in by_doc.items()
                   if d not in alone}
    if not support:
        scored = [(pid, score * boost[doc_of[pid]], 1) for pid, score in hits]
        return _rerank(scored, rows, query, weights, listings=True)
    seen: Set[int] = set()
    scored = []
    for pid, score in sorted(hits, key=lambda t: (-t[1], t[0])):
        d = doc_of[pid]
        first = d not in seen
        seen.add(d)
        scored.append((pid, score * boost[d] * (support.get(d, 1.0) if first else 1.0), 1))
    return _rerank(scored, rows, query, weights, listings=True)


def _support(values: List[float], sentence: bool) -> float:
    """A document's score over its best passage's (`values`: its passages' scores, best
    first): its next 20 passages, the k-th divided by sqrt(k + 1), add `TUNING.extra` of
    their sum, or for a question written as a sentence lift the best at most to double
    (for a list of words it also lowered keyword searches: docs/search.md)."""
    best = values[0]
    if len(values) == 1 or best <= 0:
        return 1.0
    extra = sum(s / _ROOTS[i] for i, s in enumerate(values[1:21], start=1))
    if sentence:   # saturating: the further passages at most double the best
        return 1 + extra / (extra + best)
    return 1 + TUNING.extra * extra / best


# The stems of a question about tests, which test code answers.
_TEST_WORDS = frozenset({"test", "spec", "fixtur", "mock", "assert", "coverag", "pytest", "unittest"})
# The stems of a question about versions or changes, which release notes answer…
_VERSION_WORDS = frozenset({"version", "releas", "deprec", "histori", "upgrad", "migrat",
                            "changelog"})
_RELEASE_WORDS = _VERSION_WORDS - {"version", "histori"}
# …and the phrases: *what's new*, *what changed*, *added in*, *changed since*, a version
# number. Alone, *change*, *add*, *new*, *remove* are what a person does (`change the
# default editor`). Each phrase needs a digit or one of `_VERSION_PHRASE_WORDS`.
_VERSION_PHRASE = lazy(
    r"\bwhat(?:[\u2019']s|\s+(?:has|have|was|were|is|are))?\s+(?:new|chang|add|remov|fix|deprecat)"
    r"|\b(?:new|chang|add|remov|introduc|fix)\w*\s+(?:in|since|between)\b|\bv?[0-9]+\.[0-9]+",
    re.IGNORECASE)
_VERSION_PHRASE_WORDS = ("new", "chang", "add", "remov", "fix", "deprecat", "introduc")


def _about_versions(query: Query, words: Set[str]) -> bool:
    """Does a search ask what changed between versions (which release notes answer)?"""
    return bool(words & _VERSION_WORDS) or _version_phrase(query.text)


def _about_releases(query: Query, words: Set[str]) -> bool:
    """`_about_versions` without *version* and *history* alone, which also name a
    version to pin and a commit history (*pinned at a fixed version*, *testing
    halfway points in history*)."""
    return bool(words & _RELEASE_WORDS) or _version_phrase(query.text)


def _version_phrase(text: str) -> bool:
    """Does the text hold a `_VERSION_PHRASE`? (Its pattern is tried, and compiled, only
    for a text that may: most questions hold none of its words and no digit.)"""
    return ((holds_any(text, _VERSION_PHRASE_WORDS) or any(d in text for d in "0123456789"))
            and _VERSION_PHRASE.search(text) is not None)


def _notes_documents(hits: List[Tuple[int, float]], doc_of: Dict[int, int],
                     notes: List[Tuple[int, int]]) -> Set[int]:
    """The documents of the candidates that lie in the bulky release notes' passage
    ranges (`Weights.notes`)."""
    return {doc_of[pid] for pid, _ in hits if any(lo <= pid <= hi for lo, hi in notes)}


def _damp_bulky_notes(boost: Dict[int, float], notes: Set[int]) -> None:
    """Release notes bulky enough to be counted as one passage by rarity
    (`Weights.notes`, their documents `notes`: every passage is headed by a version,
    so *version* matches them all) count `TUNING.changelog` for a search about
    versions that does not ask about releases (`_about_releases`)."""
    for d in notes:
        if d in boost:
            boost[d] *= TUNING.changelog


# The stems of a question about styling, which style sheets answer.
_STYLE_WORDS = frozenset({"css", "style", "stylesheet", "colour", "color", "font", "theme",
                          "layout", "margin", "pad", "border", "selector", "sass", "scss"})
# The stems of a question about licences and copyright, which legal notices answer…
_LEGAL_WORDS = frozenset({"licens", "licenc", "copyright", "gpl", "lgpl", "warranti", "patent",
                          "trademark", "legal", "commerci", "redistribut", "proprietari",
                          "copyleft"})
# …and the phrases: *public domain* (SQLite's copyright page is titled *SQLite Is Public
# Domain*), *open source*, *closed source*, *free software*, a licence named with its
# version (*GPLv3*, *AGPL*), *distribute* (not *distributed* or *distribution*).
_LEGAL_PHRASE = lazy(r"\b(?:public[\s-]+domain|(?:open|closed)[\s-]+source|free[\s-]+software"
                     r"|[al]?gplv?[0-9.]*|distribut(?:e|es|ing))\b", re.IGNORECASE)
_LEGAL_PHRASE_WORDS = ("domain", "source", "software", "gpl", "distribut")


def _about_licensing(query: Query, words: Set[str]) -> bool:
    """Does a search ask about licensing (which legal notices answer)?"""
    return bool(words & _LEGAL_WORDS) or _legal_phrase(query.text)


def _legal_phrase(text: str) -> bool:
    """Does the text hold a `_LEGAL_PHRASE`? (Tried, and compiled, only for a text
    holding one of its words.)"""
    return holds_any(text, _LEGAL_PHRASE_WORDS) and _LEGAL_PHRASE.search(text) is not None


def _damp_kinds(boost: Dict[int, float], marks: Dict[int, "_Marks"], query: Query,
                words: Set[str], about_versions: bool, damp_tests: bool) -> None:
    """Documents of some kinds match many searches in part and answer few of them, so
    each counts a share of its score for a search not about its kind:

    - Release notes (`TUNING.changelog`) name every feature in passing, version after
      version, and a long one outranks the page that explains. Titled as release
      notes, or filed in a release-notes folder (whose pages are often titled by their
      version alone, `TypeScript 5.0`), for a search not about versions or changes (no
      *version*, *new*, *added*, *changed*, *since*…: `_about_versions`).
    - Tests (`TUNING.tests`) call what they test many times over, and their files are
      named after it (`test/res.cookie.js`), so for a question in plain words they
      outrank the code that does it. Under a tests folder or named as a test file
      (under a `spec/` folder, only code: such a folder of documents holds
      specifications), for a question not about tests (no *test*, *spec*,
      *fixture*, *mock*…: `damp_tests`).
    - A licence (`TUNING.legal`) is long legal prose about *programs*, *software*,
      *use*, *copies* and *places*, and one was first for *add the folder where my
      own programs live to the places searched for commands* (fish's
      `license.html`, the GPL). Named or titled as a licence or copyright notice
      (`kinds.is_legal_notice`: Debian's `copyright`, `LICENSE`, `COPYING`, a
      manual's `license.html`), for a search not about licensing (no *licence*,
      *copyright*, *GPL*, *warranty*, *patent*, *public domain*…: `_about_licensing`).
    - A style sheet (`TUNING.style`) is a manual's theme (`basic.css`, Exim's
      `chapter.css`, GIMP's `gimp-help-screen.css`), whose selectors and comments
      hold *page*, *body*, *link*, *table*, *image*, *search*: over the golden and
      blind sets' 755 questions they took 25 places in the first ten and one first
      place. For a question in plain words not about styling (no *css*, *style*,
      *colour*, *font*, *theme*, *layout*…)."""
    shares = []
    if not about_versions:
        shares.append(("release_notes", TUNING.changelog))
    if damp_tests:
        shares.append(("tests", TUNING.tests))
    if not _about_licensing(query, words):
        shares.append(("legal", TUNING.legal))
    if query.question and not words & _STYLE_WORDS:
        shares.append(("style", TUNING.style))
    for d, m in marks.items():
        for kind, share in shares:
            if getattr(m, kind):
                boost[d] *= share


def _damp_entry_lists(boost: Dict[int, float], sizes: Dict[int, int], store: Store) -> None:
    """A long list of short entries, each under a heading of its own (a glossary, the
    settings of a program, its error codes, a C API's functions; `_entry_list`),
    keeps `TUNING.entries` of its score for a question written as a sentence.

    A short entry that holds two of a question's words is a strong BM25 match
    (BM25 lifts a short passage), and such a list holds one for almost any
    question: Perl's `perlglossary`, 553 entries of 189 characters on average,
    was in the first ten for 13 of para11's 20 questions and answered none. A
    question asks how to do something, which an entry seldom says; a name typed
    still finds its entry. Documents only: in a list of passages (/chat, MCP) the
    entry that answers is the passage to quote, and damping it there left three
    answerable golden questions without an answer in /chat."""
    if TUNING.entries >= 1.0:
        return
    for d, n in sizes.items():
        if n >= TUNING.entry_passages and d in boost and _entry_list(store, d):
            boost[d] *= TUNING.entries


def _entry_list(store: Store, doc_id: int) -> bool:
    """Is the document a list of short entries: as many different heading paths as
    `TUNING.entry_headings` of its passages, and its passages on average shorter than
    `TUNING.entry_length` of the index's (`Store.mean_passage_length`)? Read once per
    document while the index is unchanged (only documents of `TUNING.entry_passages`
    passages or more are asked about), and the tuning: a caller may change it."""
    def read() -> Tuple[int, int, float]:
        return store.passage_shape(doc_id)
    count, headings, mean = store.fulltext.remember("passage shape", doc_id, read)
    return (count > 0 and headings >= TUNING.entry_headings * count
            and mean < TUNING.entry_length * store.mean_passage_length())


def _prefer_named_sources(boost: Dict[int, float], store: Store, words: Set[str],
                          docs: Mapping[int, str]) -> None:
    """A query that names one of the index's sources by its label (*ignore files in
    syncthing*, with sources `caddy` and `syncthing`) prefers that source's documents:
    they count `TUNING.named_source` times. A source's own pages seldom repeat its
    name, and another's that mention it are no answer. Only with two or more sources,
    and not when the query names them all."""
    if TUNING.named_source == 1.0 or not docs:
        return
    labels = store.source_labels()
    if len(labels) < 2:
        return
    named = {sid for sid, label in labels.items() if _label_stems(label) & words}
    if not named or len(named) == len(labels):
        return
    for d, sid in store.document_sources(docs).items():
        if sid in named:
            boost[d] = boost.get(d, 1.0) * TUNING.named_source


@functools.lru_cache(maxsize=256)
def _label_stems(label: str) -> FrozenSet[str]:
    """The stems of a source label's words that can name it (`p25-syncthing`: *syncthing*;
    not a number or a stopword)."""
    return frozenset(stem(t) for t in tokenize(label)
                     if len(t) >= 3 and not t.isdigit() and not is_stopword(t))


def _damp_other_languages(boost: Dict[int, float], langs: Dict[int, Optional[str]],
                          marks: Dict[int, "_Marks"], paths: Dict[int, str], store: Store,
                          query: Query) -> None:
    """Manuals ship their translations beside the English pages, and a person's folders
    mix languages: a document in another language than the question's counts
    `TUNING.other_language` of its score, and so does one whose path names another
    (`language.path_hint`): a page left untranslated in a translation's folder
    (`gnucash-help-de/`), English text beside the original in the English manual.
    The question's language is its function words' (`language.query_language`:
    *how do I …* is English); a question that has none (a bare keyword query) is
    taken to be in the index's main language (most passages'). Only when some
    candidates are in that language: a German question of an English index keeps its
    order. A document of no known language is never damped, unless a translation
    tree's folder names another (`language.tree_languages`: `hu/app/page.xml` beside
    `C/app/page.xml` and `de/app/page.xml`), and none disappears: a translation asked
    for in its own words still leads its own language's pages (docs/search.md,
    "Languages")."""
    if TUNING.other_language >= 1.0:
        return
    from .language import tree_languages
    # a tree among the candidates (cheap) sends for the index's trees (one read of its
    # paths, kept): a page's siblings, its original among them, need not be candidates
    tree = tree_languages({d: paths[d] for d in langs if d in paths}, original=False)
    if tree:
        named_by_tree = store.translation_trees(tree_languages)
        tree = {d: named_by_tree[paths[d]] for d in langs if paths.get(d) in named_by_tree}
    # a folder's name counts against a page's own language only where the folder holds
    # pages in the language it names (`language.language_folders`): English notes filed
    # by country (`travel/de/`) are English; a page left in English in a translation's
    # folder is the translation's
    doubtful = {d for d, lang in langs.items()
                if lang and d in marks and marks[d].language not in (None, lang)}
    if doubtful:   # a page whose folder names another language than its text's
        from .language import language_folders, path_mark
        folder = {d: path_mark(paths.get(d, ""))[1] for d in doubtful}
        held = store.language_folders(language_folders) if any(folder.values()) else ()
        doubtful = {d for d, f in folder.items() if f is not None and f not in held}
    # a page whose text's language is not told, but its file's name tells (`api.sr.html`)
    by_name = {d: named_language(paths.get(d, "")) for d, lang in langs.items()
               if lang is None and d not in tree}
    by_name = {d: code for d, code in by_name.items() if code}
    spoken = set(langs.values())
    spoken.update(m.language for d, m in marks.items() if d not in doubtful)
    spoken.update(tree.values())
    spoken.update(by_name.values())
    spoken.discard(None)
    if len(spoken) < 2:
        return   # one language (or none known) among the candidates: nothing to prefer
    from .language import query_language   # only for candidates of several languages
    target = query_language(query.text) or store.main_language()
    if target not in spoken:
        return
    for d, lang in langs.items():
        if d not in boost or (lang is None and d not in tree and d not in by_name):
            continue
        named = by_name.get(d) or (None if d in doubtful else marks[d].language) or tree.get(d)
        if (lang is not None and lang != target) or (named is not None and named != target):
            boost[d] *= TUNING.other_language


def _damp_test_sections(hits: List[Tuple[int, float]], rows: _Rows,
                        code: Set[int]) -> List[Tuple[int, float]]:
    """Tests kept in the code's own file (Rust's `mod tests`, a `TestParser` class, a
    `test_parse` function) count `TUNING.tests` of their passages' scores, as test
    files do. `code` are the candidates from code files, the only ones looked at."""
    rows.load(list(code))
    return [(pid, score * TUNING.tests if pid in code and is_test_section(rows[pid]["heading"])
             else score) for pid, score in hits]


# A line of a table of contents or a back-of-book index: words, a dot leader
# (an ellipsis once a reader has read it) and a page number or label. Each
# part is looked for in the line's last few characters only, so a long run of
# dots or digits costs no backtracking.
_PAGE_AT_END = lazy(r" ?[0-9ivxlcdmIVXLCDM]+(?:[-\u2013][0-9]+)?[ \t]*$")
_LEADER_AT_END = lazy(r"(?:\u2026|(?:\. ?){4})$")


def _is_listing_line(line: str) -> bool:
    tail = line[-24:]
    page = _PAGE_AT_END.search(tail)
    if page is None:
        return False
    head = line[:len(line) - len(tail) + page.start()]
    return _LEADER_AT_END.search(head[-8:]) is not None


# A line of a cross-reference: a name, then the files that name it, written out
# (`.dump → changes.html#version_3_20_0 nulinstr.html`), or a line of nothing but
# manual pages (`systemd.socket(5)`, `sd_bus_open(3), sd_bus_close(3),`: systemd's
# index of every setting, `systemd.directives(7)`, and of every page,
# `systemd.index(7)`, a page's name a line and its one-line summary the next; a SEE
# ALSO list). Not a sentence's line that names one (`systemd-logind.service(8). See`):
# the roff reader keeps a page's source lines, and DocBook's put each name on its own.
_FILE_ENDINGS = tuple("." + e for e in ("html", "htm", "md", "rst", "txt", "pdf", "xml"))
_HAS_FILE_ENDING = re.compile(r"\.(?:%s)\b" % "|".join(e[1:] for e in _FILE_ENDINGS))
# A page's section in parentheses, `(5)`, `(3p)`: apart from the file endings, as one
# pattern of both (`\w\(…` an alternative) is tried at every character, and cost
# 2.5 ms per 120 passages where these two cost 0.18 ms.
_HAS_PAGE_SECTION = re.compile(r"\([1-9][a-z]{0,3}\)")
_MAN_REFERENCE = lazy(r"[\w.:@+-]+\([1-9][a-z]{0,3}\)[,;.]?")


def _is_file_reference(word: str) -> bool:
    return word.partition("#")[0].endswith(_FILE_ENDINGS)


def _is_page_reference(word: str) -> bool:
    return ")" in word[-2:] and _MAN_REFERENCE.fullmatch(word) is not None


def _is_reference_line(line: str) -> bool:
    words = line.split()
    refs = sum(map(_is_file_reference, words))
    if refs:
        return 2 * refs >= len(words) - 2
    return bool(words) and all(map(_is_page_reference, words))


def _is_listing(text: str) -> bool:
    """Whether a passage is a table of contents or an index: at least four lines, and
    most of them ending in a dot leader and a page number, or naming the files that
    speak of a word (a cross-reference)."""
    leaders = "\u2026" in text or "...." in text or ". . . ." in text
    references = TUNING.references and (_HAS_FILE_ENDING.search(text) is not None
                                        or _HAS_PAGE_SECTION.search(text) is not None)
    if not (leaders or references):
        return False
    lines = [line for line in text.split("\n") if line.strip()]
    if len(lines) < 4:
        return False
    if leaders and 2 * sum(map(_is_listing_line, lines)) >= len(lines):
        return True
    return references and 2 * sum(map(_is_reference_line, lines)) >= len(lines)


def _demote_listings(by_doc: Dict[int, List[Tuple[float, int]]], boost: Dict[int, float],
                     rows: _Rows) -> None:
    """A contents or index page names a subject without saying anything about it, and
    its short lines of titles make it a strong BM25 match. Among the leading
    documents, such a passage counts `TUNING.listing` of its score, so the page
    that explains comes first and is the one shown. Only a document whose best
    passage is a listing costs a look at its next two."""
    leaders = [d for _, d in sorted([(-scored[0][0] * boost.get(d, 1.0), d)
                                     for d, scored in by_doc.items()])[:TUNING.rerank]]
    rows.load([by_doc[d][0][1] for d in leaders])
    for d in leaders:
        scored = by_doc[d]
        if not _is_listing(rows[scored[0][1]]["text"]):
            continue
        rows.load([pid for _, pid in scored[1:3]])
        scored[:3] = [(s * TUNING.listing, pid) if _is_listing(rows[pid]["text"]) else (s, pid)
                      for s, pid in scored[:3]]
        scored.sort(key=lambda t: (-t[0], t[1]))


def _best_first(item: Tuple[float, int]) -> Tuple[float, int]:
    """The sort key of a (score, passage id): best first, then the lower id."""
    return -item[0], item[1]


def _rank_documents(hits, doc_of, boost, rows: _Rows, query: Query, weights: Weights,
                    defined: Set[int] = frozenset(), alone: Set[int] = frozenset(),
                    echoes: Set[int] = frozenset()) -> List[tuple]:
    """(the document's passages by score, its score, matching passages) per document.

    A document holding a definition of the name typed (a passage in `defined`,
    already lifted) has its whole score lifted instead: the file that defines
    `res.sendFile` before the test file that calls it forty times.

    A document's further passages count among the store's first `TUNING.pool`
    candidates only (`_rank_passages` says why), and not at all for the documents
    in `alone`: bulky release notes, counted as one passage; nor do the passages in
    `echoes`, which hold a question's words only in their document's title.
    """
    counted = {pid for pid, _ in hits[:TUNING.pool]}
    by_doc: Dict[int, List[Tuple[float, int]]] = {}
    for pid, score in hits:
        by_doc.setdefault(doc_of[pid], []).append((score, pid))
    for scored in by_doc.values():
        if len(scored) > 1:
            scored.sort(key=_best_first)
    _demote_listings(by_doc, boost, rows)
    lift = 1.0 + TUNING.definition
    doc_lift = 1.0 + (TUNING.defines if query.names_only and TUNING.definition else TUNING.definition)
    ranked = []
    for doc_id, scored in by_doc.items():
        pid = scored[0][1]
        if len(scored) == 1 and not defined:   # most documents: one passage, no further share
            ranked.append((pid, scored[0][0] * boost[doc_id], 1))
            continue
        defines = bool(defined) and any(p in defined for _, p in scored)
        pairs = sorted(((s / lift if p in defined else s, p) for s, p in scored),
                       key=_best_first) if defines else scored
        values = [s for i, (s, p) in enumerate(pairs)
                  if p in counted and (not i or p not in echoes)] or [pairs[0][0]]
        if doc_id in alone:   # one passage: its others lend it nothing
            values = values[:1]
        score = pairs[0][0] * _support(values, query.sentence)
        if defines:
            score *= doc_lift
        ranked.append((pid, score * boost[doc_id], len(scored)))
    ranked = _rerank(ranked, rows, query, weights)
    return [(by_doc[doc_of[pid]], score, n) for pid, score, n in ranked]


def _title_echoes(hits: List[Tuple[int, float]], doc_of: Dict[int, int], titles: Dict[int, str],
                  rows: _Rows, weights: Weights) -> Set[int]:
    """The candidates (`hits`: the first `TUNING.pool`) that hold none of the query's
    words or their synonyms in their headings or text, only in their document's title,
    among documents with two candidates or more.

    Every passage carries its document's title, so a passage of GNOME's *Test the
    performance of your hard disk* about the benchmark's graph matched *how much
    room is still free on my hard drive* by the title's *hard* alone, and lent
    the page the support of a page about the question (step 2 of "How results are
    ranked" in docs/search.md). Whole-page BM25 counts a title once. Only the
    documents whose title holds one of the words are read: no other can have such
    a passage.
    """
    by_doc: Dict[int, List[int]] = {}
    for pid, _ in hits:
        by_doc.setdefault(doc_of[pid], []).append(pid)
    looked = [d for d, pids in by_doc.items()
              if len(pids) > 1 and titles.get(d) and any(weights.present_in([titles[d]]))]
    if not looked:
        return set()
    rows.load([pid for d in looked for pid in by_doc[d]])
    out = set()
    for d in looked:
        title = titles[d]
        for pid in by_doc[d]:
            parts = [h for h in passage_parts(rows[pid])[:-1] if h != title]
            if not any(weights.present_in(parts + [rows[pid]["text"]])):
                out.add(pid)
    return out


# math.sqrt(i + 1) for a document's further passages, i = 1..20 (computed once).
_ROOTS = [math.sqrt(i + 1) for i in range(21)]


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
    are the terms' `_probes`, made once per query. The next two are read only
    when the best does not mention it (about one document in fifty).
    """
    best = scored[0][1]
    rows.load([best])
    if any(p in rows.lower(best) for p in probes):
        return best
    rows.load([pid for _, pid in scored[1:3]])
    for _, pid in scored[1:3]:
        text = rows.lower(pid)
        if any(p in text for p in probes):
            return pid
    return best


def _rerank(ranked, rows: _Rows, query: Query, weights: Weights,
            listings: bool = False) -> List[Tuple[int, float, int]]:
    """Scale the leaders by query coverage (costly, so only the first `TUNING.rerank`);
    with `listings`, contents and index passages by `TUNING.listing` too. Of the
    next `TUNING.below`, those whose best passage holds more of the query than
    every leader's join them, scaled the same way, a contents or index passage
    by `TUNING.listing` as a leader's is (for documents, the leaders' were in
    `_demote_listings`). None joins with no leaders: `TUNING.rerank` 0 turns
    the whole rerank off, as it did before `below`.

    The rest stay below the leaders, scaled down together where a leader fell
    under them, so that scores shown never rise down the list."""
    ranked.sort(key=lambda t: (-t[1], t[0]))
    lead = TUNING.rerank
    below = TUNING.below if lead and len(query.terms) > 1 and len(ranked) > lead else 0
    rows.load([pid for pid, _, _ in ranked[:lead + below]])
    cover = {pid: _coverage(rows[pid]["text"], query, weights) for pid, _, _ in ranked[:lead]}
    if below:   # the next ones join the leaders when they hold more of the query than any
        most = max(cover.values())
        for pid, _, _ in ranked[lead:lead + below]:
            share = _coverage(rows[pid]["text"], query, weights)
            if share > most:
                cover[pid] = share
    # a contents or index passage counts `TUNING.listing`: for a list of passages here,
    # for documents `_demote_listings` did so for the leaders, and here for those joining
    head = [(pid, score * cover[pid]
             * (TUNING.listing if (listings or i >= lead) and _is_listing(rows[pid]["text"])
                else 1.0), n)
            for i, (pid, score, n) in enumerate(ranked[:lead + below]) if pid in cover]
    head.sort(key=lambda t: (-t[1], t[0]))
    tail = [item for item in ranked[lead:] if item[0] not in cover]
    return head + (_at_most(tail, head[-1][1]) if head else tail)


def _at_most(items: list, low: float) -> list:
    """`items` (best first, each's score second) scaled down together, where needed, so
    that none scores above `low`: they stay below what was ranked before them."""
    if not items or items[0][1] <= low:
        return items
    scale = low / items[0][1]
    return [(item[0], min(low, item[1] * scale)) + tuple(item[2:]) for item in items]


def _literal_lift(hits: List[Tuple[int, float]], rows: _Rows,
                  query: Query) -> List[Tuple[int, float]]:
    """Lift the passages that hold a symbol word as typed (`@{upstream}`, not just `upstream`)."""
    rows.load([pid for pid, _ in hits])
    lift = 1.0 + TUNING.literal_boost
    return [(pid, score * lift if any(w in low for w in query.literals) else score)
            for pid, score in hits for low in (rows.lower(pid),)]


def _definition_lift(hits: List[Tuple[int, float]], rows: _Rows, query: Query,
                     runs: FrozenSet[Tuple[str, ...]] = frozenset(), code: Set[int] = frozenset()
                     ) -> Tuple[List[Tuple[int, float]], Set[int]]:
    """Lift the passages headed by a code name typed: `add_patterns` is defined under its
    own heading, where `add_patterns_from_file` and the callers only hold its words.

    Without a name typed, words typed one after another (`runs`, *the test client*)
    name the definition of a code file (`code`: its candidates) they join (`test_client`);
    a plain word typed alone names one in a code file only (in a note, a section
    headed *Insurance* is no more about insurance than a note titled so).
    """
    anywhere = query.names and not query.bare_name
    looked = [pid for pid, _ in hits] if anywhere else [pid for pid, _ in hits if pid in code]
    rows.load(looked)
    first: Dict[Tuple[int, Tuple[str, ...]], int] = {}   # a definition's first passage here
    for pid in looked:
        row = rows[pid]
        heading = row["heading"]
        if heading and ((query.names and names_heading(heading[-1], query.names))
                        or (runs and pid in code and heading_words(heading[-1]) in runs)):
            key = (row["document_id"], tuple(heading))
            # its signature's passage: not one of only the doc comment above it
            rank = (_only_comments(row["text"]), row["ordinal"])
            if key not in first or rank < (_only_comments(rows[first[key]]["text"]),
                                           rows[first[key]]["ordinal"]):
                first[key] = pid
    lifted = set(first.values())
    lift = 1.0 + TUNING.definition
    return [(pid, score * lift if pid in lifted else score) for pid, score in hits], lifted


_COMMENT_LINE = lazy(r"\s*(?://|/\*|\*|#|--)")


def _only_comments(text: str) -> bool:
    """Is a passage only comment (and attribute) lines: a long doc comment cut from
    the definition it stands above (`/** … */`, `///`, `#[derive(…)]`)?"""
    return all(_COMMENT_LINE.match(line) for line in text.splitlines() if line.strip())


def _title_boosts(marks: Dict[int, "_Marks"], words: Set[str]) -> Dict[int, float]:
    """Per document, 1 + TUNING.title_boost × the share of the query's words (stems) in its
    title; times `TUNING.listing` for a collection's index or table of contents."""
    lift, n = TUNING.title_boost, max(1, len(words))
    # A stem keeps its word's first character, so only the title words that begin as a
    # query stem does can stem to one: only those are stemmed (a fresh process, as a
    # command is, stemmed every word of some hundred titles).
    firsts = {w[:1] for w in words}
    boosts = {}
    for d, m in marks.items():
        factor = TUNING.listing if m.listing else 1.0
        shared = words.intersection([stem(w) for w in m.words if w[:1] in firsts])
        # Most titles share no word with the query: their boost is the listing factor
        # alone (1.0 + 0.0 times it, the same float).
        boosts[d] = (1.0 + lift * len(shared) / n) * factor if shared else factor
    return boosts


class _Marks(NamedTuple):
    """What ranking reads of a candidate document's title and path (`_marks`)."""

    words: Tuple[str, ...]  # the title's words and their search forms
    listing: bool           # titled as an index or a table of contents
    release_notes: bool     # titled or filed as release notes
    tests: bool             # a test file
    code: bool              # a source file
    legal: bool             # a licence or copyright notice
    style: bool             # a style sheet
    language: Optional[str]  # the language its path names (`gnucash-guide-de/`), if any


@functools.lru_cache(maxsize=8192)
def _marks(title: str, path: str) -> _Marks:
    """A document's `_Marks`, kept per title and path: a long-lived process (REPL, MCP)
    sees the same documents often, and one lookup per candidate costs less than one
    for each thing read of it (about 100 documents a question)."""
    return _Marks(tuple(words_of(title)), is_listing_title(title),
                  is_release_notes_title(title) or is_release_notes_path(path),
                  is_test_path(path), is_code_path(path), is_legal_notice(title, path),
                  is_style_sheet(path), path_hint(path))


def _coverage(text: str, query: Query, weights: Weights) -> float:
    """`TUNING.cover_floor` to 1.0: the share of the query's rarity-weighted terms in the passage text."""
    if len(query.terms) < 2:
        return 1.0
    return TUNING.cover_floor + (1 - TUNING.cover_floor) * weights.share(text)


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
    found = [(labels[i], syn) for i, syn in expansions if store.fulltext.matching([syn], lo, hi)]
    hit.matched_synonyms = [(word, t.label) for word, t in found if t.tokens not in query.forms]
    hit.matched_forms = [(word, t.label) for word, t in found if t.tokens in query.forms]


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

def past_end_notice(count: int) -> str:
    """A page past the last result is not "nothing matches": say where the results end."""
    found = "1 result" if count == 1 else f"{count:,} results"
    return f"the offset is past the last result: this search has {found}"


def short_prefix_notice(typed: str) -> str:
    """Why `c*` found no words that start with c (what was searched is in `terms`)."""
    return (f"{typed!r} is too short to search as a prefix "
            f"({MIN_PREFIX_LEN} letters or more before the *)")


def filter_notices(store: Store, filters: Filters) -> List[str]:
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
