"""Hostile and hand-made PDFs: every one ends in text or a SkipFile, never a crash or a hang."""
from __future__ import annotations

import zlib
from pathlib import Path

import pytest

from glean_personal.config import Limits
from glean_personal.errors import SkipFile
from glean_personal.formats import read_document
from tests.pdf_factory import build, show, stream, text_pdf


def read(data: bytes, limits: Limits = Limits()):
    return read_document(data, "x.pdf", limits)


def test_a_plain_hand_made_pdf():
    doc = read(text_pdf([show(["Hello world", "second line"]), show(["Page two here"])]))
    assert [s.page for s in doc.sections] == ["1", "2"]
    assert doc.sections[0].text == "Hello world\nsecond line"
    # the first line runs on into the paragraph: body text, so the file name is the title
    assert doc.title == "x"


def test_title_from_info_in_utf16():
    title = "Über".encode("utf-16-be")
    data = text_pdf([show(["Body text"])], extra_objects={5: b"<< /Title <feff" + title.hex().encode() + b"> >>"},
                    trailer_extra="/Info 5 0 R")
    assert read(data).title == "Über"


def test_title_from_xmp():
    xmp = (b'<x:xmpmeta><rdf:RDF><rdf:Description><dc:title><rdf:Alt><rdf:li xml:lang="x-default">'
           b"From &amp; XMP</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta>")
    data = text_pdf([show(["Body text"])], extra_objects={5: stream(xmp, "/Type /Metadata /Subtype /XML")},
                    catalog_extra="/Metadata 5 0 R")
    assert read(data).title == "From & XMP"


def test_spaces_from_positions_and_tj_offsets():
    content = (b"BT /F1 12 Tf 72 700 Td (Hel) Tj (lo) Tj 30 0 Td (world) Tj ET\n"
               b"BT /F1 12 Tf 72 680 Td [(sepa) -50 (rate) -400 (words)] TJ ET")
    text = read(text_pdf([content])).text
    assert text.splitlines() == ["Hello world", "separate words"]


def test_paragraph_gap_and_hyphen_join():
    lines = ["An example of a long", "line that ends in a hyphen-", "ated word.", "", "", "",
             "Another paragraph: hyphenated twice."]
    text = read(text_pdf([show(lines)])).text
    assert "hyphenated word." in text
    assert "\n\nAnother paragraph" in text


def test_compound_hyphen_kept():
    text = read(text_pdf([show(["this is well-known, a well-", "known fact"])])).text
    assert "well-known fact" in text


def test_differences_and_glyph_names():
    font = (b"<< /Type /Font /Subtype /Type1 /BaseFont /Custom /Encoding << /Type /Encoding "
            b"/BaseEncoding /WinAnsiEncoding /Differences [65 /f_i /uni00E9 /u1F600 /Omega /afii10017 /bogus.x] >> >>")
    content = b"BT /F1 12 Tf 72 700 Td (ABCDEF) Tj ET"
    assert read(text_pdf([content], font=font)).text == "fi\u00e9\U0001F600\u03a9\u0410"


def test_to_unicode_bfrange_forms_and_identity_h():
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
            b"1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
            b"2 beginbfrange <0001> <0003> <0041> <0010> <0011> [<0078> <00660069>] endbfrange\n"
            b"1 beginbfchar <0020> <0020> endbfchar endcmap end end")
    objects = {
        3: b"<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H "
           b"/DescendantFonts [4 0 R] /ToUnicode 5 0 R >>",
        4: b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /X /DW 500 /W [1 [600 600 600]] >>",
        5: stream(cmap),
    }
    content = b"BT /F1 12 Tf 72 700 Td <000100020003002000100011> Tj ET"
    data = text_pdf([content])
    data = text_pdf([content], extra_objects=objects)
    assert read(data).text == "ABC xfi"


