"""Reading part of a document: a section, a page, a line range, a character window,
or the passages around one passage; and a document's outline.

Everything is rebuilt from the stored passages (each an exact slice of the
document's text, with its file lines or page label), so nothing here reads
the file on disk. The whole text is the one `fetch` shows: sections joined
by a blank line, each under a Markdown-style `#` heading line. Character
offsets count Python string characters of that text.

Every part says where it is (`lines 120-158 of 940`, `page 3 of 12`,
`chars 0-12000 of 48210`) and, when there is more, the arguments that read
what follows (`next`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple, Union

from .document import SECTION_SEPARATOR
from .errors import NotFound, UsageError

HeadingPath = Union[str, Sequence[str]]


@dataclass
class Piece:
    """One passage with the text it adds (overlap with the one before removed)."""

    passage_id: int
    ordinal: int
    heading: Tuple[str, ...]
    start: int                      # offset of this piece's text in the whole text
    end: int
    section_start: int              # where its section (heading line included) starts
    lines: Optional[Tuple[int, int]]
    page: Optional[str]
    text: str
    overlap: int = 0                # characters of the passage's start that end the piece
                                    # before it (sentence windows overlap): its own text
                                    # is whole[start - overlap:end]


@dataclass
class Layout:
    """A document's whole text and where each passage's contribution lies in it."""

    text: str
    pieces: List[Piece]

    @property
    def total_lines(self) -> Optional[int]:
        last = [p.lines[1] for p in self.pieces if p.lines]
        return max(last) if last else None

    @property
    def pages(self) -> List[str]:
        out: List[str] = []
        for p in self.pieces:
            if p.page is not None and p.page not in out:
                out.append(p.page)
        return out


@dataclass
class OutlineEntry:
    heading: List[str]
    level: int
    offset: int                      # character offset of the heading line in the whole text
    chars: int                       # size of the section, heading line included
    lines: Optional[List[int]] = None
    page: Optional[str] = None
    last_page: Optional[str] = None

    def to_dict(self) -> dict:
        out = {"heading": list(self.heading), "level": self.level, "offset": self.offset,
               "chars": self.chars}
        if self.lines is not None:
            out["lines"] = list(self.lines)
        if self.page is not None:
            out["page"] = self.page
            if self.last_page not in (None, self.page):
                out["last_page"] = self.last_page
        return out


@dataclass
class Outline:
    document: dict
    entries: List[OutlineEntry]
    chars: int
    total_lines: Optional[int]
    pages: List[str]

    def to_dict(self) -> dict:
        out = {"document": dict(self.document), "chars": self.chars,
               "sections": [e.to_dict() for e in self.entries]}
        if self.total_lines is not None:
            out["total_lines"] = self.total_lines
        if self.pages:
            out["pages"] = len(self.pages)
        return out


@dataclass
class Part:
    """A slice of one document, where it lies, and how to read on."""

    document: dict
    text: str
    selector: str                    # whole, section, page, lines, offset or around
    where: str                       # "lines 120-158 of 940", "page 3 of 12", ...
    chars: int                       # characters in the whole document text
    start: Optional[int]             # the slice's character offsets (lines: of the first
    end: Optional[int]               # and past the last line's piece); None for lines no
                                     # passage holds
    complete: bool                   # the part asked for is shown in full
    lines: Optional[List[int]] = None
    total_lines: Optional[int] = None
    page: Optional[str] = None
    pages: Optional[int] = None
    section: Optional[List[str]] = None
    passages: Optional[List[int]] = None   # passage ids shown (around)
    next: Optional[dict] = None      # arguments that read what follows
    warnings: List[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        out = {"document": dict(self.document), "selector": self.selector,
               "where": self.where, "text": self.text, "chars": self.chars,
               "start": self.start, "end": self.end, "complete": self.complete,
               "next": self.next, "warnings": list(self.warnings)}
        for key in ("lines", "total_lines", "page", "pages", "section", "passages"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out


def layout(passages: Sequence[dict]) -> Layout:
    """The whole text (as `fetch` shows it) and each passage's piece of it."""
    chunks: List[str] = []
    size = 0
    pieces: List[Piece] = []
    end = 0                         # end of the last passage in the reader's own text
    heading: Optional[Tuple[str, ...]] = None
    section_start = 0
    for p in passages:
        text = p["text"]
        cut = end - p["start"] if p["start"] < end else 0
        text = text[cut:]
        lines = p.get("lines")
        if lines is not None:
            first = lines[0] + p["text"].count("\n", 0, cut)
            lines = (first, max(first, lines[1]))
        this = tuple(p["heading"])
        if heading is None or this != heading:
            lead = SECTION_SEPARATOR if chunks else ""
            section_start = size + len(lead)
            if this:
                lead += "#" * len(this) + " " + this[-1] + "\n\n"
            heading = this
        else:
            lead = SECTION_SEPARATOR if p["start"] >= end else ""
        chunks.append(lead)
        size += len(lead)
        overlap = cut if cut and not lead and chunks[-2].endswith(p["text"][:cut]) else 0
        pieces.append(Piece(p["id"], p["ordinal"], this, size, size + len(text),
                            section_start, lines, p.get("page"), text, overlap))
        chunks.append(text)
        size += len(text)
        end = max(end, p["end"])
    return Layout("".join(chunks), pieces)


