"""Configuration files: one section per top-level block, with exact line numbers.

YAML top-level keys that hold a block, TOML tables and INI sections, CSS
rules, Makefile targets and Dockerfile build stages each become a section
headed by their name. The lines are kept as they are (comments too: they
often say what a setting is for), so line numbers stay exact.
"""
from __future__ import annotations

import re
from typing import List, Optional, Sequence, Tuple

from ..config import Limits
from ..document import Document
from .code import Language, table_spans
from .encoding import decode_text, normalise_newlines
from .lines import Heading, Span, line_sections, refuse_minified, split_lines

# Linear on any line: a name runs greedily to its last non-space character, where a
# lazy name followed by `\s*` would retry the spaces from each of their positions.
_YAML_KEY = re.compile(r"(?P<key>\"[^\"]*\"|'[^']*'|[^\s#\-?:&*!|>'\"%@`{\[](?:[^:#]*[^\s:#])?)\s*:(?:\s|$)")
_YAML_TITLE = re.compile(r"(?:title|name)\s*:")
_YAML_VALUE = re.compile(r"[^#\n{\[|>&*]+")
_DOC_BREAK = re.compile(r"(?:---|\.\.\.)(?:\s|$)")
_TOML_NAME = re.compile(r"\s*name\s*=\s*[\"']([^\"']+)[\"']")
_TABLE = re.compile(r"\s*\[\[?(?P<name>[^\]\[]+)\]\]?\s*(?:[#;].*)?$")   # the name is stripped

_CSS = Language(
    defs=(re.compile(r"(?!\*/)(?!.*,\s*$)(?P<name>[^\s/{}][^{};]*?)\s*(?:\{.*)?$"),),
    line_comment=("//",), quotes="\"'", spaced_comments=True,
    lead=re.compile(r"\s*(?://|/\*|\*|.*,\s*$)"),   # comments, and a selector list's first lines
)
_MAKE = Language(
    defs=(re.compile(r"(?P<name>[^\s:=#][^:=]*?)\s*::?(?!=)"),),
    ends="indent", line_comment=("#",), block_comment=None, quotes="", lead=re.compile(r"#"),
)


def read_yaml(data: bytes, limits: Limits) -> Document:
    """YAML: a top-level key holding a block is a section; `---` separates documents."""
    lines = _lines(data)
    spans: List[Span] = []
    heading: Heading = ()
    pos = 0
    title = ""
    for i, line in enumerate(lines):
        if not line or line[0] in " \t#":
            continue
        if _DOC_BREAK.match(line):
            spans.append((heading, pos, i))
            heading, pos = (), i
            continue
        key = _YAML_KEY.match(line)
        if not title:
            found = _yaml_title(line)
            if found:
                title = found.strip("\"' ")
        if key is None:
            continue
        block = _block_follows(lines, i)
        start = _comment_top(lines, i, pos)
        if block or heading:
            spans.append((heading, pos, start))
            heading, pos = ((key.group("key").strip("\"'"),) if block else ()), start
    spans.append((heading, pos, len(lines)))
    if any(_OPENAPI.match(line) for line in lines):
        spans = [part for span in spans for part in _openapi_parts(span, lines)]
    return Document(title=title, format="yaml", sections=line_sections(spans, lines))


# An OpenAPI (Swagger) description: its paths and definitions are its contents, each
# one of thousands of lines under `paths:` or `definitions:` (`components: schemas:`).
_OPENAPI = re.compile(r"(?:swagger|openapi)\s*:")
_OPENAPI_DEPTH = {"paths": 1, "definitions": 1, "webhooks": 1, "components": 2}


def _openapi_parts(span: Span, lines: Sequence[str]) -> List[Span]:
    """An OpenAPI block cut at its entries: `paths › /containers/{id}/restart`,
    `definitions › RestartPolicy`, `components › schemas › Pet`."""
    heading, start, end = span
    depth = _OPENAPI_DEPTH.get(heading[0]) if len(heading) == 1 else None
    return _nested_parts(heading, start, end, lines, depth) if depth else [span]


