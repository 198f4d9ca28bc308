"""From positioned chunks to lines, paragraphs and reading order.

Chunks are taken in content-stream order (usually the writer's reading
order). A chunk stays on the current line while its baseline is within half
a font size of the line's; a gap wider than a tenth of the font size between
two chunks is a space. Lines whose vertical gap exceeds the usual line
spacing by half start a new paragraph. Two-column pages whose stream
interleaves the columns line by line are put back into column order.
"""
from __future__ import annotations

import re
from typing import List, Optional, Tuple

from .content import Chunk

SPACE_GAP = 0.1          # fraction of the font size that makes a word break
BASELINE_TOLERANCE = 0.5
COLUMN_GAP = 3.0         # ems of empty space on a baseline that may separate two columns
# A dot leader (`Installing . . . . . . 12` in a table of contents or an index)
# reads as one ellipsis: `Installing … 12`.
_LEADER = re.compile(r" ?(?:\. ?){4,}")


class Line:
    __slots__ = ("parts", "x0", "x1", "y", "size", "last", "left")

    def __init__(self, chunk: Chunk, x0: float, x1: float, y: float) -> None:
        self.parts: List[str] = [chunk.text]
        self.x0 = x0
        self.x1 = x1
        self.y = y
        self.size = chunk.size
        self.last = chunk.text
        self.left = min(x0, x1)   # the leftmost start, for text drawn right to left

    @property
    def text(self) -> str:
        return "".join(self.parts)


def _frame(chunk: Chunk, dirq: int) -> Tuple[float, float, float]:
    """(start along the text, end along the text, baseline) in the rotated frame."""
    if dirq == 0:
        return chunk.x0, chunk.x1, chunk.y0
    if dirq == 2:
        return -chunk.x0, -chunk.x1, -chunk.y0
    if dirq == 1:
        return chunk.y0, chunk.y1, -chunk.x0
    return -chunk.y0, -chunk.y1, chunk.x0


def lines_of(chunks: List[Chunk]) -> List[Line]:
    """Group chunks into lines, by direction (the dominant one first)."""
    if not chunks:
        return []
    counts = [0, 0, 0, 0]
    for c in chunks:
        counts[c.dirq] += len(c.text)
    order = sorted(range(4), key=lambda d: -counts[d])
    out: List[Line] = []
    for dirq in order:
        if counts[dirq]:
            out.extend(_lines([c for c in chunks if c.dirq == dirq], dirq))
    return out


def _lines(chunks: List[Chunk], dirq: int) -> List[Line]:
    lines: List[Line] = []
    line: Optional[Line] = None
    for c in chunks:
        if dirq == 0:
            x0, x1, y = c.x0, c.x1, c.y0
        else:
            x0, x1, y = _frame(c, dirq)
        size = c.size if c.size > 0.1 else 1.0
        if line is not None:
            big = line.size if line.size > size else size   # max(size, line.size), NaN and all
            tol = BASELINE_TOLERANCE * big
            dy = abs(y - line.y)
            if dy <= tol and x0 >= line.x1 - 0.5 * big and x0 - line.x1 <= COLUMN_GAP * big:
                gap = x0 - line.x1
                if c.text == line.last and abs(x1 - line.x1) < 0.08 * size:
                    continue   # the same text drawn twice (fake bold, shadows)
                if (gap > SPACE_GAP * big or _note_mark(c, size, y, line)) \
                        and not line.parts[-1].endswith(" ") and not c.text.startswith(" "):
                    line.parts.append(" ")
                line.parts.append(c.text)
                line.last = c.text
                line.x1 = max(line.x1, x1)
                line.left = min(line.left, x0)
                if size > line.size and dy > 0.1 * size:
                    pass
                elif size > line.size:
                    line.size = size
                    line.y = y
                continue
            if dy <= 0.1 * size and c.text == line.last and x0 < line.x1:
                continue   # overprinted duplicate going backwards
            if dy <= tol and x1 <= line.left + 0.3 * big and line.left - x1 < 2 * big:
                # drawn right to left (Arabic, Hebrew): stream order is reading order
                if line.left - x1 > SPACE_GAP * big and not line.parts[-1].endswith(" ") \
                        and not c.text.startswith(" "):
                    line.parts.append(" ")
                line.parts.append(c.text)
                line.last = c.text
                line.left = min(line.left, x0)
                continue
        line = Line(c, x0, x1, y)
        line.size = size
        lines.append(line)
    return _rejoin(_columns(lines))


