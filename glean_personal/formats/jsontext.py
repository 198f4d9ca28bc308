"""JSON flattened to `key.path: value` lines.

Both halves of a pair are searchable that way ("owner: Priya" finds Priya and
owner), and the path says where a hit sits. The walk is an explicit stack,
bounded by `Limits.max_json_depth`; values deeper than that are folded into
the line of their ancestor. `json.loads` itself recurses, so nesting is
measured on the raw text first and absurd depths are refused before loading.
"""
from __future__ import annotations

import html
import json
import re
from itertools import accumulate
from typing import Any, List, Optional, Tuple

from ..config import Limits
from ..document import Document
from ..errors import SkipFile
from .encoding import bom_encoding, decode_text
from .sections import SectionBuilder

# json.loads uses the interpreter's recursion limit; stay well below it.
_LOAD_DEPTH_CEILING = 500
_LINES_PER_PARAGRAPH = 25
_TITLE_KEYS = ("title", "name", "subject")
# A string, or an unterminated one running to the end: never fails, so never rescans.
_STRING = re.compile(r'"(?:[^"\\]|\\[\s\S]?)*(?:"|\Z)')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_DELTA = {"[": 1, "{": 1, "]": -1, "}": -1}
# HTML inside a string value, as API docs and exports keep text: a closing tag says so.
_CLOSING_TAG = re.compile(r"</[A-Za-z][A-Za-z0-9-]*[ \t\n]*>")
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:[ \t\n/][^<>]*)?>")


def load(text: str) -> Any:
    """`json.loads`, keeping a whole number longer than Python converts (4,300 digits:
    `int()` refuses more, a guard against slow conversions) as its digits, which are
    shown as they are written: valid JSON, so never a reason to skip the file."""
    return json.loads(text, parse_int=_whole_number)


def _whole_number(digits: str) -> Any:
    return int(digits) if len(digits) <= _MAX_INT_DIGITS else digits


_MAX_INT_DIGITS = 4000


def read_json(data: bytes, limits: Limits) -> Document:
    """One paragraph per top-level entry (long ones split every few lines)."""
    text = decode_json(data)
    depth = nesting_depth(text)
    if depth > _LOAD_DEPTH_CEILING:
        raise SkipFile(f"JSON nested too deeply ({depth} levels)")
    try:
        value = load(text)
    except json.JSONDecodeError as exc:
        message = exc.msg[:-3] if exc.msg.endswith(" at") else exc.msg   # "starting at"
        raise SkipFile(f"invalid JSON: {message} at line {exc.lineno}") from None
    except RecursionError:
        raise SkipFile("JSON nested too deeply") from None
    generator = _search_index(value)
    if generator:
        raise SkipFile(f"a documentation generator's search index ({generator})")
    builder = SectionBuilder(limits.max_text_chars)
    warnings: List[str] = []
    deep = False
    for path, child in _top_level(value):
        lines, hit_floor = flatten(child, path, limits.max_json_depth - 1)
        deep = deep or hit_floor
        for start in range(0, len(lines), _LINES_PER_PARAGRAPH):
            builder.paragraph("\n".join(lines[start:start + _LINES_PER_PARAGRAPH]))
        if builder.full:
            break
    if deep:
        warnings.append(
            f"JSON nested deeper than {limits.max_json_depth} levels: "
            "deeper values are listed under their ancestor")
    return Document(title=_title(value) or "", format="json",
                    sections=builder.build(), warnings=warnings)


