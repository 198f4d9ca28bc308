"""OpenDocument: .odt headings, lists, tables and notes; .ods sheets; .odp slides.

Real files: `handbook-pandoc.odt` (pandoc), `rota-odfpy.ods` and
`agm-odfpy.odp` (odfpy), see tests/data/corpus/README.md. The rest are built
here with zipfile following the OpenDocument 1.2 package layout: a stored
`mimetype` first, `META-INF/manifest.xml`, `content.xml`, `meta.xml`.
"""
from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Dict, Optional

import pytest

from glean_personal.config import Limits
from glean_personal.errors import SkipFile
from glean_personal.formats import extract, read_document

CORPUS = Path(__file__).parent / "data" / "corpus" / "odf-epub"
NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
      'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
      'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
      'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
      'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" '
      'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
      'xmlns:dc="http://purl.org/dc/elements/1.1/" '
      'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" '
      'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"')
MIMETYPES = {"text": "application/vnd.oasis.opendocument.text",
             "spreadsheet": "application/vnd.oasis.opendocument.spreadsheet",
             "presentation": "application/vnd.oasis.opendocument.presentation"}


def odf(kind: str, body: str, title: Optional[str] = None, styles: str = "",
        extra: Optional[Dict[str, bytes]] = None, manifest_extra: str = "") -> bytes:
    """An OpenDocument package whose office:body holds `<office:{kind}>body</…>`."""
    content = (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content {NS} '
               f'office:version="1.2"><office:automatic-styles>{styles}</office:automatic-styles>'
               f"<office:body><office:{kind}>{body}</office:{kind}></office:body>"
               "</office:document-content>")
    meta = (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-meta {NS} '
            f'office:version="1.2"><office:meta>'
            + (f"<dc:title>{title}</dc:title>" if title else "")
            + "<meta:generator>glean_personal tests</meta:generator></office:meta>"
            "</office:document-meta>")
    manifest = (f'<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest {NS} '
                'manifest:version="1.2">'
                f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{MIMETYPES[kind]}"/>'
                '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"'
                f'>{manifest_extra}</manifest:file-entry>'
                '<manifest:file-entry manifest:full-path="meta.xml" manifest:media-type="text/xml"/>'
                "</manifest:manifest>")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(zipfile.ZipInfo("mimetype"), MIMETYPES[kind], compress_type=zipfile.ZIP_STORED)
        zf.writestr("META-INF/manifest.xml", manifest)
        zf.writestr("content.xml", content)
        zf.writestr("meta.xml", meta)
        for name, data in (extra or {}).items():
            zf.writestr(name, data)
    return buffer.getvalue()


def by_heading(doc):
    return {s.heading: s.text for s in doc.sections}


# -- real files -----------------------------------------------------------------
def test_pandoc_odt():
    doc = extract(CORPUS / "handbook-pandoc.odt")
    assert (doc.title, doc.format, doc.warnings) == ("Community Garden Handbook", "odt", [])
    sections = by_heading(doc)
    top = "Community Garden Handbook"
    assert sections[(top,)] == "Garden Committee"
    assert sections[(top, "Plots", "Watering")].startswith("Use the rain butts first.")
    assert sections[(top, "Plots", "Compost")].split("\n\n") == [
        "bin | takes | turned", "A | greens | weekly", "B | browns | monthly"]
    assert sections[(top, "Tools")].split("\n\n") == [
        "Spades and forks hang in the shed.",
        "The wheelbarrow with the blue handle has a slow puncture."]
    # The footnote marker is not in the text; the note is, after the body.
    assert sections[(top, "Plots")].endswith("Plots are allocated in March.")
    assert sections[("Footnotes",)] == (
        "Plots not worked for eight weeks may be offered to the waiting list.")


def test_odt_reads_like_the_docx_pandoc_wrote_from_the_same_source():
    odt = extract(CORPUS / "handbook-pandoc.odt")
    docx = extract(CORPUS / "handbook-pandoc.docx")
    assert [(s.heading, s.text) for s in odt.sections] == [(s.heading, s.text) for s in docx.sections]


def test_odfpy_ods():
    doc = extract(CORPUS / "rota-odfpy.ods")
    assert (doc.title, doc.format) == ("Garden rota", "ods")
    assert [s.heading for s in doc.sections] == [("Rota",), ("Contacts",)]
    assert doc.sections[0].text.split("\n\n") == [
        "week | volunteer | task", "1 | Priya | water the polytunnel", "2 | Tom | turn compost bin A"]
    assert "Tom | 0161 496 0001" in doc.sections[1].text


