"""Safe access to ZIP packages: Office Open XML (.docx/.xlsx/.pptx), and the
OpenDocument and EPUB containers, which are ZIPs of XML parts too.

Everything an Office reader touches goes through `Package`, which is where
the hostile-file rules live, once:

* a member is inflated in chunks and the real bytes are counted, per part
  and per document, whatever sizes the ZIP headers declare;
* members are only ever parsed as XML, so a ZIP inside the ZIP is never opened;
* an XML part that declares a DOCTYPE or ENTITY is refused before parsing
  (expat would expand a "billion laughs" internal DTD in memory); EPUB,
  whose XHTML and NCX files carry a harmless `<!DOCTYPE html>`, opens its
  package with `doctype_ok`, and then only entity declarations are refused;
* relationship targets are resolved inside the package only: external and
  absolute URIs and paths that climb out of the root resolve to nothing.
"""
from __future__ import annotations

import contextlib
import io
import posixpath
import re
import xml.etree.ElementTree as ET
import zipfile
from typing import Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple
from urllib.parse import unquote

from ..config import Limits
from ..errors import SkipFile
from .titles import usable_title

try:   # LZMA members: `zipfile` reads them when Python has the module
    from lzma import LZMAError as _LZMAError
except ImportError:   # pragma: no cover - a Python built without lzma
    class _LZMAError(Exception):   # type: ignore[no-redef]
        pass

_CHUNK = 64 * 1024
_DTD_MARKERS = tuple(
    word.encode(codec) for word in ("<!doctype", "<!entity")
    for codec in ("ascii", "utf-16-le", "utf-16-be"))
_ENTITY_MARKERS = tuple(m for m in _DTD_MARKERS if m.lower().replace(b"\0", b"") == b"<!entity")
_DTD_OVERLAP = max(len(m) for m in _DTD_MARKERS)
_URI_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
_CFB_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_FAMILIES = {"wordprocessingml": "a Word document", "spreadsheetml": "an Excel workbook",
             "presentationml": "a PowerPoint presentation"}


class PartError(Exception):
    """One part is missing or malformed; the reader decides if that is fatal."""


def _encoding_error(part: str, exc: Exception) -> Exception:
    """An XML declaration naming an encoding expat cannot read (`Shift_JIS`, `UTF-7`:
    "multi-byte encodings are not supported"; or no codec of that name) as the
    part's fault, said plainly; any other exception as it is."""
    text = str(exc)
    if isinstance(exc, LookupError) and text.startswith("unknown encoding"):
        return PartError(f"XML part {part} declares an encoding Python does not know "
                         f"({text[len('unknown encoding: '):][:40]})")
    if isinstance(exc, ValueError) and "encodings are not supported" in text:
        return PartError(f"XML part {part} declares a multi-byte encoding other than "
                         "UTF-8 or UTF-16, which the XML parser cannot read")
    return exc


@contextlib.contextmanager
def _parsing(part: str) -> Iterator[None]:
    """Parsing `part`: malformed XML, or an encoding the parser cannot read, is the
    part's fault (`PartError`), said plainly; anything else passes as it is."""
    try:
        yield
    except ET.ParseError as exc:
        raise PartError(f"malformed XML in {part}: {exc}") from None
    except (ValueError, LookupError) as exc:
        raise _encoding_error(part, exc) from None


class Rel(NamedTuple):
    """One relationship: `part` is the resolved in-package name, or None."""

    id: str
    type: str
    part: Optional[str]
    external: bool

    def is_type(self, suffix: str) -> bool:
        return self.type.rsplit("/", 1)[-1] == suffix


class _LocalNames(Dict[object, str]):
    """tag -> local name; a part uses a few dozen tags thousands of times."""

    def __missing__(self, tag: object) -> str:
        name = tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""
        if len(self) < 10_000:   # a hostile part may invent a tag per element
            self[tag] = name
        return name


_LOCAL_NAMES = _LocalNames()


