"""Text analysis shared by indexing and querying: normalize, tokenize, stem.

The FTS5 store indexes with SQLite's ``porter unicode61 remove_diacritics 2``
tokenizer.  Everything else -- the plain store's scorer, the query parser,
snippets, highlighting and the content graph -- tokenizes here in Python, so
this module reproduces that tokenizer exactly: the same token boundaries, the
same folding, the same stems.  A term then means one thing in both stores.

The pipeline is a chain of small pure functions, used the same way at index
and query time::

    normalize(text) -> tokenize(text) / token_spans(text) -> stem(token)
                       terms(text) = [stem(t) for t in tokenize(text)]

unicode61 classifies characters with its own Unicode tables, not Python's
``unicodedata``; unicode61.py holds them, read off SQLite.

Speed: tokenizing maps every character in C (``bytes.translate`` for ASCII,
one ``str.translate`` per run of non-ASCII characters) and splits on spaces;
there is no per-character Python code.
"""
from __future__ import annotations

import functools
import re
import unicodedata
from typing import Dict, FrozenSet, List, Optional, Sequence, Tuple

from .patterns import lazy
from .porter import stem as _porter_stem
from .unicode61 import (ASCII_CONTROL_RE, ASCII_SPLIT, ASCII_TOKEN_RE, ASTRAL_RE, MARKS, NON_ASCII_RE,
                        ascii_lower, code_points, tables)

__all__ = [
    "STOPWORDS",
    "alt_text",
    "ascii_equivalent",
    "bigram_chain",
    "fold",
    "has_identifiers",
    "identifier_parts",
    "identifier_phrases",
    "is_stopword",
    "normalize",
    "search_spans",
    "search_tokens",
    "stem",
    "terms",
    "token_spans",
    "tokenize",
    "unmark",
]


def normalize(text: str) -> str:
    """Clean text once, before it is stored or tokenized (documents and queries).

    * Format characters (Unicode category Cf: bidi controls, soft hyphen,
      zero-width (non-)joiners, word joiner, BOM, tags...) are removed: they
      are invisible, yet unicode61 glues the words around some of them into
      one token (U+2066..U+2069, U+061C and other Cf it does not know) and
      splits a word at others (the soft hyphen).  The zero-width space
      U+200B becomes a space: it separates words.
    * Control characters other than tab, newline and carriage return (C0
      with NUL, DEL, C1) become spaces.
    * Lone surrogates (from bad bytes, or file names decoded with
      ``surrogateescape``) become U+FFFD, so sqlite3 can always encode it.
    * The result is NFC, so composed and decomposed spellings of a word (a
      typed query, a macOS file name) give the same tokens.
    """
    if text.isascii():
        if ASCII_CONTROL_RE.search(text) is None:
            return text
        return ASCII_CONTROL_RE.sub(" ", text)
    u = tables()
    if u.clean_re.search(text) is not None:
        text = u.clean_re.sub(u.clean_run, text)
    if ASTRAL_RE.search(text) is not None and not u.astral_format.isdisjoint(
        ASTRAL_RE.findall(text)
    ):
        text = ASTRAL_RE.sub(u.drop_astral_format, text)
    if not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    return text


def tokenize(text: str) -> List[str]:
    """Folded tokens of ``text`` with unicode61's boundaries; not stemmed.

    A token is a maximal run of letters, digits and private-use characters
    (by SQLite's tables).  The accents U+0300..U+0331 that SQLite strips
    continue a token but never start one.  Tokens are lower-cased and
    stripped of diacritics the way SQLite does it (see ``fold``).
    """
    if text.isascii():
        return text.encode("ascii").translate(ASCII_SPLIT).decode("ascii").split()
    plain = ascii_equivalent(text)
    if plain is not None:
        return plain.encode("ascii").translate(ASCII_SPLIT).decode("ascii").split()
    raw = text.encode("utf-8", "surrogatepass")
    spaced = raw.translate(ASCII_SPLIT).decode("utf-8", "surrogatepass")
    # Mostly-ASCII text: visit each non-ASCII run; dense text: only the
    # characters that change (scanning the bigger class costs more per char).
    # A short text (a query word) is not worth compiling the bigger class for.
    u = tables()
    runs = u.split_run_re if len(raw) > 1.25 * len(text) > 100 else NON_ASCII_RE
    return runs.sub(u.split_run, spaced).split()


