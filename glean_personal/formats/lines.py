"""Sections made of whole lines of a file, so their line numbers are exact.

Code, configuration and lightweight markup are cut into sections by line
ranges. A section's text is those lines as they are (trailing spaces
removed), with `first_line` set to the file line it starts on, so line k of
the text is file line `first_line + k`. Blank lines at either end of a range
are dropped and `first_line` moves with them.
"""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from ..document import Section
from ..errors import SkipFile

Heading = Tuple[str, ...]
Span = Tuple[Heading, int, int]   # heading, first line, end line (0-based, half-open)


def split_lines(text: str) -> List[str]:
    """The file's lines: only LF separates them (after `normalise_newlines`)."""
    return text.split("\n")


MINIFIED_LINE = 300       # code whose lines average more characters than this was made by a tool
MINIFIED_MIN_CHARS = 4096


def refuse_minified(lines: Sequence[str]) -> None:
    """Skip minified or generated code (a bundle, a search index written as one line of
    JavaScript): no person reads it, and its one huge passage would match almost any query."""
    chars = sum(len(line) for line in lines)
    if chars >= MINIFIED_MIN_CHARS and chars > MINIFIED_LINE * len(lines):
        raise SkipFile(f"minified or generated code (lines average {chars // len(lines):,} "
                       "characters)")


def line_section(heading: Heading, lines: Sequence[str], start: int, end: int) -> Optional[Section]:
    """Lines [start, end) as one section, blank lines at the ends trimmed; None if blank."""
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    if start >= end:
        return None
    return Section(tuple(heading), "\n".join(line.rstrip() for line in lines[start:end]),
                   first_line=start + 1)


def line_sections(spans: Sequence[Span], lines: Sequence[str]) -> List[Section]:
    """One section per span, in order, blank spans dropped."""
    out: List[Section] = []
    for heading, start, end in spans:
        sec = line_section(heading, lines, start, end)
        if sec is not None:
            out.append(sec)
    return out


def headed_spans(marks: Sequence[Tuple[int, int, Heading]], count: int) -> List[Span]:
    """Spans for a document whose headings are marked lines.

    `marks` holds (heading's first line, line after the heading, heading path)
    in order; each section runs from after its heading to the next heading.
    Text before the first heading has the empty path.
    """
    spans: List[Span] = []
    pos, heading = 0, ()   # type: int, Heading
    for first, after, path in marks:
        spans.append((heading, pos, first))
        pos, heading = after, path
    spans.append((heading, pos, count))
    return spans


def headed_sections(marks: Sequence[Tuple[int, int, Heading]], lines: Sequence[str]) -> List[Section]:
    """Sections for marked headings; a heading with no text keeps its own words.

    As for Markdown, a heading with nothing under it stays (its words as its
    text, at its own line) unless the next heading is beneath it.
    """
    out: List[Section] = []
    spans = headed_spans(marks, len(lines))
    for i, (heading, start, end) in enumerate(spans):
        sec = line_section(heading, lines, start, end)
        if sec is not None:
            out.append(sec)
            continue
        if not heading:
            continue
        later = spans[i + 1][0] if i + 1 < len(spans) else ()
        if later[: len(heading)] != heading:
            out.append(Section(heading, heading[-1], first_line=marks[i - 1][0] + 1))
    return out
