"""XML manuals read as the HTML their elements stand for (DocBook, Mallard).

A reader names its elements: those that open a section, whose first title
heads it a level below its parent's; its titles; those that play an HTML
element's part (a paragraph, a list item, a listing); and inline ones set
apart from the words around them. Anything else runs on in the line. The
HTML reader's parser does the rest, with its bounds.
"""
from __future__ import annotations

from typing import Dict, FrozenSet, Optional

from .htmltext import _TextParser


class XmlAsHtmlParser(_TextParser):
    """The HTML reader's parser, given a manual's XML elements as the HTML they stand for."""

    sections: FrozenSet[str] = frozenset()   # elements that hold a section
    titles: FrozenSet[str] = frozenset({"title"})
    as_html: Dict[str, str] = {}             # element -> the HTML element it reads as
    apart: FrozenSet[str] = frozenset()      # inline, set apart from the word before
    apart_after = False                      # ... and from the word after

    def __init__(self, budget: int, rescans: int = 1 << 62) -> None:
        super().__init__(budget, rescans)
        self._depth = 0             # open section elements
        self._title_next = False    # the next title heads the section just opened
        self._open_title: Optional[str] = None

    def held(self, tag: str, start: bool) -> bool:
        """Whether the reader takes this tag itself (DocBook's info blocks)."""
        return False

    def text_begins(self, tag: str, mapped: str) -> bool:
        """Whether the element is text, after which a title is a caption."""
        return True

    def handle_starttag(self, tag: str, attrs: list) -> None:
        tag = tag.rsplit(":", 1)[-1]   # `db:para`, `if:when`
        if tag in self.sections:
            self._depth += 1
            self._title_next = True
            super().handle_starttag("section", [])
            return
        if self.held(tag, True):
            return
        if tag in self.titles:
            if self._title_next and self._open_title is None:
                self._open_title = f"h{min(max(self._depth, 1), 6)}"
            else:
                self._open_title = "p"   # a list's, a table's or a note's caption
            self._title_next = False
            super().handle_starttag(self._open_title, [])
            return
        mapped = self.as_html.get(tag)
        if mapped is None:
            if tag in self.apart:
                self._space()
            return   # inline: its words run on in the line
        if self.text_begins(tag, mapped):
            self._title_next = False   # text came first: a later title is a caption
        super().handle_starttag(mapped, [])

    def handle_endtag(self, tag: str) -> None:
        tag = tag.rsplit(":", 1)[-1]
        if tag in self.sections:
            self._depth = max(0, self._depth - 1)
            self._title_next = False
            super().handle_endtag("section")
            return
        if self.held(tag, False):
            return
        if tag in self.titles:
            if self._open_title is not None:
                super().handle_endtag(self._open_title)
                self._open_title = None
            return
        mapped = self.as_html.get(tag)
        if mapped is not None:
            super().handle_endtag(mapped)
        elif self.apart_after and tag in self.apart:
            self._space()

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        tag = tag.rsplit(":", 1)[-1]
        if tag in self.sections or tag in self.titles or tag in self.as_html:
            self.handle_starttag(tag, attrs)
            self.handle_endtag(tag)
        # `<xref linkend="x"/>`, `<link xref="files-recover"/>`: their words are the
        # target's title, elsewhere
