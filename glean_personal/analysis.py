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

unicode61 classifies characters with its own Unicode tables, which are older
than Python's ``unicodedata`` and differ from it: characters it does not know
(U+2066, emoji newer than Unicode 6...) are *token* characters there, and its
case folding and diacritic removal are narrower than ``str.casefold``.  So
the tables at the end of this module were read off SQLite, code point by code
point, and tests/test_analysis.py checks them against the linked SQLite.
They do not depend on the Python version.

Speed: tokenizing maps every character in C (``bytes.translate`` for ASCII,
one ``str.translate`` per run of non-ASCII characters) and splits on spaces;
there is no per-character Python code.
"""
from __future__ import annotations

import bisect
import functools
import re
import unicodedata
from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence, Tuple

from .porter import stem as _porter_stem

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
        if _ASCII_CONTROL_RE.search(text) is None:
            return text
        return _ASCII_CONTROL_RE.sub(" ", text)
    u = _unicode()
    if u.clean_re.search(text) is not None:
        text = u.clean_re.sub(u.clean_run, text)
    if _ASTRAL_RE.search(text) is not None and not u.astral_format.isdisjoint(
        _ASTRAL_RE.findall(text)
    ):
        text = _ASTRAL_RE.sub(u.drop_astral_format, text)
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
        return text.encode("ascii").translate(_ASCII_SPLIT).decode("ascii").split()
    plain = ascii_equivalent(text)
    if plain is not None:
        return plain.encode("ascii").translate(_ASCII_SPLIT).decode("ascii").split()
    raw = text.encode("utf-8", "surrogatepass")
    spaced = raw.translate(_ASCII_SPLIT).decode("utf-8", "surrogatepass")
    # Mostly-ASCII text: visit each non-ASCII run; dense text: only the
    # characters that change (scanning the bigger class costs more per char).
    # A short text (a query word) is not worth compiling the bigger class for.
    u = _unicode()
    runs = u.split_run_re if len(raw) > 1.25 * len(text) > 100 else _NON_ASCII_RE
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
        return [(m.start(), m.end(), m.group()) for m in _ASCII_TOKEN_RE.finditer(text.lower())]
    low = _ascii_lower(text)  # same length as text
    u = _unicode()
    if _ASTRAL_RE.search(low) is not None:
        low = _ASTRAL_RE.sub(u.astral_separator_to_space, low)
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
    return _NON_ASCII_RE.sub(_unicode().fold_run, _ascii_lower(text))


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
        return " ".join(part for _, _, word in _camel_words(plain)
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
    return _CAMEL_HINT_RE.search(text) is not None and bool(_camel_words(text))


def _camel_words(text: str) -> List[Tuple[int, int, str]]:
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
    for start, end, word in _camel_words(text):
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
_CAMEL_SPLIT_RE = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[0-9])(?=[A-Z][a-z])|(?<=[A-Z])(?=[A-Z][a-z]{2})")
_ASCII_WORD_RE = re.compile("[0-9A-Za-z]+")
_ASCII_ALNUM = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
# A capital inside a word; it starts with the class, so re scans for it quickly.
_CAMEL_HINT_RE = re.compile("[A-Z](?<=[0-9A-Za-z][A-Z])")
_MARKS = (
    "300-36f 483-489 591-5bd 5bf 5c1-5c2 5c4-5c5 5c7 610-61a 64b-65f 670 "
    "6d6-6dc 6df-6e4 6e7-6e8 6ea-6ed 1ab0-1aff 1dc0-1dff 20d0-20ff fe20-fe2f"
)
# Han, kana, Hangul and Bopomofo (all token characters of unicode61).
_CJK = (
    "1100-11ff 2e80-2fdf 3040-3098 309d-30ff 3100-312f 3130-318f 31a0-31bf "
    "31f0-31ff 3400-4dbf 4e00-9fff a960-a97f ac00-d7ff f900-faff ff66-ff9d "
    "20000-3134f"
)


def _forms_of(text: str) -> List[Tuple[int, int, str, Tuple[str, ...], int]]:
    """(start, end, token, search pieces, kind) per token; kind 0 when the
    token is its own search form, else _IDENTIFIER or _FOLDED.  A word that
    unicode61 cuts at its marks gives its pieces as _PIECE, then one entry
    for the whole word with no token of its own."""
    plain = text if text.isascii() else ascii_equivalent(text)
    if plain is not None:
        camel = {start: word for start, _, word in _camel_words(plain)}
        out = []
        for start, end, token in _ascii_spans(plain):
            parts = identifier_parts(camel[start]) if start in camel else ()
            out.append((start, end, token, parts, _IDENTIFIER if parts else 0))
        return out
    spans = token_spans(text)
    if not _needs_forms(text):
        return [(s, e, t, (), 0) for s, e, t in spans]
    if _unicode().marks_re.search(text) is None:
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
    return [(m.start(), m.end(), m.group()) for m in _ASCII_TOKEN_RE.finditer(text.lower())]


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
    changes = _unicode().unmark_changes
    for ch in set("".join(_NON_ASCII_RE.findall(text))):
        if ch not in changes:
            changes[ch] = (_is_cjk(ch) or ord(ch) in _strip_marks()
                           or tokenize(unmark(ch)) != tokenize(ch))
        if changes[ch]:
            return True
    return False


def _is_cjk(text: str) -> bool:
    return _unicode().cjk_re.search(text) is not None


def _cjk_pieces(token: str) -> List[str]:
    """A folded token with its CJK runs cut into overlapping bigrams."""
    if token.isascii() or not _is_cjk(token):
        return [token]
    out: List[str] = []
    for run in _unicode().cjk_run_re.findall(token):
        if len(run) > 1 and _is_cjk(run[0]):
            out.extend(run[i:i + 2] for i in range(len(run) - 1))
        else:
            out.append(run)
    return out


@functools.lru_cache(maxsize=None)
def _strip_marks() -> Dict[int, None]:
    return {cp: None for cp in _code_points(_MARKS)}


# --- Machinery ---------------------------------------------------------------


def _ascii_lower(text: str) -> str:
    """Lower-case ASCII letters only; the length and all else are unchanged."""
    raw = text.encode("utf-8", "surrogatepass")
    return raw.lower().decode("utf-8", "surrogatepass")


def _ranges(spec: str) -> List[Tuple[int, int]]:
    """Parse "a-b c ..." (hex) into inclusive code point ranges."""
    out = []
    for item in spec.split():
        lo, _, hi = item.partition("-")
        out.append((int(lo, 16), int(hi or lo, 16)))
    return out


def _code_points(spec: str) -> List[int]:
    return [cp for lo, hi in _ranges(spec) for cp in range(lo, hi + 1)]


def _char_class(cps: Iterable[int]) -> str:
    """The body of a regex character class matching the code points."""
    ranges: List[List[int]] = []
    for cp in sorted(cps):
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp])
    return "".join(
        "\\U%08x" % lo if lo == hi else "\\U%08x-\\U%08x" % (lo, hi) for lo, hi in ranges
    )


def _lower_map(spec: str) -> Dict[int, int]:
    """Expand the case-folding runs: "start*count/step+delta" or "start+delta"."""
    out = {}
    for item in spec.split():
        m = re.fullmatch(r"([0-9a-f]+)(?:\*(\d+)/(\d+))?([+-]\d+)", item)
        if m is None:
            raise ValueError(item)
        start, count, step, delta = int(m[1], 16), int(m[2] or 1), int(m[3] or 1), int(m[4])
        for cp in range(start, start + count * step, step):
            out[cp] = cp + delta
    return out


def _fold_table() -> Dict[int, Optional[str]]:
    """str.translate table: SQLite's lower case, then its diacritic removal."""
    unaccent = {ord(ch): base for base, chars in _UNACCENT.items() for ch in chars}
    table: Dict[int, Optional[str]] = {}
    for cp, low in _lower_map(_LOWER).items():
        table[cp] = unaccent.get(low, chr(low))
    for cp, base in unaccent.items():
        table.setdefault(cp, base)
    for cp in _code_points(_DIACRITICS):
        table[cp] = None
    return {cp: out for cp, out in table.items() if out != chr(cp)}


