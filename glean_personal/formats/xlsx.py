"""Excel workbooks (.xlsx): cell values row by row, one section per sheet.

Sheet names come from the workbook and its relationships, never from file
names: a sheet's position in the workbook and its sheetN.xml number are
unrelated, so pairing them by number puts a real name on the wrong content.
Where the relationships are missing, sheets get honest `Sheet N` labels.
Worksheets are streamed through parser callbacks that build no elements,
so a million cells never become a million-element tree. Formulas give their cached
results (the value Excel last computed), never the formula text. A number
whose cell format is a date or time format is shown as an ISO date or time,
in the workbook's date system (1900, with Excel's phantom 1900-02-29, or
1904). Pictures' alt text, charts and text boxes in a sheet's drawing
follow its cells; a chart sheet is read for its charts.
"""
from __future__ import annotations

import re
from typing import Dict, List, NamedTuple, Optional, Tuple

from ..config import Limits
from ..document import Document
from .drawing import date_kind, drawing_paragraphs, number_text, serial_text
from .package import Package, PartError, local, rel_id
from .sections import CELL_SEPARATOR, RowBlocks, SectionBuilder

__all__ = ["read_xlsx", "number_text"]

_SHEET_FILE = re.compile(r"^xl/worksheets/sheet(\d+)\.xml$", re.IGNORECASE)
_READABLE_SHEETS = ("worksheet",)
_QUIET_SHEETS = ("chartsheet", "dialogsheet", "macrosheet", "xlMacrosheet", "xlIntlMacrosheet")


def read_xlsx(data: bytes, limits: Limits) -> Document:
    """Every worksheet's non-empty cells, a row per line, under the sheet's name."""
    pkg = Package(data, "xlsx", limits)
    workbook = pkg.main_part("spreadsheetml", "xl/workbook.xml")
    warnings: List[str] = []
    book = _sheets(pkg, workbook, warnings)
    shared = _shared_strings(pkg, book.shared, warnings) if book.shared else []
    cells = _CellFormats(_date_styles(pkg, book.styles, warnings), book.date1904)
    builder = SectionBuilder(limits.max_text_chars)
    for name, part, is_chart in book.sheets:
        if builder.full:
            break
        builder.section((name,))
        if not is_chart:
            try:
                if _read_sheet(pkg, part, shared, cells, builder, name):
                    builder.section((name,))   # the drawings belong to no block of rows
            except PartError as exc:
                warnings.append(f"sheet {name!r} not read: {exc}")
            if part in pkg.cut_parts:
                warnings.append(f"sheet {name!r} cut at {limits.max_xml_part_bytes:,} bytes of XML")
        for drawing in _drawings(pkg, part):
            if builder.full:
                break
            try:
                paragraphs = drawing_paragraphs(pkg, drawing, warnings)
            except PartError as exc:
                warnings.append(f"drawing of sheet {name!r} not read: {exc}")
                continue
            for paragraph in paragraphs:
                builder.paragraph(paragraph)
    return Document(title=pkg.core_title() or "", format="xlsx",
                    sections=builder.build(), warnings=warnings)


class _Book(NamedTuple):
    sheets: List[Tuple[str, str, bool]]   # (name, part, is a chart sheet) in workbook order
    shared: Optional[str]
    styles: Optional[str]
    date1904: bool


