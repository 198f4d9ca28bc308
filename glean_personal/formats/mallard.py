"""Mallard help pages, the format GNOME's help is written in, read as the page Yelp shows.

Every GNOME application installs its help as Mallard XML in `/usr/share/help/C/APP/`
(`gnome-help/a11y-bouncekeys.page`), one short topic a file; Yelp renders them
directly, so no HTML is built from them. Read as plain text they were their
tags: the page's `<info>` block of credits, revisions and e-mail addresses came
first, and the title was the file name. Here each element is given the part an
HTML element plays: the page's `<title>` is its heading and its title, a
`<section>`'s title a heading one level below, paragraphs, steps and list items
end a paragraph, `<screen>` keeps its line breaks, and inline elements (`<gui>`,
`<key>`, `<link>`, `<app>`, `<cmd>`) are text in the line. The `<info>` blocks
are left out except the page's one-line description (`<desc>`), which Yelp shows
under the page's title wherever another page lists it, placed after the title;
so are editors' `<comment>`s and media. Conditional text (`<if:when>`,
`<if:else>`) is kept, every branch. A link with no words of its own shows its
target's title, which is in another file: it shows nothing here.
"""
from __future__ import annotations

import re
from typing import Callable, Iterator, List, Optional, Tuple

from ..config import Limits
from ..document import Document
from .encoding import decode_text
from .htmltext import _document, _parse
from .xmlhtml import XmlAsHtmlParser

# `<page xmlns="http://projectmallard.org/1.0/" …>`, after an XML declaration and comments.
_MALLARD = re.compile(
    r"""(?:<\?xml[^>]{0,300}\?>\s*)?(?:<!--(?:[^-]|-(?!->)){0,4000}-->\s*)*"""
    r"""<page\b[^>]{0,1000}?xmlns\s*=\s*["']http://projectmallard\.org/1\.0/?["']""")
# Elements that hold a section, whose first `<title>` heads it.
_SECTIONS = frozenset({"page", "section"})
# Elements read as HTML ones; anything not named here runs on in the line.
_AS_HTML = {
    "p": "p", "screen": "pre", "steps": "ol", "list": "ul", "tree": "ul",
    "item": "li", "terms": "dl", "note": "div", "figure": "div", "example": "div",
    "synopsis": "div", "listing": "div", "quote": "blockquote", "cite": "p", "desc": "p",
    "table": "table", "thead": "thead", "tbody": "tbody", "tfoot": "tbody", "tr": "tr",
    "td": "td", "th": "td",
    # no words a reader sees: editors' remarks, media (its fallback), generated link lists
    "comment": "template", "media": "template", "links": "template", "include": "template",
}
# Inline elements set apart from the words before them: each key of `<keyseq>` and
# each item of `<guiseq>` (`Shift Delete`, `Settings Display`, as Yelp's `+` and `▸`).
_APART = frozenset({"key", "gui"})
# An `<info>` block (the page's or a section's) holds credits, revisions, licence and
# links; `<desc>`, in it, the page's description; `<code>` is a block (a file's
# lines, kept) or words in a line, a block holding a line break (`_elements`).
_TITLE_END = re.compile(r"</title\s*>")


def looks_like_mallard(head: str) -> bool:
    """Whether text (the first 64 KB of a file) is a Mallard page."""
    return _MALLARD.match(head.lstrip()) is not None


def read_mallard(data: bytes, limits: Limits) -> Document:
    """A Mallard page: its title heads it, sections under it, as Yelp shows it."""
    text = decode_text(data)
    desc = _page_desc(text)
    text = _code_blocks(_replaced(text, "info", lambda whole, tag, inner: ""))
    if desc:
        end = _TITLE_END.search(text)
        if end is not None:   # the description under the page's title
            text = f"{text[:end.end()]}<desc>{desc}</desc>{text[end.end():]}"
    return _document(_parse(text.encode("utf-8"), limits, _MallardParser), limits)


def _elements(text: str, name: str) -> Iterator[Tuple[int, int, int, int]]:
    """Where each `<name …>…</name>` element (not nested) of `text` begins, where its
    start tag ends, where its end tag begins and where it ends; a `<name …/>` is
    one tag (its inner text empty). In one pass over the text: once a start tag
    has no end tag after it, no later one has (a pattern of `<info>.*?</info>`
    looked for one after each unclosed `<info>`: 20,000 of them cost 17 CPU s)."""
    opening = re.compile(rf"<{name}\b[^>]*>")
    closing = re.compile(rf"</{name}\s*>")
    pos = 0
    while True:
        start = opening.search(text, pos)
        if start is None:
            return
        if start.group(0).endswith("/>"):
            yield start.start(), start.end(), start.end(), start.end()
            pos = start.end()
            continue
        end = closing.search(text, start.end())
        if end is None:
            return
        yield start.start(), start.end(), end.start(), end.end()
        pos = end.end()


def _replaced(text: str, name: str, how: Callable[[str, str, str], str]) -> str:
    """`text` with each `name` element replaced by `how(element, its start tag, its
    inner text)`."""
    out: List[str] = []
    pos = 0
    for start, inner, inner_end, end in _elements(text, name):
        out += [text[pos:start], how(text[start:end], text[start:inner], text[inner:inner_end])]
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _code_blocks(text: str) -> str:
    """Each `<code>` of several lines as a `<screen>`, its lines kept."""
    def block(whole: str, tag: str, inner: str) -> str:
        return f"<screen{tag[5:-1]}>{inner}</screen>" if "\n" in inner else whole
    return _replaced(text, "code", block)


def _page_desc(text: str) -> Optional[str]:
    """The page's own description: the `<desc>` of the first `<info>` block, when that
    block comes before the page's title (a section's is the section's)."""
    info = next(_elements(text, "info"), None)
    title = text.find("<title")
    if info is None or (0 <= title < info[0]):
        return None
    block = text[info[1]:info[2]]
    desc = next(_elements(block, "desc"), None)
    return block[desc[1]:desc[2]].strip() if desc else None


class _MallardParser(XmlAsHtmlParser):
    """The HTML reader's parser, given Mallard's elements as the HTML they stand for."""

    sections, as_html, apart = _SECTIONS, _AS_HTML, _APART
