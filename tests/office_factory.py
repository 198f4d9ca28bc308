"""Minimal but real .docx/.xlsx/.pptx packages, written with zipfile.

The shared corpus covers files other tools wrote; these builders cover what
it lacks: reordered sheets and slides, missing relationships, text split
across runs, footnotes and comments, and hostile packages. Every package has
content types and relationships, so a reader cannot pass by guessing names.
"""
from __future__ import annotations

import io
import struct
import zipfile
from typing import Dict, Iterable, List, Optional, Sequence, Tuple, Union
from xml.sax.saxutils import escape, quoteattr

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
S = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
P = "http://schemas.openxmlformats.org/presentationml/2006/main"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
CT = "http://schemas.openxmlformats.org/package/2006/content-types"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
CORE_REL = "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties"
XML_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'

Part = Union[str, bytes]
Cell = Union[None, str, int, float, bool, Tuple[str, ...]]


# -- packaging ---------------------------------------------------------------
FIXED_TIME = (2024, 3, 1, 12, 0, 0)   # same bytes on every run, so examples/ does not churn


def build_zip(parts: Dict[str, Part]) -> bytes:
    """Write `parts` (name -> XML text or bytes) into a deflated ZIP."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, content in parts.items():
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, content.encode("utf-8") if isinstance(content, str) else content)
    return buffer.getvalue()


def rels_xml(rels: Iterable[Tuple[str, str, str]], external: Sequence[str] = ()) -> str:
    """A .rels part from (id, type suffix or full URI, target) triples."""
    lines = []
    for rid, rtype, target in rels:
        full = rtype if "://" in rtype else REL + rtype
        mode = ' TargetMode="External"' if rid in external else ""
        lines.append(f'<Relationship Id="{rid}" Type="{full}" Target={quoteattr(target)}{mode}/>')
    return XML_DECL + f'<Relationships xmlns="{PKG_RELS}">' + "".join(lines) + "</Relationships>"


def content_types(overrides: Dict[str, str]) -> str:
    body = "".join(f'<Override PartName="/{name}" ContentType="{ctype}"/>'
                   for name, ctype in overrides.items())
    return (XML_DECL + f'<Types xmlns="{CT}">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>' + body + "</Types>")


def core_xml(title: str) -> str:
    return (XML_DECL + '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/'
            'metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/">'
            f"<dc:title>{escape(title)}</dc:title></cp:coreProperties>")


def _package(main: str, main_type: str, parts: Dict[str, Part], overrides: Dict[str, str],
             title: Optional[str]) -> bytes:
    package_rels = [("rId1", "officeDocument", main)]
    if title is not None:
        parts.setdefault("docProps/core.xml", core_xml(title))
        package_rels.append(("rId2", CORE_REL, "docProps/core.xml"))
        overrides["docProps/core.xml"] = "application/vnd.openxmlformats-package.core-properties+xml"
    overrides[main] = main_type
    ordered: Dict[str, Part] = {"[Content_Types].xml": content_types(overrides),
                                "_rels/.rels": rels_xml(package_rels)}
    ordered.update(parts)
    return build_zip(ordered)


# -- docx --------------------------------------------------------------------
DOCX_MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"


def run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{escape(text)}</w:t></w:r>'


def para(*runs: str, style: Optional[str] = None) -> str:
    """A paragraph; plain strings become runs, markup (starting with '<') is kept."""
    props = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    body = "".join(r if r.startswith("<") else run(r) for r in runs)
    return f"<w:p>{props}{body}</w:p>"


def table(rows: Sequence[Sequence[str]]) -> str:
    cells = "".join("<w:tr>" + "".join(f"<w:tc>{c if c.startswith('<') else para(c)}</w:tc>"
                                       for c in row) + "</w:tr>" for row in rows)
    return f"<w:tbl><w:tblPr/>{cells}</w:tbl>"


def styles_xml(styles: Dict[str, str]) -> str:
    """styles.xml from style id -> display name (e.g. {"Kop1": "heading 1"})."""
    body = "".join(f'<w:style w:type="paragraph" w:styleId="{sid}"><w:name w:val="{name}"/></w:style>'
                   for sid, name in styles.items())
    return XML_DECL + f'<w:styles xmlns:w="{W}">{body}</w:styles>'


def _word_part(root: str, body: str) -> str:
    return (XML_DECL + f'<w:{root} xmlns:w="{W}" xmlns:r="{R}" xmlns:mc="{MC}" '
            'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
            'xmlns:v="urn:schemas-microsoft-com:vml" '
            f'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math">{body}</w:{root}>')


def docx(body: str, title: Optional[str] = None, styles: Optional[Dict[str, str]] = None,
         footnotes: Sequence[str] = (), comments: Sequence[str] = (),
         headers: Sequence[str] = (), footers: Sequence[str] = (),
         extra_rels: Sequence[Tuple[str, str, str]] = (), external: Sequence[str] = (),
         parts: Optional[Dict[str, Part]] = None, document_xml: Optional[str] = None) -> bytes:
    """A Word document whose body is `body` (w:p/w:tbl markup)."""
    files: Dict[str, Part] = {}
    rels: List[Tuple[str, str, str]] = []
    overrides: Dict[str, str] = {}
    if styles is not None:
        files["word/styles.xml"] = styles_xml(styles)
        rels.append(("rIdStyles", "styles", "styles.xml"))
    if footnotes:
        notes = "".join(f'<w:footnote w:id="{i}">{para(text)}</w:footnote>'
                        for i, text in enumerate(footnotes, start=1))
        separator = '<w:footnote w:type="separator" w:id="0"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
        files["word/footnotes.xml"] = _word_part("footnotes", separator + notes)
        rels.append(("rIdFoot", "footnotes", "footnotes.xml"))
    if comments:
        items = "".join(f'<w:comment w:id="{i}" w:author="Tester">{para(text)}</w:comment>'
                        for i, text in enumerate(comments))
        files["word/comments.xml"] = _word_part("comments", items)
        rels.append(("rIdComments", "comments", "comments.xml"))
    for kind, texts in (("header", headers), ("footer", footers)):
        for i, text in enumerate(texts, start=1):
            files[f"word/{kind}{i}.xml"] = _word_part("hdr" if kind == "header" else "ftr", para(text))
            rels.append((f"rId{kind}{i}", kind, f"{kind}{i}.xml"))
    rels.extend(extra_rels)
    files["word/document.xml"] = document_xml or _word_part("document", f"<w:body>{body}</w:body>")
    files["word/_rels/document.xml.rels"] = rels_xml(rels, external)
    files.update(parts or {})
    return _package("word/document.xml", DOCX_MAIN, files, overrides, title)


# -- xlsx --------------------------------------------------------------------
XLSX_MAIN = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"


def _cell_xml(ref: str, value: Cell, shared: List[str]) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return f'<c r="{ref}" t="b"><v>{int(value)}</v></c>'
    if isinstance(value, (int, float)):
        return f'<c r="{ref}"><v>{value!r}</v></c>'
    if isinstance(value, tuple):
        kind = value[0]
        if kind == "formula":       # ("formula", "SUM(A1:A2)", "42")
            return f'<c r="{ref}"><f>{escape(value[1])}</f><v>{value[2]}</v></c>'
        if kind == "inline":        # ("inline", "text")
            return f'<c r="{ref}" t="inlineStr"><is><t>{escape(value[1])}</t></is></c>'
        if kind == "error":         # ("error", "#DIV/0!")
            return f'<c r="{ref}" t="e"><f>1/0</f><v>{value[1]}</v></c>'
        if kind == "styled":        # ("styled", 45352.5, 3): a number with cell format 3
            return f'<c r="{ref}" s="{value[2]}"><v>{value[1]!r}</v></c>'
        if kind == "rich":          # ("rich", "part one", "part two"): rich-text shared string
            shared.append("\x00rich\x00" + "\x00".join(value[1:]))
            return f'<c r="{ref}" t="s"><v>{len(shared) - 1}</v></c>'
        raise ValueError(kind)
    shared.append(value)
    return f'<c r="{ref}" t="s"><v>{len(shared) - 1}</v></c>'


def _col(index: int) -> str:
    name = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        name = chr(65 + rem) + name
    return name


def sheet_xml(rows: Sequence[Sequence[Cell]], shared: List[str], prefix: str = "",
              drawing: Optional[str] = None) -> str:
    pre = f"{prefix}:" if prefix else ""
    ns = f'xmlns:{prefix}="{S}"' if prefix else f'xmlns="{S}"'
    body = "".join(
        f'<{pre}row r="{r}">' + "".join(_cell_xml(f"{_col(c)}{r}", v, shared)
                                        for c, v in enumerate(row)) + f"</{pre}row>"
        for r, row in enumerate(rows, start=1))
    if prefix:   # the cell-level elements carry the prefix too
        for tag in ("c", "v", "f", "is", "t"):
            body = body.replace(f"<{tag} ", f"<{pre}{tag} ").replace(f"<{tag}>", f"<{pre}{tag}>")
            body = body.replace(f"</{tag}>", f"</{pre}{tag}>")
    if drawing:
        ns += f' xmlns:r="{R}"'
    tail = f'<{pre}drawing r:id="{drawing}"/>' if drawing else ""
    return (XML_DECL + f"<{pre}worksheet {ns}><{pre}sheetData>{body}</{pre}sheetData>"
            f"{tail}</{pre}worksheet>")


def shared_strings_xml(shared: List[str]) -> str:
    items = []
    for text in shared:
        if text.startswith("\x00rich\x00"):
            runs = text.split("\x00")[2:]
            items.append("<si>" + "".join(f'<r><rPr><b/></rPr><t xml:space="preserve">{escape(t)}</t></r>'
                                          for t in runs) + '<rPh sb="0" eb="1"><t>PHONETIC</t></rPh></si>')
        else:
            items.append(f'<si><t xml:space="preserve">{escape(text)}</t></si>')
    return (XML_DECL + f'<sst xmlns="{S}" count="{len(shared)}" uniqueCount="{len(shared)}">'
            + "".join(items) + "</sst>")


def xlsx(sheets: Sequence[Tuple[str, Sequence[Sequence[Cell]]]], title: Optional[str] = None,
         file_numbers: Optional[Sequence[int]] = None, workbook_rels: bool = True,
         prefix: str = "", chartsheet: Optional[str] = None,
         parts: Optional[Dict[str, Part]] = None, rel_targets: Optional[Dict[int, str]] = None,
         number_formats: Optional[Sequence[Tuple[int, Optional[str]]]] = None,
         date1904: bool = False, drawings: Optional[Dict[int, str]] = None) -> bytes:
    """A workbook; sheet i (workbook order) is stored as sheet{file_numbers[i]}.xml.

    `rel_targets` overrides the relationship target of sheet i (to point it
    somewhere odd); `chartsheet` adds a chart sheet of that name at the end.
    `number_formats` are the cell formats (numFmtId, custom format code or
    None) that ("styled", value, index) cells point at; `drawings` gives
    sheet i a drawing part (its name; put the part itself in `parts`).
    """
    numbers = list(file_numbers or range(1, len(sheets) + 1))
    shared: List[str] = []
    files: Dict[str, Part] = {}
    rels: List[Tuple[str, str, str]] = []
    entries = []
    for i, ((name, rows), number) in enumerate(zip(sheets, numbers)):
        drawing = (drawings or {}).get(i)
        files[f"xl/worksheets/sheet{number}.xml"] = sheet_xml(
            rows, shared, prefix, "rIdDrawing" if drawing else None)
        if drawing:
            files[f"xl/worksheets/_rels/sheet{number}.xml.rels"] = rels_xml(
                [("rIdDrawing", "drawing", "../drawings/" + drawing.rsplit("/", 1)[-1])])
        target = (rel_targets or {}).get(i, f"worksheets/sheet{number}.xml")
        rels.append((f"rId{i + 10}", "worksheet", target))
        entries.append(f'<sheet name={quoteattr(name)} sheetId="{i + 1}" r:id="rId{i + 10}"/>')
    if chartsheet:
        files["xl/chartsheets/sheet1.xml"] = (XML_DECL + f'<chartsheet xmlns="{S}" xmlns:r="{R}">'
                                              '<drawing r:id="rId1"/></chartsheet>')
        rels.append(("rIdChart", "chartsheet", "chartsheets/sheet1.xml"))
        entries.append(f'<sheet name={quoteattr(chartsheet)} sheetId="99" r:id="rIdChart"/>')
    if shared:
        files["xl/sharedStrings.xml"] = shared_strings_xml(shared)
        rels.append(("rIdShared", "sharedStrings", "sharedStrings.xml"))
    if number_formats is not None:
        files["xl/styles.xml"] = styles_part(number_formats)
        rels.append(("rIdStyles", "styles", "styles.xml"))
    pre = f"{prefix}:" if prefix else ""
    ns = f'xmlns:{prefix}="{S}"' if prefix else f'xmlns="{S}"'
    sheet_entries = "".join(e.replace("<sheet ", f"<{pre}sheet ") for e in entries)
    props = f'<{pre}workbookPr date1904="1"/>' if date1904 else ""
    files["xl/workbook.xml"] = (XML_DECL + f'<{pre}workbook {ns} xmlns:r="{R}">{props}<{pre}sheets>'
                                f"{sheet_entries}</{pre}sheets></{pre}workbook>")
    if workbook_rels:
        files["xl/_rels/workbook.xml.rels"] = rels_xml(rels)
    files.update(parts or {})
    return _package("xl/workbook.xml", XLSX_MAIN, files, {}, title)


def styles_part(number_formats: Sequence[Tuple[int, Optional[str]]]) -> str:
    """styles.xml whose cellXfs[i] uses number_formats[i] (custom ones get numFmt entries)."""
    custom = "".join(f'<numFmt numFmtId="{fid}" formatCode={quoteattr(code)}/>'
                     for fid, code in number_formats if code is not None)
    xfs = "".join(f'<xf numFmtId="{fid}" fontId="0" fillId="0" borderId="0" xfId="0"'
                  f'{" applyNumberFormat=" + chr(34) + "1" + chr(34) if fid else ""}/>'
                  for fid, _ in number_formats)
    return (XML_DECL + f'<styleSheet xmlns="{S}"><numFmts count="1">{custom}</numFmts>'
            f'<cellXfs count="{len(number_formats)}">{xfs}</cellXfs></styleSheet>')


# -- drawings, charts, SmartArt (shared by the three formats) ----------------
C = "http://schemas.openxmlformats.org/drawingml/2006/chart"
DGM = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
XDR = "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing"
WP = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
PIC = "http://schemas.openxmlformats.org/drawingml/2006/picture"


def _points(values: Sequence[object], numeric: bool, format_code: str = "General") -> str:
    pts = "".join(f'<c:pt idx="{i}"><c:v>{escape(str(v))}</c:v></c:pt>' for i, v in enumerate(values))
    if numeric:
        return (f"<c:numRef><c:f>Sheet1!$A$1</c:f><c:numCache><c:formatCode>{escape(format_code)}"
                f'</c:formatCode><c:ptCount val="{len(values)}"/>{pts}</c:numCache></c:numRef>')
    return (f'<c:strRef><c:f>Sheet1!$A$1</c:f><c:strCache><c:ptCount val="{len(values)}"/>{pts}'
            "</c:strCache></c:strRef>")


def chart_xml(title: Optional[str], series: Sequence[Tuple[str, Sequence[object], Sequence[float]]],
              category_format: Optional[str] = None, date1904: bool = False,
              axis_title: Optional[str] = None) -> str:
    """A bar chart part whose caches hold `series` as (name, categories, values).

    Categories are strings, or numbers in a numCache with `category_format`.
    """
    def rich(text: str) -> str:
        return (f"<c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>{escape(text)}</a:t></a:r></a:p>"
                '</c:rich></c:tx><c:overlay val="0"/></c:title>')
    body = ""
    for i, (name, cats, vals) in enumerate(series):
        cat = _points(cats, category_format is not None, category_format or "General")
        body += (f'<c:ser><c:idx val="{i}"/><c:order val="{i}"/><c:tx>{_points([name], False)}</c:tx>'
                 f'<c:dLbls><c:dLbl><c:idx val="0"/><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>label'
                 f"</a:t></a:r></a:p></c:rich></c:tx></c:dLbl></c:dLbls>"
                 f"<c:cat>{cat}</c:cat><c:val>{_points(vals, True)}</c:val></c:ser>")
    axis = (f'<c:valAx><c:axId val="2"/>{rich(axis_title)}</c:valAx>' if axis_title else "")
    return (XML_DECL + f'<c:chartSpace xmlns:c="{C}" xmlns:a="{A}" xmlns:r="{R}">'
            f'<c:date1904 val="{int(date1904)}"/><c:chart>{rich(title) if title else ""}'
            f'<c:plotArea><c:barChart><c:barDir val="col"/>{body}</c:barChart>{axis}</c:plotArea>'
            "</c:chart></c:chartSpace>")


def diagram_data_xml(nodes: Sequence[str]) -> str:
    """A SmartArt data part: a doc point, one node per text, and transition points."""
    pts = ('<dgm:pt modelId="{0}" type="doc"><dgm:prSet/><dgm:t><a:bodyPr/><a:p>'
           '<a:r><a:t>not shown</a:t></a:r></a:p></dgm:t></dgm:pt>')
    for i, text in enumerate(nodes, start=1):
        pts += (f'<dgm:pt modelId="{{{i}}}"><dgm:prSet phldrT="[Text]"/><dgm:t><a:bodyPr/><a:p>'
                f"<a:r><a:t>{escape(text)}</a:t></a:r></a:p></dgm:t></dgm:pt>"
                f'<dgm:pt modelId="{{t{i}}}" type="parTrans" cxnId="{{c{i}}}"><dgm:prSet/><dgm:t>'
                "<a:bodyPr/><a:p><a:endParaRPr/></a:p></dgm:t></dgm:pt>"
                f'<dgm:pt modelId="{{p{i}}}" type="pres"><dgm:prSet presName="x"/></dgm:pt>')
    return (XML_DECL + f'<dgm:dataModel xmlns:dgm="{DGM}" xmlns:a="{A}"><dgm:ptLst>{pts}'
            "</dgm:ptLst><dgm:cxnLst/></dgm:dataModel>")


def graphic_chart(rid: str) -> str:
    return (f'<a:graphic xmlns:a="{A}"><a:graphicData uri="{C}"><c:chart xmlns:c="{C}" '
            f'xmlns:r="{R}" r:id="{rid}"/></a:graphicData></a:graphic>')


def graphic_diagram(rid: str) -> str:
    return (f'<a:graphic xmlns:a="{A}"><a:graphicData uri="{DGM}"><dgm:relIds xmlns:dgm="{DGM}" '
            f'xmlns:r="{R}" r:dm="{rid}" r:lo="rIdLo" r:qs="rIdQs" r:cs="rIdCs"/>'
            "</a:graphicData></a:graphic>")


def word_drawing(graphic: str, descr: str = "", title: str = "", pic: bool = False) -> str:
    """An inline w:drawing holding `graphic` (or a picture), with docPr alt text."""
    attrs = (f" descr={quoteattr(descr)}" if descr else "") + (f" title={quoteattr(title)}" if title else "")
    if pic:
        graphic = (f'<a:graphic xmlns:a="{A}"><a:graphicData uri="{PIC}"><pic:pic xmlns:pic="{PIC}">'
                   '<pic:nvPicPr><pic:cNvPr id="0" name="photo.png" descr="photo.png"/><pic:cNvPicPr/>'
                   "</pic:nvPicPr><pic:blipFill/><pic:spPr/></pic:pic></a:graphicData></a:graphic>")
    return (f'<w:r><w:drawing><wp:inline xmlns:wp="{WP}"><wp:extent cx="1" cy="1"/>'
            f'<wp:docPr id="1" name="Picture 1"{attrs}/>{graphic}</wp:inline></w:drawing></w:r>')


def word_text_box(*paragraphs: str) -> str:
    """A run holding a text box twice, as Word writes it: DrawingML choice and VML fallback."""
    content = "<w:txbxContent>" + "".join(para(p) for p in paragraphs) + "</w:txbxContent>"
    return (f'<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing>'
            f'<wp:anchor xmlns:wp="{WP}"><wp:docPr id="2" name="Text Box 2"/>'
            f'<a:graphic xmlns:a="{A}"><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/'
            f'wordprocessingShape"><wps:wsp><wps:txbx>{content}</wps:txbx></wps:wsp></a:graphicData>'
            "</a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict>"
            f'<v:shape><v:textbox>{content}</v:textbox></v:shape></w:pict></mc:Fallback>'
            "</mc:AlternateContent></w:r>")


def picture_shape(descr: str, title: str = "", ns: str = "p") -> str:
    """A slide (ns "p") or spreadsheet-drawing (ns "xdr") picture with alt text."""
    attrs = f" descr={quoteattr(descr)}" + (f" title={quoteattr(title)}" if title else "")
    return (f'<{ns}:pic><{ns}:nvPicPr><{ns}:cNvPr id="7" name="Picture 6"{attrs}/><{ns}:cNvPicPr/>'
            + ("<p:nvPr/>" if ns == "p" else "") +
            f"</{ns}:nvPicPr><{ns}:blipFill/><{ns}:spPr/></{ns}:pic>")


def graphic_frame(graphic: str, ns: str = "p", descr: str = "") -> str:
    attrs = f" descr={quoteattr(descr)}" if descr else ""
    return (f'<{ns}:graphicFrame><{ns}:nvGraphicFramePr><{ns}:cNvPr id="8" name="Frame"{attrs}/>'
            f"<{ns}:cNvGraphicFramePr/>" + ("<p:nvPr/>" if ns == "p" else "") +
            f"</{ns}:nvGraphicFramePr><{ns}:xfrm/>{graphic}</{ns}:graphicFrame>")


def sheet_drawing_xml(*anchored: str) -> str:
    """A spreadsheet drawing part: each piece of markup in its own two-cell anchor."""
    anchors = "".join('<xdr:twoCellAnchor><xdr:from/><xdr:to/>' + item + "<xdr:clientData/>"
                      "</xdr:twoCellAnchor>" for item in anchored)
    return XML_DECL + f'<xdr:wsDr xmlns:xdr="{XDR}" xmlns:a="{A}" xmlns:r="{R}">{anchors}</xdr:wsDr>'


def text_box_shape(text: str, ns: str = "xdr") -> str:
    return (f'<{ns}:sp><{ns}:nvSpPr><{ns}:cNvPr id="9" name="TextBox 8"/><{ns}:cNvSpPr txBox="1"/>'
            f"</{ns}:nvSpPr><{ns}:spPr/><{ns}:txBody><a:bodyPr/><a:p><a:r><a:t>{escape(text)}</a:t>"
            f"</a:r></a:p></{ns}:txBody></{ns}:sp>")


# -- pptx --------------------------------------------------------------------
PPTX_MAIN = "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"


def shape(paragraphs: Sequence[str], placeholder: Optional[str] = None, shape_id: int = 2) -> str:
    ph = f'<p:ph type="{placeholder}"/>' if placeholder else ""
    paras = "".join(f'<a:p><a:r><a:rPr lang="en-GB"/><a:t>{escape(p)}</a:t></a:r></a:p>'
                    for p in paragraphs)
    return (f'<p:sp><p:nvSpPr><p:cNvPr id="{shape_id}" name="Shape {shape_id}"/><p:cNvSpPr/>'
            f"<p:nvPr>{ph}</p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>{paras}"
            "</p:txBody></p:sp>")


def slide_table(rows: Sequence[Sequence[str]]) -> str:
    body = "".join("<a:tr h=\"1\">" + "".join(
        f"<a:tc><a:txBody><a:bodyPr/><a:p><a:r><a:t>{escape(c)}</a:t></a:r></a:p></a:txBody></a:tc>"
        for c in row) + "</a:tr>" for row in rows)
    return ('<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="9" name="Table"/><p:cNvGraphicFramePr/>'
            '<p:nvPr/></p:nvGraphicFramePr><p:xfrm/><a:graphic><a:graphicData uri="http://schemas.'
            f'openxmlformats.org/drawingml/2006/table"><a:tbl>{body}</a:tbl></a:graphicData>'
            "</a:graphic></p:graphicFrame>")


def group(*shapes: str) -> str:
    return ('<p:grpSp><p:nvGrpSpPr><p:cNvPr id="20" name="Group"/><p:cNvGrpSpPr/><p:nvPr/>'
            "</p:nvGrpSpPr><p:grpSpPr/>" + "".join(shapes) + "</p:grpSp>")


def slide_xml(shapes: str, root: str = "sld") -> str:
    return (XML_DECL + f'<p:{root} xmlns:p="{P}" xmlns:a="{A}" xmlns:r="{R}"><p:cSld><p:spTree>'
            '<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>'
            f"<p:grpSpPr/>{shapes}</p:spTree></p:cSld></p:{root}>")


def pptx(slides: Sequence[Dict], title: Optional[str] = None,
         file_numbers: Optional[Sequence[int]] = None, presentation_rels: bool = True,
         parts: Optional[Dict[str, Part]] = None) -> bytes:
    """A presentation; slide i (show order) is stored as slide{file_numbers[i]}.xml.

    Each slide dict may have "title", "body" (paragraphs), "shapes" (raw
    markup, e.g. from `slide_table` or `group`), "notes" (paragraphs) and
    "rels" (extra slide relationships, for charts and diagrams).
    """
    numbers = list(file_numbers or range(1, len(slides) + 1))
    files: Dict[str, Part] = {}
    rels: List[Tuple[str, str, str]] = []
    ids = []
    for i, (spec, number) in enumerate(zip(slides, numbers)):
        shapes = ""
        if spec.get("title"):
            shapes += shape([spec["title"]], "title", 2)
        if spec.get("body"):
            shapes += shape(spec["body"], "body", 3)
        shapes += spec.get("shapes", "")
        files[f"ppt/slides/slide{number}.xml"] = slide_xml(shapes)
        slide_rels = []
        if spec.get("notes"):
            files[f"ppt/notesSlides/notesSlide{number}.xml"] = slide_xml(
                shape(["1"], "sldNum", 4) + shape(spec["notes"], "body", 3), root="notes")
            slide_rels.append(("rId2", "notesSlide", f"../notesSlides/notesSlide{number}.xml"))
        slide_rels.extend(spec.get("rels", ()))
        files[f"ppt/slides/_rels/slide{number}.xml.rels"] = rels_xml(slide_rels)
        rels.append((f"rId{i + 10}", "slide", f"slides/slide{number}.xml"))
        ids.append(f'<p:sldId id="{256 + i}" r:id="rId{i + 10}"/>')
    files["ppt/presentation.xml"] = (XML_DECL + f'<p:presentation xmlns:p="{P}" xmlns:r="{R}">'
                                     f'<p:sldIdLst>{"".join(ids)}</p:sldIdLst></p:presentation>')
    if presentation_rels:
        files["ppt/_rels/presentation.xml.rels"] = rels_xml(rels)
    files.update(parts or {})
    return _package("ppt/presentation.xml", PPTX_MAIN, files, {}, title)


# -- hostile packages --------------------------------------------------------
BILLION_LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
    + "".join(f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">'
              for i in range(1, 10))
    + f']>\n<w:document xmlns:w="{W}"><w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p>'
    "</w:body></w:document>")


def zero_stream(total: int, chunk: int = 1 << 20) -> Iterable[bytes]:
    block = b"\0" * chunk
    for start in range(0, total, chunk):
        yield block[: min(chunk, total - start)]


def docx_with_inflating_part(size: int, part: str = "word/document.xml") -> bytes:
    """A docx whose `part` inflates to `size` bytes (zeros, deflated in chunks)."""
    base = zipfile.ZipFile(io.BytesIO(docx(para("small"))))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out:
        for info in base.infolist():
            if info.filename != part:
                out.writestr(info.filename, base.read(info.filename))
        info = zipfile.ZipInfo(part)
        info.compress_type = zipfile.ZIP_DEFLATED
        with out.open(info, "w", force_zip64=size > 0x7FFFFFFF) as member:
            for block in zero_stream(size):
                member.write(block)
    return buffer.getvalue()


def lie_about_size(data: bytes, part: str, declared: int) -> bytes:
    """Patch both ZIP headers of `part` to declare `declared` uncompressed bytes."""
    blob = bytearray(data)
    name = part.encode()
    central = blob.find(b"PK\x01\x02")
    while central != -1:
        name_len = struct.unpack_from("<H", blob, central + 28)[0]
        if bytes(blob[central + 46: central + 46 + name_len]) == name:
            struct.pack_into("<I", blob, central + 24, declared)
            local_at = struct.unpack_from("<I", blob, central + 42)[0]
            struct.pack_into("<I", blob, local_at + 22, declared)
            return bytes(blob)
        central = blob.find(b"PK\x01\x02", central + 4)
    raise KeyError(part)
