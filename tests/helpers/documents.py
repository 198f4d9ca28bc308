"""What a reader returned, seen as the file it came from."""
from __future__ import annotations

from typing import Dict


def lines_of(doc) -> Dict[int, str]:
    """{file line: text line} over every section (the text keeps the file's lines)."""
    out = {}
    for sec in doc.sections:
        for k, line in enumerate(sec.text.split("\n")):
            out[sec.first_line + k] = line
    return out
