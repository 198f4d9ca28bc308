"""PPTX: slides in presentation order, titles, tables, groups, notes."""
from __future__ import annotations

from pathlib import Path

import pytest

from glean_personal.errors import SkipFile
from glean_personal.formats import read_document
from office_factory import group, pptx, shape, slide_table

CORPUS = Path(__file__).parent / "data" / "corpus"


def read(data: bytes, name: str = "deck.pptx"):
    return read_document(data, name)


def corpus(path: str):
    return read_document((CORPUS / path).read_bytes(), path.split("/")[-1])


def by_heading(doc):
    return {s.heading: s.text for s in doc.sections}


SLIDES = [
    {"title": "Welcome volunteers", "body": ["Saturday sessions", "Bring gloves"],
     "notes": ["Thank the hosts first"]},
    {"title": "Safety", "shapes": slide_table([["Risk", "Control"], ["Grease", "Gloves"]])},
    {"body": ["No title on this one"], "shapes": group(shape(["Grouped words"], None, 5))},
    {"title": "Questions?"},
]


def test_slides_titles_tables_groups_notes():
    doc = read(pptx(SLIDES))
    assert doc.format == "pptx"
    assert doc.title == "Welcome volunteers"            # first slide's title without core title
    assert by_heading(doc) == {
        ("Slide 1 — Welcome volunteers",):
            "Saturday sessions\n\nBring gloves\n\nNotes:\n\nThank the hosts first",
        ("Slide 2 — Safety",): "Risk | Control\n\nGrease | Gloves",
        ("Slide 3",): "No title on this one\n\nGrouped words",
        ("Slide 4 — Questions?",): "Questions?",
    }
    assert "1" not in doc.text.split()                  # notes page slide number left out


def test_core_title_wins():
    assert read(pptx(SLIDES, title="Volunteer induction")).title == "Volunteer induction"


def test_presentation_order_not_file_numbers():
    slides = [{"title": f"Shown {i}", "body": [f"body {i}"]} for i in (1, 2, 3)]
    doc = read(pptx(slides, file_numbers=[3, 1, 2]))
    assert [s.heading[0] for s in doc.sections] == ["Slide 1 — Shown 1", "Slide 2 — Shown 2",
                                                    "Slide 3 — Shown 3"]
    assert doc.warnings == []


def test_missing_relationships_fall_back_to_file_numbers_with_warning():
    slides = [{"title": f"Shown {i}", "body": [f"body {i}"]} for i in (1, 2, 3)]
    doc = read(pptx(slides, file_numbers=[3, 1, 10], presentation_rels=False))
    # slide1.xml, slide3.xml, slide10.xml: numeric order, not string order
    assert [s.heading[0] for s in doc.sections] == ["Slide 1 — Shown 2", "Slide 2 — Shown 1",
                                                    "Slide 3 — Shown 3"]
    assert "slide order from file names: presentation relationships missing" in doc.warnings


def test_empty_slides_are_left_out_but_keep_numbering():
    doc = read(pptx([{"title": ""}, {"body": ["second"]}]))
    assert [s.heading for s in doc.sections] == [("Slide 2",)]


def test_no_text():
    with pytest.raises(SkipFile, match="no extractable text"):
        read(pptx([{}]))


# -- real files ---------------------------------------------------------------
def test_markitdown_deck():
    doc = corpus("markitdown/test.pptx")
    assert doc.title == "AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation"
    headings = [s.heading[0] for s in doc.sections]
    assert headings[0] == "Slide 1 — " + doc.title
    assert headings[2] == "Slide 3 — A table to test parsing:"
    assert headings[4] == "Slide 5 — A Nested Shape parsing"
    body = by_heading(doc)
    assert "1b92870d-e3b5-4e65-8153-919f4ff45592" in body[(headings[2],)]
    assert "ColA | ColB | ColC | ColD | ColE | ColF" in body[(headings[2],)]
    assert "Sub comment 2" in body[(headings[4],)]


def test_python_pptx_tables_groups_and_notes():
    assert corpus("python-pptx/test_slides.pptx").text == (
        "Test text\n\nGroup test text\n\nBox 1\n\nBox 2\n\n"
        "Col head 1 | Col head 2\n\nCell text 1 | Cell text 2")
    body = by_heading(corpus("python-pptx/ph-inherit-props.pptx"))
    assert body[("Slide 1 — Title Text",)] == (
        "Body Text\n\nNotes:\n\nNotes in inherited position and size.")
    assert body[("Slide 2",)] == "Notes:\n\nNotes in modified position and size."
    assert by_heading(corpus("python-pptx/tbl-cell.pptx"))[("Slide 3",)] == (
        "a | b | c\n\nd | e | f\n\ng | h | i")


