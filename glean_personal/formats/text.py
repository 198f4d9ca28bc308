"""Plain text and Markdown.

Markdown is read as text with structure: ATX and setext headings start
sections, fenced code is kept as text but never mistaken for headings, and
front matter supplies the title without becoming body text. Nothing is
rendered, but markup a reader never sees is left out, line for line: link
targets (`[words](url)` reads as `words`), link reference definitions, HTML
tags and comments, MyST roles (`{ref}`words <target>``), targets
(`(label)=`), directive options and tables of contents, MkDocs admonition
markers, `<script>` and `<style>` blocks, lines of template actions; escapes
and entity references read as their characters. Code (fenced or in
backquotes) is kept exactly as typed.
"""
from __future__ import annotations

import bisect
import html
import re
import unicodedata
from collections import deque
from typing import Deque, Dict, List, Optional, Sequence, Tuple

from ..config import Limits
from ..document import Document, Section
from .encoding import decode_text, normalise_newlines
from .logseq import logseq_page
from .sections import SectionBuilder

_BLANK_SPLIT = re.compile(r"\n[ \t\f\v]*\n")
# An ATX heading's opening; its text is cut from the rest by `_atx_text` (a lazy
# group before the optional closing `#`s costs time quadratic in the spaces).
_ATX = re.compile(r" {0,3}(#{1,6})(?![^ \t])")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_THEMATIC_BREAK = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_DEEP_RULE = re.compile(r"^[ \t]+([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
# … or deeper, in a list item (`*   Create a directory:` over `    ```` and the commands),
# closed by a fence at most three columns right of its own. An indented code block
# that shows a fence is code either way.
_INDENTED_FENCE = re.compile(r"^([ \t]*)(`{3,}|~{3,})(.*)$")
_DEEP_FENCE = re.compile(r"^[ \t]+(`{3,}|~{3,})(.*)$")
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
# and content tab `=== "Title"`: the title is shown, the marker is not; also indented,
# as one nests inside another's body or a list item.
# PyMdown Extensions blocks `/// note | Title` … `///` (also `/// details`, `/// tab`)
# likewise: the title is shown, the fence lines are not.
_ADMONITION = re.compile(r"^(?:[ \t]*(?:!!!|\?\?\?\+?)[ \t]+[\w-]+(?:[ \t]+[\w-]+)*(?:[ \t]+\"(.*)\")?"
                         r"|[ \t]*===\+?[ \t]+\"(.*)\""
                         r"| {0,3}/{3,}(?:[ \t]+[\w-]+(?:[ \t]*\|[ \t]*((?:.*[^ \t])?))?)?)[ \t]*$")
# MyST colon fence `:::{note}` … `:::`: a container whose body is Markdown.
# Docusaurus admonitions use the same fence with a bare name: `:::tip`,
# `:::tip Title`, `:::tip[Title]`, `:::danger{title="Title"}`.
_COLON_FENCE = re.compile(r"^ {0,3}(:{3,})[ \t]*((?:\{[\w:.-]+\}.*|[A-Za-z][\w-]*.*)?)$")
_ADMONITION_TITLE = re.compile(r"^[A-Za-z][\w-]*[ \t]*(?:\[(.*)\]|\{[ \t]*title=[\"'](.*)[\"'][ \t]*\}"
                               r"|((?:.*[^ \t])?))[ \t]*$")
# A MyST directive fence's info string: ```{name} argument
_DIRECTIVE = re.compile(r"\{([\w:.-]+)\}[ \t]*(.*)$")
# Directives whose body is not text a reader sees (lists of pages, file paths).
_HIDDEN_DIRECTIVES = frozenset({"toctree", "contents", "include", "literalinclude", "image",
                                "raw", "tableofcontents", "autosummary"})
# Longer lines (minified or generated text) are kept as typed. Every inline
# pattern is linear in a line's length (a hostile line is the same work as
# prose: tests/test_security_readers.py), so this only spares the work of
# cleaning text that no person wrote.
LONGEST_INLINE = 20_000
_DIRECTIVE_OPTION = re.compile(r"^[ \t]*:[\w-]+:(?:[ \t].*)?$")
_HEADING_TAG = re.compile(r"^[ \t]*<h([1-6])\b[^>]*>(.*?)</h\1>[ \t]*$", re.IGNORECASE)
# A MyST role: its words are shown (code spans, kept as typed, are found by `_code_and_roles`).
_ROLE = re.compile(r"\{[\w:.+-]+\}`([^`]*)`")
_ROLE_OR_TICK = re.compile(r"\{[\w:.+-]+\}`|`")
_TICKS = re.compile(r"`+")
# An image; if it is none, the last alternative takes the text up to the next `]`
# whole: every `![` before that `]` would find the same `]` and fail the same way,
# and trying each of them is time quadratic in a run of `![` (kept as typed).
_IMAGE = re.compile(r"!\[([^\]]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:[ \t]+(?:\"[^\"]*\"|'[^']*'))?[ \t]*\)"
                    r"|!\[[^\]]*")
_LINK = re.compile(r"\[((?:[^\[\]]|\[[^\[\]]*\])+)\](?:\((?:[^()\s]|\([^()\s]*\))*(?:[ \t]+(?:\"[^\"]*\"|'[^']*'))?[ \t]*\)"
                   r"|\[[^\]]*\])")
# HTML comments and MDX's {/* comments */} are removed by `_without_comments`.
# MDX (Docusaurus, Mintlify…): component tags `<Tabs>`, `<TabItem value="mac" label="macOS">`
# (a `label` or `title` is shown as a tab's or a card's name), ES module lines.
_JSX_TAG = re.compile(r"</?[A-Z][\w.]*(?:\s(?:[^<>\"'{}]|\"[^\"]*\"|'[^']*'|\{[^{}]*\})*)?/?>")
_JSX_LABEL = re.compile(r"\s(?:label|title)=(?:\"([^\"]*)\"|'([^']*)')")
_JSX_OPEN = re.compile(r"^[ \t]*<[A-Z][\w.]*(?:[ \t][^<>]*)?$")
# An ES module line: `import … from "x";`, `import "x"`, `export const …`. Tested by
# `_esm_line`: as one pattern (`import[ \t]+(?:[\w{}*,$ \t]+[ \t]+from[ \t]+)?["'][^"']+["']`)
# the spaces could be split between its parts in cubic time (4,000 spaces: 24 CPU s).
_ESM_EXPORT = re.compile(r"export[ \t]+(?:default|const|let|var|function|async)\b")
_ESM_NAMES = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_{}*,$ \t")
# An abbreviation or a definition with its explanation in a tooltip, as
# FastAPI's pages write them: `<abbr title="Object Relational Mapper">ORM</abbr>`.
# Hugo shortcodes `{{< name args >}}`, `{{< /name >}}`, `{{% include "x.md" %}}`,
# `{{< new-in 0.139.0 />}}`: the page shows what they render, never the tag. A
# tag's `text`, `title`, `label`, `header`, `caption` or `alt` argument is shown
# (`{{< glossary_tooltip text="Pod" term_id="pod" >}}` reads `Pod`). Each scan from
# an opener stops at the next brace, so a line of openers without closers stays linear.
_SHORTCODE = re.compile(r"\{\{([<%])((?:[^{}<>%]|[<>%](?!\}\})|\{[^{}]*\})*)[<>%]\}\}")
# Hugo's way to show a shortcode as typed, in code or not: `{{</* figure src="a.jpg" */>}}`
# and `{{%/* include "x.md" */%}}` render as `{{< figure src="a.jpg" >}}`, `{{% include
# "x.md" %}}`. A scan stops at the next `{{`, so a line of openers stays linear.
_ESCAPED_SHORTCODE = re.compile(r"\{\{([<%])/\*((?:[^*{\n]|\*(?!/[>%]\}\})|\{(?!\{))*)\*/([>%])\}\}")
_SHORTCODE_WORDS = re.compile(r"(?<![\w-])(?:text|title|label|header|caption|alt)[ \t]*=[ \t]*"
                              r"(?:\"([^\"]*)\"|'([^']*)'|`([^`]*)`)")
# A shortcode tag whose arguments run over lines (`{{< img` … `>}}`): hidden to its end.
_SHORTCODE_OPEN = re.compile(r"[ \t]*\{\{[<%](?!.*[<>%]\}\})")
_SHORTCODE_END = re.compile(r"[<>%]\}\}")
# A block attribute list on a line of its own (Goldmark's `{class="note" id="x"}`,
# `{.wide #top}`, kramdown's `{: .note}`): it styles the block, it is never shown.
_ATTRIBUTE = r"(?:[.#][\w-]+|[\w-]+=(?:\"[^\"]*\"|'[^']*'|[^\s\"'{}]+))"
_BLOCK_ATTRIBUTES = re.compile(r"[ \t]*\{:?[ \t]*" + _ATTRIBUTE + r"(?:[ \t]+" + _ATTRIBUTE
                               + r")*[ \t]*\}[ \t]*$")
# The same list inside a line, right after what it styles (Python-Markdown's attr_list
# in MkDocs: `[Get started](#){ .md-button }`, `:fontawesome-brands-youtube:{ style="…" }`).
_ATTRIBUTE_LIST = r"\{:?[ \t]*" + _ATTRIBUTE + r"(?:[ \t]+" + _ATTRIBUTE + r")*[ \t]*\}(?!\})"
_INLINE_ATTRIBUTES = re.compile(r"(?<=[)\]`\x00])" + _ATTRIBUTE_LIST)
# A footnote's reference `text[^1]` (a page shows a raised number linking to the note)
# and the label that opens its definition `[^1]: The note.` (the page lists the notes
# at its end, numbered): neither label is text; the note's words are.
# A reference counts only when the page defines its label (`[^a-z]` in prose is no note).
_FOOTNOTE = re.compile(r"^[ \t]*\[\^[^\]\s]{1,100}\]:[ \t]?|\[\^([^\]\s]{1,100})\]")
_FOOTNOTE_DEFINITION = re.compile(r"^[ \t]*\[\^([^\]\s]{1,100})\]:", re.MULTILINE)
# An icon or emoji shortcode of MkDocs Material and pymdownx.emoji (`:material-check:`,
# `:octicons-file-code-16:`, `:fontawesome-brands-github:`), with any attribute list: the
# page shows a picture, never its name (nor the space after it). Only names of two or
# more words joined by `-`, so `:ref:` and a time such as `10:30:` stay.
_ICON = re.compile(r"(?<![A-Za-z0-9:/\\]):[a-z][a-z0-9]*(?:-[a-z0-9]+)+:(?![\w:])(?:" + _ATTRIBUTE_LIST + ")?[ \t]?")
# A twoslash code block's compiler lines (```ts twoslash): `// @errors: 2345`,
# `// @filename: a.ts`, `// ---cut---`, `// ^?`; the built page shows none of them.
_TWOSLASH_LINE = re.compile(r"[ \t]*//[ \t]*(?:@\w+(?:[ \t]*:.*)?|-{3}cut(?:-[\w-]+)?-{3}|\^\?)[ \t]*$")
# A GitHub alert's marker `> [!NOTE]`, or an Obsidian callout's `> [!tip]- Its title`
# (`-`/`+`: folded or not): the page shows the title, or the kind's word as the box's label.
_ALERT = re.compile(r"^((?:[ \t]*>)+[ \t]*)\[!([A-Za-z][\w-]{0,30})\][+-]?(?:[ \t]+(.*\S))?[ \t]*$")
# Obsidian's wikilinks and embeds: `[[Note]]`, `[[Note#Heading|shown words]]`,
# `[[#Heading]]`, `[[Note#^block-id]]`, `![[picture.png|300]]`.
_WIKILINK = re.compile(r"(!?)\[\[([^\[\]|#\n]*)(#[^\[\]|\n]*)?(?:\|([^\[\]\n]*))?\]\]")
_EMBED_SIZE = re.compile(r"[ \t]*\d+(?:[ \t]*x[ \t]*\d+)?[ \t]*$")
# Obsidian's block id at a line's end (`… a paragraph. ^b15695`) and its comments
# (`%%not shown%%` within a line, with the spaces before it; a `%%` line opens one
# over lines): neither is shown on the page.
_BLOCK_ID = re.compile(r"(?<![^ \t])\^(?=[A-Z-]*[a-z0-9])[A-Za-z0-9-]{2,64}[ \t]*$")   # not `^C`
_OBSIDIAN_COMMENT = re.compile(r"(?<![ \t])[ \t]*%%[^%\n]*(?:%(?!%)[^%\n]*)*%%")
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
_FRONT_TITLE = re.compile(r"^title[ \t]*[:=][ \t]*((?:.*[^ \t\n])?)[ \t]*$", re.MULTILINE | re.IGNORECASE)


def read_txt(data: bytes, limits: Limits) -> Document:
    """Plain text: blank lines separate paragraphs; one section, unless the text
    is cut into numbered sections (`numbered_headings`). A first line standing
    alone as a title (`first_line_title`) is the title."""
    text = normalise_newlines(decode_text(data))
    builder = SectionBuilder(limits.max_text_chars)
    paragraphs: List[Tuple[str, int]] = []
    start, line, size = 0, 1, 0
    for gap in [*_BLANK_SPLIT.finditer(text), None]:
        end = gap.start() if gap else len(text)
        paragraphs.append((text[start:end].rstrip(), line))
        size += len(paragraphs[-1][0].strip()) + 2
        if gap is None or size > limits.max_text_chars:   # where the builder fills up
            break
        line += text.count("\n", start, gap.end())
        start = gap.end()
    headings = numbered_headings([para for para, _ in paragraphs])
    for k, (para, first) in enumerate(paragraphs):
        if k in headings:
            builder.heading(*headings[k])
        else:
            builder.paragraph(para, first)
        if builder.full:
            break
    return Document(title=first_line_title(text), format="txt", sections=builder.build())


# A numbered section's heading standing alone: `1. Philosophy`, `  3.15 Can I do
# recursive fetches?`, RFC's `4.2.1.  Registration`.
_NUMBERED_HEADING = re.compile(r"[ \t]{0,4}(\d{1,3}(?:\.\d{1,3}){0,3})\.?[ \t]+(\S[^\n]{0,78})")
# The same heading wrapped onto a second line (`_wrapped_heading`), its lines joined.
_WRAPPED_HEADING = re.compile(r"[ \t]{0,4}(\d{1,3}(?:\.\d{1,3}){0,3})\.?[ \t]+(\S[^\n]{59,158})")


def numbered_headings(paragraphs: List[str]) -> Dict[int, Tuple[int, str]]:
    """The paragraphs that head numbered sections: {index: (level, heading)}.

    Plain-text FAQs, to-do lists and specifications (curl's `FAQ`, RFCs) head
    each part with a line of its own, `1. Philosophy` then `1.1 What is cURL?`.
    A paragraph that is one such line (a number of up to four parts, then at
    most 79 characters not ending as a sentence does) is a heading, its level
    the number's parts, if its number comes next in the outline (1, then 1.1,
    1.2, 2, 2.1 …; a numbered line out of that order is text), and only when
    the text has at least three of them, two with a dotted number (a list of
    steps, `1. Download the file`, stays text). A table of
    contents, the same lines one after another, is a paragraph of its own."""
    found: Dict[int, Tuple[int, str]] = {}
    numbers: List[Tuple[int, ...]] = []
    for k, para in enumerate(paragraphs):
        para = para.lstrip("\n")   # a paragraph after two blank lines starts with one
        if "\n" in para.rstrip() and len(para) <= 170:
            para = _wrapped_heading(para)   # one heading on two lines, or not a heading
            if para is None:
                continue
            match = _WRAPPED_HEADING.fullmatch(para)
        elif len(para) > 100:
            continue
        else:
            match = _NUMBERED_HEADING.fullmatch(para)
        if match is None or para.rstrip()[-1] in ".,;:":
            continue
        number = tuple(int(part) for part in match.group(1).split("."))
        if not _next_number(numbers[-1] if numbers else None, number):
            continue   # a numbered line out of the outline's order is text
        numbers.append(number)
        found[k] = (len(number), f"{match.group(1)} {' '.join(match.group(2).split())}")
    if len(found) < 3 or sum(len(number) > 1 for number in numbers) < 2:
        return {}
    return found


def _wrapped_heading(para: str) -> Optional[str]:
    """A numbered heading too long for one line, wrapped onto a second as a text
    dumped from HTML is (chrony's FAQ: `2.4. Must I specify servers by IP address
    if DNS is not available on chronyd` then `start?`), as one line; else None.
    The first line must be full (at least 60 characters, at most 80, so it was cut
    for its width) and the second short (at most 79, not a third line)."""
    first, sep, second = para.partition("\n")
    if (not sep or "\n" in second or not 60 <= len(first.rstrip()) <= 80
            or not second.strip() or len(second.strip()) > 79):
        return None
    return f"{first.rstrip()} {second.strip()}"


def _next_number(before: Optional[Tuple[int, ...]], number: Tuple[int, ...]) -> bool:
    """Whether `number` can follow `before` in an outline: 1 first, then 1.1, 1.2, 2, 2.1 …
    (within a chapter a number may be skipped: 1.5 after 1.3)."""
    if before is None:
        return number == (1,)
    if len(number) == len(before) + 1:
        return number[:-1] == before and number[-1] >= 1
    if len(number) > len(before) or number[:-1] != before[:len(number) - 1]:
        return False
    last = before[len(number) - 1]
    # parts are taken out of a list (1.1 to 1.4 gone, 1.5 left), never whole chapters
    return number[-1] == last + 1 if len(number) == 1 else number[-1] > last


TITLE_LINE_CHARS = 80
# Marks of a record, a setting or code rather than a title (`pkg (1.2-1) unstable; urgency=low`).
_NOT_A_TITLE = re.compile(r"[=;{}<>|\\]")
# A title underlined as Markdown and reStructuredText write one (`Mailbox settings`, then
# `================`; Dovecot's wiki pages as Debian ships them): the line above the rule.
_UNDERLINED_TITLE = re.compile(r"([^\n]+)\n[ \t]*(={3,}|-{3,})[ \t]*")


def _underlines(rule: str, line: str) -> bool:
    """Whether `rule` is about as long as `line` (within two characters), in its
    characters or in the columns it fills: a wide character (Chinese, Japanese, Korean)
    fills two, a combining accent none, and an editor's underline spans the columns
    (`設定ファイル`, then twelve `=`)."""
    columns = sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF"
                  else 1 for c in line)
    return min(abs(len(rule) - len(line)), abs(len(rule) - columns)) <= 2


