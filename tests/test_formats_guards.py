"""Rules of the DocBook, HTML table-layout and PDF running-head readers that their own
tests passed without: each test here fails when the rule it names is taken out."""
from __future__ import annotations

from glean_personal.formats import read_document
from pdf_factory import document


def _page(body: str) -> bytes:
    return f"<!doctype html><html><head><title>T</title></head><body>{body}</body></html>".encode()


def _sections(data: bytes):
    doc = read_document(data, "page.html")
    return doc, {s.heading: s.text for s in doc.sections}


def test_a_chapter_title_on_a_few_of_many_pages_is_still_a_running_head():
    # on two of six pages only (not the half that any recurring line needs), and
    # without the bookmark's number: the bookmark's title is what makes it a head
    pdf = document("Garden manual", [
        ["4. Soil", "Soil holds water."],
        ["Soil", "Clay holds more water than sand."],
        ["Soil", "Loam is a mix of both."],
        ["5. Water", "Water in the morning."],
        ["Rain is free.", "Collect it in barrels."],
        ["6. Light", "Most vegetables want sun."],
    ], [("4. Soil", 0), ("5. Water", 3), ("6. Light", 5)])
    doc = read_document(pdf, "garden.pdf")
    texts = [s.text for s in doc.sections]
    assert "Clay holds more water than sand." in texts and "Loam is a mix of both." in texts
    assert not any(t.startswith("Soil\n") for t in texts)


def test_a_menu_cell_of_bare_links_and_a_cell_of_linked_prose():
    links = "".join(f'<a href="p{n}.html">Page {n}</a><br>' for n in range(12))
    prose = ('<td><p>Send the bug with the input and the stylesheet to the mailing list; '
             'do not mail me directly.</p></td>')
    # bare links (no block in the cell): the words of the cell before it in the row stay
    page = _page(f"<h1>Bugs</h1><table><tr><td>Logo text</td><td>{links}</td>{prose}</tr></table>")
    text = _sections(page)[1][("Bugs",)]
    assert "Page 3" not in text and text.startswith("Logo text\n") and "mailing list" in text
    # twelve links in a cell of prose (under 85% of its words): it is text, not a menu
    linked = "".join(f'<a href="p{n}.html">Page {n}</a> is where the garden notes of week {n} are kept. '
                     for n in range(12))
    page = _page(f"<h1>Bugs</h1><table><tr><td>{linked}</td>{prose}</tr></table>")
    assert "Page 3 is where" in _sections(page)[1][("Bugs",)]


def test_a_title_after_text_is_a_caption_and_prefixed_elements_are_read():
    doc = read_document(b"""<!DOCTYPE article PUBLIC "-//OASIS//DTD DocBook XML V4.5//EN" "d">
<article><title>Beds</title>
  <section><para>Raised beds drain well.</para><title>Late title</title>
    <para>The system<citation>RHS</citation> says so.</para></section>
</article>""", "beds.xml")
    assert [s.heading for s in doc.sections] == [("Beds",)]
    assert "Late title" in doc.sections[0].text and "system RHS says" in doc.sections[0].text
    doc = read_document(b"""<?xml version="1.0"?>
<db:article xmlns:db="http://docbook.org/ns/docbook" version="5.0">
  <db:info><db:title>Compost</db:title></db:info>
  <db:section><db:title>Turning</db:title><db:para>Turn it weekly.</db:para></db:section>
</db:article>""", "compost.xml")
    assert [s.heading for s in doc.sections] == [("Compost", "Turning")]
    assert doc.sections[0].text == "Turn it weekly."


def test_entity_replacements_stop_at_the_budget():
    from glean_personal.formats.docbook import _with_entities

    text = ('<!DOCTYPE article PUBLIC "-//OASIS//DTD DocBook XML V4.5//EN" "d" [<!ENTITY a "'
            + "x" * 200 + '">]><article><para>' + "&a;" * 10_000 + "</para></article>")
    out = _with_entities(text, 20_000)
    assert out.count("x") == 20_000 and out.count("&a;") == 10_000 - 100   # 100 x 200 characters
    # …and never more than the document holds, whatever the text budget
    out = _with_entities(text, 4_000_000)
    assert len(text) - 200 <= out.count("x") <= len(text)
