"""Format readers, one module per family, behind a registry by extension.

`read_document` is the only door: it picks the reader from the file name's
extension, turns every failure into `SkipFile` with a plain-English reason,
and applies the rules every format shares (a title that is never empty, the
text cap, no empty documents). Readers are plain functions
`(data: bytes, limits) -> Document`, so each one is testable on bytes alone.
"""
from __future__ import annotations

import os
import re
import stat
import xml.etree.ElementTree as ET
import zipfile
import zlib
from pathlib import PurePath
from typing import Callable, Dict, List, Optional, Tuple, Union

from ..config import (CODE_EXTENSIONS, DEFAULT_LIMITS, LINE_FORMATS, SUPPORTED, SUPPORTED_NAMES,
                      Limits)
from ..document import SECTION_SEPARATOR, Document, Section
from ..errors import SkipFile
from .code import read_code
from .conffiles import read_css, read_dockerfile, read_makefile, read_tables, read_yaml
from .csvtext import read_csv
from .docx import read_docx
from .encoding import decode_text
from .epub import read_epub
from .gettext import read_po
from .htmltext import read_html_file
from .jsontext import read_json
from .mail import read_eml, read_mbox
from .asciidoc import looks_like_asciidoc, read_asciidoc
from .markup import looks_like_rst, read_latex, read_org, read_rst
from .notebook import read_ipynb
from .odf import read_odp, read_ods, read_odt
from .package import PartError
from .pdf import read_pdf
from .pptx import read_pptx
from .docbook import looks_like_docbook, read_docbook
from .roff import looks_like_roff, read_roff, source_link
from .rtf import read_rtf
from .texinfo import looks_like_texinfo, read_texinfo
from .info import looks_like_info, read_info
from .pod import read_pod
from .orgtext import looks_like_org
from .sniff import SNIFF_BYTES, gunzip, name_skip_reason, text_sniff
from .text import read_markdown, read_txt
from .xlsx import read_xlsx

Reader = Callable[[bytes, Limits], Document]

def _read_text_file(data: bytes, limits: Limits) -> Document:
    """Plain text, unless it is AsciiDoc or reStructuredText under a `.txt` name (or
    none), a manual page, DocBook XML (no reader claims `.xml`), Org or Texinfo
    that says so on its first line, or an Info file of another name (`elisp-1`)."""
    head = decode_text(data[:65_536])
    link = source_link(head)
    if link:
        raise SkipFile(f"a manual page that only shows another ({link})")
    if looks_like_roff(head):
        return read_roff(data, limits)
    if looks_like_info(head):   # before reStructuredText: its titles are underlined too
        return read_info(data, limits)
    if looks_like_asciidoc(head):
        return read_asciidoc(data, limits)
    if looks_like_rst(head):
        return read_rst(data, limits)
    if looks_like_docbook(head):
        return read_docbook(data, limits)
    if looks_like_org(head):
        return read_org(data, limits)
    if looks_like_texinfo(head):
        return read_texinfo(data, limits)
    return read_txt(data, limits)


READERS: Dict[str, Reader] = {
    "txt": _read_text_file, "md": read_markdown, "html": read_html_file, "json": read_json,
    "docx": read_docx, "xlsx": read_xlsx, "pptx": read_pptx, "pdf": read_pdf,
    "odt": read_odt, "ods": read_ods, "odp": read_odp, "ipynb": read_ipynb,
    "epub": read_epub,
    # Mail reads its attachments through the registry's own door, passed in.
    "eml": lambda data, limits: read_eml(data, limits, read_document),
    "mbox": lambda data, limits: read_mbox(data, limits, read_document),
}


def _with_format(reader: Callable[..., Document], fmt: str) -> Reader:
    return lambda data, limits: reader(data, limits, fmt)


# Code, configuration, tables and lightweight markup.
READERS.update({fmt: _with_format(read_code, fmt) for fmt in set(CODE_EXTENSIONS.values())})
READERS.update({
    "yaml": read_yaml, "toml": _with_format(read_tables, "toml"),
    "ini": _with_format(read_tables, "ini"), "css": read_css, "makefile": read_makefile,
    "dockerfile": read_dockerfile, "csv": _with_format(read_csv, "csv"),
    "tsv": _with_format(read_csv, "tsv"), "rst": read_rst, "org": read_org,
    "adoc": read_asciidoc, "tex": read_latex, "rtf": read_rtf, "po": read_po,
    "texinfo": read_texinfo, "info": read_info, "pod": read_pod,
})

__all__ = ["SUPPORTED", "READERS", "format_for", "read_document", "extract", "skip_by_name",
           "needs_sniff", "check_head", "SNIFF_BYTES"]


_INFO_PART = re.compile(r"\.info-[0-9]{1,4}")

# Sphinx publishes each page's source beside the HTML as `_sources/NAME.rst.txt` (or `.md.txt`).
_SOURCE_COPIES = frozenset({".rst", ".md"})


