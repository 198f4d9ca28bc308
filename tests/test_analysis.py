"""glean_personal.analysis against SQLite's own unicode61 and porter tokenizers.

The plain store and the FTS5 store must index the same terms, so the Python
tokenizer is compared with ``porter unicode61 remove_diacritics 2`` through
fts5vocab (token boundaries and folding) and highlight() (token offsets).
"""
from __future__ import annotations

import sqlite3
from typing import Dict, List, Sequence

import pytest

from glean_personal import unicode61
from glean_personal.analysis import (
    STOPWORDS,
    fold,
    is_stopword,
    normalize,
    stem,
    terms,
    token_spans,
    tokenize,
)

UNICODE61 = "unicode61 remove_diacritics 2"
PORTER = "porter unicode61 remove_diacritics 2"

from helpers.sqlite import needs_fts5


def fts5_tokens(texts: Sequence[str], tokenizer: str = UNICODE61) -> List[List[str]]:
    """The tokens FTS5 stores for each text, in order (via fts5vocab 'instance')."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(a, tokenize=%r)" % tokenizer)
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    db.executemany("INSERT INTO t(rowid, a) VALUES (?, ?)", enumerate(texts))
    out: List[List[str]] = [[] for _ in texts]
    for term, doc, _offset in db.execute("SELECT term, doc, offset FROM v ORDER BY doc, offset"):
        out[doc].append(term)
    db.close()
    return out


SAMPLES = [
    "Hello, World! The quick brown fox jumps over the lazy dog.",
    # English whose only non-ASCII characters are separators (the ASCII shortcut)
    "Use \u201cquotes\u201d \u2014 and \u2018single\u2019 ones\u2026 \u00b6 50\u00a0\u20ac \u2022 item\u2013two",
    "snake_case_name camelCaseName kebab-case-name e-mail x86_64 __init__.py",
    "don't won’t it's l'été O'Reilly rock'n'roll",
    "version 3.14.159 v2.0-rc1 192.168.0.1 1,000,000 1e-9 0x1F 50% $100 #tag @user",
    "Größenwahn Straße STRASSE Übermäßig Fußgängerübergänge ß ẞ",
    "Français: élève, garçon, cœur, Noël, où, déjà-vu, naïveté, Œuvre",
    "Español: niño, año, ¿Qué? ¡Olé! Ångström Ørsted æther Łódź İstanbul ıi",
    "Tiếng Việt có dấu: Nguyễn Thị Minh Khai, phở bò, Hà Nội, đường",
    "Ελληνικά: Άλφα ΆΛΦΑ σοφία ΣΟΦΊΑ ς Σ ΐ ΰ ὕπνος",
    "Русский: Москва, ЁЛКА ёлка йод Й, Українська: їжак Ґ",
    "中文分词没有空格。日本語のテキスト、カタカナとひらがな。한국어 텍스트 입니다",
    "emoji 🙂👍🏽 👨‍👩‍👧 ❤️ ⭐ 🇫🇷 🏴󠁧󠁢󠁳󠁣󠁴󠁿 ok👌ok",
    "math ∑x² ≤ ½ × 10³ ⅓ Ⅻ ① ℃ № ™ © ® ‰ µm Ω Å K",
    "العربية: مرحبا بالعالم، فارسی: می‌خواهم עברית: שָׁלוֹם",
    "हिन्दी भाषा বাংলা ภาษาไทย ქართული Հայերեն ⴰⵎⴰⵣⵉⵖ",
    "combining: cafe\u0301 e\u0302\u0323 n\u0303 a\u030a \u0301lead x\u20dd q\u0334q",
    "format: foo\u2066bar\u2069 foo\u200bbar foo\u200dbar foo\u00adbar \ufeffbom a\u2060b",
    "fullwidth ＡＢＣ１２３ ｶﾀｶﾅ tab\there\nnewline\r\nwindows\x0bvt",
    "private \ue000\ue001 use \U000f0000 and unassigned \u0378 \U0001fae8 \U000e0100x",
    "ǅungla Ǆ ǆ ﬁle ﬂow ﬀ Ĳssel ĳ ŉ ſtop ẛ",
    "",
    "   ...   ---   ",
    "a" * 70 + " " + "b" * 3 + " " + "ingings" * 12,
]


@pytest.fixture(scope="module")
def fts5_sample_tokens() -> List[List[str]]:
    return fts5_tokens([normalize(s) for s in SAMPLES])


@needs_fts5
@pytest.mark.parametrize("index", range(len(SAMPLES)))
def test_tokenize_matches_unicode61(index: int, fts5_sample_tokens: List[List[str]]) -> None:
    text = normalize(SAMPLES[index])
    assert tokenize(text) == fts5_sample_tokens[index]


@needs_fts5
@pytest.mark.parametrize("index", range(len(SAMPLES)))
def test_tokenize_matches_unicode61_without_normalize(index: int) -> None:
    text = SAMPLES[index]
    assert tokenize(text) == fts5_tokens([text])[0]


@needs_fts5
def test_terms_match_porter() -> None:
    texts = [normalize(s) for s in SAMPLES]
    assert [terms(t) for t in texts] == fts5_tokens(texts, PORTER)


def probe_code_points() -> List[int]:
    """Every BMP code point, a stride through the other planes, and every
    astral code point at or next to an edge of the module's tables."""
    cps = set(range(0x10000)) | set(range(0x10000, 0x110000, 37))
    for lo, hi in unicode61.code_ranges(unicode61.SEPARATORS):
        cps.update((lo - 1, lo, hi, hi + 1))
    cps.update(unicode61.tables().fold)
    return sorted(cp for cp in cps if 0 <= cp <= 0x10FFFF and not 0xD800 <= cp <= 0xDFFF)


