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
(`{litdd}` → `--`). Listing, literal and passthrough blocks are kept as typed,
their callout numbers (`<1>`) left out and, where their `subs` say so, attribute
references replaced. A table's row reads as one line, its cells' words joined by
` | ` (the cell marks and specifiers `2+a|` left out); `:description:` reads as the
page's summary, on its own line, unless the opening already says it.
"""
from __future__ import annotations

import bisect
import csv
import re
from typing import Dict, List, Optional, Sequence, Tuple

from ..config import Limits
from ..document import Document
from .encoding import decode_text, normalise_newlines
from .lines import Heading, headed_sections, split_lines
from .text import LONGEST_INLINE, hold, put_back, summary_said

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
# An inline macro's name, target and opening bracket; its text runs to the first `]` not
# escaped (`\]`), `[` included, as AsciiDoc reads it (found by hand: `_macros`, `_Closing`).
# A name may follow `_` (`_xref:a.adoc[words]_`, emphasis around the link).
_INLINE_MACRO = re.compile(
    r"(?<![A-Za-z0-9])(linkgit|link|xref|mailto|https?|ftp|irc|footnote|footnoteref|pass|kbd|btn|menu|"
    r"anchor|image|indexterm|indexterm2|stem|latexmath|asciimath):([^\s\[]*)\[")
# `link:` before a bare address (`link:https://example.com/,`) is only the address, and
# a backslash before one (`\\https://example.com`, no link made) shows nothing.
_BARE_LINK = re.compile(r"(?:(?<![A-Za-z0-9])link:|(?<![\w\\])\\)(?=(?:https?|ftp|irc|file|mailto):)")
# An inline passthrough `+++uid={0}+++` shows its text as typed (one line, no `+++` inside).
_PASSTHROUGH = re.compile(r"\+\+\+((?:[^+]|\+(?!\+\+))+?)\+\+\+")
_ANCHOR_LINE = re.compile(r"(?:\[\[([\w:.-]+)(?:,[^\]]*)?\]\]|\[#([\w:.-]+)[^\]]*\])[ \t]*$")
_CROSS_REFERENCE = re.compile(r"<<([^<>,]+?)(?:,[ \t]*([^<>]+?))?>>")
# An anchor's reference text stops at a `[` too: else each `[[id,` of a line
# without `]` would scan the rest of it (time quadratic in the line).
_INLINE_ANCHOR = re.compile(r"\[\[\[?[\w:.-]+(?:,[^\[\]]*)?\]\]\]?")
_BACKQUOTED = re.compile(r"(?<![\w`\\])`\+?([^`\n]+?)\+?`(?![\w`])")
_EMPHASIS = re.compile(r"(?<![\w*_])([*_])([^\s*_](?:[^*_\n]*[^\s*_])?)\1(?![\w*_])")
_ATTRIBUTE_REFERENCE = re.compile(r"(\\)?\{([\w][\w-]*)\}")
# Tables: the delimiter (`|===`, `!===` nested, `,===` and `:===` for CSV and DSV data),
# a cell's start (its specifier, then the separator, at a line's start or after a blank:
# `| a | b`, `2+a| text`, `.3+^.>s|`; `\|` is no separator) and the `cols` attribute.
_TABLE_DELIMITER = re.compile(r"([|,:!])={3,}[ \t]*$")
_CELL_SPEC = r"((?:\d{1,3}(?:\.\d{1,3})?|\.\d{1,3})[+*])?(?:[<^>])?(?:\.[<^>])?([adehlmsv])?"
_CELL_STARTS = {sep: re.compile(r"(?:^|(?<=[ \t]))" + _CELL_SPEC + re.escape(sep)) for sep in "|!"}
_TABLE_COLS = re.compile(r"""(?:^|[,\[%\s])cols=(?:"([^"]*)"|'([^']*)'|([^,\]\s]*))""")
_TABLE_FORMAT = re.compile(r"""(?:^|[,\[\s])format=["']?(csv|dsv|tsv)""")
_COLUMN_SPEC = re.compile(r"[ \t]*(\d{1,3})\*")
_SUBS = re.compile(r"""(?:^|[,\[\s])subs=(?:"([^"]*)"|'([^']*)'|([^\]\s]*))""")
_LIST_MARK = re.compile(r"(?:[*.-]+|\d{1,9}\.)[ \t]+")
# A callout list's item, `<1> What the line does` (`<.>` numbered for you).
_CALLOUT_ITEM = re.compile(r"<(?:\d{1,3}|\.)>[ \t]+(.*)$")
_CALLOUT = re.compile(r"<!?(--|)(?:\d{1,3}|\.)\1>")
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
    subs: Tuple[bool, bool] = (False, False)   # the verbatim block's attribute and callout substitutions
    tables: List[_Table] = []         # the open tables, innermost last
    description: Optional[int] = None  # the line of `:description:`
    i = 0
    while i < len(lines):
        line = lines[i]
        if verbatim is not None:
            if line.rstrip() == verbatim:
                verbatim = None
                body.append("")
            else:
                body.append("" if comment else _verbatim_line(line, subs, attributes))
            i += 1
            continue
        delimiter = _TABLE_DELIMITER.match(line)
        if delimiter:
            if tables and line.rstrip() == tables[-1].delimiter:
                tables.pop().render(body)
            else:
                if tables:
                    tables[-1].foreign(i)
                tables.append(_Table(line.rstrip(), _preceding_attributes(lines, i), i))
            body.append("")
            i += 1
            continue
        if tables:
            fence = _VERBATIM.match(line)
            if fence:
                tables[-1].foreign(i)
                verbatim, comment = fence.group(1), fence.group(1).startswith("/")
                subs = _verbatim_subs(_preceding_attributes(lines, i), fence.group(1))
                body.append("")
            else:
                body.append("")
                tables[-1].take(i, line, attributes, titles, i == 0 or not lines[i - 1].strip())
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
            subs = _verbatim_subs(_preceding_attributes(lines, i), fence.group(1))
            body.append("")
            i += 1
            continue
        body.append(_block_line(line, attributes, titles, after_break))
        if description is None and line.startswith(":description:"):
            description = i
            body[i] = attributes.get("description", "")
        i += 1
    for table in reversed(tables):   # never closed: to the end of the file
        table.render(body)
    if description is not None and summary_said(body, description, title):
        body[description] = ""
    return title, marks, body