def format_for(name: str) -> Optional[str]:
    """The format a file name's extension (any case) or whole name gives, or None.

    None does not always mean "not read": see `skip_by_name` and `needs_sniff`.
    """
    base = _base(name)
    fmt = SUPPORTED.get(_ext(base))
    if fmt is None and _INFO_PART.fullmatch(_ext(base)):
        fmt = "info"   # a split Info manual's parts: `find.info-1`, `find.info-2`
    if fmt == "txt" and _ext(base[:-4]) in _SOURCE_COPIES:
        fmt = SUPPORTED[_ext(base[:-4])]   # Sphinx's copy of a page's source: `intro.rst.txt`
    if fmt is None:
        low = base.lower()
        fmt = SUPPORTED_NAMES.get(low)
        if fmt is None and low.startswith(("dockerfile.", "containerfile.")):
            fmt = "dockerfile"
    return fmt


def skip_by_name(name: str) -> Optional[str]:
    """Why a file is skipped from its name alone (never opened), or None to read it.

    Files no reader claims are read when they turn out to be text (`needs_sniff`);
    `x.gz` is read as `x` would be.
    """
    base = _base(name)
    if format_for(base) is not None:
        return None
    ext = _ext(base)
    if ext == ".gz":
        inner = base[:-3]
        inner_ext = _ext(inner)
        if inner_ext == ".tar":
            return "tar archive (.tar.gz): archives are not read"
        if inner_ext == ".gz":
            return "gzip inside gzip: not read"
        reason = skip_by_name(inner)
        return f"{reason} (compressed with gzip)" if reason else None
    return name_skip_reason(ext)


def needs_sniff(name: str) -> bool:
    """True for a file read only if its first bytes are text (no known format, not .gz)."""
    base = _base(name)
    return format_for(base) is None and _ext(base) != ".gz" and skip_by_name(base) is None


# Text files a tool writes for itself, with nothing in them to search: Sphinx's
# `.buildinfo` beside every HTML build (two hashes of its configuration).
_TOOL_RECORDS = ((b"# Sphinx build info version", "Sphinx's build record (.buildinfo)"),)


def check_head(head: bytes, name: str) -> None:
    """Raise SkipFile unless a file with no known format starts like text (and
    is not a record a tool keeps for itself)."""
    why = text_sniff(head[:SNIFF_BYTES])
    if why:
        ext = _ext(_base(name))
        raise SkipFile(f"unsupported file type {ext or '(no extension)'}: {why}")
    for start, what in _TOOL_RECORDS:
        if head.startswith(start):
            raise SkipFile(f"{what}: hashes, no text")


def _base(name: str) -> str:
    return name.replace("\\", "/").rsplit("/", 1)[-1]


def _ext(base: str) -> str:
    """The extension as os.path.splitext gives it (a leading dot is not one), lower case."""
    return os.path.splitext(base)[1].lower()


def read_document(data: bytes, name: str, limits: Limits = DEFAULT_LIMITS) -> Document:
    """Extract one file's content from its bytes; raises only SkipFile.

    `name` gives the extension (which reader) and the fallback title (its stem).
    """
    base = _base(name)
    fmt = format_for(base)
    if fmt is None:
        reason = skip_by_name(base)
        if reason:
            raise SkipFile(reason)
        if not data:
            raise SkipFile("empty file")
        if _ext(base) == ".gz":
            return _read_gzip(data, base, limits)
        check_head(data, base)
        fmt, name = "txt", base + ".txt"   # read as text; the title keeps the whole name
    if not data:
        raise SkipFile("empty file")
    suffix = _ext(base)
    try:
        doc = READERS[fmt](data, limits)
    except SkipFile:
        raise
    except PartError as exc:
        raise SkipFile(str(exc)) from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError) as exc:
        raise SkipFile(f"not a valid {suffix} file (damaged ZIP archive: {exc})") from None
    except ET.ParseError as exc:
        raise SkipFile(f"malformed XML: {exc}") from None
    except RecursionError:
        raise SkipFile("nested too deeply to read") from None
    except MemoryError:
        raise SkipFile("too large to read in memory") from None
    except Exception as exc:   # any other reader failure is a per-file problem
        raise SkipFile(f"could not read {suffix} file ({type(exc).__name__}: {exc})") from None
    return _finish(doc, fmt, name, limits)


def _read_gzip(data: bytes, base: str, limits: Limits) -> Document:
    """`x.gz`: inflated (bounded), then read as `x`; a binary payload is skipped."""
    name = base[:-3]
    fmt = format_for(name)
    cuttable = fmt is None or fmt in LINE_FORMATS or fmt in _TEXT_FORMATS
    try:
        inner, cut = gunzip(data, limits, keep=limits.max_bytes if cuttable else None)
    except (zlib.error, EOFError) as exc:
        raise SkipFile(f"damaged gzip file ({exc})") from None
    if needs_sniff(name):
        why = text_sniff(inner[:SNIFF_BYTES])
        if why:
            raise SkipFile(f"gzip of a file that is not text: {why}")
    try:
        doc = read_document(inner, name, limits)
    except SkipFile as exc:
        if not cut:
            raise
        # A file of one long line keeps only what comes before its first line break.
        raise SkipFile(f"{exc} in the first {len(inner):,} bytes of the inflated file "
                       f"(--max-bytes is {limits.max_bytes:,})") from None
    if cut:
        doc.warnings.append(f"only the first {len(inner):,} bytes of the inflated file read "
                            f"(--max-bytes is {limits.max_bytes:,})")
    return doc


