"""Passages: heading-first, paragraph-packed windows, sentence windows only for long paragraphs."""
from __future__ import annotations

import random

import pytest

from glean_personal.config import PassageSizes
from glean_personal.document import Document, Section
from glean_personal.passages import split_document

SIZES = PassageSizes()
WORDS = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron "
         "pi rho sigma tau upsilon phi chi psi omega espresso descaling archive").split()


def _sentence(rng: random.Random) -> str:
    n = rng.choice([3, 6, 12, 25, 60])
    words = [rng.choice(WORDS) for _ in range(n)]
    return " ".join(words).capitalize() + rng.choice([".", "!", "?", ";", ""])


def _paragraph(rng: random.Random) -> str:
    return " ".join(_sentence(rng) for _ in range(rng.choice([1, 2, 5, 15, 40])))


def _document(rng: random.Random) -> Document:
    sections = []
    for s in range(rng.randint(1, 5)):
        paras = [_paragraph(rng) for _ in range(rng.randint(0, 8))]
        sep = rng.choice(["\n\n", "\n\n\n", "\n  \n"])
        sections.append(Section((f"H{s}",) if s else (), sep.join(paras)))
    return Document("t", "md", sections)


@pytest.mark.parametrize("seed", range(150))
def test_properties_hold_on_random_documents(seed):
    rng = random.Random(seed)
    doc = _document(rng)
    text = doc.text
    passages = split_document(doc, SIZES)
    covered = [False] * len(text)
    for p in passages:
        # Offsets point at the passage text, and no passage is empty.
        assert text[p.start:p.end] == p.text
        assert p.text.strip()
        # No passage exceeds the window by more than one (short) sentence.
        assert len(p.text) <= SIZES.window + SIZES.min_tail
        for i in range(p.start, p.end):
            covered[i] = True
    # Every character of the document that is not white space lies in some passage.
    missing = [i for i, ch in enumerate(text) if not ch.isspace() and not covered[i]]
    assert missing == []
    # Passages come in document order.
    assert [p.start for p in passages] == sorted(p.start for p in passages)


def test_headings_first_and_paragraph_packing():
    doc = Document("t", "md", [
        Section((), "Intro line."),
        Section(("Install",), "First step.\n\nSecond step."),
        Section(("Install", "Linux"), "Use the package manager."),
    ])
    passages = split_document(doc)
    assert [p.heading for p in passages] == [(), ("Install",), ("Install", "Linux")]
    assert passages[1].text == "First step.\n\nSecond step."


def test_long_paragraph_is_cut_by_sentences_with_overlap():
    sentences = [f"Sentence number {i} talks about espresso machines and their care." for i in range(60)]
    doc = Document("t", "md", [Section((), " ".join(sentences))])
    passages = split_document(doc)
    assert len(passages) > 1
    for a, b in zip(passages, passages[1:]):
        overlap = a.end - b.start
        assert 0 < overlap <= SIZES.overlap + 80   # about 150 characters repeated
        assert b.text.startswith("Sentence number")  # windows start at a sentence


def test_paragraphs_are_never_cut_when_they_fit():
    paras = [("Paragraph %d. " % i) + "word " * 60 for i in range(10)]
    doc = Document("t", "md", [Section((), "\n\n".join(p.strip() for p in paras))])
    for p in split_document(doc):
        assert p.text.startswith("Paragraph")
        assert p.text.endswith("word")


def test_tiny_trailing_fragment_joins_its_neighbour():
    body = ("x" * 700) + "\n\n" + ("y" * 600) + "\n\n" + "tail."
    passages = split_document(Document("t", "md", [Section((), body)]))
    assert len(passages) == 2
    assert passages[-1].text.endswith("tail.")


def test_empty_sections_make_no_passage():
    doc = Document("t", "md", [Section(("A",), ""), Section(("B",), "   \n\n  "),
                               Section(("C",), "text")])
    passages = split_document(doc)
    assert [p.heading for p in passages] == [("C",)]
    assert doc.text[passages[0].start:passages[0].end] == "text"


def test_text_without_spaces_or_sentences_is_still_cut():
    doc = Document("t", "md", [Section((), "z" * 5000)])
    passages = split_document(doc)
    assert "".join(p.text for p in passages) == "z" * 5000
    assert all(len(p.text) <= SIZES.window for p in passages)


def test_line_ranges_follow_the_file_lines():

    body = "\n".join(f"line {i} " + "word " * 30 for i in range(1, 201))
    doc = Document("t", "txt", [Section((), "intro\n\nmore", first_line=1),
                                Section(("code",), body, first_line=5)])
    passages = split_document(doc)
    assert passages[0].lines == (1, 3)
    rest = [p for p in passages if p.heading == ("code",)]
    assert len(rest) > 3
    for p in rest:
        first, last = p.lines
        # the passage's first and last lines are the file lines those numbers name
        assert p.text.splitlines()[0].startswith(f"line {first - 4} ")
        assert p.text.splitlines()[-1].startswith(f"line {last - 4} ")


def test_pages_are_carried_and_absent_lines_stay_absent():

    doc = Document("t", "pdf", [Section(("Page iv",), "text on a page", page="iv")])
    (p,) = split_document(doc)
    assert p.page == "iv" and p.lines is None
    assert p.to_dict()["page"] == "iv" and "lines" not in p.to_dict()
