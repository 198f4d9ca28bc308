"""AsciiDoc: sections from both title styles, text without the markup a reader never sees.

Titles are one line (`== Install`, optionally closed by `==`) or two lines,
a line of words underlined by `=`, `-`, `~`, `^` or `+` of about the same
length, the style of Git's manual pages:

    git-rm(1)
    =========

    NAME
    ----

The level-0 title is the document's title. Every other line stays on its
own line number; what a built page never shows becomes a blank line or
loses its markup: attribute entries, block attributes and anchors,
comments, preprocessor lines (`include::`, `ifdef::`), block delimiters,
list continuations (`+`), definition-list markers (`term::`), inline macros
(`linkgit:git-add[1]` → `git-add(1)`, `link:url[words]` → `words`),
cross references, backquotes, `_emphasis_` and `*strong*` markers, the built-in character attributes
(`{litdd}` → `--`). Listing, literal and passthrough blocks are kept as typed.
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence, Tuple

from ..config import Limits
from ..document import Document
from .encoding import decode_text, normalise_newlines
from .lines import Heading, headed_sections, split_lines
from .text import LONGEST_INLINE

Mark = Tuple[int, int, Heading]

# Greedy to the last non-space character: a lazy group before `[ \t]*$` is quadratic.
_HEADING = re.compile(r"(={1,6}|#{1,6})[ \t]+(\S(?:.*[^ \t])?)[ \t]*$")
_SETEXT = re.compile(r"([=\-~^+])\1+[ \t]*$")
_SETEXT_LEVELS = {"=": 1, "-": 2, "~": 3, "^": 4, "+": 5}
_LONGEST_TITLE = 1000   # a longer line is no title (and the title patterns stay cheap)
# Blocks whose lines are kept as typed (listing, literal, passthrough, fenced code)
# or hidden (comments); delimiters must repeat exactly to close.
_VERBATIM = re.compile(r"(-{4,}|\.{4,}|\+{4,}|`{3,}|/{4,})[ \t]*$")
# Compound blocks (example, sidebar, quote, open, table): their lines are parsed as usual.
_COMPOUND = re.compile(r"(={4,}|\*{4,}|_{4,}|--|[|,:!]={3,})[ \t]*$")
_ATTRIBUTE_ENTRY = re.compile(r":(!?[\w][\w-]*!?):(?:[ \t]+((?:.*[^ \t])?))?[ \t]*$")
_BLOCK_ATTRIBUTES = re.compile(r"\[(?:\[[^\[\]]*\]|[A-Za-z#.%\"'][^\[\]]*|)\][ \t]*$")
_PREPROCESSOR = re.compile(r"(?:include|ifdef|ifndef|ifeval|endif|toc)::[^\[]*\[.*\][ \t]*$")
_BLOCK_MACRO = re.compile(r"(image|video|audio)::([^\[]*)\[([^\]]*)\][ \t]*$")
_BLOCK_TITLE = re.compile(r"\.([^.\s].*)$")
# The indent is all the leading blanks (`(?![ \t])`): a shorter one could only fail
# the same way, and trying each cost time quadratic in it (a 16,000-blank indent: 3.5 CPU s).
_DEFINITION = re.compile(r"^([ \t]*)(?![ \t])(.*?\S)(:{2,4}|;;)(?:[ \t]+(.*))?$")
_HARD_BREAK = re.compile(r"[ \t]\+$")
_INLINE_MACRO = re.compile(
    r"\b(linkgit|link|xref|mailto|https?|ftp|irc|footnote|footnoteref|pass|kbd|btn|menu|anchor|image|"
    r"indexterm|indexterm2|stem|latexmath|asciimath):([^\s\[]*)\[([^\[\]]*)\]")
_ANCHOR_LINE = re.compile(r"(?:\[\[([\w:.-]+)(?:,[^\]]*)?\]\]|\[#([\w:.-]+)[^\]]*\])[ \t]*$")
_CROSS_REFERENCE = re.compile(r"<<([^<>,]+?)(?:,[ \t]*([^<>]+?))?>>")
# An anchor's reference text stops at a `[` too: else each `[[id,` of a line
# without `]` would scan the rest of it (time quadratic in the line).
_INLINE_ANCHOR = re.compile(r"\[\[\[?[\w:.-]+(?:,[^\[\]]*)?\]\]\]?")
_BACKQUOTED = re.compile(r"(?<![\w`\\])`\+?([^`\n]+?)\+?`(?![\w`])")
_EMPHASIS = re.compile(r"(?<![\w*_])([*_])([^\s*_](?:[^*_\n]*[^\s*_])?)\1(?![\w*_])")
_ATTRIBUTE_REFERENCE = re.compile(r"\{([\w][\w-]*)\}")
# Attributes every AsciiDoc processor defines, as the characters they stand for.
_BUILTIN: Dict[str, str] = {
    "litdd": "--", "caret": "^", "asterisk": "*", "tilde": "~", "plus": "+", "nbsp": " ",
    "sp": " ", "empty": "", "zwsp": "", "amp": "&", "lt": "<", "gt": ">", "startsb": "[",
    "endsb": "]", "vbar": "|", "apos": "'", "quot": '"', "backslash": "\\", "backtick": "`",
    "two-colons": "::", "two-semicolons": ";;", "cpp": "C++", "pp": "++", "deg": "\u00b0",
    "brvbar": "\u00a6", "ldquo": "\u201c", "rdquo": "\u201d", "lsquo": "\u2018",
    "rsquo": "\u2019", "wj": "", "blank": "",
}


_SNIFF_CHARS = 65_536
_STRONG_MARKER = re.compile(
    r"linkgit:[\w.-]+\[|^(?:include|ifdef|ifndef|ifeval|endif)::|^:[\w-]+:(?:[ \t]|$)"
    r"|^\[(?:verse|synopsis|literal|listing|quote|source(?:,[^\]]*)?|NOTE|TIP|IMPORTANT|WARNING|CAUTION"
    r"|\[[\w:.-]+\])\][ \t]*$", re.MULTILINE)
# A section title underlined with `-`, `~` or `^` after a blank line (the title is words).
_SECTION_TITLE = re.compile(r"(?:^|\n)\n([A-Za-z0-9][^\n]{0,79})\n([-~^]{3,})[ \t]*(?=\n)")
_TERM_LINE = re.compile(r"^\S[^\n]*[^:\s]::[ \t]*$", re.MULTILINE)


def looks_like_asciidoc(text: str) -> bool:
    """Whether text that came as `.txt` (or with no extension) is AsciiDoc, as the sources
    of Git's manual pages are (`git-rm.txt` beside `git-rm.html` in Debian's git-doc):
    it starts with a document title (`= Title`, or a line underlined with `=`) and
    has AsciiDoc's own markup (`linkgit:`, `include::`, an attribute entry, a block
    attribute line such as `[verse]`, or two definition terms `--force::`) or a
    section title underlined with `-`, `~` or `^`, as many structured text files
    are written (then the sections are worth having, and the little markup
    AsciiDoc would hide is rare in plain text)."""
    text = text[:_SNIFF_CHARS]
    lines = text.lstrip("\n").split("\n", 2)
    if len(lines) < 2 or not lines[0][:1].isalnum() and not lines[0].startswith("= "):
        return False
    titled = lines[0].startswith("= ") or bool(
        re.fullmatch(r"={2,}[ \t]*", lines[1]) and abs(len(lines[1].rstrip()) - len(lines[0].rstrip())) <= 2)
    if not titled:
        return False
    return bool(_STRONG_MARKER.search(text)) or len(_TERM_LINE.findall(text)) >= 2 or any(
        abs(len(m.group(2)) - len(m.group(1).rstrip())) <= 2 for m in _SECTION_TITLE.finditer(text))


def read_asciidoc(data: bytes, limits: Limits) -> Document:
    """AsciiDoc: one- and two-line titles make sections; the level-0 title is the title."""
    lines = split_lines(normalise_newlines(decode_text(data)))
    title, marks, body = _parse(lines)
    return Document(title=title, format="adoc", sections=headed_sections(marks, body))


def _parse(lines: Sequence[str]) -> Tuple[str, List[Mark], List[str]]:
    """(title, headings, body lines): as many body lines as lines, markup reduced to words."""
    title = ""
    stack: List[Tuple[int, str]] = []
    marks: List[Mark] = []
    body: List[str] = []
    attributes = _Attributes(sum(map(len, lines)) + _SPARE_EXPANSION)
    titles = _anchored_titles(lines)
    verbatim: Optional[str] = None    # the delimiter that closes the current verbatim block
    comment = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if verbatim is not None:
            if line.rstrip() == verbatim:
                verbatim = None
                body.append("")
            else:
                body.append("" if comment else line)
            i += 1
            continue
        # A title or a block title starts after a blank line, a title, or markup (an
        # anchor, an attribute line) that left its line blank.
        after_break = i == 0 or not body[i - 1].strip()
        heading = _heading_at(lines, i) if after_break else None
        if heading is not None:
            level, text, after = heading
            title = title or (text if level == 1 else "")
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, text))
            marks.append((i, after, tuple(t for _, t in stack)))
            body.extend([""] * (after - i))
            i = after
            continue
        fence = _VERBATIM.match(line)
        if fence:
            verbatim, comment = fence.group(1), fence.group(1).startswith("/")
            body.append("")
            i += 1
            continue
        body.append(_block_line(line, attributes, titles, after_break))
        i += 1
    return title, marks, body


def _heading_at(lines: Sequence[str], i: int) -> Optional[Tuple[int, str, int]]:
    """(level, words, line after) for a title starting at line i."""
    line = lines[i]
    if len(line) > _LONGEST_TITLE:
        return None
    one = _HEADING.match(line)
    if one:
        text = _title_words(_without_closing(one.group(2), one.group(1)[0]))
        return (len(one.group(1)), text, i + 1) if text else None
    if i + 1 >= len(lines) or not line[:1].isalnum():
        return None
    under = _SETEXT.match(lines[i + 1])
    text = line.strip()
    if not under or abs(len(lines[i + 1].rstrip()) - len(text)) > 2 or len(text) < 2:
        return None
    words = _title_words(text)
    return (_SETEXT_LEVELS[under.group(1)], words, i + 2) if words else None


def _without_closing(text: str, mark: str) -> str:
    """A one-line title without its closing marks (`== Install ==`), which a space sets
    apart; cut by hand, as a pattern of spaces then marks at the end would rescan
    every run of spaces (time quadratic in them)."""
    bare = text.rstrip(mark)
    if len(bare) < len(text) and bare[-1:] in (" ", "\t"):
        return bare.rstrip(" \t")
    return text


def _title_words(text: str) -> str:
    return " ".join(_inline(text, {}).split())


def _anchored_titles(lines: Sequence[str]) -> Dict[str, str]:
    """Anchor id → the words of the title it stands above (`[[setup]]` then `== Setting up`),
    so `<<setup>>` reads as the title, as a built page shows it."""
    titles: Dict[str, str] = {}
    for i, line in enumerate(lines[:-1]):
        if line.startswith("[") and (line.startswith("[[") or line.startswith("[#")):
            anchor = _ANCHOR_LINE.match(line)
            heading = _heading_at(lines, i + 1) if anchor else None
            if anchor and heading:
                titles[anchor.group(1) or anchor.group(2)] = heading[1]
    return titles


def _block_line(line: str, attributes: Dict[str, str], titles: Dict[str, str],
                after_break: bool) -> str:
    """One line outside verbatim blocks, as a reader of the page sees it."""
    stripped = line.strip()
    if not stripped or len(line) > LONGEST_INLINE:
        return line
    if line.startswith("//"):
        return ""   # a comment
    entry = _ATTRIBUTE_ENTRY.match(line)
    if entry:
        name = entry.group(1)
        if not name.startswith("!") and not name.endswith("!"):
            attributes[name] = _inline(entry.group(2) or "", attributes, titles)
        return ""
    if stripped == "+" or _COMPOUND.match(stripped) or _BLOCK_ATTRIBUTES.match(line) \
            or _PREPROCESSOR.match(line):
        return ""
    macro = _BLOCK_MACRO.match(line)
    if macro:
        return _inline(macro.group(3).split(",")[0].strip().strip('"'), attributes, titles)
    title = _BLOCK_TITLE.match(line) if after_break else None
    if title:
        return _inline(title.group(1), attributes, titles)
    definition = _DEFINITION.match(line)
    if definition and not definition.group(2).endswith(":"):
        indent, term, rest = definition.group(1), definition.group(2), definition.group(4)
        term = _inline(term, attributes, titles)
        return indent + (term + ": " + _inline(rest, attributes, titles) if rest else term)
    return _inline(_HARD_BREAK.sub("", line), attributes, titles)


def _inline(text: str, attributes: Dict[str, str], titles: Optional[Dict[str, str]] = None) -> str:
    """A line's words without inline macros, anchors, cross references and backquotes."""
    if len(text) > LONGEST_INLINE:
        return text
    if "[" in text:
        text = _INLINE_ANCHOR.sub("", text)
        text = _INLINE_MACRO.sub(_macro_words, text)
    if "<<" in text:
        text = _CROSS_REFERENCE.sub(lambda m: (m.group(2) or (titles or {}).get(m.group(1).strip())
                                                or m.group(1)).strip(), text)
    if "{" in text:
        text = _ATTRIBUTE_REFERENCE.sub(lambda m: _attribute(m, attributes), text)
    if "`" in text:
        text = _BACKQUOTED.sub(r"\1", text)
    if "_" in text or "*" in text:
        text = _EMPHASIS.sub(r"\2", text)
    return text


