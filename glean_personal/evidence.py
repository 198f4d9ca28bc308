"""What a passage holds of a query: each term's weight by rarity, and the passage's share.

The evidence is exact, per term: a term counts when a word of the passage has
its stem (a phrase, when the stems are adjacent; a `word*`, when a stem
starts with it), the rule `--explain` reports. The share ranks the leaders
(coverage) and, with the rule on few words, is a hit's match strength.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Set, Tuple

from .analysis import (alt_text, ascii_equivalent, camel_words, has_identifiers, identifier_parts,
                       search_spans, stem, tokenize)
from .kinds import is_release_notes_path, is_release_notes_title
from .query import Query, Term, is_filler, is_request, main_clause
from .snippets import _Heads
from .store.core import Store
from .synonyms import same_word

if TYPE_CHECKING:
    from .search import SearchTuning


def words_of(text: str) -> Set[str]:
    """The text's distinct words and their search forms (as the index holds them, before
    they are stemmed)."""
    return set(_search_words(text))


def _search_words(text: str) -> List[str]:
    """The text's tokens and their search forms (the extra column's words)."""
    if text.isascii() and not has_identifiers(text):
        return tokenize(text)
    return [tok for _, _, tok in search_spans(text)]


def _alt_tokens(text: str) -> List[str]:
    """The words the index holds for the text in its search-form column (folded words,
    CJK bigrams, identifier parts: `alt_text`), in their order; [] when there are none."""
    if text.isascii() and not has_identifiers(text):
        return []
    return tokenize(alt_text(text))


def _term_in(term: Term, stems: Set[str], joined: str) -> bool:
    wanted = term.stems()
    if all(s in stems for s in wanted):
        return True
    return term.prefix and all(s in stems for s in wanted[:-1]) and "\n" + wanted[-1] in joined


def _without_bulky_notes(store: Store, terms: Sequence[Term], dfs: List[int], total: int,
                         share: float) -> Tuple[List[int], int, List[Tuple[int, int]]]:
    """Passage counts (per term, and in all) with each release-notes document that holds
    `share` or more of the index's passages counted as one passage, and those
    documents' passage-id ranges.

    Release notes name every command and option in passing, release after
    release: Git's manual as installed carries its 3,716-passage shortlog, 43% of
    the index, in which *blame* heads 253 passages. Counted passage by passage,
    *blame* was then as common as *source*, and a question about who wrote each
    line was answered by pages about rows and records.
    """
    if not share or not any(dfs):
        return dfs, max(1, total), []
    notes = [(lo, hi) for title, path, lo, hi in store.long_documents(max(2, math.ceil(share * total)))
             if lo <= hi and (is_release_notes_title(title) or is_release_notes_path(path))]
    if not notes:
        return dfs, max(1, total), notes
    held = [i for i, df in enumerate(dfs) if df]
    inside = dict(zip(held, store.fulltext.frequencies_within([terms[i] for i in held], notes)))
    # What the notes held of a term counts once (at most one passage for them all).
    dfs = [df - inside[i] + min(1, inside[i]) if df else 0 for i, df in enumerate(dfs)]
    return dfs, max(1, total - sum(hi - lo + 1 for lo, hi in notes) + 1), notes


class Weights:
    """Each query term's weight by its rarity in the index, and a passage's match strength.

    A term's weight is its BM25 inverse document frequency over passages. A
    word the index does not know weighs `absent_weight` times the rarest known
    one, so a hit that rests on a query's commoner words shows a low strength. Terms
    joined by OR are one slot: the passage covers it with any of them.
    """

    def __init__(self, store: Store, query: Query, tuning: "SearchTuning") -> None:
        self.query = query
        self.tuning = tuning
        terms = query.terms
        wanted = query.expansions if self.tuning.synonyms else []
        searched = terms + [t for _, t in wanted]
        dfs = store.fulltext.frequencies(searched) if terms else []
        passages = store.passage_count()
        # The bulky release notes' passage ranges (`_without_bulky_notes`), for ranking.
        dfs, total, self.notes = _without_bulky_notes(store, searched, dfs, passages,
                                                      self.tuning.bulky_notes)
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
        unknown = self.tuning.absent_weight * max(known, default=1.0)
        self.term = [math.log(1 + (total - df + 0.5) / (df + 0.5)) if df else unknown
                     for df in dfs]
        self.slots = query.slots()
        self.slot = [max(self.term[i] for i in group) for group in self.slots]
        # For strength, a request word the query kept (*need* of *what gloves do we
        # need*: too few other words to drop it) weighs nothing beside another word.
        asks = [all(is_request(terms[i]) for i in group) for group in self.slots]
        # So does a word that names nothing (*going*, *nobody*) when the index lacks
        # it: unknown, it would weigh twice the rarest word, and its absence says
        # nothing of what the passage is about. Held, it counts as any word.
        if self.tuning.unheld_fillers:
            asks = [a or all(not dfs[i] and is_filler(terms[i]) for i in group)
                    for a, group in zip(asks, self.slots)]
        self.asks = asks = asks if not all(asks) else [False] * len(asks)
        self.held_slot = [0.0 if a else w for w, a in zip(self.slot, asks)]
        top = max(self.held_slot, default=0.0)
        self.rare = [w >= self.tuning.rare * top for w in self.held_slot]
        self.total = sum(self.slot)
        self.held_total = sum(self.held_slot)
        self.heads = _Heads(s for t in self.terms for s in t.stems())
        self.sequence = any(t.is_phrase and not t.prefix for t in self.terms)   # needs word order
        # Each slot's synonyms (indexes into self.terms).
        # Each of the query's own terms (by index) to its slot.
        self.slot_of = slot_of = {i: k for k, group in enumerate(self.slots) for i in group}
        self.synonyms_of: List[List[int]] = [[] for _ in self.slots]
        for j, (i, _) in enumerate(self.expansions):
            self.synonyms_of[slot_of[i]].append(len(terms) + j)
        # Another form of the word (wordforms.py) holds it as the word itself does.
        self.forms = {len(terms) + j for j, (_, t) in enumerate(self.expansions)
                      if t.tokens in query.forms}
        # For strength, a synonym the thesaurus gives as the same word (`folder =
        # directory`) holds it in full (`synonym_same`); one an everyday word only
        # expands to (`rid > remove`), `synonym_strength` of it.
        self.same = {len(terms) + j for j, (i, t) in enumerate(self.expansions)
                     if len(terms) + j not in self.forms and not terms[i].prefix
                     and same_word(" ".join(terms[i].tokens), t.tokens)}
        self._seen: Dict[Tuple[str, bool], List[bool]] = {}
        self._line_stems: Dict[Tuple[str, bool], Set[str]] = {}
        self._parts_of: Dict[str, Set[str]] = {}
        self._parts_held: Optional[Set[str]] = None
        self.prefixed = any(t.prefix for t in self.terms)
        self._needs = [(frozenset(t.stems()), t.prefix, frozenset(t.stems()[:-1]),
                        "\n" + t.stems()[-1] if t.prefix and t.stems() else "")
                       for t in self.terms]
        # The query's words, for strength: each slot by its words as typed (its first
        # term), so that a name typed as one word (`PostgreSQL`) counts one word,
        # though it is searched as its parts too (*postgre sql*).
        # A question's subordinate clause (*… before sending them*, *… when I leave*):
        # the slots of the words it alone holds. For strength a passage that lacks
        # one of them lacks `clause_share` of its weight, and the words held are
        # counted against the main clause's words (docs/search.md, "The
        # circumstances of a request").
        self.clause = self._clause_slots(query, asks)
        words: Set[str] = set()
        for k, (group, a) in enumerate(zip(self.slots, asks)):
            if not a and k not in self.clause:
                words.update(terms[group[0]].stems())
        # Small by the index's own size, the notes counted whole (the same for every search).
        self.small = max(1, passages) < self.tuning.small_index
        self.need = min(self.tuning.small_strength_words if self.small
                        else self.tuning.strength_words, len(words))
        # Short words whose stem is a two-letter clip of them (lfs -> lf): for
        # strength, only a passage word at least as long counts (LF is not LFS).
        self.clipped = {i: t.tokens[0] for i, t in enumerate(terms)
                        if not t.is_phrase and not t.prefix
                        and len(t.stems()[0]) <= 2 < len(t.tokens[0])}

    def _clause_slots(self, query: Query, asks: Sequence[bool]) -> Set[int]:
        """The slots whose words only a subordinate clause of the question holds
        (`query.main_clause`), when the main clause holds two or more slots that
        weigh; else none."""
        if self.tuning.clause_share >= 1 or not query.sentence:
            return set()
        main = main_clause(tokenize(query.text))
        if main is None:
            return set()
        terms = query.terms
        clause = {k for k, (group, a) in enumerate(zip(self.slots, asks))
                  if not a and main.isdisjoint(terms[group[0]].tokens)}
        weighing = sum(not a for a in asks) - len(clause)
        return clause if clause and weighing >= 2 else set()

    def present(self, text: str, forms: bool = False) -> List[bool]:
        """Which terms the text holds, by stem (a phrase by adjacent stems)."""
        return self.present_in([text], forms)

    def present_in(self, lines: Sequence[str], forms: bool = False) -> List[bool]:
        """Which terms the lines joined by newlines hold (a passage's headings and text).

        With `forms`, a term also counts when the search form of the text holds it
        (`alt_text`: `Αθήνα` holds *αθηνα*, `東京都` holds *東京*, `parseArgs`
        holds *parse* and *args*), as the index matches it and `--explain` reports
        it: match strength reads the passage so. The coverage rerank does not
        (its figures were measured without; with them, six golden sets moved by
        0.001-0.004 nDCG@10, some down).

        Without a phrase, and in ASCII (or text whose other characters are all
        separators: `ascii_equivalent`), which stems a text holds is all that
        counts, and no word spans a newline: each line's stems are found once
        and kept, as the coverage rerank reads a passage's text and match
        strength reads it again under its headings.
        """
        plain = [] if self.sequence else [line if line.isascii() else ascii_equivalent(line)
                                          for line in lines]
        self._parts_held = None   # unknown, unless read below
        if self.sequence or None in plain:
            return self._present_in_tokens("\n".join(lines), forms)
        if len(plain) == 1:
            stems = self._ascii_stems(plain[0], forms)
        else:
            stems = set().union(*(self._ascii_stems(line, forms) for line in plain))
        if forms:   # the stems only a code name's parts hold here (`_lone_parts_out`)
            parts = [self._parts_of[line] for line in plain if self._parts_of.get(line)]
            self._parts_held = (set().union(*parts).difference(
                *(self._ascii_stems(line) for line in plain)) if parts else set())
        joined = "\n" + "\n".join(stems) if self.prefixed else ""
        # _term_in, with each term's stems as sets made once
        return [need <= stems or (prefix and head <= stems and last in joined)
                for need, prefix, head, last in self._needs]

    def _ascii_stems(self, line: str, forms: bool = False) -> Set[str]:
        """The stems of an ASCII line's words that may be query stems (only words that
        begin as a query stem does are worth stemming: _heads), with `forms` those of
        its code names' parts too; kept per line."""
        key = (line, forms)
        stems = self._line_stems.get(key)
        if stems is None:
            if not forms:
                stems = set(map(stem, self.heads.words(line.lower())))
            else:   # the plain words' stems (kept from the coverage rerank), and the parts
                stems = self._ascii_stems(line)
                parts: Set[str] = set()
                if has_identifiers(line):
                    may = self.heads.may_stem_to
                    parts = {stem(tok) for tok in _alt_tokens(line) if may(tok)} - stems
                    stems = stems | parts
                self._parts_of[line] = parts   # what only a code name's parts hold
            if len(self._line_stems) < 512:
                self._line_stems[key] = stems
        return stems

    def _present_in_tokens(self, text: str, forms: bool = False) -> List[bool]:
        """`present_in` for text with a phrase to find in order, or not in ASCII."""
        known = self._seen.get((text, forms))
        if known is not None:
            return known
        alt = _alt_tokens(text) if forms else []
        if forms and not alt:   # no search forms: what the plain words hold (kept)
            return self._present_in_tokens(text)
        terms = self.terms
        toks = tokenize(text)
        if text.isascii():   # the tokens that begin as a query stem does, found by pattern
            stem_of = {tok: stem(tok) for tok in self.heads.words(text.lower())}
        else:
            heads, firsts = self.heads.heads, self.heads.firsts   # _Heads.may_stem_to, inlined
            stem_of = {tok: stem(tok) for tok in set(toks)
                       if tok.startswith(heads) or (tok[:1] in firsts and not tok.isascii())}
        # The index matches a term in the search-form column too (`Αθήνα` as *αθηνα*,
        # `東京都` as *東京 京都*, `parseArgs` as *parse args*): so does the evidence.
        runs = [toks]
        if alt:
            may = self.heads.may_stem_to
            stem_of.update((tok, stem(tok)) for tok in set(alt) if tok not in stem_of and may(tok))
            runs.append(alt)
        stems = set(stem_of.values())
        joined = "\n" + "\n".join(stems)
        out = []
        for t in terms:
            if t.is_phrase and not t.prefix:
                want = t.stems()
                n = len(want)
                found = all(s in stems for s in want) and any(
                    tuple(stem_of.get(x, "") for x in run[i:i + n]) == want
                    for run in runs
                    for i in range(len(run) - n + 1) if stem_of.get(run[i]) == want[0])
                out.append(found)
            else:
                out.append(_term_in(t, stems, joined))
        if len(self._seen) < 256:
            self._seen[(text, forms)] = out
        return out

    def share(self, text: str) -> float:
        if not self.total:
            return 0.0
        have = self.present(text)
        return sum(w * self._credit(have, k, self.tuning.synonym_cover)
                   for k, w in enumerate(self.slot)) / self.total

    def _credit(self, have: Sequence[bool], k: int, synonym: float,
                same: Optional[float] = None) -> float:
        """1 when the text holds slot k's own word, `synonym` when only a synonym of it
        (`same`, when given, for a synonym that is the same word: `self.same`)."""
        for i in self.slots[k]:
            if have[i]:
                return 1.0
        best = 0.0
        for j in self.synonyms_of[k]:
            if have[j]:
                if j in self.forms:
                    return 1.0
                best = max(best, same if same is not None and j in self.same else synonym)
        return best

    def strength(self, text: str, lines: Optional[Sequence[str]] = None
                 ) -> Tuple[float, bool, bool]:
        """(match strength of the text, whether it holds every rare slot, whether the
        words it holds rarely meet); `lines`, when given, are the text's lines
        (`present_in`).

        The strength is the share of the slots' weight the text holds, scaled
        by `few_words_factor` when the text holds fewer than
        `strength_words` of the query's words (all, for a shorter
        query): one or two words in common are often chance.

        The words rarely meet when the text holds `strength_words` or more of the
        query's slots whose weights (as they count for strength) sum to at least
        log N + `together_margin`, N the passages the weights are counted over. A
        weight is about log(N / df), so were words independent, N · Π df/N, under
        e^-together_margin, passages would hold them all by chance: a long question
        whose other words the text lacks (everyday words a manual never uses) may
        still have its answer here.
        """
        if not self.held_total:
            return 0.0, False, False
        have = list(self.present_in(lines, True) if lines else self.present(text, True))
        if lines is not None:
            self._lone_parts_out(have, lines)
        if any(have[i] for i in self.clipped):
            toks = set(tokenize(text))
            for i, word in self.clipped.items():
                if have[i]:
                    clip = self.query.terms[i].stems()[0]
                    have[i] = any(len(tok) >= len(word) and tok[:1] == clip[:1]
                                  and stem(tok) == clip for tok in toks)
        credit = [self._credit(have, k, self.tuning.synonym_strength, self.tuning.synonym_same)
                  for k in range(len(self.slots))]
        covered = [c > 0 for c in credit]
        weight = sum(w * c for w, c in zip(self.held_slot, credit))
        total = self.held_total
        if self.clause:   # a circumstance the passage lacks weighs less
            total -= (1 - self.tuning.clause_share) * sum(
                self.held_slot[k] for k in self.clause if not covered[k])
        got = weight / total
        held: Set[str] = set()   # the query's words held, each slot's as typed (`words`)
        for k, group in enumerate(self.slots):
            if not self.asks[k] and covered[k]:   # by any alternative or synonym of it
                held.update(self.query.terms[group[0]].stems())
        if len(held) < self.need:
            got *= self.tuning.few_words_factor
        rare_ok = all(c for c, r in zip(covered, self.rare) if r)
        margin = self.tuning.together_margin
        together = (margin > 0
                    and sum(c and not a for c, a in zip(covered, self.asks))
                    >= self.tuning.strength_words
                    and weight >= math.log(max(2, self.passages)) + margin)
        return got, rare_ok, together

    def _lone_parts_out(self, have: List[bool], lines: Sequence[str]) -> None:
        """Unmark each word `have` (as `present_in(lines, True)` just read it) holds
        only as a part of a code name that holds no other word of the query:
        `XMLHttpRequest` is no evidence for *request*, where `parseArgs` is for
        *parse args* (both its parts asked for)."""
        held = self._parts_held
        if held is not None and not held:
            return   # the common case: no code name's part held a word here
        if held is None:   # read as tokens: which words only the search forms hold
            plain = self.present_in(lines)
            maybe = [i for i, (h, p) in enumerate(zip(have, plain)) if h and not p]
        else:
            maybe = [i for i, h in enumerate(have) if h and self.terms[i].stems()[-1:] and
                     self.terms[i].stems()[-1] in held]
        maybe = [i for i in maybe if not (self.terms[i].is_phrase or self.terms[i].prefix)
                 and self.terms[i].stems()]
        if not maybe:
            return
        alone = self._lone_parts(lines)
        for i in maybe:
            if self.terms[i].stems()[0] in alone:
                have[i] = False

    def _lone_parts(self, lines: Sequence[str]) -> Set[str]:
        """The query's stems that a code name of the lines has for a part with no other
        of the query's stems among its parts (and no code name has beside another)."""
        wanted = {t.stems()[0] for t in self.terms if not t.is_phrase and t.stems()}
        paired: Set[str] = set()
        alone: Set[str] = set()
        for line in lines:
            line = line if line.isascii() else ascii_equivalent(line)
            if line is None or not has_identifiers(line):
                continue
            for _, _, word in camel_words(line):
                mine = {s for s in map(stem, identifier_parts(word)) if s in wanted}
                (paired if len(mine) >= 2 else alone).update(mine)
        return alone - paired

    def scattered(self, lines: Sequence[str], window: int) -> bool:
        """Whether a passage (its headings, then its text: `lines`) holds the query's
        words only far apart: `strength_words` or more of the query's slots, no two
        of them within `window` words of each other in its text.

        Words that a question shares with a long passage by chance lie apart (a
        cookbook's one passage holding *django*, *admin*, *custom*, *list* and
        *filter* in five different sentences); an answer holds two of them
        together somewhere. A slot the headings hold is near every word, and a
        slot whose words cannot be placed in the text (a code name read in
        parts, say) is taken as near too: only words all found apart make a
        passage scattered. Only the query's own words count, not its synonyms.
        Match strength is not changed by it; a surface that quotes passages
        (/chat) may pass these over.
        """
        need = self.tuning.strength_words
        if window <= 0 or len(self.slots) < need or not lines:
            return False
        own = len(self.query.terms)   # the query's own words; its synonyms come after
        have = self.present_in(lines)[:own]
        slot_of = self.slot_of
        held = {slot_of[i] for i, h in enumerate(have) if h}
        if len(held) < need:
            return False
        if len(lines) > 1 and any(self.present_in(lines[:-1])[:own]):
            return False
        toks = tokenize(lines[-1])
        places: Dict[str, List[int]] = {}
        may = self.heads.may_stem_to
        stem_of = {tok: stem(tok) for tok in set(toks) if may(tok)}
        for pos, tok in enumerate(toks):
            s = stem_of.get(tok)
            if s is not None:
                places.setdefault(s, []).append(pos)
        found: List[Tuple[int, int]] = []   # (position, slot)
        for k in held:
            at = [p for i, h in enumerate(have) if h and slot_of[i] == k
                  for p in self._positions(self.terms[i], places, stem_of, toks)]
            if not at:
                return False
            found.extend((p, k) for p in at)
        found.sort()
        return all(b[0] - a[0] >= window for a, b in zip(found, found[1:]) if a[1] != b[1])

    @staticmethod
    def _positions(term: Term, places: Dict[str, List[int]], stem_of: Dict[str, str],
                   toks: Sequence[str]) -> List[int]:
        """Where in the tokens a term begins (a phrase where its stems follow in order;
        a `word*` where a stem starts with it)."""
        want = term.stems()
        if not want:
            return []
        last = len(want) - 1

        def fits(pos: int, j: int) -> bool:
            s = stem_of.get(toks[pos]) if pos < len(toks) else None
            if s is None:
                return False
            return s.startswith(want[j]) if term.prefix and j == last else s == want[j]

        if term.prefix and last == 0:
            return sorted(p for s, ps in places.items() if s.startswith(want[0]) for p in ps)
        return [p for p in places.get(want[0], [])
                if all(fits(p + j, j) for j in range(1, last + 1))]
