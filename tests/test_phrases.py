"""Graph phrases: what a document is linked on, and the text shown for it."""
from __future__ import annotations

import os
import subprocess
import sys
from array import array

import pytest

from glean_personal import phrases
from glean_personal.analysis import STOPWORDS, stem, tokenize
from glean_personal.phrases import (document_phrases, is_bigram, phrase_id, phrase_texts,
                                    title_terms, unpack)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ids_of(title: str, text: str) -> set:
    return set(unpack(document_phrases(title, text)))


def single(word: str) -> int:
    return phrase_id(stem(word))


def bigram(a: str, b: str) -> int:
    return phrase_id(stem(a) + " " + stem(b), True)


def test_packed_sorted_unique_int32():
    blob = document_phrases("Sparse checkout", "Sparse checkout sparse checkout, again and again.")
    arr = unpack(blob)
    assert arr.itemsize == 4
    assert list(arr) == sorted(set(arr))
    assert len(blob) == 4 * len(arr)


def test_search_reads_packed_sketches_as_unpack_does():
    # near-duplicate folding reads sketch prefixes without importing this module
    from glean_personal import copies
    assert copies.ID_FORMAT == phrases.ID_TYPECODE
    assert copies.MAX_PHRASES == phrases.MAX_PHRASES
    blob = document_phrases("Sparse checkout", "Sparse checkout sparse checkout, again and again.")
    ids = array(phrases.ID_TYPECODE, [-2**31, -5, 0, 7, 2**31 - 1]).tobytes()
    for packed in (blob, blob[:8], b"", ids):
        assert copies._ids(packed) == unpack(packed).tolist()


def test_singles_and_bigrams_are_stems():
    got = ids_of("", "Sparse checkouts help. The sparse checkout file.")
    assert single("sparse") in got and single("checkouts") in got
    assert single("checkouts") == single("checkout")          # one stem
    assert bigram("sparse", "checkout") in got
    assert is_bigram(bigram("sparse", "checkout")) and not is_bigram(single("sparse"))


@pytest.mark.parametrize("text, absent", [
    ("the of and", [single("the"), single("of"), bigram("of", "and")]),   # stopwords
    ("version 2024 of 3 x y", [single("2024"), single("3"), single("x"),
                              bigram("version", "2024"), bigram("x", "y")]),  # numbers, 1-char
    ("state of the art", [bigram("state", "of"), bigram("of", "the"), bigram("the", "art")]),
    ("we use the API. Specializing helps", [bigram("api", "specializing")]),  # sentence end
    ("cell one | cell two\tthree four", [bigram("one", "cell"), bigram("two", "three")]),
    ("first paragraph\n\nsecond paragraph", [bigram("paragraph", "second")]),
])
def test_what_is_never_a_phrase(text, absent):
    got = ids_of("", text)
    for pid in absent:
        assert pid not in got


def test_no_single_stopword_and_no_stopword_bigram():
    text = "It is what it is, and there are many of them in the house of the rising sun."
    got = ids_of("", text)
    for token in set(tokenize(text)):
        if token in STOPWORDS:
            assert single(token) not in got
    stems = [stem(t) for t in tokenize(text)]
    for a, b in zip(tokenize(text), tokenize(text)[1:]):
        if a in STOPWORDS and b in STOPWORDS:
            assert bigram(a, b) not in got
    assert bigram("rising", "sun") in got and single("house") in got and stems


def test_wrapped_line_keeps_its_bigram():
    assert bigram("sparse", "checkout") in ids_of("", "use a sparse\ncheckout here")


def test_title_counts_but_no_bigram_across_title_and_body():
    got = ids_of("Quarterly Roadmap", "Budget review")
    assert {single("quarterly"), single("roadmap"), bigram("quarterly", "roadmap"),
            bigram("budget", "review")} <= got
    assert bigram("roadmap", "budget") not in got


def test_unicode_folding_matches_search():
    assert ids_of("", "Café in München") == ids_of("", "CAFE in munchen")