def _sheets(pkg: Package, workbook: str, warnings: List[str]) -> _Book:
    """Sheets in workbook order, the shared-strings and styles parts, the date system."""
    try:
        rels = pkg.rels(workbook)
    except PartError:
        rels = None
    try:
        root = pkg.tree(workbook)
    except PartError as exc:
        warnings.append(f"workbook unreadable ({exc})")
        root = None
    default_shared = "xl/sharedStrings.xml" if pkg.has("xl/sharedStrings.xml") else None
    default_styles = "xl/styles.xml" if pkg.has("xl/styles.xml") else None
    date1904 = root is not None and any(
        local(e.tag) == "workbookPr" and (e.get("date1904") or "").lower() in ("1", "true")
        for e in root.iter())
    if rels is None or root is None:
        warnings.append("sheet names unknown: workbook relationships missing; "
                        "sheets labelled Sheet N in file-name order")
        return _Book(_numbered_sheets(pkg), default_shared, default_styles, date1904)
    by_id = {rel.id: rel for rel in rels}
    shared = next((r.part for r in rels if r.is_type("sharedStrings") and pkg.has(r.part)),
                  default_shared)
    styles = next((r.part for r in rels if r.is_type("styles") and pkg.has(r.part)),
                  default_styles)
    sheets: List[Tuple[str, str, bool]] = []
    for position, elem in enumerate(
            (e for e in root.iter() if local(e.tag) == "sheet"), start=1):
        name = " ".join((elem.get("name") or "").split()) or f"Sheet {position}"
        rel = by_id.get(rel_id(elem) or "")
        if rel is None:
            warnings.append(f"sheet {name!r} skipped: its relationship is missing")
            continue
        kind = rel.type.rsplit("/", 1)[-1]
        if kind in _QUIET_SHEETS and kind != "chartsheet":
            continue   # dialog and macro sheets hold no cells
        if rel.part is None or not pkg.has(rel.part):
            if kind != "chartsheet":
                warnings.append(f"sheet {name!r} skipped: its part is outside the file or missing")
            continue
        if kind == "chartsheet":
            sheets.append((name, rel.part, True))   # only its charts are read
        elif kind in _READABLE_SHEETS or "worksheets/" in rel.part.lower():
            sheets.append((name, rel.part, False))
    return _Book(sheets, shared, styles, date1904)


def _drawings(pkg: Package, sheet: str) -> List[str]:
    """The drawing parts (pictures, charts, text boxes) a sheet links to."""
    try:
        rels = pkg.rels(sheet) or []
    except PartError:
        return []
    return [rel.part for rel in rels if rel.is_type("drawing") and rel.part and pkg.has(rel.part)]


def _date_styles(pkg: Package, part: Optional[str], warnings: List[str]) -> List[Optional[str]]:
    """For each cell format (the cell's `s` index): its date kind, or None for numbers."""
    if not part:
        return []
    try:
        root = pkg.tree(part)
    except PartError as exc:
        warnings.append(f"styles not read ({exc}); dates shown as serial numbers")
        return []
    codes: Dict[int, str] = {}
    kinds: List[Optional[str]] = []
    for elem in root.iter():
        tag = local(elem.tag)
        if tag == "numFmt":
            number = _int(elem.get("numFmtId"))
            if number is not None:
                codes[number] = elem.get("formatCode") or ""
        elif tag == "cellXfs":
            for xf in elem:
                if local(xf.tag) == "xf":
                    number = _int(xf.get("numFmtId"))
                    kinds.append(date_kind(number, codes.get(number)) if number is not None
                                 else None)
    return kinds


def _int(value: Optional[str]) -> Optional[int]:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _numbered_sheets(pkg: Package) -> List[Tuple[str, str]]:
    found = []
    for name in pkg.names():
        match = _SHEET_FILE.match(name)
        if match:
            found.append((int(match.group(1)), name))
    found.sort()
    return [(f"Sheet {i}", part, False) for i, (_, part) in enumerate(found, start=1)]


def _shared_strings(pkg: Package, part: str, warnings: List[str]) -> List[str]:
    """The shared string table: plain and rich-text items, phonetic runs left out."""
    strings: List[str] = []
    pieces: List[str] = []
    phonetic = 0
    try:
        for event, elem in pkg.events(part):
            tag = local(elem.tag)
            if event == "start":
                if tag == "rPh":
                    phonetic += 1
                elif tag == "si":
                    pieces = []
                continue
            if tag == "t" and not phonetic:
                pieces.append(elem.text or "")
            elif tag == "rPh":
                phonetic -= 1
            elif tag == "si":
                strings.append("".join(pieces))
                elem.clear()
    except PartError as exc:
        warnings.append(f"shared strings not read ({exc}); text cells left out")
    return strings


class _CellFormats(NamedTuple):
    dates: List[Optional[str]]   # date kind per cell format index
    date1904: bool


