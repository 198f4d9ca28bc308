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
from typing import Optional

from ..config import Limits
from ..document import Document
from .encoding import decode_text
from .htmltext import _document, _parse, _TextParser

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
# An `<info>` block (the page's or a section's): credits, revisions, licence, links.
_INFO = re.compile(r"<info\b[^>]*>.*?</info\s*>|<info\b[^>]*/>", re.DOTALL)
_DESC = re.compile(r"<desc\b[^>]*>(.*?)</desc\s*>", re.DOTALL)
_TITLE_END = re.compile(r"</title\s*>")
# `<code>` is a block (a file's lines, kept) or words in a line; a block holds a line break.
_CODE = re.compile(r"<code\b([^>]*)>(.*?)</code\s*>", re.DOTALL)


def looks_like_mallard(head: str) -> bool:
    """Whether text (the first 64 KB of a file) is a Mallard page."""
    return _MALLARD.match(head.lstrip()) is not None


def read_mallard(data: bytes, limits: Limits) -> Document:
    """A Mallard page: its title heads it, sections under it, as Yelp shows it."""
    text = decode_text(data)
    desc = _page_desc(text)
    text = _CODE.sub(_code, _INFO.sub("", text))
    if desc:
        end = _TITLE_END.search(text)
        if end is not None:   # the description under the page's title
            text = f"{text[:end.end()]}<desc>{desc}</desc>{text[end.end():]}"
    return _document(_parse(text.encode("utf-8"), limits, _MallardParser), limits)


def _code(m: "re.Match[str]") -> str:
    """A `<code>` of several lines as a `<screen>`, its lines kept."""
    return f"<screen{m.group(1)}>{m.group(2)}</screen>" if "\n" in m.group(2) else m.group(0)


def _page_desc(text: str) -> Optional[str]:
    """The page's own description: the `<desc>` of the first `<info>` block, when that
    block comes before the page's title (a section's is the section's)."""
    info = _INFO.search(text)
    title = text.find("<title")
    if info is None or (0 <= title < info.start()):
        return None
    found = _DESC.search(info.group(0))
    return found.group(1).strip() if found else None


class _MallardParser(_TextParser):
    """The HTML reader's parser, given Mallard's elements as the HTML they stand for."""

    def __init__(self, budget: int, rescans: int = 1 << 62) -> None:
        super().__init__(budget, rescans)
        self._depth = 0             # open page and section elements
        self._title_next = False    # the next <title> heads the section just opened
        self._open_title: Optional[str] = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        tag = tag.rsplit(":", 1)[-1]   # `if:when`, `ui:expander`
        if tag in _SECTIONS:
            self._depth += 1
            self._title_next = True
            super().handle_starttag("section", [])
            return
        if tag == "title":
            if self._title_next and self._open_title is None:
                self._open_title = f"h{min(max(self._depth, 1), 6)}"
            else:
                self._open_title = "p"   # a list's, a table's or a note's caption
            self._title_next = False
            super().handle_starttag(self._open_title, [])
            return
        mapped = _AS_HTML.get(tag)
        if mapped is None:
            if tag in _APART:
                self._space()
            return   # inline: its words run on in the line
        self._title_next = False   # text came first: a later title is a caption
        super().handle_starttag(mapped, [])

    def handle_endtag(self, tag: str) -> None:
        tag = tag.rsplit(":", 1)[-1]
        if tag in _SECTIONS:
            self._depth = max(0, self._depth - 1)
            self._title_next = False
            super().handle_endtag("section")
            return
        if tag == "title":
            if self._open_title is not None:
                super().handle_endtag(self._open_title)
                self._open_title = None
            return
        mapped = _AS_HTML.get(tag)
        if mapped is not None:
            super().handle_endtag(mapped)

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        tag = tag.rsplit(":", 1)[-1]
        if tag in _SECTIONS or tag == "title" or tag in _AS_HTML:
            self.handle_starttag(tag, attrs)
            self.handle_endtag(tag)
        # `<link xref="files-recover"/>`: its words are its target's title, in another file
