"""EPUB 2 and 3: spine order, chapter titles from nav/NCX, metadata, hostile books.

Real file: `handbook-pandoc.epub` (pandoc, EPUB 3 with an NCX too), see
tests/data/corpus/README.md. The others are built here with zipfile to the
EPUB Open Container Format: a stored `mimetype` first, then
`META-INF/container.xml` naming the package document (OPF), whose manifest,
spine and metadata drive the reading.
"""
from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest

from glean_personal.config import Limits
from glean_personal.errors import SkipFile
from glean_personal.formats import extract, read_document

CORPUS = Path(__file__).parent / "data" / "corpus" / "odf-epub"
CONTAINER = ('<?xml version="1.0"?><container version="1.0" '
             'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
             '<rootfile full-path="{opf}" media-type="application/oebps-package+xml"/>'
             "</rootfiles></container>")
XHTML11 = ('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" '
           '"http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">\n')


def chapter(title: str, body: str, doctype: str = "<!DOCTYPE html>\n") -> str:
    return (f'{doctype}<html xmlns="http://www.w3.org/1999/xhtml"><head><title>{title}</title>'
            f"</head><body>{body}</body></html>")


def epub(chapters: List[Tuple[str, str]], *, version: str = "3.0", title: str = "A Book",
         creators: Tuple[str, ...] = ("Ann Author",), spine: Optional[List[str]] = None,
         nav: Optional[List[Tuple[str, str]]] = None, ncx: Optional[List[Tuple[str, str]]] = None,
         extra: Optional[Dict[str, bytes]] = None, root: str = "OEBPS",
         opf_extra: str = "") -> bytes:
    """An EPUB whose chapters are (file name, XHTML) under `root`, spine in list order."""
    opf_path = f"{root}/content.opf"
    items = [f'<item id="c{i}" href="text/{name}" media-type="application/xhtml+xml"/>'
             for i, (name, _) in enumerate(chapters)]
    if nav is not None:
        items.append('<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" '
                     'properties="nav"/>')
    if ncx is not None:
        items.append('<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>')
    order = spine if spine is not None else [f"c{i}" for i in range(len(chapters))]
    meta = f"<dc:title>{title}</dc:title>" + "".join(
        f"<dc:creator>{name}</dc:creator>" for name in creators)
    opf = (f'<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" '
           f'version="{version}" unique-identifier="id"><metadata '
           f'xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:x</dc:identifier>'
           f"{meta}{opf_extra}</metadata><manifest>{''.join(items)}</manifest>"
           f'<spine{" toc=" + chr(34) + "ncx" + chr(34) if ncx is not None else ""}>'
           + "".join(f'<itemref idref="{idref}"/>' for idref in order) + "</spine></package>")
    parts: Dict[str, bytes] = {"META-INF/container.xml": CONTAINER.format(opf=opf_path).encode(),
                               opf_path: opf.encode()}
    for name, xhtml in chapters:
        parts[f"{root}/text/{name}"] = xhtml.encode("utf-8")
    if nav is not None:
        links = "".join(f'<li><a href="{href}">{label}</a></li>' for href, label in nav)
        parts[f"{root}/nav.xhtml"] = chapter(
            "Contents", '<nav epub:type="landmarks"><ol><li><a href="text/x.xhtml">Cover</a>'
            f'</li></ol></nav><nav epub:type="toc"><h1>Contents</h1><ol>{links}</ol></nav>'
        ).replace("<html ", '<html xmlns:epub="http://www.idpf.org/2007/ops" ').encode()
    if ncx is not None:
        points = "".join(f'<navPoint id="p{i}" playOrder="{i + 1}"><navLabel><text>{label}</text>'
                         f'</navLabel><content src="{src}"/></navPoint>'
                         for i, (src, label) in enumerate(ncx))
        parts[f"{root}/toc.ncx"] = (
            '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE ncx PUBLIC "-//NISO//DTD ncx '
            '2005-1//EN" "http://www.daisy.org/z3986/2005/ncx-2005-1.dtd">\n<ncx '
            'xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><head/><docTitle>'
            f"<text>{title}</text></docTitle><navMap>{points}</navMap></ncx>").encode()
    parts.update(extra or {})
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip",
                    compress_type=zipfile.ZIP_STORED)
        for name, data in parts.items():
            zf.writestr(name, data)
    return buffer.getvalue()


def headings(doc):
    return [s.heading for s in doc.sections]


def test_pandoc_epub():
    doc = extract(CORPUS / "handbook-pandoc.epub")
    assert (doc.title, doc.format, doc.warnings) == ("Community Garden Handbook", "epub", [])
    assert doc.sections[0].text == "Author: Garden Committee"
    assert headings(doc)[1:] == [("Community Garden Handbook",), ("Plots",), ("Plots", "Watering"),
                                 ("Plots", "Compost"), ("Plots", "Footnotes"), ("Tools",), ("Events",)]
    compost = doc.sections[4].text
    assert compost == "bin: A; takes: greens; turned: weekly\n\nbin: B; takes: browns; turned: monthly"
    # pandoc's notes block ends the chapter: its own section, without the ↩︎ back-link
    assert doc.sections[5].text == "Plots not worked for eight weeks may be offered to the waiting list."


