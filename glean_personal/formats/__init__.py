"""Format readers, one module per family, behind a registry by extension.

`read_document` is the only door: it picks the reader from the file name's
extension, turns every failure into `SkipFile` with a plain-English reason,
and applies the rules every format shares (a title that is never empty, the
text cap, no empty documents). Readers are plain functions
`(data: bytes, limits) -> Document`, so each one is testable on bytes alone.
"""
from __future__ import annotations

import os
import stat
import xml.etree.ElementTree as ET
import zipfile
import zlib
from pathlib import PurePath
from typing import Callable, Dict, List, Optional, Tuple, Union

from ..config import DEFAULT_LIMITS, SUPPORTED, Limits
from ..document import SECTION_SEPARATOR, Document, Section
from ..errors import SkipFile
from .docx import read_docx
from .epub import read_epub
from .htmltext import read_html
from .jsontext import read_json
from .mail import read_eml, read_mbox
from .notebook import read_ipynb
from .odf import read_odp, read_ods, read_odt
from .package import PartError
from .pdf import read_pdf
from .pptx import read_pptx
from .text import read_markdown, read_txt
from .xlsx import read_xlsx

Reader = Callable[[bytes, Limits], Document]

READERS: Dict[str, Reader] = {
    "txt": read_txt, "md": read_markdown, "html": read_html, "json": read_json,
    "docx": read_docx, "xlsx": read_xlsx, "pptx": read_pptx, "pdf": read_pdf,
    "odt": read_odt, "ods": read_ods, "odp": read_odp, "ipynb": read_ipynb,
    "epub": read_epub,
    # Mail reads its attachments through the registry's own door, passed in.
    "eml": lambda data, limits: read_eml(data, limits, read_document),
    "mbox": lambda data, limits: read_mbox(data, limits, read_document),
}

__all__ = ["SUPPORTED", "READERS", "format_for", "read_document", "extract"]


def format_for(name: str) -> Optional[str]:
    """The format name for a file name's extension (any case), or None."""
    return SUPPORTED.get(os.path.splitext(name)[1].lower())


def read_document(data: bytes, name: str, limits: Limits = DEFAULT_LIMITS) -> Document:
    """Extract one file's content from its bytes; raises only SkipFile.

    `name` gives the extension (which reader) and the fallback title (its stem).
    """
    suffix = PurePath(name).suffix.lower()
    fmt = SUPPORTED.get(suffix)
    if fmt is None:
        raise SkipFile(f"unsupported file type {suffix}" if suffix else "unsupported file type (no extension)")
    if not data:
        raise SkipFile("empty file")
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


def extract(path: Union[str, "os.PathLike[str]"], limits: Limits = DEFAULT_LIMITS) -> Document:
    """Stat, then read and extract one file; raises only SkipFile.

    The size check uses the stat result, so an oversized file is never read.
    """
    path = os.fspath(path)
    if format_for(path) is None:
        suffix = PurePath(path).suffix.lower()
        raise SkipFile(f"unsupported file type {suffix}" if suffix else "unsupported file type (no extension)")
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
            data = handle.read(limits.max_bytes + 1)
    except OSError as exc:
        raise SkipFile(f"cannot read file ({exc.strerror or exc})") from None
    if len(data) > limits.max_bytes:   # grew between stat and read
        raise SkipFile(f"larger than --max-bytes ({limits.max_bytes:,} bytes)")
    return read_document(data, path, limits)


def _finish(doc: Document, fmt: str, name: str, limits: Limits) -> Document:
    """Shared rules: format name, non-empty title, text cap, something to index."""
    sections = [s for s in doc.sections if s.text.strip()]
    warnings = list(doc.warnings)
    sections, cut = _cap(sections, limits.max_text_chars)
    if cut:
        warnings.append(f"text cut at {limits.max_text_chars:,} characters")
    if not sections:
        # A reader's warning (a malformed part, say) is the likelier reason.
        raise SkipFile(f"no extractable text ({warnings[0]})" if warnings else "no extractable text")
    title = " ".join((doc.title or "").split()) or PurePath(name).stem or "untitled"
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
