"""EPUB 2 and 3 ebooks: chapters in reading order, through the HTML reader.

`META-INF/container.xml` names the package document (OPF); its manifest and
spine give the chapters in reading order, its metadata the title and the
authors. Chapter titles come from the navigation document (EPUB 3
`nav.xhtml`) or the NCX (EPUB 2 `toc.ncx`): the first entry that points into
a chapter names it, and the chapter's own headings sit below that name.

The ZIP goes through the same `Package` as the Office readers, so the same
inflation caps hold; the one difference is that XHTML and NCX files carry a
`<!DOCTYPE>` by tradition, so only entity declarations are refused.
Chapters are read as HTML (tolerant of the broken markup real books have),
never by an XML parser.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Dict, List, Optional, Tuple

from ..config import Limits
from ..document import Document, Section
from ..errors import SkipFile
from .encoding import decode_text
from .htmltext import read_html, sniff_charset
from .package import Package, PartError, local, resolve_target
from .titles import usable_title

_HTML_TYPES = ("application/xhtml+xml", "text/html", "application/x-dtbook+xml",
               "text/x-oeb1-document")
_CONTAINER = "META-INF/container.xml"
_MAX_AUTHORS = 10
_MAX_LABEL_CHARS = 200
_WORDS = re.compile(r"\w+")
_BODY_OPEN = re.compile(rb"<body\b[^>]*>", re.IGNORECASE)
# The block of a chapter's notes (pandoc's `<section epub:type="footnotes">`,
# `role="doc-endnotes"`): it gets a heading of its own, so the notes are not
# filed under the chapter's last subsection.
_NOTES_BLOCK = re.compile(
    rb"<(?:section|aside|div|ol)\b[^>]*?(?:epub:type|role)\s*=\s*[\"'][^\"']*?"
    rb"\b(?:doc-)?(footnotes|endnotes|rearnotes)\b[^>]*>", re.IGNORECASE)
_HEADING_LEVEL = re.compile(rb"<h([1-6])\b", re.IGNORECASE)
# A note's link back to where it is called (`<a role="doc-backlink">↩︎</a>`): an arrow, no words.
_BACKLINK = re.compile(
    rb"<a\b[^>]*?(?:role\s*=\s*[\"']doc-backlink|class\s*=\s*[\"'][^\"']*?\bfootnote-back\b)"
    rb"[^>]*>[^<]{0,16}</a>", re.IGNORECASE)


class _Item:
    def __init__(self, part: Optional[str], media_type: str, properties: str) -> None:
        self.part = part
        self.media_type = media_type
        self.properties = properties.split()


def read_epub(data: bytes, limits: Limits) -> Document:
    """Title and authors, then each spine document's sections under its chapter title."""
    pkg = Package(data, "epub", limits, doctype_ok=True)
    warnings: List[str] = []
    opf = _package_document(pkg)
    try:
        root = pkg.tree(opf)
    except PartError as exc:
        raise SkipFile(f"not a valid .epub file ({exc})") from None
    title, authors, description = _metadata(root)
    manifest, spine, ncx_id = _manifest_and_spine(root, opf)
    if not spine:
        raise SkipFile("not a valid .epub file (its spine lists no chapters)")
    _refuse_drm(pkg, {manifest[i].part for i in spine if i in manifest})
    labels = _chapter_labels(pkg, manifest, ncx_id, warnings)

    sections: List[Section] = []
    front = "\n".join(f"Author: {name}" for name in authors)
    if description:
        front = f"{front}\n\n{description}" if front else description
    if front:
        sections.append(Section((), front))
    used = sum(len(s.text) for s in sections)
    for idref in spine:
        if used > limits.max_text_chars:
            break
        item = manifest.get(idref)
        if item is None or item.part is None or not pkg.has(item.part):
            warnings.append(f"spine item {idref!r} skipped: missing from the file")
            continue
        if item.media_type not in _HTML_TYPES or "nav" in item.properties:
            continue   # images, SVG pages, and the table of contents itself
        raw = pkg.read(item.part)   # past the ZIP caps this skips the book
        if not raw.strip():
            continue
        try:
            chapter = read_html(_as_main_content(_notes_apart(raw)), limits)
        except SkipFile as exc:    # binary content in a chapter costs only the chapter
            warnings.append(f"chapter {item.part} not read: {exc}")
            continue
        label, entries = labels.get(item.part.lower(), (None, 0))
        for sec in chapter.sections:
            # A file the table of contents enters more than once holds several
            # chapters, whose own headings name them; only text before them
            # takes the first entry's title.
            under = label if entries == 1 or not sec.heading else None
            sections.append(Section(_under(under, sec.heading), sec.text))
            used += len(sec.text)
    if not title:
        title = next((label for label, _ in labels.values()), "")
    return Document(title=title, format="epub", sections=sections, warnings=warnings)


