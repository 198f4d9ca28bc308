"""Plain text and Markdown.

Markdown is read as text with structure: ATX and setext headings start
sections, fenced code is kept as text but never mistaken for headings, and
front matter supplies the title without becoming body text. Nothing is
rendered: the words a user typed are the words that get indexed.
"""
from __future__ import annotations

import re
from typing import List, Optional, Tuple

from ..config import Limits
from ..document import Document
from .encoding import decode_text, normalise_newlines
from .sections import SectionBuilder

_BLANK_SPLIT = re.compile(r"\n[ \t\f\v]*\n")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_THEMATIC_BREAK = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_NOT_PARAGRAPH = re.compile(r"^(?: {4}|\t| {0,3}(?:[>*+-]\s|\d{1,9}[.)]\s|>))")
_FRONT_TITLE = re.compile(r"^title[ \t]*[:=][ \t]*(.*?)[ \t]*$", re.MULTILINE | re.IGNORECASE)


def read_txt(data: bytes, limits: Limits) -> Document:
    """Plain text: blank lines separate paragraphs; no headings, so one section."""
    text = normalise_newlines(decode_text(data))
    builder = SectionBuilder(limits.max_text_chars)
    start, line = 0, 1
    for gap in [*_BLANK_SPLIT.finditer(text), None]:
        end = gap.start() if gap else len(text)
        builder.paragraph(text[start:end].rstrip(), line)
        if builder.full or gap is None:
            break
        line += text.count("\n", start, gap.end())
        start = gap.end()
    return Document(title="", format="txt", sections=builder.build())


def read_markdown(data: bytes, limits: Limits) -> Document:
    """Markdown: headings make sections; front matter title, else first H1."""
    text = normalise_newlines(decode_text(data))
    front_title, body = split_front_matter(text)
    builder = SectionBuilder(limits.max_text_chars)
    first_h1 = _walk_markdown(body, builder, 1 + text.count("\n") - body.count("\n"))
    title = front_title or first_h1 or ""
    return Document(title=title, format="md", sections=builder.build())


def split_front_matter(text: str) -> Tuple[Optional[str], str]:
    """Strip a leading `---`/`+++` block; return its title (if any) and the rest."""
    for fence, closers in (("---", ("---", "...")), ("+++", ("+++",))):
        if not (text.startswith(fence + "\n") or text.rstrip() == fence):
            continue
        lines = text.split("\n")
        for i in range(1, len(lines)):
            if lines[i].rstrip() in closers:
                block = "\n".join(lines[1:i])
                match = _FRONT_TITLE.search(block)
                title = _unquote(match.group(1)) if match else None
                return title or None, "\n".join(lines[i + 1:])
        return None, text   # never closed: not front matter
    return None, text


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value = value[1:-1]
    return value.strip()


def _walk_markdown(body: str, builder: SectionBuilder, first_line: int) -> Optional[str]:
    """Feed headings and paragraphs to the builder; return the first H1's text.

    `first_line` is the file line `body` starts on (after any front matter).
    """
    first_h1: Optional[str] = None
    para: List[str] = []
    para_line = first_line
    fence: Optional[Tuple[str, int]] = None   # (fence character, length) while in code

    def flush() -> None:
        if para:
            builder.paragraph("\n".join(para), para_line)
            del para[:]

    for number, line in enumerate(body.split("\n"), first_line):
        if not para:
            para_line = number
        if builder.full:
            break
        if fence is not None:
            close = _FENCE.match(line)
            if close and close.group(1)[0] == fence[0] and len(close.group(1)) >= fence[1] \
                    and not close.group(2).strip():
                fence = None
                flush()
            else:
                para.append(line)
            continue
        opening = _FENCE.match(line)
        if opening and not (opening.group(1)[0] == "`" and "`" in opening.group(2)):
            flush()
            fence = (opening.group(1)[0], len(opening.group(1)))
            continue
        atx = _ATX.match(line)
        if atx:
            flush()
            level, heading = len(atx.group(1)), (atx.group(2) or "").strip()
            builder.heading(level, heading)
            if level == 1 and first_h1 is None and heading:
                first_h1 = heading
            continue
        setext = _SETEXT.match(line)
        if setext and para and not _NOT_PARAGRAPH.match(para[0]):
            heading = " ".join(part.strip() for part in para)
            del para[:]
            level = 1 if setext.group(1)[0] == "=" else 2
            builder.heading(level, heading)
            if level == 1 and first_h1 is None:
                first_h1 = " ".join(heading.split())
            continue
        if not line.strip() or _THEMATIC_BREAK.match(line):
            flush()
            continue
        para.append(line.rstrip())
    flush()
    return first_h1
