"""The query language: user text becomes quoted FTS5 terms, never syntax."""
from __future__ import annotations

import random
import sqlite3

import pytest

from glean_personal.query import MAX_TERMS, parse


def labels(text):
    return parse(text).labels()


@pytest.mark.parametrize("text, expected", [
    ("espresso descaling", ["espresso", "descaling"]),
    ("how do I descale the machine", ["descale", "machine"]),
    ('"context manager" exit', ['"context manager"', "exit"]),
    ("sparse-checkout", ['"sparse checkout"', "sparse", "checkout"]),
    ("os.path.join", ['"os path join"', "os", "path", "join"]),
    ("src/app.py", ['"src app py"', "src", "app", "py"]),
    ("don't panic", ['"don t"', "panic"]),
    ("NEAR( title:x", ["near", "\"title x\"", "title"]),
    ("--force-with-lease", ['"force with lease"', "force", "lease"]),
    ("C++", ["c"]),
    ("a I the", ['"a i the"']),
    ("to be, or not to be", ['"to be or not to be"']),
    ("the", ["the"]),
    ("Café MÜNCHEN", ["cafe", "munchen"]),
])
def test_terms_are_what_the_user_means(text, expected):
    assert labels(text) == expected


def test_bare_terms_are_prefix_matches_and_short_ones_exact():
    q = parse("run os 2024")
    assert [(t.tokens, t.prefix) for t in q.terms] == [
        (("run",), True), (("os",), False), (("2024",), False)]
    assert q.fts5() == '"run"* OR "os" OR "2024"'


def test_unbalanced_quote_is_plain_text():
    assert labels('"unclosed phrase here') == ["unclosed", "phrase"]


def test_terms_are_capped():
    q = parse(" ".join(f"word{i}" for i in range(20000)))
    assert len(q.terms) == MAX_TERMS


@pytest.mark.parametrize("text", ["", "   ", '"', '""', "*", "^", "\x00", "!!!", "-"])
def test_nothing_searchable_is_an_empty_query(text):
    assert parse(text).empty


def test_random_strings_always_give_valid_fts5():
    """Thousands of hostile strings: every expression is accepted by FTS5."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61 remove_diacritics 2')")
    except sqlite3.OperationalError:
        pytest.skip("this SQLite has no FTS5")
    conn.execute("INSERT INTO t VALUES ('near and or not title the quick brown fox')")
    rng = random.Random(1234)
    alphabet = ('abc xyz "()*^:-+.,;/\\\'`~!@#$%&={}[]<>|? \t\n\x00\u200b\u2066\u202e'
                "ÄÖÜßéñ漢字한국어עבריתالعربية😀🎉\ud800") + "ANDORNOTNEAR"
    for _ in range(3000):
        n = rng.choice([1, 3, 10, 40, 200])
        text = "".join(rng.choice(alphabet) for _ in range(n))
        for word in rng.sample(["AND", "OR", "NOT", "NEAR(", "title:", "*", '"', "^"], 2):
            text = text.replace(" ", f" {word} ", 1)
        q = parse(text)
        if not q.empty:
            conn.execute("SELECT count(*) FROM t WHERE t MATCH ?", (q.fts5(),)).fetchone()
