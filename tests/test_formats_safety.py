"""Hostile input: ZIP bombs, DTDs, escaping relationships, deep nesting, garbage.

Every case must end in a Document or a SkipFile with a reason, quickly, and
without inflating or expanding more than the limits allow.
"""
from __future__ import annotations

import io
import random
import zipfile
from pathlib import Path

import pytest

from glean_personal.config import Limits
from glean_personal.errors import SkipFile
from glean_personal.formats import read_document
from glean_personal.formats.package import Package, resolve_target
from helpers.cost import cpu_budget
from office_factory import (BILLION_LAUGHS, W, docx, docx_with_inflating_part, lie_about_size,
                            para, pptx, rels_xml, xlsx)

CORPUS = Path(__file__).parent / "data" / "corpus"
MB = 1024 * 1024


@pytest.fixture(scope="module")
def bomb() -> bytes:
    """A docx whose document.xml inflates to 200 MB of zeros (about 200 KB on disk)."""
    return docx_with_inflating_part(200 * MB)


def _timed_skip(data: bytes, name: str, match: str, limits: Limits = Limits()) -> None:
    with cpu_budget(2.0), pytest.raises(SkipFile, match=match):
        read_document(data, name, limits)


# -- ZIP size caps --------------------------------------------------------------
def test_zip_bomb_is_refused_without_inflating(bomb):
    assert len(bomb) < 1 * MB
    _timed_skip(bomb, "bomb.docx", r"ZIP part word/document\.xml inflates beyond 32,000,000 bytes")


def test_zip_bomb_with_lying_size_header(bomb):
    liar = lie_about_size(bomb, "word/document.xml", 1000)
    _timed_skip(liar, "liar.docx", r"not a valid \.docx file|malformed XML")


def test_zip_bomb_declaring_zero_bytes(bomb):
    _timed_skip(lie_about_size(bomb, "word/document.xml", 0), "zero.docx",
                r"not a valid \.docx file|malformed XML|no extractable text")


def test_unreferenced_huge_member_is_never_inflated():
    data = docx_with_inflating_part(64 * MB, part="word/media/zeros.bin")
    with cpu_budget(1.0):
        assert read_document(data, "ok.docx").text == "small"


def test_real_bytes_are_counted_per_document():
    padding = " " * 600_000     # valid XML whitespace, so parsing keeps going
    body = f'<w:document xmlns:w="{W}"><w:body>{padding}' + para("x") + "</w:body></w:document>"
    foot = (f'<w:footnotes xmlns:w="{W}"><w:footnote w:id="1">{padding}' + para("f")
            + "</w:footnote></w:footnotes>")
    data = docx("", document_xml=body, footnotes=["placeholder"],
                parts={"word/footnotes.xml": foot})
    limits = Limits(max_inflated_bytes=1_000_000, max_xml_part_bytes=800_000)
    _timed_skip(data, "big.docx", r"ZIP content inflates beyond 1,000,000 bytes", limits)
    assert read_document(data, "big.docx").text.startswith("x")     # fine under the defaults


def test_real_bytes_are_counted_per_part():
    data = docx(para("y" * 50_000))
    _timed_skip(data, "part.docx", r"inflates beyond 10,000 bytes", Limits(max_xml_part_bytes=10_000))


def test_package_counts_inflated_bytes():
    pkg = Package(docx(para("z" * 1000)), "docx", Limits())
    size = sum(len(c) for c in pkg.chunks("word/document.xml"))
    assert pkg.inflated == size > 1000


def test_nested_zip_is_never_opened_as_a_zip(bomb):
    inner = bomb
    data = docx(para("outer text"), extra_rels=[("rIdX", "footnotes", "embeddings/inner.docx")],
                parts={"word/embeddings/inner.docx": inner})
    doc = read_document(data, "nested.docx")
    assert doc.text == "outer text"