def local(tag: object) -> str:
    """An element's name without its namespace (`{uri}t` -> `t`)."""
    return _LOCAL_NAMES[tag]


def rel_id(elem: ET.Element) -> Optional[str]:
    """The namespaced `r:id` attribute, whatever the prefix or namespace URI."""
    for key, value in elem.attrib.items():
        if key.startswith("{") and key.endswith("}id"):
            return value
    return None


def visible_events(events: Iterator[Tuple[str, ET.Element]], skipped: frozenset = frozenset()
                   ) -> Iterator[Tuple[str, ET.Element, str]]:
    """(event, element, local name) outside skipped subtrees, one branch per mc:AlternateContent.

    Office writes a shape twice (mc:Choice for new readers, mc:Fallback for
    old ones); reading both would double its text, so only the first branch
    is kept. Flat state: a depth counter and a stack per open AlternateContent.
    """
    depth = 0
    skip_at: Optional[int] = None
    alternates: List[bool] = []
    local_name = _LOCAL_NAMES.__getitem__
    for event, elem in events:
        tag = local_name(elem.tag)
        if event == "start":
            depth += 1
            if skip_at is not None:
                continue
            if tag in skipped:
                skip_at = depth
                continue
            if tag == "AlternateContent":
                alternates.append(False)
            elif tag in ("Choice", "Fallback") and alternates:
                if alternates[-1]:
                    skip_at = depth
                    continue
                alternates[-1] = True
            yield event, elem, tag
        else:
            depth -= 1
            if skip_at is not None:
                if depth + 1 == skip_at:
                    skip_at = None
                    elem.clear()
                continue
            if tag == "AlternateContent" and alternates:
                alternates.pop()
            yield event, elem, tag


def resolve_target(source: str, target: str) -> Optional[str]:
    """A relationship target as a part name, or None if it leaves the package."""
    target = unquote(target.split("#", 1)[0]).replace("\\", "/")
    if not target or _URI_SCHEME.match(target) or target.startswith("//"):
        return None
    if target.startswith("/"):
        joined = target.lstrip("/")   # package-absolute: from the package root
    else:
        joined = posixpath.join(posixpath.dirname(source), target)
    parts: List[str] = []
    for piece in joined.split("/"):
        if piece in ("", "."):
            continue
        if piece == "..":
            if not parts:
                return None   # climbs out of the package
            parts.pop()
        else:
            parts.append(piece)
    return "/".join(parts) or None