def _nested_parts(heading: Heading, start: int, end: int, lines: Sequence[str],
                  depth: int, key_line: Optional[int] = None) -> List[Span]:
    """The span from `start` to `end`, cut where a key at its children's indentation
    holds a block; `depth` levels down. The block's own key line is the first key line
    from `key_line` (default `start`); what stands above it goes with the first part."""
    indent = -1
    cuts: List[Tuple[int, str]] = []
    seen_key = False
    for i in range(start if key_line is None else key_line, end):
        line = lines[i]
        body = line.lstrip(" ")
        if not body or body.startswith("#"):
            continue
        if not seen_key:   # the block's own key line
            seen_key = True
            continue
        width = len(line) - len(body)
        if indent < 0:
            indent = width
        if width == indent and indent > 0:
            key = _YAML_KEY.match(body)
            if key is not None and _block_follows(lines, i):
                cuts.append((i, key.group("key").strip("\"'")))
    if not cuts:
        return [(heading, start, end)]
    parts: List[Span] = []
    for k, (i, key) in enumerate(cuts):
        first = start if k == 0 else i   # the block's key line goes with its first entry
        stop = cuts[k + 1][0] if k + 1 < len(cuts) else end
        if depth > 1:
            parts.extend(_nested_parts(heading + (key,), first, stop, lines, depth - 1, i))
        else:
            parts.append((heading + (key,), first, stop))
    return parts


def _yaml_title(line: str) -> str:
    """The value of a `title:` or `name:` line when it is plain (no `#`, `{`, `[`, `|`,
    `>`, `&` or `*`), without the spaces around it; '' for any other line."""
    key = _YAML_TITLE.match(line)
    if not key or not _YAML_VALUE.fullmatch(line, key.end()):
        return ""
    value = line[key.end():]
    return value.strip() or value[-1]   # only spaces: the last of them, as ever


def _block_follows(lines: Sequence[str], i: int) -> bool:
    """True when the key on line i holds indented lines (or a list) below it."""
    for line in lines[i + 1:i + 50]:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        return line[0] in " \t" or line.startswith("- ") or line.rstrip() == "-"
    return False


def _comment_top(lines: Sequence[str], i: int, floor: int) -> int:
    while i - 1 >= floor and lines[i - 1].startswith("#"):
        i -= 1
    return i


def read_tables(data: bytes, limits: Limits, fmt: str) -> Document:
    """TOML and INI: `[table]` (and `[[array]]`) lines start sections, headed by the name."""
    lines = _lines(data)
    spans: List[Span] = []
    heading: Heading = ()
    pos = 0
    comment = "#" if fmt == "toml" else "#;"
    for i, line in enumerate(lines):
        m = _TABLE.match(line)
        if m and not line.lstrip().startswith(tuple(comment)):
            start = i
            while start - 1 >= pos and lines[start - 1].lstrip()[:1] in tuple(comment) \
                    and lines[start - 1].strip():
                start -= 1
            spans.append((heading, pos, start))
            heading, pos = (m.group("name").strip(),), start
    spans.append((heading, pos, len(lines)))
    title = _toml_name(lines, spans) if fmt == "toml" else ""
    return Document(title=title, format=fmt, sections=line_sections(spans, lines))


def _toml_name(lines: Sequence[str], spans: Sequence[Span]) -> str:
    """The `name` of a pyproject's [project] or a Cargo [package] table."""
    for heading, start, end in spans:
        if heading in (("project",), ("package",), ("tool.poetry",)):
            for line in lines[start:end]:
                m = _TOML_NAME.match(line)
                if m:
                    return m.group(1)
    return ""


def read_css(data: bytes, limits: Limits) -> Document:
    """CSS, SCSS and Less: one section per top-level rule or at-rule, headed by its selector."""
    lines = _lines(data)
    refuse_minified(lines)
    spans = [(tuple(_short(h) for h in heading), a, b)
             for heading, a, b in table_spans(lines, _CSS)]
    return Document(title="", format="css", sections=line_sections(spans, lines))


def read_makefile(data: bytes, limits: Limits) -> Document:
    """Makefile: one section per target with its recipe; variables stay in between."""
    lines = _lines(data)
    return Document(title="", format="makefile",
                    sections=line_sections(table_spans(lines, _MAKE), lines))


def read_dockerfile(data: bytes, limits: Limits) -> Document:
    """Dockerfile: one section per build stage, headed by its FROM line."""
    lines = _lines(data)
    spans: List[Span] = []
    heading: Heading = ()
    pos = 0
    for i, line in enumerate(lines):
        if re.match(r"\s*FROM\s", line, re.IGNORECASE):
            start = _comment_top(lines, i, pos)
            spans.append((heading, pos, start))
            heading, pos = (_short(" ".join(line.split())),), start
    spans.append((heading, pos, len(lines)))
    return Document(title="", format="dockerfile", sections=line_sections(spans, lines))


def _lines(data: bytes) -> List[str]:
    return split_lines(normalise_newlines(decode_text(data)))


def _short(text: str, limit: int = 80) -> str:
    text = " ".join(text.split()).rstrip("{ ").strip()
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"
