"""Turns a stream of headings and paragraphs into `Section`s.

Every reader that knows about headings (Markdown, HTML, DOCX) feeds this one
builder, so the heading-path rules and the empty-section rules are the same
for all of them. State is a flat list, never recursion, so hostile nesting
costs nothing extra.
"""
from __future__ import annotations

from typing import List, Optional, Tuple

from ..document import Section

PARAGRAPH_BREAK = "\n\n"


class SectionBuilder:
    """Collects paragraphs under the current heading path.

    `budget` is the character count after which `full` turns true, so a
    reader can stop early instead of extracting text that will be cut anyway.
    """

    def __init__(self, budget: Optional[int] = None) -> None:
        self._stack: List[Tuple[int, str]] = []      # (level, heading text)
        self._done: List[Tuple[Tuple[str, ...], List[str], bool]] = []
        self._current: List[str] = []
        self._keep_if_empty = False   # a heading's text must not vanish
        self._size = 0
        self._budget = budget

    @property
    def full(self) -> bool:
        return self._budget is not None and self._size > self._budget

    def heading(self, level: int, text: str) -> None:
        """Start a section; `level` 1 is outermost (level 0 sits above it)."""
        text = " ".join(text.split())
        if not text:
            return
        self._close()
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()
        self._stack.append((level, text))
        self._keep_if_empty = True
        self._size += len(text)

    def paragraph(self, text: str) -> None:
        """Add one paragraph (blank-only text is ignored)."""
        text = text.strip()
        if text:
            self._current.append(text)
            self._size += len(text) + len(PARAGRAPH_BREAK)

    def section(self, heading: Tuple[str, ...]) -> None:
        """Start a section with an explicit heading path (sheets, slides, notes).

        Unlike a document heading, such a label is dropped if nothing follows it.
        """
        self._close()
        self._stack = [(i, h) for i, h in enumerate(heading)]
        self._keep_if_empty = False

    def _close(self) -> None:
        path = tuple(h for _, h in self._stack)
        self._done.append((path, self._current, self._keep_if_empty))
        self._current = []
        self._keep_if_empty = False

    def build(self) -> List[Section]:
        """Sections in order; empty ones dropped unless their heading would vanish.

        A heading with no body of its own is kept (with the heading as its text)
        only when no later section carries it in its path, so a trailing or
        standalone heading stays searchable without doubling every heading.
        """
        self._close()
        raw = [(path, paras) for path, paras, keep in self._done if paras or (path and keep)]
        out: List[Section] = []
        for i, (path, paras) in enumerate(raw):
            if paras:
                out.append(Section(path, PARAGRAPH_BREAK.join(paras)))
                continue
            later = raw[i + 1][0] if i + 1 < len(raw) else ()
            if later[: len(path)] != path:
                out.append(Section(path, path[-1]))
        return _merge_adjacent(out)


def _merge_adjacent(sections: List[Section]) -> List[Section]:
    """Join consecutive sections that ended up with the same heading path."""
    groups: List[Tuple[Tuple[str, ...], List[str]]] = []
    for sec in sections:
        if groups and groups[-1][0] == sec.heading:
            groups[-1][1].append(sec.text)
        else:
            groups.append((sec.heading, [sec.text]))
    return [Section(heading, PARAGRAPH_BREAK.join(texts)) for heading, texts in groups]


CELL_SEPARATOR = " | "


def end_cell(cells: List[List[str]], rows: List[List[str]]) -> None:
    """A table cell closed (Word or slide tables): its words join its row."""
    text = " ".join(" ".join(cells.pop()).split())
    if rows:
        rows[-1].append(text)


def end_row(rows: List[List[str]], cells: List[List[str]]) -> str:
    """A table row closed: its line, or "" when empty or kept by an enclosing cell."""
    line = CELL_SEPARATOR.join(cell for cell in rows.pop() if cell)
    if line and cells:  # a nested table's row belongs to the outer cell
        cells[-1].append(line)
        return ""
    return line
