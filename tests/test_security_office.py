"""Hostile Office files (.docx, .xlsx, .pptx), built here, indexed through the facade.

Each case is a folder of its own, indexed as its own source in one guarded
subprocess (see test_security_harness.py): its report says what happened, its
cost is timed, the process and its workers have their peak memory measured,
and every file any of them opens under the test folder is logged. Expected
for each: the right text is indexed, or a skip with a clear reason; under 2 s;
under 300 MB; nothing outside the source folder opened, and the bytes placed
outside (a marker reached only through an external entity or a relationship
that climbs out of the package) never reach the database.

Measured facts behind the cases: a 10 KB .docx with an internal DTD costs
734 MB under plain xml.etree, so DTDs in Office parts are refused; a 27 KB ZIP
with overlapping entries inflates to 1 GiB, so inflated bytes are capped per
part and per document, counted as they stream, whatever the headers say.
"""
from __future__ import annotations

import io
import re
import struct
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple
from xml.sax.saxutils import escape

import pytest

from glean_personal.errors import SkipFile
from glean_personal.formats import read_document
from helpers.guard import (documents, file_bytes, integrity_problems, logged,
                           run_index_driver)
from helpers.zips import ZipWriter, overlapping_block

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
S = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
P = "http://schemas.openxmlformats.org/presentationml/2006/main"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
REL = R + "/"
PKG_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
CT = "http://schemas.openxmlformats.org/package/2006/content-types"
MAIN_TYPES = {
    "docx": ("word/document.xml",
             "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"),
    "xlsx": ("xl/workbook.xml",
             "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"),
    "pptx": ("ppt/presentation.xml",
             "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"),
}
# The part of each format that holds its text (where a hostile payload goes).
TEXT_PART = {"docx": "word/document.xml", "xlsx": "xl/worksheets/sheet1.xml",
             "pptx": "ppt/slides/slide1.xml"}
OUTSIDE_MARKER = "OUTSIDEMARKERzqxv"
EMBEDDED_MARKER = "EMBEDDEDMARKERzqxv"
MIB = 1 << 20
# A per-file budget no busy machine can exhaust, except for the two cases that test the
# budget itself (budget=True: 1 s, and they accept either outcome).
LIMITS = {"file_seconds": 60.0}
BUDGET_LIMITS = {"file_seconds": 1.0}
# Work is bounded by outcome, not by timing: linear reading costs 0.1-2.5 CPU s per case
# here, a quadratic blow-up minutes, so such a case is cut by that 60 s budget ("took too
# long to read") and fails below; bench/hostile_readers.py measures the costs themselves.
TIMED_OUT = "took too long to read"
MEMORY_KB = 300 * 1024
FORMATS = ("docx", "xlsx", "pptx")


# -- minimal, real packages ----------------------------------------------------------
def rels(*items: Tuple[str, str, str], external: Sequence[str] = ()) -> str:
    body = "".join(
        f'<Relationship Id="{rid}" Type="{REL + kind if "://" not in kind else kind}" '
        f'Target="{escape(target)}"' + (' TargetMode="External"' if rid in external else "") + "/>"
        for rid, kind, target in items)
    return f'<Relationships xmlns="{PKG_RELS}">{body}</Relationships>'