def _read_sheet(pkg: Package, part: str, shared: List[str], formats: _CellFormats,
                builder: SectionBuilder, name: str) -> bool:
    """Stream one worksheet: each row becomes one line of non-empty cell values.

    A sheet longer than one passage is cut into blocks of rows, each a section
    headed (sheet, `Rows 2–41`) that starts with the sheet's first row (its
    header, as a CSV file's is), so a passage found on its own still says what
    its columns are. True when the sheet was cut so.
    """
    sheet = _SheetTarget(shared, formats, builder, name)
    try:
        pkg.feed(part, sheet, cut_at_cap=True)
    except _SheetFull:
        return sheet.rows.blocks > 0
    sheet.flush_row()
    return sheet.rows.finish()


class _SheetFull(Exception):
    """The text budget is spent; stop parsing the sheet."""


class _SheetTarget:
    """Parser callbacks for a worksheet: no elements are built, only row text."""

    def __init__(self, shared: List[str], formats: _CellFormats, builder: SectionBuilder,
                 name: str) -> None:
        self.shared = shared
        self.formats = formats
        self.style: Optional[str] = None
        self.builder = builder
        self.rows = RowBlocks(builder, name)
        self.row: List[str] = []
        self.row_number = 0
        self.cell_type: Optional[str] = None
        self.value: Optional[str] = None
        self.inline: List[str] = []
        self.buffer: Optional[List[str]] = None   # text being collected (<v> or inline <t>)
        self.in_inline = 0
        self.phonetic = 0

    def start(self, tag: str, attrib: Dict[str, str]) -> None:
        name = local(tag)
        if name == "c":
            self.cell_type, self.value, self.inline = attrib.get("t"), None, []
            self.style = attrib.get("s")
        elif name == "v" or (name == "t" and self.in_inline and not self.phonetic):
            self.buffer = []
        elif name == "is":
            self.in_inline += 1
        elif name == "rPh":
            self.phonetic += 1
        elif name == "row":
            try:
                self.row_number = int(attrib.get("r") or self.row_number + 1)
            except ValueError:
                self.row_number += 1

    def data(self, text: str) -> None:
        if self.buffer is not None:
            self.buffer.append(text)

    def end(self, tag: str) -> None:
        name = local(tag)
        if name == "v" and self.buffer is not None:
            self.value = "".join(self.buffer)
            self.buffer = None
        elif name == "t" and self.buffer is not None:
            self.inline.append("".join(self.buffer))
            self.buffer = None
        elif name == "is":
            self.in_inline = max(0, self.in_inline - 1)
        elif name == "rPh":
            self.phonetic = max(0, self.phonetic - 1)
        elif name == "c":
            text = _cell_text(self.cell_type, self.value, self.inline, self.shared)
            if self.style and self.cell_type in (None, "n") and self.value is not None:
                text = self._as_date(self.style) or text
            if text.strip():
                self.row.append(" ".join(text.split()))
        elif name == "row":
            self.flush_row()
            if self.builder.full:
                raise _SheetFull()

    def _as_date(self, style: str) -> Optional[str]:
        try:
            kind = self.formats.dates[int(style)]
        except (ValueError, IndexError):
            return None
        if kind is None or self.value is None:
            return None
        return serial_text(self.value, kind, self.formats.date1904)

    def flush_row(self) -> None:
        if self.row:
            self.rows.add(self.row_number, CELL_SEPARATOR.join(self.row))
            self.row = []

    def close(self) -> None:
        return None


def _cell_text(cell_type: Optional[str], value: Optional[str], inline: List[str],
               shared: List[str]) -> str:
    if cell_type == "inlineStr":
        return "".join(inline)
    if value is None:
        return ""
    if cell_type == "s":
        try:
            return shared[int(value)]
        except (ValueError, IndexError):
            return ""
    if cell_type == "b":
        return {"1": "TRUE", "0": "FALSE"}.get(value.strip(), value)
    if cell_type in ("str", "e", "d"):
        return value   # formula string result, error such as #DIV/0!, ISO date
    return number_text(value)
