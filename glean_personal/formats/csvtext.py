"""CSV and TSV: rows as text, the header row repeated at the top of every section.

The dialect (delimiter and quoting) is sniffed from the start of the file
with `csv.Sniffer`; when the sniffer cannot decide, a `.csv` is read with
commas and a `.tsv` with tabs. Each row is one line, its cells joined by
` | ` as spreadsheet rows are. Rows are grouped into sections of about one
passage each, and every section starts with the header row, so a passage
found on its own still says what its columns are. Sections are headed by the
rows they hold (`Rows 2–41`, the header being row 1).
"""
from __future__ import annotations

import csv
import io
import sys
from typing import List

from ..config import Limits
from ..document import Document, Section
from .encoding import decode_text
from .sections import CELL_SEPARATOR, ROW_BLOCK_CHARS

SECTION_CHARS = ROW_BLOCK_CHARS   # header plus rows: under one passage window, as for sheets
_SNIFF_CHARS = 16_384
_FIELD_LIMIT = 1_000_000


def read_csv(data: bytes, limits: Limits, fmt: str = "csv") -> Document:
    text = decode_text(data)
    dialect = _dialect(text, fmt)
    warnings: List[str] = []
    old_limit = csv.field_size_limit()
    csv.field_size_limit(min(_FIELD_LIMIT, sys.maxsize))
    rows = csv.reader(io.StringIO(text, newline=""), dialect)
    header = ""
    sections: List[Section] = []
    block: List[str] = []
    first_row = size = 0
    number = 0
    budget = limits.max_text_chars

    def close() -> None:
        if block:
            last = first_row + len(block) - 1
            label = f"Rows {first_row}\u2013{last}" if last > first_row else f"Row {first_row}"
            sections.append(Section((label,), "\n".join([header] + block)))

    try:
        for row in rows:
            line = _line(row)
            if not line:
                continue
            number += 1
            if number == 1:
                header = line
                continue
            if block and size + len(line) + 1 > SECTION_CHARS - len(header):
                close()
                budget -= size + len(header)
                block, size = [], 0
                if budget <= 0:
                    break
            if not block:
                first_row = number
            block.append(line)
            size += len(line) + 1
        close()
    except csv.Error as exc:
        close()
        warnings.append(f"rows after row {number} not read (malformed {fmt.upper()}: {exc})")
    finally:
        csv.field_size_limit(old_limit)
    if not sections and header:
        sections.append(Section((), header))
    return Document(title="", format=fmt, sections=sections, warnings=warnings)


def _line(row: List[str]) -> str:
    cells = [" ".join(cell.split()) for cell in row]
    while cells and not cells[-1]:
        cells.pop()
    return CELL_SEPARATOR.join(cells)


def _dialect(text: str, fmt: str):
    default = csv.excel_tab if fmt == "tsv" else csv.excel
    sample = text[:_SNIFF_CHARS]
    cut = sample.rfind("\n")
    if cut > 0 and len(text) > len(sample):
        sample = sample[:cut]
    try:
        found = csv.Sniffer().sniff(sample, delimiters="\t" if fmt == "tsv" else ",;\t|")
    except (csv.Error, TypeError, ValueError):
        return default
    if fmt == "csv" and found.delimiter not in ",;\t|":
        return default
    return found