def test_odfpy_odp():
    doc = extract(CORPUS / "agm-odfpy.odp")
    assert (doc.title, doc.format) == ("Annual general meeting", "odp")
    assert [s.heading for s in doc.sections] == [("Slide 1",), ("Slide 2",), ("Slide 3",)]
    assert doc.sections[1].text.split("\n\n") == [
        "Accounts for the year", "Notes:", "Seed sales covered the new shed."]


# -- text documents ---------------------------------------------------------------
def test_odt_structure():
    body = (
        '<text:p text:style-name="P1">Field guide</text:p>'
        '<text:h text:outline-level="1"><text:number>1.</text:number>Ponds</text:h>'
        "<text:p>Frogs   spawn\nin <text:span>March</text:span>.<text:s text:c='3'/>Newts"
        "<text:line-break/>follow<text:tab/>later."
        '<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation>'
        "<text:note-body><text:p>Common frogs only.</text:p></text:note-body></text:note></text:p>"
        '<text:h text:outline-level="2">Plants</text:h>'
        "<text:list><text:list-item><text:p>Water mint</text:p></text:list-item>"
        "<text:list-item><text:p>Marsh marigold</text:p>"
        "<text:list><text:list-item><text:p>yellow flowers</text:p></text:list-item></text:list>"
        "</text:list-item></text:list>"
        "<text:tracked-changes><text:changed-region><text:deletion>"
        "<text:p>deleted words</text:p></text:deletion></text:changed-region></text:tracked-changes>"
        "<text:table-of-content><text:index-body><text:p>Ponds 1</text:p></text:index-body>"
        "</text:table-of-content>"
        '<text:p>See the map<text:note text:note-class="endnote"><text:note-body>'
        "<text:p>Drawn in 2019.</text:p></text:note-body></text:note>"
        "<office:annotation><dc:creator>Ann</dc:creator><dc:date>2024-01-01</dc:date>"
        "<text:p>Check this</text:p></office:annotation></text:p>"
        "<table:table><table:table-row><table:table-cell><text:p>Name</text:p></table:table-cell>"
        "<table:table-cell><text:p>Depth</text:p></table:table-cell></table:table-row>"
        "<table:table-row><table:table-cell><text:p>Top pond</text:p></table:table-cell>"
        '<table:table-cell office:value-type="float" office:value="1.5"/></table:table-row>'
        "</table:table>")
    styles = ('<style:style style:name="P1" style:family="paragraph" '
              'style:parent-style-name="Title"/>')
    doc = read_document(odf("text", body, styles=styles), "guide.odt")
    assert doc.title == "Field guide"   # no dc:title: the Title-styled paragraph
    sections = by_heading(doc)
    assert sections[("Field guide", "Ponds")] == (
        "Frogs spawn in March. Newts\nfollow later.")
    assert sections[("Field guide", "Ponds", "Plants")].split("\n\n") == [
        "Water mint", "Marsh marigold", "yellow flowers", "See the map",
        "Name | Depth", "Top pond | 1.5"]
    assert sections[("Footnotes",)] == "Common frogs only."
    assert sections[("Endnotes",)] == "Drawn in 2019."
    assert sections[("Comments",)] == "Check this"
    assert "deleted" not in doc.text and "Ponds 1" not in doc.text and "Ann" not in doc.text


def test_odt_title_from_meta_and_template_extension():
    data = odf("text", "<text:h>Intro</text:h><text:p>Body</text:p>", title="Pond survey")
    doc = read_document(data, "survey.ott")
    assert (doc.title, doc.format) == ("Pond survey", "odt")
    assert doc.sections[0].heading == ("Intro",)


def test_odt_first_heading_is_the_title_without_meta():
    doc = read_document(odf("text", "<text:h>Intro</text:h><text:p>Body</text:p>"), "x.odt")
    assert doc.title == "Intro"