def _notes_apart(raw: bytes) -> bytes:
    """The chapter with its notes block under a `Footnotes` (or `Endnotes`) heading
    and without the notes' back-link arrows."""
    levels = [int(level) for level in _HEADING_LEVEL.findall(raw)]
    # one level below the chapter's top heading: "Plots › Footnotes", not "Plots › Compost › …"
    tag = b"h%d" % (min(min(levels) + 1, 6) if levels else 1)

    def heading(match: "re.Match[bytes]") -> bytes:
        name = b"Footnotes" if match.group(1).lower() == b"footnotes" else b"Endnotes"
        return match.group(0) + b"<" + tag + b">" + name + b"</" + tag + b">"
    return _NOTES_BLOCK.sub(heading, _BACKLINK.sub(b"", raw), count=1)


def _as_main_content(raw: bytes) -> bytes:
    """The chapter with its body marked as the main content.

    The HTML reader drops a web page's frame, which includes a `<header>`
    outside the main content; in a book that is where a chapter keeps its
    title (`<section><header><h2>I</h2>…`). A chapter has no site frame, so its
    whole body is its main content.
    """
    body = _BODY_OPEN.search(raw)
    close = raw.rfind(b"</body")
    if body is None or close < body.end():
        return raw
    return raw[:body.end()] + b"<main>" + raw[body.end():close] + b"</main>" + raw[close:]


def _package_document(pkg: Package) -> str:
    """The OPF part named by container.xml, else the only .opf in the ZIP."""
    if pkg.has(_CONTAINER):
        try:
            root = pkg.tree(_CONTAINER)
        except PartError as exc:
            raise SkipFile(f"not a valid .epub file ({exc})") from None
        for elem in root.iter():
            if local(elem.tag) == "rootfile":
                part = resolve_target("", elem.get("full-path", ""))
                if part and pkg.has(part) and elem.get("media-type", "").endswith("package+xml"):
                    return part
    found = [name for name in pkg.names() if name.lower().endswith(".opf")]
    if found:
        return found[0]
    raise SkipFile("not a valid .epub file (no package document)")


def _metadata(root) -> Tuple[str, List[str], str]:
    """dc:title, the dc:creator names (authors), and dc:description as text."""
    title, authors, description = "", [], ""
    for elem in root.iter():
        name = local(elem.tag)
        text = " ".join("".join(elem.itertext()).split())
        if not text or not elem.tag.startswith("{http://purl.org/dc/elements/1.1/}"):
            continue
        if name == "title" and not title:
            title = (usable_title(text) or "")[:_MAX_LABEL_CHARS * 2]
        elif name == "creator" and text not in authors and len(authors) < _MAX_AUTHORS:
            authors.append(text[:_MAX_LABEL_CHARS])
        elif name == "description" and not description:
            description = _plain(text) if "<" in text else text
    return title, authors, description


def _plain(markup: str) -> str:
    """A description that holds escaped HTML, as its words."""
    doc = read_html(markup.encode("utf-8"), Limits())
    return "\n\n".join(s.text for s in doc.sections)


def _manifest_and_spine(root, opf: str) -> Tuple[Dict[str, _Item], List[str], Optional[str]]:
    manifest: Dict[str, _Item] = {}
    spine: List[str] = []
    ncx_id: Optional[str] = None
    for elem in root.iter():
        name = local(elem.tag)
        if name == "item" and elem.get("id"):
            manifest[elem.get("id", "")] = _Item(
                resolve_target(opf, elem.get("href", "")),
                elem.get("media-type", "").strip().lower(), elem.get("properties", ""))
        elif name == "spine":
            ncx_id = elem.get("toc")
        elif name == "itemref" and elem.get("idref"):
            spine.append(elem.get("idref", ""))
    return manifest, spine, ncx_id