def first_line_title(text: str) -> str:
    """A note's first line when it reads as its title, else ''.

    People start a note with its subject on a line of its own (*Red lentil
    soup*, *Trip to Porto, May*), then a blank line and the note. A line that
    ends a sentence (`.`, `,`, `:`), is long, starts as a list, quote or
    markup would, is a link, holds marks of code or settings (`=`, `;`, `{`),
    or is all there is, is text.
    """
    body = text.lstrip()
    gap = _BLANK_SPLIT.search(body, 0, TITLE_LINE_CHARS * 4 + 2)
    if gap is None or not body[gap.end():].strip():
        return ""
    first = body[:gap.start()].strip()
    underlined = _UNDERLINED_TITLE.fullmatch(first)
    if underlined and _underlines(underlined.group(2), underlined.group(1).strip()):
        first = underlined.group(1).strip()
    if (not first or "\n" in first or len(first) > TITLE_LINE_CHARS or first[-1] in ".,;:"
            or first[0] in "#>*-+=|/\\[{<(`~" or "://" in first or _NOT_A_TITLE.search(first)
            or not any(c.isalpha() for c in first)):
        return ""
    return first


def read_markdown(data: bytes, limits: Limits) -> Document:
    """Markdown: headings make sections; front matter title, else first H1, else the
    heading the whole page sits under (`_outline_root`). A Logseq
    page is read as the Markdown it shows (logseq.py), titled by its `title::` or,
    format `logseq`, by its file's name (`_finish` decodes it), never by a heading."""
    text = normalise_newlines(decode_text(data))
    page = logseq_page(text)
    if page is not None:
        page_title, text = page
    front_title, body = split_front_matter(text)
    builder = SectionBuilder(limits.max_text_chars)
    header = text[:len(text) - len(body)]
    for line, words in front_matter_words(header, body):
        builder.paragraph(words, line)
    first_h1 = _walk_markdown(body, builder, 1 + text.count("\n") - body.count("\n"))
    sections = builder.build()
    if page is not None:
        return Document(title=page_title or front_title or "", format="logseq", sections=sections)
    title = front_title or first_h1 or _outline_root(sections)
    return Document(title=title, format="md", sections=sections)


