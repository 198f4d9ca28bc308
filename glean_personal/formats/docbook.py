"""DocBook XML, the source many manuals are written in, read as the HTML it becomes.

Debian ships such sources beside their HTML (`libxslttutorial.xml.gz`,
`shared-mime-info-spec.xml.gz`). Read as plain text they were their tags:
`<para>`, `<application>libxslt</application>`, `<ulink url=…>`. Here each
element is given the part an HTML element plays: a `<title>` that opens a
section (`article`, `chapter`, `sect1`, `refsect1`…) is a heading one level
below its parent's, paragraphs, list items, table cells and program listings
end a paragraph, listings keep their line breaks, and everything else
(`emphasis`, `command`, `ulink`…) is text in the line. Index terms and
editorial remarks are left out. The HTML reader does the rest, with its
bounds: `html.parser` never expands an entity or reads a DTD, so a
`<!DOCTYPE>` with an internal subset costs nothing.
"""
from __future__ import annotations

import html
import html.entities
import re
from typing import Dict, List, Optional, Tuple

from ..config import Limits
from ..document import Document
from .encoding import decode_text
from .htmltext import _document, _parse
from .xmlhtml import XmlAsHtmlParser

# Elements that hold a section, whose first `<title>` heads it.
_SECTIONS = frozenset("""
    set book part chapter article appendix preface partintro reference refentry
    sect1 sect2 sect3 sect4 sect5 section simplesect refsect1 refsect2 refsect3
    refsection refsynopsisdiv glossary bibliography index colophon dedication
    acknowledgements topic
""".split())
# The information block of a section: its title is the section's.
_INFO = frozenset("""
    info articleinfo bookinfo chapterinfo appendixinfo prefaceinfo partinfo
    sectioninfo sect1info sect2info sect3info refentryinfo refmeta
""".split())
# Elements read as HTML ones; anything not named here runs on in the line.
_AS_HTML = {
    "para": "p", "simpara": "p", "formalpara": "p", "abstract": "div",
    "legalnotice": "div", "releaseinfo": "p", "copyright": "p", "author": "p",
    "authorgroup": "div", "address": "p", "blockquote": "blockquote",
    "note": "div", "tip": "div", "warning": "div", "caution": "div", "important": "div",
    "sidebar": "div", "example": "div", "informalexample": "div", "figure": "div",
    "informalfigure": "div", "equation": "div", "procedure": "ol", "step": "li",
    "itemizedlist": "ul", "orderedlist": "ol", "simplelist": "ul", "member": "li",
    "listitem": "li", "variablelist": "dl", "varlistentry": "div", "term": "dt",
    "glosslist": "dl", "glossentry": "div", "glossterm": "span", "glossdef": "dd",
    "qandaset": "div", "qandaentry": "div", "question": "div", "answer": "div",
    "table": "table", "informaltable": "table", "tgroup": "tbody", "thead": "thead",
    "tbody": "tbody", "row": "tr", "entry": "td",
    "programlisting": "pre", "screen": "pre", "literallayout": "pre", "synopsis": "pre",
    "funcsynopsis": "div", "funcprototype": "p", "cmdsynopsis": "p",
    "refnamediv": "div", "refname": "p", "refpurpose": "p", "refdescriptor": "p",
    "bridgehead": "p", "subtitle": "p", "caption": "p", "mediaobject": "div",
    # no text of their own: an index entry, an editor's remark, a graphic's data
    "indexterm": "template", "remark": "template", "imageobject": "template",
}
# Elements whose `<title>` is a caption, not a section's heading.
_CAPTIONED = frozenset({"table", "figure", "example", "equation", "formalpara",
                        "procedure", "sidebar", "note", "tip", "warning", "caution",
                        "important", "variablelist", "itemizedlist", "orderedlist",
                        "blockquote", "glosslist", "qandaset", "segmentedlist"})
_TITLES = frozenset({"title", "refentrytitle"})
# Inline elements set apart from the words around them (`system<citation>MIME</citation>`
# shows as `system MIME`), names written one after another (`<firstname>`, `<surname>`),
# and the keys of a combination (`<keycombo><keycap>Ctrl</keycap><keycap>S</keycap>`).
_APART = frozenset({"citation", "footnote", "firstname", "surname", "othername",
                    "honorific", "lineage", "year", "holder", "manvolnum", "term",
                    "keycap", "keysym"})

# `<!DOCTYPE article PUBLIC "-//OASIS//DTD DocBook XML V4.1.2//EN"`, or a variant of
# the DTD another body publishes (KDE's handbooks: `"-//KDE//DTD DocBook XML V4.5-Based
# Variant V1.1//EN"`), or a DocBook 5 root element in its namespace.
_DOCBOOK = re.compile(
    r"""<!DOCTYPE\s+[\w:-]+\s+PUBLIC\s+["']-//[^/"'<>]{1,80}//DTD\s+DocBook"""
    r"""|<[\w:]*(?:article|book|chapter|refentry|section|part|appendix|set)\b[^>]{0,500}?"""
    r"""xmlns(?::\w+)?\s*=\s*["']http://docbook\.org/ns/docbook["']""",
    re.IGNORECASE)