def _note_mark(chunk: Chunk, size: float, y: float, line: Line) -> bool:
    """A footnote call set small and raised right after a number or a word
    (`83,190,556²`, `estimate³`): apart from it, so the number stays a number
    and the word a word. After a short word it is an exponent (`km²`, `R²`)
    and stays joined."""
    if not (size < 0.85 * line.size and y - line.y > 0.2 * line.size
            and _NOTE_MARK.fullmatch(chunk.text.strip())):
        return False
    before = _LAST_WORD.search("".join(line.parts[-6:]))
    if before is None:
        return False
    word = before.group(0)
    return word[-1].isdigit() or len(word) >= 4


_NOTE_MARK = re.compile(r"[0-9*\u2020\u2021\u00a7]{1,3}")
_LAST_WORD = re.compile(r"[^\W_]+$")


def _rejoin(lines: List[Line]) -> List[Line]:
    """Pieces of one baseline split at a wide gap, still next to each other, become one line again."""
    out: List[Line] = []
    for l in lines:
        prev = out[-1] if out else None
        if prev is not None and abs(l.y - prev.y) <= 0.1 * max(l.size, prev.size) and l.x0 >= prev.x1:
            prev.parts.append(" ")
            prev.parts.extend(l.parts)
            prev.x1 = l.x1
            prev.last = l.last
            continue
        out.append(l)
    return out


def _columns(lines: List[Line]) -> List[Line]:
    """Reorder lines of a two-column page whose stream interleaves the columns."""
    if len(lines) < 8:
        return lines
    left = min(l.x0 for l in lines)
    right = max(l.x1 for l in lines)
    mid = (left + right) / 2
    sides = []
    for l in lines:
        if l.x1 <= mid + 0.01 * (right - left):
            sides.append(0)
        elif l.x0 >= mid - 0.01 * (right - left):
            sides.append(1)
        else:
            sides.append(2)
    n_left, n_right = sides.count(0), sides.count(1)
    if n_left < 4 or n_right < 4 or sides.count(2) > 0.3 * len(lines):
        return lines
    switches = sum(1 for a, b in zip(sides, sides[1:]) if a != b and a != 2 and b != 2)
    if switches <= 4:
        return lines   # already column by column
    # real columns are both wide and wordy; a table of contents with its page
    # numbers, or a form with its values on the right, is not two columns
    for side in (0, 1):
        widths = sorted(l.x1 - l.x0 for s, l in zip(sides, lines) if s == side)
        chars = sorted(len(l.text) for s, l in zip(sides, lines) if s == side)
        if widths[len(widths) // 2] < 0.3 * (right - left) or chars[len(chars) // 2] < 15:
            return lines
    # rebuild: full-width lines stay where they are, columns in between go left then right
    out: List[Line] = []
    block: List[Tuple[int, Line]] = []
    for side, l in zip(sides, lines):
        if side == 2:
            out.extend(_flush(block))
            block = []
            out.append(l)
        else:
            block.append((side, l))
    out.extend(_flush(block))
    return out


def _flush(block: List[Tuple[int, Line]]) -> List[Line]:
    lefts = sorted((l for s, l in block if s == 0), key=lambda l: -l.y)
    rights = sorted((l for s, l in block if s == 1), key=lambda l: -l.y)
    return lefts + rights


def paragraphs(lines: List[Line]) -> List[List[Line]]:
    """Split lines into paragraphs by vertical gaps and size changes."""
    if not lines:
        return []
    gaps = []
    for a, b in zip(lines, lines[1:]):
        d = a.y - b.y
        if 0 < d < 3 * max(a.size, b.size):
            gaps.append(d)
    gaps.sort()
    usual = gaps[len(gaps) // 2] if gaps else None
    paras: List[List[Line]] = [[lines[0]]]
    for a, b in zip(lines, lines[1:]):
        d = a.y - b.y
        size = max(a.size, b.size)
        new = False
        if d <= 0.3 * min(a.size, b.size) or d > 3 * size:
            new = True   # going up (a new column or block) or a wide gap
        elif usual is not None and d > 1.4 * usual + 0.1 * size:
            new = True
        elif abs(a.size - b.size) > 0.2 * size:
            new = True
        if new:
            paras.append([b])
        else:
            paras[-1].append(b)
    return paras


def page_text(chunks: List[Chunk]) -> Tuple[str, List[Tuple[str, float]]]:
    """The page's text (paragraphs apart by a blank line) and its lines with sizes."""
    lines = lines_of(chunks)
    out = []
    sized = []
    for para in paragraphs(lines):
        texts = []
        for l in para:
            t = " ".join(l.text.split())
            if "...." in t or ". . . ." in t:
                t = " ".join(_LEADER.sub(" \u2026 ", t).split())
            if t:
                texts.append(t)
                sized.append((t, l.size))
        if texts:
            out.append("\n".join(texts))
    return "\n\n".join(out), sized