def _outline_root(sections: Sequence[Section]) -> str:
    """The heading a page opens with when every later heading sits under it, else ''.

    An mdBook section file opens with `## Storing Lists of Values with Vectors` and
    has only `###` headings after it: that heading is its title, as a first-level
    one would be. A page whose outermost headings are several (`## Encryption`,
    `## Plans`), or whose one heading heads nothing further, keeps its file's name.
    """
    root = sections[0].heading[:1] if sections else ()
    if (root and all(s.heading[:1] == root for s in sections)
            and any(len(s.heading) > 1 for s in sections)):
        return root[0]
    return ""


# A YAML block scalar's header: `>` folds its lines into one, `|` keeps them, with an
# optional chomping mark and indent (`>-`, `|2`).
_BLOCK_SCALAR = re.compile(r"[|>](?:[-+]?\d?|\d[-+]?)$")


def _block_scalar(after: str, folded: bool) -> str:
    """The indented lines that follow a block scalar's header, as YAML reads them."""
    lines: List[str] = []
    for line in after.split("\n")[1:]:
        if line.strip() and line[:1] not in " \t":
            break   # the next key
        lines.append(line.strip())
    if not folded:
        return "\n".join(lines).strip()
    return "\n".join(" ".join(part.split()) for part in "\n".join(lines).split("\n\n")).strip()


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