def token_spans(text: str) -> List[Tuple[int, int, str]]:
    """``(start, end, token)`` per token, so that ``text[start:end]`` is its source.

    Offsets index the ``str`` (code points), not UTF-8 bytes as in FTS5, so
    they slice the text directly for snippets and highlights.  The tokens
    are exactly ``tokenize(text)``.
    """
    if not text.isascii():
        text = ascii_equivalent(text) or text
    if text.isascii():
        return [(m.start(), m.end(), m.group()) for m in ASCII_TOKEN_RE.finditer(text.lower())]
    low = ascii_lower(text)  # same length as text
    u = tables()
    if ASTRAL_RE.search(low) is not None:
        low = ASTRAL_RE.sub(u.astral_separator_to_space, low)
    fold_table = u.fold
    return [
        (m.start(), m.end(), tok if tok.isascii() else tok.translate(fold_table))
        for m in u.span_re.finditer(low)
        for tok in (m.group(),)
    ]


@functools.lru_cache(maxsize=1 << 17)
def stem(token: str) -> str:
    """FTS5's porter stem of one folded token (cached: vocabularies repeat)."""
    return _porter_stem(token)


def terms(text: str) -> List[str]:
    """Stems of the tokens of ``text``: what the FTS5 store indexes for it."""
    tokens = tokenize(text)
    stems = {tok: stem(tok) for tok in set(tokens)}
    return list(map(stems.__getitem__, tokens))


def fold(text: str) -> str:
    """Lower-case ``text`` and strip diacritics exactly as tokens are folded.

    For comparing titles and headings.  It is SQLite's fold, not
    ``str.casefold``: it keeps ``ß``, folds Greek and Cyrillic case but
    strips diacritics from Latin letters only, and drops the combining
    accents U+0300..U+0331.
    """
    if text.isascii():
        return text.lower()
    return NON_ASCII_RE.sub(tables().fold_run, ascii_lower(text))


def fold_all(text: str) -> str:
    """`fold` after `unmark`: case and the marks of every script folded (`Ёлка` ->
    `елка`, `Αθήνα` -> `αθηνα`, `Crème` -> `creme`), as search forms fold them."""
    return fold(unmark(text))


def is_stopword(token: str) -> bool:
    """True for an English function word, which says nothing about a topic."""
    return token in STOPWORDS or fold(token) in STOPWORDS


STOPWORDS: FrozenSet[str] = frozenset(
    """
    a about above after again against all am an and any are as at be because
    been before being below between both but by can could did do does doing
    down during each either few for from further had has have having he her
    here hers herself him himself his how i if in into is it its itself just
    let me more most my myself neither no nor not now of off on once only or
    other ought our ours ourselves out over own same shall she should so some
    such than that the their theirs them themselves then there these they this
    those through to too under until up upon very was we were what when where
    which while who whom whose why will with within without would you your
    yours yourself yourselves
    s t d ll m re ve don doesn didn isn aren wasn weren hasn haven hadn
    wouldn shouldn couldn
    """.split()
)
"""English function words as folded tokens: pronouns, articles, auxiliaries,
prepositions, conjunctions, and the pieces contractions split into
(``don't`` -> ``don``, ``t``).  No domain words, and not stems."""


