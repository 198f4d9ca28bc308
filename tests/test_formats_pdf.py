"""PDF reading on real files and on variants of them made with qpdf.

The fixtures under tests/data/pdf/ come from the py-pdf sample-files
collection (CC BY-SA 4.0, see tests/data/pdf/README.md); the variants
(object streams, each encryption kind, linearized, damaged) were made from
them with qpdf and by editing bytes. The expected words are ones pdftotext
finds in the same files.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from glean_personal.errors import SkipFile
from glean_personal.formats import extract, read_document

DATA = Path(__file__).parent / "data" / "pdf"

FOUR_PAGES_WORDS = {"hello", "meaning", "printed", "information", "huardest", "gefburn", "kjift",
                    "alphabet", "impression", "nonsense", "original", "language", "letters"}
# (file, words pdftotext finds there, {word at the start of a page: that page's label})
CASES = [
    ("four-pages.pdf", FOUR_PAGES_WORDS, {"Hello, here is some text": "1", "information. Really?": "2"}),
    ("four-pages-objstm.pdf", FOUR_PAGES_WORDS, {"information. Really?": "2"}),
    ("four-pages-linearized.pdf", FOUR_PAGES_WORDS, {"information. Really?": "2"}),
    ("four-pages-linearized-objstm.pdf", FOUR_PAGES_WORDS, {"information. Really?": "2"}),
    ("four-pages-rc4-40.pdf", FOUR_PAGES_WORDS, {"information. Really?": "2"}),
    ("four-pages-rc4-128.pdf", FOUR_PAGES_WORDS, {"information. Really?": "2"}),
    ("four-pages-rc4-128-v4.pdf", FOUR_PAGES_WORDS, {"information. Really?": "2"}),
    ("four-pages-aes-128.pdf", FOUR_PAGES_WORDS, {"information. Really?": "2"}),
    ("four-pages-aes-128-clearmeta.pdf", FOUR_PAGES_WORDS, {"information. Really?": "2"}),
    ("four-pages-aes-256.pdf", FOUR_PAGES_WORDS, {"information. Really?": "2"}),
    ("four-pages-aes-256-r5.pdf", FOUR_PAGES_WORDS, {"information. Really?": "2"}),
    ("four-pages-incremental.pdf", FOUR_PAGES_WORDS, {"information. Really?": "2"}),
    ("four-pages-shifted-offsets.pdf", FOUR_PAGES_WORDS, {"information. Really?": "2"}),
    ("four-pages-bad-startxref.pdf", FOUR_PAGES_WORDS, {"information. Really?": "2"}),
    ("four-pages-no-xref.pdf", FOUR_PAGES_WORDS, {"information. Really?": "2"}),
    ("four-pages-garbage-tail.pdf", FOUR_PAGES_WORDS, {"information. Really?": "2"}),
    ("outline-labels.pdf", {"contents", "foo", "bar", "baz", "hello", "kjift"}, {"Contents": "i"}),
    ("outline-labels-aes-128.pdf", {"contents", "foo", "bar", "baz", "hello"}, {"Contents": "i"}),
    ("multicolumn.pdf", {"abstract", "bibendum", "hymenaeos", "brussels", "copenhagen", "belgium",
                         "pellentesque", "phasellus"}, {"Two-Column Document": "1"}),
    ("google-doc.pdf", {"beautiful", "better", "ambiguity", "explicitly", "berlin", "germany",
                        "continent", "currency"}, {"Example document": "1"}),
    # ToUnicode maps removed: the text comes from the embedded TrueType fonts' cmap tables
    ("google-doc-no-tounicode.pdf", {"beautiful", "ambiguity", "explicitly", "berlin", "germany"},
     {"Example document": "1"}),
    ("libreoffice.pdf", {"lorem", "ipsum", "consetetur", "sadipscing", "aliquyam"}, {"Lorem ipsum": "1"}),
    ("form.pdf", {"example", "form", "alice", "bob", "birthday", "nationality"}, {"Example for a Form": "1"}),
]


def _words(text: str) -> set:
    import re
    return {w.lower() for w in re.findall(r"[^\W\d_]{3,}", text)}


@pytest.mark.parametrize("name,words,starts", CASES, ids=[c[0] for c in CASES])
def test_words_and_pages(name, words, starts):
    doc = extract(DATA / name)
    assert doc.format == "pdf"
    missing = words - _words(doc.text)
    assert not missing, f"{name}: pdftotext finds {sorted(missing)} but we do not"
    for start, label in starts.items():
        pages = [s.page for s in doc.sections if s.text.startswith(start)]
        assert pages and pages[0] == label, (name, start, [s.text[:30] for s in doc.sections])
    for sec in doc.sections:
        assert sec.heading[-1] == f"Page {sec.page}"


def test_every_page_is_one_section_with_its_number():
    doc = extract(DATA / "four-pages.pdf")
    assert [s.page for s in doc.sections] == ["1", "2", "3", "4"]
    assert [s.heading for s in doc.sections] == [("Page 1",), ("Page 2",), ("Page 3",), ("Page 4",)]


def test_outline_and_page_labels_make_the_heading_path():
    doc = extract(DATA / "outline-labels.pdf")
    # Sections 1 Foo, 2 Bar, 3 Baz and 4 Foo start on page ii: the page is cut at their titles.
    assert [s.page for s in doc.sections] == ["i"] + ["ii"] * 4 + ["1"] * 4 + ["2"] * 3
    assert doc.sections[0].heading == ("Page i",)   # before the first bookmark
    assert [s.heading for s in doc.sections[1:5]] == [
        ("Foo", "Page ii"), ("Bar", "Page ii"), ("Baz", "Page ii"), ("Foo", "Page ii")]
    assert doc.sections[2].text.startswith("2 Bar\n")
    assert doc.sections[5].heading == ("Foo", "Page 1")   # the page before's last section goes on


def test_bookmarks_without_labels():
    doc = extract(DATA / "outline.pdf")
    assert doc.sections[1].heading == ("Foo", "Page 2")


def test_encrypted_titles_and_bookmarks_are_decrypted():
    plain = extract(DATA / "outline-labels.pdf")
    enc = extract(DATA / "outline-labels-aes-128.pdf")
    assert [s.heading for s in enc.sections] == [s.heading for s in plain.sections]
    assert enc.text == plain.text


def test_incremental_update_wins():
    assert extract(DATA / "four-pages-incremental.pdf").title == "An updated title"


def test_repair_is_reported():
    doc = extract(DATA / "four-pages-no-xref.pdf")
    assert any("rebuilt" in w for w in doc.warnings)


def test_truncated_file_gives_what_it_can():
    try:
        doc = extract(DATA / "four-pages-truncated.pdf")
    except SkipFile as exc:
        assert str(exc) == "damaged beyond repair"
    else:
        assert "hello" in _words(doc.text)


@pytest.mark.parametrize("name", ["password.pdf", "four-pages-user-password.pdf",
                                  "four-pages-user-password-aes-256.pdf"])
def test_password_needed(name):
    with pytest.raises(SkipFile, match="^encrypted: needs a password$"):
        extract(DATA / name)


def test_image_only_pdf_has_no_text_layer():
    with pytest.raises(SkipFile, match=r"^no text layer \(scanned pages\?\)$"):
        extract(DATA / "image-only.pdf")


def test_not_a_pdf():
    with pytest.raises(SkipFile, match="^not a PDF$"):
        read_document(b"hello, I am plain text\n" * 10, "fake.pdf")


def test_two_columns_read_column_by_column():
    text = extract(DATA / "multicolumn.pdf").sections[0].text
    # the abstract, then the left column to its foot, then the right column
    assert text.index("Abstract") < text.index("This is a sample document") \
        < text.index("Vivamus viverra fermentum felis") < text.index("pellentesque ante. Phasellus")


def test_ligatures_and_hyphens():
    doc = extract(DATA / "google-doc.pdf")
    assert "better than ugly" in doc.text   # a "tt" drawn as one glyph


def test_titles():
    assert extract(DATA / "google-doc.pdf").title == "PDF Example Document"
    assert extract(DATA / "multicolumn.pdf").title == "Two-Column Document with Lorem Ipsum"


def test_table_of_contents_keeps_its_page_numbers_on_the_line():
    toc = extract(DATA / "outline-labels.pdf").sections[0].text
    assert "1 Foo 2\n2 Bar 2" in toc


def test_a_table_of_contents_heading_is_not_the_title():
    # pdfTeX wrote no /Title; the largest line of page 1 is "Contents"
    doc = read_document((DATA / "outline.pdf").read_bytes(), "outline.pdf")
    assert doc.title == "outline"
