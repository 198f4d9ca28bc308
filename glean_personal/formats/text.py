"""Plain text and Markdown.

Markdown is read as text with structure: ATX and setext headings start
sections, fenced code is kept as text but never mistaken for headings, and
front matter supplies the title without becoming body text. Nothing is
rendered, but markup a reader never sees is left out, line for line: link
targets (`[words](url)` reads as `words`), link reference definitions, HTML
tags and comments, MyST roles (`{ref}`words <target>``), targets
(`(label)=`), directive options and tables of contents, MkDocs admonition
markers. Code (fenced or in backquotes) is kept exactly as typed.
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
# Lines a reader never sees: link reference definitions (not footnotes),
# MyST targets `(label)=`, and the include and template statements of MkDocs
# plugins on a line of their own: `{* ../src/app.py hl[3] *}` (FastAPI's code
# includes), `{!file.md!}` (markdown-include), `{% include "x.md" %}`, mdBook's
# `{{#include file.rs:2:10}}` and `{{#playground example.rs}}`, PyMdown's `--8<-- "x.md"`.
_INCLUDE = (r"\{([*!%])[^{}]*\1\}|\{\{#\w+[^{}]*\}\}"
            r"|--8<--[ \t]+(?:\"[^\"]+\"|'[^']+'|\S+)")   # PyMdown snippets: --8<-- "file.md"
_HIDDEN_LINE = re.compile(r"(?: {0,3}(?:\[(?!\^)[^\]]+\]:[ \t]*<?\S+>?(?:[ \t]+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?"
                          r"|\([^)\s][^)]*\)=)|" + r"[ \t]*(?:" + _INCLUDE + r"))[ \t]*$")
# A fenced code line that only includes a file: the page shows the file, not this line.
_INCLUDE_LINE = re.compile(r"[ \t]*(?:" + _INCLUDE + r")[ \t]*$")
# MkDocs / Python-Markdown admonition `!!! note "Title"` (collapsible: `???`, `???+`)
# and content tab `=== "Title"`: the title is shown, the marker is not.
# PyMdown Extensions blocks `/// note | Title` … `///` (also `/// details`, `/// tab`)
# likewise: the title is shown, the fence lines are not.
_ADMONITION = re.compile(r"^ {0,3}(?:(?:!!!|\?\?\?\+?)[ \t]+[\w-]+(?:[ \t]+[\w-]+)*(?:[ \t]+\"(.*)\")?"
                         r"|===\+?[ \t]+\"(.*)\""
                         r"|/{3,}(?:[ \t]+[\w-]+(?:[ \t]*\|[ \t]*(.*?))?)?)[ \t]*$")
# A heading's attribute list (`## Setup {#setup .wide}`), never shown.
_HEADING_ATTRS = re.compile(r"[ \t]*\{[ \t]*[#.][^{}]*\}[ \t]*$")
# MyST colon fence `:::{note}` … `:::`: a container whose body is Markdown.
# Docusaurus admonitions use the same fence with a bare name: `:::tip`,
# `:::tip Title`, `:::tip[Title]`, `:::danger{title="Title"}`.
_COLON_FENCE = re.compile(r"^ {0,3}(:{3,})[ \t]*((?:\{[\w:.-]+\}.*|[A-Za-z][\w-]*.*)?)$")
_ADMONITION_TITLE = re.compile(r"^[A-Za-z][\w-]*[ \t]*(?:\[(.*)\]|\{[ \t]*title=[\"'](.*)[\"'][ \t]*\}|(.*?))[ \t]*$")
# A MyST directive fence's info string: ```{name} argument
_DIRECTIVE = re.compile(r"\{([\w:.-]+)\}[ \t]*(.*)$")
# Directives whose body is not text a reader sees (lists of pages, file paths).
_HIDDEN_DIRECTIVES = frozenset({"toctree", "contents", "include", "literalinclude", "image",
                                "raw", "tableofcontents", "autosummary"})
# Longer lines (minified or generated text) are kept as typed: the inline
# patterns could cost time quadratic in a line's length.
LONGEST_INLINE = 20_000
_DIRECTIVE_OPTION = re.compile(r"^[ \t]*:[\w-]+:(?:[ \t].*)?$")
_HEADING_TAG = re.compile(r"^[ \t]*<h([1-6])\b[^>]*>(.*?)</h\1>[ \t]*$", re.IGNORECASE)
# A MyST role (its words are shown) or a code span (kept as typed), whichever comes first.
_ROLE_OR_CODE = re.compile(r"\{[\w:.+-]+\}`([^`]*)`|(`+)(?:.*?[^`])?\2(?!`)")
_IMAGE = re.compile(r"!\[([^\]]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:[ \t]+(?:\"[^\"]*\"|'[^']*'))?[ \t]*\)")
_LINK = re.compile(r"\[((?:[^\[\]]|\[[^\[\]]*\])+)\](?:\((?:[^()\s]|\([^()\s]*\))*(?:[ \t]+(?:\"[^\"]*\"|'[^']*'))?[ \t]*\)"
                   r"|\[[^\]]*\])")
_HTML_COMMENT = re.compile(r"<!--.*?-->|\{/\*.*?\*/\}")   # and MDX's {/* comments */}
# MDX (Docusaurus, Mintlify…): component tags `<Tabs>`, `<TabItem value="mac" label="macOS">`
# (a `label` or `title` is shown as a tab's or a card's name), ES module lines.
_JSX_TAG = re.compile(r"</?[A-Z][\w.]*(?:\s(?:[^<>\"'{}]|\"[^\"]*\"|'[^']*'|\{[^{}]*\})*)?/?>")
_JSX_LABEL = re.compile(r"\s(?:label|title)=(?:\"([^\"]*)\"|'([^']*)')")
_JSX_OPEN = re.compile(r"^[ \t]*<[A-Z][\w.]*(?:[ \t][^<>]*)?$")
_ESM_LINE = re.compile(r"^(?:import[ \t]+(?:[\w{}*,$ \t]+[ \t]+from[ \t]+)?[\"'][^\"']+[\"']"
                       r"|export[ \t]+(?:default|const|let|var|function|async)\b.*?);?[ \t]*$")
# An abbreviation or a definition with its explanation in a tooltip, as
# FastAPI's pages write them: `<abbr title="Object Relational Mapper">ORM</abbr>`.
_TOOLTIP = re.compile(r"<(abbr|dfn)[ \t]+title=(?:\"([^\"<>]*)\"|'([^'<>]*)')[ \t]*>([^<>]*)</\1>", re.IGNORECASE)
_HTML_TAG = re.compile(
    r"</?(?:a|abbr|article|aside|b|big|blockquote|br|button|center|cite|code|dd|del|details|dfn|"
    r"div|dl|dt|em|figcaption|figure|font|footer|h[1-6]|header|hr|i|iframe|img|ins|kbd|li|main|"
    r"mark|nav|ol|p|picture|pre|q|s|samp|section|small|source|span|strong|sub|summary|sup|"
    r"table|tbody|td|tfoot|th|thead|time|tr|tt|u|ul|var|video)(?:\s(?:[^<>\"']|\"[^\"]*\"|'[^']*')*)?/?>",
    re.IGNORECASE)
_FENCE_LEADS = frozenset("`~:")
_HIDDEN_LEADS = frozenset("[({-")
_ADMONITION_LEADS = frozenset("!?=/")
_RULE_LEADS = frozenset("=-*_")
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


# Directives whose body is prose (Markdown): their argument is a visible title.
_PROSE_DIRECTIVES = frozenset({"note", "warning", "tip", "hint", "important", "caution", "danger",
                               "attention", "error", "seealso", "admonition", "versionadded",
                               "versionchanged", "deprecated", "dropdown", "topic", "sidebar",
                               "margin", "tab-item", "tab", "card", "div", "rubric", "glossary"})


def _walk_markdown(body: str, builder: SectionBuilder, first_line: int) -> Optional[str]:
    """Feed headings and paragraphs to the builder; return the first H1's text.

    `first_line` is the file line `body` starts on (after any front matter).
    A line whose markup hides everything (a link definition, an HTML tag on
    its own, a MyST target) ends the paragraph like a blank line would.
    """
    first_h1: Optional[str] = None
    para: List[str] = []
    para_line = first_line
    fence: Optional[Tuple[str, int]] = None   # (fence character, length) while in code
    hidden = False                            # in a fence whose body is not shown
    containers: List[Tuple[str, int]] = []    # open MyST prose directives (fence, length)
    options = False                           # at a directive's start: `:key: value` lines
    in_comment = False                        # inside a multi-line HTML comment
    jsx = False                               # inside an MDX component tag spanning lines
    refs = frozenset(" ".join(label.lower().split()) for label in _REF_DEFINITION.findall(body))

    def flush() -> None:
        if para:
            builder.paragraph("\n".join(para), para_line)
            del para[:]

    def heading(level: int, text: str) -> None:
        nonlocal first_h1
        flush()
        text = " ".join(text.split())
        builder.heading(level, text)
        if level == 1 and first_h1 is None and text:
            first_h1 = text

    for number, line in enumerate(body.split("\n"), first_line):
        if not para:
            para_line = number
        if builder.full:
            break
        if in_comment:
            end = line.find("-->")
            if end < 0:
                flush()
                continue
            in_comment = False
            line = " " * (end + 3) + line[end + 3:]
        lead = line.lstrip(" \t")[:1]   # most checks need a particular first character
        if fence is not None:
            close = _FENCE.match(line) if lead in _FENCE_LEADS else None
            if close and close.group(1)[0] == fence[0] and len(close.group(1)) >= fence[1] \
                    and not close.group(2).strip():
                fence, hidden, options = None, False, False
                flush()
            elif not hidden and not (options and _DIRECTIVE_OPTION.match(line)):
                options = False
                if lead in "{-" and _INCLUDE_LINE.match(line):
                    if para:
                        para.append("")   # the line keeps its place, without its words
                    continue
                para.append(line)
            continue
        opening = (_FENCE.match(line) or _COLON_FENCE.match(line)) if lead in _FENCE_LEADS else None
        if opening and not (opening.group(1)[0] == "`" and "`" in opening.group(2)):
            flush()
            marker, info = opening.group(1), opening.group(2)
            if containers and marker[0] == containers[-1][0] and len(marker) >= containers[-1][1] \
                    and not line.strip().strip(marker[0]).strip():
                containers.pop()   # the end of a prose directive
                continue
            directive = _DIRECTIVE.search(info) if "{" in info else None
            name = directive.group(1).lower() if directive else ""
            if marker[0] == ":" and not directive:
                if info.strip():   # a Docusaurus admonition: its title is shown, its body is Markdown
                    containers.append((marker[0], len(marker)))
                    named = _ADMONITION_TITLE.match(info.strip())
                    title = next((g for g in named.groups() if g), "") if named else ""
                    if title.strip():
                        builder.paragraph(_inline(title).strip(), number)
                continue   # a stray `:::` otherwise
            options = bool(directive)
            if name in _PROSE_DIRECTIVES or marker[0] == ":" and name not in _HIDDEN_DIRECTIVES:
                containers.append((marker[0], len(marker)))
                argument = _inline(directive.group(2)).strip() if directive else ""
                if argument:
                    builder.paragraph(argument, number)
                continue
            fence = (marker[0], len(marker))
            hidden = name in _HIDDEN_DIRECTIVES
            continue
        if options:
            if lead == ":" and _DIRECTIVE_OPTION.match(line):
                continue
            options = False
        tag = _HEADING_TAG.match(line) if lead == "<" else None
        if tag:
            heading(int(tag.group(1)), _inline(tag.group(2)))
            continue
        atx = _ATX.match(line) if lead == "#" else None
        if atx:
            heading(len(atx.group(1)), _inline(_HEADING_ATTRS.sub("", (atx.group(2) or "").strip())))
            continue
        if lead in _HIDDEN_LEADS and _HIDDEN_LINE.match(line):
            flush()
            continue
        if jsx:   # inside a component's opening tag that spans lines: its props are code
            jsx = not line.rstrip().endswith(">")
            flush()
            continue
        if lead in "ie" and _ESM_LINE.match(line):
            flush()
            continue
        if lead == "<" and _JSX_OPEN.match(line):
            jsx = True
            flush()
            continue
        admonition = _ADMONITION.match(line) if lead in _ADMONITION_LEADS else None
        if admonition:
            flush()
            title = admonition.group(1) or admonition.group(2) or admonition.group(3)
            if title:
                builder.paragraph(_inline(title), number)
            continue
        if "<!--" in line:
            start = line.index("<!--")
            if "-->" not in line[start:]:
                in_comment = True
                line = line[:start]
        shown = _inline(line, refs) if line.strip() else line
        setext = _SETEXT.match(line) if lead in _RULE_LEADS else None
        if setext and para and not _NOT_PARAGRAPH.match(para[0]):
            text = " ".join(part.strip() for part in para)
            del para[:]
            heading(1 if setext.group(1)[0] == "=" else 2, text)
            continue
        if not shown.strip() or lead in _RULE_LEADS and _THEMATIC_BREAK.match(line):
            flush()
            continue
        para.append(shown.rstrip())
    flush()
    return first_h1


_REF_DEFINITION = re.compile(r"^ {0,3}\[(?!\^)([^\]]+)\]:", re.MULTILINE)
_SHORTCUT_LINK = re.compile(r"\[([^\]\[]+)\](?![(\[:])")


def _inline(line: str, refs: frozenset = frozenset()) -> str:
    """A line without the markup a reader never sees; code spans are kept as typed.

    `refs` are the labels of the document's link reference definitions, so a
    shortcut link `[words]` reads as its words while other brackets stay.
    """
    if len(line) > LONGEST_INLINE or not ("[" in line or "<" in line or "{" in line):
        return line
    spans: List[str] = []
    if "`" in line:
        def keep(match: "re.Match[str]") -> str:
            spans.append(match.group(0) if match.group(2) else role_words(match.group(1)))
            return f"\x00{len(spans) - 1}\x00"
        line = _ROLE_OR_CODE.sub(keep, line)
    if "<" in line or "{/*" in line:
        line = _TOOLTIP.sub(_tooltip_words, line)
        line = _HTML_TAG.sub("", _HTML_COMMENT.sub("", line))
        if "<" in line:
            line = _JSX_TAG.sub(_jsx_words, line)
    if "[" in line:
        line = _LINK.sub(r"\1", _IMAGE.sub(r"\1", line))
        if refs and "[" in line:
            line = _SHORTCUT_LINK.sub(
                lambda m: m.group(1) if " ".join(m.group(1).lower().split()) in refs else m.group(0), line)
    if spans:
        line = re.sub("\x00(\\d+)\x00", lambda m: spans[int(m.group(1))], line)
    return line


def _jsx_words(match: "re.Match[str]") -> str:
    """An MDX component tag shows nothing but its `label` or `title` (a tab's name)."""
    label = _JSX_LABEL.search(match.group(0))
    return f" {label.group(1) or label.group(2)} " if label and (label.group(1) or label.group(2)) else ""


def _tooltip_words(match: "re.Match[str]") -> str:
    """`ORM (Object Relational Mapper)`: the words, then the tooltip a reader sees on hover."""
    words, tip = match.group(4), (match.group(2) or match.group(3) or "").strip()
    return f"{words} ({tip})" if tip and tip.lower() != words.strip().lower() else words


_ROLE_TARGET = re.compile(r"^(.*?)\s*<[^<>]*>$", re.DOTALL)


def role_words(content: str) -> str:
    """What a role shows: `words <target>` → words; `~a.b` and `!a` → a.b, a."""
    match = _ROLE_TARGET.match(content)
    if match and match.group(1).strip():
        return match.group(1).strip()
    return content.lstrip("~!.")   # Sphinx shows `.Flask.route` (a search for a suffix) as Flask.route
