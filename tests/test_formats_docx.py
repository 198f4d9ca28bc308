"""DOCX: runs, paragraphs, tables, headings, side parts, and real files."""
from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest

from glean_personal.errors import SkipFile
from glean_personal.formats import read_document
from office_factory import docx, para, run, table, xlsx

CORPUS = Path(__file__).parent / "data" / "corpus"


def read(data: bytes, name: str = "doc.docx"):
    return read_document(data, name)


def corpus(path: str):
    return read_document((CORPUS / path).read_bytes(), path.split("/")[-1])


def by_heading(doc):
    return {s.heading: s.text for s in doc.sections}


# -- built packages ---------------------------------------------------------
def test_runs_join_and_paragraphs_stay_separate():
    body = (para("Spl", "it ", "word") + para("Second paragraph")
            + para(run("tab"), "<w:r><w:tab/></w:r>", run("bed"), "<w:r><w:br/></w:r>", run("next"),
                   "<w:r><w:t>non</w:t><w:noBreakHyphen/><w:t>breaking</w:t></w:r>",
                   '<w:r><w:sym w:font="Wingdings" w:char="F04A"/></w:r>'))
    doc = read(docx(body))
    assert doc.text == "Split word\n\nSecond paragraph\n\ntab\tbed\nnextnon-breaking"


def test_tracked_changes_hyperlinks_fields_and_content_controls():
    body = para(
        run("Kept "),
        '<w:ins w:id="1" w:author="a"><w:r><w:t>inserted </w:t></w:r></w:ins>',
        '<w:del w:id="2" w:author="a"><w:r><w:delText>deleted </w:delText></w:r></w:del>',
        '<w:hyperlink r:id="rIdLink"><w:r><w:t>linked words</w:t></w:r></w:hyperlink>',
        run(" page "),
        '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE </w:instrText></w:r>'
        '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>7</w:t></w:r>'
        '<w:r><w:fldChar w:fldCharType="end"/></w:r>',
        '<w:fldSimple w:instr=" DATE "><w:r><w:t> on Monday</w:t></w:r></w:fldSimple>',
        '<w:sdt><w:sdtPr><w:alias w:val="Hidden alias"/></w:sdtPr><w:sdtContent><w:r><w:t>'
        " control</w:t></w:r></w:sdtContent></w:sdt>")
    doc = read(docx(body, extra_rels=[("rIdLink", "hyperlink", "https://example.com/")],
                    external=["rIdLink"]))
    assert doc.text == "Kept inserted linked words page 7 on Monday control"


def test_text_box_alternate_content_read_once():
    box = ('<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wps:txbx>'
           "<w:txbxContent>" + para("Boxed text") + "</w:txbxContent></wps:txbx></w:drawing>"
           "</mc:Choice><mc:Fallback><w:pict><v:textbox><w:txbxContent>" + para("Boxed text")
           + "</w:txbxContent></v:textbox></w:pict></mc:Fallback></mc:AlternateContent></w:r>")
    doc = read(docx(para("Before", box) + para("After")))
    assert doc.text.count("Boxed text") == 1
    assert "Before" in doc.text and "After" in doc.text


def test_tables_row_by_row_with_nested_tables():
    inner = table([["inner a", "inner b"]])
    body = table([["Tool", "Count"], ["Hex keys", "12"], [para("Nested:") + inner, "x"]])
    doc = read(docx(para("Inventory") + body))
    assert doc.text.split("\n\n") == ["Inventory", "Tool | Count", "Hex keys | 12",
                                      "Nested: inner a | inner b | x"]


def test_heading_styles_by_id_name_and_outline_level():
    styles = {"Kop1": "heading 1", "Kop2": "heading 2", "Fancy": "Fancy", "Title": "Title"}
    outlined = '<w:p><w:pPr><w:outlineLvl w:val="2"/></w:pPr>' + run("Outline three") + "</w:p>"
    body = (para("Handbook", style="Title") + para("Intro text")
            + para("Chapter", style="Kop1") + para("chapter text")
            + para("Section", style="Kop2") + para("section text")
            + outlined + para("deep text")
            + para("Other chapter", style="Heading1") + para("tail"))
    doc = read(docx(body, styles=styles))
    assert doc.title == "Handbook"
    assert by_heading(doc) == {
        ("Handbook",): "Intro text",
        ("Handbook", "Chapter"): "chapter text",
        ("Handbook", "Chapter", "Section"): "section text",
        ("Handbook", "Chapter", "Section", "Outline three"): "deep text",
        ("Handbook", "Other chapter"): "tail",
    }