# --- Tables read off SQLite 3.40's unicode61 (fts5_unicode2.c) --------------
# Regenerate with `PYTHONPATH=. python tests/test_analysis.py` if the tables
# of SQLite ever change; the tests compare every BMP code point and a stride
# through the other planes with the linked SQLite.

_SEPARATORS = (
    "0-2f 3a-40 5b-60 7b-a9 ab-b1 b4 b6-b8 bb bf d7 f7 2c2-2c5 2d2-2df 2e5-2eb "
    "2ed 2ef-36f 375 37e 384-385 387 3f6 482-489 55a-55f 589-58a 58f 591-5c7 "
    "5f3-5f4 600-604 606-61b 61e-61f 64b-65f 66a-66d 670 6d4 6d6-6e4 6e7-6ed "
    "6fd-6fe 700-70d 70f 711 730-74a 7a6-7b0 7eb-7f3 7f6-7f9 816-819 81b-823 "
    "825-827 829-82d 830-83e 859-85b 85e 8e4-8fe 900-903 93a-93c 93e-94f "
    "951-957 962-965 970 981-983 9bc 9be-9c4 9c7-9c8 9cb-9cd 9d7 9e2-9e3 "
    "9f2-9f3 9fa-9fb a01-a03 a3c a3e-a42 a47-a48 a4b-a4d a51 a70-a71 a75 "
    "a81-a83 abc abe-ac5 ac7-ac9 acb-acd ae2-ae3 af0-af1 b01-b03 b3c b3e-b44 "
    "b47-b48 b4b-b4d b56-b57 b62-b63 b70 b82 bbe-bc2 bc6-bc8 bca-bcd bd7 "
    "bf3-bfa c01-c03 c3e-c44 c46-c48 c4a-c4d c55-c56 c62-c63 c7f c82-c83 cbc "
    "cbe-cc4 cc6-cc8 cca-ccd cd5-cd6 ce2-ce3 d02-d03 d3e-d44 d46-d48 d4a-d4d "
    "d57 d62-d63 d79 d82-d83 dca dcf-dd4 dd6 dd8-ddf df2-df4 e31 e34-e3a e3f "
    "e47-e4f e5a-e5b eb1 eb4-eb9 ebb-ebc ec8-ecd f01-f1f f34-f3f f71-f87 "
    "f8d-f97 f99-fbc fbe-fcc fce-fda 102b-103e 104a-104f 1056-1059 105e-1060 "
    "1062-1064 1067-106d 1071-1074 1082-108d 108f 109a-109f 10fb 135d-1368 "
    "1390-1399 1400 166d-166e 1680 169b-169c 16eb-16ed 1712-1714 1732-1736 "
    "1752-1753 1772-1773 17b4-17d6 17d8-17db 17dd 1800-180e 18a9 1920-192b "
    "1930-193b 1940 1944-1945 19b0-19c0 19c8-19c9 19de-19ff 1a17-1a1b 1a1e-1a1f "
    "1a55-1a5e 1a60-1a7c 1a7f 1aa0-1aa6 1aa8-1aad 1b00-1b04 1b34-1b44 1b5a-1b7c "
    "1b80-1b82 1ba1-1bad 1be6-1bf3 1bfc-1bff 1c24-1c37 1c3b-1c3f 1c7e-1c7f "
    "1cc0-1cc7 1cd0-1ce8 1ced 1cf2-1cf4 1dc0-1de6 1dfc-1dff 1fbd 1fbf-1fc1 "
    "1fcd-1fcf 1fdd-1fdf 1fed-1fef 1ffd-1ffe 2000-2064 206a-206f 207a-207e "
    "208a-208e 20a0-20b9 20d0-20f0 2100-2101 2103-2106 2108-2109 2114 2116-2118 "
    "211e-2123 2125 2127 2129 212e 213a-213b 2140-2144 214a-214d 214f 2190-23f3 "
    "2400-2426 2440-244a 249c-24e9 2500-26ff 2701-2775 2794-2b4c 2b50-2b59 "
    "2ce5-2cea 2cef-2cf1 2cf9-2cfc 2cfe-2cff 2d70 2d7f 2de0-2e2e 2e30-2e3b "
    "2e80-2e99 2e9b-2ef3 2f00-2fd5 2ff0-2ffb 3000-3004 3008-3020 302a-3030 "
    "3036-3037 303d-303f 3099-309c 30a0 30fb 3190-3191 3196-319f 31c0-31e3 "
    "3200-321e 322a-3247 3250 3260-327f 328a-32b0 32c0-32fe 3300-33ff 4dc0-4dff "
    "a490-a4c6 a4fe-a4ff a60d-a60f a66f-a67e a69f a6f0-a6f7 a700-a716 a720-a721 "
    "a789-a78a a802 a806 a80b a823-a82b a836-a839 a874-a877 a880-a881 a8b4-a8c4 "
    "a8ce-a8cf a8e0-a8f1 a8f8-a8fa a926-a92f a947-a953 a95f a980-a983 a9b3-a9cd "
    "a9de-a9df aa29-aa36 aa43 aa4c-aa4d aa5c-aa5f aa77-aa79 aa7b aab0 aab2-aab4 "
    "aab7-aab8 aabe-aabf aac1 aade-aadf aaeb-aaf1 aaf5-aaf6 abe3-abed d800-dfff "
    "fb1e fb29 fbb2-fbc1 fd3e-fd3f fdfc-fdfd fe00-fe19 fe20-fe26 fe30-fe52 "
    "fe54-fe66 fe68-fe6b feff ff01-ff0f ff1a-ff20 ff3b-ff40 ff5b-ff65 ffe0-ffe6 "
    "ffe8-ffee fff9-ffff 10100-10102 10137-1013f 10179-10189 10190-1019b "
    "101d0-101fd 1039f 103d0 10857 1091f 1093f 10a01-10a03 10a05-10a06 "
    "10a0c-10a0f 10a38-10a3a 10a3f 10a50-10a58 10a7f 10b39-10b3f 11000-11002 "
    "11038-1104d 11080-11082 110b0-110c1 11100-11102 11127-11134 11140-11143 "
    "11180-11182 111b3-111c0 111c5-111c8 116ab-116b7 12470-12473 16f51-16f7e "
    "16f8f-16f92 1d000-1d0f5 1d100-1d126 1d129-1d1dd 1d200-1d245 1d300-1d356 "
    "1d6c1 1d6db 1d6fb 1d715 1d735 1d74f 1d76f 1d789 1d7a9 1d7c3 1eef0-1eef1 "
    "1f000-1f02b 1f030-1f093 1f0a0-1f0ae 1f0b1-1f0be 1f0c1-1f0cf 1f0d1-1f0df "
    "1f110-1f12e 1f130-1f16b 1f170-1f19a 1f1e6-1f202 1f210-1f23a 1f240-1f248 "
    "1f250-1f251 1f300-1f320 1f330-1f335 1f337-1f37c 1f380-1f393 1f3a0-1f3c4 "
    "1f3c6-1f3ca 1f3e0-1f3f0 1f400-1f43e 1f440 1f442-1f4f7 1f4f9-1f4fc "
    "1f500-1f53d 1f540-1f543 1f550-1f567 1f5fb-1f640 1f645-1f64f 1f680-1f6c5 "
    "1f700-1f773 e0001 e0020-e007f e0100-e01ef "
)
_DIACRITICS = "300-304 306-30c 30f 311 31b 323-328 32d-32e 330-331"
_LOWER = (
    "41*26/1+32 b5+775 c0*23/1+32 d8*7/1+32 100*24/2+1 132*3/2+1 139*8/2+1 "
    "14a*23/2+1 178-121 179*3/2+1 17f-268 181+210 182*2/2+1 186+206 187+1 "
    "189*2/1+205 18b+1 18e+79 18f+202 190+203 191+1 193+205 194+207 196+211 "
    "197+209 198+1 19c+211 19d+213 19f+214 1a0*3/2+1 1a6+218 1a7+1 1a9+218 "
    "1ac+1 1ae+218 1af+1 1b1*2/1+217 1b3*2/2+1 1b7+219 1b8+1 1bc+1 1c4+2 1c5+1 "
    "1c7+2 1c8+1 1ca+2 1cb*9/2+1 1de*9/2+1 1f1+2 1f2*2/2+1 1f6-97 1f7-56 "
    "1f8*20/2+1 220-130 222*9/2+1 23a+10795 23b+1 23d-163 23e+10792 241+1 "
    "243-195 244+69 245+71 246*5/2+1 370*2/2+1 376+1 386+38 388*3/1+37 38c+64 "
    "38e*2/1+63 391*17/1+32 3a3*9/1+32 3c2+1 3cf+8 3d0-30 3d1-25 3d5-15 3d6-22 "
    "3d8*12/2+1 3f0-54 3f1-48 3f4-60 3f5-64 3f7+1 3f9-7 3fa+1 3fd*3/1-130 "
    "400*16/1+80 410*32/1+32 460*17/2+1 48a*27/2+1 4c0+15 4c1*7/2+1 4d0*44/2+1 "
    "531*38/1+48 10a0*38/1+7264 10c7+7264 10cd+7264 1e00*75/2+1 1e9b-58 "
    "1e9e-7615 1ea0*48/2+1 1f08*8/1-8 1f18*6/1-8 1f28*8/1-8 1f38*8/1-8 "
    "1f48*6/1-8 1f59*4/2-8 1f68*8/1-8 1f88*8/1-8 1f98*8/1-8 1fa8*8/1-8 "
    "1fb8*2/1-8 1fba*2/1-74 1fbc-9 1fbe-7173 1fc8*4/1-86 1fcc-9 1fd8*2/1-8 "
    "1fda*2/1-100 1fe8*2/1-8 1fea*2/1-112 1fec-7 1ff8*2/1-128 1ffa*2/1-126 "
    "1ffc-9 2126-7517 212a-8383 212b-8262 2132+28 2160*16/1+16 2183+1 "
    "2c00*47/1+48 2c60+1 2c62-10743 2c63-3814 2c64-10727 2c67*3/2+1 2c6d-10780 "
    "2c6e-10749 2c6f-10783 2c70-10782 2c72+1 2c75+1 2c7e*2/1-10815 2c80*50/2+1 "
    "2ceb*2/2+1 2cf2+1 a640*23/2+1 a680*12/2+1 a722*7/2+1 a732*31/2+1 "
    "a779*2/2+1 a77d-35332 a77e*5/2+1 a78b+1 a78d-42280 a790*2/2+1 a7a0*5/2+1 "
    "a7aa-42308 ff21*26/1+32 10400*40/1+40 "
)
_UNACCENT = {
    "a": "àáâãäåāăąǎǟǻȁȃȧḁạảấầẩẫậắằẳẵặ",
    "b": "ḃḅḇ",
    "c": "çćĉċčḉ",
    "d": "ďḋḍḏḑḓ",
    "e": "èéêëēĕėęěȅȇȩḕḗḙḛḝẹẻẽếềểễệ",
    "f": "ḟ",
    "g": "ĝğġģǧǵḡ",
    "h": "ĥȟḣḥḧḩḫẖ",
    "i": "ìíîïĩīĭįİǐȉȋḭḯỉị",
    "j": "ĵǰ",
    "k": "ķǩḱḳḵ",
    "l": "ĺļľḷḹḻḽ",
    "m": "ḿṁṃ",
    "n": "ñńņňǹṅṇṉṋ",
    "o": "òóôõöōŏőơǒǫǭȍȏȫȭȯȱṍṏṑṓọỏốồổỗộớờởỡợ",
    "p": "ṕṗ",
    "r": "ŕŗřȑȓṙṛṝṟ",
    "s": "śŝşšșṡṣṥṧṩ",
    "t": "ţťțṫṭṯṱẗ",
    "u": "ùúûüũūŭůűųưǔǖǘǚǜȕȗṳṵṷṹṻụủứừửữự",
    "v": "ṽṿ",
    "w": "ŵẁẃẅẇẉẘ",
    "x": "ẋẍ",
    "y": "ýÿŷȳẏẙỳỵỷỹ",
    "z": "źżžẑẓẕ",
}


