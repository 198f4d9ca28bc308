"""GNU gettext message catalogs (`.po`) and their templates (`.pot`).

A catalog pairs each message of a program or a documentation site (`msgid`)
with its translation (`msgstr`). The catalog's own words are its
translations: the source messages are the original pages' text, already
found where those pages are, and a site translated into one language
would otherwise hold every English sentence twice. So a catalog reads as
its translated messages, one paragraph each at its line; a template, or a
catalog with nothing translated yet, reads as its source messages. The
messages are grouped into sections by the file their first `#:` reference
names (`installation_guide/index.rst`), where the message comes from; a
message from a reStructuredText or Markdown page loses the inline markup
that page's reader drops (Sphinx keeps ``literal`` and roles in its
messages). The header entry, comments, obsolete entries (`#~`) and flags
are never text.
"""
from __future__ import annotations

import re
from typing import List, Optional, Tuple

from ..config import Limits
from ..document import Document
from .encoding import decode_text, normalise_newlines
from .markup import rst_inline
from .sections import SectionBuilder
from .text import markdown_inline

_KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)[ \t]+(\".*)$")
_ESCAPES = {"n": "\n", "t": "\t", "r": "", "\"": "\"", "\\": "\\", "a": "", "b": "", "f": "", "v": ""}
_REFERENCE = re.compile(r"#:[ \t]+(\S+)")


class _Entry:
    """One message: its source file, the line of each field, and the fields' text."""

    def __init__(self) -> None:
        self.source = ""
        self.fields: List[Tuple[str, int, List[str]]] = []   # (keyword, line, pieces)

    def text(self, keyword: str) -> Tuple[str, Optional[int]]:
        """The joined text of the fields named `keyword` (`msgstr` takes `msgstr[n]` too)."""
        found = [(line, "".join(pieces)) for name, line, pieces in self.fields
                 if name.split("[")[0] == keyword and "".join(pieces).strip()]
        if not found:
            return "", None
        return "\n".join(text for _, text in found), found[0][0]


def _strings(text: str) -> List[str]:
    """The quoted C strings of a line, each unescaped, left to right; an unclosed one
    ends the line (a scan, never a pattern: a pattern would rescan an unclosed string
    from each of its escaped quotes)."""
    out: List[str] = []
    pos = text.find("\"")
    while pos >= 0:
        end, i = -1, pos + 1
        while i < len(text):
            char = text[i]
            if char == "\\":
                i += 2
                continue
            if char == "\"":
                end = i
                break
            i += 1
        if end < 0:
            break
        out.append(_unescape(text[pos + 1:end]))
        pos = text.find("\"", end + 1)
    return out


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), text)


def _entries(lines: List[str]) -> List[_Entry]:
    """The catalog's live entries in order (obsolete `#~` ones are comments here)."""
    out: List[_Entry] = []
    entry: Optional[_Entry] = None
    source = ""
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            if stripped.startswith("#:") and source == "":
                found = _REFERENCE.match(stripped)
                source = found.group(1) if found else ""
            if not stripped and entry is not None:
                entry = None
            continue
        keyword = _KEYWORD.match(stripped)
        if keyword:
            name = keyword.group(1)
            if entry is None or name in ("msgctxt", "msgid") and any(
                    f[0] in ("msgid", "msgstr") or f[0].startswith("msgstr[") for f in entry.fields):
                entry = _Entry()
                entry.source, source = source, ""
                out.append(entry)
            entry.fields.append((name, number, _strings(keyword.group(2))))
        elif stripped.startswith("\"") and entry is not None and entry.fields:
            entry.fields[-1][2].extend(_strings(stripped))
    return out


def _section_name(source: str) -> str:
    """A reference's file, without its line number and the `../` that lead to it."""
    path = source.rsplit(":", 1)[0] if re.search(r":\d+$", source) else source
    while path.startswith(("../", "./")):
        path = path.split("/", 1)[1]
    return path


def read_po(data: bytes, limits: Limits) -> Document:
    """A gettext catalog: its translations (a template: its messages) by source file."""
    lines = normalise_newlines(decode_text(data)).split("\n")
    entries = _entries(lines)
    messages = [e for e in entries if e.text("msgid")[0]]   # the header's msgid is empty
    translated = any(e.text("msgstr")[0] for e in messages)
    builder = SectionBuilder(limits.max_text_chars)
    current = None
    for entry in messages:
        text, line = entry.text("msgstr") if translated else entry.text("msgid")
        if not text.strip():
            continue
        name = _section_name(entry.source)
        if name and name != current:
            builder.section((name,))
            current = name
        text = " ".join(text.split("\n"))   # the message on its first line
        if name.endswith((".rst", ".txt")):   # Sphinx's messages keep their markup
            text = rst_inline(text)
        elif name.endswith((".md", ".ipynb")):
            text = markdown_inline(text)
        builder.paragraph(text, line)
        if builder.full:
            break
    return Document(title="", format="po", sections=builder.build())