@needs_fts5
def test_every_code_point_alone_and_inside_a_word() -> None:
    """Each probed code point alone, between two letters, and doubled between
    capitals: the character tables are exactly SQLite's, and tokenize and
    token_spans agree."""
    cps = probe_code_points()
    texts = ["{0} q{0}q Q{0}{0}Q".format(chr(cp)) for cp in cps]
    expected = fts5_tokens(texts)
    wrong = [ascii(t) for t, e in zip(texts, expected) if tokenize(t) != e]
    assert wrong == []
    wrong = [ascii(t) for t, e in zip(texts, expected) if [s[2] for s in token_spans(t)] != e]
    assert wrong == []


@pytest.mark.parametrize("text", SAMPLES)
def test_sparse_and_dense_paths_agree(text: str) -> None:
    """tokenize() scans mostly-ASCII and mostly-non-ASCII text differently."""
    padding = " ascii" * (len(text) + 1)
    assert tokenize(text + padding) == tokenize(text) + ["ascii"] * (len(text) + 1)


@needs_fts5
@pytest.mark.parametrize("index", range(len(SAMPLES)))
def test_token_spans_match_highlight(index: int) -> None:
    """FTS5's highlight() brackets each token; ours must bracket the same ones."""
    text = normalize(SAMPLES[index])
    spans = token_spans(text)
    if not spans:
        return
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(a, tokenize=%r)" % PORTER)
    db.execute("INSERT INTO t VALUES (?)", (text,))
    distinct = sorted({tok for _, _, tok in spans})
    query = " OR ".join('"%s"' % tok.replace('"', '""') for tok in distinct)
    (marked,) = db.execute(
        "SELECT highlight(t, 0, '\x01', '\x02') FROM t WHERE t MATCH ?", (query,)
    ).fetchone()
    expected, pos = [], 0
    for start, end, _ in spans:
        expected += [text[pos:start], "\x01", text[start:end], "\x02"]
        pos = end
    expected.append(text[pos:])
    assert marked == "".join(expected)


