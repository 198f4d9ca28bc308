"""HTML through the standard library's tolerant `html.parser`.

What a browser would show as words is what gets indexed: script, style,
noscript and template bodies are dropped, block elements separate words so
"end</p><p>start" never becomes one token, `<pre>` keeps its line breaks and
headings make sections. Parser state is a handful of counters, never an
element stack, so a page nested 100,000 levels deep costs no more than a
flat one.
"""
from __future__ import annotations

import codecs
import re
from html.parser import HTMLParser
from typing import List, Optional, Tuple

from ..config import Limits
from ..document import Document
from .encoding import bom_encoding, decode_text
from .sections import CELL_SEPARATOR, SectionBuilder

_DROPPED = frozenset({"script", "style", "noscript", "template"})
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
# Elements that end a paragraph where they start and where they end.
_PARAGRAPH_BLOCKS = frozenset("""
    address article aside blockquote body caption center dd details dialog dir
    div dl dt fieldset figcaption figure footer form frameset head header hgroup
    hr html legend li main menu nav ol p pre section summary table tbody tfoot
    thead tr ul option optgroup select textarea iframe video audio canvas
""".split())
_CELLS = frozenset({"td", "th"})
# Inline elements that sit side by side in menus and toolbars ("<a>Docs</a><a>API</a>"):
# a space at their edges keeps them separate words.
_WORD_EDGES = frozenset({"a", "button", "img", "input", "label", "svg"})
_MAX_HEADING_CHARS = 300   # a longer "heading" is an unclosed tag swallowing the page
_MAX_TITLE_CHARS = 500
_META_CHARSET = re.compile(
    rb"""<meta[^>]*?charset\s*=\s*["']?\s*([-\w.:]+)""", re.IGNORECASE)
# Whitespace runs other than a lone space: prose has none, so collapsing is a scan.
_WHITESPACE = re.compile(r"[^\S ]\s*| \s+")
# Word's "<![if !supportLists]>" ... "<![endif]>" markers: no text of their own.
_CONDITIONAL = re.compile(r"<!\[(?:if [^\]>]{0,200}|endif)\]>", re.IGNORECASE)
# The WHATWG encoding standard reads these labels as windows-1252.
_AS_CP1252 = {"iso8859-1", "latin-1", "ascii", "iso8859-9", "cp1252"}


def read_html(data: bytes, limits: Limits) -> Document:
    """Visible text of an HTML page, sectioned by h1-h6."""
    text = defuse(decode_text(data, declared=sniff_charset(data)))
    parser = _TextParser(SectionBuilder(limits.max_text_chars))
    try:
        parser.feed(text)
        parser.close()
    except _Full:
        pass
    sections = parser.finish()
    title = parser.title or parser.first_h1 or ""
    return Document(title=title, format="html", sections=sections)


def sniff_charset(data: bytes) -> Optional[str]:
    """The encoding a `<meta>` tag declares in the first 2 KB, if usable."""
    if bom_encoding(data)[0]:
        return None
    match = _META_CHARSET.search(data[:2048])
    if not match:
        return None
    try:
        name = codecs.lookup(match.group(1).decode("ascii")).name
    except (LookupError, UnicodeDecodeError):
        return None
    if name.startswith(("utf-16", "utf-32")):
        return "utf-8"   # a page that can declare itself in ASCII is not UTF-16
    return "cp1252" if name in _AS_CP1252 else name


def defuse(text: str) -> str:
    """Remove the constructs that make `html.parser` quadratic, in linear time.

    The parser rescans to the end of the input for every `<` that opens
    something it cannot close (a tag with no `>` after it, a comment with
    no `-->`), so a 1 MB file of `<a x` takes minutes. Comments and marked
    sections are removed here (they carry no visible text), unclosed ones are
    turned into text, and so is every `<` after the last `>`.
    """
    text = _CONDITIONAL.sub("", text)
    text = _strip_between(text, "<!--", "-->")
    text = _strip_between(text, "<![", "]]>")
    last = text.rfind(">")
    return text[: last + 1] + text[last + 1:].replace("<", "&lt;")


def _strip_between(text: str, opener: str, closer: str) -> str:
    out: List[str] = []
    pos = 0
    unclosed_from: Optional[int] = None   # no closer exists after this point
    while True:
        start = text.find(opener, pos)
        if start < 0:
            break
        end = -1 if unclosed_from is not None else text.find(closer, start + len(opener))
        if end < 0:
            unclosed_from = start
            out.append(text[pos:start] + "&lt;" + opener[1:])
            pos = start + len(opener)
            continue
        out.append(text[pos:start])
        pos = end + len(closer)
    out.append(text[pos:])
    return "".join(out)