# -- spreadsheets -------------------------------------------------------------------
def test_ods_repeats_and_values():
    body = (
        '<table:table table:name="Budget">'
        '<table:table-column table:number-columns-repeated="1024"/>'
        '<table:table-row><table:table-cell office:value-type="string"><text:p>Item</text:p>'
        '</table:table-cell><table:table-cell table:number-columns-repeated="2" '
        'office:value-type="string"><text:p>TBD</text:p></table:table-cell>'
        '<table:table-cell table:number-columns-repeated="1021"/></table:table-row>'
        '<table:table-row table:number-rows-repeated="2"><table:table-cell '
        'office:value-type="boolean" office:boolean-value="true"/>'
        '<table:table-cell office:value-type="date" office:date-value="2024-03-01">'
        "<text:p>01/03/24</text:p></table:table-cell></table:table-row>"
        '<table:table-row table:number-rows-repeated="1048570"><table:table-cell '
        'table:number-columns-repeated="1024"/></table:table-row>'
        "</table:table>"
        '<table:table table:name="Empty"><table:table-row><table:table-cell/></table:table-row>'
        "</table:table>"
        '<table:table table:name="Notes"><table:table-row><table:table-cell>'
        "<text:p>Ask <text:span>Sam</text:span></text:p><text:p>by May</text:p>"
        '</table:table-cell><table:covered-table-cell/></table:table-row></table:table>')
    doc = read_document(odf("spreadsheet", body, title="Money"), "b.ods")
    assert doc.title == "Money"
    assert by_heading(doc) == {
        ("Budget",): "Item | TBD | TBD\n\ntrue | 01/03/24\n\ntrue | 01/03/24",
        ("Notes",): "Ask Sam by May"}
    assert doc.warnings == []


def test_ods_repeated_non_empty_rows_are_bounded():
    body = ('<table:table table:name="S"><table:table-row table:number-rows-repeated="1000000">'
            '<table:table-cell table:number-columns-repeated="1000000"><text:p>x</text:p>'
            "</table:table-cell></table:table-row></table:table>")
    doc = read_document(odf("spreadsheet", body), "huge.ods", Limits(max_repeat=50))
    row = " | ".join(["x"] * 50)
    # the first row is the header, repeated atop each block of rows after it
    body_rows = [line for s in doc.sections for line in s.text.split("\n\n")[1:]]
    assert len(body_rows) == 49 and set(body_rows) == {row}
    assert doc.sections[0].heading == ("S", "Rows 2\u20135")
    assert all(s.text.startswith(row + "\n\n") for s in doc.sections)
    assert doc.warnings == ["repeated rows or cells written at most 50 times"]


def test_ods_huge_repeat_stops_at_the_text_cap():
    body = ('<table:table table:name="S"><table:table-row table:number-rows-repeated="99999999">'
            '<table:table-cell table:number-columns-repeated="99999999"><text:p>word</text:p>'
            "</table:table-cell></table:table-row></table:table>")
    doc = read_document(odf("spreadsheet", body), "huge.ods", Limits(max_text_chars=100_000))
    assert 50_000 < len(doc.text) <= 100_000
    assert "repeated rows or cells written at most 1,000 times" in doc.warnings


# -- presentations -------------------------------------------------------------------
def test_odp_titles_notes_and_noise():
    def frame(cls: str, text: str) -> str:
        attr = f' presentation:class="{cls}"' if cls else ""
        return f"<draw:frame{attr}><draw:text-box><text:p>{text}</text:p></draw:text-box></draw:frame>"

    body = (
        '<draw:page draw:name="page1">' + frame("title", "Season plan") + frame("outline", "Sow peas")
        + frame("page-number", "1") + "<presentation:notes><draw:page-thumbnail/>"
        + frame("notes", "Mention the frost.") + "</presentation:notes></draw:page>"
        '<draw:page draw:name="page2"/>'
        '<draw:page draw:name="Budget">' + frame("", "Seeds 40")
        + "<draw:frame><table:table><table:table-row><table:table-cell><text:p>Q1</text:p>"
        "</table:table-cell><table:table-cell><text:p>12</text:p></table:table-cell>"
        "</table:table-row></table:table></draw:frame></draw:page>"
        '<draw:page draw:name="page4">' + frame("title", "Questions") + "</draw:page>")
    doc = read_document(odf("presentation", body), "plan.odp")
    assert doc.title == "Season plan"
    assert by_heading(doc) == {
        ("Slide 1 — Season plan",): "Sow peas\n\nNotes:\n\nMention the frost.",
        ("Slide 3 — Budget",): "Seeds 40\n\nQ1 | 12",
        ("Slide 4 — Questions",): "Questions",
    }


# -- damaged and hostile ---------------------------------------------------------------
@pytest.mark.parametrize("data, reason", [
    (b"PK\x03\x04 not really", r"not a valid \.odt file"),
    (b"plain text", r"not a valid \.odt file \(not a ZIP archive\)"),
])
def test_not_a_package(data, reason):
    with pytest.raises(SkipFile, match=reason):
        read_document(data, "x.odt")


def test_missing_content():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr("mimetype", MIMETYPES["text"])
    with pytest.raises(SkipFile, match=r"no content\.xml"):
        read_document(buffer.getvalue(), "x.odt")


def test_encrypted_document():
    data = odf("text", "<text:p>x</text:p>",
               manifest_extra='<manifest:encryption-data manifest:checksum="abc"/>')
    with pytest.raises(SkipFile, match="password-protected"):
        read_document(data, "secret.odt")