def test_style_outline_level_and_based_on():
    styles_xml = (
        '<?xml version="1.0"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
        '<w:style w:type="paragraph" w:styleId="Big"><w:name w:val="Big"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>'
        '<w:style w:type="paragraph" w:styleId="Bigger"><w:name w:val="Bigger"/><w:basedOn w:val="Big"/></w:style>'
        "</w:styles>")
    body = para("Top", style="Bigger") + para("text")
    doc = read(docx(body, styles={}, parts={"word/styles.xml": styles_xml}))
    assert by_heading(doc) == {("Top",): "text"}
    assert doc.title == "Top"            # first heading when nothing better


def test_title_precedence_core_then_title_style_then_heading():
    body = para("Styled title", style="Title") + para("text")
    assert read(docx(body, title="Core title")).title == "Core title"
    assert read(docx(body)).title == "Styled title"
    assert read(docx(para("H", style="Heading2") + para("t"))).title == "H"
    assert read(docx(para("plain")), "dir/My Notes.docx").title == "My Notes"


def test_side_parts_get_their_own_sections():
    doc = read(docx(para("Body text"), footnotes=["A footnote about spokes"],
                    comments=["Check this figure"], headers=["Workshop", "Workshop"],
                    footers=["Page footer"]))
    assert by_heading(doc) == {
        (): "Body text",
        ("Header",): "Workshop",
        ("Footer",): "Page footer",
        ("Footnotes",): "A footnote about spokes",
        ("Comments",): "Check this figure",
    }


def test_main_part_found_through_relationships():
    data = docx(para("Moved main part"))
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name in src.namelist():
            content = src.read(name)
            if name == "word/document.xml":
                name = "word/main.xml"
            elif name == "word/_rels/document.xml.rels":
                name = "word/_rels/main.xml.rels"
            elif name in ("_rels/.rels", "[Content_Types].xml"):
                content = content.replace(b"word/document.xml", b"word/main.xml")
            zf.writestr(name, content)
    assert read(out.getvalue()).text == "Moved main part"


def test_missing_relationships_fall_back_to_default_names():
    data = docx(para("Body"), footnotes=["Foot"])
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name in src.namelist():
            if not name.endswith(".rels"):
                zf.writestr(name, src.read(name))
    doc = read(out.getvalue())
    assert by_heading(doc) == {(): "Body", ("Footnotes",): "Foot"}


def test_workbook_renamed_docx_is_refused_with_reason():
    with pytest.raises(SkipFile, match=r"not a valid \.docx file"):
        read(xlsx([("Sheet", [["a"]])]))


def test_not_a_zip():
    with pytest.raises(SkipFile, match=r"not a valid \.docx file \(not a ZIP archive\)"):
        read(b"plain text pretending")


def test_no_text():
    with pytest.raises(SkipFile, match="no extractable text"):
        read(docx(para("")))


# -- real files ---------------------------------------------------------------
def test_python_docx_tables_nested_and_header_footer():
    doc = corpus("python-docx/blk-paras-and-tables.docx")
    body = by_heading(doc)
    assert body[()].split("\n\n") == [
        "Lorem ipsum dolor sit amet, consectetur adipiscing elit.",
        "Text before Table Between Text after",
        "Donec semper facilisis metus finibus malesuada."]
    assert body[("Header",)] == "Left-side | Right-side"
    assert body[("Footer",)] == "Copyright | Page-number"


def test_python_docx_comments_part():
    body = by_heading(corpus("python-docx/comments-rich-para.docx"))
    assert "Some text worthy of note." in body[()]
    assert "Text with hyperlink https://google.com embedded." in body[("Comments",)]


def test_python_docx_headers_deduplicated():
    body = by_heading(corpus("python-docx/doc-odd-even-hdrs.docx"))
    assert body[("Header",)] == "Odd page header.\n\nEven page header."
    body = by_heading(corpus("python-docx/hdr-header-footer.docx"))
    assert body[("Header",)] == "Header for section-1"
    assert body[("Footer",)] == "Footer for section 1"


def test_python_docx_hyperlinks_and_page_breaks():
    doc = corpus("python-docx/par-hlink-frags.docx")
    assert "Three with link to https://foo.com." in doc.text.split("\n\n")
    doc = corpus("python-docx/par-rendered-page-breaks.docx")
    assert "Page break here>><<followed by more text." in doc.text


def test_python_docx_heading_style_and_tabs():
    doc = corpus("python-docx/par-known-paragraphs.docx")
    assert doc.title == "Heading Paragraph"
    assert by_heading(doc) == {("Heading Paragraph",): "Normal paragraph"}
    doc = corpus("python-docx/tab-stops.docx")
    assert "Assigned\tLeft\tcenter\tright" in doc.text


def test_python_docx_merged_cells():
    doc = corpus("python-docx/tbl-cell-access.docx")
    assert doc.text.startswith("1 | 2 | 3\n\n4 | 5 | 6\n\n7 | 8 | 9")


def test_python_docx_title_from_heading_style():
    doc = corpus("python-docx/test.docx")
    assert doc.title == "python-docx was here!"
    assert by_heading(doc)[("python-docx was here!",)] == "python-docx was here too!"