class _Full(Exception):
    """Raised inside the parser once the text budget is spent."""


class _TextParser(HTMLParser):
    def __init__(self, builder: SectionBuilder) -> None:
        super().__init__(convert_charrefs=True)
        self.builder = builder
        self.title: Optional[str] = None
        self.first_h1: Optional[str] = None
        self._raw_skip: Optional[str] = None   # inside <script>/<style> raw text
        self._skip_depth = 0                   # open noscript/template elements
        self._pre_depth = 0
        self._title_parts: Optional[List[str]] = None
        self._heading: Optional[Tuple[int, List[str]]] = None
        self._parts: List[str] = []            # the paragraph being built ("\n" = line break)
        self._line_has_text = False            # for placing cell separators
        self._pre_paragraph = False

    # -- tags ---------------------------------------------------------------
    def handle_starttag(self, tag: str, attrs: list) -> None:
        if self._raw_skip:
            return
        if tag in _DROPPED:
            if tag in ("script", "style"):
                self._raw_skip = tag
            else:
                self._skip_depth += 1
            return
        if self._skip_depth:
            return
        if tag == "title" and self.title is None and self._heading is None:
            self._title_parts = []
        elif tag in _HEADINGS:
            self._end_heading()
            self._flush()
            self._heading = (_HEADINGS[tag], [])
        elif tag == "br":
            self._newline()
        elif tag in _CELLS:
            if self._line_has_text:
                self._parts.append(CELL_SEPARATOR)
        elif tag in _WORD_EDGES:
            self._space()
        elif tag in _PARAGRAPH_BLOCKS:
            self._flush()
            if tag == "pre":
                self._pre_depth += 1
                self._pre_paragraph = True

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        if tag in _DROPPED:
            return   # <script/> has no body to drop
        self.handle_starttag(tag, attrs)
        if tag not in ("br", "hr"):
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if self._raw_skip:
            if tag == self._raw_skip:
                self._raw_skip = None
            return
        if tag in ("noscript", "template"):
            self._skip_depth = max(0, self._skip_depth - 1)
            return
        if self._skip_depth:
            return
        if tag == "title" and self._title_parts is not None:
            self.title = _collapse("".join(self._title_parts))[:_MAX_TITLE_CHARS] or None
            self._title_parts = None
        elif tag in _HEADINGS:
            self._end_heading()
        elif tag in _WORD_EDGES:
            self._space()
        elif tag in _PARAGRAPH_BLOCKS:
            if tag == "pre" and self._pre_depth:
                self._pre_depth -= 1
            self._flush()

    # -- text ---------------------------------------------------------------
    def handle_data(self, data: str) -> None:
        if self._raw_skip or self._skip_depth:
            return
        if self._title_parts is not None:
            self._title_parts.append(data)
        elif self._heading is not None:
            self._heading[1].append(data)
        else:
            self._parts.append(data if self._pre_depth else _squeeze(data))
            if not self._line_has_text and data.strip():
                self._line_has_text = True

    def _space(self) -> None:
        if self._heading is not None:
            self._heading[1].append(" ")
        elif not self._pre_depth:
            self._parts.append(" ")

    def _newline(self) -> None:
        if self._heading is not None:
            self._heading[1].append(" ")
        else:
            self._parts.append("\n")
            self._line_has_text = False

    def _end_heading(self) -> None:
        if self._heading is None:
            return
        level, parts = self._heading
        self._heading = None
        text = _collapse("".join(parts))
        if len(text) > _MAX_HEADING_CHARS:
            self.builder.paragraph(text)
            return
        self.builder.heading(level, text)
        if level == 1 and self.first_h1 is None and text:
            self.first_h1 = text

    def _flush(self) -> None:
        joined = "".join(self._parts)
        if self._pre_paragraph:
            text = joined.strip("\n")
        else:
            text = "\n".join(_collapse(line) for line in joined.split("\n") if line.strip())
        self._parts = []
        self._line_has_text = False
        self._pre_paragraph = bool(self._pre_depth)
        if text.strip():
            self.builder.paragraph(text)
            if self.builder.full:
                raise _Full()

    def finish(self) -> list:
        if self._title_parts is not None:   # <title> never closed
            self.title = _collapse("".join(self._title_parts))[:_MAX_TITLE_CHARS] or None
        self._end_heading()
        try:
            self._flush()
        except _Full:
            pass
        return self.builder.build()


def _squeeze(text: str) -> str:
    """Each run of whitespace made one space."""
    # Every whitespace character but the space is unprintable: prose skips the regex.
    if text.isprintable() and "  " not in text:
        return text
    return _WHITESPACE.sub(" ", text)


def _collapse(text: str) -> str:
    return _squeeze(text).strip()