class Package:
    """A ZIP-based Office, OpenDocument or EPUB file, read under `Limits`.

    With `doctype_ok`, a part may carry a DOCTYPE, but never an entity
    declaration (the part of a DTD that can expand).
    """

    def __init__(self, data: bytes, kind: str, limits: Limits, doctype_ok: bool = False) -> None:
        self.kind = kind
        self._markers = _ENTITY_MARKERS if doctype_ok else _DTD_MARKERS
        self.limits = limits
        self.inflated = 0
        self.cut_parts: List[str] = []   # parts streamed only up to the per-part cap
        if not data:
            raise SkipFile("empty file")
        if data.startswith(_CFB_MAGIC):
            raise SkipFile(f"not a valid .{kind} file (legacy or password-protected Office file)")
        if not data.startswith(b"PK"):
            raise SkipFile(f"not a valid .{kind} file (not a ZIP archive)")
        try:
            self._zip = zipfile.ZipFile(io.BytesIO(data))
        except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError, OSError) as exc:
            raise SkipFile(f"not a valid .{kind} file (damaged ZIP archive: {exc})") from None
        except NotImplementedError as exc:   # a member needs a later ZIP version
            raise SkipFile(f"not a valid .{kind} file (a ZIP feature this reader lacks: {exc})") from None
        self._members: Dict[str, zipfile.ZipInfo] = {}
        for info in self._zip.infolist():
            name = info.filename.replace("\\", "/").lstrip("/")
            self._members.setdefault(name.lower(), info)

    # -- members -------------------------------------------------------------
    def has(self, part: Optional[str]) -> bool:
        return bool(part) and part.lower() in self._members

    def names(self) -> List[str]:
        return [info.filename.replace("\\", "/").lstrip("/") for info in self._members.values()]

    def chunks(self, part: str, cut_at_cap: bool = False) -> Iterator[bytes]:
        """The inflated bytes of `part`, counted against both byte caps.

        Past the per-part cap this raises SkipFile, or with `cut_at_cap` simply
        stops (the caller warns); past the per-document cap it always raises.
        """
        info = self._members.get(part.lower())
        if info is None:
            raise PartError(f"missing part {part}")
        part_cap = self.limits.max_xml_part_bytes
        if info.file_size > part_cap and not cut_at_cap:
            raise SkipFile(f"ZIP part {part} inflates beyond {part_cap:,} bytes")
        seen = 0
        with self._open(info, part) as stream:
            while True:
                try:
                    chunk = stream.read(_CHUNK)
                except (ValueError, OSError, _LZMAError) as exc:   # bzip2's and LZMA's damage
                    raise SkipFile(f"not a valid .{self.kind} file (damaged ZIP archive: {exc})") from None
                if not chunk:
                    return
                if seen + len(chunk) > part_cap:
                    if cut_at_cap:
                        yield chunk[: part_cap - seen]
                        self._count(part_cap - seen)
                        raise _CutAtCap(part)
                    raise SkipFile(f"ZIP part {part} inflates beyond {part_cap:,} bytes")
                seen += len(chunk)
                self._count(len(chunk))
                yield chunk

    def _open(self, info: zipfile.ZipInfo, part: str) -> "zipfile.ZipExtFile":
        """The member's stream; a member `zipfile` cannot open is the file's own fault,
        said as such (not as the exception `zipfile` raises)."""
        try:
            return self._zip.open(info)
        except NotImplementedError as exc:   # a later ZIP version, deflate64, patched data
            raise SkipFile(f"not a valid .{self.kind} file (a ZIP feature this reader lacks, "
                           f"in {part}: {exc})") from None
        except RuntimeError:   # the encryption flag: `zipfile` asks for a password
            raise SkipFile(f"not a valid .{self.kind} file (ZIP part {part} is encrypted)") from None
        except (ValueError, OSError) as exc:   # an offset before the file's start, a name not UTF-8
            raise SkipFile(f"not a valid .{self.kind} file (damaged ZIP archive: {exc})") from None

    def read(self, part: str) -> bytes:
        """The whole inflated member, under the same caps as `chunks`."""
        return b"".join(self.chunks(part))

    def _count(self, size: int) -> None:
        self.inflated += size
        cap = self.limits.max_inflated_bytes
        if self.inflated > cap:
            raise SkipFile(f"ZIP content inflates beyond {cap:,} bytes")

    # -- XML -----------------------------------------------------------------
    def _xml_chunks(self, part: str, cut_at_cap: bool = False) -> Iterator[bytes]:
        """The part's bytes for an XML parser, any DTD refused.

        With `cut_at_cap`, an oversized part ends early instead of failing and
        is recorded in `self.cut_parts`, so the reader can warn.
        """
        scan = _DtdScan(part, self._markers)
        try:
            for chunk in self.chunks(part, cut_at_cap=cut_at_cap):
                scan(chunk)
                yield chunk
        except _CutAtCap:
            self.cut_parts.append(part)

    def tree(self, part: str) -> ET.Element:
        """The whole part as an element tree (for small parts: rels, workbook, styles)."""
        parser = ET.XMLParser()
        with _parsing(part):
            for chunk in self._xml_chunks(part):
                parser.feed(chunk)
            return parser.close()

    def events(self, part: str, cut_at_cap: bool = False,
               kinds: Sequence[str] = ("start", "end")) -> Iterator[Tuple[str, ET.Element]]:
        """Streamed (event, element) pairs; callers clear what they have used."""
        parser = ET.XMLPullParser(events=kinds)
        cuts = len(self.cut_parts)
        with _parsing(part):
            for chunk in self._xml_chunks(part, cut_at_cap):
                parser.feed(chunk)
                yield from parser.read_events()
            if len(self.cut_parts) == cuts:  # a part cut short is not closed
                parser.close()
                yield from parser.read_events()

    def feed(self, part: str, target: object, cut_at_cap: bool = False) -> None:
        """Stream `part` into a parser target (start/end/data callbacks).

        The fastest way through big parts (worksheets): no element objects are
        built at all. The target may raise to stop early.
        """
        parser = ET.XMLParser(target=target)
        cuts = len(self.cut_parts)
        with _parsing(part):
            for chunk in self._xml_chunks(part, cut_at_cap):
                parser.feed(chunk)
            if len(self.cut_parts) == cuts:
                parser.close()

    # -- relationships and well-known parts ---------------------------------
    def rels(self, source: str) -> Optional[List[Rel]]:
        """Relationships of `source` ("" for the package), or None if it has none."""
        folder, base = posixpath.split(source)
        rels_part = posixpath.join(folder, "_rels", base + ".rels")
        if not self.has(rels_part):
            return None
        out: List[Rel] = []
        for elem in self.tree(rels_part).iter():
            if local(elem.tag) != "Relationship":
                continue
            external = elem.get("TargetMode", "").lower() == "external"
            target = elem.get("Target", "")
            part = None if external else resolve_target(source, target)
            out.append(Rel(elem.get("Id", ""), elem.get("Type", ""), part, external))
        return out

    def content_types(self) -> Dict[str, str]:
        """Part name (lower case) -> declared content type, from overrides."""
        try:
            root = self.tree("[Content_Types].xml")
        except PartError:
            return {}
        return {elem.get("PartName", "").lstrip("/").lower(): elem.get("ContentType", "")
                for elem in root.iter() if local(elem.tag) == "Override"}

    def main_part(self, family: str, default: str) -> str:
        """The main document part: package relationship, content types, default name."""
        types = self.content_types()
        candidates: List[str] = []
        try:
            package_rels = self.rels("") or []
        except PartError:
            package_rels = []
        candidates += [r.part for r in package_rels if r.is_type("officeDocument") and r.part]
        candidates += [name for name, ctype in types.items()
                       if family in ctype and ctype.endswith(".main+xml")]
        candidates.append(default)
        for part in candidates:
            if not self.has(part):
                continue
            ctype = types.get(part.lower(), "")
            other = [word for fam, word in _FAMILIES.items() if fam in ctype and fam != family]
            if other:
                raise SkipFile(f"not a valid .{self.kind} file (it holds {other[0]})")
            return part
        raise SkipFile(f"not a valid .{self.kind} file (no {default.split('/')[-1]} part)")

    def core_title(self) -> Optional[str]:
        """dc:title from the core properties, if present, readable and not a placeholder."""
        try:
            rels = self.rels("") or []
        except PartError:
            rels = []
        parts = [r.part for r in rels if r.is_type("core-properties") and r.part]
        parts.append("docProps/core.xml")
        for part in parts:
            if not self.has(part):
                continue
            try:
                root = self.tree(part)
            except PartError:
                return None
            for elem in root.iter():
                if local(elem.tag) == "title" and elem.text and elem.text.strip():
                    return usable_title(elem.text)
            return None
        return None


class _CutAtCap(Exception):
    """A streamed part reached the per-part cap and was cut there."""

    def __init__(self, part: str) -> None:
        super().__init__(part)
        self.part = part


class _DtdScan:
    """Refuses a part whose bytes declare a DTD, checking across chunk borders."""

    def __init__(self, part: str, markers: Tuple[bytes, ...] = _DTD_MARKERS) -> None:
        self.part = part
        self.markers = markers
        self.tail = b""

    def __call__(self, chunk: bytes) -> None:
        window = (self.tail + chunk).lower()
        if any(marker in window for marker in self.markers):
            raise SkipFile(f"refused: XML part {self.part} declares a DTD/entities")
        self.tail = window[-_DTD_OVERLAP:]