# Unicode 15.1's format characters (Cf) but U+200B, and the controls.
_FORMAT = (
    "ad 600-605 61c 6dd 70f 890-891 8e2 180e 200c-200f 202a-202e 2060-2064 "
    "2066-206f feff fff9-fffb 110bd 110cd 13430-1343f 1bca0-1bca3 1d173-1d17a "
    "e0001 e0020-e007f"
)
_CONTROLS = "0-8 b-c e-1f 7f-9f"

# ASCII bytes -> lower-case letters and digits, spaces for everything else.
_ASCII_SPLIT = bytes(
    b if b >= 0x80 or chr(b).isalnum() else 0x20 for b in range(256)
).lower()
_ASCII_CONTROL_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # as _CONTROLS
_ASCII_TOKEN_RE = re.compile("[0-9a-z]+")  # on lower-cased ASCII text
_NON_ASCII_RE = re.compile("[^\x00-\x7f]+")
_ASTRAL_RE = re.compile("[\\U00010000-\\U0010ffff]")


class _Unicode:
    """The non-ASCII tables, each built from the specs above on first use.

    A command that only ever sees ASCII text (most queries, many files) never
    pays for them; English text whose only non-ASCII characters are
    punctuation (dashes, curly quotes, ¶) needs only the set of separators.
    Each costs milliseconds to build; the two regexes cost the most.
    """

    @functools.cached_property
    def separators(self) -> List[int]:
        return _code_points(_SEPARATORS)

    @functools.cached_property
    def bmp_separators(self) -> List[int]:
        return [cp for cp in self.separators if cp < 0x10000]

    @functools.cached_property
    def astral_separators(self) -> FrozenSet[str]:
        return frozenset(chr(cp) for cp in self.separators if cp >= 0x10000)

    @functools.cached_property
    def diacritics(self) -> FrozenSet[int]:
        return frozenset(_code_points(_DIACRITICS))

    @functools.cached_property
    def separator_ranges(self) -> Tuple[List[int], List[int]]:
        """The separators as sorted (first, last) code point lists, for bisect."""
        ranges = _ranges(_SEPARATORS)
        return [lo for lo, _ in ranges], [hi for _, hi in ranges]

    def is_space(self, ch: str) -> bool:
        """Does tokenize() turn this non-ASCII character into a plain space?"""
        cp = ord(ch)
        firsts, lasts = self.separator_ranges
        i = bisect.bisect_right(firsts, cp) - 1
        return i >= 0 and cp <= lasts[i] and cp not in self.diacritics

    @functools.cached_property
    def fold(self) -> Dict[int, Optional[str]]:
        return _fold_table()

    @functools.cached_property
    def split(self) -> Dict[int, Optional[str]]:
        """Non-ASCII character -> what tokenize() turns it into: a space
        (separator), nothing (stripped accent) or its fold; others stay."""
        split: Dict[int, Optional[str]] = {cp: " " for cp in self.separators if cp >= 0x80}
        split.update({cp: out for cp, out in self.fold.items() if cp >= 0x80})
        return split

    @functools.cached_property
    def clean(self) -> Dict[int, Optional[str]]:
        clean: Dict[int, Optional[str]] = {cp: None for cp in _code_points(_FORMAT)}
        clean.update({cp: " " for cp in _code_points(_CONTROLS)})
        clean.update({cp: "\ufffd" for cp in range(0xD800, 0xE000)})
        clean[0x200B] = " "
        return clean

    @functools.cached_property
    def clean_re(self) -> "re.Pattern[str]":
        return re.compile("[%s]+" % _char_class(cp for cp in self.clean if cp < 0x10000))

    @functools.cached_property
    def astral_format(self) -> FrozenSet[str]:
        return frozenset(chr(cp) for cp in self.clean if cp >= 0x10000)

    # Classes are kept to the BMP plus one astral range: Python's re looks each
    # BMP character up in a table but tries astral ranges one by one.
    @functools.cached_property
    def split_run_re(self) -> "re.Pattern[str]":
        return re.compile(
            "[%s\\U00010000-\\U0010ffff]+" % _char_class(cp for cp in self.split if cp < 0x10000)
        )

    @functools.cached_property
    def span_re(self) -> "re.Pattern[str]":  # astral separators must be made spaces first
        return re.compile(
            "[^%s][^%s]*"
            % (
                _char_class(self.bmp_separators),
                _char_class(cp for cp in self.bmp_separators if cp not in self.diacritics),
            )
        )

    @functools.cached_property
    def cjk_class(self) -> str:
        return "".join("\\U%08x-\\U%08x" % (lo, hi) for lo, hi in _ranges(_CJK))

    @functools.cached_property
    def marks_re(self) -> "re.Pattern[str]":
        return re.compile("[%s]" % "".join("\\u%04x-\\u%04x" % r for r in _ranges(_MARKS)))

    @functools.cached_property
    def cjk_re(self) -> "re.Pattern[str]":
        return re.compile("[%s]" % self.cjk_class)

    @functools.cached_property
    def cjk_run_re(self) -> "re.Pattern[str]":
        return re.compile("[%s]+|[^%s]+" % (self.cjk_class, self.cjk_class))

    @functools.cached_property
    def unmark_changes(self) -> Dict[str, bool]:
        """Non-ASCII character -> has it another search form (filled as met)."""
        return {}

    def split_run(self, m: "re.Match[str]") -> str:
        return m.group().translate(self.split)

    def fold_run(self, m: "re.Match[str]") -> str:
        return m.group().translate(self.fold)

    def clean_run(self, m: "re.Match[str]") -> str:
        return m.group().translate(self.clean)

    def drop_astral_format(self, m: "re.Match[str]") -> str:
        ch = m.group()
        return "" if ch in self.astral_format else ch

    def astral_separator_to_space(self, m: "re.Match[str]") -> str:
        ch = m.group()
        return " " if ch in self.astral_separators else ch


@functools.lru_cache(maxsize=None)
def _unicode() -> _Unicode:
    return _Unicode()


def ascii_equivalent(text: str) -> Optional[str]:
    """`text` with each non-ASCII character made a space, if all of them are
    separators (so the tokens and their offsets are the same); else None.

    English prose often has no other non-ASCII characters than dashes, curly
    quotes and the like: then the ASCII fast paths apply.
    """
    is_space = _unicode().is_space
    if all(map(is_space, set("".join(_NON_ASCII_RE.findall(text))))):
        return _NON_ASCII_RE.sub(_spaces, text)
    return None


def _spaces(m: "re.Match[str]") -> str:
    return " " * len(m.group())