def test_ids_stable_across_processes_and_hash_seeds():
    code = ("from glean_personal.phrases import document_phrases as d;"
            "print(d('Sparse checkout', 'Using sparse checkouts in git. Zürich notes').hex())")
    out = set()
    for seed in ("0", "1", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=ROOT)
        out.add(subprocess.run([sys.executable, "-c", code], env=env, check=True,
                               capture_output=True, text=True).stdout.strip())
    assert out == {document_phrases("Sparse checkout",
                                    "Using sparse checkouts in git. Zürich notes").hex()}


def test_known_id_never_changes():
    # A changed hash would silently orphan every stored phrase set.
    assert phrase_id("espresso") == 1604106388
    assert phrase_id("spars checkout", True) == phrases._pair_id(phrase_id("spars"),
                                                                  phrase_id("checkout"))
    assert phrase_id("spars checkout", True) == 1309453121


def test_a_documents_bigram_ids_are_phrase_ids():
    # Documents compute bigram ids in bulk; they must equal `phrase_id`'s, sign included.
    words = [f"w{chr(97 + i % 26)}{chr(97 + i // 26 % 26)}x" for i in range(400)]
    got = {pid for pid in ids_of("", " ".join(words)) if is_bigram(pid)}
    expected = {bigram(a, b) for a, b in zip(words, words[1:])}
    assert got == expected
    assert min(got) < 0 < max(got)


def test_budget_keeps_smallest_ids_so_near_duplicates_agree(monkeypatch):
    monkeypatch.setattr(phrases, "MAX_PHRASES", 50)
    words = [f"word{chr(97 + i % 26)}{chr(97 + i // 26)}" for i in range(200)]
    a_text = " ".join(words)
    b_text = " ".join(words[:180]) + " different tail words entirely"
    a, b = unpack(document_phrases("", a_text)), unpack(document_phrases("", b_text))
    assert len(a) == len(b) == 50
    full_a = sorted(phrases.phrase_ids("", a_text))
    assert list(a) == full_a[:50]
    # Both keep the phrases of the shared part that fall under the other's bound.
    shared = set(full_a) & set(phrases.phrase_ids("", b_text))
    bound = min(a[-1], b[-1])
    assert {p for p in shared if p <= bound} <= set(a) & set(b)
    assert len(set(a) & set(b)) > 30


def test_phrase_texts_gives_surface_words():
    title, text = "Notes", "Sparse checkouts save space. A sparse checkout lists paths. Sparse checkouts!"
    wanted = [bigram("sparse", "checkout"), single("space"), single("lists"), 12345]
    got = phrase_texts(title, text, wanted)
    assert got[bigram("sparse", "checkout")] == "sparse checkouts"   # most frequent form
    assert got[single("space")] == "space"
    assert got[single("lists")] == "lists"
    assert 12345 not in got


def test_phrase_texts_keeps_diacritics_and_finds_title_words():
    got = phrase_texts("Zürich office", "The office moved.", [single("zurich"),
                                                              bigram("zurich", "office")])
    assert got == {single("zurich"): "zürich", bigram("zurich", "office"): "zürich office"}


def test_phrase_texts_for_every_stored_phrase():
    title = "Espresso descaling"
    text = "Descale the espresso machine weekly.\n\nUse citric acid; rinse twice."
    ids = unpack(document_phrases(title, text))
    got = phrase_texts(title, text, ids)
    assert set(got) == set(ids)
    assert got[bigram("citric", "acid")] == "citric acid"


def test_empty_document():
    assert document_phrases("", "") == b""
    assert title_terms("") == []
    assert phrase_texts("", "", []) == {}


def test_title_terms():
    assert title_terms("The Quarterly Roadmap 2024") == sorted({single("quarterly"),
                                                               single("roadmap")})


def test_hostile_text_is_bounded():
    text = "x" * 100_000 + " " + "\u0301" * 1000 + " " + "aa " * 50_000 + "\x00\ud800"
    ids = unpack(document_phrases("", text))
    assert isinstance(ids, array) and len(ids) <= phrases.MAX_PHRASES