# Front matter keys whose values a person reads or searches by: a note's other names
# (Obsidian's `aliases`), the summary a site shows under the title, its tags.
_FRONT_NAMES = ("aliases", "alias")
_FRONT_SUMMARY = ("description", "summary", "subtitle")
_FRONT_TAGS = ("tags", "keywords")
_FRONT_KEY = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*[:=](.*)$")
_FRONT_ITEM = re.compile(r"^[ \t]+-[ \t]+(.*)$")


def front_matter_words(header: str, body: str = "") -> List[Tuple[int, str]]:
    """The words of a Markdown page's front matter (`header`, fences included) that the
    page shows or is found by, each with its file line: its other names, its summary
    and its tags, one line each. A name that is a web path (Hugo's `/about/privacy/`,
    a URL) is no name; of a moved note's old place (`How to/Embed files`) the name is
    its last part. The summary is left out when the page's opening text already says it
    (Obsidian's notes repeat their `description` as their first line)."""
    values = _front_values(header)
    out: List[Tuple[int, str]] = []
    for keys, kind in ((_FRONT_NAMES, "names"), (_FRONT_SUMMARY, "summary"), (_FRONT_TAGS, "tags")):
        key = next((k for k in keys if k in values), None)
        if key is None:
            continue
        line, items = values[key]
        if kind == "names":
            items = [item.rstrip("/").rsplit("/", 1)[-1].strip() for item in items
                     if not item.startswith("/") and "://" not in item]
        elif kind == "tags":
            items = [item.lstrip("#") for item in items]
        words = ", ".join(item for item in items if item) if kind != "summary" else " ".join(items[:1])
        if kind == "summary" and _said(words, body):
            continue
        if words.strip():
            out.append((line, words))
    return out


def _front_values(header: str) -> Dict[str, Tuple[int, List[str]]]:
    """Each top-level key of a YAML or TOML front matter block, lower-cased, with the
    1-based line it is on and its values: a scalar (a block scalar's lines read as
    YAML reads them), a flow list `[a, "b c"]`, or a block list of `- item` lines."""
    lines = header.split("\n")
    found: Dict[str, Tuple[int, List[str]]] = {}
    for i, line in enumerate(lines[1:-1], start=1):
        match = _FRONT_KEY.match(line)
        if not match:
            continue
        key, value = match.group(1).lower(), match.group(2).strip(" \t")
        if key in found:
            continue
        first = i + 1   # the file line its words start on
        if value[:1] == "[" and value[-1:] == "]":
            items = [_unquote(part) for part in _flow_items(value[1:-1])]
        elif _BLOCK_SCALAR.match(value):   # its words start on the next line
            k = i + 1
            while k < len(lines) - 1 and (not lines[k].strip() or lines[k][:1] in " \t"):
                k += 1
            items, first = [_block_scalar("\n".join(lines[i:k]), value[0] == ">")], i + 2
        elif value:
            items = [_unquote(value)]
        else:
            items = []
            k = i + 1
            while k < len(lines) - 1:
                item = _FRONT_ITEM.match(lines[k])
                if not item:
                    break
                items.append(_unquote(item.group(1)))   # _unquote strips the spaces
                k += 1
        found[key] = (first, [item for item in items if item])
    return found


def _flow_items(inside: str) -> List[str]:
    """The items of a YAML flow list or TOML array, split at commas outside quotes."""
    items, quote, start = [], "", 0
    for k, ch in enumerate(inside):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == ",":
            items.append(inside[start:k])
            start = k + 1
    items.append(inside[start:])
    return [item.strip() for item in items if item.strip()]


_WORDS = re.compile(r"\w+")


def _said(summary: str, body: str) -> bool:
    """Does the page's opening text hold nearly all of the summary's words?"""
    return said_before(summary, markdown_inline(body.lstrip()[:2000]))


def said_before(summary: str, opening: str) -> bool:
    """Does `opening`, a page's opening text as shown (its first 2,000 characters or
    so), hold at least 80% of the summary's words? Then the summary is not read
    twice: Markdown's front matter `description`, AsciiDoc's `:description:`, Org's
    `#+subtitle:`."""
    words = set(_WORDS.findall(summary.lower()))
    if not words:
        return True
    shown = set(_WORDS.findall(opening.lower()))
    return len(words & shown) >= 0.8 * len(words)


def summary_said(shown: Sequence[str], at: int, title: str) -> bool:
    """Whether a page's title and opening text (its shown lines after line `at`)
    already say the summary shown on line `at` (`said_before`): AsciiDoc's
    `:description:`, Org's `#+subtitle:`, read on their own line otherwise."""
    opening = [title]
    size = len(title)
    for k in range(at + 1, len(shown)):
        if size > 2000:
            break
        if shown[k].strip():
            opening.append(shown[k].strip())
            size += len(shown[k])
    return said_before(shown[at], "\n".join(opening)[:2000])


def _unquote(value: str) -> str:
    """A front matter value without its quotes; in a double-quoted YAML string `\\"`
    and `\\\\` read as the character (and `''` in a single-quoted one as `'`), as
    the site's title shows them."""
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        quote, value = value[0], value[1:-1]
        if quote == '"' and "\\" in value:
            value = re.sub(r'\\(["\\/])', r"\1", value)
        elif quote == "'":
            value = value.replace("''", "'")
    return value.strip()


# Directives whose body is prose (Markdown): their argument is a visible title.
_PROSE_DIRECTIVES = frozenset({"note", "warning", "tip", "hint", "important", "caution", "danger",
                               "attention", "error", "seealso", "admonition", "versionadded",
                               "versionchanged", "deprecated", "dropdown", "topic", "sidebar",
                               "margin", "tab-item", "tab", "card", "div", "rubric", "glossary"})


# What Sphinx shows for a version note's argument (`.. versionadded:: 3.2`).
_VERSION_NOTES = {"versionadded": "New in version", "versionchanged": "Changed in version",
                  "deprecated": "Deprecated since version", "versionremoved": "Removed in version"}


def version_words(name: str, argument: str) -> str:
    """A version note's argument as the built page words it (`New in version 3.2`,
    `Changed in version 3.2: the reason`); any other directive's argument as it is."""
    lead = _VERSION_NOTES.get(name)
    if not lead or not argument:
        return argument
    version, _, rest = argument.partition(" ")
    return f"{lead} {version}: {rest.strip()}" if rest.strip() else f"{lead} {version}"


def _columns(indent: str) -> int:
    """The columns a line's indent takes (a tab to the next multiple of four)."""
    return len(indent.expandtabs(4))