def _search_index(value: Any) -> Optional[str]:
    """Which site generator's search index `value` is, if it is one.

    A built documentation site keeps the text of every page a second time for
    its search box: mdBook's `searchindex.json` (an elasticlunr index: `doc_urls`
    and `index.documentStore`, the Rust book's 1.9 MB, read as 15,000 lines of
    `index.documentStore.docs.205.body: …`, came before the chapters), a bare
    elasticlunr or lunr index, MkDocs' `search/search_index.json` (`config` and
    `docs`, each with its page's `location` and text), Haddock's `doc-index.json`
    (a list of `display_html`, `name`, `module`, `link`). The pages themselves say it.
    """
    if isinstance(value, list):
        # Haddock's quick-jump index (`doc-index.json`): every declaration's
        # `name`, `module`, `link` and signature as HTML (`display_html`).
        if value and all(isinstance(entry, dict) and "display_html" in entry and "link" in entry
                         for entry in value[:8]):
            return "Haddock's"
        return None
    if not isinstance(value, dict):
        return None
    index = value.get("index")
    if isinstance(value.get("doc_urls"), list) and isinstance(index, dict) \
            and "documentStore" in index:
        return "mdBook's"
    if "documentStore" in value and "pipeline" in value and "index" in value:
        return "elasticlunr's"
    if "invertedIndex" in value and "fieldVectors" in value:
        return "lunr's"
    docs = value.get("docs")
    if isinstance(value.get("config"), dict) and isinstance(docs, list) and docs and all(
            isinstance(doc, dict) and "location" in doc and "text" in doc for doc in docs[:8]):
        return "MkDocs'"
    return None


def decode_json(data: bytes) -> str:
    """UTF-8 (with or without BOM), UTF-16 or UTF-32, as RFC 8259 allows."""
    if not data.strip():
        raise SkipFile("empty file")
    name, skip = bom_encoding(data)
    if name is None:
        detected = json.detect_encoding(data)
        if detected != "utf-8":
            name = detected
    if name is None or name == "utf-8":
        return decode_text(data)
    return data[skip:].decode(name, errors="replace")


def nesting_depth(text: str) -> int:
    """Deepest bracket nesting outside strings, counted without recursion."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    if not brackets:
        return 0
    return max(0, max(accumulate(_DELTA[c] for c in brackets)))


def flatten(value: Any, path: str, max_depth: int) -> Tuple[List[str], bool]:
    """`path: value` lines for every scalar under `value`, in document order.

    Containers deeper than `max_depth` become one line holding all their keys
    and values; the flag says whether that happened.
    """
    lines: List[str] = []
    hit_floor = False
    stack: List[Tuple[str, Any, int]] = [(path, value, 0)]
    while stack:
        here, node, depth = stack.pop()
        if isinstance(node, (dict, list)):
            if depth >= max_depth and node:
                hit_floor = True
                _emit(lines, here, " ".join(_all_words(node)))
                continue
            if isinstance(node, dict):
                children = [(_key_path(here, k), v) for k, v in node.items()]
            else:
                children = [(f"{here}[{i}]", v) for i, v in enumerate(node)]
            stack.extend((p, v, depth + 1) for p, v in reversed(children))
        else:
            _emit(lines, here, _scalar(node))
    return lines, hit_floor


def _top_level(value: Any) -> List[Tuple[str, Any]]:
    if isinstance(value, dict):
        return [(str(k), v) for k, v in value.items()]
    if isinstance(value, list):
        return [(f"[{i}]", v) for i, v in enumerate(value)]
    return [("", value)]


def _key_path(parent: str, key: str) -> str:
    return f"{parent}.{key}" if parent else str(key)


def _emit(lines: List[str], path: str, text: str) -> None:
    if text.strip():
        lines.append(f"{path}: {text}" if path else text)


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        return _shown(value) if "</" in value else value
    return json.dumps(value)   # numbers, true/false, null as JSON spells them


def _shown(text: str) -> str:
    """A string of HTML (`<p><strong>Source Code:</strong> <a href="…">lib/x.js</a></p>`)
    as the words a page shows; any other string as it is (`a < b > c`)."""
    if not _CLOSING_TAG.search(text):
        return text
    return " ".join(html.unescape(_TAG.sub(" ", text)).split())


def _all_words(node: Any) -> List[str]:
    """Every key and scalar under `node`, iteratively."""
    out: List[str] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, child in reversed(list(item.items())):
                stack.append(child)
                stack.append(str(key))
        elif isinstance(item, list):
            stack.extend(reversed(item))
        else:
            text = _scalar(item)
            if text:
                out.append(text)
    return out


def _title(value: Any) -> Optional[str]:
    if isinstance(value, dict):
        for key in _TITLE_KEYS:
            candidate = value.get(key)
            if isinstance(candidate, str) and candidate.strip():
                return " ".join(candidate.split())[:300]
    return None