# --- Search forms: what unicode61 alone cannot match ------------------------
#
# Three kinds of words are not found by their tokens alone:
#
# * Chinese, Japanese and Korean run words together: unicode61 makes
#   `東京都の渋谷区に行きました` one token, so `東京` matches nothing.  Their
#   search form is the token's overlapping character bigrams (a run of one
#   character stays as it is), so any substring of two or more characters is
#   a phrase of bigrams.
# * unicode61 strips diacritics from Latin letters only: `Αθήνα` keeps its
#   tonos and `ёлка` its diaeresis, so `αθηνα` and `елка` miss.  Their search
#   form is NFKC (full-width letters, ligatures, compatibility ideographs),
#   then the combining marks of Latin, Greek, Cyrillic, Hebrew and Arabic
#   removed (`unmark`), then tokenized as usual.
# * Identifiers glue words: `parseArgs` is the one token `parseargs`.  Its
#   search form is its parts, `parse args`, cut where the case changes
#   (`parse_args` and `parse-args` are already two tokens).
#
# The store indexes each field's search form in an extra column (empty for
# most English text), and a query word is looked up by its search form, so
# both sides fold the same way.  A field with any token of the first two
# kinds gets its whole token stream in search form, so that a phrase of
# folded words stays a phrase; a field whose only such tokens are
# identifiers gets just their parts.  The full-text index keeps no copy of
# this text: the FTS5 store reads it back through `alt_text`, so the forms
# must not change without a schema migration that rebuilds the index.


def alt_text(text: str) -> str:
    """What the extra full-text column holds for a field: '' when nothing differs."""
    plain = text if text.isascii() else ascii_equivalent(text)
    if plain is not None:   # only identifiers can differ: their parts
        return " ".join(part for _, _, word in camel_words(plain)
                        for part in identifier_parts(word))
    stream: List[str] = []
    parts: List[str] = []
    whole = False
    for _start, _end, token, pieces, kind in _forms_of(text):
        if kind <= 0:
            if kind == 0:
                stream.append(token)
            continue
        stream.extend(pieces)
        if kind == _IDENTIFIER:
            parts.extend(pieces)
        else:
            whole = True
    return " ".join(stream if whole else parts)


def has_identifiers(text: str) -> bool:
    """Does the text hold a word whose case changes inside it (`parseArgs`)?"""
    return _CAMEL_HINT_RE.search(text) is not None and bool(camel_words(text))


def camel_words(text: str) -> List[Tuple[int, int, str]]:
    """(start, end, word) of each ASCII word of the text whose case changes inside it.

    A capital letter after a letter or digit is rare in prose, so the scan
    stops at few places, where the word around it is checked.
    """
    out: List[Tuple[int, int, str]] = []
    end = -1
    for m in _CAMEL_HINT_RE.finditer(text):
        if m.start() < end:
            continue   # inside the word just checked
        start = m.start()
        while start > 0 and text[start - 1] in _ASCII_ALNUM:
            start -= 1
        end = _ASCII_WORD_RE.match(text, m.start()).end()
        word = text[start:end]
        if _CAMEL_RE.search(word) is not None:
            out.append((start, end, word))
    return out


def search_tokens(text: str) -> List[str]:
    """The tokens of typed text in search form (folded, CJK as bigrams), not split
    at case changes: what a query word is looked up by."""
    if text.isascii():
        return tokenize(text)
    out: List[str] = []
    for token in tokenize(unmark(text)):
        out.extend(_cjk_pieces(token))
    return out


@functools.lru_cache(maxsize=1 << 14)
def identifier_parts(word: str) -> Tuple[str, ...]:
    """The folded parts of a camelCase or PascalCase word (`parseArgs` ->
    ('parse', 'args')); () when the case does not change inside a token."""
    if _CAMEL_RE.search(word) is None:
        return ()
    whole = search_tokens(word)
    parts = search_tokens(_CAMEL_SPLIT_RE.sub(" ", word))
    return tuple(parts) if parts != whole else ()


def identifier_phrases(word: str) -> List[Tuple[str, ...]]:
    """The parts of each camelCase token of a typed word, to be looked up as
    phrases: `merge.conflictStyle` -> [('conflict', 'style')]."""
    if not has_identifiers(word):
        return []
    out = []
    for start, end, _ in token_spans(word):
        parts = identifier_parts(word[start:end])
        if parts:
            out.append(parts)
    return out