# A part of a manual kept in a file of its own (PostgreSQL's and pgpool-II's
# `doc/src/sgml/*.sgml`, KDE's `*.docbook` chapters, included by entity from the book's
# file): no DOCTYPE, but its first element, after an XML declaration and comments if
# any, is a DocBook section and its title follows.
_FRAGMENT = re.compile(
    r"(?:<\?xml\b[^<>]{0,200}\?>\s*)?"
    r"(?:<!--(?:[^-]|-(?!->)){0,2000}-->\s*)*"
    r"<(book|part|chapter|appendix|preface|reference|refentry|sect[1-5]|partintro|"
    r"glossary|bibliography|simplesect|refsect[1-3])\b[^<>]{0,500}>\s*"
    r"(?:<(?:\w*info|refmeta|indexterm)\b|<title>|<refentrytitle>)", re.IGNORECASE)


# Elements only DocBook has (no HTML, no common XML dialect): two of them, the file
# starting with markup, make a fragment too (a legal notice, an appendix's part).
_DOCBOOK_ONLY = re.compile(
    r"<(para|simpara|listitem|varlistentry|programlisting|productname|ulink|indexterm|"
    r"sect[1-5]|refsect[1-3]|refentry|refnamediv|tgroup|itemizedlist|orderedlist|"
    r"variablelist|citetitle|varname|replaceable|literallayout)\b")


def looks_like_docbook(head: str) -> bool:
    """Whether text (the first 64 KB of a file) is a DocBook document (XML, or SGML
    as PostgreSQL writes its manual), or a part of one in a file of its own."""
    head = head.lstrip()
    if head[:1] != "<":
        return False
    if _DOCBOOK.search(head, 0, 4096) is not None or _FRAGMENT.match(head[:4096]) is not None:
        return True
    return len({m.group(1) for m in _DOCBOOK_ONLY.finditer(head, 0, 8192)}) >= 2


def read_docbook(data: bytes, limits: Limits) -> Document:
    """A DocBook XML document: titles head sections, as its HTML build's would."""
    text = _without_cdata(_with_entities(decode_text(data), limits.max_text_chars))
    if "</>" in text:
        text = _sgml_end_tags(text)
    if "<xref" in text:
        text = _xref_labels(text)
    return _document(_parse(text.encode("utf-8"), limits, _DocBookParser), limits)


# `<!DOCTYPE article PUBLIC "…" "…" [ <!ENTITY version "0.21"> ]>`: the internal subset.
# A general entity with a literal value: `<!ENTITY version "0.21">` (not `%` or SYSTEM ones).
_ENTITY = re.compile(r"""<!ENTITY\s+([A-Za-z_][\w.-]{0,63})\s+(["'])([^"'&]{0,200})\2\s*>""")
_REFERENCE = re.compile(r"&([A-Za-z_][\w.-]{0,63});")
_MAX_DOCTYPE_CHARS = 65_536


def _with_entities(text: str, budget: int) -> str:
    """The document without its `<!DOCTYPE>`, and with the entities its internal
    subset declares with a short literal value (a manual page's `&dhpackage;`,
    a spec's `&version;`, `<firstname>Scott</firstname>`) replaced by that
    value, once: a value never holds a reference, so nothing expands twice,
    and the replacements stop when they have added as many characters as
    the document holds (or the text budget, if less): a value of tags
    replaced four million times cost 5 CPU s for a 1 MB file. Other references (to
    files, to a DTD's entities) stay as typed."""
    span = _doctype(text)
    if span is None:
        return _REFERENCE.sub(_unknown_reference, text) if "&" in text else text
    start, subset, end = span
    declared = {m.group(1) for m in _DECLARED.finditer(subset)}
    values = {m.group(1): " ".join(m.group(3).split()) for m in _ENTITY.finditer(subset)}
    rest = text[end:]
    if not values:
        return text[:start] + _REFERENCE.sub(lambda m: _unknown_reference(m, declared), rest)
    room = [min(budget, len(text))]

    def value(m: "re.Match[str]") -> str:
        got = values.get(m.group(1))
        if got is None:
            return _unknown_reference(m, declared)
        if room[0] < len(got):
            return m.group(0)
        room[0] -= len(got)
        return got if "<" in got else html.escape(got, quote=False)   # `<firstname>Scott</firstname>`

    return text[:start] + _REFERENCE.sub(value, rest)