def _preceding_attributes(lines: Sequence[str], i: int) -> str:
    """The block attribute lines just above line i (`[source,shell,subs="attributes+"]`,
    `[options="header",cols="2,1"]`), past a block title and anchors, as one text."""
    found: List[str] = []
    k = i - 1
    while k >= 0 and k >= i - 4:
        line = lines[k]
        if len(line) > _LONGEST_TITLE or not line.startswith(("[", ".")):
            break
        if line.startswith("[") and _BLOCK_ATTRIBUTES.match(line):
            found.append(line.strip()[1:-1])
        elif not (line.startswith(".") and _BLOCK_TITLE.match(line)) and not _ANCHOR_LINE.match(line):
            break
        k -= 1
    return ",".join(found)


# What a `subs` value turns on: the groups and names that hold attribute references
# and callouts (`a`, `n`, `v`: their short names).
_SUBS_GROUPS = {"attributes": ("attributes",), "a": ("attributes",), "normal": ("attributes",),
                "n": ("attributes",), "callouts": ("callouts",), "verbatim": ("callouts",),
                "v": ("callouts",)}


_MOST_SUBS = 24


def _verbatim_subs(attributes: str, fence: str) -> Tuple[bool, bool]:
    """(attribute references replaced, callouts taken out) for a verbatim block: listing
    and literal blocks take callouts, a passthrough nothing, unless a `subs` attribute
    says otherwise (`subs="attributes+"` adds to them, `subs="attributes"` replaces
    them, `-callouts` takes one away)."""
    subs = set() if fence.startswith("+") else {"callouts"}
    found = _SUBS.search(attributes) if "subs=" in attributes else None
    if found:
        replaced = False
        items = (found.group(1) or found.group(2) or found.group(3) or "").split(",")
        for item in items[:_MOST_SUBS]:   # a real list names a few; a hostile one thousands
            item = item.strip().lower()
            names = set(_SUBS_GROUPS.get(item.strip("+-"), ()))
            if item.startswith("-"):
                subs -= names
            elif item.startswith("+") or item.endswith("+"):
                subs |= names
            elif item:
                subs = subs if replaced else set()
                replaced = True
                subs |= names
    return "attributes" in subs, "callouts" in subs


def _verbatim_line(line: str, subs: Tuple[bool, bool], attributes: Dict[str, str]) -> str:
    """A listing or literal block's line as shown: as typed, without its callouts, and
    with the file's attribute values when the block's `subs` include attributes (an
    unknown one stays as typed, a placeholder in code)."""
    if len(line) > LONGEST_INLINE:
        return line
    if subs[0] and "{" in line:
        line = _ATTRIBUTE_REFERENCE.sub(lambda m: _attribute(m, attributes, True), line)
    if subs[1] and line.rstrip().endswith(">"):
        line = _without_callouts(line)
    return line