def search_spans(text: str) -> List[Tuple[int, int, str]]:
    """``token_spans(text)`` plus, for each token with another search form, its
    pieces: ``(start, end, piece)`` at the piece's place in the token when it
    can be found there (identifier parts, bigrams), else the token's span."""
    out: List[Tuple[int, int, str]] = []
    for start, end, token, pieces, kind in _forms_of(text):
        if token:
            out.append((start, end, token))
        if kind <= 0:
            continue
        _place(out, text[start:end].lower(), start, end, pieces)
    return out


def identifier_spans(text: str) -> List[Tuple[int, int, str]]:
    """What ``search_spans`` adds to the tokens of ASCII text (or its ``ascii_equivalent``):
    each camelCase word's parts, at their places in it. A snippet finds the tokens
    themselves faster by pattern."""
    out: List[Tuple[int, int, str]] = []
    for start, end, word in camel_words(text):
        parts = identifier_parts(word)
        if parts:
            _place(out, text[start:end].lower(), start, end, parts)
    return out


def _place(out: List[Tuple[int, int, str]], source: str, start: int, end: int,
           pieces: Sequence[str]) -> None:
    """Append each piece of the token at `start`..`end` (`source`, lower-cased) at its
    place in the token, in order, or at the token's span when it cannot be found there."""
    exact = len(source) == end - start
    at = 0
    for piece in pieces:
        i = source.find(piece, at) if exact else -1
        if i < 0:
            out.append((start, end, piece))
        else:
            out.append((start + i, start + i + len(piece), piece))
            at = i + 1


def bigram_chain(tokens: Sequence[str]) -> Optional[str]:
    """The text a sequence of overlapping CJK bigrams spells (`東京 京都` ->
    `東京都`), or None if the tokens are not such a chain."""
    if not tokens or not all(len(t) == 2 and _is_cjk(t[0]) and _is_cjk(t[1]) for t in tokens):
        return None
    if any(a[1] != b[0] for a, b in zip(tokens, tokens[1:])):
        return None
    return tokens[0] + "".join(t[1] for t in tokens[1:])


def cjk_pairs(tokens: Sequence[str]) -> bool:
    """Whether the tokens are the character pairs of runs of Chinese, Japanese or Korean
    (a lone character where a run is one): one run's (`bigram_chain`), or those of
    runs a punctuation mark parts (`東京。渋谷` -> `東京 渋谷`), one pair at least."""
    return (any(len(t) == 2 for t in tokens)
            and all(0 < len(t) <= 2 and all(map(_is_cjk, t)) for t in tokens))


def unmark(text: str) -> str:
    """NFKC, then without the combining marks of Latin, Greek, Cyrillic, Hebrew
    and Arabic (`Αθήνα` -> `Αθηνα`, `ﬁle` -> `file`, `ＡＢＣ` -> `ABC`)."""
    if text.isascii():
        return text
    text = unicodedata.normalize("NFKC", text)
    text = unicodedata.normalize("NFD", text).translate(_strip_marks())
    return unicodedata.normalize("NFC", text)


