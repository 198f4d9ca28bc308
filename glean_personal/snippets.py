"""Where a query's words are in a passage: the matcher behind snippets, and the snippet.

A word matches by its stem (a `word*` by its beginning, a CJK word as
written), exactly as the index matched it; only the words that begin as a
query stem does are stemmed (`_Heads`), so a long passage costs little.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from .analysis import ascii_equivalent, bigram_chain, identifier_spans, search_spans, stem
from .query import Query, Term
from .records import Record

SNIPPET_CHARS = 260   # a snippet's width


class Snippet(Record):
    text: str
    ranges: List[Tuple[int, int]]
    ordinal: int = 0

    def to_dict(self) -> dict:
        return {"text": self.text, "snippet": self.text,
                "ranges": [{"startIndex": a, "endIndex": b} for a, b in self.ranges]}


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
    cuts it) that begin with one of `heads`, found at C speed, in the text as `_spaced`
    gives it; None when no head is ASCII."""
    plain = sorted(h for h in heads if h.isascii())
    if not plain:
        return None
    # A token begins the text or follows a separator, and `_spaced` makes every
    # separator a space and puts one before the text: the pattern starts with that
    # space, which the engine finds faster than a character class (a look-behind
    # would be tried at every position).
    return re.compile(" ((?:%s)[0-9a-z]*)" % "|".join(map(re.escape, plain)))


# Each byte but [0-9a-z] made a space (bytes.translate: str.translate took three
# times as long as the search itself).
_SPACES = bytes.maketrans(bytes(range(256)), bytes(
    c if c in b"0123456789abcdefghijklmnopqrstuvwxyz" else 32 for c in range(256)))


def _spaced(low: str) -> str:
    """Lower-cased text with a space before it and in place of each character that is
    not [0-9a-z] (each other character, ASCII or not, separates tokens)."""
    return (b" " + low.encode("ascii", "replace").translate(_SPACES)).decode("ascii")


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
            found = set(self.finder.findall(_spaced(low))) if self.finder else set()
            if len(self._words) < 512:
                self._words[low] = found
        return found


class Matcher:
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
        if plain is None:   # a mark ends after the combining marks on its last letter
            marks = [(start, _whole_end(text, end), idx) for start, end, idx in marks]
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


def snippet(text: str, matcher: Matcher, ordinal: int = 0,
            width: int = SNIPPET_CHARS) -> Snippet:
    """The densest window of matched terms, cut at word boundaries, with match ranges."""
    marks = matcher.positions(text)
    if not marks:
        cut = _cut_end(text, min(len(text), width))
        return Snippet(text[:cut].strip(), [], ordinal)
    first, stop, _ = marks[_densest(marks, width)]
    start = max(0, first - width // 4)
    start = _cut_start(text, start)
    # a narrow width (`SearchTuning.snippet_chars`) still shows the first matched word:
    # the start may step back to a space up to 30 characters before the window
    end = max(_cut_end(text, min(len(text), start + width)), stop)
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


# Where text with no spaces (Chinese, Japanese) may be cut: after its punctuation.
_CJK_BREAK_RE = re.compile("[\u3000-\u3003\u300d\u300f\u3011\uff01\uff09\uff0c\uff0e\uff1a\uff1b\uff1f\n]")


def _last_break(text: str, low: int, high: int) -> int:
    """The position after the last CJK punctuation mark (or line break) in text[low:high], or -1."""
    found = -1
    for m in _CJK_BREAK_RE.finditer(text, low, high):
        found = m.end()
    return found


def _joined_on(text: str, pos: int) -> bool:
    """Does the character at `pos` belong to the one before it (a combining mark, a
    variation selector, or what a zero-width joiner joins)?"""
    if pos <= 0 or pos >= len(text) or text[pos].isascii():
        return False
    return (unicodedata.category(text[pos]) in ("Mn", "Me", "Mc")
            or text[pos - 1] == "\u200d" or text[pos] == "\u200d")


def _whole_end(text: str, end: int) -> int:
    """`end`, moved past the characters that belong to the one before it."""
    while _joined_on(text, end):
        end += 1
    return end


def _cut_start(text: str, pos: int) -> int:
    if pos <= 0:
        return 0
    space = text.rfind(" ", max(0, pos - 30), pos)
    if space >= 0:
        return space + 1
    after = _last_break(text, max(0, pos - 30), pos + 1)
    if after >= 0:
        return after
    while _joined_on(text, pos):   # not between a letter and its marks
        pos -= 1
    return pos


def _cut_end(text: str, pos: int) -> int:
    if pos >= len(text):
        return len(text)
    space = text.rfind(" ", max(0, pos - 30), pos)
    if space > 0:
        return space
    after = _last_break(text, max(0, pos - 30), pos)
    return after if after > 0 else _whole_end(text, pos)
