"""glean_personal.porter against FTS5's own porter tokenizer.

The stems must be FTS5's exactly, so this compares them on a large real
vocabulary: every distinct word in the standard library's sources and text
files (about 130,000 words), plus /usr/share/dict/words when present.
"""
from __future__ import annotations

import functools
import glob
import os
import re
import sqlite3
from typing import Dict, List, Sequence

import pytest

from glean_personal.analysis import terms
from glean_personal.porter import MAX_BYTES, stem

PORTER = "porter unicode61 remove_diacritics 2"

from helpers.sqlite import needs_fts5


def fts5_stems(words: Sequence[str]) -> List[bytes]:
    """FTS5's stem of each single-token word, as raw bytes (they can be invalid UTF-8)."""
    db = sqlite3.connect(":memory:")
    db.text_factory = bytes
    db.execute("CREATE VIRTUAL TABLE t USING fts5(a, tokenize=%r)" % PORTER)
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    db.executemany("INSERT INTO t(rowid, a) VALUES (?, ?)", enumerate(words))
    out: Dict[int, bytes] = {doc: term for term, doc in db.execute("SELECT term, doc FROM v")}
    db.close()
    return [out[i] for i in range(len(words))]


def stdlib_vocabulary() -> List[str]:
    """Distinct lower-case ASCII words of the standard library (.py two levels deep, all .txt)."""
    return list(_stdlib_vocabulary())


@functools.lru_cache(maxsize=None)
def _stdlib_vocabulary() -> tuple:
    """Read once per session (a second or two of CPU): two tests use the same words."""
    root = os.path.dirname(os.__file__)
    paths = glob.glob(os.path.join(root, "*.py"))
    paths += glob.glob(os.path.join(root, "*", "*.py"))
    paths += glob.glob(os.path.join(root, "**", "*.txt"), recursive=True)
    if os.path.exists("/usr/share/dict/words"):
        paths.append("/usr/share/dict/words")
    words = set()
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            words.update(re.findall(r"[a-z0-9]+", f.read().lower()))
    return tuple(sorted(words))


@pytest.mark.parametrize(
    "word, expected",
    [
        # Porter (1980)'s own examples, as FTS5 stems them.
        ("caresses", "caress"), ("ponies", "poni"), ("ties", "ti"), ("caress", "caress"),
        ("cats", "cat"), ("feed", "feed"), ("agreed", "agre"), ("plastered", "plaster"),
        ("bled", "bled"), ("motoring", "motor"), ("sing", "sing"), ("conflated", "conflat"),
        ("troubled", "troubl"), ("sized", "size"), ("hopping", "hop"), ("tanned", "tan"),
        ("falling", "fall"), ("hissing", "hiss"), ("fizzed", "fizz"), ("failing", "fail"),
        ("filing", "file"), ("happy", "happi"), ("sky", "sky"), ("relational", "relat"),
        ("conditional", "condit"), ("rational", "ration"), ("valenci", "valenc"),
        ("digitizer", "digit"), ("conformabli", "conform"), ("radicalli", "radic"),
        ("differentli", "differ"), ("vileli", "vile"), ("analogousli", "analog"),
        ("vietnamization", "vietnam"), ("predication", "predic"), ("operator", "oper"),
        ("feudalism", "feudal"), ("decisiveness", "decis"), ("hopefulness", "hope"),
        ("callousness", "callous"), ("formaliti", "formal"), ("sensitiviti", "sensit"),
        ("sensibiliti", "sensibl"), ("triplicate", "triplic"), ("formative", "form"),
        ("formalize", "formal"), ("electriciti", "electr"), ("electrical", "electr"),
        ("hopeful", "hope"), ("goodness", "good"), ("revival", "reviv"),
        ("allowance", "allow"), ("inference", "infer"), ("airliner", "airlin"),
        ("gyroscopic", "gyroscop"), ("adjustable", "adjust"), ("defensible", "defens"),
        ("irritant", "irrit"), ("replacement", "replac"), ("adjustment", "adjust"),
        ("dependent", "depend"), ("adoption", "adopt"), ("homologou", "homolog"),
        ("communism", "commun"), ("activate", "activ"), ("angulariti", "angular"),
        ("homologous", "homolog"), ("effective", "effect"), ("bowdlerize", "bowdler"),
        ("probate", "probat"), ("rate", "rate"), ("cease", "ceas"), ("controll", "control"),
        ("roll", "roll"), ("generalizations", "gener"), ("oscillators", "oscil"),
        # FTS5's own choices: the 3..64 byte window, digits and y.
        ("is", "is"), ("as", "as"), ("was", "wa"), ("1990s", "1990"), ("ies", "ie"),
        ("aed", "a"), ("eed", "e"), ("syzygy", "syzygi"), ("yes", "ye"),
        ("a" * MAX_BYTES + "s", "a" * MAX_BYTES + "s"),
        ("a" * (MAX_BYTES - 1) + "s", "a" * (MAX_BYTES - 1)),
        # Non-ASCII tokens are stemmed byte-wise (each byte a consonant).
        ("straße", "straß"), ("bøgs", "bøg"), ("日本s", "日本"),
        ("σοφing", "σοφing"), ("σοφaing", "σοφa"),  # no ASCII vowel, no -ing removal
        ("ø" * 32 + "s", "ø" * 32 + "s"), ("ø" * 31 + "s", "ø" * 31),
    ],
)
def test_known_stems(word: str, expected: str) -> None:
    assert stem(word) == expected


