"""How a document is referred to: its file:// URL, and the summary every result carries.

One builder and one parser of file URLs, so a URL the index hands out (in a
search hit, a related document, a fetched document or a Client API answer)
is the URL it accepts back.
"""
from __future__ import annotations

import os
import posixpath
from typing import Mapping
from urllib.parse import quote_from_bytes, unquote, urlparse

URL_SCHEME = "file://"


def file_url(root: str, path: str) -> str:
    """`Path(root, path).as_uri()` for the absolute root and clean relative path stored."""
    return URL_SCHEME + quote_from_bytes(os.fsencode(posixpath.join(root, path)))


def is_file_url(text: str) -> bool:
    return text.startswith(URL_SCHEME)


def path_from_url(url: str) -> str:
    """The absolute path a file:// URL names (percent-escapes decoded)."""
    return unquote(urlparse(url).path)


def doc_summary(row: Mapping) -> dict:
    """The document fields every result carries (docs/reference.md, "document")."""
    return {"id": row["id"], "title": row["title"], "url": file_url(row["root"], row["path"]),
            "source": row["source"], "path": row["path"], "format": row["format"],
            "mtime_ns": row["mtime_ns"]}