def test_epub3_spine_order_and_nav_titles():
    chapters = [("one.xhtml", chapter("one", "<p>First written, read second.</p>")),
                ("two.xhtml", chapter("two", "<h1>Beginnings</h1><p>Read first.</p>"
                                      "<h2>Early days</h2><p>Mud &amp; rain.&nbsp;Sun.</p>")),
                ("three.xhtml", chapter("three", "<p>Not in the table of contents.</p>"))]
    nav = [("text/two.xhtml", "Beginnings"), ("text/two.xhtml#early", "Early days"),
           ("text/one.xhtml#top", "The Middle"), ("text/missing.xhtml", "Gone")]
    doc = read_document(epub(chapters, spine=["c1", "c0", "c2"], nav=nav,
                             creators=("Ann Author", "Bo Writer")), "book.epub")
    assert doc.title == "A Book"
    assert [(s.heading, s.text) for s in doc.sections] == [
        ((), "Author: Ann Author\nAuthor: Bo Writer"),
        (("Beginnings",), "Read first."),
        (("Beginnings", "Early days"), "Mud & rain. Sun."),
        (("The Middle",), "First written, read second."),
        ((), "Not in the table of contents."),
    ]


def test_epub2_ncx_titles_and_xhtml11_doctype():
    chapters = [("c1.xhtml", chapter("c1", "<p>Loomings&#8212;call me Ishmael.</p>", XHTML11)),
                ("c2.xhtml", chapter("c2", "<h2>The Carpet-Bag</h2><p>I stuffed a shirt.</p>",
                                     XHTML11))]
    ncx = [("text/c1.xhtml", "Chapter 1. Loomings"), ("text/c2.xhtml", "Chapter 2. The Carpet-Bag")]
    doc = read_document(epub(chapters, version="2.0", ncx=ncx, root="OPS"), "moby.epub")
    assert [(s.heading, s.text) for s in doc.sections] == [
        ((), "Author: Ann Author"),
        (("Chapter 1. Loomings",), "Loomings\u2014call me Ishmael."),
        (("Chapter 2. The Carpet-Bag", "The Carpet-Bag"), "I stuffed a shirt."),
    ]


def test_title_falls_back_and_description_is_read():
    chapters = [("a.xhtml", chapter("a", "<p>Text.</p>"))]
    data = epub(chapters, title="", creators=(), nav=[("text/a.xhtml", "Opening")],
                opf_extra="<dc:description>&lt;p&gt;A &lt;b&gt;short&lt;/b&gt; blurb.&lt;/p&gt;"
                          "</dc:description>")
    doc = read_document(data, "untitled.epub")
    assert doc.title == "Opening"
    assert doc.sections[0].text == "A short blurb."


def test_container_missing_falls_back_to_the_opf():
    data = epub([("a.xhtml", chapter("a", "<p>Found anyway.</p>"))])
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(buffer, "w") as dst:
        for info in src.infolist():
            if info.filename != "META-INF/container.xml":
                dst.writestr(info, src.read(info))
    assert "Found anyway." in read_document(buffer.getvalue(), "x.epub").text


def test_spine_item_outside_the_book_is_skipped_with_a_warning():
    chapters = [("a.xhtml", chapter("a", "<p>Inside.</p>"))]
    data = epub(chapters, spine=["c0", "ghost"])
    doc = read_document(data, "x.epub")
    assert doc.text.endswith("Inside.")
    assert doc.warnings == ["spine item 'ghost' skipped: missing from the file"]


@pytest.mark.parametrize("make, reason", [
    (lambda: b"PK\x03\x04garbage", r"not a valid \.epub file"),
    (lambda: epub([], spine=[]), r"spine lists no chapters"),
    (lambda: epub([("a.xhtml", "<p>x</p>")], extra={"META-INF/encryption.xml": (
        b'<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
        b'xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:CipherData>'
        b'<enc:CipherReference URI="OEBPS/text/a.xhtml"/></enc:CipherData></enc:EncryptedData>'
        b"</encryption>")}), "DRM-protected"),
    (lambda: epub([("a.xhtml", "<p>x</p>")], opf_extra="", extra={"OEBPS/content.opf": (
        b'<?xml version="1.0"?><!DOCTYPE p [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;">]>'
        b"<package>&b;</package>")}), "declares a DTD/entities"),
])
def test_refused_books(make, reason):
    with pytest.raises(SkipFile, match=reason):
        read_document(make(), "bad.epub")


def test_chapter_zip_bomb_is_refused():
    bomb = b"<p>" + b" " * (8 * 1024 * 1024) + b"</p>"
    data = epub([("a.xhtml", chapter("a", "<p>x</p>"))], extra={"OEBPS/text/a.xhtml": bomb})
    assert len(data) < 100_000
    with pytest.raises(SkipFile, match=r"inflates beyond 1,000,000 bytes"):
        read_document(data, "bomb.epub", Limits(max_xml_part_bytes=1_000_000))