def test_zip_bomb_content_is_cut_at_the_part_cap():
    filler = "<text:p>" + " " * (8 * 1024 * 1024) + "</text:p>"
    data = odf("text", "<text:p>kept</text:p>" + filler)
    assert len(data) < 100_000
    doc = read_document(data, "bomb.odt", Limits(max_xml_part_bytes=1_000_000))
    assert doc.text == "kept"
    assert doc.warnings == ["content.xml cut at 1,000,000 bytes of XML"]


def test_zip_bomb_counts_against_the_document_cap():
    data = odf("text", "<text:p>" + " " * (8 * 1024 * 1024) + "</text:p>")
    with pytest.raises(SkipFile, match=r"ZIP content inflates beyond 500,000 bytes"):
        read_document(data, "bomb.odt", Limits(max_inflated_bytes=500_000))


def test_entity_declaration_is_refused():
    content = ('<?xml version="1.0"?><!DOCTYPE d [<!ENTITY lol "lol">]>'
               f'<office:document-content {NS}><office:body><office:text><text:p>&lol;</text:p>'
               "</office:text></office:body></office:document-content>")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr("mimetype", MIMETYPES["text"])
        zf.writestr("content.xml", content)
    with pytest.raises(SkipFile, match="declares a DTD/entities"):
        read_document(buffer.getvalue(), "laughs.odt")


def test_malformed_content():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr("mimetype", MIMETYPES["text"])
        zf.writestr("content.xml", "<office:document-content><unclosed>")
    with pytest.raises(SkipFile, match="malformed XML"):
        read_document(buffer.getvalue(), "bad.odt")


def test_deep_nesting_costs_no_recursion():
    depth = 50_000
    body = "<text:p>" + "<text:span>" * depth + "deep words" + "</text:span>" * depth + "</text:p>"
    doc = read_document(odf("text", body), "deep.odt")
    assert doc.text == "deep words"


def test_odt_headers_and_footers_from_the_page_styles():
    styles = (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-styles {NS}>'
              "<office:master-styles>"
              '<style:master-page style:name="Standard"><style:header><text:p>Garden '
              "<text:tab/>club<text:tab/><text:page-number>3</text:page-number></text:p>"
              "</style:header><style:header-left><text:p>Garden club</text:p></style:header-left>"
              "<style:footer><text:p>Page <text:page-number>1</text:page-number> of "
              "<text:page-count>9</text:page-count> — draft</text:p></style:footer></style:master-page>"
              '<style:master-page style:name="Other"/></office:master-styles></office:document-styles>')
    doc = read_document(odf("text", "<text:p>Body</text:p>", extra={"styles.xml": styles}), "h.odt")
    assert [(s.heading, s.text) for s in doc.sections] == [
        ((), "Body"), (("Header",), "Garden club"), (("Footer",), "Page of — draft")]


def test_long_repeated_cell_never_multiplies_past_the_text_cap():
    body = ('<table:table table:name="S"><table:table-row table:number-rows-repeated="1000">'
            '<table:table-cell table:number-columns-repeated="1000"><text:p>' + "w" * 100_000
            + "</text:p></table:table-cell></table:table-row></table:table>")
    data = odf("spreadsheet", body)
    assert len(data) < 5_000   # a thousand-by-thousand grid of 100 KB cells: 100 GB if written out
    doc = read_document(data, "bomb.ods", Limits(max_text_chars=1_000_000))
    assert len(doc.text) <= 1_000_000
    assert "repeated rows or cells written at most 1,000 times" in doc.warnings


def test_ods_long_sheet_blocks_carry_the_header_and_the_sheet_row_numbers():
    def row(*cells):
        return "<table:table-row>" + "".join(
            f"<table:table-cell><text:p>{c}</text:p></table:table-cell>" for c in cells) + "</table:table-row>"
    body = ('<table:table table:name="Plots">' + row("plot", "holder", "paid")
            + '<table:table-row table:number-rows-repeated="3"><table:table-cell/></table:table-row>'
            + "".join(row(n, f"Holder number {n}", "yes") for n in range(1, 81)) + "</table:table>")
    doc = read_document(odf("spreadsheet", body), "plots.ods")
    assert len(doc.sections) > 2
    assert doc.sections[0].heading[0] == "Plots" and doc.sections[0].heading[1].startswith("Rows 5\u2013")
    assert doc.sections[-1].heading == ("Plots", doc.sections[-1].heading[1])
    assert doc.sections[-1].heading[1].endswith("\u201384")
    assert all(s.text.startswith("plot | holder | paid\n\n") for s in doc.sections)
