"""Logseq pages: the outliner dialect of Markdown a Logseq graph keeps.

A Logseq graph is a folder of Markdown pages (`pages/`, `journals/`), each an
outline: every block is a `- ` bullet, nested by tabs, its further lines
indented under it, its properties written `key:: value`. The Markdown reader
reads such a page well once it is turned, line for line, into the Markdown a
person sees on the page, which is what `logseq_page` does:

- page properties (the first lines, `key:: value`, or a first block of nothing
  else): `title::` is the page's title (else its file's name, decoded by
  `page_name`) and is left out; the properties Logseq hides (`id`, `collapsed`,
  `heading`, timestamps, `card-*`…) are left out; the others show as Logseq
  shows them, `alias: Todos`, `tags: …`, `description: …`, as the page's first
  lines;
- each block's bullet and indent go, so a bullet heading (`- ## Usage`) heads a
  section, a level below any heading block it sits in, and a fenced block
  opened in a bullet (`- ```calc`) is code, its lines dedented to the fence;
- block properties as page properties; a `heading:: 2` property makes its
  block a heading;
- task markers (`TODO`, `DONE`, `LATER`, `NOW`…) and priorities (`[#A]`) at a
  block's start, `SCHEDULED:`/`DEADLINE:` lines and `:LOGBOOK:` drawers go, the
  task's words stay;
- macros: `{{embed [[page]]}}` shows the page's name, `{{cloze words}}` its
  words, `{{embed ((id))}}` and a block reference `((id))` the referenced
  block's first line when the page holds it (else nothing), `[words](((id)))`
  and `[words]([[page]])` their words, every other macro (`{{query …}}`,
  `{{renderer …}}`, `{{video …}}`, a graph's own) nothing; `{:height 167,
  :width 312}` after a picture nothing;
- Org-style blocks: `#+BEGIN_SRC`/`#+BEGIN_EXAMPLE` are code, an advanced query
  (`#+BEGIN_QUERY`) shows only its `:title`, and the markers of the others
  (`NOTE`, `TIP`, `WARNING`, `QUOTE`…) go, their text stays.

Code (fenced, or in backquotes) is kept as typed. Every line of the page stays
one line of the Markdown (a line left out becomes an empty one), so passages
name the file's own lines.

The rule for a Logseq page (the reader sees one file, never the graph's
`logseq/` folder), after any YAML front matter:
(a) its first line, or the line right under it, is a property `key:: value`
    (a word, two colons, a space, a value), or
(b) it is an outline: its first line is a `- ` bullet (or a `-` alone, an empty
    block), and every line is a bullet, indented under one, or a heading
    (`## Usage`, a block at the margin).
Ordinary Markdown (a README that opens with a heading or a sentence, a list
under a heading, a paragraph at the margin) is none; a file that is only a
bulleted list is read as an outline, which drops only its bullets and task markers.
"""
from __future__ import annotations

import bisect
import re
from typing import Dict, List, Optional, Tuple
from urllib.parse import unquote

# A property: `key:: value` (the value may be empty); the key as Logseq allows it.
_PROPERTY = re.compile(r"([A-Za-z][\w.-]*)::(?=[ \t]|$)")
_BULLET = re.compile(r"([ \t]*)-(?:[ \t]|$)")
_FENCE = re.compile(r"(`{3,}|~{3,})(.*)$")
_ORG_BEGIN = re.compile(r"#\+BEGIN_(\w+)(?:[ \t]+(.*))?$", re.IGNORECASE)
_ORG_END = re.compile(r"#\+END_(\w+)[ \t]*$", re.IGNORECASE)
_DRAWER = re.compile(r":(LOGBOOK|PROPERTIES):[ \t]*$", re.IGNORECASE)
_DRAWER_END = re.compile(r":END:[ \t]*$", re.IGNORECASE)
_HEADING = re.compile(r"(#{1,6})[ \t]+(.*)$")
_MARKER = re.compile(r"(?:TODO|DOING|DONE|LATER|NOW|WAIT|WAITING|CANCELED|CANCELLED|IN-PROGRESS|STARTED)"
                     r"(?:[ \t]+|$)")
