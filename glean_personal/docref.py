"""How a document is referred to: its file:// URL, and the summary every result carries.

One builder and one parser of file URLs, so a URL the index hands out (in a
search hit, a related document, a fetched document or a Client API answer)
is the URL it accepts back; and `storable`, how a name with undecodable bytes
is written into the index (and how a filter typed with them is matched).
"""
from __future__ import annotations

import functools
import os
import posixpath
import re
from typing import Any, List, Mapping, Optional, Tuple
from urllib.parse import quote_from_bytes, unquote, urlparse

from .errors import NotFound

URL_SCHEME = "file://"
ROW_ID_MAX = (1 << 63) - 1          # SQLite's largest integer


def file_url(root: str, path: str) -> str:
    """`Path(root, path).as_uri()` for the absolute root and clean relative path stored."""
    return _url_of(file_path(root, path))


def _url_of(full: str) -> str:
    return URL_SCHEME + quote_from_bytes(os.fsencode(full))


_ESCAPED_BYTE = re.compile(r"\\x([89a-f][0-9a-f])")


def disk_path(full: str) -> str:
    """The file a stored absolute path names. Undecodable bytes of a file name are
    stored escaped (`caf\\xe9.md`, see `storable`); here the escapes become those bytes
    again (as `os.fsdecode` gives them), unless a file of the escaped name itself exists
    (the name may hold a backslash).
    Every other path is returned as it is, unexamined."""
    if "\\x" not in full or os.path.lexists(full):
        return full
    return _ESCAPED_BYTE.sub(lambda m: chr(0xDC00 + int(m.group(1), 16)), full)


def is_file_url(text: str) -> bool:
    return text.startswith(URL_SCHEME)


def path_from_url(url: str) -> str:
    """The absolute path a file:// URL names (percent-escapes decoded), as it is stored:
    bytes that are not UTF-8 (`%E9` of a Latin-1 name) escaped as `\\xe9`."""
    return storable(unquote(urlparse(url).path, errors="surrogateescape"))


def doc_summary(row: Mapping) -> dict:
    """The document fields every result carries (docs/reference.md, "document")."""
    full, url = _place(row["root"], row["path"])
    out = {"id": row["id"], "title": row["title"], "url": url,
           "source": row["source"], "path": row["path"], "format": row["format"],
           "mtime_ns": row["mtime_ns"], "available": os.path.isfile(full)}
    if row.get("lang"):
        out["language"] = row["lang"]   # where the index knows it (language.py)
    return out


@functools.lru_cache(maxsize=4096)
def _place(root: str, path: str) -> Tuple[str, str]:
    """A document's absolute path (`file_path`) and its file:// URL,
    kept: a long-lived process shows the same documents often, and quoting the URL
    byte by byte is most of a summary's cost (whether the file is there is asked anew)."""
    full = file_path(root, path)
    return full, _url_of(full)


def file_path(root: str, path: str) -> str:
    """A document's file as the system names it (its root as stored, its path below)."""
    return disk_path(posixpath.join(root, path))


MAX_DIGITS = 4000
"""The longest digit string taken for a number: int() refuses more than 4,300 digits
(Python's guard against slow conversions), and no id or count comes near either."""


def is_digits(value: Any) -> bool:
    """ASCII digits that int() reads, spaces round them allowed ("12"; not "²" or "١٢",
    which str.isdigit also accepts and int() does not, nor 5,000 nines)."""
    text = str(value).strip()
    return text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS


def as_row_id(value: Any) -> Optional[int]:
    """`value` as a document or passage id: a whole number, or ASCII digits (spaces round
    them allowed), within SQLite's integer range. None for anything else ("²", "1e3",
    True, 10**20), so a caller answers "no such document" instead of failing."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, str):
        if not is_digits(value):
            return None
        number = int(value)
    else:
        return None
    return number if -ROW_ID_MAX - 1 <= number <= ROW_ID_MAX else None


def storable(text: str) -> str:
    """Text as it may be stored: lone surrogates (undecodable bytes) escaped as \\xNN."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace") \
            if _only_escapes(text) else text.encode("utf-8", "backslashreplace").decode("utf-8")


def _only_escapes(text: str) -> bool:
    """True if every lone surrogate is one `surrogateescape` made (U+DC80..U+DCFF)."""
    return all(not ("\ud800" <= ch <= "\udfff") or "\udc80" <= ch <= "\udcff" for ch in text)


def source_of_file(store: Any, path: str) -> Tuple[dict, str]:
    """The indexed source holding `path` (its `store.sources()` row), and the file's
    path relative to its root."""
    fs_path = os.path.abspath(os.path.expanduser(str(path)))
    sources = store.sources()
    found = _holding(fs_path, [(s, s["root"]) for s in sources])
    if found is None:
        # A source kept by a link to its folder (`~/notes` → `/data/notes`) holds
        # the file written by its real path too; links resolved only when needed.
        found = _holding(os.path.realpath(fs_path),
                         [(s, os.path.realpath(s["root"])) for s in sources])
    if found is None:
        raise NotFound(f"{fs_path} is not inside any indexed folder: index its folder first "
                       "(`sources` lists them)")
    return found


def _holding(fs_path: str, roots: List[Tuple[dict, str]]) -> Optional[Tuple[dict, str]]:
    """The source of the deepest root holding `fs_path`, and the path below it."""
    best = None
    for source, root in roots:
        top = root.rstrip(os.sep) or os.sep
        if fs_path.startswith(top + os.sep) and (best is None or len(top) > len(best[1])):
            best = (source, top)
    if best is None:
        return None
    return best[0], storable(os.path.relpath(fs_path, best[1]).replace(os.sep, "/"))