def _dedent(line: str, columns: int) -> str:
    """The line with up to `columns` columns of its indent taken off."""
    indent = line[:len(line) - len(line.lstrip(" \t"))]
    return " " * max(0, _columns(indent) - columns) + line[len(indent):]


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
    fence_indent = 0                          # … and the columns before it
    hidden = False                            # in a fence whose body is not shown
    containers: List[Tuple[str, int]] = []    # open MyST prose directives (fence, length)
    options = False                           # at a directive's start: `:key: value` lines
    in_comment = False                        # inside a multi-line HTML comment
    obsidian_comment = False                  # inside an Obsidian comment `%%` over lines
    jsx = False                               # inside an MDX component tag spanning lines
    shortcode = False                         # inside a Hugo shortcode tag spanning lines
    held: List[str] = []                      # … its lines so far (a `caption=` is shown)
    twoslash = False                          # in a twoslash code block (TypeScript's docs)
    raw_end: Optional[str] = None             # in a <script> or <style> block: its end tag
    html_block = False                        # in a block of HTML (up to a blank line)
    headed = False                            # a Markdown heading came before
    in_code = False                           # the paragraph held is fenced code
    question = False                          # the paragraph held is a bold question
    depth = 0                                 # the level of the last heading
    refs = frozenset([" ".join(label.lower().split()) for label in _REF_DEFINITION.findall(body) if label]
                     + ["^" + label.lower() for label in _FOOTNOTE_DEFINITION.findall(body)])

    def flush() -> None:
        nonlocal in_code, question
        if question and len(para) == 1:   # `**Q: Where is it stored?**`: an FAQ's heading
            text = para[0].strip()
            builder.heading(depth + 1, heading_words(text[2:-2] if text[:2] == text[-2:] else text))
            del para[:]
        question = False
        if para:
            text = "\n".join(para)
            if not in_code and "](" in text:   # a link whose words run over lines, as its words
                text = _WRAPPED_LINK.sub(_wrapped_words, text)
            if not in_code and refs and "]" in text and "\n" in text:   # … or a reference link
                text = _WRAPPED_REFERENCE.sub(lambda m: _reference_words(m, refs), text)
            builder.paragraph(text, para_line)
            del para[:]
        in_code = False

    def heading(level: int, text: str, titles: bool = True) -> None:
        nonlocal first_h1, depth
        flush()
        depth = level
        if "*" in text and len(text) <= LONGEST_INLINE:   # `## potential **on-CPU** gains`
            text = "".join(piece if k % 2 else _STAR_EMPHASIS.sub(r"\2", piece)
                           for k, piece in enumerate(_CODE_SPAN.split(text)))
        text = _DANGLING_EMPHASIS.sub("", " ".join(heading_words(text).split()))
        builder.heading(level, text)
        if level == 1 and first_h1 is None and text and titles:
            first_h1 = text

    lines = body.split("\n")
    for number, line in enumerate(lines, first_line):
        if not para:
            para_line = number
        if builder.full:
            break
        if raw_end is not None:   # a script or style: the page runs or applies it, never shows it
            end = line.lower().find(raw_end)
            if end < 0:
                continue
            after = line.find(">", end) + 1
            raw_end = None
            line = " " * after + line[after:] if after else ""
            if not line.strip():
                continue
        if in_comment:
            end = line.find("-->")
            if end < 0:
                flush()
                continue
            in_comment = False
            line = " " * (end + 3) + line[end + 3:]
        if obsidian_comment:
            end = line.find("%%")
            if end < 0:
                flush()
                continue
            obsidian_comment = False
            line = " " * (end + 2) + line[end + 2:]
        lead = line.lstrip(" \t")[:1]   # most checks need a particular first character
        if fence is not None:
            close = _INDENTED_FENCE.match(line) if lead in _FENCE_LEADS else None
            if close and close.group(2)[0] == fence[0] and len(close.group(2)) >= fence[1] \
                    and not close.group(3).strip() and _columns(close.group(1)) <= fence_indent + 3:
                fence, hidden, options = None, False, False
                flush()
            elif not hidden and not (options and _DIRECTIVE_OPTION.match(line)):
                options = False
                if lead in "{-" and _INCLUDE_LINE.match(line) \
                        or twoslash and lead == "/" and _TWOSLASH_LINE.match(line):
                    if para:
                        para.append("")   # the line keeps its place, without its words
                    continue
                if fence_indent and line[:1] in " \t":   # a list item's code, as the item shows it
                    line = _dedent(line, fence_indent)
                para.append(_shown_shortcodes(line))
                in_code = True
            continue
        opening = (_FENCE.match(line) or _COLON_FENCE.match(line)) if lead in _FENCE_LEADS else None
        if opening is None and lead in "`~":
            opening = _DEEP_FENCE.match(line)   # a list item's fence
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
                argument = version_words(name, argument)
                if argument:
                    builder.paragraph(argument, number)
                continue
            fence = (marker[0], len(marker))
            fence_indent = _columns(line[:len(line) - len(line.lstrip(" \t"))])
            hidden = name in _HIDDEN_DIRECTIVES
            twoslash = "twoslash" in info
            continue
        if options:
            if lead == ":" and _DIRECTIVE_OPTION.match(line):
                continue
            options = False
        if lead == "<":
            raw = _RAW_OPEN.match(line)
            if raw:
                flush()
                close = f"</{raw.group(1).lower()}"
                end = line.lower().find(close, raw.end())
                if end < 0:
                    raw_end = close
                    continue
                after = line.find(">", end) + 1   # closed on its line: what follows is text
                line = " " * after + line[after:] if after else ""
                if not line.strip():
                    continue
        if not line.strip():
            html_block = False
        elif not para and lead == "<" and _BLOCK_OPEN.match(line):
            html_block = True
        tag = _HEADING_TAG.match(line) if lead == "<" else None
        if tag:
            # An HTML heading heads a section when it stands alone, or when nothing came
            # before it (a README's `<h1 align="center">`, in its `<div>` or not, is the
            # title). Later, one in a block of HTML (a `<div class="note">`'s caption, an
            # example) or beside another heading tag (a page showing the six levels) is
            # text, and an `<h1>` there heads its section but names no document.
            start = builder.empty and not headed
            beside = any(0 <= k < len(lines) and lines[k].lstrip(" \t")[:2].lower() == "<h"
                         and _HEADING_TAG.match(lines[k])
                         for k in (number - first_line - 1, number - first_line + 1))
            if start and (not html_block or tag.group(1) == "1") \
                    or not start and not html_block and not beside:
                heading(int(tag.group(1)), _inline(tag.group(2)), titles=start)
                continue
        atx = atx_heading(line) if lead == "#" else None
        if atx:
            heading(atx[0], _inline(_without_attributes(atx[1].strip())))
            headed = True
            continue
        if lead == "{" and _TEMPLATE_LINE.match(line) or lead == "`" and line.strip() == "`}}":
            flush()   # template actions the site runs (an image, a code include), or a raw block's end
            continue
        if lead in _HIDDEN_LEADS and _HIDDEN_LINE.match(line):
            flush()
            continue
        if shortcode and not line.strip():
            shortcode = False   # an unclosed tag hides no more than its paragraph
            del held[:]
        if shortcode or lead == "{" and (_SHORTCODE_OPEN.match(line) or _BLOCK_ATTRIBUTES.match(line)):
            if shortcode or line.lstrip(" \t")[1:2] == "{":
                held.append(line)
            shortcode = bool(held) and not _SHORTCODE_END.search(line)
            flush()
            if held and not shortcode:   # the tag ends here: its text or caption is shown
                shown = _tag_words("\n".join(held))
                if shown:
                    builder.paragraph(_inline(shown, refs), number + 1 - len(held))
                del held[:]
            continue
        if jsx:   # inside a component's opening tag that spans lines: its props are code
            jsx = not line.rstrip().endswith(">")
            flush()
            continue
        if lead in "ie" and _esm_line(line):
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
        if lead == "%" and line.lstrip(" \t").startswith("%%") and line.count("%%") % 2:
            obsidian_comment = True   # a `%%` line that opens more than it closes
            line = line[:line.rfind("%%")]
        code = (line[:1] == "\t" or line[:4] == "    " and (not para or para[0][:1] in (" ", "\t"))) \
            and not html_block   # in a <div>, indented lines are HTML: the browser decodes `&lt;`
        shown = _inline(line, refs, code) if line.strip() else line
        setext = _SETEXT.match(line) if lead in _RULE_LEADS else None
        if setext and para and not _NOT_PARAGRAPH.match(para[0]):
            text = " ".join(part.strip() for part in para)
            del para[:]
            heading(1 if setext.group(1)[0] == "=" else 2, text)
            headed = True
            continue
        if not shown.strip() or lead in _RULE_LEADS and (
                _THEMATIC_BREAK.match(line) or not para and _DEEP_RULE.match(line)
                and not "".join(lines[number - first_line + 1:number - first_line + 2]).strip()):
            flush()   # a rule; indented, between blank lines (a card's rule in a list item), too
            continue
        if not para and not code and lead in "*_" and _BOLD_QUESTION.match(line):
            question = True
        para.append(shown.rstrip())
    flush()
    return first_h1


