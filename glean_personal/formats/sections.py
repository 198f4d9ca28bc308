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
        self._done: List[Tuple[Tuple[str, ...], List[_Para], bool]] = []
        self._current: List[_Para] = []
        self._keep_if_empty = False   # a heading's text must not vanish
        self._size = 0
        self._budget = budget

    @property
    def full(self) -> bool:
        return self._budget is not None and self._size > self._budget

    @property
    def empty(self) -> bool:
        """Whether no heading or text was added yet."""
        return self._size == 0

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

    def paragraph(self, text: str, line: Optional[int] = None) -> None:
        """Add one paragraph (blank-only text is ignored).

        `line` is the file line the paragraph starts on, for readers whose
        paragraphs are runs of the file's own lines: the sections then keep
        the file's line breaks, so passages can name their lines.
        """
        stripped = text.strip()
        if stripped:
            if line is not None:
                line += text[:len(text) - len(text.lstrip())].count("\n")
            self._current.append((stripped, line))
            self._size += len(stripped) + len(PARAGRAPH_BREAK)

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
        groups: List[Tuple[Tuple[str, ...], List[_Para]]] = []
        for i, (path, paras) in enumerate(raw):
            if not paras:
                later = raw[i + 1][0] if i + 1 < len(raw) else ()
                if later[: len(path)] == path:
                    continue
                paras = [(path[-1], None)]
            if groups and groups[-1][0] == path:   # the same path again: one section
                groups[-1][1].extend(paras)
            else:
                groups.append((path, list(paras)))
        return [_section(path, paras) for path, paras in groups]


# A paragraph's text and the file line it starts on (None where unknown).
_Para = Tuple[str, Optional[int]]


def _section(heading: Tuple[str, ...], paras: List[_Para]) -> Section:
    """Join paragraphs; where every line is known, keep the file's line breaks."""
    if any(line is None for _, line in paras):
        return Section(heading, PARAGRAPH_BREAK.join(text for text, _ in paras))
    parts = [paras[0][0]]
    end = paras[0][1] + paras[0][0].count("\n")
    for text, line in paras[1:]:
        parts.append("\n" * max(2, line - end) + text)
        end = line + text.count("\n")
    return Section(heading, "".join(parts), first_line=paras[0][1])


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


# A block of spreadsheet rows (header included) fits in one passage window.
ROW_BLOCK_CHARS = 1100
_TITLE_ROWS = 3   # one-cell rows above a sheet's header that are its title lines


class RowBlocks:
    """The rows of one sheet, given to a `SectionBuilder` in blocks.

    The sheet's first row of two cells or more is taken as its header; up to
    three one-cell rows above it (a title, a date) are the sheet's opening
    lines, not rows of the table (a sheet of one column has its first row as
    header). A sheet that fits in one
    block stays one section, its rows as they come. A longer one is cut into
    blocks of about one passage, each a section headed (sheet, `Rows 2–41`)
    that starts with the header row, as CSV files are read: a passage found
    on its own still says what its columns are.
    """

    def __init__(self, builder: SectionBuilder, name: str) -> None:
        self.builder = builder
        self.name = name
        self.header: Optional[str] = None
        self.blocks = 0                        # blocks written as sections of their own
        self._held: List[Tuple[int, str]] = []  # (row number, text) not given out yet
        self._chars = 0
        self._titles: List[Tuple[int, str]] = []   # one-cell rows before the header

    def add(self, number: int, text: str) -> None:
        """One non-empty row, with its row number in the sheet (1-based)."""
        if self.header is not None:
            self._hold(number, text)
        elif CELL_SEPARATOR not in text and len(self._titles) < _TITLE_ROWS:
            self._titles.append((number, text))
        elif CELL_SEPARATOR in text:
            for _, title in self._titles:
                self.builder.paragraph(title)
            self._titles, self.header = [], text
        else:   # a sheet of one column: its first row heads it
            first, *rest = self._titles + [(number, text)]
            self._titles, self.header = [], first[1]
            for row in rest:
                self._hold(*row)

    def _hold(self, number: int, text: str) -> None:
        assert self.header is not None
        if self._held and self._chars + len(text) + 1 > ROW_BLOCK_CHARS - len(self.header):
            self._flush(last=False)
        self._held.append((number, text))
        self._chars += len(text) + 1

    def finish(self) -> bool:
        """Give out what is held; True when the sheet was cut into blocks."""
        for _, title in self._titles:   # a sheet of a few one-cell rows
            self.builder.paragraph(title)
        self._titles = []
        self._flush(last=True)
        return self.blocks > 0

    def _flush(self, last: bool) -> None:
        if last and self.blocks == 0:
            if self.header is not None:
                self.builder.paragraph(self.header)
        elif self._held:
            first, end = self._held[0][0], self._held[-1][0]
            label = f"Rows {first}\u2013{end}" if end > first else f"Row {first}"
            self.builder.section((self.name, label))
            self.builder.paragraph(self.header or "")
            self.blocks += 1
        for _, text in self._held:
            self.builder.paragraph(text)
        self._held, self._chars = [], 0