@pytest.mark.parametrize("text", SAMPLES)
def test_spans_point_at_their_tokens(text: str) -> None:
    text = normalize(text)
    spans = token_spans(text)
    assert [t for _, _, t in spans] == tokenize(text)
    for start, end, token in spans:
        assert fold(text[start:end]) == token
    assert all(a[1] < b[0] for a, b in zip(spans, spans[1:]))


def test_spans_on_unnormalized_text() -> None:
    text = "Ünïcödé  cafe\u0301!"
    assert token_spans(text) == [(0, 7, "unicode"), (9, 14, "cafe")]


@pytest.mark.parametrize(
    "raw, clean",
    [
        ("foo\u2066bar\u2069 baz", "foobar baz"),  # bidi isolates glue words in unicode61
        ("\u202aab\u202c\u200e\u200fc", "abc"),
        ("foo\u200bbar", "foo bar"),  # zero-width space separates
        ("soft\u00adhyphen", "softhyphen"),  # the soft hyphen would split the word
        ("zw\u200cnj\u200dzwj word\u2060joiner \ufeffbom", "zwnjzwj wordjoiner bom"),
        ("nul\x00byte\x01\x1f\x7f\x85end", "nul byte    end"),
        ("keep\ttab\nnewline\r\n", "keep\ttab\nnewline\r\n"),
        ("bad\udcffbyte \ud83d", "bad\ufffdbyte \ufffd"),
        ("cafe\u0301 \u212b", "caf\u00e9 \u00c5"),  # NFC
        ("plain ascii", "plain ascii"),
        ("", ""),
    ],
)
def test_normalize(raw: str, clean: str) -> None:
    assert normalize(raw) == clean
    assert normalize(clean) == clean


@needs_fts5
def test_normalized_text_always_inserts() -> None:
    hostile = "".join(chr(cp) for cp in range(0, 0xE000, 7)) + "\udc80\udcff\ud800x\x00"
    with pytest.raises(UnicodeEncodeError):
        sqlite3.connect(":memory:").execute("SELECT ?", (hostile,))
    text = normalize(hostile)
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(a, tokenize=%r)" % PORTER)
    db.execute("INSERT INTO t VALUES (?)", (text,))
    assert db.execute("SELECT a FROM t").fetchone()[0] == text
    assert terms(text) == fts5_tokens([text], PORTER)[0]


@needs_fts5
def test_format_characters_that_glue_are_removed() -> None:
    """Which format characters glue words in SQLite is read off SQLite."""
    cps = [cp for lo, hi in unicode61.code_ranges(unicode61.FORMAT) for cp in range(lo, hi + 1)]
    raw = ["foo%sbar" % chr(cp) for cp in cps]
    glued = [chr(cp) for cp, toks in zip(cps, fts5_tokens(raw)) if len(toks) == 1]
    assert "\u2066" in glued and "\u2069" in glued
    for text in raw:
        assert tokenize(normalize(text)) == ["foobar"]
    assert tokenize(normalize("foo\u200bbar")) == ["foo", "bar"]


def test_fold() -> None:
    assert fold("Ærøskøbing CAFÉ Straße Nguyễn ΆΛΦΑ") == "ærøskøbing cafe straße nguyen άλφα"
    assert fold("e\u0301") == "e"
    for text in SAMPLES:
        assert tokenize(fold(text)) == tokenize(text)


def test_tokenize_is_not_stemmed_and_terms_are() -> None:
    assert tokenize("Running Dogs") == ["running", "dogs"]
    assert terms("Running Dogs") == ["run", "dog"]
    assert stem("generalizations") == "gener"


def test_stopwords() -> None:
    assert 120 <= len(STOPWORDS) <= 200
    for word in "the a of and to in is how what do does i my it".split():
        assert word in STOPWORDS
    for word in STOPWORDS:
        assert tokenize(word) == [word]  # stored as folded tokens
    assert is_stopword("The") and is_stopword("what")
    for word in ("salary", "roadmap", "python", "search", "index", "data"):
        assert not is_stopword(word)