@pytest.mark.parametrize("name", ["doc-coreprops.docx", "doc-no-coreprops.docx",
                                  "sty-having-no-styles-part.docx"])
def test_python_docx_files_without_body_text_are_skipped(name):
    with pytest.raises(SkipFile, match="no extractable text"):
        corpus(f"python-docx/{name}")


def test_markitdown_docx_title_headings_and_comments():
    doc = corpus("markitdown/test.docx")
    assert doc.title == "AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation"
    paths = [s.heading for s in doc.sections]
    assert (doc.title, "Abstract") in paths
    assert (doc.title, "Introduction") in paths
    assert "AutoGen is an open-source framework" in by_heading(doc)[(doc.title, "Abstract")]
    doc = corpus("markitdown/test_with_comment.docx")
    assert by_heading(doc)[("Comments",)] == (
        "This is a test comment. 12df-321a\n\nYet another comment in the doc. 55yiyi-asd09")


def test_markitdown_equations_and_linked_image():
    doc = corpus("markitdown/equations.docx")
    assert "From Eq. 36.1.3," in doc.text
    assert "θ" in doc.text
    # The linked picture's alt text, less the note Word appends to text it wrote itself.
    assert corpus("markitdown/rlink.docx").text == "Testing Linked Images\n\nImage: A red and blue square"


# -- drawings: alt text, charts, SmartArt, text boxes -----------------------------
def test_drawings_give_alt_text_chart_data_and_smartart_words():
    from office_factory import chart_xml, diagram_data_xml, graphic_chart, graphic_diagram, word_drawing
    chart = chart_xml("Rainfall by month", [("Leeds", ["Jan", "Feb"], [61.5, 45.0]),
                                            ("York", ["Jan", "Feb"], [55.25, 40])],
                      axis_title="Millimetres")
    body = (para("Figures follow.")
            + para(word_drawing("", descr="A heron standing in a river", title="Heron", pic=True))
            + para(word_drawing(graphic_chart("rIdChart")))
            + table([["cell", "<w:p>" + word_drawing(graphic_diagram("rIdDm")) + "</w:p>"]]))
    data = docx(body, extra_rels=[("rIdChart", "chart", "charts/chart1.xml"),
                                  ("rIdDm", "diagramData", "diagrams/data1.xml")],
                parts={"word/charts/chart1.xml": chart,
                       "word/diagrams/data1.xml": diagram_data_xml(["Plan", "Build", "Ship"])})
    doc = read_document(data, "report.docx")
    assert doc.text.split("\n\n") == [
        "Figures follow.",
        "Image: Heron: A heron standing in a river",
        "Chart: Rainfall by month — Millimetres",
        "Leeds: Jan = 61.5; Feb = 45",
        "York: Jan = 55.25; Feb = 40",
        "cell | Plan Build Ship"]
    assert "photo.png" not in doc.text and "label" not in doc.text and "not shown" not in doc.text


def test_text_box_is_read_once_and_missing_chart_part_is_harmless():
    from office_factory import graphic_chart, word_drawing, word_text_box
    body = (para("Before the box.", word_text_box("Boxed words", "Second line"))
            + para(word_drawing(graphic_chart("rIdGone"))))
    data = docx(body, extra_rels=[("rIdGone", "chart", "charts/missing.xml")])
    doc = read_document(data, "box.docx")
    assert doc.text.count("Boxed words") == 1 and doc.text.count("Second line") == 1
    assert doc.text == "Boxed words\n\nSecond line\n\nBefore the box."


def test_a_placeholder_core_title_gives_way_to_the_first_heading():
    body = para("Seed swap", style="Heading1") + para("Second Saturday of October.")
    assert read(docx(body, title="Title")).title == "Seed swap"
    assert read(docx(body, title="Seed swap 2026")).title == "Seed swap 2026"


@pytest.mark.parametrize("declared, said", [("UTF-7", "multi-byte encoding"),
                                            ("x-no-such-codec", "encoding Python does not know")])
def test_a_part_in_an_encoding_the_xml_parser_cannot_read_is_refused_plainly(declared, said):
    """Once "could not read .docx file (ValueError: multi-byte encodings are not supported)"."""
    parts = {i.filename: z.read(i.filename)
             for z in [zipfile.ZipFile(io.BytesIO(docx(para("words"))))] for i in z.infolist()}
    body = parts["word/document.xml"].decode()
    parts["word/document.xml"] = re.sub(r"^<\?xml[^>]*\?>", f'<?xml version="1.0" encoding="{declared}"?>',
                                        body).encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    with pytest.raises(SkipFile) as info:
        read_document(buffer.getvalue(), "odd.docx")
    reason = str(info.value)
    assert "word/document.xml" in reason and said in reason, reason
    assert "could not read" not in reason and "Error" not in reason
