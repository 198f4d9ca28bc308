"""OpenDocument files (.odt, .ods, .odp): the text of content.xml in order.

The three kinds share one package layout (a ZIP with `content.xml` and
`meta.xml`) and one vocabulary for paragraphs and tables, so one streaming
reader serves them all; what the body holds decides the sections:

* text documents: `text:h` headings (by outline level) start sections,
  paragraphs, list items and table rows follow; footnotes, endnotes and
  comments gather in sections of their own after the body, as for .docx;
* spreadsheets: one section per sheet (`table:table` name), row by row;
* presentations: one section per slide (`draw:page`), with speaker notes.

content.xml is streamed through parser callbacks (no element tree), through
the same `Package` as the Office readers, so the same ZIP and XML bounds
hold. Repeated rows and cells (`number-rows-repeated`, which spreadsheets
use for a million empty rows) cost nothing when empty and are written at
most `Limits.max_repeat` times when not.
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Tuple

from ..config import Limits
from ..document import Document
from ..errors import SkipFile
from .package import Package, PartError
from .sections import CELL_SEPARATOR, RowBlocks, SectionBuilder
from .titles import usable_title

_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_DRAW = "{urn:oasis:names:tc:opendocument:xmlns:drawing:1.0}"
_PRES = "{urn:oasis:names:tc:opendocument:xmlns:presentation:1.0}"
_STYLE = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"
_DC = "{http://purl.org/dc/elements/1.1/}"

_P, _H = _TEXT + "p", _TEXT + "h"
_CELLS = (_TABLE + "table-cell", _TABLE + "covered-table-cell")
_NOTE_CONTAINERS = (_TEXT + "note", _OFFICE + "annotation", _PRES + "notes")
# Subtrees with no text a reader sees, or generated text: note markers, list
# numbers, deleted text kept for change tracking, generated indexes.
_SKIPPED = frozenset(_TEXT + name for name in (
    "note-citation", "number", "tracked-changes", "table-of-content", "alphabetical-index",
    "illustration-index", "table-index", "object-index", "user-index", "bibliography",
    "sequence-decls", "variable-decls", "user-field-decls")) | frozenset({
        _OFFICE + "forms", _OFFICE + "scripts", _OFFICE + "event-listeners",
        _DC + "creator", _DC + "date", _OFFICE + "annotation-end"})
# Presentation frames whose text is generated: slide numbers, dates, the slide image.
_FRAME_NOISE = frozenset({"page-number", "date-time", "footer", "header", "page"})
_PAGE_PARTS = {_STYLE + name + variant: name.capitalize()
               for name in ("header", "footer") for variant in ("", "-left", "-first")}
# Fields whose stored text is whatever the page showed when last saved.
_GENERATED_FIELDS = frozenset(_TEXT + name for name in (
    "page-number", "page-count", "date", "time", "file-name", "sheet-name", "template-name"))
_DEFAULT_PAGE_NAME = re.compile(r"^(?:page|slide)\s*\d+$", re.IGNORECASE)
_NOTE_HEADINGS = {"footnote": "Footnotes", "endnote": "Endnotes", "comment": "Comments"}
_CELL_VALUE = {"float": "value", "percentage": "value", "currency": "value",
               "date": "date-value", "time": "time-value", "boolean": "boolean-value",
               "string": "string-value"}
_WHITESPACE = str.maketrans("\t\r\n", "   ")
_MAX_HEADING_CHARS = 300
_MAX_TITLE_CHARS = 200
_MAX_STYLES = 10_000


def read_odt(data: bytes, limits: Limits) -> Document:
    return _read(data, limits, "odt")


def read_ods(data: bytes, limits: Limits) -> Document:
    return _read(data, limits, "ods")


def read_odp(data: bytes, limits: Limits) -> Document:
    return _read(data, limits, "odp")


def _read(data: bytes, limits: Limits, kind: str) -> Document:
    pkg = Package(data, kind, limits)
    if not pkg.has("content.xml"):
        raise SkipFile(f"not a valid .{kind} file (no content.xml)")
    if _encrypted(pkg):
        raise SkipFile(f"password-protected .{kind} file (content is encrypted)")
    warnings: List[str] = []
    builder = SectionBuilder(limits.max_text_chars)
    content = _Content(builder, limits.max_repeat, limits.max_text_chars)
    try:
        pkg.feed("content.xml", content, cut_at_cap=True)
    except _Full:
        pass
    content.finish(_page_texts(pkg, warnings) if kind == "odt" and not builder.full else [])
    if "content.xml" in pkg.cut_parts:
        warnings.append(f"content.xml cut at {limits.max_xml_part_bytes:,} bytes of XML")
    if content.bounded:
        warnings.append(f"repeated rows or cells written at most {limits.max_repeat:,} times")
    title = _meta_title(pkg, warnings) or content.title or ""
    return Document(title=title, format=kind, sections=builder.build(), warnings=warnings)


def _encrypted(pkg: Package) -> bool:
    """Whether the manifest declares encrypted members (a password-protected file)."""
    if not pkg.has("META-INF/manifest.xml"):
        return False
    try:
        root = pkg.tree("META-INF/manifest.xml")
    except PartError:
        return False
    return any(elem.tag.endswith("}encryption-data") for elem in root.iter())


def _meta_title(pkg: Package, warnings: List[str]) -> Optional[str]:
    if not pkg.has("meta.xml"):
        return None
    try:
        root = pkg.tree("meta.xml")
    except PartError as exc:
        warnings.append(f"meta.xml not read ({exc})")
        return None
    for elem in root.iter(_DC + "title"):
        text = " ".join("".join(elem.itertext()).split())
        if text:
            title = usable_title(text)
            return title[:_MAX_TITLE_CHARS] if title else None
    return None


class _Full(Exception):
    """The text budget is spent; stop parsing."""


class _Slide:
    def __init__(self, number: int, name: str) -> None:
        self.number = number
        self.name = name
        self.title: List[str] = []
        self.body: List[str] = []
        self.notes: List[str] = []


class _Content:
    """Parser callbacks for content.xml; flat stacks, no element objects.

    Finished paragraphs go to the innermost open container (a table cell, a
    note, a slide's title frame or notes), else to the slide being read,
    else to the document body.
    """

    def __init__(self, builder: SectionBuilder, max_repeat: int, budget: int) -> None:
        self.builder = builder
        self.max_repeat = max(1, max_repeat)
        self.budget = max(1, budget)
        self.bounded = False
        self.title: Optional[str] = None
        self._styles: Dict[str, str] = {}      # automatic style -> parent style
        self._in_body = False
        self._spreadsheet = False
        self._skip = 0
        self._paras: List[Tuple[List[str], Optional[int]]] = []
        self._containers: List[Tuple[str, List[str], Tuple[int, str]]] = []
        self._rows: List[Tuple[List[str], int]] = []
        self._frames: List[bool] = []          # did this frame open a container?
        self._tables = 0
        self._slide: Optional[_Slide] = None
        self._slides = 0
        self._sheets = 0
        self._sheet: Optional[RowBlocks] = None   # the rows of the sheet being read
        self._row_number = 0
        self._notes: Dict[str, List[str]] = {heading: [] for heading in _NOTE_HEADINGS.values()}
        self._first_heading: Optional[str] = None

    # -- callbacks -------------------------------------------------------------
    def start(self, tag: str, attrib: Dict[str, str]) -> None:
        if self._skip:
            self._skip += 1
            return
        if tag in _SKIPPED:
            self._skip = 1
            return
        if not self._in_body:
            if tag == _OFFICE + "body":
                self._in_body = True
            elif tag == _STYLE + "style" and len(self._styles) < _MAX_STYLES:
                self._styles[attrib.get(_STYLE + "name", "")] = attrib.get(
                    _STYLE + "parent-style-name", "")
            return
        if tag == _P or tag == _H:
            self._paras.append(([], self._level(tag, attrib)))
        elif not self._paras or tag not in (_TEXT + "s", _TEXT + "tab", _TEXT + "line-break"):
            self._start_structure(tag, attrib)
        elif tag == _TEXT + "line-break":
            self._paras[-1][0].append("\n")
        else:
            self._paras[-1][0].append(" ")

    def _start_structure(self, tag: str, attrib: Dict[str, str]) -> None:
        if tag in _NOTE_CONTAINERS:
            kind = attrib.get(_TEXT + "note-class", "footnote") if tag == _TEXT + "note" else \
                "comment"
            if tag == _PRES + "notes":
                target = self._slide.notes if self._slide else []
            else:
                target = self._notes[_NOTE_HEADINGS.get(kind, "Footnotes")]
            self._containers.append(("note", target, (1, "")))
        elif tag == _TABLE + "table-row":
            self._rows.append(([], _repeat(attrib.get(_TABLE + "number-rows-repeated"))))
        elif tag in _CELLS:
            self._containers.append(("cell", [], (
                _repeat(attrib.get(_TABLE + "number-columns-repeated")), _cell_value(attrib))))
        elif tag == _TABLE + "table":
            self._tables += 1
            if self._spreadsheet and self._tables == 1:
                name = " ".join(attrib.get(_TABLE + "name", "").split())
                self._sheets += 1
                name = name or f"Sheet {self._sheets}"
                self.builder.section((name,))
                self._sheet, self._row_number = RowBlocks(self.builder, name), 0
        elif tag == _OFFICE + "spreadsheet":
            self._spreadsheet = True
        elif tag == _DRAW + "page":
            self._slides += 1
            self._slide = _Slide(self._slides, " ".join(attrib.get(_DRAW + "name", "").split()))
        elif tag == _DRAW + "frame":
            kind = attrib.get(_PRES + "class", "")
            if kind in _FRAME_NOISE:
                self._skip = 1
                return
            opened = kind == "title" and self._slide is not None and not any(
                c[0] == "note" for c in self._containers)
            if opened:
                self._containers.append(("title", self._slide.title, (1, "")))
            self._frames.append(opened)

    def data(self, text: str) -> None:
        if self._paras and not self._skip:   # XML line breaks are spaces in ODF text
            self._paras[-1][0].append(text.translate(_WHITESPACE))

    def end(self, tag: str) -> None:
        if self._skip:
            self._skip -= 1
            return
        if not self._in_body:
            return
        if tag == _P or tag == _H:
            if self._paras:
                pieces, level = self._paras.pop()
                self._deliver(_clean("".join(pieces)), level)
        elif tag in _NOTE_CONTAINERS and self._containers:
            self._containers.pop()
        elif tag in _CELLS and self._containers and self._containers[-1][0] == "cell":
            _, texts, (repeat, value) = self._containers.pop()
            text = " ".join(" ".join(texts).split()) or value
            if text and self._rows:
                self._rows[-1][0].extend([text] * self._bounded(repeat, text))
        elif tag == _TABLE + "table-row" and self._rows:
            cells, repeat = self._rows.pop()
            line = CELL_SEPARATOR.join(cells)
            copies = self._bounded(repeat, line) if line else 0
            if self._sheet is not None and self._tables == 1 and not self._rows \
                    and not self._containers:
                for k in range(copies):
                    self._sheet.add(self._row_number + k + 1, line)
                self._row_number += repeat
                if self.builder.full:
                    raise _Full()
            else:
                for _ in range(copies):
                    self._deliver(line, None)
        elif tag == _TABLE + "table":
            self._tables = max(0, self._tables - 1)
            if self._tables == 0 and self._sheet is not None:
                sheet, self._sheet = self._sheet, None
                if sheet.finish():
                    self.builder.section((sheet.name,))
        elif tag == _DRAW + "frame" and self._frames:
            if self._frames.pop() and self._containers:
                self._containers.pop()
        elif tag == _DRAW + "page" and self._slide is not None:
            self._end_slide(self._slide)
            self._slide = None
        elif tag == _OFFICE + "body":
            self._in_body = False

    def close(self) -> None:
        return None

    # -- helpers ---------------------------------------------------------------
    def _level(self, tag: str, attrib: Dict[str, str]) -> Optional[int]:
        if tag == _H:
            try:
                return min(max(int(attrib.get(_TEXT + "outline-level", "1")), 1), 10)
            except ValueError:
                return 1
        style = attrib.get(_TEXT + "style-name", "")
        if style == "Title" or self._styles.get(style) == "Title":
            return 0
        return None

    def _bounded(self, repeat: int, text: str) -> int:
        """How many copies to write: at most `max_repeat`, and never more text
        than the budget (a long cell repeated a thousand times would be gigabytes)."""
        copies = min(repeat, self.max_repeat, max(1, self.budget // (len(text) + 3)))
        if copies < repeat:
            self.bounded = True
        return copies

    def _deliver(self, text: str, level: Optional[int]) -> None:
        if not text:
            return
        if self._containers:
            self._containers[-1][1].append(text)
        elif self._slide is not None:
            self._slide.body.append(text)
        elif level is not None and len(text) <= _MAX_HEADING_CHARS:
            if level == 0 and self.title is None:
                self.title = text
            if self._first_heading is None:
                self._first_heading = text
            self.builder.heading(level, text)
        else:
            self.builder.paragraph(text)
            if self.builder.full:
                raise _Full()

    def _end_slide(self, slide: _Slide) -> None:
        title = " ".join(" ".join(slide.title).split())[:_MAX_TITLE_CHARS]
        if not (title or slide.body or slide.notes):
            return
        if self.title is None and slide.number == 1 and title:
            self.title = title
        label = title or ("" if _DEFAULT_PAGE_NAME.match(slide.name) else slide.name)
        self.builder.section((f"Slide {slide.number} — {label}" if label
                              else f"Slide {slide.number}",))
        for paragraph in slide.body or ([title] if title and not slide.notes else []):
            self.builder.paragraph(paragraph)
        if slide.notes:
            self.builder.paragraph("Notes:")
            for paragraph in slide.notes:
                self.builder.paragraph(paragraph)
        if self.builder.full:
            raise _Full()

    def finish(self, page_texts: List[Tuple[str, List[str]]]) -> None:
        """Headers, footers, notes and comments after the body, as for .docx;
        the title falls back to the first heading."""
        for heading, paragraphs in page_texts + list(self._notes.items()):
            if paragraphs and not self.builder.full:
                self.builder.section((heading,))
                for paragraph in paragraphs:
                    self.builder.paragraph(paragraph)
        if self.title is None:
            self.title = self._first_heading


def _page_texts(pkg: Package, warnings: List[str]) -> List[Tuple[str, List[str]]]:
    """The header and footer paragraphs of the page styles, each text once."""
    if not pkg.has("styles.xml"):
        return []
    target = _PageTexts()
    try:
        pkg.feed("styles.xml", target)
    except PartError as exc:
        warnings.append(f"headers and footers not read ({exc})")
    return list(target.found.items())


class _PageTexts:
    """Parser callbacks for styles.xml: paragraphs inside headers and footers."""

    def __init__(self) -> None:
        self.found: Dict[str, List[str]] = {"Header": [], "Footer": []}
        self._where: Optional[str] = None
        self._depth = 0
        self._skip = 0
        self._para: Optional[List[str]] = None

    def start(self, tag: str, attrib: Dict[str, str]) -> None:
        if self._skip:
            self._skip += 1
        elif self._where is None:
            self._where = _PAGE_PARTS.get(tag)
            self._depth = 1 if self._where else 0
        elif tag in _GENERATED_FIELDS:
            self._skip = 1   # its end is consumed by the skip count, not the depth
        else:
            self._depth += 1
            if tag in (_P, _H) and self._para is None:
                self._para = []
            elif self._para is not None and tag in (_TEXT + "s", _TEXT + "tab"):
                self._para.append(" ")
            elif self._para is not None and tag == _TEXT + "line-break":
                self._para.append("\n")

    def data(self, text: str) -> None:
        if self._para is not None and not self._skip:
            self._para.append(text.translate(_WHITESPACE))

    def end(self, tag: str) -> None:
        if self._skip:
            self._skip -= 1
            return
        if self._where is None:
            return
        self._depth -= 1
        if tag in (_P, _H) and self._para is not None:
            text = _clean("".join(self._para))
            self._para = None
            if text and text not in self.found[self._where]:
                self.found[self._where].append(text)
        if self._depth == 0:
            self._where = None

    def close(self) -> None:
        return None


def _repeat(value: Optional[str]) -> int:
    try:
        return max(1, int(value)) if value else 1
    except ValueError:
        return 1


def _cell_value(attrib: Dict[str, str]) -> str:
    """A cell's typed value, for cells that carry no displayed paragraph."""
    key = _CELL_VALUE.get(attrib.get(_OFFICE + "value-type", ""))
    return " ".join(attrib.get(_OFFICE + key, "").split()) if key else ""


def _clean(text: str) -> str:
    """ODF collapses whitespace in paragraphs; line breaks (text:line-break) stay."""
    return "\n".join(" ".join(line.split()) for line in text.split("\n") if line.strip())
