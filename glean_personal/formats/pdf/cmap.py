"""CMaps: the ToUnicode maps (codes to text) and embedded encoding CMaps.

Only the parts that matter for text are read: `codespacerange` (how many
bytes each code takes), `bfchar`/`bfrange` (both the incrementing form and
the array form) and `cidchar`/`cidrange`. Sizes are bounded so a hostile
range cannot allocate millions of entries.
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Tuple

from .glyphs import glyph_to_unicode

_MAX_ENTRIES = 200_000
_MARK = re.compile(rb"(begin|end)(codespacerange|bfchar|bfrange|cidchar|cidrange)")
_ITEM = re.compile(rb"<([0-9A-Fa-f\s]*)>|\[([^\]]*)\]|/([^\s/<>\[\]()]+)|(\d+)")
_USECMAP = re.compile(rb"/([A-Za-z0-9_.+-]+)\s+usecmap")


class CMap:
    """Code lengths and mappings parsed from one CMap stream."""

    def __init__(self) -> None:
        self.ranges: List[Tuple[int, int, int]] = []    # (nbytes, low, high)
        self.to_text: Dict[Tuple[int, int], str] = {}   # (nbytes, code) -> text
        self.to_cid: Dict[Tuple[int, int], int] = {}
        self.cid_ranges: List[Tuple[int, int, int, int]] = []   # (nbytes, low, high, first cid)
        self.parent: Optional[str] = None

    @property
    def widths(self) -> List[int]:
        return sorted({r[0] for r in self.ranges})

    def split(self, data: bytes) -> List[Tuple[int, int]]:
        """The codes in `data` as (byte count, code) pairs, by the codespace ranges."""
        sizes = self.widths
        if not sizes or sizes == [2]:
            return [(2, (data[i] << 8) | data[i + 1] if i + 1 < len(data) else data[i])
                    for i in range(0, len(data), 2)]
        if sizes == [1]:
            return [(1, b) for b in data]
        out = []
        i = 0
        n = len(data)
        ranges = self.ranges
        while i < n:
            for size in sizes:
                if i + size > n:
                    continue
                code = int.from_bytes(data[i:i + size], "big")
                if any(nb == size and lo <= code <= hi for nb, lo, hi in ranges):
                    out.append((size, code))
                    i += size
                    break
            else:
                size = sizes[0]
                out.append((size, int.from_bytes(data[i:i + size], "big")))
                i += size
        return out

    def cid(self, size: int, code: int) -> int:
        found = self.to_cid.get((size, code))
        if found is not None:
            return found
        for nb, lo, hi, first in self.cid_ranges:
            if nb == size and lo <= code <= hi:
                return first + code - lo
        return code


def _hex(token: bytes) -> bytes:
    digits = re.sub(rb"\s", b"", token)
    if len(digits) % 2:
        digits += b"0"
    try:
        return bytes.fromhex(digits.decode("ascii"))
    except ValueError:
        return b""


def _text(raw: bytes) -> str:
    if len(raw) % 2:
        raw = raw + b"\0"
    text = raw.decode("utf-16-be", "replace")
    return text


def _blocks(data: bytes):
    """(kind, body) of each begin…end block, paired in one pass (an unclosed one is dropped)."""
    open_kind = None
    start = 0
    for m in _MARK.finditer(data):
        if m.group(1) == b"begin":
            open_kind, start = m.group(2), m.end()
        elif open_kind == m.group(2):
            yield open_kind, data[start:m.start()]
            open_kind = None


def parse_cmap(data: bytes) -> CMap:
    cmap = CMap()
    m = _USECMAP.search(data)
    if m:
        cmap.parent = m.group(1).decode("latin-1")
    count = 0
    for kind, body in _blocks(data):
        items = _ITEM.findall(body)
        if kind == b"codespacerange":
            for i in range(0, len(items) - 1, 2):
                lo, hi = _hex(items[i][0]), _hex(items[i + 1][0])
                if lo and len(lo) <= 4:
                    cmap.ranges.append((len(lo), int.from_bytes(lo, "big"), int.from_bytes(hi, "big")))
        elif kind == b"bfchar":
            for i in range(0, len(items) - 1, 2):
                src = _hex(items[i][0])
                dst = items[i + 1]
                if not src:
                    continue
                if dst[2]:
                    text = glyph_to_unicode(dst[2].decode("latin-1")) or ""
                else:
                    text = _text(_hex(dst[0]))
                cmap.to_text[(len(src), int.from_bytes(src, "big"))] = text
        elif kind == b"bfrange":
            i = 0
            while i + 2 < len(items):
                lo, hi, dst = _hex(items[i][0]), _hex(items[i + 1][0]), items[i + 2]
                i += 3
                if not lo or not hi:
                    continue
                size = len(lo)
                a, b = int.from_bytes(lo, "big"), int.from_bytes(hi, "big")
                if b < a or b - a > 0xFFFF or count > _MAX_ENTRIES:
                    continue
                count += b - a + 1
                if dst[1]:   # array form: one destination per code
                    dsts = re.findall(rb"<([0-9A-Fa-f\s]*)>", dst[1])
                    for k, d in enumerate(dsts[:b - a + 1]):
                        cmap.to_text[(size, a + k)] = _text(_hex(d))
                else:
                    start = _hex(dst[0])
                    if not start:
                        continue
                    if len(start) % 2:
                        start += b"\0"
                    units = [int.from_bytes(start[j:j + 2], "big") for j in range(0, len(start), 2)]
                    prefix = _text(start[:-2]) if len(units) > 1 else ""
                    last = units[-1]
                    for k in range(b - a + 1):
                        c = last + k
                        if 0xD800 <= c <= 0xDFFF or c > 0xFFFF:
                            if prefix and 0xDC00 <= c <= 0xDFFF:
                                pair = start[:-2] + c.to_bytes(2, "big")
                                cmap.to_text[(size, a + k)] = pair.decode("utf-16-be", "replace")
                            continue
                        cmap.to_text[(size, a + k)] = prefix + chr(c)
        elif kind == b"cidchar":
            for i in range(0, len(items) - 1, 2):
                src = _hex(items[i][0])
                if src and items[i + 1][3]:
                    cmap.to_cid[(len(src), int.from_bytes(src, "big"))] = int(items[i + 1][3])
        elif kind == b"cidrange":
            for i in range(0, len(items) - 2, 3):
                lo, hi = _hex(items[i][0]), _hex(items[i + 1][0])
                if lo and hi and items[i + 2][3]:
                    cmap.cid_ranges.append((len(lo), int.from_bytes(lo, "big"),
                                            int.from_bytes(hi, "big"), int(items[i + 2][3])))
    if not cmap.ranges and cmap.to_text:
        sizes = {size for size, _ in cmap.to_text}
        for size in sizes:
            cmap.ranges.append((size, 0, (1 << (8 * size)) - 1))
    return cmap
