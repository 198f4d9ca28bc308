"""Org text as an exported page shows it: each line in its place, the markup gone.

Keyword lines (`#+author:`, `#+texinfo: @noindent`, `#+kindex: C-x g`),
comment lines (`# …`), block delimiters (`#+begin_src emacs-lisp`), property
and logbook drawers, a drawer's own `:NAME:`/`:END:` lines and table rules
become blank lines; comment blocks and export blocks (`#+begin_export html`)
too. Source, example and fixed-width lines are kept as typed. Inline, a
link shows its words (`[[https://…][words]]` → `words`, `[[*Heading]]` →
`Heading`, `[[man:git-pull]]` → `git-pull`), code and verbatim lose their
markers (`~magit-status~`, `=C-x g=`), as do bold, italic, underline and
strike-through; a description list item loses its ` ::` (`- Key: c c ::` →
`- Key: c c`); a macro shows its arguments (`{{{kbd(C-c C-c)}}}` →
`C-c C-c`), one without any nothing (`{{{year}}}`).
"""
from __future__ import annotations

import re
from typing import List, Optional, Sequence

from .text import LONGEST_INLINE, hold, put_back

_KEYWORD = re.compile(r"[ \t]*#\+[\w-]+:")
_BLOCK = re.compile(r"[ \t]*#\+(begin|end)_(\w+)", re.IGNORECASE)
_COMMENT = re.compile(r"[ \t]*#(?:[ \t]|$)")
_DRAWER = re.compile(r"[ \t]*:([\w-]+):[ \t]*$")
_TABLE_RULE = re.compile(r"[ \t]*\|[-+]+\|?[ \t]*$")
# Blocks whose lines are kept as typed, and blocks no exported page shows.
_VERBATIM_BLOCKS = frozenset({"src", "example", "export"})
_HIDDEN_BLOCKS = frozenset({"comment", "export"})
_HIDDEN_DRAWERS = frozenset({"properties", "logbook"})
# Code and verbatim (`~x~`, `=x=`), over lines too: the content has no marker of its
# kind, so each scan from an opener stops at the next marker and a paragraph costs
# linear time. Emphasis likewise, its content free of every emphasis marker.
_PRE = r"(?<![^\s\-({'\"])"
_POST = r"(?![^\s\-.,;:!?')}\[\"])"
_CODE = re.compile(_PRE + r"(?:~([^\s~](?:[^~]*[^\s~])?)~|=([^\s=](?:[^=]*[^\s=])?)=)" + _POST)
_EMPHASIS = re.compile(_PRE + r"([*/_+])([^\s*/_+](?:[^*/_+]*[^\s*/_+])?)\1" + _POST)
# A link with words `[[target][words]]`, or without `[[target]]`. As Org reads it, the
# words run to the first `]]` and may hold brackets (`[[kbd:][M-[]]`, `[[kbd:][]t]]`),
# but not `[[`, where another link starts: so each scan stops at the next link, and a
# line of links costs linear time. The target's scan stops at a bracket.
_LINK = re.compile(r"\[\[([^\[\]]*)\](?:\[((?:[^\[\]]|\[(?!\[)|\](?!\]))+)\])?\]")
_LINK_TYPE = re.compile(r"^(?:man|info|file|id|help|elisp|shell|doi|attachment|custom-id):|^[*#]")
# A macro call `{{{kbd(C-c C-c)}}}`, `{{{year}}}`: its arguments are shown (the Org manual
# writes every key so), a macro without any shows nothing (its value is defined elsewhere).
_MACRO = re.compile(r"\{\{\{[\w-]+(?:\((.{0,300}?)\))?\}\}\}", re.DOTALL)   # bounded: `{{{kbd(C-c })}}}`
_BULLET = re.compile(r"[ \t]*(?:[-+]|[0-9]+[.)])[ \t]")


def org_lines(lines: Sequence[str]) -> List[str]:
    """Each line as the exported page shows it ("" for a line that shows nothing).

    Runs of prose lines are read together, so that a link or a code span whose
    words run over a line break reads as its words; each line keeps its place.
    """
    out: List[str] = []
    prose: List[int] = []   # indexes in `out` of the prose lines held for `org_inline`
    block = ""          # the open block's kind ("" outside one)
    drawer = ""         # the open drawer's name

    def flush() -> None:
        if prose:
            shown = org_inline("\n".join(out[k] for k in prose)).split("\n")
            if len(shown) != len(prose):   # a line break lost or added: each line on its own
                shown = [org_inline(out[k]) for k in prose]
            for k, text in zip(prose, shown):
                out[k] = text
            del prose[:]

    for line in lines:
        kept = _kept(line, block, drawer)
        if kept is None:   # prose
            prose.append(len(out))
            out.append(line)
            continue
        flush()
        lead = line.lstrip(" \t")[:1]
        found = _BLOCK.match(line) if lead == "#" else None
        if found:
            kind = found.group(2).lower()
            if found.group(1).lower() == "begin" and not block:
                block = kind
            elif found.group(1).lower() == "end" and kind == block:
                block = ""
        elif not block and lead == ":":
            name = _DRAWER.match(line)
            if name:
                drawer = "" if name.group(1).lower() == "end" else name.group(1).lower()
        out.append(kept)
    flush()
    return out