def content_types(fmt: str) -> str:
    main, ctype = MAIN_TYPES[fmt]
    return (f'<Types xmlns="{CT}"><Default Extension="rels" '
            'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            f'<Override PartName="/{main}" ContentType="{ctype}"/></Types>')


def docx_xml(*paragraphs: str) -> str:
    body = "".join(f"<w:p><w:r><w:t>{escape(p)}</w:t></w:r></w:p>" for p in paragraphs)
    return f'<w:document xmlns:w="{W}"><w:body>{body}</w:body></w:document>'


def sheet_xml(*rows: str) -> str:
    cells = "".join(f'<row r="{i}"><c r="A{i}" t="inlineStr"><is><t>{escape(v)}</t></is></c></row>'
                    for i, v in enumerate(rows, start=1))
    return f'<worksheet xmlns="{S}"><sheetData>{cells}</sheetData></worksheet>'


def slide_xml(*paragraphs: str) -> str:
    paras = "".join(f"<a:p><a:r><a:t>{escape(p)}</a:t></a:r></a:p>" for p in paragraphs)
    return (f'<p:sld xmlns:p="{P}" xmlns:a="{A}"><p:cSld><p:spTree><p:sp><p:txBody>'
            f'{paras}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>')


def package(fmt: str, texts: Sequence[str], extra: Optional[Dict[str, str]] = None,
            extra_rels: Sequence[Tuple[str, str, str]] = (), external: Sequence[str] = (),
            drop: Sequence[str] = ()) -> Dict[str, str]:
    """The parts of a minimal package of `fmt` holding one text part per entry of `texts`."""
    main = MAIN_TYPES[fmt][0]
    parts = {"[Content_Types].xml": content_types(fmt),
             "_rels/.rels": rels(("rId1", "officeDocument", main))}
    if fmt == "docx":
        parts["word/document.xml"] = docx_xml(*texts)
        parts["word/_rels/document.xml.rels"] = rels(*extra_rels, external=external)
    elif fmt == "xlsx":
        sheets = "".join(f'<sheet name="S{i}" sheetId="{i}" r:id="rId{i}"/>'
                         for i in range(1, len(texts) + 1))
        parts["xl/workbook.xml"] = (f'<workbook xmlns="{S}" xmlns:r="{R}"><sheets>{sheets}'
                                    "</sheets></workbook>")
        parts["xl/_rels/workbook.xml.rels"] = rels(
            *[(f"rId{i}", "worksheet", f"worksheets/sheet{i}.xml")
              for i in range(1, len(texts) + 1)], *extra_rels, external=external)
        for i, text in enumerate(texts, start=1):
            parts[f"xl/worksheets/sheet{i}.xml"] = sheet_xml(text)
    else:
        ids = "".join(f'<p:sldId id="{255 + i}" r:id="rId{i}"/>' for i in range(1, len(texts) + 1))
        parts["ppt/presentation.xml"] = (f'<p:presentation xmlns:p="{P}" xmlns:r="{R}">'
                                         f"<p:sldIdLst>{ids}</p:sldIdLst></p:presentation>")
        parts["ppt/_rels/presentation.xml.rels"] = rels(
            *[(f"rId{i}", "slide", f"slides/slide{i}.xml") for i in range(1, len(texts) + 1)],
            *extra_rels, external=external)
        for i, text in enumerate(texts, start=1):
            parts[f"ppt/slides/slide{i}.xml"] = slide_xml(text)
    parts.update(extra or {})
    for name in drop:
        parts.pop(name, None)
    return parts


def to_zip(parts: Dict[str, object]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, content in parts.items():
            zf.writestr(name, content.encode("utf-8") if isinstance(content, str) else content)
    return buffer.getvalue()


def with_payload(fmt: str, payload_xml: str, encoding: str = "utf-8") -> bytes:
    """A package whose text part is `payload_xml` (which may carry a DTD)."""
    parts: Dict[str, object] = dict(package(fmt, ["cover text"]))
    parts[TEXT_PART[fmt]] = payload_xml.encode(encoding)
    return to_zip(parts)


# -- bombs -------------------------------------------------------------------------
_PADDING: Dict[int, object] = {}


def padded_part(xml: str, pad: int) -> Tuple[bytes, int, int]:
    """`pad` spaces then `xml` (whitespace may precede the root element), raw-deflated.

    The padding is compressed once and the compressor state copied per part.
    Returns (compressed data, crc32, inflated size).
    """
    if pad not in _PADDING:
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        head = b"".join(c.compress(b" " * MIB) for _ in range(pad // MIB))
        _PADDING[pad] = (c, head, zlib.crc32(b" " * MIB * (pad // MIB)))
    c, head, crc = _PADDING[pad]
    c = c.copy()
    tail = xml.encode("utf-8")
    return head + c.compress(tail) + c.flush(), zlib.crc32(tail, crc), MIB * (pad // MIB) + len(tail)


def bomb_real_data(fmt: str) -> bytes:
    """Three honest 30 MiB parts (each under the 32 MB part cap; 90 MiB in all)."""
    texts = ["first bomb part", "second bomb part", "third bomb part"]
    if fmt == "docx":
        parts = package(fmt, [texts[0]], extra_rels=[("rId7", "header", "header1.xml"),
                                                      ("rId8", "footer", "footer1.xml")])
        big = {"word/document.xml": parts.pop("word/document.xml"),
               "word/header1.xml": f'<w:hdr xmlns:w="{W}"><w:p><w:r><w:t>{texts[1]}'
                                   "</w:t></w:r></w:p></w:hdr>",
               "word/footer1.xml": f'<w:ftr xmlns:w="{W}"><w:p><w:r><w:t>{texts[2]}'
                                   "</w:t></w:r></w:p></w:ftr>"}
    else:
        parts = package(fmt, texts)
        big = {name: parts.pop(name) for name in list(parts)
               if re.search(r"(sheet|slide)\d\.xml$", name)}
    z = ZipWriter()
    for name, content in parts.items():
        z.add(name, content.encode("utf-8"))
    for name, content in big.items():
        data, crc, size = padded_part(content, 30 * MIB)
        z.add_raw(name, data, crc, size)
    return z.getvalue()


def bomb_lying_header(fmt: str, declared: int) -> bytes:
    """The text part inflates to 30 MiB while both headers declare `declared` bytes."""
    parts = package(fmt, ["lying header text"])
    text_part = TEXT_PART[fmt]
    big = parts.pop(text_part)
    z = ZipWriter()
    for name, content in parts.items():
        z.add(name, content.encode("utf-8"))
    data, crc, size = padded_part(big, 30 * MIB)
    z.add_raw(text_part, data, crc, size, declared_usize=declared)
    return z.getvalue()


_OVERLAP: List[tuple] = []


def bomb_overlapping(fmt: str) -> bytes:
    """David Fifield's overlapping-entries bomb: ~30 KB that inflates to over 1 GiB."""
    if not _OVERLAP:
        names = ([name for fmt_ in FORMATS for name in (TEXT_PART[fmt_], MAIN_TYPES[fmt_][0])]
                 + [f"customXml/item{i:03d}.xml" for i in range(120)])
        _OVERLAP.append(overlapping_block(names, 8 * MIB))
    block, entries = _OVERLAP[0]
    z = ZipWriter()
    for name, content in package(fmt, ["x"]).items():
        if name not in (TEXT_PART[fmt], MAIN_TYPES[fmt][0]):
            z.add(name, content.encode("utf-8"))
    base = len(z.body)
    z.body += block
    for raw, offset, crc, csize, usize in entries:
        z.add_entry(raw, base + offset, crc, csize, usize)
    return z.getvalue()


BILLION_LAUGHS = ('<!DOCTYPE lolz [<!ENTITY lol "lol">'
                  + "".join(f'<!ENTITY lol{i} "{("&lol%s;" % (i - 1 if i > 1 else "")) * 10}">'
                            for i in range(1, 10)) + "]>")
QUADRATIC = '<!DOCTYPE q [<!ENTITY big "' + "B" * 50_000 + '">]>'


def xxe(outside: Path) -> str:
    return f'<!DOCTYPE x [<!ENTITY xxe SYSTEM "file://{outside / "marker.xml"}">]>'


def _in_text_part(fmt: str, dtd: str, reference: str) -> str:
    maker = {"docx": docx_xml, "xlsx": sheet_xml, "pptx": slide_xml}[fmt]
    return dtd + maker("PLACEHOLDER").replace("PLACEHOLDER", reference)


def million_shared_strings() -> bytes:
    parts = package("xlsx", ["first"])
    parts["xl/_rels/workbook.xml.rels"] = rels(("rId1", "worksheet", "worksheets/sheet1.xml"),
                                               ("rId2", "sharedStrings", "sharedStrings.xml"))
    # A1 names the first string: read within the budget, the sheet shows it.
    parts["xl/sharedStrings.xml"] = (f'<sst xmlns="{S}"><si><t>first</t></si>'
                                     + "<si><t>x</t></si>" * 999_999 + "</sst>")
    parts["xl/worksheets/sheet1.xml"] = (f'<worksheet xmlns="{S}"><sheetData><row r="1">'
                                         '<c r="A1" t="s"><v>0</v></c></row></sheetData></worksheet>')
    return to_zip(parts)


def million_cells() -> bytes:
    parts = package("xlsx", ["first"])
    row = "<c><v>7</v></c>" * 10
    parts["xl/worksheets/sheet1.xml"] = (f'<worksheet xmlns="{S}"><sheetData>'
                                         + f"<row>{row}</row>" * 100_000 + "</sheetData></worksheet>")
    return to_zip(parts)


# -- the cases -------------------------------------------------------------------------
@dataclass
class Case:
    name: str
    build: Callable[[Path], bytes]       # outside folder -> the file's bytes
    skip: Optional[str] = None           # a regex the skip reason must match
    text: Sequence[str] = ()             # indexed: words that must be in its text
    never: Sequence[str] = ()            # words that must never reach the database
    either: bool = False                 # indexed, or skipped with `skip`
    file_name: str = ""
    warning: Optional[str] = None        # indexed: a warning that must be recorded
    budget: bool = False                 # tests the per-file time budget (1 s)


def _cases() -> List[Case]:
    cases: List[Case] = []
    for fmt in FORMATS:
        ext = "." + fmt

        def add(name, build, **kw):
            cases.append(Case(f"{fmt}-{name}", build, file_name=f"{name}{ext}", **kw))

        add("control", lambda o, f=fmt: to_zip(package(f, [f"{f} control words"])),
            text=[f"{fmt} control words"])
        add("bomb-real-data", lambda o, f=fmt: bomb_real_data(f),
            skip=r"ZIP content inflates beyond 64,000,000 bytes")
        add("bomb-lying-small-header", lambda o, f=fmt: bomb_lying_header(f, 1000),
            skip=r"damaged ZIP archive: Bad CRC-32")
        add("bomb-lying-huge-header", lambda o, f=fmt: bomb_lying_header(f, 0xFFFFFFF0),
            skip=r"inflates beyond|damaged ZIP", either=True, text=["lying header text"])
        add("bomb-overlapping-entries", lambda o, f=fmt: bomb_overlapping(f),
            skip=r"Overlapped entries|malformed XML|damaged ZIP|no extractable text")
        add("zip-inside-zip", lambda o, f=fmt: to_zip(dict(
            package(f, [f"outer {f} words"]),
            **{f"{MAIN_TYPES[f][0].split('/')[0]}/embeddings/inner{ext}":
               to_zip(package(f, [EMBEDDED_MARKER]))})),
            text=[f"outer {fmt} words"], never=[EMBEDDED_MARKER])
        add("text-part-is-a-zip", lambda o, f=fmt: to_zip(dict(
            package(f, ["x"]), **{TEXT_PART[f]: bomb_real_data(f)})),
            skip=r"malformed XML|not well-formed|no extractable text", either=False)
        add("truncated", lambda o, f=fmt: to_zip(package(f, ["cut short"] * 40))[:300],
            skip=r"damaged ZIP archive|not a valid")
        add("not-a-zip", lambda o: b"just some words wearing an Office name\n",
            skip=r"not a valid \.\w+ file \(not a ZIP archive\)")
        add("no-main-part", lambda o, f=fmt: to_zip(package(f, ["gone"], drop=[MAIN_TYPES[f][0]])),
            skip=r"not a valid \.\w+ file \(no \w+\.xml part\)")
        add("no-content-types", lambda o, f=fmt: to_zip(
            package(f, [f"{f} without content types"], drop=["[Content_Types].xml"])),
            text=[f"{fmt} without content types"])
        add("billion-laughs", lambda o, f=fmt: with_payload(
            f, _in_text_part(f, BILLION_LAUGHS, "&lol9;")), skip=r"declares a DTD")
        add("billion-laughs-utf16", lambda o, f=fmt: with_payload(
            f, '<?xml version="1.0" encoding="UTF-16"?>' + _in_text_part(f, BILLION_LAUGHS, "&lol9;"),
            encoding="utf-16"), skip=r"declares a DTD")
        add("quadratic-blowup", lambda o, f=fmt: with_payload(
            f, _in_text_part(f, QUADRATIC, "&big;" * 50_000)), skip=r"declares a DTD")
        add("external-entity", lambda o, f=fmt: with_payload(
            f, _in_text_part(f, xxe(o), "&xxe;")), skip=r"declares a DTD")
        add("dtd-in-content-types", lambda o, f=fmt: to_zip(dict(
            package(f, ["x"]), **{"[Content_Types].xml": xxe(o) + content_types(f)})),
            skip=r"declares a DTD")
        add("relationships-outside", lambda o, f=fmt: to_zip(dict(
            package(f, [f"{f} inside words", f"{f} more inside words"], extra_rels=[
                ("rId20", "header" if f == "docx" else ("worksheet" if f == "xlsx" else "slide"),
                 "../../../../../../../../" + str(o / "marker.xml").lstrip("/")),
                ("rId21", "footer" if f == "docx" else ("worksheet" if f == "xlsx" else "slide"),
                 "file://" + str(o / "marker.xml")),
                ("rId22", "comments" if f == "docx" else ("worksheet" if f == "xlsx" else "slide"),
                 "../../escape.xml")], external=["rId21"]),
            **{"../escape.xml": slide_xml(OUTSIDE_MARKER), "escape.xml": slide_xml(OUTSIDE_MARKER)})),
            text=[f"{fmt} inside words"], never=[OUTSIDE_MARKER])
    cases.append(Case("xlsx-million-shared-strings", lambda o: million_shared_strings(),
                      file_name="strings.xlsx", skip=r"took too long to read", either=True,
                      text=["first"], budget=True))
    cases.append(Case("xlsx-million-cells", lambda o: million_cells(), file_name="cells.xlsx",
                      skip=r"took too long to read", either=True, text=["7 | 7 | 7"],
                      budget=True))
    return cases


CASES = _cases()
BY_NAME = {c.name: c for c in CASES}


@pytest.fixture(scope="module")
def office_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("office")
    root, outside = tmp / "root", tmp / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "marker.xml").write_text(slide_xml(OUTSIDE_MARKER))
    jobs = []
    for case in CASES:
        folder = root / case.name
        folder.mkdir()
        (folder / case.file_name).write_bytes(case.build(outside))
        jobs.append({"name": case.name, "folder": str(folder),
                     "limits": BUDGET_LIMITS if case.budget else {}})
    db = tmp / "db" / "personal.db"
    out = run_index_driver(tmp, tmp, db, jobs, LIMITS)
    return {"tmp": tmp, "outside": outside, "db": db, "out": out, "docs": documents(db)}


@pytest.mark.parametrize("name", [c.name for c in CASES])
def test_each_hostile_office_file_gets_a_clear_answer(office_run, name):
    case = BY_NAME[name]
    report = office_run["out"]["results"][name]["report"]
    skipped = {s["path"]: s["reason"] for s in report["skipped"]}
    doc = office_run["docs"].get((name, case.file_name))
    if case.file_name in skipped:
        assert case.skip, f"skipped unexpectedly: {skipped[case.file_name]}"
        assert re.search(case.skip, skipped[case.file_name]), skipped[case.file_name]
        assert doc is None
        return
    assert not case.skip or case.either, f"indexed, expected a skip matching {case.skip!r}"
    assert doc is not None and report["added"] == 1, report
    for words in case.text:
        assert words in doc["text"], doc["text"][:300]


@pytest.mark.parametrize("name", [c.name for c in CASES])
def test_each_hostile_office_file_is_read_within_the_per_file_budget(office_run, name):
    if BY_NAME[name].budget:
        pytest.skip("this case tests the budget itself")
    report = office_run["out"]["results"][name]["report"]
    assert not [s for s in report["skipped"] if TIMED_OUT in s["reason"]], report["skipped"]


def test_the_whole_office_run_stays_under_300_mb(office_run):
    out = office_run["out"]
    assert out["maxrss_self_kb"] < MEMORY_KB, out["maxrss_self_kb"]
    assert out["maxrss_children_kb"] < MEMORY_KB, out["maxrss_children_kb"]


def test_nothing_outside_the_source_folders_is_opened(office_run):
    opened = logged(office_run["tmp"], "opens")
    assert any("/root/docx-control/" in p for p in opened), "the open log saw nothing"
    assert [p for p in opened if p.startswith(str(office_run["outside"]))] == []


def test_bytes_reached_only_by_escaping_the_package_never_reach_the_database(office_run):
    data = file_bytes(office_run["db"])
    for marker in (OUTSIDE_MARKER, EMBEDDED_MARKER, "lollollol", "BBBBBBBBBB"):
        assert marker.encode() not in data, marker


def test_the_index_is_sound_after_the_hostile_run(office_run):
    assert integrity_problems(office_run["db"]) == []


def test_the_small_files_are_really_bombs():
    """The cases are what they claim: small on disk, huge when inflated."""
    for fmt in FORMATS:
        real = bomb_real_data(fmt)
        assert len(real) < 400_000
        with zipfile.ZipFile(io.BytesIO(real)) as zf:
            assert sum(i.file_size for i in zf.infolist()) > 90 * MIB
        overlap = bomb_overlapping(fmt)
        assert len(overlap) < 60_000
        _, entries = _OVERLAP[0]
        assert sum(e[4] for e in entries) > 10 ** 9


# -- ZIP headers that zipfile refuses with its own exceptions --------------------------
def _patched(data: bytes, signature: bytes, offset: int, value: int) -> bytes:
    """Every header with `signature` given the 2-byte `value` at `offset`."""
    out = bytearray(data)
    pos = out.find(signature)
    while pos >= 0:
        struct.pack_into("<H", out, pos + offset, value)
        pos = out.find(signature, pos + 4)
    return bytes(out)


def _central_directory_moved(data: bytes, by: int) -> bytes:
    """The end record says the central directory starts `by` bytes later than it does:
    every member's offset then points before the file's start."""
    out = bytearray(data)
    end = out.rfind(b"PK\x05\x06")
    start = struct.unpack_from("<I", out, end + 16)[0]
    struct.pack_into("<I", out, end + 16, start + by)
    return bytes(out)


def _bzip2_garbage(fmt: str) -> bytes:
    """The main part stored, then both headers made to call it bzip2-compressed."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as zf:
        for name, content in package(fmt, ["Hello"]).items():
            zf.writestr(name, content)
    data = _patched(buffer.getvalue(), b"PK\x03\x04", 8, zipfile.ZIP_BZIP2)
    return _patched(data, b"PK\x01\x02", 10, zipfile.ZIP_BZIP2)


CENTRAL = b"PK\x01\x02"
# name: (how the file is damaged, words the reason must hold). Found by indexing a folder
# of cut and flipped Office files (bench/hostile_folder.py): before, each was skipped as
# "could not read .docx file (NotImplementedError: zip file version 14.9)" and the like,
# zipfile's exception and a ZipInfo's repr shown to the user.
ZIP_REFUSALS = {
    "later ZIP version": (lambda fmt: _patched(to_zip(package(fmt, ["Hello"])), CENTRAL, 6, 149),
                          "a ZIP feature this reader lacks"),
    "deflate64": (lambda fmt: _patched(to_zip(package(fmt, ["Hello"])), CENTRAL, 10, 9),
                  "a ZIP feature this reader lacks"),
    "patched data": (lambda fmt: _patched(to_zip(package(fmt, ["Hello"])), CENTRAL, 8, 0x20),
                     "a ZIP feature this reader lacks"),
    "encrypted": (lambda fmt: _patched(to_zip(package(fmt, ["Hello"])), CENTRAL, 8, 1), "is encrypted"),
    "offsets before the start": (lambda fmt: _central_directory_moved(to_zip(package(fmt, ["Hello"])), 5000),
                                 "damaged ZIP archive"),
    "bzip2 garbage": (_bzip2_garbage, "damaged ZIP archive"),
}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", sorted(ZIP_REFUSALS))
def test_a_zip_that_zipfile_refuses_is_skipped_as_not_valid(fmt, case):
    build, words = ZIP_REFUSALS[case]
    with pytest.raises(SkipFile) as caught:
        read_document(build(fmt), f"damaged.{fmt}")
    reason = str(caught.value)
    assert reason.startswith(f"not a valid .{fmt} file (") and words in reason, reason
    assert "Error" not in reason and "ZipInfo" not in reason, reason


def test_the_zip_refusal_cases_are_readable_before_the_damage():
    for fmt in FORMATS:
        doc = read_document(to_zip(package(fmt, ["Hello"])), f"ok.{fmt}")
        assert "Hello" in "\n".join(section.text for section in doc.sections)