# Any entity declaration's name (`<!ENTITY legal SYSTEM "legal.sgml">` too).
_DECLARED = re.compile(r"<!ENTITY\s+([A-Za-z_][\w.-]{0,63})\s")


# What a reference the file cannot resolve shows. KDE's handbooks take their words from
# kdoctools' entity files (its DTD), not in the file: `&kmymoney;` (455 times in KMyMoney's
# 31 chapters), `&kde;`, `&Qt;`, `&Ctrl;`, `&Enter;`. kdoctools names each entity as its
# text reads ("Naming policy: name the entity like you would see the text"), so the name
# is shown as a word; these few are abbreviations or a licence's line, the keys are keys
# (`<keycombo>&Ctrl;&Ins;</keycombo>`: two words), and ISO's Greek letters (`&agr;`,
# which DocBook's DTD defines and Gnumeric's manual uses) are letters.
_KNOWN_WORDS = {
    "eg": "e.g.", "ie": "i.e.", "etc": "etc.", "OS": "operating system",
    "LMB": "left mouse button", "MMB": "middle mouse button", "RMB": "right mouse button",
    "underGPL": "licensed under the GNU General Public License",
    "underLGPL": "licensed under the GNU Lesser General Public License",
    "underFDL": "licensed under the GNU Free Documentation License",
}
_KEYS = frozenset("Alt AltGr Backspace Ctrl Del Down End Enter Esc Home Ins Left Meta PgDn PgUp "
                  "Return Right Shift Space Tab Up".split())
_ISO_GREEK = dict(zip(
    "agr bgr ggr dgr egr zgr eegr thgr igr kgr lgr mgr ngr xgr ogr pgr rgr sgr sfgr tgr ugr "
    "phgr khgr psgr ohgr Agr Bgr Ggr Dgr Egr Zgr EEgr THgr Igr Kgr Lgr Mgr Ngr Xgr Ogr Pgr "
    "Rgr Sgr Tgr Ugr PHgr KHgr PSgr OHgr".split(),
    "αβγδεζηθικλμνξοπρσςτυφχψωΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ"))
_NAME_PARTS = re.compile(r"[._-]+")


def _unknown_reference(m: "re.Match[str]", declared: frozenset = frozenset()) -> str:
    """A reference the document declares but does not expand stays as typed (an
    HTML one is the HTML reader's, but for KDE's keys and `&eg;`). One neither HTML
    nor the document defines shows its name as words (`&kmymoney;` as *kmymoney*,
    `&Jack.H.Ostroff;` as *Jack H Ostroff*, `&version;` as *version*), or the text
    of `_KNOWN_WORDS` or `_ISO_GREEK`; a contributor's address
    (`&Jack.H.Ostroff.mail;`) shows nothing."""
    name = m.group(1)
    if name in declared:
        return m.group(0)
    if name in _KEYS:   # before HTML's `&Tab;` (a tab) and `&Del;` (∇)
        return f"<keycap>{name}</keycap>"
    known = _KNOWN_WORDS.get(name)   # before HTML's `&eg;` (⪚)
    if known:
        return known
    if name + ";" in html.entities.html5:
        return m.group(0)
    known = _ISO_GREEK.get(name)
    if known:
        return known
    if name.endswith(".mail"):
        return ""
    return " ".join(_NAME_PARTS.split(name)).strip()


def _doctype(text: str) -> Optional[Tuple[int, str, int]]:
    """Where the first `<!DOCTYPE …>` in the first 64 KB starts, its internal subset
    (between `[` and `]>`), and where it ends; one scan, whatever follows."""
    limit = min(len(text), _MAX_DOCTYPE_CHARS)
    found = _DOCTYPE_START.search(text, 0, limit)
    if found is None:
        return None
    start = found.start()
    close = text.find(">", start, limit)
    bracket = text.find("[", start, close if close >= 0 else limit)
    if bracket < 0:
        return (start, "", close + 1) if close >= 0 else None
    end = _SUBSET_END.search(text, bracket, limit)
    if end is None:
        return None
    return start, text[bracket + 1:end.start()], end.end()


_DOCTYPE_START = re.compile(r"<!DOCTYPE", re.IGNORECASE)
_SUBSET_END = re.compile(r"\][ \t\r\n]*>")


# SGML elements with no end tag (`<xref linkend="x">`, `<colspec colname="c1">`).
_SGML_EMPTY = frozenset("""
    xref anchor co coref footnoteref sbr void varargs area colspec spanspec graphic
    inlinegraphic imagedata audiodata videodata beginpage
""".split())
_TAG_NAME = re.compile(r"<(/?)([A-Za-z][\w.:-]*)")