def _kept(line: str, block: str, drawer: str) -> Optional[str]:
    """What a line shows when it is not prose (None for prose, read with its paragraph)."""
    if len(line) > LONGEST_INLINE:
        return line
    lead = line.lstrip(" \t")[:1]
    if lead == "#" and _BLOCK.match(line):
        return ""
    if block:
        if block in _HIDDEN_BLOCKS:
            return ""
        if block in _VERBATIM_BLOCKS:   # as typed, but for a comma escaping `*` or `#+`
            return _unescaped(line) if lead == "," else line
        return None
    if lead == ":" and _DRAWER.match(line):
        return ""
    if drawer in _HIDDEN_DRAWERS or lead == "#" and (_KEYWORD.match(line) or _COMMENT.match(line)):
        return ""
    if lead == "|" and _TABLE_RULE.match(line):
        return ""
    if lead == ":" and line.lstrip(" \t")[1:2] in (" ", ""):
        return line   # a fixed-width line (`: output`), shown as typed
    if not line.strip():
        return ""
    return None


def _unescaped(line: str) -> str:
    """A source or example block's line without the comma that escapes a `*` or `#+` at
    its start (`,* not a heading`, `,,#+x` → `,#+x`), as the exported block shows it."""
    at = line.find(",")
    rest = line[at + 1:].lstrip(",")
    return line[:at] + line[at + 1:] if rest[:1] == "*" or rest[:2] == "#+" else line


def org_inline(line: str) -> str:
    """Text without Org's inline markup (links as their words, no emphasis markers)."""
    spans: List[str] = []
    if "[[" in line:
        line = _LINK.sub(lambda m: hold(spans, _link_words(m)), line)
    if "~" in line or "=" in line:
        line = _CODE.sub(lambda m: hold(spans, m.group(1) if m.group(1) is not None else m.group(2)), line)
    if "{{{" in line:
        line = _MACRO.sub(lambda m: hold(spans, (m.group(1) or "").replace("\\,", ",")), line)
    if "::" in line:
        line = "\n".join(_term(part) if "::" in part else part for part in line.split("\n"))
    if any(marker in line for marker in "*/_+"):
        line = _EMPHASIS.sub(r"\2", line)
    return put_back(line, spans)


def _term(line: str) -> str:
    """A description list item's line without the ` ::` after its term (`- Key: c c ::`)."""
    bullet = _BULLET.match(line)
    if not bullet:
        return line
    at = line.find(" ::", bullet.end() - 1)
    while at >= 0 and line[at + 3:at + 4] not in ("", " ", "\t"):
        at = line.find(" ::", at + 1)
    return line if at < 0 else line[:at].rstrip(" \t") + line[at + 3:]


def _link_words(match: "re.Match[str]") -> str:
    if match.group(2) is not None and match.group(2).strip():
        # the target's line breaks follow the words, so that each line keeps its place
        return org_inline(match.group(2)) + "\n" * match.group(1).count("\n")
    target = match.group(1)
    return _LINK_TYPE.sub("", target) if not target.startswith(("http:", "https:")) else target


# An Emacs mode line naming Org, alone on a file's first line (after a comment's
# leader): `# -*- mode: org -*-`, `-*- org -*-`.
_MODE_LINE = re.compile(r"[#;%/ \t]*-\*-(?:[ \t]*org[ \t]*|.*?\bmode:[ \t]*org[ \t]*(?:;.*?)?)-\*-", re.IGNORECASE)


# An Emacs mode line naming Outline mode, ending a file's first line, often after the
# file's title: GNU's `GNU sed NEWS    -*- outline -*-`, `-*- mode: outline -*-`.
_OUTLINE_MODE_LINE = re.compile(r"(.*?)[ \t]*-\*-(?:[ \t]*outline[ \t]*|"
                                r".*?\bmode:[ \t]*outline[ \t]*(?:;.*?)?)-\*-[ \t]*$",
                                re.IGNORECASE)


_MAX_MODE_LINE = 300   # a longer first line is no title and mode line (nor scanned twice)


def outline_title(first: str) -> Optional[str]:
    """For a first line holding an Emacs mode line naming Outline mode, the words
    before it ('' when none), else None."""
    if "-*-" not in first or len(first) > _MAX_MODE_LINE:
        return None
    m = _OUTLINE_MODE_LINE.match(first)
    return m.group(1).strip() if m else None


def looks_like_outline(head: str) -> bool:
    """Whether a text says on its first line that Emacs opens it in Outline mode, its
    headings lines of `*` (`* Noteworthy changes in release 4.9`, `** Bug fixes`)."""
    return outline_title(head[:200].split("\n", 1)[0]) is not None


def looks_like_org(head: str) -> bool:
    """Whether a text without an `.org` name says on its first line that it is Org
    (Magit's `CHANGELOG.2`, `# -*- mode: org -*-`), as Emacs would open it."""
    first = head[:200].split("\n", 1)[0]
    return "-*-" in first and _MODE_LINE.match(first) is not None

