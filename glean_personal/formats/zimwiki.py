"""Zim Desktop Wiki pages (`Notes/Shopping.txt` in a Zim notebook, Zim's own manual).

Zim keeps each page as a `.txt` file in its wiki markup, under a header that
says so: `Content-Type: text/x-zim-wiki`, `Wiki-Format: zim 0.4`,
`Creation-Date: …`, then a blank line. Headings are lines between runs of `=`,
six for the page's title (`====== Print to Browser ======`) down to two; in
the text, `[[target|label]]` links, `**bold**`, `//italic//`, `__underline__`,
`~~strike~~`, `''verbatim''` and `{{image.png}}`, and `'''` lines around
verbatim blocks.
"""
from __future__ import annotations

import re
from typing import List

from ..config import Limits
from ..document import Document
from .encoding import decode_text, normalise_newlines
from .sections import SectionBuilder
from .text import LONGEST_INLINE

_CONTENT_TYPE = re.compile(r"Content-Type:[ \t]*text/x-zim-wiki[ \t]*(?:\r?\n|$)", re.IGNORECASE)
# A header line: `Wiki-Format: zim 0.4`.
_HEADER_LINE = re.compile(r"[A-Za-z][\w-]{0,40}:.*")
# `====== Title ======`: the runs need not be equal, as Zim reads them.
_HEADING = re.compile(r"(={2,6})[ \t]*(\S.*?)[ \t]*=+[ \t]*")
_HEADING_CHARS = 200
# Neither holds a bracket or brace of its own, so a run of `[[` or `{{` never closed
# is read once, not 300 characters on from each.
_LINK = re.compile(r"\[\[([^\[\]|\n]{0,300})(?:\|([^\[\]\n]{0,300}))?\]\]")
_IMAGE = re.compile(r"\{\{[^{}\n]{0,300}\}\}")
# Bold, underline, strike and verbatim; italic apart, since `//` is in every address.
# A span ends at the next mark of its kind (an address's `://` aside, in italic), so
# a line of marks never closed is read once, not once from each mark to its end.
_MARKS = re.compile(r"(\*\*|__|~~|'')(?=\S)((?:(?!\1).)+?)(?<=\S)\1")
_ITALIC = re.compile(r"(?<![:/\w])//(?=[^\s/])((?:(?<=:)//|(?!//).)+?)(?<=[^\s:/])//")
_VERBATIM_FENCE = re.compile(r"[ \t]*'''[ \t]*")


def looks_like_zim_wiki(head: str) -> bool:
    """A Zim page: its header's first line names Zim's wiki format."""
    return bool(_CONTENT_TYPE.match(head.lstrip("\ufeff")))


def read_zim_wiki(data: bytes, limits: Limits) -> Document:
    """A page as sections under its headings; the title is its first heading of
    the top level (the page's name, as Zim writes it), the header left out."""
    lines = normalise_newlines(decode_text(data)).lstrip("\ufeff").split("\n")
    number = 0
    while number < len(lines) and _HEADER_LINE.fullmatch(lines[number]):
        number += 1   # the header, up to its blank line
    builder = SectionBuilder(limits.max_text_chars)
    paragraph: List[str] = []
    start = 1
    title = ""

    def flush() -> None:
        if paragraph:
            builder.paragraph("\n".join(paragraph).strip("\n"), start)
            paragraph.clear()

    for number, line in enumerate(lines[number:], number + 1):
        if builder.full:
            break
        heading = _HEADING.fullmatch(line) if len(line) <= _HEADING_CHARS else None
        if heading:
            flush()
            text = " ".join(_plain(heading.group(2)).split())
            level = 7 - len(heading.group(1))   # six `=` head the page, two the smallest part
            if level == 1 and not title:
                title = text   # the page's own name: the title, not a section of it
                continue
            builder.heading(max(level - 1, 1) if title else level, text)
            continue
        if not line.strip() or _VERBATIM_FENCE.fullmatch(line):
            flush()
            continue
        if not paragraph:
            start = number
        paragraph.append(_plain(line))
    flush()
    return Document(title=title, format="txt", sections=builder.build())


def _plain(line: str) -> str:
    """A line without the wiki's marks: a link as its label (or its target), an
    image left out, bold, italic and the rest as their words. A line longer than
    `LONGEST_INLINE` is no prose: kept as it is written."""
    if len(line) > LONGEST_INLINE:
        return line
    line = _LINK.sub(lambda m: (m.group(2) or m.group(1)).strip(), line)
    line = _IMAGE.sub("", line)
    line = _MARKS.sub(r"\2", line)
    return _ITALIC.sub(r"\1", line)