def _without_callouts(line: str) -> str:
    """A code line without the callout numbers at its end (`require 'x' # <1>`,
    `get '/hi' do <2> <3>`, `<a/> <!--1-->`), each with the line comment it may sit
    behind (`//`, `#`, `--`, `;;`), as the built page shows the code."""
    end = len(line.rstrip())
    cut = False
    while end and line[end - 1] == ">":   # by index, never copying the line: linear in it
        start = line.rfind("<", 0, end)
        if start < 0 or not _CALLOUT.fullmatch(line, start, end) or line[start - 1:start] == "\\":
            break
        end = start - 1 if line[start - 1:start] == " " else start
        for lead in ("//", "#", "--", ";;"):
            if line.endswith(lead, 0, end):
                end -= len(lead)
                break
        while end and line[end - 1] in " \t":
            end -= 1
        cut = True
    return line[:end] if cut else line


class _Table:
    """An open table: what each of its lines shows, cell by cell, and where its rows
    start. A row's cells are counted against the columns (the `cols` attribute, else
    the cells of its first line), spans and duplications included (`2+|`, `.2+|`,
    `3*|`); when the table closes each row reads as one line on its first line, its
    cells' words joined by ` | `, as other readers join a table's cells, and a row
    that holds a listing block or a nested table keeps its lines."""

    def __init__(self, delimiter: str, attributes: str, at: int) -> None:
        self.delimiter = delimiter
        found = _TABLE_FORMAT.search(attributes) if "format=" in attributes else None
        kind = {",": "csv", ":": "dsv"}.get(delimiter[0], found.group(1) if found else "psv")
        self.kind = kind
        self.sep = "!" if delimiter[0] == "!" else "|"
        cols = _TABLE_COLS.search(attributes) if "cols=" in attributes else None
        self.cols = _column_count(cols.group(1) or cols.group(2) or cols.group(3) or "") if cols else 0
        self.first = at + 1
        self.shown: Dict[int, List[Tuple[bool, str]]] = {}   # line → (starts a cell, words)…
        self.row_starts: List[int] = []
        self.foreign_lines: List[int] = []   # lines another block shows (listings, nested tables)
        self.filled = 0
        self.capacity = 0
        self.row = 0
        self.held = 0                    # columns held by cells of rows above spanning this one
        self.ends: Dict[int, int] = {}   # row → columns such cells stop holding there

    def foreign(self, i: int) -> None:
        self.foreign_lines.append(i)

    def take(self, i: int, line: str, attributes: Dict[str, str], titles: Dict[str, str],
             after_break: bool) -> None:
        """Read one line of the table."""
        if not line.strip() or len(line) > LONGEST_INLINE:
            self.shown[i] = [(False, line if line.strip() else "")]
            return
        if self.kind != "psv":
            if line.startswith("//"):
                return
            cells = _csv_cells(line) if self.kind == "csv" else line.split("\t" if self.kind == "tsv" else ":")
            self.shown[i] = [(True, _inline(cell.strip(), attributes, titles)) for cell in cells]
            self.row_starts.append(i)
            return
        starts = list(_CELL_STARTS[self.sep].finditer(line))
        if not starts:
            self.shown[i] = [(False, _block_line(line, attributes, titles, after_break))]
            return
        shown: List[Tuple[bool, str]] = []
        lead = line[:starts[0].start()].strip()
        if lead:
            shown.append((False, _inline(lead, attributes, titles)))
        spans = [_span(m.group(1)) for m in starts]
        if not self.cols:
            self.cols = sum(col * dup for col, _, dup in spans)
        for k, m in enumerate(starts):
            end = starts[k + 1].start() if k + 1 < len(starts) else len(line)
            text = line[m.end():end].strip().replace("\\" + self.sep, self.sep)
            if self._cell(*spans[k]) and (not self.row_starts or self.row_starts[-1] != i):
                self.row_starts.append(i)
            style = m.group(2)
            words = text if style == "l" else (_block_line(text, attributes, titles, True) if style == "a"
                                               else _inline(text, attributes, titles))
            shown.append((True, words))
        self.shown[i] = shown

    def _cell(self, col: int, row: int, dup: int) -> bool:
        """Count a cell in; whether it starts a row."""
        starts = self.filled >= self.capacity
        if starts:
            self.row += 1
            self.held -= self.ends.pop(self.row, 0)
            self.capacity = max(self.cols, 1)
            self.filled = min(self.held, self.capacity - 1)
        self.filled += col * dup
        if row > 1:
            self.held += col
            self.ends[self.row + row] = self.ends.get(self.row + row, 0) + col
        return starts

    def render(self, body: List[str]) -> None:
        """Write the table's lines into body: a row on its first line when it can be."""
        if not self.shown:
            return
        last = max(max(self.shown), max(self.foreign_lines, default=0))
        starts = sorted(set(self.row_starts)) or [self.first]
        bounds = [self.first] + [s for s in starts if s > self.first] + [last + 1]
        foreign = sorted(self.foreign_lines)
        for begin, end in zip(bounds, bounds[1:]):
            spanned = bisect.bisect_left(foreign, begin) < bisect.bisect_left(foreign, end)
            if spanned:
                for k in range(begin, end):
                    if k in self.shown:
                        body[k] = " | ".join(words for _, words in self.shown[k] if words.strip()) \
                            if any(cell for cell, _ in self.shown[k]) else self.shown[k][0][1]
                continue
            cells: List[List[str]] = []
            for k in range(begin, end):
                for starts_cell, words in self.shown.get(k, ()):
                    if starts_cell or not cells:
                        cells.append([])
                    words = words.strip()
                    if words:
                        bullet = _LIST_MARK.match(words)
                        cells[-1].append(words[bullet.end():] if bullet else words)
            body[begin] = " | ".join(" ".join(cell) for cell in cells if cell)
            for k in range(begin + 1, end):
                body[k] = ""


