"""GNU Info (`grep.info.gz`, `find.info-1.gz`): the manuals `info` reads, as it shows them.

An Info file is the text `makeinfo` made from a Texinfo source: nodes, each
after a `\\x1f` line and a header (`File: grep.info,  Node: Usage,  Next: …`),
titles underlined with `*`, `=`, `-` or `.` by level, menus (`* Menu:`) at
a node's end, and a tag table at the file's end. Index nodes and images are
marked with `\\0\\b[index\\0\\b]` and `\\0\\b[image src="x.png"\\0\\b]`, so an
Info file with an index holds NUL bytes; they are read, not taken for binary.

Titles head sections (the first, the Top node's, is the title). Every other
line keeps its place, blank when Info shows nothing of it or it only steers
the reader: separators, node headers, menus (to the node's end), the
preamble before the first node (the manual's copying notice and its
`INFO-DIR-SECTION` entry), the tag table, an indirect file's table and the
`Local Variables` block. Cross references read as Info's own display of
them does, as their words (`*note Usage::` → `Usage`, `*Note Label:
Node.` → `See Label`, a sentence's start being `@xref`'s *See*); an image
shows its `alt` text.
"""
from __future__ import annotations

import re
from typing import List, Tuple

from ..config import Limits
from ..document import Document
from .encoding import bom_encoding, decode_text, normalise_newlines
from .lines import Heading, headed_sections, split_lines
from .text import read_txt

Mark = Tuple[int, int, Heading]

_LEVELS = {"*": 1, "=": 2, "-": 3, ".": 4}
# `\0\b[index\0\b]`, `\0\b[image src="x.png" alt="words"\0\b]`: each scan stops at a NUL.
_MARKER = re.compile(rb"\x00\x08\[([^\x00]*)\x00\x08\]")
_ALT = re.compile(rb'\balt="((?:[^"\\]|\\.)*)"')
_HEADER = re.compile(r"File: [^,\n]*,[ \t]+Node: ")
# A cross reference: `*note Node::` or `*note Label: (manual)Node.` (a name runs to its
# `::`, `.`, `,`; each part is bounded, so a paragraph of `*note` costs linear time). A run
# of spaces is taken whole: given back a space at a time, each shorter run retried the
# 300-character parts after it (`*note` and 1 MB of spaces cost 9 CPU s).
_NOTE = re.compile(r"\*([Nn]ote)(\s+)(?!\s)(?:([^:*\x7f]{1,300}?)::"
                   r"|([^:*\x7f]{1,300}?):\s+(?!\s)(?:\([^()\s]{1,100}\))?[^.,:*\x7f()]{0,300}[.,])")
_SEPARATOR = "\x1f"


def looks_like_info(head: str) -> bool:
    """Whether a text is an Info file: `makeinfo`'s first line, or a node header early on."""
    start = head[:4096]
    return ("produced by makeinfo" in start.split("\n", 1)[0]
            or "\x1f\nFile: " in start and _HEADER.search(start) is not None)


def read_info(data: bytes, limits: Limits) -> Document:
    """An Info file: its titles as sections, its text as `info` shows it."""
    wide, skip = bom_encoding(data)
    if wide and wide != "utf-8":   # UTF-16 or UTF-32: its NULs are its text's, not markers
        data = data[skip:].decode(wide, errors="replace").encode("utf-8", errors="surrogatepass")
    if b"\x00" in data:   # a NUL outside a marker is a binary file's, refused as any text's is
        data = _MARKER.sub(_marker_words, data).replace(b"\x00\x08", b"")
    if b"\x1f" not in data:   # no node: another program's `.info` (Drupal's module metadata)
        return read_txt(data, limits)
    lines = split_lines(normalise_newlines(decode_text(data)))
    out: List[str] = []
    marks: List[Mark] = []
    path: List[Tuple[int, str]] = []
    hidden = True            # the preamble, a menu, a tag table: shown nothing
    after_separator = False
    node = ""
    title = ""               # the Top node's title (a manual's name)
    for i, line in enumerate(lines):
        if line.startswith(_SEPARATOR):
            out.append("")
            hidden, after_separator = True, True
            continue
        if after_separator:
            after_separator = False
            if _HEADER.match(line):
                hidden = False   # a node's text follows; a tag table or indirect table stays hidden
                node = line[_HEADER.match(line).end():].split(",", 1)[0].strip()
            out.append("")
            continue
        if hidden:
            out.append("")
            continue
        if line.startswith("* Menu:"):
            hidden = True
            out.append("")
            continue
        out.append(line)
        underline = line.strip()
        if i and underline and underline[0] in _LEVELS and underline == underline[0] * len(underline) \
                and out[i - 1] and len(out[i - 1].rstrip()) == len(underline) and out[i - 1][:1] not in " \t":
            words = out[i - 1].strip()
            level = _LEVELS[underline[0]]
            while path and path[-1][0] >= level:
                path.pop()
            path.append((level, words))
            marks.append((i - 1, i + 1, tuple(words for _, words in path)))
            if node == "Top" and len(marks) == 1:
                title = words
            out[i - 1] = out[i] = ""
    text_lines = _with_references(out)
    return Document(title=title, format="info", sections=headed_sections(marks, text_lines))


def _marker_words(match: "re.Match[bytes]") -> bytes:
    """An image's alt text; an index marker (or any other) nothing."""
    if match.group(1).startswith(b"image"):
        alt = _ALT.search(match.group(1))
        return alt.group(1) if alt else b""
    return b""


def _with_references(lines: List[str]) -> List[str]:
    """The lines with each cross reference as Info shows it, read a paragraph at a time
    (a reference may run over a line break); each line keeps its place."""
    out = list(lines)
    start = 0
    count = len(lines)
    while start < count:
        if not lines[start].strip():
            start += 1
            continue
        end = start
        while end < count and lines[end].strip():
            end += 1
        block = "\n".join(lines[start:end])
        if "*note" in block.lower():
            out[start:end] = _NOTE.sub(_note_words, block).split("\n")
        start = end
    return out


def _note_words(match: "re.Match[str]") -> str:
    see = "See " if match.group(1) == "Note" else ""   # `@xref`'s "See"; `@ref` and `@pxref` none
    if match.group(3) is not None:
        shown = see + match.group(3).strip()
    else:   # the label, and the `.` or `,` that ends the node's name (the sentence's own)
        shown = see + match.group(4).strip() + match.group(0)[-1]
    breaks = match.group(0).count("\n") - shown.count("\n")
    return shown + "\n" * max(breaks, 0)


__all__ = ["read_info", "looks_like_info"]