def test_font_without_unicode_is_a_warning_not_garbage():
    objects = {3: b"<< /Type /Font /Subtype /Type0 /BaseFont /NoMap /Encoding /Identity-H "
                  b"/DescendantFonts [4 0 R] >>",
               4: b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /NoMap >>",
               6: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"}
    content = b"BT /F1 12 Tf 72 700 Td <00410042> Tj ET BT /F2 12 Tf 72 600 Td (readable) Tj ET"
    data = text_pdf([content], extra_objects=objects)
    data = data.replace(b"/Font << /F1 3 0 R >>", b"/Font << /F1 3 0 R /F2 6 0 R >>")
    doc = read(data)
    assert doc.text == "readable"
    assert any("NoMap" in w for w in doc.warnings)


def test_actual_text_replaces_glyphs():
    content = (b"BT /F1 12 Tf 72 700 Td /Span << /ActualText (ligature) >> BDC (lig) Tj EMC "
               b"( ok) Tj ET")
    assert read(text_pdf([content])).text == "ligature ok"


def test_form_xobject_text_and_self_reference():
    form = stream(b"BT /F1 12 Tf 0 0 Td (inside form) Tj ET /Fm0 Do",
                  "/Type /XObject /Subtype /Form /BBox [0 0 500 500] "
                  "/Resources << /Font << /F1 3 0 R >> /XObject << /Fm0 5 0 R >> >>")
    data = text_pdf([b"q 1 0 0 1 72 700 cm /Fm0 Do Q"], extra_objects={5: form})
    data = data.replace(b"/Font << /F1 3 0 R >>", b"/Font << /F1 3 0 R >> /XObject << /Fm0 5 0 R >>")
    assert read(data).text == "inside form"


def test_inherited_resources_and_nested_page_tree():
    objects = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Kids [4 0 R] /Count 1 /Resources << /Font << /F1 3 0 R >> >> >>",
        3: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        4: b"<< /Type /Pages /Parent 2 0 R /Kids [5 0 R 2 0 R 4 0 R] /Count 1 >>",   # a loop too
        5: b"<< /Type /Page /Parent 4 0 R /Contents 6 0 R >>",
        6: stream(show(["inherited fonts"])),
    }
    assert read(build(objects)).text == "inherited fonts"


def test_filters_chained_with_decode_parms_array():
    import base64
    body = show(["chained filters"])
    encoded = base64.a85encode(zlib.compress(body), adobe=True)[2:]
    obj = b"<< /Length %d /Filter [/ASCII85Decode /FlateDecode] /DecodeParms [null null] >>\nstream\n" % len(encoded)
    data = text_pdf([b"PLACEHOLDER"])
    data = build({1: b"<< /Type /Catalog /Pages 2 0 R >>",
                  2: b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
                  3: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
                  4: b"<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>",
                  5: obj + encoded + b"\nendstream"})
    assert read(data).text == "chained filters"


def test_stream_bomb_is_bounded():
    bomb = zlib.compress(b"0 0 m " * 4_000_000, 9)
    limits = Limits(max_pdf_stream_bytes=1_000_000, max_inflated_bytes=2_000_000)
    objects = {20: b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(bomb) + bomb + b"\nendstream"}
    data = text_pdf([show(["real text"])], extra_objects=objects)
    data = data.replace(b"/Contents 10 0 R", b"/Contents [10 0 R 20 0 R]")
    try:
        doc = read(data, limits)
    except SkipFile:
        return
    assert "real text" in doc.text or doc.warnings


def test_prev_loop_and_self_referencing_objects():
    base = text_pdf([show(["loop safe"])], extra_objects={7: b"7 0 R", 8: b"9 0 R", 9: b"8 0 R"})
    start = int(base.rsplit(b"startxref", 1)[1].split()[0])
    # a second trailer whose /Prev points at itself
    looped = base + b"xref\n0 0\ntrailer\n<< /Size 22 /Root 1 0 R /Prev %d >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(base), len(base))
    assert read(looped).text == "loop safe"
    assert start > 0


def test_deep_arrays_and_dictionaries():
    deep = b"[" * 100_000 + b"]" * 100_000
    dicts = b"<< /A " * 5000 + b">>" * 5000
    data = text_pdf([show(["still readable"])], extra_objects={7: deep, 8: dicts},
                    catalog_extra="/Deep 7 0 R /Dicts 8 0 R")
    assert read(data).text == "still readable"


def test_operator_limit():
    content = b"q Q " * 50_000 + show(["late text"])
    doc = read(text_pdf([show(["early text"]), content]), Limits(max_pdf_operators=1000))
    assert "early text" in doc.text and "late text" not in doc.text
    assert any("operators" in w for w in doc.warnings)


