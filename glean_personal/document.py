"""What a reader returns: a title and ordered sections, plus warnings.

Every format reader produces this one type, so everything downstream
(passages, store, search) is format-blind.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Tuple

SECTION_SEPARATOR = "\n\n"


@dataclass
class Section:
    """A run of text under one heading path (outermost heading first)."""

    heading: Tuple[str, ...]
    text: str

    def to_dict(self) -> dict:
        return {"heading": list(self.heading), "text": self.text}


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