def test_types() -> None:
    spans = token_spans("a b")
    assert spans == [(0, 1, "a"), (2, 3, "b")]
    assert isinstance(STOPWORDS, frozenset)
    tables: Dict[int, object] = unicode61.tables().fold
    assert all(isinstance(k, int) for k in tables)


def read_sqlite_tables() -> Dict[str, object]:
    """Read unicode61's tables off the linked SQLite, in this module's format.

    Slow (every code point, twice): run ``PYTHONPATH=. python tests/test_analysis.py``
    and paste the output over the tables in glean_personal/unicode61.py.
    """
    cps = [cp for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF]
    alone = fts5_tokens([chr(cp) for cp in cps])
    inside = fts5_tokens(["q%sq" % chr(cp) for cp in cps])
    plain = fts5_tokens([chr(cp) for cp in cps], "unicode61 remove_diacritics 0")
    is_sep = {cp: not toks for cp, toks in zip(cps, alone)}
    is_sep.update((cp, True) for cp in range(0xD800, 0xE000))
    diacritics = [cp for cp, toks in zip(cps, inside) if toks == ["qq"]]
    lower = {cp: ord(toks[0]) for cp, toks in zip(cps, plain) if toks and toks[0] != chr(cp)}
    unaccent: Dict[str, str] = {}
    for cp, low, folded in zip(cps, plain, alone):
        if folded and folded != low:
            unaccent.setdefault(folded[0], "")
            if low[0] not in unaccent[folded[0]]:
                unaccent[folded[0]] += low[0]

    def spec(points: List[int]) -> str:
        ranges: List[List[int]] = []
        for cp in points:
            if ranges and ranges[-1][1] == cp - 1:
                ranges[-1][1] = cp
            else:
                ranges.append([cp, cp])
        return " ".join("%x" % a if a == b else "%x-%x" % (a, b) for a, b in ranges)

    runs: List[List[int]] = []  # start, count, step, delta
    for cp, low in sorted(lower.items()):
        if runs:
            start, count, step, delta = runs[-1]
            last = start + (count - 1) * step
            if low - cp == delta and (cp - last == step or (count == 1 and cp - last == 2)):
                runs[-1] = [start, count + 1, cp - last, delta]
                continue
        runs.append([cp, 1, 1, low - cp])
    lower_spec = " ".join(
        "%x%+d" % (s, d) if n == 1 else "%x*%d/%d%+d" % (s, n, st, d) for s, n, st, d in runs
    )
    return {
        "SEPARATORS": spec(sorted(cp for cp, sep in is_sep.items() if sep)),
        "DIACRITICS": spec(diacritics),
        "LOWER": lower_spec,
        "UNACCENT": {k: "".join(sorted(v)) for k, v in sorted(unaccent.items())},
    }


if __name__ == "__main__":
    import textwrap

    for name, value in read_sqlite_tables().items():
        if isinstance(value, dict):
            print("%s = {" % name)
            for key, chars in value.items():
                print('    "%s": "%s",' % (key, chars))
            print("}")
        elif len(value) < 60:
            print('%s = "%s"' % (name, value))
        else:
            print("%s = (" % name)
            for line in textwrap.wrap(value, 74):
                print('    "%s "' % line)
            print(")")


@pytest.mark.parametrize("text", [
    "Call getLogger() or logging.getLogger(__name__) — then setLevel",
    "HTTPServer and XMLHttpRequest, parseArgs2Json, a2Bcd",
    "plain words only, no identifiers",
    "snake_case and_mixedCase_words x1Y",
    "\u201cquoted\u201d getItem \u2014 dashes",
])
def test_identifier_spans_are_what_search_spans_adds(text):
    """A snippet takes the tokens of ASCII-like text by pattern and only the identifier
    parts from identifier_spans: together, search_spans' entries exactly."""
    from collections import Counter

    from glean_personal.analysis import ascii_equivalent, identifier_spans, search_spans
    plain = ascii_equivalent(text)
    assert plain is not None
    expected = Counter(search_spans(text))
    assert Counter(token_spans(plain)) + Counter(identifier_spans(plain)) == expected
