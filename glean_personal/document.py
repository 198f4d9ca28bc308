"""What a reader returns: a title and ordered sections, plus warnings.

Every format reader produces this one type, so everything downstream
(passages, store, search) is format-blind.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Tuple

SECTION_SEPARATOR = "\n\n"


@dataclass
class Section:
    """A run of text under one heading path (outermost heading first).

    `first_line` is the 1-based line of the source file where `text` starts,
    for readers whose text keeps the file's line breaks (plain text, code):
    line k of `text` is then line `first_line + k` of the file. `page` is the
    label of the page the text is on (PDF). Both stay None where they mean
    nothing, and nothing downstream invents them.
    """

    heading: Tuple[str, ...]
    text: str
    first_line: Optional[int] = None
    page: Optional[str] = None

    def to_dict(self) -> dict:
        out = {"heading": list(self.heading), "text": self.text}
        if self.first_line is not None:
            out["first_line"] = self.first_line
        if self.page is not None:
            out["page"] = self.page
        return out


@dataclass
class Document:
    """One file's extracted content."""

    title: str
    format: str
    sections: List[Section] = field(default_factory=list)
    warnings: List[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The document text that passage offsets point into."""
        return SECTION_SEPARATOR.join(s.text for s in self.sections)

    def to_dict(self) -> dict:
        return {
            "title": self.title,
            "format": self.format,
            "sections": [s.to_dict() for s in self.sections],
            "warnings": list(self.warnings),
        }
