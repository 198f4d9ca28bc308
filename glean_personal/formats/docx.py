"""Word documents (.docx): the text a reader sees, in reading order.

The main part is streamed as XML events with a few flat counters, never a
recursive walk, so hostile nesting costs nothing. Runs join within a
paragraph (Word splits words across runs for spelling marks and revisions);
paragraphs stay separate; table rows become one line with cells joined by
" | ". Heading styles (by style id, by the style's name in styles.xml, or an
outline level) start sections. Footnotes, endnotes, comments, headers and
footers get sections of their own, because people search for what they wrote
there too.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Callable, Dict, List, Optional, Tuple

from ..config import Limits
from ..document import Document
from .drawing import alt_text, related_paragraphs, rel_map
from .package import Package, PartError, local, visible_events
from .sections import SectionBuilder, end_cell, end_row

_MAX_HEADING_CHARS = 300
_HEADING_NAME = re.compile(r"^heading\s*([1-9])$", re.IGNORECASE)
# Subtrees whose text a reader does not see: deletions, field codes, tracked
# property changes, content-control settings.
_SKIPPED = frozenset({"del", "moveFrom", "delText", "instrText", "delInstrText",
                      "pPrChange", "rPrChange", "sdtPr", "tblPrChange", "trPrChange",
                      "tcPrChange", "sectPrChange", "numberingChange"})
_RUN_TEXT = {"tab": "\t", "ptab": "\t", "br": "\n", "cr": "\n", "noBreakHyphen": "-"}
# Parts read after the body: (relationship type, heading, default part names).
_EXTRA_PARTS = (
    ("header", "Header"), ("footer", "Footer"), ("footnotes", "Footnotes"),
    ("endnotes", "Endnotes"), ("comments", "Comments"),
)
_DEFAULT_NAMES = {"footnotes": "word/footnotes.xml", "endnotes": "word/endnotes.xml",
                  "comments": "word/comments.xml", "styles": "word/styles.xml"}


def read_docx(data: bytes, limits: Limits) -> Document:
    """Body text with heading sections, then the side parts as their own sections."""
    pkg = Package(data, "docx", limits)
    main = pkg.main_part("wordprocessingml", "word/document.xml")
    warnings: List[str] = []
    related = _related_parts(pkg, main, warnings)
    styles = _Styles.load(pkg, related.get("styles", []), warnings)
    builder = SectionBuilder(limits.max_text_chars)
    found: Dict[str, str] = {}

    def on_heading(level: int, text: str) -> None:
        if level == 0 and "title" not in found:
            found["title"] = text
        found.setdefault("first_heading", text)
        builder.heading(level, text)

    _read_part(pkg, main, styles, builder.paragraph, on_heading, lambda: builder.full, warnings)

    seen_texts = set()
    for rel_type, heading in _EXTRA_PARTS:
        for part in related.get(rel_type, []):
            if builder.full:
                break
            paragraphs: List[str] = []
            try:
                _read_part(pkg, part, styles, paragraphs.append, None, lambda: builder.full,
                           warnings)
            except PartError as exc:
                warnings.append(f"{heading.lower()} not read: {exc}")
                continue
            text = "\n\n".join(p.strip() for p in paragraphs if p.strip())
            if not text or (rel_type in ("header", "footer") and text in seen_texts):
                continue
            seen_texts.add(text)
            builder.section((heading,))
            for paragraph in paragraphs:
                builder.paragraph(paragraph)

    title = pkg.core_title() or found.get("title") or found.get("first_heading") or ""
    return Document(title=title, format="docx", sections=builder.build(), warnings=warnings)


def _related_parts(pkg: Package, main: str, warnings: List[str]) -> Dict[str, List[str]]:
    """Parts the body links to, by relationship type; default names without rels."""
    try:
        rels = pkg.rels(main)
    except PartError as exc:
        warnings.append(f"document relationships unreadable ({exc})")
        rels = None
    found: Dict[str, List[str]] = {}
    if rels is not None:
        for rel in rels:
            kind = rel.type.rsplit("/", 1)[-1]
            if rel.part and pkg.has(rel.part) and rel.part not in found.get(kind, []):
                found.setdefault(kind, []).append(rel.part)
        return found
    for kind, name in _DEFAULT_NAMES.items():
        if pkg.has(name):
            found[kind] = [name]
    for name in sorted(pkg.names()):
        match = re.match(r"^word/(header|footer)\d*\.xml$", name, re.IGNORECASE)
        if match:
            found.setdefault(match.group(1).lower(), []).append(name)
    return found


class _Styles:
    """Paragraph style id -> heading level (0 for Title), from styles.xml."""

    def __init__(self, info: Dict[str, Tuple[str, Optional[int], Optional[str]]]) -> None:
        self._info = info   # id -> (name, outline level, basedOn)

    @classmethod
    def load(cls, pkg: Package, parts: List[str], warnings: List[str]) -> "_Styles":
        info: Dict[str, Tuple[str, Optional[int], Optional[str]]] = {}
        for part in parts[:1]:
            try:
                root = pkg.tree(part)
            except PartError as exc:
                warnings.append(f"styles not read ({exc}); headings found by style id only")
                break
            for style in root.iter():
                if local(style.tag) != "style" or _attr(style, "type") not in (None, "paragraph"):
                    continue
                name, outline, based = "", None, None
                for child in style.iter():
                    tag = local(child.tag)
                    if tag == "name":
                        name = _attr(child, "val") or ""
                    elif tag == "outlineLvl":
                        outline = _int(_attr(child, "val"))
                    elif tag == "basedOn":
                        based = _attr(child, "val")
                info[_attr(style, "styleId") or ""] = (name, outline, based)
        return cls(info)

    def level(self, style_id: str) -> Optional[int]:
        seen = set()
        current: Optional[str] = style_id
        while current and current not in seen and len(seen) < 16:   # basedOn chain, bounded
            seen.add(current)
            name, outline, based = self._info.get(current, ("", None, None))
            for label in (current, name):
                if label.strip().lower() == "title":
                    return 0
                match = _HEADING_NAME.match(label.strip())
                if match:
                    return int(match.group(1))
            if outline is not None and 0 <= outline <= 8:
                return outline + 1
            current = based
        return None


def _read_part(pkg: Package, part: str, styles: _Styles, on_paragraph: Callable[[str], None],
               on_heading: Optional[Callable[[int, str], None]],
               full: Callable[[], bool], warnings: List[str]) -> None:
    """Stream one WordprocessingML part, calling back per paragraph or heading.

    A drawing's alt text, a chart's data and a SmartArt diagram's words come
    as paragraphs of their own, before the text of the paragraph holding
    them; a text box's paragraphs likewise (its mc:Fallback copy is skipped).
    Flat state only: counters, and stacks that grow with the tables and
    paragraphs actually open.
    """
    rels: Optional[Dict[str, str]] = None

    def side_text(text: str) -> None:
        if cells:
            cells[-1].append(text)
        else:
            on_paragraph(text)

    in_run = 0
    paras: List[List] = []                 # [pieces, style id, outline level]
    rows: List[List[str]] = []             # cells of each open table row
    cells: List[List[str]] = []            # paragraphs of each open table cell
    for event, elem, tag in visible_events(pkg.events(part), _SKIPPED):
        if event == "start":
            if tag == "p":
                paras.append([[], None, None])
            elif tag == "r":
                in_run += 1
            elif tag == "pStyle" and paras:
                paras[-1][1] = _attr(elem, "val")
            elif tag == "outlineLvl" and paras:
                paras[-1][2] = _int(_attr(elem, "val"))
            elif tag == "tr":
                rows.append([])
            elif tag == "tc":
                cells.append([])
            elif tag == "docPr":
                described = alt_text(elem)
                if described:
                    side_text("Image: " + described)
            elif tag in ("chart", "relIds"):
                if rels is None:
                    rels = rel_map(pkg, part)
                for text in related_paragraphs(pkg, rels, elem, warnings)[1]:
                    side_text(text)
            continue
        if tag == "t" and paras:
            paras[-1][0].append(elem.text or "")
        elif tag in _RUN_TEXT and in_run and paras:
            paras[-1][0].append(_RUN_TEXT[tag])
        elif tag == "r":
            in_run = max(0, in_run - 1)
        elif tag == "p" and paras:
            pieces, style, outline = paras.pop()
            text = "".join(pieces).strip()
            elem.clear()
            if not text:
                continue
            if cells:
                cells[-1].append(text)
                continue
            level = _heading_level(style, outline, styles)
            if on_heading is not None and level is not None and len(text) <= _MAX_HEADING_CHARS:
                on_heading(level, text)
            else:
                on_paragraph(text)
            if full():
                return
        elif tag == "tc" and cells:
            end_cell(cells, rows)
        elif tag == "tr" and rows:
            line = end_row(rows, cells)
            if line:
                on_paragraph(line)
                if full():
                    return
        elif tag == "tbl":
            elem.clear()


def _heading_level(style: Optional[str], outline: Optional[int], styles: _Styles) -> Optional[int]:
    if outline is not None and 0 <= outline <= 8:
        return outline + 1
    if style:
        return styles.level(style)
    return None


def _attr(elem: ET.Element, name: str) -> Optional[str]:
    """An attribute by local name (`w:val`, `val`, any prefix)."""
    for key, value in elem.attrib.items():
        if local(key) == name:
            return value
    return None


def _int(value: Optional[str]) -> Optional[int]:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None
