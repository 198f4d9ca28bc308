"""A PDF page where several bookmarked sections start is cut at their titles,
so a passage about the second section is not filed under the first."""
from __future__ import annotations

from glean_personal.formats import read_document
from pdf_factory import document

SPEC = document("Seed catalogue format", [
    ["1 Overview", "A catalogue lists seeds by family."],
    ["the end of the overview.", "2.1 Packets", "A packet holds one variety.",
     "2.2 Germination", "Sow at twice the seed's depth.",
     "Storage and labels", "Keep packets dry."],
    ["More about storage."],
], [("1 Overview", 0), ("Packets", 1), ("Germination", 1), ("Storing packets", 1)])


def test_sections_that_start_on_one_page_get_their_own_paths():
    doc = read_document(SPEC, "seeds.pdf")
    got = [(s.heading, s.text.split("\n")[0]) for s in doc.sections]
    assert got == [
        (("1 Overview", "Page 1"), "1 Overview"),
        # above the first title found: the section of the page before goes on
        (("1 Overview", "Page 2"), "the end of the overview."),
        # `2.1 Packets` on the page, `Packets` in the bookmark
        (("Packets", "Page 2"), "2.1 Packets"),
        (("Germination", "Page 2"), "2.2 Germination"),
        # a bookmark whose title is not on the page cuts nothing; the next page starts under it
        (("Storing packets", "Page 3"), "More about storage."),
    ]
    assert "Keep packets dry." in doc.sections[3].text
    assert [s.page for s in doc.sections] == ["1", "2", "2", "2", "3"]


def test_a_bookmark_not_found_on_its_page_keeps_the_text_above_the_next_title():
    pdf = document("Seed catalogue format", [
        ["1 Overview", "A catalogue lists seeds by family."],
        ["Chapter two starts here.", "2.1 Packets", "A packet holds one variety."],
    ], [("1 Overview", 0), ("2 Layout", 1), ("Packets", 1)])
    doc = read_document(pdf, "seeds.pdf")
    assert [s.heading for s in doc.sections] == [
        ("1 Overview", "Page 1"), ("2 Layout", "Page 2"), ("Packets", "Page 2")]


def test_a_title_matches_its_bookmark_whatever_the_punctuation():
    pdf = document("Seed catalogue format", [
        ["1 Overview", "A catalogue lists seeds by family."],
        ["More of the overview.", "2.13. Non-regular seeds", "Hybrids do not breed true.",
         "A simple parsing note is not a title."],
    ], [("1 Overview", 0), ("2.13. Nonregular seeds", 1), ("Simple parsing note is not a title.", 1)])
    doc = read_document(pdf, "seeds.pdf")
    assert [s.heading for s in doc.sections] == [
        ("1 Overview", "Page 1"), ("1 Overview", "Page 2"), ("2.13. Nonregular seeds", "Page 2")]
    assert doc.sections[2].text.startswith("2.13. Non-regular seeds\n")


def test_a_chapter_title_atop_its_later_pages_is_a_running_head():
    # as the Valgrind manual (DocBook through FOP) heads every page of chapter 4 with
    # `Memcheck: a memory error detector`, bookmarked `4. Memcheck: …`, and no page number
    pdf = document("Garden manual", [
        ["4. Soil: what plants grow in", "4.1. Overview", "Soil holds water."],
        ["Soil: what plants grow in", "Clay holds more water than sand."],
        ["Soil: what plants grow in", "4.2. Testing", "A kit measures the acidity."],
        ["Soil: what plants grow in", "4"],
        ["5. Water", "Water in the morning."],
    ], [("4. Soil: what plants grow in", 0), ("4.1. Overview", 0), ("4.2. Testing", 2),
        ("5. Water", 4)])
    doc = read_document(pdf, "garden.pdf")
    got = [(s.heading[-2:], s.text) for s in doc.sections]
    assert got == [
        (("4. Soil: what plants grow in", "Page 1"), "4. Soil: what plants grow in"),
        (("4.1. Overview", "Page 1"), "4.1. Overview\nSoil holds water."),
        (("4.1. Overview", "Page 2"), "Clay holds more water than sand."),
        (("4.2. Testing", "Page 3"), "4.2. Testing\nA kit measures the acidity."),
        # the page number left alone once the running head goes is no text either
        (("5. Water", "Page 5"), "5. Water\nWater in the morning."),
    ]


def test_a_title_line_on_one_later_page_only_stays():
    pdf = document("Garden manual", [
        ["4. Soil", "Soil holds water."],
        ["Soil", "Clay holds more water than sand."],
        ["5. Water", "Water in the morning."],
    ], [("4. Soil", 0), ("5. Water", 2)])
    doc = read_document(pdf, "garden.pdf")
    assert doc.sections[1].text == "Soil\nClay holds more water than sand."