# -- XML declarations -----------------------------------------------------------
def test_billion_laughs_in_document_is_refused():
    data = docx("", document_xml=BILLION_LAUGHS)
    _timed_skip(data, "lol.docx", r"refused: XML part word/document\.xml declares a DTD/entities")


@pytest.mark.parametrize("where", ["rels", "core", "styles", "shared", "notes"])
def test_dtd_anywhere_in_a_package_is_refused(where):
    doctype = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "boom">]>'
    if where == "rels":
        data = docx(para("t"), parts={"word/_rels/document.xml.rels":
                                      doctype + rels_xml([]).split("?>", 1)[1]})
        name = "d.docx"
    elif where == "core":
        data = docx(para("t"), title="x", parts={
            "docProps/core.xml": doctype + '<cp:coreProperties xmlns:cp="urn:x"/>'})
        name = "d.docx"
    elif where == "styles":
        data = docx(para("t"), styles={}, parts={"word/styles.xml": doctype + "<styles/>"})
        name = "d.docx"
    elif where == "shared":
        data = xlsx([("S", [["a"]])], parts={"xl/sharedStrings.xml": doctype + "<sst>&e;</sst>"})
        name = "d.xlsx"
    else:
        data = pptx([{"title": "T", "notes": ["n"]}],
                    parts={"ppt/notesSlides/notesSlide1.xml": doctype + "<notes>&e;</notes>"})
        name = "d.pptx"
    _timed_skip(data, name, "refused: XML part .* declares a DTD/entities")


def test_utf16_encoded_part_with_dtd_is_refused():
    xml = BILLION_LAUGHS.replace('<?xml version="1.0"?>', '<?xml version="1.0" encoding="UTF-16"?>')
    data = docx("", document_xml=None, parts={"word/document.xml": xml.encode("utf-16")})
    _timed_skip(data, "wide.docx", "refused")


def test_dtd_marker_split_across_chunks_is_still_seen():
    filler = "<!-- " + "x" * (64 * 1024 - 30) + " -->"
    xml = '<?xml version="1.0"?>' + filler + '<!DOCTYPE d [<!ENTITY a "b">]><w:document/>'
    _timed_skip(docx("", document_xml=xml), "split.docx", "refused")


# -- relationship targets ---------------------------------------------------------
@pytest.mark.parametrize("source, target, expected", [
    ("word/document.xml", "media/image1.png", "word/media/image1.png"),
    ("word/document.xml", "../customXml/item1.xml", "customXml/item1.xml"),
    ("ppt/slides/slide1.xml", "../notesSlides/notesSlide1.xml", "ppt/notesSlides/notesSlide1.xml"),
    ("xl/workbook.xml", "/xl/worksheets/sheet1.xml", "xl/worksheets/sheet1.xml"),
    ("", "word/document.xml", "word/document.xml"),
    ("word/document.xml", "../../etc/passwd", None),
    ("word/document.xml", "../../../../../../etc/passwd", None),
    ("word/document.xml", "%2e%2e/%2e%2e/etc/passwd", None),
    ("word/document.xml", "file:///etc/passwd", None),
    ("word/document.xml", "https://example.com/x.xml", None),
    ("word/document.xml", "C:\\Windows\\win.ini", None),
    ("word/document.xml", "\\\\server\\share\\x.xml", None),
    ("word/document.xml", "", None),
])
def test_resolve_target(source, target, expected):
    assert resolve_target(source, target) == expected


def test_relationship_to_etc_passwd_is_not_followed():
    data = docx(para("body"), extra_rels=[("rIdEvil", "footnotes", "../../etc/passwd")],
                parts={"etc/passwd": "root:x:0:0:root:/root:/bin/bash"})
    doc = read_document(data, "evil.docx")
    assert doc.text == "body"