@pytest.mark.parametrize("data,reason", [
    (b"%PDF-1.7\n" + b"\x00garbage" * 100, "damaged beyond repair"),
    (b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF", "damaged beyond repair"),
    (b"GIF89a not a pdf at all", "not a PDF"),
])
def test_skip_reasons(data, reason):
    with pytest.raises(SkipFile, match=f"^{reason}$"):
        read(data)


def test_every_truncation_is_safe():
    data = text_pdf([show(["some words here"]), show(["more words"])])
    for cut in range(0, len(data), 37):
        try:
            read(data[:cut])
        except SkipFile:
            pass


def test_no_text_layer():
    image = stream(b"\xff" * 100, "/Type /XObject /Subtype /Image /Width 10 /Height 10 "
                   "/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode")
    data = text_pdf([b"q 10 0 0 10 0 0 cm /Im0 Do Q"], extra_objects={5: image})
    data = data.replace(b"/Font << /F1 3 0 R >>", b"/XObject << /Im0 5 0 R >>")
    with pytest.raises(SkipFile, match=r"^no text layer \(scanned pages\?\)$"):
        read(data)


def test_long_digit_runs_and_unclosed_blocks_stay_linear():
    content = (b"1" * 200_000 + b"a " + b"[" + b"12" * 50_000 + b"x ] " + show(["after the junk"])
               + b"[(a" + b"7" * 100_000)
    cmap = stream(b"beginbfchar <01> <0041> " * 20_000)
    objects = {3: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 5 0 R >>", 5: cmap}
    doc = read(text_pdf([content], extra_objects=objects))
    assert "after the junk" in doc.text


def test_text_drawn_right_to_left_keeps_stream_order():
    # each glyph placed to the left of the one before, as right-to-left producers do
    content = b"BT /F1 12 Tf " + b" ".join(
        b"1 0 0 1 %d 700 Tm (%s) Tj" % (300 - 7 * i, c) for i, c in enumerate([b"a", b"b", b"c"])) \
        + b" 1 0 0 1 265 700 Tm (d) Tj ET"
    assert read(text_pdf([content])).text == "abc d"


def test_columns_interleaved_line_by_line_are_read_column_by_column():
    ops = [b"BT /F1 10 Tf"]
    for i in range(12):
        y = 700 - 12 * i
        ops.append(b"1 0 0 1 72 %d Tm (left%d lorem ipsum dolor sit amet elit) Tj" % (y, i))
        ops.append(b"1 0 0 1 320 %d Tm (right%d lorem ipsum dolor sit amet elit) Tj" % (y, i))
    ops.append(b"ET")
    text = read(text_pdf([b"\n".join(ops)])).text
    assert text.index("left11") < text.index("right0")
    assert text.index("left0") < text.index("left1 ") < text.index("right0") < text.index("right11")


def test_table_cells_on_one_baseline_stay_one_line():
    content = (b"BT /F1 10 Tf 1 0 0 1 72 700 Tm (Country) Tj 1 0 0 1 250 700 Tm (Capital) Tj "
               b"1 0 0 1 72 688 Tm (Austria) Tj 1 0 0 1 250 688 Tm (Vienna) Tj ET")
    assert read(text_pdf([content])).text == "Country Capital\nAustria Vienna"


@pytest.mark.parametrize("stored, expected", [
    ("untitled", "Seed swap notes"),                    # ReportLab's default
    ("Microsoft Word - budget 2026.docx", "budget 2026"),  # printed from Word
    ("C:\\\\Users\\\\ann\\\\plot-fees.doc", "plot-fees"),      # a path in the title field
    ("Garden rota", "Garden rota"),
])
def test_a_placeholder_info_title_is_not_the_title(stored, expected):
    page = show(["Seed swap notes"], y=720) + b"\n" + show(["The swap is in October,", "in the hall."], y=660)
    data = text_pdf([page], extra_objects={5: b"<< /Title (" + stored.encode() + b") >>"},
                    trailer_extra="/Info 5 0 R")
    assert read(data).title == expected


def test_a_first_line_on_its_own_is_the_title_a_contents_heading_is_not():
    lines = b"\n".join([show(["Contents"], size=24, y=740), show(["1 Sowing 2", "2 Harvest 3"], y=700),
                        show(["Body text that goes on", "for a second line."], y=600)])
    assert read(text_pdf([lines])).title == "x"
    alone = show(["Seed swap notes"], y=720) + b"\n" + show(["Body text that goes on", "and on."], y=660)
    assert read(text_pdf([alone])).title == "Seed swap notes"


def _page(top: str, body: list, bottom: str) -> bytes:
    return b"\n".join([show([top], y=760), show(body, y=700), show([bottom], y=60)])


def test_running_heads_feet_and_page_numbers_are_left_out():
    pages = [_page("Allotment newsletter", [f"News item {n} is here.", f"It goes on {n}."],
                   f"Page {n} of 4") for n in range(1, 5)]
    doc = read(text_pdf(pages))
    assert [s.text for s in doc.sections] == [f"News item {n} is here.\nIt goes on {n}." for n in range(1, 5)]


def test_a_running_head_with_the_page_number_goes_when_pages_share_it():
    pages = [_page(f"{n} 2.1. WATERING" if n % 2 else f"2.1. WATERING {n}", [f"Body {n}."], "Plot rules")
             for n in range(1, 4)]
    pages.append(_page("3 Compost", ["Body 4."], "Total 12"))     # a heading and a number of its own
    texts = [s.text for s in read(text_pdf(pages)).sections]
    assert texts[:3] == ["Body 1.", "Body 2.", "Body 3."]   # "Plot rules" is on 3 of 4 pages
    assert texts[3] == "3 Compost\n\nBody 4.\n\nTotal 12"


def test_a_line_on_two_pages_only_stays():
    pages = [_page("Seed list", [f"Body {n}."], "Sow in spring") for n in range(1, 3)]
    pages += [_page(f"Other {n}", [f"Body {n}."], f"End {n}x") for n in range(3, 7)]
    texts = [s.text for s in read(text_pdf(pages)).sections]
    assert texts[0] == "Seed list\n\nBody 1.\n\nSow in spring"


def test_a_real_pdflatex_file_loses_its_page_numbers():
    data = (Path(__file__).parent / "data" / "pdf" / "four-pages.pdf").read_bytes()
    doc = read(data)
    assert len(doc.sections) == 4
    assert not any(s.text.rstrip().endswith("\n" + s.page) for s in doc.sections)
    assert doc.sections[3].text.endswith("should match the language.")


def test_a_line_that_is_the_whole_of_every_page_stays():
    doc = read(text_pdf([show(["Same words on every page"]) for _ in range(4)]))
    assert [s.text for s in doc.sections] == ["Same words on every page"] * 4


def test_a_raised_footnote_call_is_kept_apart_from_its_number_an_exponent_is_not():
    page = (b"BT /F1 12 Tf 72 700 Td (Population 83,190,556) Tj /F1 7 Tf 5 Ts (2) Tj "
            b"/F1 12 Tf 0 Ts ( people) Tj ET\n"
            b"BT /F1 12 Tf 72 600 Td (Area in km) Tj /F1 7 Tf 5 Ts (2) Tj ET")
    assert read(text_pdf([page])).sections[0].text == "Population 83,190,556 2 people\n\nArea in km2"


def test_a_title_set_on_two_lines_is_read_whole():
    # as the title of SQLite's copyright release form is set (`Copyright Release for` /
    # `Contributions To SQLite`); a second paragraph in the same type is not part of it
    page = b"\n".join([show(["Allotment Society", "Annual Report 2026"], size=20, leading=18, y=740),
                       show(["Plot 9"], size=20, y=660),
                       show(["The year began with a leaking tap,", "and ended with new paths",
                             "laid with woodchip by the members", "on two Saturdays in March."], y=600)])
    assert read(text_pdf([page])).title == "Allotment Society Annual Report 2026"


# groff man pages printed to PDF through Ghostscript (Graphviz's pdf/*.1.pdf, for one) justify
# lines with the character spacing: a word space can be the spacing after the last letter of a
# word shown in one string with the first letter of the next (`(se)Tj` at 3pt in a 10pt font for
# "removes edges"), and a tight pair is set with a negative spacing before the next string is
# placed from the line's start (`-1.11 Tc (Ve)Tj 0 Tc 10.55 0 Td (rbose output.)Tj`).
TIMES = b"<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>"
GROFF_JUSTIFIED = (b"BT /F1 10 Tf 72 700 Td 0.503 Tw (This remo)Tj -0.15 Tc 41.1828 0 Td (ve)Tj "
                   b"3.003 Tc 9.28984 0 Td (se)Tj 0 Tc 11.3328 0 Td (dges implied by transiti)Tj "
                   b"95.4289 0 Td (vity)Tj 5.503 Tc 14.9102 0 Td (.N)Tj 0 Tc 15.223 0 Td "
                   b"(odes are not otherwise af)Tj ET "
                   b"BT /F1 10 Tf 72 680 Td (-v)Tj -1.11 Tc 36 0 Td (Ve)Tj 0 Tc 10.55 0 Td (rbose output.)Tj ET")


def test_character_spacing_of_a_justified_groff_page():
    text = read(text_pdf([GROFF_JUSTIFIED], font=TIMES)).sections[0].text
    assert "This removes edges implied by transitivity. Nodes are not otherwise af" in text
    assert "Verbose output." in text



def test_a_nul_between_operands_is_whitespace():
    # NUL is whitespace in PDF; between a number and its operator it cost the whole page
    # ("page 1 could not be read (ValueError)"), so the file had no text at all.
    body = b"BT /F1 12 Tf 72 700 Td (Hedge)\x00Tj 0\x00-20\x00Td (laying) Tj ET"
    doc = read_document(text_pdf([body]), "nul.pdf")
    assert doc.text.split() == ["Hedge", "laying"]