@needs_fts5
def test_known_stems_agree_with_fts5() -> None:
    words = ["caresses", "1990s", "aed", "eed", "straße", "σοφing", "σοφaing"]
    words += ["ø" * 31 + "s", "ø" * 32 + "s"]
    assert [stem(w).encode("utf-8") for w in words] == fts5_stems(words)


@needs_fts5
def test_stdlib_vocabulary_agrees_with_fts5() -> None:
    words = stdlib_vocabulary()
    assert len(words) > 50_000
    expected = fts5_stems(words)
    wrong = [(w, e, stem(w)) for w, e in zip(words, expected) if stem(w).encode("utf-8") != e]
    assert wrong == []


def mixed_script_words() -> List[str]:
    stems = ["straß", "bøg", "æth", "łód", "ελλην", "моск", "日本", "x₂", "a₂", "ı", "hop₂", "þorn"]
    suffixes = ["", "s", "es", "ies", "sses", "ed", "eed", "ing", "ational", "ization", "ness",
                "ful", "ement", "ion", "sion", "tion", "ly", "y", "e", "ll", "ate", "ating",
                "ated", "izing", "bled", "alli", "al", "er"]
    return [a + b for a in stems for b in suffixes] + [b + a for a in stems for b in suffixes]


def test_a_stem_keeps_its_words_first_character() -> None:
    """Search relies on it to skip stemming words that cannot match a query stem."""
    words = stdlib_vocabulary() + mixed_script_words() + [s + "ies" for s in "aeiouxy"]
    words += ["ies", "eed", "aed", "ying", "yes", "sses", "ss", "s"]
    assert [w for w in words if stem(w)[:1] != w[:1]] == []


@needs_fts5
def test_non_ascii_words_agree_with_fts5() -> None:
    """Mixed-script stems with English suffixes, stemmed byte-wise.

    The one known disagreement: FTS5 drops one byte of a "doubled consonant"
    after -ed/-ing, which can cut a UTF-8 sequence whose last two bytes are
    equal (U+2082 is E2 82 82).  FTS5 then stores invalid UTF-8; stem()
    returns U+FFFD for the broken byte instead, so the result is still text.
    """
    words = [w for w in mixed_script_words() if len(terms(w)) == 1]
    expected = fts5_stems(words)
    wrong = {w: e for w, e in zip(words, expected) if terms(w)[0].encode("utf-8") != e}
    assert wrong == {
        "a₂ed": b"a\xe2\x82", "a₂ing": b"a\xe2\x82",
        "hop₂ed": b"hop\xe2\x82", "hop₂ing": b"hop\xe2\x82",
    }
    assert stem("a₂ed") == "a\ufffd"
