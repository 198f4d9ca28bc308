"""Minimal but real OOXML packages (.docx, .xlsx, .pptx) written with zipfile.

Each package has [Content_Types].xml, the package relationships, docProps/core.xml
(title, creator, dates) and the main part with its own relationships. They are
what the glean_personal readers and other OOXML consumers read; Office itself
would also want styles, themes, slide masters and layouts, which carry no text
and are left out.

Two details are deliberately not the trivial layout, because readers must not
rely on them (docs/formats.md):
- a workbook's sheets are listed in workbook.xml in the reverse order of their
  sheetN.xml file numbers, resolved through xl/_rels/workbook.xml.rels;
- a presentation's display order (ppt/presentation.xml's sldIdLst) is its slide
  files rotated by one, so slide1.xml is shown last.

Output is byte-for-byte deterministic for the same input (fixed zip timestamps).
"""
from __future__ import annotations

import zipfile
from typing import List, Sequence, Tuple, Union
from xml.sax.saxutils import escape

FIXED_DATE = (2024, 1, 1, 0, 0, 0)
W3CDTF = "2024-01-01T00:00:00Z"

NS_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
NS_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
NS_CT = "http://schemas.openxmlformats.org/package/2006/content-types"
REL_OFFICE_DOC = NS_R + "/officeDocument"
REL_CORE = "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties"
NS_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
NS_S = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
NS_P = "http://schemas.openxmlformats.org/presentationml/2006/main"
NS_A = "http://schemas.openxmlformats.org/drawingml/2006/main"
CT_CORE = "application/vnd.openxmlformats-package.core-properties+xml"
CT_RELS = "application/vnd.openxmlformats-package.relationships+xml"

# A docx block: ("heading", level, text) | ("para", text) | ("table", [[cell, ...], ...])
Block = Union[Tuple[str, int, str], Tuple[str, str], Tuple[str, List[List[str]]]]

XML_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'


def _x(text: str) -> str:
    return escape(text)