_PIECE, _IDENTIFIER, _FOLDED = -1, 1, 2
# Where a word's case changes: parse|Args, HTTP|Server, utf8|Decode; not in
# the plural of an acronym (`PDFs`, `APIs`).
_CAMEL_RE = re.compile(r"[a-z][A-Z]|[0-9][A-Z][a-z]|[A-Z][A-Z][a-z]{2}")
_CAMEL_SPLIT_RE = lazy(r"(?<=[a-z])(?=[A-Z])|(?<=[0-9])(?=[A-Z][a-z])|(?<=[A-Z])(?=[A-Z][a-z]{2})")
_ASCII_WORD_RE = re.compile("[0-9A-Za-z]+")
_ASCII_ALNUM = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
# A capital inside a word; it starts with the class, so re scans for it quickly.
_CAMEL_HINT_RE = re.compile("[A-Z](?<=[0-9A-Za-z][A-Z])")
def _forms_of(text: str) -> List[Tuple[int, int, str, Tuple[str, ...], int]]:
    """(start, end, token, search pieces, kind) per token; kind 0 when the
    token is its own search form, else _IDENTIFIER or _FOLDED.  A word that
    unicode61 cuts at its marks gives its pieces as _PIECE, then one entry
    for the whole word with no token of its own."""
    plain = text if text.isascii() else ascii_equivalent(text)
    if plain is not None:
        camel = {start: word for start, _, word in camel_words(plain)}
        out = []
        for start, end, token in _ascii_spans(plain):
            parts = identifier_parts(camel[start]) if start in camel else ()
            out.append((start, end, token, parts, _IDENTIFIER if parts else 0))
        return out
    spans = token_spans(text)
    if not _needs_forms(text):
        return [(s, e, t, (), 0) for s, e, t in spans]
    if tables().marks_re.search(text) is None:
        return [(s, e, t) + _token_forms(text[s:e], t) for s, e, t in spans]
    out = []
    i = 0
    while i < len(spans):
        start, end, token = spans[i]
        j = i + 1   # unicode61 cuts Hebrew and Arabic words at their vowel marks
        while j < len(spans) and _only_marks(text[spans[j - 1][1]:spans[j][0]]):
            j += 1
        if j == i + 1:
            out.append((start, end, token) + _token_forms(text[start:end], token))
        else:
            end = spans[j - 1][1]
            out.extend((s, e, t, (), _PIECE) for s, e, t in spans[i:j])
            out.append((start, end, "", tuple(search_tokens(text[start:end])), _FOLDED))
        i = j
    return out


def _only_marks(gap: str) -> bool:
    marks = _strip_marks()
    return bool(gap) and ord(gap[0]) in marks and not gap.translate(marks)


def _ascii_spans(text: str) -> List[Tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group()) for m in ASCII_TOKEN_RE.finditer(text.lower())]


@functools.lru_cache(maxsize=1 << 16)
def _token_forms(source: str, token: str) -> Tuple[Tuple[str, ...], int]:
    """The search pieces of one token written as `source`, and their kind."""
    folded = search_tokens(source)
    if folded != [token]:
        split = _CAMEL_SPLIT_RE.sub(" ", source) if _CAMEL_RE.search(source) else source
        return tuple(folded if split is source else search_tokens(split)), _FOLDED
    parts = identifier_parts(source)
    return (parts, _IDENTIFIER) if parts else ((), 0)


def _needs_forms(text: str) -> bool:
    """Does the text hold a character that unmark changes, or CJK, or an identifier?"""
    if has_identifiers(text):
        return True
    changes = tables().unmark_changes
    for ch in set("".join(NON_ASCII_RE.findall(text))):
        if ch not in changes:
            changes[ch] = (_is_cjk(ch) or ord(ch) in _strip_marks()
                           or tokenize(unmark(ch)) != tokenize(ch))
        if changes[ch]:
            return True
    return False


def _is_cjk(text: str) -> bool:
    return tables().cjk_re.search(text) is not None


def _cjk_pieces(token: str) -> List[str]:
    """A folded token with its CJK runs cut into overlapping bigrams."""
    if token.isascii() or not _is_cjk(token):
        return [token]
    out: List[str] = []
    for run in tables().cjk_run_re.findall(token):
        if len(run) > 1 and _is_cjk(run[0]):
            out.extend(run[i:i + 2] for i in range(len(run) - 1))
        else:
            out.append(run)
    return out


@functools.lru_cache(maxsize=None)
def _strip_marks() -> Dict[int, None]:
    return {cp: None for cp in code_points(MARKS)}


def ascii_equivalent(text: str) -> Optional[str]:
    """`text` with each non-ASCII character made a space, if all of them are
    separators (so the tokens and their offsets are the same); else None.

    English prose often has no other non-ASCII characters than dashes, curly
    quotes and the like: then the ASCII fast paths apply.
    """
    is_space = tables().is_space
    if all(map(is_space, set("".join(NON_ASCII_RE.findall(text))))):
        return NON_ASCII_RE.sub(_spaces, text)
    return None


def _spaces(m: "re.Match[str]") -> str:
    return " " * len(m.group())