def _sgml_end_tags(text: str) -> str:
    """SGML's empty end tag `</>` (`<literal>template0</>`) as the end tag it
    closes, which the HTML reader needs to end a title or a paragraph. One pass over
    the tags, comments and marked sections skipped whole; an open element with
    no end tag of its own stays open, as SGML allows only where the DTD says."""
    out: List[str] = []
    stack: List[str] = []
    open_count: Dict[str, int] = {}   # how many of each name the stack holds
    pos = 0
    while True:
        lt = text.find("<", pos)
        if lt < 0:
            break
        if text.startswith("<!--", lt) or text.startswith("<![", lt):
            end = text.find("-->" if text[lt + 2] == "-" else "]]>", lt + 3)
            if end < 0:
                break
            pos = end + 3
            continue
        gt = text.find(">", lt + 1)
        if gt < 0:
            break
        if gt == lt + 2 and text[lt + 1] == "/":   # `</>`
            closed = stack.pop() if stack else ""
            if closed:
                open_count[closed] -= 1
            out += [text[pos:lt], f"</{closed}>" if closed else ""]
            pos = gt + 1
            continue
        tag = _TAG_NAME.match(text, lt, gt)
        if tag:
            name = tag.group(2).lower()
            if tag.group(1):
                while open_count.get(name):   # what it closes, and what it leaves open inside
                    top = stack.pop()
                    open_count[top] -= 1
                    if top == name:
                        break
            elif text[gt - 1] != "/" and name not in _SGML_EMPTY:
                stack.append(name)
                open_count[name] = open_count.get(name, 0) + 1
        out.append(text[pos:gt + 1])
        pos = gt + 1
    out.append(text[pos:])
    return "".join(out)


_XREF = re.compile(r"""<xref\s+linkend\s*=\s*["']?([\w.:-]{1,200})["']?\s*/?>""")
_LABELLED = re.compile(r"""<\w[^<>]{0,500}?\bxreflabel\s*=\s*(?:"([^"<>]{0,200})"|'([^'<>]{0,200})')""")
_ID = re.compile(r"""\bid\s*=\s*["']?([\w.:-]{1,200})""")
# An element with an id whose title follows at once: `<sect1 id="ssl"> <title>SSL</title>`.
# The id is taken whole or not at all (a shorter part of it, retried against the rest of
# the tag for each length, cost 1.7 CPU s a MB of tags of long ids that fail).
_TITLED = re.compile(r"""<\w[^<>]{0,500}?\bid\s*=\s*["']?([\w.:-]{1,200})(?![\w.:-])["']?[^<>]{0,500}>\s*"""
                     r"""<title>([^<>]{1,200})</title>""")


def _xref_labels(text: str) -> str:
    """A cross-reference as the words the built page shows for it: the target's
    `xreflabel` (`<xref linkend="guc-max-pool">` to `<varlistentry id="guc-max-pool"
    xreflabel="max_pool">`) or title when it is in the same file, else the words of
    its target's name (`PCP-DETACH-NODE` as `pcp detach node`, a page of its own),
    as a Sphinx reference with no words shows its label's."""
    labels = {m.group(1): m.group(2) for m in _TITLED.finditer(text)}
    if "xreflabel" in text:
        for m in _LABELLED.finditer(text):
            found = _ID.search(m.group(0))
            if found:
                labels[found.group(1)] = m.group(1) if m.group(1) is not None else m.group(2)

    def shown(m: "re.Match[str]") -> str:
        label = labels.get(m.group(1))
        if label is None:
            label = " ".join(re.split(r"[-_.:]+", m.group(1).lower())).strip()
        return html.escape(" ".join(label.split()), quote=False)

    return _XREF.sub(shown, text)


def _without_cdata(text: str) -> str:
    """`<![CDATA[a < b]]>` as the text it holds (the HTML reader drops marked sections)."""
    out: List[str] = []
    pos = 0
    while True:
        start = text.find("<![CDATA[", pos)
        if start < 0:
            break
        end = text.find("]]>", start + 9)
        if end < 0:
            break   # unclosed: the HTML reader's own rules read it as text
        out += [text[pos:start], html.escape(text[start + 9:end], quote=False)]
        pos = end + 3
    out.append(text[pos:])
    return "".join(out)


class _DocBookParser(XmlAsHtmlParser):
    """The HTML reader's parser, given DocBook's elements as the HTML they stand for."""

    sections, titles, as_html, apart = _SECTIONS, _TITLES, _AS_HTML, _APART
    apart_after = True

    def __init__(self, budget: int, rescans: int = 1 << 62) -> None:
        super().__init__(budget, rescans)
        self._info = 0              # open info blocks (an author's address is no text yet)

    def held(self, tag: str, start: bool) -> bool:
        if tag not in _INFO:
            return False
        # its title is the section's: keep expecting it
        self._info = self._info + 1 if start else max(0, self._info - 1)
        return True

    def text_begins(self, tag: str, mapped: str) -> bool:
        return not self._info and (tag in _CAPTIONED or mapped in ("p", "pre", "li", "td", "dt"))