def outline(document: dict, lay: Layout) -> Outline:
    entries: List[OutlineEntry] = []
    for p in lay.pieces:
        if not entries or entries[-1].offset != p.section_start:
            if entries:
                entries[-1].chars = p.section_start - entries[-1].offset
            entries.append(OutlineEntry(list(p.heading), len(p.heading), p.section_start, 0,
                                        list(p.lines) if p.lines else None, p.page, p.page))
        entry = entries[-1]
        if p.lines:
            entry.lines = [entry.lines[0] if entry.lines else p.lines[0],
                           max(p.lines[1], entry.lines[1] if entry.lines else 0)]
        if p.page is not None:
            entry.page = entry.page or p.page
            entry.last_page = p.page
    if entries:
        entries[-1].chars = len(lay.text) - entries[-1].offset
    return Outline(document, [e for e in entries if e.heading] or entries, len(lay.text),
                   lay.total_lines, lay.pages)


def read(document: dict, lay: Layout, *, section: Optional[HeadingPath] = None,
         page: Union[None, str, int] = None, lines: Union[None, str, Sequence[int]] = None,
         offset: int = 0, max_chars: Optional[int] = None, around: Optional[int] = None,
         context: int = 2) -> Part:
    """One part of the document; `offset` counts from the part's start, `max_chars` cuts it."""
    chosen = [name for name, value in (("section", section), ("page", page), ("lines", lines),
                                       ("around", around)) if value not in (None, "", [])]
    if len(chosen) > 1:
        raise UsageError(f"choose one of section, page, lines or around (got {', '.join(chosen)})")
    if offset < 0:
        raise UsageError("offset must be 0 or more")
    if max_chars is not None and max_chars < 1:
        raise UsageError("max_chars must be at least 1")
    total = len(lay.text)
    if lines not in (None, "", []):
        return _read_lines(document, lay, lines, max_chars)
    extra: dict = {}
    after: Optional[dict] = None
    if section not in (None, "", []):
        wanted = _heading_path(section)
        lo, hi, found = _section_range(lay, wanted)
        args = {"section": " > ".join(found)}
        label = f"section {' > '.join(found)!r}"
        extra["section"] = list(found)
        following = [p for p in lay.pieces if p.section_start >= hi]
        if following:
            after = ({"section": " > ".join(following[0].heading)} if following[0].heading
                     else {"offset": following[0].section_start})
        selector = "section"
    elif page not in (None, ""):
        labels = lay.pages
        if not labels:
            raise UsageError(f"{document.get('path')} has no pages (format "
                             f"{document.get('format')}): ask for a section, lines or offset")
        index = _page_index(labels, page)
        on = [p for p in lay.pieces if p.page == labels[index]]
        lo, hi = on[0].start, on[-1].end
        args = {"page": labels[index]}
        label = (f"page {labels[index]} of {len(labels)}" if labels[index] == str(index + 1)
                 else f"page {labels[index]} ({index + 1} of {len(labels)})")
        extra.update(page=labels[index], pages=len(labels))
        if index + 1 < len(labels):
            after = {"page": labels[index + 1]}
        selector = "page"
    elif around is not None:
        at = [i for i, p in enumerate(lay.pieces) if p.passage_id == around]
        if not at:
            raise NotFound(f"passage {around} is not in {document.get('path')}")
        context = max(0, min(int(context), 20))
        first, last = max(0, at[0] - context), min(len(lay.pieces) - 1, at[0] + context)
        shown = lay.pieces[first:last + 1]
        lo = shown[0].section_start if shown[0].section_start < shown[0].start and \
            (first == 0 or lay.pieces[first - 1].section_start != shown[0].section_start) \
            else shown[0].start - shown[0].overlap   # the passage whole, as search shows it
        hi = shown[-1].end
        args = {"around": around, "context": context}
        label = (f"passages {first + 1}-{last + 1} of {len(lay.pieces)} around passage "
                 f"{around}")
        extra["passages"] = [p.passage_id for p in shown]
        if last + 1 < len(lay.pieces):
            nxt = min(len(lay.pieces) - 1, last + 1 + context)
            after = {"around": lay.pieces[nxt].passage_id, "context": context}
        selector = "around"
    else:
        lo, hi = 0, total
        args = {}
        label = "the whole document"
        selector = "whole"
    if offset and lo + offset >= hi:   # nothing there: an empty text that was "cut"
        raise UsageError(f"offset {offset} is past the end of {label} ({hi - lo} chars): "
                         "offsets count from the part's start")
    start = min(hi, lo + offset)
    stop = hi if max_chars is None else min(hi, start + max_chars)
    if stop < hi:
        stop = _break_before(lay.text, start, stop)
    text = lay.text[start:stop]
    complete = start == lo and stop == hi
    covered = [p for p in lay.pieces if p.end > start and p.start < max(stop, start + 1)]
    if selector == "around":   # not the piece before, whose end the first passage repeats
        covered = [p for p in covered if p.passage_id in extra["passages"]]
    span_lines = [p.lines for p in covered if p.lines]
    if span_lines and "lines" not in extra:
        first = span_lines[0][0]
        if selector == "around" and 0 < covered[0].start - start <= covered[0].overlap:
            first -= lay.text.count("\n", start, covered[0].start)   # it starts in the overlap
        extra["lines"] = [max(1, first), span_lines[-1][1]]
        extra["total_lines"] = lay.total_lines
    if "page" not in extra:
        pages = [p.page for p in covered if p.page is not None]
        if pages:
            extra["page"] = pages[0] if pages[0] == pages[-1] else f"{pages[0]}-{pages[-1]}"
            extra["pages"] = len(lay.pages)
    if selector == "whole" and not complete:
        selector = "offset"
    where = _where(label, selector, start - lo, stop - lo, hi - lo, total, extra, complete)
    if stop < hi:
        nxt = dict(args, offset=stop - lo)
        if max_chars is not None:
            nxt["max_chars"] = max_chars
    else:
        nxt = after
    return Part(document, text, selector, where, total, start, stop, complete,
                next=nxt, **extra)


