"""Excel workbooks (.xlsx): cell values row by row, one section per sheet.

Sheet names come from the workbook and its relationships, never from file
names: a sheet's position in the workbook and its sheetN.xml number are
unrelated, so pairing them by number puts a real name on the wrong content.
Where the relationships are missing, sheets get honest `Sheet N` labels.
Worksheets are streamed through parser callbacks that build no elements,
so a million cells never become a million-element tree. Formulas give their cached
results (the value Excel last computed), never the formula text.
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Tuple

from ..config import Limits
from ..document import Document
from .package import Package, PartError, local, rel_id
from .sections import CELL_SEPARATOR, SectionBuilder

_SHEET_FILE = re.compile(r"^xl/worksheets/sheet(\d+)\.xml$", re.IGNORECASE)
_READABLE_SHEETS = ("worksheet",)
_QUIET_SHEETS = ("chartsheet", "dialogsheet", "macrosheet", "xlMacrosheet", "xlIntlMacrosheet")


def read_xlsx(data: bytes, limits: Limits) -> Document:
    """Every worksheet's non-empty cells, a row per line, under the sheet's name."""
    pkg = Package(data, "xlsx", limits)
    workbook = pkg.main_part("spreadsheetml", "xl/workbook.xml")
    warnings: List[str] = []
    sheets, shared_part = _sheets(pkg, workbook, warnings)
    shared = _shared_strings(pkg, shared_part, warnings) if shared_part else []
    builder = SectionBuilder(limits.max_text_chars)
    for name, part in sheets:
        if builder.full:
            break
        builder.section((name,))
        try:
            _read_sheet(pkg, part, shared, builder)
        except PartError as exc:
            warnings.append(f"sheet {name!r} not read: {exc}")
        if part in pkg.cut_parts:
            warnings.append(f"sheet {name!r} cut at {limits.max_xml_part_bytes:,} bytes of XML")
    return Document(title=pkg.core_title() or "", format="xlsx",
                    sections=builder.build(), warnings=warnings)


def _sheets(pkg: Package, workbook: str,
            warnings: List[str]) -> Tuple[List[Tuple[str, str]], Optional[str]]:
    """(sheet name, part) in workbook order, and the shared-strings part."""
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
    if rels is None or root is None:
        warnings.append("sheet names unknown: workbook relationships missing; "
                        "sheets labelled Sheet N in file-name order")
        return _numbered_sheets(pkg), default_shared
    by_id = {rel.id: rel for rel in rels}
    shared = next((r.part for r in rels if r.is_type("sharedStrings") and pkg.has(r.part)),
                  default_shared)
    sheets: List[Tuple[str, str]] = []
    for position, elem in enumerate(
            (e for e in root.iter() if local(e.tag) == "sheet"), start=1):
        name = " ".join((elem.get("name") or "").split()) or f"Sheet {position}"
        rel = by_id.get(rel_id(elem) or "")
        if rel is None:
            warnings.append(f"sheet {name!r} skipped: its relationship is missing")
            continue
        kind = rel.type.rsplit("/", 1)[-1]
        if kind in _QUIET_SHEETS:
            continue   # chart and dialog sheets hold no cells
        if rel.part is None or not pkg.has(rel.part):
            warnings.append(f"sheet {name!r} skipped: its part is outside the file or missing")
            continue
        if kind in _READABLE_SHEETS or "worksheets/" in rel.part.lower():
            sheets.append((name, rel.part))
    return sheets, shared


def _numbered_sheets(pkg: Package) -> List[Tuple[str, str]]:
    found = []
    for name in pkg.names():
        match = _SHEET_FILE.match(name)
        if match:
            found.append((int(match.group(1)), name))
    found.sort()
    return [(f"Sheet {i}", part) for i, (_, part) in enumerate(found, start=1)]


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


def _read_sheet(pkg: Package, part: str, shared: List[str], builder: SectionBuilder) -> None:
    """Stream one worksheet: each row becomes one line of non-empty cell values."""
    sheet = _SheetTarget(shared, builder)
    try:
        pkg.feed(part, sheet, cut_at_cap=True)
    except _SheetFull:
        return
    sheet.flush_row()


class _SheetFull(Exception):
    """The text budget is spent; stop parsing the sheet."""


class _SheetTarget:
    """Parser callbacks for a worksheet: no elements are built, only row text."""

    def __init__(self, shared: List[str], builder: SectionBuilder) -> None:
        self.shared = shared
        self.builder = builder
        self.row: List[str] = []
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
        elif name == "v" or (name == "t" and self.in_inline and not self.phonetic):
            self.buffer = []
        elif name == "is":
            self.in_inline += 1
        elif name == "rPh":
            self.phonetic += 1

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
            if text.strip():
                self.row.append(" ".join(text.split()))
        elif name == "row":
            self.flush_row()
            if self.builder.full:
                raise _SheetFull()

    def flush_row(self) -> None:
        if self.row:
            self.builder.paragraph(CELL_SEPARATOR.join(self.row))
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


def number_text(value: str) -> str:
    """A numeric cell as Excel's General format would show it (15 significant digits)."""
    try:
        number = float(value)
    except ValueError:
        return value
    if number != number or number in (float("inf"), float("-inf")):
        return value
    if number.is_integer() and abs(number) < 1e15:
        return str(int(number))
    return format(number, ".15g")
