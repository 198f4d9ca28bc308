"""Cut a document into passages: the unit that is ranked, cited and fetched.

Headings first (a passage never spans two sections), then windows of about
`window` characters packed at paragraph boundaries. Only a paragraph longer
than a window is cut by sentences, with `overlap` characters repeated, because
a cut inside a paragraph can split the sentence that answers a question while
a cut at a blank line cannot. Code, configuration and tables (the formats in
`LINE_FORMATS`) are cut only at line ends, so a line of code is never split;
their readers make each definition a section, so a short one is one passage.
Every passage is an exact slice of the document text (`Document.text`), so
its offsets can always be trusted.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator, List, Optional, Sequence, Tuple

from .config import DEFAULT_PASSAGES, LINE_FORMATS, PassageSizes
from .document import SECTION_SEPARATOR, Document

_PARAGRAPH_BREAK = re.compile(r"\n[ \t\r\f\v]*\n\s*")
_SENTENCE_END = re.compile(r"(?<=[.!?;:。！？])[\"')\]]*\s+|\n")
_LINE_END = re.compile(r"\n")
_SPACE = re.compile(r"\s")

Span = Tuple[int, int]

# A passage as the indexer hands it to the store:
# (heading, text, start, end, first line, last line, page).
StoredPassage = Tuple[Tuple[str, ...], str, int, int, Optional[int], Optional[int], Optional[str]]


@dataclass
class Passage:
    """A slice of the document text under one heading path."""

    heading: Tuple[str, ...]
    text: str
    start: int
    end: int
    lines: Optional[Tuple[int, int]] = None   # first and last line in the file, 1-based
    page: Optional[str] = None                # the page label, for paged formats

    def to_dict(self) -> dict:
        out = {"heading": list(self.heading), "text": self.text,
               "start": self.start, "end": self.end}
        if self.lines is not None:
            out["lines"] = list(self.lines)
        if self.page is not None:
            out["page"] = self.page
        return out


def split_document(doc: Document, sizes: PassageSizes = DEFAULT_PASSAGES) -> List[Passage]:
    """All passages of `doc`, in document order, none empty."""
    text = doc.text
    passages: List[Passage] = []
    offset = 0
    ends = _LINE_END if doc.format in LINE_FORMATS else _SENTENCE_END
    for section in doc.sections:
        spans = _section_spans(section.text, sizes, ends)
        lines = (_line_ranges(section.text, spans, section.first_line)
                 if section.first_line is not None else [None] * len(spans))
        for (start, end), span_lines in zip(spans, lines):
            passages.append(Passage(section.heading, text[offset + start:offset + end],
                                    offset + start, offset + end, span_lines, section.page))
        offset += len(section.text) + len(SECTION_SEPARATOR)
    return passages


def _line_ranges(text: str, spans: Sequence[Span], first_line: int) -> List[Tuple[int, int]]:
    """The file lines each span covers; spans start in order, so lines are counted once."""
    out: List[Tuple[int, int]] = []
    pos, line = 0, first_line
    for start, end in spans:
        if start >= pos:
            line += text.count("\n", pos, start)
        else:   # an overlapping sentence window starts before the last one ended
            line -= text.count("\n", start, pos)
        pos = start
        out.append((line, line + text.count("\n", start, end)))
    return out


def _section_spans(text: str, sizes: PassageSizes, ends: "re.Pattern[str]" = _SENTENCE_END) -> List[Span]:
    spans: List[Span] = []
    group: List[Span] = []
    for para in _paragraphs(text):
        if para[1] - para[0] > sizes.window:
            spans.extend(_flush(group))
            group = []
            spans.extend(_sentence_windows(text, para, sizes, ends))
        elif group and para[1] - group[0][0] > sizes.window:
            spans.extend(_flush(group))
            group = [para]
        else:
            group.append(para)
    spans.extend(_flush(group))
    return _merge_tail(spans, sizes)


def _flush(group: List[Span]) -> List[Span]:
    return [(group[0][0], group[-1][1])] if group else []


def _paragraphs(text: str) -> Iterator[Span]:
    """Spans of the non-blank paragraphs, trimmed of surrounding white space."""
    pos = 0
    for match in _PARAGRAPH_BREAK.finditer(text):
        yield from _trimmed(text, pos, match.start())
        pos = match.end()
    yield from _trimmed(text, pos, len(text))


def _trimmed(text: str, start: int, end: int) -> Iterator[Span]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start < end:
        yield (start, end)


def _sentences(text: str, para: Span, limit: int, ends: "re.Pattern[str]") -> List[Span]:
    """Sentence spans of one paragraph; a sentence longer than `limit` is cut at spaces."""
    out: List[Span] = []
    pos = para[0]
    for match in ends.finditer(text, para[0], para[1]):
        out.extend(_hard_cut(text, pos, match.end(), limit))
        pos = match.end()
    out.extend(_hard_cut(text, pos, para[1], limit))
    return out


def _hard_cut(text: str, start: int, end: int, limit: int) -> List[Span]:
    pieces: List[Span] = []
    while end - start > limit:
        cut = start + limit
        space = text.rfind(" ", start + limit // 2, cut)
        if space > start:
            cut = space + 1
        pieces.append((start, cut))
        start = cut
    if start < end:
        pieces.append((start, end))
    return pieces


def _sentence_windows(text: str, para: Span, sizes: PassageSizes,
                      ends: "re.Pattern[str]") -> List[Span]:
    """Windows of whole sentences (or lines); each after the first repeats ~`overlap` chars."""
    sentences = _sentences(text, para, sizes.window, ends)
    windows: List[Span] = []
    first = 0
    while first < len(sentences):
        last = first
        while (last + 1 < len(sentences)
               and sentences[last + 1][1] - sentences[first][0] <= sizes.window):
            last += 1
        windows.append((sentences[first][0], sentences[last][1]))
        if last + 1 >= len(sentences):
            break
        nxt = last + 1
        while nxt - 1 > first and sentences[last][1] - sentences[nxt - 1][0] <= sizes.overlap:
            nxt -= 1
        first = nxt
    return [span for w in windows for span in _trimmed(text, *w)]


def _merge_tail(spans: List[Span], sizes: PassageSizes) -> List[Span]:
    """Join a tiny trailing fragment to the passage before it."""
    if len(spans) >= 2:
        (a, b), (c, d) = spans[-2], spans[-1]
        if d - c < sizes.min_tail and d - a <= sizes.window + sizes.min_tail:
            spans = spans[:-2] + [(a, max(b, d))]
    return spans


def regroup(passages: Sequence[dict]) -> List[dict]:
    """Stored passages (dicts with heading, text, start, end) back into sections.

    Overlaps between sentence windows are removed, so each section's text is
    what the reader produced, up to the white space between paragraphs.
    """
    out: List[dict] = []
    end = 0
    for p in passages:
        text = p["text"]
        if p["start"] < end:  # a sentence window repeats the end of the one before
            text = text[end - p["start"]:]
        if out and out[-1]["heading"] == p["heading"]:
            out[-1]["text"] += (SECTION_SEPARATOR if p["start"] >= end else "") + text
        else:
            out.append({"heading": p["heading"], "text": text})
        end = max(end, p["end"])
    return out
