"""Jupyter notebooks (.ipynb): markdown and code cells in order.

Markdown headings (`#` to `######`) start sections, as in a Markdown file.
Every other run of cell text sits under its heading path plus `Cell N` (N is
the cell's position in the notebook, counting from 1), so a hit says which
cell to scroll to. Outputs are mostly images, tables and tracebacks that
the code already explains; only short text outputs (a printed line, a
result's plain-text form, an error's name and message) are kept, after the
cell's source under a line `Output:`.
"""
from __future__ import annotations

import json
import re
from typing import Any, List, Optional

from ..config import Limits
from ..document import Document
from ..errors import SkipFile
from .jsontext import decode_json, load, nesting_depth
from .sections import SectionBuilder
from .text import atx_heading, heading_words, markdown_inline

MAX_OUTPUT_CHARS = 500
_MAX_HEADING_CHARS = 300
_CELL_LEVEL = 7          # below every Markdown heading (1-6)
_LOAD_DEPTH_CEILING = 500
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_BLANK_SPLIT = re.compile(r"\n[ \t]*\n")


def read_ipynb(data: bytes, limits: Limits) -> Document:
    """Cells as sections under the notebook's Markdown headings."""
    text = decode_json(data)
    if nesting_depth(text) > _LOAD_DEPTH_CEILING:
        raise SkipFile("notebook JSON nested too deeply")
    try:
        notebook = load(text)
    except json.JSONDecodeError as exc:
        message = exc.msg[:-3] if exc.msg.endswith(" at") else exc.msg
        raise SkipFile(f"invalid notebook: not JSON ({message} at line {exc.lineno})") from None
    except RecursionError:
        raise SkipFile("notebook JSON nested too deeply") from None
    cells = _cells(notebook)
    # nbformat 2 stored source as lines without their line breaks; 3 and 4 keep them.
    sep = "\n" if isinstance(notebook, dict) and notebook.get("nbformat") in (1, 2) else ""
    builder = SectionBuilder(limits.max_text_chars)
    warnings: List[str] = []
    first_heading: Optional[str] = None
    for number, cell in enumerate(cells, start=1):
        if builder.full:
            break
        if not isinstance(cell, dict):
            warnings.append(f"cell {number} is not a JSON object; left out")
            continue
        kind = cell.get("cell_type")
        source = _joined(cell.get("input") if kind == "code" and "input" in cell
                         else cell.get("source"), sep)
        if kind == "heading":   # nbformat 3 heading cells
            level = cell.get("level") if isinstance(cell.get("level"), int) else 1
            text = " ".join(source.split())
            if len(text) <= _MAX_HEADING_CHARS:
                builder.heading(min(max(level, 1), 6), text)
                first_heading = first_heading or text or None
                continue
            kind = "markdown"
        if kind == "markdown":
            found = _markdown(source, number, builder)
            first_heading = first_heading or found
            continue
        outputs = _short_outputs(cell.get("outputs"), sep) if kind == "code" else []
        if not (source.strip() or outputs):
            continue
        builder.heading(_CELL_LEVEL, f"Cell {number}")
        builder.paragraph(source)
        if outputs:
            builder.paragraph("Output:")
            for output in outputs:
                builder.paragraph(output)
    title = first_heading or _metadata_title(notebook) or ""
    return Document(title=title, format="ipynb", sections=builder.build(), warnings=warnings)


def _cells(notebook: Any) -> List[Any]:
    """The cell list of nbformat 4 (`cells`) or 3 (`worksheets[*].cells`)."""
    if isinstance(notebook, dict):
        if isinstance(notebook.get("cells"), list):
            return notebook["cells"]
        sheets = notebook.get("worksheets")
        if isinstance(sheets, list):
            return [cell for sheet in sheets if isinstance(sheet, dict)
                    and isinstance(sheet.get("cells"), list) for cell in sheet["cells"]]
    raise SkipFile("not a Jupyter notebook (no list of cells)")


def _joined(source: Any, sep: str = "") -> str:
    """Cell source is a string or a list of line strings."""
    if isinstance(source, str):
        return source
    if isinstance(source, list):
        return sep.join(piece for piece in source if isinstance(piece, str))
    return ""


def _markdown(source: str, number: int, builder: SectionBuilder) -> Optional[str]:
    """Headings start sections; text before the first one sits under `Cell N`."""
    first: Optional[str] = None
    block: List[str] = []
    fenced = False
    labelled = False
    comment = False   # inside an HTML comment over lines: hidden, as in a Markdown file

    def flush() -> None:
        nonlocal labelled
        text = "\n".join(block).strip()
        del block[:]
        if not text:
            return
        if not labelled:
            builder.heading(_CELL_LEVEL, f"Cell {number}")
            labelled = True
        for paragraph in _BLANK_SPLIT.split(text):
            builder.paragraph(paragraph)

    math = False     # inside a `$$` display-math block: kept as typed
    indented = False  # in indented code (four spaces after a blank line): kept as typed
    previous = ""
    for line in source.replace("\r\n", "\n").split("\n"):
        indented = (not fenced and line.startswith(("    ", "\t")) and line.strip() != ""
                    and (indented or not previous.strip()))
        previous = line
        if not fenced and line.strip().startswith("$$"):
            math = not math if line.strip() == "$$" or not line.strip().endswith("$$", 2) else math
            block.append(line.rstrip())
            continue
        if math or indented:
            block.append(line.rstrip())
            continue
        if comment:
            end = line.find("-->")
            if end < 0:
                continue
            comment, line = False, line[end + 3:]
        elif not fenced and "<!--" in line and "-->" not in line[line.index("<!--"):]:
            comment, line = True, line[:line.index("<!--")]
        if _FENCE.match(line):
            fenced = not fenced
        heading = None if fenced else atx_heading(line)
        if heading:
            flush()
            text = " ".join(heading_words(markdown_inline(heading[1])).split())
            if len(text) > _MAX_HEADING_CHARS:   # not a heading a person wrote
                block.append(text)
                continue
            if text:
                builder.heading(heading[0], text)
                labelled = True
                first = first or text
            continue
        block.append(line.rstrip() if fenced or _FENCE.match(line) else markdown_inline(line).rstrip())
    flush()
    return first


def _short_outputs(outputs: Any, sep: str) -> List[str]:
    """The text outputs of a code cell that are short enough to be worth reading."""
    found: List[str] = []
    if not isinstance(outputs, list):
        return found
    for output in outputs:
        if not isinstance(output, dict):
            continue
        kind = output.get("output_type")
        if kind == "stream":
            text = _joined(output.get("text"), sep)
        elif kind in ("execute_result", "display_data", "pyout"):
            data = output.get("data") if isinstance(output.get("data"), dict) else output
            text = _joined(data.get("text/plain", data.get("text")), sep)
        elif kind in ("error", "pyerr"):
            text = f"{output.get('ename', '')}: {output.get('evalue', '')}".strip(": ")
        else:
            text = ""
        text = text.strip()
        if text and len(text) <= MAX_OUTPUT_CHARS:
            found.append(text)
    return found


def _metadata_title(notebook: Any) -> Optional[str]:
    meta = notebook.get("metadata") if isinstance(notebook, dict) else None
    title = meta.get("title") if isinstance(meta, dict) else None
    return " ".join(title.split()) if isinstance(title, str) and title.strip() else None