# A line of Go or Liquid template actions only, outside code: `{{image "gc/fig1.png"}}`,
# `{{code "/doc/progs/go1.go" `/STOP/`}}`, `{{end}}`, `{{ site.title }}`, and a
# `{{raw `` line opening a block shown as typed (closed by a line `` `}} ``). The
# built page shows what the action makes, never the action.
_TEMPLATE_LINE = re.compile(r"[ \t]*(?:\{\{-?[ \t]*(?:\.?[A-Za-z_][\w.]*|\.)(?:[ \t](?:[^{}]|\{[^{}]*\})*)?-?\}\}[ \t]*"
                            r")+$|[ \t]*\{\{raw[ \t]+`[ \t]*$")
# A link (or an image) whose words run over lines, left whole by the line-by-line
# reading: `[the Go open source\nrelease](https://…)` reads as its words, line breaks kept.
_WRAPPED_LINK = re.compile(r"!?\[((?:[^\[\]`]|`[^`]*`)*)\](?:\((?:[^()\s]|\([^()\s]*\))*"
                           r"(?:[ \t]+(?:\"[^\"]*\"|'[^']*'))?[ \t]*\)|\[[^\]\n]*\])")
# A reference link (or image) whose words run over lines: full `[the URL\nconstructor][label]`,
# collapsed `[Cyclic Module\nRecord][]` or shortcut `[Cyclic Module\nRecord]`; it reads as
# its words when its label is defined, as the line-by-line reading cannot see.
_WRAPPED_REFERENCE = re.compile(r"!?\[((?:[^\[\]`]|`[^`]*`)*)\]"
                                r"(?:\[((?:[^\[\]`]|`[^`]*`)*)\])?(?!\()")
# A script or style block (VitePress and MDX pages hold a component's code): never shown.
_RAW_OPEN = re.compile(r" {0,3}<(script|style)(?=[\s>]|$)", re.IGNORECASE)
# The opening tag of an HTML block that holds other elements (a live example, a banner).
_BLOCK_OPEN = re.compile(r" {0,3}<(?:div|section|article|aside|figure|details|main|template)(?=[\s>]|$)",
                         re.IGNORECASE)
# Emphasis or strong emphasis with stars in a heading (`*why*`, `**on-CPU performance**`),
# shown as its words, as the other readers' headings are; underscores stay (`__init__`).
_STAR_EMPHASIS = re.compile(r"(?<![\w*\\])(\*{1,3})(?=[^\s*])([^*\n]*[^\s*\\])\1(?![\w*])")
_CODE_SPAN = re.compile(r"(`+[^`]*`+)")
# A question in bold alone on its line (`**Q: How do I turn it off?**`), as FAQs head answers.
_BOLD_QUESTION = re.compile(r" {0,3}(\*\*|__)(?:(?!\1)[^\n]){1,160}\?\1[ \t]*$")
# A run of emphasis markers left at a heading's end (`## reactive() \*\*`, a site's badge).
_DANGLING_EMPHASIS = re.compile(r"(?<=\S) +[*_]+$")

# A link reference definition's label (it may run over lines); the second alternative
# takes a label that is none up to its `]` (every `[` before it would fail the same way).
_REF_DEFINITION = re.compile(r"^ {0,3}\[(?!\^)(?:([^\]]+)\]:|[^\]]*)", re.MULTILINE)
# (Not right after a `]`: that is the label of a full reference whose words began on an
# earlier line, read with them by `_WRAPPED_REFERENCE`.)
_SHORTCUT_LINK = re.compile(r"(?<!\])\[([^\]\[]+)\](?![(\[:])")


def _wikilink_words(match: "re.Match[str]") -> str:
    """What Obsidian shows for a wikilink: its own words, else the note's name
    and heading (`Internal links › Link to a heading`); an embedded picture or
    other attachment (`![[Engelbart.jpg]]`) nothing, an embedded note its name."""
    embed, target, anchor, words = match.groups()
    target = target.strip()
    if target in ("_TOC_", "TOC") and not (anchor or words):   # GitLab's table of contents
        return ""
    if words is not None and words.strip() and not (embed and _EMBED_SIZE.match(words)):
        return words.strip()
    if embed and "." in target.rsplit("/", 1)[-1] and not target.lower().endswith(".md"):
        return ""
    if target.lower().endswith(".md"):
        target = target[:-3]
    anchor = (anchor or "#")[1:].strip()
    if anchor.startswith("^"):   # a block: the note's name
        anchor = ""
    anchor = " › ".join(part.strip() for part in anchor.split("#") if part.strip())
    return " › ".join(part for part in (target, anchor) if part)


def _wrapped_words(match: "re.Match[str]") -> str:
    """A link's words when they run over lines (the line break may be inside a code
    span: `[`npm\nfund`](/commands/npm-fund)`); one on a single line was read with
    its line, and any left is in a code span, kept as typed."""
    return match.group(1) if "\n" in match.group(1) else match.group(0)


def _reference_words(match: "re.Match[str]", refs: frozenset) -> str:
    """A wrapped reference link's words (they, or its label, run over lines) when its
    label (or, collapsed or shortcut, its words) is a defined one; else the text as
    typed, as a page shows an undefined one."""
    words, label = match.group(1), match.group(2)
    if "\n" not in words and not (label and "\n" in label):
        return match.group(0)   # on one line: read with its line
    key = " ".join((label if label and label.strip() else words).lower().split())
    return words if key in refs else match.group(0)


def _esm_line(line: str) -> bool:
    """Whether the line is an ES module `import` or `export` statement, or a run of
    `import` statements (`import Tabs from '@theme/Tabs'; import TabItem from …;`,
    as React Native's pages open)."""
    if line.startswith("import") and ";" in line.rstrip(" \t;"):
        parts = line.rstrip(" \t").rstrip(";").split(";")
        return all(part.strip(" \t") and _esm_line(part.strip(" \t")) for part in parts)
    if line.startswith("export"):
        return _ESM_EXPORT.match(line) is not None
    if not line.startswith("import") or line[6:7] not in (" ", "\t"):
        return False
    body = line[6:].rstrip(" \t")
    body = body[:-1] if body.endswith(";") else body
    if not body.endswith(("'", '"')):
        return False
    start = max(body.rfind("'", 0, len(body) - 1), body.rfind('"', 0, len(body) - 1))
    names = body[:start]   # before the quoted module name: spaces, or spaces, names and `from`
    if start < 0 or start == len(body) - 2 or not names or names[0] not in " \t":
        return False
    if not names.strip(" \t"):
        return True
    head = names.rstrip(" \t")
    if head == names or not head.endswith("from") or not all(c in _ESM_NAMES or c.isalnum() for c in names):
        return False
    head = head[:-4]
    return len(head) >= 3 and head[-1] in " \t"