_SPARE_EXPANSION = 65_536


class _Attributes(dict):   # type: ignore[type-arg]
    """The attribute entries read so far, and how many characters their references
    may still add to the document. An entry's value may refer to the entry before
    it (`:b: {a}{a}`, `:c: {b}{b}`…), doubling the text at every line, so all
    expansions together are held to the document's own length (plus 64 KB); past
    that a reference stays as typed."""

    def __init__(self, budget: int) -> None:
        super().__init__()
        self.budget = budget


def _attribute(match: "re.Match[str]", attributes: Dict[str, str]) -> str:
    name = match.group(1)
    value = attributes[name] if name in attributes else _BUILTIN.get(name)
    if value is None:
        return match.group(0)
    if isinstance(attributes, _Attributes):
        if len(value) > attributes.budget:
            return match.group(0)
        attributes.budget -= len(value)
    return value


def _macro_words(match: "re.Match[str]") -> str:
    """What an inline macro shows: its words, else its target (`anchor:`, `indexterm:` show nothing)."""
    kind, target, words = match.group(1), match.group(2), match.group(3)
    if kind == "linkgit":
        return f"{target}({words})" if words else target
    if kind in ("anchor", "indexterm"):
        return ""
    if kind == "footnoteref":
        return words.partition(",")[2].strip()
    if kind in ("link", "xref", "mailto", "http", "https", "ftp", "irc", "image"):
        words = words.split(",")[0].strip().strip('"').rstrip("^")
        if not words:
            return f"{kind}:{target}" if kind in ("http", "https", "ftp", "irc") else target
    return words or target