# Formats whose text survives being cut at a line end (besides LINE_FORMATS).
_TEXT_FORMATS = frozenset({"txt", "md", "html", "rst", "org", "adoc", "tex", "po", "texinfo", "info",
                           "pod"})


def extract(path: Union[str, "os.PathLike[str]"], limits: Limits = DEFAULT_LIMITS) -> Document:
    """Stat, then read and extract one file; raises only SkipFile.

    The size check uses the stat result, so an oversized file is never read.
    A file with no known format is read only if its first 8 KB are text.
    """
    path = os.fspath(path)
    reason = skip_by_name(path)
    if reason:
        raise SkipFile(reason)
    try:
        info = os.stat(path)
    except OSError as exc:
        raise SkipFile(f"cannot read file ({exc.strerror or exc})") from None
    if not stat.S_ISREG(info.st_mode):
        raise SkipFile("not a regular file")
    if info.st_size > limits.max_bytes:
        raise SkipFile(f"larger than --max-bytes ({limits.max_bytes:,} bytes)")
    try:
        with open(path, "rb") as handle:
            if needs_sniff(path):
                check_head(handle.read(SNIFF_BYTES), path)
                handle.seek(0)
            data = handle.read(limits.max_bytes + 1)
    except OSError as exc:
        raise SkipFile(f"cannot read file ({exc.strerror or exc})") from None
    if len(data) > limits.max_bytes:   # grew between stat and read
        raise SkipFile(f"larger than --max-bytes ({limits.max_bytes:,} bytes)")
    return read_document(data, path, limits)


# A title or one heading of a heading path is cut here: each is stored again with
# every passage it covers, so a 1 MB `# heading` line (or a PDF's /Title) over a
# long document made gigabytes of index. No title or heading a person writes is longer.
_MAX_HEADING_CHARS = 500
# A heading path deeper than this keeps its outer levels and its own heading: Org's
# `*` × 2,000 made a path of 1 MB, and a 3.8 MB file a 985 MB index. (A PDF's bookmarks
# nest 17 deep at most, and its page label follows them.)
_MAX_HEADING_DEPTH = 20


def _short(text: str) -> str:
    """`text`, cut to _MAX_HEADING_CHARS characters at a space where there is one."""
    if len(text) <= _MAX_HEADING_CHARS:
        return text
    cut = text[:_MAX_HEADING_CHARS + 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > 0 else cut[:-1]).rstrip()


def _short_headings(sections: List[Section]) -> List[Section]:
    """Sections whose headings are each at most _MAX_HEADING_CHARS characters, in a
    path at most _MAX_HEADING_DEPTH deep."""
    if all(len(sec.heading) <= _MAX_HEADING_DEPTH and
           all(len(part) <= _MAX_HEADING_CHARS for part in sec.heading) for sec in sections):
        return sections
    shortened: Dict[Tuple[str, ...], Tuple[str, ...]] = {}   # sections under one path share it
    out = []
    for sec in sections:
        heading = shortened.get(sec.heading)
        if heading is None:
            path = sec.heading
            if len(path) > _MAX_HEADING_DEPTH:
                path = path[:_MAX_HEADING_DEPTH - 1] + path[-1:]
            heading = shortened[sec.heading] = tuple(_short(part) for part in path)
        out.append(Section(heading, sec.text, sec.first_line, sec.page))
    return out


def _finish(doc: Document, fmt: str, name: str, limits: Limits) -> Document:
    """Shared rules: format name, non-empty title, text cap, something to index,
    titles and headings of a bounded length."""
    sections = _short_headings([s for s in doc.sections if s.text.strip()])
    warnings = list(doc.warnings)
    sections, cut = _cap(sections, limits.max_text_chars)
    if cut:
        warnings.append(f"text cut at {limits.max_text_chars:,} characters")
    if not sections:
        # A reader's warning (a malformed part, say) is the likelier reason.
        raise SkipFile(f"no extractable text ({warnings[0]})" if warnings else "no extractable text")
    title = _short(" ".join((doc.title or "").split())) or PurePath(name).stem or "untitled"
    return Document(title=title, format=fmt, sections=sections,
                    warnings=list(dict.fromkeys(warnings)))


def _cap(sections: List[Section], limit: int) -> Tuple[List[Section], bool]:
    """Cut the joined text at `limit` characters, keeping whole sections before it."""
    kept: List[Section] = []
    used = 0
    for sec in sections:
        room = limit - used
        if room <= 0:
            return kept, True
        if len(sec.text) > room:
            text = sec.text[:room].rstrip()
            if text:
                kept.append(Section(sec.heading, text, sec.first_line, sec.page))
            return kept, True
        kept.append(sec)
        used += len(sec.text) + len(SECTION_SEPARATOR)
    return kept, False