def atx_heading(line: str) -> Optional[Tuple[int, str]]:
    """(level, text) of an ATX heading line (`## Title ##`), else None."""
    opening = _ATX.match(line)
    if opening is None:
        return None
    return len(opening.group(1)), _atx_text(line[opening.end():])


def _atx_text(rest: str) -> str:
    """An ATX heading's text from what follows its `#`s: without the spaces around it
    and without a closing run of `#` that a space sets apart (`## Title ##`)."""
    text = rest.strip(" \t")
    bare = text.rstrip("#")
    if len(bare) < len(text) and bare[-1:] in (" ", "\t") and bare.strip(" \t"):
        return bare.rstrip(" \t")
    return text


def _without_attributes(text: str) -> str:
    """A heading without its attribute list (`## Setup {#setup .wide}`), never shown."""
    end = len(text.rstrip(" \t"))
    if not text.endswith("}", 0, end):
        return text
    start = text.rfind("{", 0, end)
    if start < 0 or "}" in text[start + 1:end - 1] or text[start + 1:end].lstrip(" \t")[:1] not in "#.":
        return text
    return text[:start].rstrip(" \t")


def _inline(line: str, refs: frozenset = frozenset(), code: bool = False) -> str:
    """A line without the markup a reader never sees; code spans are kept as typed.

    `refs` are the labels of the document's link reference definitions, so a
    shortcut link `[words]` reads as its words while other brackets stay, and
    (as `^label`) of its footnotes, so a reference `[^label]` to one is no text.
    Backslash escapes (`\\*`, `\\#`) read as the character, a backslash that ends
    a line (a hard line break) as nothing, and entity references (`&mdash;`,
    `&#8212;`) as their character, except in code spans and, with `code`, on a
    line of an indented code block.
    """
    if len(line) > LONGEST_INLINE or not ("[" in line or "<" in line or "{" in line
                                          or ":" in line and "-" in line
                                          or not code and ("\\" in line or "&" in line
                                                           or "^" in line or "%%" in line)):
        return line
    if "\n" in line:   # the patterns read one line (a code span never spans two)
        return "\n".join(_inline(part, refs, code) for part in line.split("\n"))
    spans: List[str] = []
    if "`" in line:
        pieces: List[str] = []
        done = 0
        for start, end, role in _code_and_roles(line):
            spans.append(_shown_shortcodes(line[start:end]) if role is None else role_words(role))
            pieces += [line[done:start], f"\x00{len(spans) - 1}\x00"]
            done = end
        line = "".join(pieces) + line[done:]
    if "\\" in line and not code:
        line = _hard_break(line)
        line = _ESCAPE.sub(lambda m: hold(spans, m.group(1)), line)
    if "{{" in line:
        if "/*" in line:
            line = _ESCAPED_SHORTCODE.sub(lambda m: hold(spans, _shown_shortcodes(m.group(0))), line)
        line = _SHORTCODE.sub(_shortcode_words, line)
    if "{%" in line:
        line = _without_liquid(line, spans)
    if "]({{" in line:
        line = _LIQUID_DESTINATION.sub("](", line)
    if ":" in line and "-" in line:   # MkDocs' indented bodies too (`code` is a guess there)
        line = _ICON.sub("", line)
    if "{" in line:
        line = _INLINE_ATTRIBUTES.sub("", line)
    if "[!" in line:
        line = _ALERT.sub(lambda m: m.group(1) + (_inline(m.group(3)) if m.group(3)
                                                  else m.group(2).capitalize()), line)
    if "[[" in line:
        line = _WIKILINK.sub(_wikilink_words, line)
    if not code:
        if "%%" in line:
            line = _OBSIDIAN_COMMENT.sub("", line)
        if "^" in line:
            block = _BLOCK_ID.search(line)
            if block:
                line = line[:block.start()].rstrip(" \t")
    if "<" in line or "{/*" in line:
        line = _TOOLTIP.sub(_tooltip_words, line)
        line = _HTML_TAG.sub("", _without_comments(line))
        if "<" in line:
            line = _JSX_TAG.sub(_jsx_words, line)
    if "[^" in line:
        line = _FOOTNOTE.sub(lambda m: m.group(0) if m.group(1) and "^" + m.group(1).lower() not in refs
                             else "", line)
    if "[" in line:
        line = _LINK.sub(r"\1", _IMAGE.sub(_words, line))
        if refs and "[" in line:
            line = _SHORTCUT_LINK.sub(
                lambda m: m.group(1) if " ".join(m.group(1).lower().split()) in refs else m.group(0), line)
    if "&" in line and not code:
        line = _ENTITY.sub(_entity, line)
    return put_back(line, spans)


# A backslash escape: any ASCII punctuation character after a backslash stands for itself.
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
# An entity reference: named (`&mdash;`), decimal (`&#8212;`) or hexadecimal (`&#x2014;`).
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def hold(spans: List[str], text: str) -> str:
    """A placeholder for text that no later pattern may read (`put_back` restores it)."""
    spans.append(text)
    return f"\x00{len(spans) - 1}\x00"


def put_back(text: str, spans: List[str]) -> str:
    """`text` with each placeholder `hold` made replaced by what it holds (a look-alike
    the text itself carried, which no placeholder made, stays as it is).

    A held text may hold placeholders itself (Org's `=[[ads:Dominik,C]]=`, a link
    held, then the code around it): they are put back too, each one once, so the
    text never grows beyond what was held (their NULs showed in the text before)."""
    if not spans:
        return text
    used = set()

    def back(match: "re.Match[str]") -> str:
        index = int(match.group(1))
        if index >= len(spans) or index in used:
            return match.group(0)
        used.add(index)
        held = spans[index]
        return _PLACEHOLDER.sub(back, held) if "\x00" in held else held

    return _PLACEHOLDER.sub(back, text)


_PLACEHOLDER = re.compile("\x00(\\d+)\x00")


def _hard_break(line: str) -> str:
    """The line without a backslash that ends it (a hard line break, never shown)."""
    bare = line.rstrip(" \t")
    run = len(bare) - len(bare.rstrip("\\"))
    return bare[:-1] if run % 2 else line


def _entity(match: "re.Match[str]") -> str:
    """An entity reference's character (a no-break space as a space); an unknown name
    stays as typed."""
    text = html.unescape(match.group(0))
    return " " if text == "\xa0" else text


# Liquid (Jekyll, GitHub Pages): a tag inside a line, `{% include badge.html version="4.0" %}`,
# `{% link _docs/x.md %}`, `{%- if … -%}`, renders as something else, never as itself; a
# `{% raw %}…{% endraw %}` pair shows what it holds as typed. Each scan from an opener stops
# at the next brace or `%}`, so a line of openers without closers stays linear; the spaces
# and the name are taken whole (given back one at a time, each shorter split rescanned the
# rest: a 19,000-character `{%aaa…` line cost over 2 CPU s).
_LIQUID_TAG = re.compile(r"\{%-?[ \t]*(?![ \t])(\w*)(?!\w)(?:[^{}%]|%(?!\}))*%\}")
# A link whose address is a Liquid output (`[words]({{ '/docs/x/' | relative_url }})`): the
# address the site computes, read as an empty one so that the link reads as its words.
_LIQUID_DESTINATION = re.compile(r"\]\(\{\{[^{}\n]*\}\}(?=[^()\s]*\))")