def _csv_cells(line: str) -> List[str]:
    """A CSV table's row (`,===`, `format=csv`): its fields, quotes read as CSV reads them."""
    try:
        return next(csv.reader([line]), [])
    except csv.Error:
        return line.split(",")


def _span(spec: Optional[str]) -> Tuple[int, int, int]:
    """(columns, rows, copies) of a cell's span or duplication (`2+`, `.3+`, `2.3+`, `3*`)."""
    if not spec:
        return 1, 1, 1
    factor, operator = spec[:-1], spec[-1]
    if operator == "*":
        return 1, 1, max(int(factor), 1) if factor.isdigit() else 1
    col, _, row = factor.partition(".")
    return max(int(col or 1), 1), max(int(row or 1), 1), 1


def _column_count(cols: str) -> int:
    """Columns a `cols` value gives: a number (`3`), else one per spec (`2a,1a`), a
    multiplier counting as many (`3*`, `2*,1`)."""
    cols = cols.strip()
    if not cols:
        return 0
    if cols.isdigit() and len(cols) <= 3:
        return int(cols)
    count = 0
    for spec in re.split(r"[,;]", cols):
        many = _COLUMN_SPEC.match(spec)
        count += int(many.group(1)) if many else 1
    return count


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
    if line.startswith("<"):
        item = _CALLOUT_ITEM.match(line)   # a callout list's item: its words (the numbers
        if item:                            # are left out of the code they point into)
            return _inline(item.group(1), attributes, titles)
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
    held: List[str] = []
    if "+++" in text:   # an inline passthrough: its text as typed, read by no later pattern
        text = _PASSTHROUGH.sub(lambda m: hold(held, m.group(1)), text)
    if "[" in text:
        text = _INLINE_ANCHOR.sub("", text)
        text = _macros(text)
    if ":" in text:
        text = _BARE_LINK.sub("", text)
    if "<<" in text:
        text = _CROSS_REFERENCE.sub(lambda m: (m.group(2) or (titles or {}).get(m.group(1).strip())
                                                or m.group(1)).strip(), text)
    if "{" in text:
        code = [m.span() for m in _BACKQUOTED.finditer(text)] if "`" in text else []
        text = _ATTRIBUTE_REFERENCE.sub(lambda m: _attribute(m, attributes, _within(code, m.start())
                                                             or not _apart(text, m)), text)
    if "`" in text:
        text = _BACKQUOTED.sub(r"\1", text)
    if "_" in text or "*" in text:
        text = _EMPHASIS.sub(r"\2", text)
    return put_back(text, held) if held else text


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