def test_python_pptx_placeholders_keep_presentation_numbering():
    doc = corpus("python-pptx/ph-populated-placeholders.pptx")
    # Slides 1 and 2 hold pictures whose "alt text" is only their file name.
    assert by_heading(doc) == {
        ("Slide 4",): "Chart\n\nSales: 1st Qtr = 8.2; 2nd Qtr = 3.2; 3rd Qtr = 1.4; 4th Qtr = 1.2",
        ("Slide 5 — Title Text",): "Title Text",
        ("Slide 6",): "Content", ("Slide 7",): "Body text"}


def test_python_pptx_external_relationships_and_odd_packages():
    doc = corpus("python-pptx/ext-rels.pptx")
    assert "Code is available at the python-pptx repository on GitHub" in doc.text
    assert corpus("python-pptx/txt-text.pptx").sections[1].text == "Text run in table cell"
    doc = corpus("python-pptx/no-core-props.pptx")
    assert doc.title == "Minimal Deck"
    assert corpus("python-pptx/missing_rels_item.pptx").sections[0].heading == (
        "Slide 1 — Presentation Title Text",)


@pytest.mark.parametrize("name", ["no-slides.pptx", "sld-slides.pptx", "shp-groupshape.pptx"])
def test_python_pptx_decks_without_text_are_skipped(name):
    with pytest.raises(SkipFile, match="no extractable text"):
        corpus(f"python-pptx/{name}")


def test_pictures_charts_and_smartart_on_slides():
    from office_factory import (chart_xml, diagram_data_xml, graphic_chart, graphic_diagram,
                                graphic_frame, picture_shape)
    chart = chart_xml("Visitors", [("2024", ["Spring", "Summer"], [1200, 3400.5])])
    slides = [
        {"title": "Our garden", "shapes": picture_shape("Roses climbing a brick wall")
         + picture_shape("IMG_2041.JPG") + picture_shape("Picture")   # openpyxl's default
         + picture_shape("Image 3")},
        {"title": "Numbers", "shapes": graphic_frame(graphic_chart("rIdC")),
         "rels": [("rIdC", "chart", "../charts/chart1.xml")]},
        {"title": "Process", "shapes": graphic_frame(graphic_diagram("rIdD"), descr="Three steps"),
         "rels": [("rIdD", "diagramData", "../diagrams/data1.xml")]},
    ]
    data = pptx(slides, parts={"ppt/charts/chart1.xml": chart,
                               "ppt/diagrams/data1.xml": diagram_data_xml(["Sow", "Water", "Harvest"])})
    body = by_heading(read_document(data, "garden.pptx"))
    assert body == {
        ("Slide 1 — Our garden",): "Image: Roses climbing a brick wall",
        ("Slide 2 — Numbers",): "Chart: Visitors\n\n2024: Spring = 1200; Summer = 3400.5",
        ("Slide 3 — Process",): "Three steps\n\nSow\n\nWater\n\nHarvest",
    }


def test_markitdown_chart_and_image_captions():
    doc = corpus("markitdown/test.pptx")
    assert "Chart: a3f6004b-6f4f-4ea8-bee3-3741f4dc385f" in doc.text
    assert "Series 1: 2000 = 2000; 2001 = 2001" in doc.text
    assert "Image: This phrase of the caption is Human-written." in doc.text


def test_python_pptx_chart_from_its_cache():
    doc = corpus("python-pptx/shp-access-chart.pptx")
    assert by_heading(doc)[("Slide 1",)] == (
        "Chart\n\n"
        "Series 1: Category 1 = 4.3; Category 2 = 2.5; Category 3 = 3.5; Category 4 = 4.5\n\n"
        "Series 2: Category 1 = 2.4; Category 2 = 4.4; Category 3 = 1.8; Category 4 = 2.8\n\n"
        "Series 3: Category 1 = 2; Category 2 = 2; Category 3 = 3; Category 4 = 5")


def test_a_placeholder_core_title_gives_way_to_the_first_slide_title():
    # python-pptx's default template stores dc:title "Presentation", PowerPoint's
    # "PowerPoint Presentation": neither names the deck
    assert corpus("python-pptx/missing_rels_item.pptx").title == "Presentation Title Text"
    assert read(pptx(SLIDES, title="PowerPoint Presentation")).title == "Welcome volunteers"
    assert corpus("python-pptx/tbl-cell.pptx").title == "tbl-cell"   # no slide title: the file name
