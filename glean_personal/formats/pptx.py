"""PowerPoint presentations (.pptx): every text run, one section per slide.

Slides come in presentation order, from the slide list in presentation.xml
and its relationships: slideN.xml numbers are creation order, so a moved
slide would otherwise be cited under the wrong number. Only when those
relationships are missing do file numbers decide, and a warning says so.
Each section is headed "Slide N — <title>" and holds the other shapes' text
(tables and group shapes included) followed by the speaker notes.
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Tuple

from ..config import Limits
from ..document import Document
from .drawing import alt_text, related_paragraphs, rel_map
from .package import Package, PartError, local, rel_id, visible_events
from .sections import SectionBuilder, end_cell, end_row

_SLIDE_FILE = re.compile(r"^ppt/slides/slide(\d+)\.xml$", re.IGNORECASE)
_TITLE_PLACEHOLDERS = ("title", "ctrTitle")
# Placeholders whose text is generated, not written: slide numbers, dates,
# and on notes pages the slide image, header and footer.
_SLIDE_NOISE = ("sldNum", "dt")
_NOTES_NOISE = ("sldNum", "dt", "hdr", "ftr", "sldImg")
_TEXT_HOLDERS = ("sp", "graphicFrame", "cxnSp", "pic")
_SKIPPED = frozenset({"extLst"})
_MAX_TITLE_CHARS = 200


def read_pptx(data: bytes, limits: Limits) -> Document:
    """Slides in presentation order, each with its title, text and notes."""
    pkg = Package(data, "pptx", limits)
    presentation = pkg.main_part("presentationml", "ppt/presentation.xml")
    warnings: List[str] = []
    builder = SectionBuilder(limits.max_text_chars)
    first_title: Optional[str] = None
    for number, part in enumerate(_slide_parts(pkg, presentation, warnings), start=1):
        if builder.full:
            break
        if part is None:
            continue
        try:
            title, body = _shape_text(pkg, part, _SLIDE_NOISE, warnings=warnings)
        except PartError as exc:
            warnings.append(f"slide {number} not read: {exc}")
            continue
        notes = _notes(pkg, part, warnings)
        if number == 1:
            first_title = title
        if not (title or body or notes):
            continue
        builder.section((f"Slide {number} — {title}" if title else f"Slide {number}",))
        for paragraph in body or ([title] if title and not notes else []):
            builder.paragraph(paragraph)
        if notes:
            builder.paragraph("Notes:")
            for paragraph in notes:
                builder.paragraph(paragraph)
    title = pkg.core_title() or first_title or ""
    return Document(title=title, format="pptx", sections=builder.build(), warnings=warnings)


def _slide_parts(pkg: Package, presentation: str, warnings: List[str]) -> List[Optional[str]]:
    """Slide parts in presentation order; None keeps the number of an unreadable one."""
    try:
        rels = pkg.rels(presentation)
        root = pkg.tree(presentation)
    except PartError:
        rels, root = None, None
    if rels is None or root is None:
        found = sorted((int(m.group(1)), name) for name in pkg.names()
                       for m in [_SLIDE_FILE.match(name)] if m)
        if found:
            warnings.append("slide order from file names: presentation relationships missing")
        return [name for _, name in found]
    by_id = {rel.id: rel for rel in rels}
    parts: List[Optional[str]] = []
    for elem in root.iter():
        if local(elem.tag) != "sldId":
            continue
        rel = by_id.get(rel_id(elem) or "")
        if rel is None or rel.part is None or not pkg.has(rel.part):
            warnings.append(f"slide {len(parts) + 1} skipped: its relationship is missing "
                            "or points outside the file")
            parts.append(None)
        else:
            parts.append(rel.part)
    return parts


def _notes(pkg: Package, slide: str, warnings: List[str]) -> List[str]:
    """The speaker notes of a slide, found through the slide's own relationships."""
    try:
        rels = pkg.rels(slide) or []
    except PartError:
        return []
    for rel in rels:
        if rel.is_type("notesSlide") and rel.part and pkg.has(rel.part):
            try:
                _, text = _shape_text(pkg, rel.part, _NOTES_NOISE, want_title=False)
            except PartError as exc:
                warnings.append(f"notes of {slide} not read: {exc}")
                return []
            return text
    return []


def _shape_text(pkg: Package, part: str, noise: Tuple[str, ...],
                want_title: bool = True, warnings: Optional[List[str]] = None
                ) -> Tuple[str, List[str]]:
    """(title text, other paragraphs) of one slide or notes part, in shape order.

    Table rows become one line each, cells joined by " | ". Pictures give
    their alt text, charts their title and data, SmartArt its words. State
    is flat: stacks grow only with shapes, paragraphs and table rows actually open.
    """
    rels: Optional[Dict[str, str]] = None
    warnings = warnings if warnings is not None else []
    title = ""
    body: List[str] = []
    shapes: List[List] = []          # [placeholder type, paragraphs]
    paras: List[List[str]] = []
    rows: List[List[str]] = []
    cells: List[List[str]] = []
    for event, elem, tag in visible_events(pkg.events(part), _SKIPPED):
        if event == "start":
            if tag in _TEXT_HOLDERS:
                shapes.append([None, []])
            elif tag == "ph" and shapes:
                shapes[-1][0] = elem.get("type", "body")
            elif tag == "cNvPr" and shapes:
                described = alt_text(elem)
                if described:
                    shapes[-1].append(described)
            elif tag in ("chart", "relIds") and shapes:
                if rels is None:
                    rels = rel_map(pkg, part)
                shapes[-1][1].extend(related_paragraphs(pkg, rels, elem, warnings)[1])
            elif tag == "p":
                paras.append([])
            elif tag == "tr":
                rows.append([])
            elif tag == "tc":
                cells.append([])
            continue
        if tag == "t" and paras:
            paras[-1].append(elem.text or "")
        elif tag == "br" and paras:
            paras[-1].append("\n")
        elif tag == "p" and paras:
            text = "".join(paras.pop()).strip()
            if not text:
                continue
            if cells:
                cells[-1].append(text)
            elif shapes:
                shapes[-1][1].append(text)
            else:
                body.append(text)
        elif tag == "tc" and cells:
            end_cell(cells, rows)
        elif tag == "tr" and rows:
            line = end_row(rows, cells)
            if line and shapes:
                shapes[-1][1].append(line)
            elif line:
                body.append(line)
        elif tag in _TEXT_HOLDERS and shapes:
            kind, paragraphs, *described = shapes.pop()
            elem.clear()
            if described and kind not in noise:
                label = "Image: " if tag == "pic" else ""
                paragraphs.insert(0, label + described[0])
            if kind in noise or not paragraphs:
                continue
            if want_title and kind in _TITLE_PLACEHOLDERS and not title:
                title = " ".join(" ".join(paragraphs).split())[:_MAX_TITLE_CHARS]
            else:
                body.extend(paragraphs)
    return title, body