_PRIORITY = re.compile(r"(?<!\S)\[#[A-C]\](?:[ \t]+|$)")
_PLANNING = re.compile(r"(?:SCHEDULED|DEADLINE):[ \t]*<[^<>\n]*>[ \t]*$")
_UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
_BLOCK_REF = re.compile(r"\(\((" + _UUID + r")\)\)")
_LABELLED_BLOCK_REF = re.compile(r"\[([^\[\]\n]*)\]\(\(\((" + _UUID + r")\)\)\)")
_LABELLED_PAGE_REF = re.compile(r"\[([^\[\]\n]*)\]\(\[\[[^\[\]\n]*\]\]\)")
# A macro: `{{embed [[page]]}}`, `{{query (todo now)}}`, `{{renderer :x}}`, `{{cloze words}}`
# (each scan from `{{` stops at the next brace: linear in a line of openers).
_MACRO = re.compile(r"\{\{(\{)?([A-Za-z][\w-]*)((?:[ \t][^{}]*)?)\}\}(?(1)\})")
_PAGE_ARGUMENT = re.compile(r"[ \t]*\[\[([^\[\]\n]*)\]\][ \t]*$")
_REF_ARGUMENT = re.compile(r"[ \t]*\(\((" + _UUID + r")\)\)[ \t]*$")
# A picture's size, as Logseq writes it after the image: `![x](a.png){:height 167, :width 312}`.
_IMAGE_SIZE = re.compile(r"(?<=\))\{:[\w-]+[ \t][^{}\n]*\}")
_QUERY_TITLE = re.compile(r":title[ \t]+(?:\[:[\w.#-]+[ \t]+)?\"((?:[^\"\\]|\\.)*)\"")
_TICKS = re.compile(r"`+")
_RULE = re.compile(r"([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_UNDERLINE = re.compile(r"(?:=+|-+)[ \t]*$")
# The first line that holds more than spaces.
_FIRST_LINE = re.compile(r"(?:[ \t]*\n)*([^\n]*)")

# Properties Logseq never shows on a page (its hidden built-in ones, the spaced
# repetition records of a card, the timestamps of a task's markers).
HIDDEN_PROPERTIES = frozenset({
    "id", "custom-id", "collapsed", "heading", "background-color", "background_color",
    "created-at", "updated-at", "last-modified-at", "created_at", "updated_at", "last_modified_at",
    "query-table", "query-properties", "query-sort-by", "query-sort-desc",
    "ls-type", "hl-type", "hl-page", "hl-stamp", "hl-color",
    "logseq.macro-name", "logseq.macro-arguments", "logseq.order-list-type", "logseq.tldraw.page",
    "logseq.tldraw.shape", "logseq.color", "filters", "public", "exclude-from-graph-view", "icon",
    "template-including-parent", "card-last-interval", "card-repeats", "card-ease-factor",
    "card-next-schedule", "card-last-reviewed", "card-last-score",
    "todo", "doing", "done", "later", "now", "wait", "waiting", "canceled", "cancelled",
    "in-progress", "started",
})
# Org-style blocks whose body is code, as typed.
_CODE_BLOCKS = frozenset({"src", "example"})


def page_name(stem: str) -> str:
    """A page's name from its file's name, as Logseq decodes it: `___` is `/` (a
    namespace, `term___alias` is the page `term/alias`), and percent-encoding reads
    as its characters (`New to Logseq%3F` is `New to Logseq?`, `Logseq%2FFeatures`
    `Logseq/Features`). The dot of the oldest graphs (`Logseq.Features`) stays: a
    file name holds dots of its own (`custom.css`), and such graphs add a `title::`."""
    name = stem.replace("___", "/")
    if "%" in name:
        name = unquote(name, errors="strict") if _valid_percent(name) else name
    return name


def _valid_percent(name: str) -> bool:
    try:
        unquote(name, errors="strict")
    except UnicodeDecodeError:
        return False
    return True


def _columns(indent: str) -> int:
    return len(indent.expandtabs(4))


def _dedent(line: str, columns: int) -> str:
    """The line with up to `columns` columns of its indent taken off."""
    indent = line[:len(line) - len(line.lstrip(" \t"))]
    return " " * max(0, _columns(indent) - columns) + line[len(indent):]


def _property(content: str) -> Optional[Tuple[str, str]]:
    match = _PROPERTY.match(content)
    if match is None:
        return None
    return match.group(1), content[match.end():].strip()


def looks_like_logseq(text: str) -> bool:
    """Whether a Markdown text (after any front matter) is a Logseq page: see the
    module's docstring."""
    first = _FIRST_LINE.match(text)
    line = first.group(1)
    if line[:1] not in " \t-":
        prop = _property(line)
        if prop is None and first.end() < len(text):   # … or the line under it (the
            under = text[first.end() + 1:text.find("\n", first.end() + 1) % (len(text) + 1)]
            prop = _property(under.lstrip(" \t"))   # `id::` of a block at the margin)
        return prop is not None and bool(prop[1])
    if not line.startswith("- ") and line.rstrip() != "-":
        return False
    for line in text.split("\n"):
        if not (line[:1] in " \t" or not line or _BULLET.match(line)
                or line[:1] == "#" and _HEADING.match(line)):
            return False
    return True


def logseq_page(text: str) -> Optional[Tuple[Optional[str], str]]:
    """(title, Markdown) of a Logseq page, None for any other Markdown text. The
    title is the page's `title::` (None when it has none: the file's name is, by
    `page_name`); the Markdown has the page's lines, one for one."""
    start = 0
    if text.startswith("---\n"):   # YAML front matter: left for the Markdown reader
        end = text.find("\n---\n", 3)
        if end < 0:
            return None
        start = end + 5
    if not looks_like_logseq(text[start:]):
        return None
    title, body = _to_markdown(text[start:].split("\n"))
    return title, text[:start] + "\n".join(body)


def _to_markdown(lines: List[str]) -> Tuple[Optional[str], List[str]]:
    """The page's title property and its lines as Markdown (see the module's docstring)."""
    out: List[str] = []
    text_lines: List[int] = []          # the lines whose markup is cleaned at the end
    title: Optional[str] = None
    zone = True                         # still in the page's properties
    zone_bullet = False                 # … which a first bullet opened
    zone_lines = 0                      # … the property lines read so far
    fence: Optional[Tuple[str, int, int]] = None   # (character, length, columns to dedent)
    org: Optional[Tuple[str, int]] = None          # an Org-style block: (kind, columns)
    query: List[int] = []               # the lines of an advanced query
    drawer = False
    block_line = -1                     # where the current block starts (its first line)
    block_heading = False
    headings: List[Tuple[int, int]] = []   # (bullet columns, level) of the heading blocks open
    block_of: Dict[str, int] = {}       # a block's id: its first line

    for number, line in enumerate(lines):
        if fence is not None:
            dedented = _dedent(line, fence[2])
            close = _FENCE.match(dedented.lstrip(" \t"))
            if close and close.group(1)[0] == fence[0] and len(close.group(1)) >= fence[1] \
                    and not close.group(2).strip():
                fence = None
                out.append(dedented.lstrip(" \t"))
            else:
                out.append(dedented)
            continue
        if org is not None and org[0] in _CODE_BLOCKS:
            if _ORG_END.match(line.lstrip(" \t")):
                org = None
                out.append("```")
            else:
                out.append(_dedent(line, org[1]))
            continue
        if org is not None and org[0] == "query":
            if _ORG_END.match(line.lstrip(" \t")):
                org = None
                found = _QUERY_TITLE.search("\n".join(lines[k] for k in query))
                out.append("")
                if found:   # the query's title is shown over its results
                    at = query[0] if query else number
                    out[at] = found.group(1).replace('\\"', '"')
                    text_lines.append(at)
                del query[:]
            else:
                query.append(number)
                out.append("")
            continue
        if drawer:
            drawer = not _DRAWER_END.match(line.lstrip(" \t"))
            out.append("")
            continue
        if not line.strip():
            out.append("")
            continue
        bullet = _BULLET.match(line)
        first = bullet is not None or line[:1] not in " \t"   # a block's first line
        content = line[bullet.end():] if bullet else line.lstrip(" \t")
        columns = _columns(bullet.group(1)) if bullet else _columns(line[:len(line) - len(content)])
        if zone:
            prop = _property(content)
            # A bullet opens the page's properties only as the page's first line; after
            # them a bullet, or after such a bullet a line at the margin, starts a block.
            if prop is None or bullet is not None and zone_lines \
                    or bullet is None and zone_bullet and line[:1] not in " \t":
                zone = False
            else:
                zone_lines += 1
                zone_bullet = zone_bullet or bullet is not None
                key, value = prop[0].lower(), prop[1]
                if key == "title" and value:
                    title = value
                    out.append("")
                elif key in HIDDEN_PROPERTIES or not value:
                    out.append("")
                else:
                    out.append(f"{prop[0]}: {value}")
                    text_lines.append(number)
                continue
        if first:
            block_line, block_heading = number, False
            while headings and headings[-1][0] >= columns:
                headings.pop()
        opening = _FENCE.match(content) if content[:1] in "`~" else None
        if opening and not (opening.group(1)[0] == "`" and "`" in opening.group(2)):
            fence = (opening.group(1)[0], len(opening.group(1)), _columns(line[:len(line) - len(content)]))
            out.append(content)
            continue
        begin = _ORG_BEGIN.match(content) if content[:2] == "#+" else None
        if begin:
            kind = begin.group(1).lower()
            indent = _columns(line[:len(line) - len(content)])
            if kind in _CODE_BLOCKS:
                org = (kind, indent)
                language = (begin.group(2) or "").split()
                out.append("```" + (language[0] if kind == "src" and language else ""))
            elif kind == "query":
                org = (kind, indent)
                out.append("")
            else:
                out.append("")   # a note, a tip, a quote…: its text is shown, the marker not
            continue
        if content[:2] == "#+" and _ORG_END.match(content):
            out.append("")
            continue
        if content[:1] == ":" and _DRAWER.match(content):
            drawer = True
            out.append("")
            continue
        prop = _property(content)
        if prop is not None:
            key, value = prop[0].lower(), prop[1]
            if key == "id" and value:
                block_of.setdefault(value.lower(), block_line)
            if key == "heading" and block_line >= 0 and not block_heading and not first:
                level = int(value) if value.isdigit() and 1 <= int(value) <= 6 else 2
                _make_heading(out, block_line, level, headings, columns)
                block_heading = True
            if key in HIDDEN_PROPERTIES or not value:
                out.append("")
            else:
                out.append(f"{prop[0]}: {value}")
                text_lines.append(number)
            continue
        if content[:1] in "SD" and _PLANNING.match(content):
            out.append("")
            continue
        if first:
            marker = _MARKER.match(content)
            if marker:
                content = content[marker.end():]
            if content[:2] == "[#":
                content = _PRIORITY.sub("", content, count=1)
            heading = _HEADING.match(content)
            if heading:
                level = len(heading.group(1))
                if headings:
                    level = max(level, min(6, headings[-1][1] + 1))
                headings.append((columns, level))
                block_heading = True
                content = "#" * level + " " + heading.group(2)
            if not content.strip():
                out.append("")
                continue
        elif content[:1] == "#" and _HEADING.match(content):
            content = "\\" + content   # a `# ` line within a block is its text, no heading
        if content[:1] in "-=*_" and _RULE.match(content):
            out.append("")   # a rule (`- ---`): no words, and no underline of the line above
            continue
        if content[:1] in "-=" and _UNDERLINE.match(content):
            content = "\\" + content   # `==` under a block's line is its text, no heading
        out.append(content)
        text_lines.append(number)

    shown: Dict[str, str] = {}
    for key, line in block_of.items():
        words = _first_line_words(out[line])
        if words:
            shown[key] = words
    for number in text_lines:
        out[number] = _inline(out[number], shown)
    return title, out


def _make_heading(out: List[str], line: int, level: int, headings: List[Tuple[int, int]],
                  columns: int) -> None:
    """Make the block that starts at `line` a heading (its `heading::` property)."""
    text = out[line]
    if not text.strip() or _HEADING.match(text):
        return
    if headings:
        level = max(level, min(6, headings[-1][1] + 1))
    out[line] = "#" * level + " " + text


def _first_line_words(line: str) -> str:
    """A referenced block's line as the reference shows it (no heading marks, no refs)."""
    heading = _HEADING.match(line)
    if heading:
        line = heading.group(2)
    return _inline(line, {}).strip()


def _inline(line: str, shown: Dict[str, str]) -> str:
    """A line without Logseq's own markup (macros, block references, picture sizes);
    code spans are kept as typed."""
    if not ("{{" in line or "((" in line or "](" in line or "{:" in line):
        return line
    pieces = _code_split(line)
    return "".join(piece if k % 2 else _clean(piece, shown) for k, piece in enumerate(pieces))


def _clean(text: str, shown: Dict[str, str]) -> str:
    if "](" in text:
        text = _LABELLED_BLOCK_REF.sub(r"\1", text)
        text = _LABELLED_PAGE_REF.sub(r"\1", text)
    if "{{" in text:
        text = _MACRO.sub(lambda m: _macro_words(m, shown), text)
    if "((" in text:
        text = _BLOCK_REF.sub(lambda m: shown.get(m.group(1).lower(), ""), text)
    if "{:" in text:
        text = _IMAGE_SIZE.sub("", text)
    return text


def _macro_words(match: "re.Match[str]", shown: Dict[str, str]) -> str:
    """What a page shows for a macro: an embedded page's name, an embedded block's
    line (when the page holds it), a cloze's words; else nothing."""
    name, argument = match.group(2).lower(), match.group(3)
    if name == "embed":
        page = _PAGE_ARGUMENT.match(argument)
        if page:
            return page.group(1).strip()
        block = _REF_ARGUMENT.match(argument)
        return shown.get(block.group(1).lower(), "") if block else ""
    if name == "cloze":
        return argument.strip()
    return ""


def _code_split(line: str) -> List[str]:
    """The line cut into text and code spans, alternately (a code span: a run of
    backquotes, up to the next run of as many)."""
    runs = [(m.start(), m.end()) for m in _TICKS.finditer(line)]
    if len(runs) < 2:
        return [line]
    by_length: Dict[int, List[int]] = {}
    for k, (start, end) in enumerate(runs):
        by_length.setdefault(end - start, []).append(k)
    pieces: List[str] = []
    at, k = 0, 0
    while k < len(runs):
        start, end = runs[k]
        same = by_length[end - start]
        nxt = bisect.bisect_right(same, k)
        if nxt >= len(same):
            k += 1   # no closer: the backquotes are text
            continue
        close = same[nxt]
        pieces.append(line[at:start])
        pieces.append(line[start:runs[close][1]])
        at = runs[close][1]
        k = close + 1
    pieces.append(line[at:])
    return pieces