def _where(label: str, selector: str, a: int, b: int, size: int, total: int, extra: dict,
           complete: bool) -> str:
    if selector == "whole":
        where = f"the whole document ({total} chars)"
    elif selector == "offset":
        where = f"chars {a}-{b} of {total}"
    elif complete:
        where = f"{label} ({size} chars)"
    else:
        where = f"{label}, chars {a}-{b} of {size}"
    if selector != "page" and extra.get("lines"):
        lo, hi = extra["lines"]
        where += f"; lines {lo}-{hi} of {extra['total_lines']}"
    if selector != "page" and extra.get("page"):
        where += f"; page {extra['page']} of {extra['pages']}"
    return where


def _break_before(text: str, start: int, stop: int) -> int:
    """Cut at the last line break in the second half of the window, if there is one."""
    cut = text.rfind("\n", start + (stop - start) // 2, stop)
    return cut + 1 if cut >= 0 else stop


def _heading_path(section: HeadingPath) -> List[str]:
    if isinstance(section, str):
        parts = section.split(">") if ">" in section else [section]
    else:
        parts = [str(s) for s in section]
    parts = [" ".join(p.lstrip("#").split()).casefold() for p in parts]
    parts = [p for p in parts if p]
    if not parts:
        raise UsageError("section needs a heading, such as \"Install > Linux\"")
    return parts


def _fold(heading: Sequence[str]) -> List[str]:
    return [" ".join(h.split()).casefold() for h in heading]


def _section_range(lay: Layout, wanted: List[str]) -> Tuple[int, int, Tuple[str, ...]]:
    """The first section whose heading path ends with `wanted` (prefix match as a
    fallback), with every section under it: (start, end, heading)."""
    headings: List[Tuple[str, ...]] = []
    for p in lay.pieces:
        if p.heading and p.heading not in headings:
            headings.append(p.heading)

    def ends_with(h: Tuple[str, ...]) -> bool:
        folded = _fold(h)
        return len(folded) >= len(wanted) and folded[len(folded) - len(wanted):] == wanted

    def starts(h: Tuple[str, ...]) -> bool:
        folded = _fold(h)
        return bool(folded) and all(folded[i].startswith(wanted[i]) if i == len(wanted) - 1
                                    else folded[i] == wanted[i]
                                    for i in range(min(len(folded), len(wanted)))) \
            and len(folded) >= len(wanted)

    def loose(h: Tuple[str, ...]) -> bool:
        return wanted[-1] in _fold(h)[-1]

    for test in (ends_with, starts, loose):
        found = [h for h in headings if test(h)]
        if found:
            break
    else:
        names = "; ".join(" > ".join(h) for h in headings[:12])
        raise NotFound(f"no section {' > '.join(wanted)!r} in this document"
                         + (f"; its sections: {names}" if names else "; it has no headings")
                         + (" …" if len(headings) > 12 else ""))
    target = min(found, key=len)
    depth = len(target)
    inside = False
    lo = hi = -1
    for p in lay.pieces:
        if p.heading[:depth] == target:
            if not inside and lo < 0:
                lo = p.section_start
            inside = True
            hi = p.end
        elif inside:
            break
    return lo, hi, target


def _page_index(labels: List[str], page: Union[str, int]) -> int:
    text = str(page).strip()
    if text in labels:
        return labels.index(text)
    if text.isascii() and text.isdigit() and len(text) <= 18 and 1 <= int(text) <= len(labels):
        return int(text) - 1
    raise NotFound(f"no page {text!r}: pages run {labels[0]}-{labels[-1]} "
                     f"({len(labels)} pages)")


LAST_LINE = 1 << 62   # past any file's last line (a range is cut to the file's)


def parse_lines(lines: Union[str, Sequence[int]]) -> Tuple[int, int]:
    if isinstance(lines, str):
        text = lines.strip().replace("–", "-").replace(":", "-")
        a, dash, b = text.partition("-")
        try:   # `120-` runs to the last line
            lo, hi = int(a), int(b) if b.strip() else (LAST_LINE if dash else int(a))
        except ValueError:
            raise UsageError(f"lines must look like \"120-158\", got {lines!r}") from None
    elif len(lines) == 2:
        lo, hi = int(lines[0]), int(lines[1])
    else:
        raise UsageError(f"lines must look like \"120-158\", got {lines!r}")
    if lo < 1:
        raise UsageError(f"lines must be a range such as \"120-158\" (first line 1), "
                         f"got {lines!r}")
    if hi < lo:
        raise UsageError(f"lines must be a range such as \"120-158\", the first line "
                         f"before the last: got {lines!r} (did you mean \"{hi}-{lo}\"?)")
    return lo, hi


def _read_lines(document: dict, lay: Layout, lines: Union[str, Sequence[int]],
                max_chars: Optional[int]) -> Part:
    lo, hi = parse_lines(lines)
    total = lay.total_lines
    if total is None:
        raise UsageError(f"{document.get('path')} has no line numbers (format "
                         f"{document.get('format')}): ask for a section, page or offset")
    if lo > total:
        raise NotFound(f"no line {lo}: {document.get('path')} has {total} lines")
    hi = min(hi, total)
    by_line: Dict[int, str] = {}
    first_piece: Dict[int, Piece] = {}
    for p in lay.pieces:
        if not p.lines or p.lines[1] < lo or p.lines[0] > hi:
            continue
        for k, line in enumerate(p.text.split("\n")):
            n = p.lines[0] + k
            if lo <= n <= hi and n not in by_line:
                by_line[n] = line
                first_piece.setdefault(n, p)
    out: List[str] = []
    size = 0
    last = lo - 1
    for n in range(lo, hi + 1):
        line = by_line.get(n, "")
        if max_chars is not None and out and size + len(line) + 1 > max_chars:
            break
        if max_chars is not None and size + len(line) > max_chars:
            line = line[:max(0, max_chars - size)]
        out.append(line)
        size += len(line) + 1
        last = n
    shown = [first_piece[n] for n in range(lo, last + 1) if n in first_piece]
    span = hi - lo + 1
    nxt = None
    if last < hi:
        nxt = {"lines": f"{last + 1}-{hi}"}
        if max_chars is not None:
            nxt["max_chars"] = max_chars
    elif last < total:
        nxt = {"lines": f"{last + 1}-{min(total, last + span)}"}
    heading = list(shown[0].heading) if shown else None
    where = f"lines {lo}-{last} of {total}"
    if heading:
        where += f", in section {' > '.join(heading)!r}"
    pages = [p.page for p in shown if p.page is not None]
    part = Part(document, "\n".join(out), "lines", where, len(lay.text),
                shown[0].start if shown else None, shown[-1].end if shown else None,
                last == hi, lines=[lo, last], total_lines=total,
                page=pages[0] if pages else None, pages=len(lay.pages) or None,
                section=heading, next=nxt)
    if not shown:   # blank lines, or a heading or markup that passages leave out
        span = f"line {lo} holds" if lo == last else f"lines {lo}-{last} hold"
        part.text = ""
        part.warnings.append(f"{span} no indexed text: blank, or a heading or markup "
                             "(front matter, a rule) that passages leave out; `next` reads on")
    return part