def test_unreferenced_bomb_is_never_inflated():
    bomb = b"\0" * (70 * 1024 * 1024)
    data = epub([("a.xhtml", chapter("a", "<p>small</p>"))], extra={"OEBPS/images/z.bin": bomb})
    assert read_document(data, "ok.epub").text.endswith("small")


def test_file_holding_several_chapters_keeps_its_own_headings():
    body = ('<p class="chapter-title">CHAPTER I.</p><p>It is a truth universally acknowledged.</p>'
            '<h2 id="c2">CHAPTER II.</h2><p>Mr. Bennet was among the earliest.</p>')
    nav = [("text/pp.xhtml#c1", "Chapter I"), ("text/pp.xhtml#c2", "Chapter II")]
    doc = read_document(epub([("pp.xhtml", chapter("pp", body))], ncx=nav, version="2.0"), "pp.epub")
    assert [(s.heading, s.text.split("\n\n")[-1]) for s in doc.sections[1:]] == [
        (("Chapter I",), "It is a truth universally acknowledged."),
        (("CHAPTER II.",), "Mr. Bennet was among the earliest."),
    ]


def test_empty_or_binary_chapter_costs_only_itself():
    chapters = [("empty.xhtml", ""), ("bin.xhtml", "\0\0\0binary"),
                ("ok.xhtml", chapter("ok", "<p>Still here.</p>"))]
    doc = read_document(epub(chapters, nav=[("text/ok.xhtml", "Last")]), "x.epub")
    assert [(s.heading, s.text) for s in doc.sections][1:] == [(("Last",), "Still here.")]
    assert doc.warnings == ["chapter OEBPS/text/bin.xhtml not read: binary content (NUL bytes)"]


def test_a_chapter_title_in_a_section_header_is_kept():
    # Standard Ebooks and others put each chapter's title in <header>.
    body = ('<section id="c1" epub:type="chapter"><header><h2 epub:type="title">I</h2>'
            '<p epub:type="subtitle">Loomings</p></header><p>Call me Ishmael.</p></section>'
            "<footer><p>Back to top</p></footer>")
    doc = read_document(epub([("c1.xhtml", chapter("c1", body))]), "moby.epub")
    assert [(s.heading, s.text) for s in doc.sections][1:] == [
        (("I",), "Loomings\n\nCall me Ishmael.")]


def test_endnotes_block_under_the_chapter_title_and_a_placeholder_title():
    body = ('<h2>Sowing</h2><p>Sow thinly.<a role="doc-noteref" href="#n1">1</a></p>'
            "<h3>Indoors</h3><p>Use a heated tray.</p>"
            '<aside role="doc-endnotes"><ol><li id="n1"><p>Or in a cold frame.'
            '<a href="#r1" role="doc-backlink">↩︎</a></p></li></ol></aside>')
    doc = read_document(epub([("one.xhtml", chapter("one", body))], title="Untitled"), "seeds.epub")
    assert doc.title == "seeds"
    assert {s.heading: s.text for s in doc.sections}[("Sowing", "Endnotes")] == "Or in a cold frame."


@pytest.mark.parametrize("codec", ["shift_jis", "euc-jp"])
def test_a_chapter_in_the_encoding_its_xml_declaration_names_is_read_in_it(codec):
    """EPUB 2 books from Japan may keep Shift_JIS or EUC-JP chapters, named only by the
    XML declaration; they were read as cp1252 (`“Œ‹ž‚Ì˜b` for 東京の話)."""
    xhtml = (f'<?xml version="1.0" encoding="{codec}"?>\n'
             + chapter("東京", "<h1>東京の話</h1><p>渋谷区に行きました。</p>"))
    book = epub([("c1.xhtml", "")], extra={"OEBPS/text/c1.xhtml": xhtml.encode(codec)})
    doc = read_document(book, "tokyo.epub")
    assert ("東京の話",) in headings(doc) and "渋谷区に行きました。" in doc.text


def test_a_package_document_in_an_encoding_expat_lacks_is_refused_plainly():
    book = epub([("c1.xhtml", chapter("One", "<p>words</p>"))])
    opf = zipfile.ZipFile(io.BytesIO(book)).read("OEBPS/content.opf").decode()
    opf = opf.replace('encoding="UTF-8"', 'encoding="Shift_JIS"')
    book = epub([("c1.xhtml", chapter("One", "<p>words</p>"))],
                extra={"OEBPS/content.opf": opf.encode("shift_jis")})
    with pytest.raises(SkipFile) as info:
        read_document(book, "sjis.epub")
    reason = str(info.value)
    assert "OEBPS/content.opf" in reason and "multi-byte encoding" in reason, reason
    assert "could not read" not in reason and "ValueError" not in reason
