"""Vim's help files (`doc/*.txt` of Vim, Neovim and their plugins), and their HTML.

A help file starts with its own tag, `*usr_25.txt*  For Vim version 9.0.`, and
ends with a modeline, `vim:tw=78:ts=8:ft=help:norl:`. Lines of `=` divide it
into sections, each headed by its first line (`*25.1*  Breaking lines`,
`1. Deleting text    *deleting* *E470*`); lines of `-` divide some sections
again. In the text, `*tag*` marks a place that `:help tag` jumps to and
`|tag|` links to one: the tag's words are kept, not the marks.
"""
from __future__ import annotations

import re
from typing import List, Optional

from ..config import Limits
from ..document import Document
from .encoding import decode_text, normalise_newlines
from .sections import SectionBuilder

# The file's own tag on its first line, then a tab or spaces.
_FIRST_TAG = re.compile(r"\*([\w.+-]{1,80}\.txt)\*[ \t]")
_MODELINE = re.compile(r"\bvim?:[^\n]*\b(?:ft|filetype)=help\b")
# A modeline is short (`vim:tw=78:ts=8:noet:ft=help:norl:`); a longer line is not
# searched for one, since each `vi:` in it starts a search to the line's end.
_MODELINE_CHARS = 200
_RULE = re.compile(r"(=|-)\1{19,}[ \t]*")
_TAG = re.compile(r"\*([^*\s|]{1,80})\*")
_LINK = re.compile(r"\|([^|\s]{1,80})\|")
# Tags at the end of a heading line, where `:help` finds them, not words of the heading.
_TRAILING_TAGS = re.compile(r"(?:[ \t]+\*[^*\s|]{1,80}\*)+[ \t]*$")
# A line of tags alone, above the line that heads a section (plugins write them so).
_ONLY_TAGS = re.compile(r"[ \t]*(?:\*[^*\s|]{1,80}\*[ \t]*)+")
# A line that opens an example (ends in ` >`, or `>` alone) or closes one (`<` first).
_EXAMPLE_OPEN = re.compile(r"(?:^|[ \t])>(?:[a-z]{0,12})[ \t]*$")
_EXAMPLE_CLOSE = re.compile(r"^<(?=[ \t]|$)")
_HEADING_CHARS = 100


def looks_like_vim_help(head: str, tail: str = "") -> bool:
    """Whether a text is a help file: its own tag first, with *Vim* on that line or
    the help modeline in the text (a plugin's doc: `*fugitive.txt*  A Git wrapper`)."""
    first = head.lstrip("\ufeff\r\n")[:200].split("\n", 1)[0]   # CR: not yet normalised
    if not _FIRST_TAG.match(first):
        return False
    return "vim" in first.lower() or bool(_MODELINE.search(head[-2000:]) or _MODELINE.search(tail))


def read_vim_help(data: bytes, limits: Limits) -> Document:
    text = normalise_newlines(decode_text(data))
    name = _FIRST_TAG.match(text.lstrip("\ufeff\n"))
    return vim_help_document(text, name.group(1)[:-4] if name else "", "txt", limits)


def vim_help_document(text: str, title: str, fmt: str, limits: Limits) -> Document:
    """A help file's text (read from the file, or from the `<pre>` of its HTML) as
    sections under the lines that head them."""
    builder = SectionBuilder(limits.max_text_chars)
    lines = text.split("\n")
    paragraph: List[str] = []
    start = 1

    def flush() -> None:
        if paragraph:
            builder.paragraph("\n".join(paragraph).strip("\n"), start)
            paragraph.clear()

    level: Optional[int] = None   # a rule was seen: the next line with text heads a section
    for number, line in enumerate(lines, 1):
        if builder.full:
            break
        rule = _RULE.fullmatch(line)
        if rule:
            flush()
            level = 1 if rule.group(1) == "=" else 2
            continue
        if not line.strip() or (len(line) <= _MODELINE_CHARS and _MODELINE.search(line)):
            # the modeline is for the editor
            flush()
            continue
        if level is not None:
            if len(line) <= _HEADING_CHARS * 2 and _ONLY_TAGS.fullmatch(line):
                continue   # dropped, as a heading's trailing tags are; the next line heads
            heading = _heading(line)
            if heading:
                builder.heading(level, heading)
                level = None
                continue
            level = None
        if not paragraph:
            start = number
        paragraph.append(_plain(line))
    flush()
    return Document(title=title, format=fmt, sections=builder.build())


def _heading(line: str) -> str:
    """A section's first line as its heading: the tags at its end dropped, the rest's
    marks taken off (`*25.1*  Breaking lines` is *25.1 Breaking lines*)."""
    if len(line) > _HEADING_CHARS * 2:
        return ""
    text = " ".join(_plain(_TRAILING_TAGS.sub("", line)).split())
    return text[:_HEADING_CHARS] if any(c.isalpha() for c in text) else ""


def _plain(line: str) -> str:
    """A line without the help's marks: `*tag*` and `|tag|` as their words, and the
    `>` and `<` that open and close an example."""
    line = _EXAMPLE_CLOSE.sub("", _EXAMPLE_OPEN.sub("", line))
    return _LINK.sub(r"\1", _TAG.sub(r"\1", line))