def _apart(text: str, match: "re.Match[str]") -> bool:
    """Whether a reference stands as a word of its own (`Neo4j {neo4j-version},`,
    `| {check-mark}`), not glued to other characters as a placeholder of another
    syntax is (`user:{PLAIN}pass`, `%%{messages}`, `neo4j:{neo4j-version}`)."""
    before = text[match.start() - 1:match.start()]
    after = text[match.end():match.end() + 1]
    return (not before or before.isspace() or before in "(\"'[") and \
        (not after or after.isspace() or after in ".,;:!?)]\"'")


def _within(spans: List[Tuple[int, int]], at: int) -> bool:
    """Whether position `at` falls inside one of the (sorted, disjoint) spans."""
    k = bisect.bisect_right(spans, (at, 1 << 62)) - 1
    return k >= 0 and spans[k][0] <= at < spans[k][1]


def _attribute(match: "re.Match[str]", attributes: Dict[str, str], as_typed: bool = False) -> str:
    """An attribute reference's value: the file's own entry or a built-in one. One
    escaped (`\\{name}`) shows as typed without its backslash. One defined nowhere in
    the file (an Antora site's `{neo4j-version}`, set in the site's `antora.yml`) shows
    its name as words (`neo4j version`), the words of what it stands for, as a DocBook
    entity defined outside the tree does; in code or glued to other characters
    (`as_typed`: a code span, a listing, `user:{PLAIN}pass`) it stays as typed, a
    placeholder, as do names that are no words (`{0}`)."""
    if match.group(1):
        return match.group(0)[1:]
    name = match.group(2)
    value = attributes[name] if name in attributes else _BUILTIN.get(name)
    if value is None:
        if as_typed or not name[:1].isalpha():
            return match.group(0)
        return " ".join(name.replace("_", " ").replace("-", " ").split())
    if isinstance(attributes, _Attributes):
        if len(value) > attributes.budget:
            return match.group(0)
        attributes.budget -= len(value)
    return value


def _macros(text: str) -> str:
    """The line with each inline macro (`xref:a.adoc#b[words]`, `kbd:[Ctrl+C]`) as the
    words it shows. A macro's text ends at its first `]` not escaped; one whose text
    holds another macro is read after it (`footnote:[see link:u[words]]`)."""
    for _ in range(3):
        out: List[str] = []
        at = 0
        nested = False
        closing = _Closing(text)
        for m in _INLINE_MACRO.finditer(text):
            if m.start() < at:
                continue
            end = closing.after(m.end())
            if end < 0:
                break
            if text.find("[", m.end(), end) >= 0 and _INLINE_MACRO.search(text, m.end(), end):
                nested = True   # read once the macro inside it is words
                continue
            out.append(text[at:m.start()])
            out.append(_macro_words(m.group(1), m.group(2), text[m.end():end].replace("\\]", "]")))
            at = end + 1
        out.append(text[at:])
        text = "".join(out)
        if not nested:
            break
    return text


class _Closing:
    """The first `]` not escaped at or after a position, found in linear time over a
    line's macros (each search starts where the last one's answer still holds)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.start = -1    # the position searched from last
        self.found = -1    # … and what was found (-1: none)

    def after(self, pos: int) -> int:
        if self.start >= 0 and pos >= self.start and (self.found < 0 or self.found >= pos):
            return self.found
        k = self.text.find("]", pos)
        while k > 0 and self.text[k - 1] == "\\":
            k = self.text.find("]", k + 1)
        self.start, self.found = pos, k
        return k


def _link_text(words: str) -> str:
    """A link's or cross reference's text: the whole of it, or, when it holds named
    attributes (`=`), its first positional one (`"a, b",role=x` → `a, b`), as
    Asciidoctor reads it; a trailing `^` (open in a new window) is no word."""
    words = words.strip()
    if "=" in words:
        if words[:1] == '"':
            close = words.find('"', 1)
            words = words[1:close] if close > 0 else words[1:]
        else:
            words = words.split(",")[0]
    return words.strip().rstrip("^").strip()


def _macro_words(kind: str, target: str, words: str) -> str:
    """What an inline macro shows: its words, else its target (`anchor:`, `indexterm:` show nothing)."""
    if kind == "linkgit":
        return f"{target}({words})" if words else target
    if kind in ("anchor", "indexterm"):
        return ""
    if kind == "footnoteref":
        return words.partition(",")[2].strip()
    if kind == "image":
        words = words.split(",")[0].strip().strip('"')
    elif kind in ("link", "xref", "mailto", "http", "https", "ftp", "irc"):
        words = _link_text(words)
        if not words:
            return f"{kind}:{target}" if kind in ("http", "https", "ftp", "irc") else target
    return words or target