def _refuse_drm(pkg: Package, chapters: set) -> None:
    """Skip a book whose chapters are encrypted (font obfuscation is harmless)."""
    if not pkg.has("META-INF/encryption.xml"):
        return
    try:
        root = pkg.tree("META-INF/encryption.xml")
    except PartError:
        return
    for elem in root.iter():
        if local(elem.tag) == "CipherReference":
            if resolve_target("", elem.get("URI", "")) in chapters:
                raise SkipFile("DRM-protected .epub file (its chapters are encrypted)")


def _chapter_labels(pkg: Package, manifest: Dict[str, _Item], ncx_id: Optional[str],
                    warnings: List[str]) -> Dict[str, Tuple[str, int]]:
    """Chapter part (lower case) -> (its first title in the navigation document or
    NCX, how many entries point into it)."""
    nav = next((item.part for item in manifest.values()
                if "nav" in item.properties and item.part and pkg.has(item.part)), None)
    entries: List[Tuple[str, str]] = []
    if nav:
        parser = _NavParser()
        raw = pkg.read(nav)
        try:
            parser.feed(decode_text(raw, declared=sniff_charset(raw)))
            parser.close()
        except SkipFile as exc:
            warnings.append(f"navigation document not read ({exc})")
        entries = [(resolve_target(nav, href) or "", text) for href, text in parser.entries]
    ncx = manifest.get(ncx_id or "")
    ncx_part = ncx.part if ncx else next(
        (item.part for item in manifest.values()
         if item.media_type == "application/x-dtbncx+xml" and item.part), None)
    if not entries and ncx_part and pkg.has(ncx_part):
        try:
            entries = _ncx_entries(pkg, ncx_part)
        except PartError as exc:
            warnings.append(f"table of contents not read ({exc})")
    labels: Dict[str, Tuple[str, int]] = {}
    for part, text in entries:
        text = " ".join(text.split())[:_MAX_LABEL_CHARS]
        if part and text:
            first, count = labels.get(part.lower(), (text, 0))
            labels[part.lower()] = (first, count + 1)
    return labels


def _ncx_entries(pkg: Package, part: str) -> List[Tuple[str, str]]:
    """(target part, label) of every navPoint, in document order."""
    entries: List[Tuple[str, str]] = []
    pending: List[List[str]] = []   # label text of each open navPoint
    for event, elem in pkg.events(part):
        name = local(elem.tag)
        if event == "start":
            if name == "navPoint":
                pending.append([])
            continue
        if name == "text" and pending and not pending[-1]:
            pending[-1].append(elem.text or "")
        elif name == "content" and pending:
            entries.append((resolve_target(part, elem.get("src", "")) or "",
                            "".join(pending[-1])))
        elif name == "navPoint" and pending:
            pending.pop()
            elem.clear()
    return entries


class _NavParser(HTMLParser):
    """The links of the EPUB 3 `<nav epub:type="toc">` (else of the first nav)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.entries: List[Tuple[str, str]] = []
        self._fallback: List[Tuple[str, str]] = []
        self._nav = 0            # open <nav> elements
        self._toc = False        # the open nav is the toc
        self._seen_toc = False
        self._link: Optional[Tuple[str, List[str]]] = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        values = dict(attrs)
        if tag == "nav":
            self._nav += 1
            if self._nav == 1:
                self._toc = "toc" in (values.get("epub:type") or "").split() or \
                    values.get("role") == "doc-toc"
        elif tag == "a" and self._nav and values.get("href"):
            self._link = (values.get("href") or "", [])

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._link is not None:
            href, parts = self._link
            self._link = None
            entry = (href, "".join(parts))
            if self._toc:
                self.entries.append(entry)
            elif not self._seen_toc:
                self._fallback.append(entry)
        elif tag == "nav" and self._nav:
            self._nav -= 1
            if not self._nav:
                self._seen_toc = self._seen_toc or self._toc
                self._toc = False

    def handle_data(self, data: str) -> None:
        if self._link is not None:
            self._link[1].append(data)

    def close(self) -> None:
        super().close()
        if not self.entries:
            self.entries = self._fallback


def _under(label: Optional[str], heading: Tuple[str, ...]) -> Tuple[str, ...]:
    """A chapter section's heading path, under the chapter title unless it repeats it."""
    if not label:
        return heading
    if heading and _WORDS.findall(heading[0].lower()) == _WORDS.findall(label.lower()):
        return heading
    return (label,) + heading