def _content_types(overrides: Sequence[Tuple[str, str]]) -> str:
    parts = [f'<Override PartName="{name}" ContentType="{ctype}"/>' for name, ctype in overrides]
    return (XML_DECL + f'<Types xmlns="{NS_CT}">'
            f'<Default Extension="rels" ContentType="{CT_RELS}"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            + "".join(parts) + "</Types>")


def _rels(items: Sequence[Tuple[str, str, str]]) -> str:
    body = "".join(f'<Relationship Id="{rid}" Type="{rtype}" Target="{target}"/>'
                   for rid, rtype, target in items)
    return XML_DECL + f'<Relationships xmlns="{NS_REL}">{body}</Relationships>'


def _core(title: str, creator: str) -> str:
    return (XML_DECL +
            '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
            'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" '
            'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
            f"<dc:title>{_x(title)}</dc:title><dc:creator>{_x(creator)}</dc:creator>"
            f'<dcterms:created xsi:type="dcterms:W3CDTF">{W3CDTF}</dcterms:created>'
            f'<dcterms:modified xsi:type="dcterms:W3CDTF">{W3CDTF}</dcterms:modified>'
            "</cp:coreProperties>")


def _write_zip(path: str, parts: Sequence[Tuple[str, str]]) -> None:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, text in parts:
            info = zipfile.ZipInfo(name, date_time=FIXED_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, text.encode("utf-8"))


def _package_rels(main_part: str) -> str:
    return _rels([("rId1", REL_OFFICE_DOC, main_part), ("rId2", REL_CORE, "docProps/core.xml")])


# ---------------------------------------------------------------- docx

def _w_para(text: str, style: str = "") -> str:
    ppr = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    # Split into up to three runs so readers must join runs within a paragraph.
    words = text.split(" ")
    cuts = [0, len(words) // 3, 2 * len(words) // 3, len(words)]
    runs = []
    for a, b in zip(cuts, cuts[1:]):
        if a == b:
            continue
        chunk = " ".join(words[a:b]) + (" " if b < len(words) else "")
        runs.append(f'<w:r><w:t xml:space="preserve">{_x(chunk)}</w:t></w:r>')
    return f"<w:p>{ppr}{''.join(runs)}</w:p>"


def _w_table(rows: List[List[str]]) -> str:
    body = "".join(
        "<w:tr>" + "".join(f"<w:tc>{_w_para(cell)}</w:tc>" for cell in row) + "</w:tr>" for row in rows)
    return f"<w:tbl><w:tblPr/>{body}</w:tbl>"


STYLES_XML = (XML_DECL + f'<w:styles xmlns:w="{NS_W}">' + "".join(
    f'<w:style w:type="paragraph" w:styleId="Heading{i}"><w:name w:val="heading {i}"/></w:style>'
    for i in (1, 2, 3)) + '<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style>'
    "</w:styles>")


def write_docx(path: str, title: str, blocks: Sequence[Block], creator: str = "bench") -> None:
    """A Word document: heading-styled paragraphs, body paragraphs and tables."""
    body = []
    for block in blocks:
        kind = block[0]
        if kind == "heading":
            body.append(_w_para(block[2], f"Heading{min(int(block[1]), 3)}"))  # type: ignore[arg-type]
        elif kind == "para":
            body.append(_w_para(block[1]))  # type: ignore[arg-type]
        elif kind == "table":
            body.append(_w_table(block[1]))  # type: ignore[arg-type]
        else:
            raise ValueError(f"unknown block kind {kind!r}")
    document = (XML_DECL + f'<w:document xmlns:w="{NS_W}" xmlns:r="{NS_R}"><w:body>'
                + "".join(body) + "<w:sectPr/></w:body></w:document>")
    main = "application/vnd.openxmlformats-officedocument.wordprocessingml"
    _write_zip(path, [
        ("[Content_Types].xml", _content_types([
            ("/word/document.xml", main + ".document.main+xml"),
            ("/word/styles.xml", main + ".styles+xml"),
            ("/docProps/core.xml", CT_CORE)])),
        ("_rels/.rels", _package_rels("word/document.xml")),
        ("docProps/core.xml", _core(title, creator)),
        ("word/_rels/document.xml.rels", _rels([("rId1", NS_R + "/styles", "styles.xml")])),
        ("word/styles.xml", STYLES_XML),
        ("word/document.xml", document),
    ])


# ---------------------------------------------------------------- xlsx

def _col(n: int) -> str:
    name = ""
    n += 1
    while n:
        n, rem = divmod(n - 1, 26)
        name = chr(65 + rem) + name
    return name


def write_xlsx(path: str, title: str, sheets: Sequence[Tuple[str, List[List[object]]]],
               creator: str = "bench") -> None:
    """A workbook: each sheet a (name, rows) pair; str cells go to sharedStrings, numbers stay values."""
    strings: List[str] = []
    index = {}
    sheet_parts = []
    count = len(sheets)
    for position, (_, rows) in enumerate(sheets):
        xml_rows = []
        for r, row in enumerate(rows, start=1):
            cells = []
            for c, value in enumerate(row):
                ref = f"{_col(c)}{r}"
                if isinstance(value, str):
                    if value not in index:
                        index[value] = len(strings)
                        strings.append(value)
                    cells.append(f'<c r="{ref}" t="s"><v>{index[value]}</v></c>')
                else:
                    cells.append(f'<c r="{ref}"><v>{value}</v></c>')
            xml_rows.append(f'<row r="{r}">{"".join(cells)}</row>')
        # Sheet at workbook position p lives in sheet{count - p}.xml.
        sheet_parts.append((f"xl/worksheets/sheet{count - position}.xml",
                            XML_DECL + f'<worksheet xmlns="{NS_S}"><sheetData>'
                            + "".join(xml_rows) + "</sheetData></worksheet>"))
    workbook = (XML_DECL + f'<workbook xmlns="{NS_S}" xmlns:r="{NS_R}"><sheets>'
                + "".join(f'<sheet name="{_x(name)}" sheetId="{i + 1}" r:id="rId{i + 1}"/>'
                          for i, (name, _) in enumerate(sheets))
                + "</sheets></workbook>")
    wb_rels = [(f"rId{i + 1}", NS_R + "/worksheet", f"worksheets/sheet{count - i}.xml")
               for i in range(count)]
    wb_rels.append((f"rId{count + 1}", NS_R + "/sharedStrings", "sharedStrings.xml"))
    shared = (XML_DECL + f'<sst xmlns="{NS_S}" count="{len(strings)}" uniqueCount="{len(strings)}">'
              + "".join(f'<si><t xml:space="preserve">{_x(s)}</t></si>' for s in strings) + "</sst>")
    main = "application/vnd.openxmlformats-officedocument.spreadsheetml"
    overrides = [("/xl/workbook.xml", main + ".sheet.main+xml"),
                 ("/xl/sharedStrings.xml", main + ".sharedStrings+xml"),
                 ("/docProps/core.xml", CT_CORE)]
    overrides += [("/" + name, main + ".worksheet+xml") for name, _ in sorted(sheet_parts)]
    _write_zip(path, [
        ("[Content_Types].xml", _content_types(overrides)),
        ("_rels/.rels", _package_rels("xl/workbook.xml")),
        ("docProps/core.xml", _core(title, creator)),
        ("xl/workbook.xml", workbook),
        ("xl/_rels/workbook.xml.rels", _rels(wb_rels)),
        ("xl/sharedStrings.xml", shared),
    ] + sorted(sheet_parts))


# ---------------------------------------------------------------- pptx

def _a_paras(lines: Sequence[str]) -> str:
    return "".join(f'<a:p><a:r><a:t>{_x(line)}</a:t></a:r></a:p>' for line in lines)


def _shape(shape_id: int, name: str, lines: Sequence[str]) -> str:
    return (f'<p:sp><p:nvSpPr><p:cNvPr id="{shape_id}" name="{_x(name)}"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr>'
            f'<p:spPr/><p:txBody><a:bodyPr/>{_a_paras(lines)}</p:txBody></p:sp>')


def _sp_tree(shapes: str) -> str:
    return ('<p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>'
            f'<p:grpSpPr/>{shapes}</p:spTree></p:cSld>')


def write_pptx(path: str, title: str, slides: Sequence[Tuple[str, List[str], str]],
               creator: str = "bench") -> None:
    """A presentation: each slide (title, bullet lines, speaker notes), shown in the given order.

    The slide shown first is stored as slide2.xml, ..., and the one shown last
    as slide1.xml, so file names do not give the display order.
    """
    n = len(slides)
    # Display position p -> file number: (p + 1) % n + 1, i.e. rotated by one.
    file_no = [(p + 1) % n + 1 for p in range(n)]
    ns = f'xmlns:a="{NS_A}" xmlns:r="{NS_R}" xmlns:p="{NS_P}"'
    parts = []
    for p, (slide_title, lines, notes) in enumerate(slides):
        k = file_no[p]
        shapes = _shape(2, "Title 1", [slide_title]) + _shape(3, "Content 2", lines)
        parts.append((f"ppt/slides/slide{k}.xml", XML_DECL + f"<p:sld {ns}>{_sp_tree(shapes)}</p:sld>"))
        parts.append((f"ppt/slides/_rels/slide{k}.xml.rels",
                      _rels([("rId1", NS_R + "/notesSlide", f"../notesSlides/notesSlide{k}.xml")])))
        notes_shapes = _shape(2, "Notes Placeholder 1", [notes] if notes else [])
        parts.append((f"ppt/notesSlides/notesSlide{k}.xml",
                      XML_DECL + f"<p:notes {ns}>{_sp_tree(notes_shapes)}</p:notes>"))
        parts.append((f"ppt/notesSlides/_rels/notesSlide{k}.xml.rels",
                      _rels([("rId1", NS_R + "/slide", f"../slides/slide{k}.xml")])))
    presentation = (XML_DECL + f"<p:presentation {ns}><p:sldIdLst>"
                    + "".join(f'<p:sldId id="{256 + p}" r:id="rId{p + 1}"/>' for p in range(n))
                    + '</p:sldIdLst><p:sldSz cx="9144000" cy="6858000"/><p:notesSz cx="6858000" cy="9144000"/>'
                    "</p:presentation>")
    pres_rels = _rels([(f"rId{p + 1}", NS_R + "/slide", f"slides/slide{file_no[p]}.xml") for p in range(n)])
    main = "application/vnd.openxmlformats-officedocument.presentationml"
    overrides = [("/ppt/presentation.xml", main + ".presentation.main+xml"), ("/docProps/core.xml", CT_CORE)]
    for k in range(1, n + 1):
        overrides.append((f"/ppt/slides/slide{k}.xml", main + ".slide+xml"))
        overrides.append((f"/ppt/notesSlides/notesSlide{k}.xml", main + ".notesSlide+xml"))
    _write_zip(path, [
        ("[Content_Types].xml", _content_types(overrides)),
        ("_rels/.rels", _package_rels("ppt/presentation.xml")),
        ("docProps/core.xml", _core(title, creator)),
        ("ppt/presentation.xml", presentation),
        ("ppt/_rels/presentation.xml.rels", pres_rels),
    ] + sorted(parts))