def _without_liquid(line: str, spans: List[str]) -> str:
    """The line without its Liquid tags; what a `{% raw %}` pair holds is kept as typed."""
    out: List[str] = []
    done = 0
    raw_at = -1
    for match in _LIQUID_TAG.finditer(line):
        name = match.group(1)
        if raw_at >= 0:
            if name == "endraw":
                out.append(hold(spans, line[raw_at:match.start()]))
                done, raw_at = match.end(), -1
            continue
        out.append(line[done:match.start()])
        done = match.end()
        if name == "raw":
            raw_at = done
    out.append(line[done:])
    return "".join(out)


def _shown_shortcodes(text: str) -> str:
    """The text with each of Hugo's escaped shortcodes (`{{</* x */>}}`) as the page
    shows it (`{{< x >}}`)."""
    if "/*" not in text or "{{" not in text:
        return text
    return _ESCAPED_SHORTCODE.sub(lambda m: "{{" + m.group(1) + m.group(2) + m.group(3) + "}}", text)


def _shortcode_words(match: "re.Match[str]") -> str:
    """A Hugo shortcode tag's shown words (its text or title argument), else nothing."""
    return _tag_words(match.group(2))


def _tag_words(arguments: str) -> str:
    words = _SHORTCODE_WORDS.search(arguments)
    return next((w for w in words.groups() if w is not None), "") if words else ""


def heading_words(text: str) -> str:
    """A heading's words as a page shows them: a code span without its backquotes
    (``## The `never` type`` is headed `The never type`), as in the other readers'
    headings; a heading path is read, not copied."""
    if "`" not in text or len(text) > LONGEST_INLINE:
        return text
    pieces: List[str] = []
    done = 0
    for start, end, role in _code_and_roles(text):
        if role is None:
            pieces += [text[done:start], text[start:end].strip("`").strip(" ")]
            done = end
    return "".join(pieces) + text[done:]


def markdown_inline(line: str) -> str:
    """A Markdown line as a reader sees it (links as their words, no HTML tags,
    comments or shortcodes; code spans as typed): for Markdown held elsewhere,
    such as a notebook's Markdown cells."""
    return _inline(line)


def _without_comments(line: str) -> str:
    """The line without `<!-- … -->` and `{/* … */}`, as the pattern
    `<!--.*?-->|\\{/\\*.*?\\*/\\}` would remove them, in linear time: once an opener
    has no closer after it, no later one of its kind has (the pattern would look
    again for each of them)."""
    if "<!--" not in line and "{/*" not in line:
        return line
    kinds = [["<!--", "-->", -1, True], ["{/*", "*/}", -1, True]]   # opener, closer, next, alive
    out: List[str] = []
    done = pos = 0
    while True:
        for kind in kinds:
            if kind[3] and kind[2] < pos:
                kind[2] = line.find(kind[0], pos)
                kind[3] = kind[2] >= 0
        live = [kind for kind in kinds if kind[3]]
        if not live:
            break
        kind = min(live, key=lambda k: k[2])
        start = kind[2]
        end = line.find(kind[1], start + len(kind[0]))
        if end < 0:
            kind[3] = False
            pos = start + 1
            continue
        out.append(line[done:start])
        done = pos = end + len(kind[1])
    out.append(line[done:])
    return "".join(out)


def _words(match: "re.Match[str]") -> str:
    """An image's words; what is none stays as typed."""
    words = match.group(1)
    return match.group(0) if words is None else words


def _code_and_roles(line: str) -> List[Tuple[int, int, Optional[str]]]:
    """(start, end, the role's content or None for a code span) for the MyST roles and
    code spans of one line, left to right, by the rule of the pattern

        \\{[\\w:.+-]+\\}`([^`]*)`  |  (`+)(?:.*?[^`])?\\2(?!`)

    (a role, or an opening backquote run from wherever the scan stands to the end of
    its run, closed by the first later run of the same length; failing any, a shorter
    opening; an opening of 2j backquotes is also a span of j and j), found in time
    linear in the line: for each run length, the later runs of that length are
    queued, and the pattern itself would rescan the line for every opening it tries.
    """
    runs = [(m.start(), m.end()) for m in _TICKS.finditer(line)]
    later: Dict[int, Deque[int]] = {}   # run length -> indexes of the runs still ahead
    for index, (start, end) in enumerate(runs):
        later.setdefault(end - start, deque()).append(index)
    lengths = sorted(later)              # the lengths in `later`
    ahead = 0                            # the first run still in `later`
    found: List[Tuple[int, int, Optional[str]]] = []
    pos = 0
    while True:
        hit = _ROLE_OR_TICK.search(line, pos)
        if hit is None:
            return found
        p = hit.start()
        if line[p] == "{":
            role = _ROLE.match(line, p)
            if role:
                cited = numbered_reference(line[p + 1:line.index("}", p)], role.group(1))
                found.append((p, role.end(), cited or role.group(1)))
                pos = role.end()
            else:
                pos = p + 1
            continue
        while ahead < len(runs) and runs[ahead][0] <= p:   # this run and those before it
            width = runs[ahead][1] - runs[ahead][0]
            queue = later[width]
            queue.popleft()
            if not queue:
                del later[width]
                lengths.remove(width)
            ahead += 1
        end = runs[ahead - 1][1]
        width = end - p
        fits = bisect.bisect_right(lengths, width)
        closing = lengths[fits - 1] if fits else 0       # the longest opening a later run closes
        half = width // 2 if width % 2 == 0 else 0       # `\`\`` read as an opening and its close
        if closing and closing >= half:
            pos = runs[later[closing][0]][1]
            found.append((p, pos, None))
        elif half:
            found.append((p, end, None))
            pos = end
        else:
            pos = p + 1


def _jsx_words(match: "re.Match[str]") -> str:
    """An MDX component tag shows nothing but its `label` or `title` (a tab's name)."""
    label = _JSX_LABEL.search(match.group(0))
    return f" {label.group(1) or label.group(2)} " if label and (label.group(1) or label.group(2)) else ""


def _tooltip_words(match: "re.Match[str]") -> str:
    """`ORM (Object Relational Mapper)`: the words, then the tooltip a reader sees on hover."""
    words, tip = match.group(4), (match.group(2) or match.group(3) or "").strip()
    return f"{words} ({tip})" if tip and tip.lower() != words.strip().lower() else words


_ROLE_TARGET = re.compile(r"<[^<>]*>\n?\Z")


def numbered_reference(name: str, content: str) -> Optional[str]:
    """What Sphinx shows for a role that cites a numbered standard by its number:
    `:pep:`518`` is PEP 518 and `:rfc:`2119`` RFC 2119 (an anchor, `8#id3`, aside);
    None for any other role or content."""
    name = name.rsplit(":", 1)[-1].lower()
    if name in ("pep", "rfc"):
        number = content.split("#", 1)[0].strip()
        if number.isdigit():
            return f"{name.upper()} {number}"
    return None


def role_words(content: str) -> str:
    """What a role shows: `words <target>` → words; `~a.b` and `!a` → a.b, a."""
    end = content.rfind(">")
    start = content.rfind("<", 0, end) if end >= 0 else -1
    if start >= 0 and _ROLE_TARGET.match(content, start):
        words = content[:start].strip()
        if words:
            return words
    return content.lstrip("~!.")   # Sphinx shows `.Flask.route` (a search for a suffix) as Flask.route