def test_external_relationship_is_not_followed():
    data = docx(para("body"), extra_rels=[("rIdExt", "footnotes", "footnotes.xml")],
                external=["rIdExt"],
                parts={"word/footnotes.xml": f'<w:footnotes xmlns:w="{W}">' + para("hidden")
                       + "</w:footnotes>"})
    assert read_document(data, "ext.docx").text == "body"


def test_external_slide_relationship_is_skipped_with_warning():
    data = pptx([{"title": "One", "body": ["b"]}], parts={
        "ppt/_rels/presentation.xml.rels": rels_xml([("rId10", "slide", "http://evil.example/slide.xml")],
                                                    external=["rId10"])})
    with pytest.raises(SkipFile, match="no extractable text"):
        read_document(data, "ext.pptx")


# -- deep nesting -----------------------------------------------------------------
def test_deeply_nested_docx_content_controls():
    depth = 100_000
    body = ("<w:sdt><w:sdtContent>" * depth + para("deep words")
            + "</w:sdtContent></w:sdt>" * depth)
    with cpu_budget(5.0):
        assert read_document(docx(body), "deep.docx").text == "deep words"


def test_deeply_nested_pptx_groups():
    from office_factory import group, shape
    shapes = shape(["inner"], None, 5)
    inner = ('<p:grpSp><p:nvGrpSpPr><p:cNvPr id="20" name="G"/><p:cNvGrpSpPr/><p:nvPr/>'
             "</p:nvGrpSpPr><p:grpSpPr/>")
    shapes = inner * 20_000 + shapes + "</p:grpSp>" * 20_000
    doc = read_document(pptx([{"title": "Deep", "shapes": group(shapes)}]), "deep.pptx")
    assert "inner" in doc.text


def test_deeply_nested_docx_tables():
    depth = 2_000
    body = "<w:tbl><w:tr><w:tc>" * depth + para("cell") + "</w:tc></w:tr></w:tbl>" * depth
    assert read_document(docx(body), "t.docx").text == "cell"


# -- garbage never escapes as anything but SkipFile ---------------------------------
def _mutations(data: bytes, count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        blob = bytearray(data)
        choice = rng.random()
        if choice < 0.4:
            blob = blob[: rng.randrange(1, len(blob))]
        else:
            for _ in range(rng.randrange(1, 20)):
                blob[rng.randrange(len(blob))] = rng.randrange(256)
        yield bytes(blob)


@pytest.mark.parametrize("path", ["markitdown/test.docx", "markitdown/test.xlsx",
                                  "python-pptx/test_slides.pptx", "markitdown/test.json",
                                  "markitdown/test_blog.html"])
def test_mutated_files_raise_only_skipfile(path):
    data = (CORPUS / path).read_bytes()
    name = path.split("/")[-1]
    for blob in _mutations(data, 40, seed=len(path)):
        try:
            read_document(blob, name)
        except SkipFile as exc:
            assert exc.reason


def test_mutated_parts_inside_a_valid_zip_raise_only_skipfile():
    src = zipfile.ZipFile(io.BytesIO((CORPUS / "markitdown/test.pptx").read_bytes()))
    rng = random.Random(7)
    for _ in range(25):
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as zf:
            for name in src.namelist():
                content = src.read(name)
                if name.endswith((".xml", ".rels")) and rng.random() < 0.3:
                    cut = rng.randrange(len(content) + 1)
                    content = content[:cut] + bytes([rng.randrange(256)]) + content[cut:]
                zf.writestr(name, content)
        try:
            read_document(out.getvalue(), "m.pptx")
        except SkipFile as exc:
            assert exc.reason


@pytest.mark.parametrize("name", ["a.txt", "a.md", "a.html", "a.json", "a.docx", "a.xlsx", "a.pptx"])
def test_random_bytes_raise_only_skipfile(name):
    rng = random.Random(name)
    for size in (1, 2, 3, 10, 100, 5000):
        try:
            read_document(bytes(rng.randrange(256) for _ in range(size)), name)
        except SkipFile:
            pass
