"""Unicode from an embedded TrueType program's own `cmap` table.

A composite font with `Identity-H` and no ToUnicode still often embeds a
TrueType subset whose `cmap` maps Unicode to glyph ids; inverted, it gives
the text behind each glyph. Only formats 4 and 12 of the Unicode subtables
(3,1), (3,10) and (0,x) are read; anything malformed yields an empty map.
"""
from __future__ import annotations

import struct
from typing import Dict

_MAX_GLYPHS = 70_000


def glyph_unicode(font: bytes) -> Dict[int, str]:
    """glyph id → text, from the font's Unicode cmap (empty when there is none)."""
    try:
        return _read(font)
    except (struct.error, IndexError, ValueError):
        return {}


def _read(font: bytes) -> Dict[int, str]:
    if len(font) < 12:
        return {}
    count = struct.unpack(">H", font[4:6])[0]
    cmap_at = None
    for i in range(min(count, 64)):
        tag, _, offset, _ = struct.unpack(">4sIII", font[12 + 16 * i:28 + 16 * i])
        if tag == b"cmap":
            cmap_at = offset
    if cmap_at is None:
        return {}
    n = struct.unpack(">H", font[cmap_at + 2:cmap_at + 4])[0]
    best = None
    for i in range(min(n, 64)):
        platform, encoding, offset = struct.unpack(">HHI", font[cmap_at + 4 + 8 * i:cmap_at + 12 + 8 * i])
        if (platform, encoding) in ((3, 10), (3, 1)) or platform == 0:
            fmt = struct.unpack(">H", font[cmap_at + offset:cmap_at + offset + 2])[0]
            if fmt in (4, 12) and (best is None or fmt == 12):
                best = (fmt, cmap_at + offset)
    if best is None:
        return {}
    fmt, at = best
    out: Dict[int, str] = {}
    if fmt == 4:
        segs = struct.unpack(">H", font[at + 6:at + 8])[0] // 2
        ends = struct.unpack(f">{segs}H", font[at + 14:at + 14 + 2 * segs])
        base = at + 16 + 2 * segs
        starts = struct.unpack(f">{segs}H", font[base:base + 2 * segs])
        deltas = struct.unpack(f">{segs}h", font[base + 2 * segs:base + 4 * segs])
        range_at = base + 4 * segs
        ranges = struct.unpack(f">{segs}H", font[range_at:range_at + 2 * segs])
        for s in range(segs):
            if starts[s] > ends[s] or ends[s] == 0xFFFF and starts[s] == 0xFFFF:
                continue
            for code in range(starts[s], ends[s] + 1):
                if ranges[s]:
                    where = range_at + 2 * s + ranges[s] + 2 * (code - starts[s])
                    gid = struct.unpack(">H", font[where:where + 2])[0]
                    if gid:
                        gid = (gid + deltas[s]) & 0xFFFF
                else:
                    gid = (code + deltas[s]) & 0xFFFF
                if gid and gid not in out and not 0xD800 <= code <= 0xDFFF:
                    out[gid] = chr(code)
                if len(out) > _MAX_GLYPHS:
                    return out
    else:
        groups = struct.unpack(">I", font[at + 12:at + 16])[0]
        for g in range(min(groups, _MAX_GLYPHS)):
            first, last, gid = struct.unpack(">III", font[at + 16 + 12 * g:at + 28 + 12 * g])
            if last - first > _MAX_GLYPHS:
                continue
            for code in range(first, last + 1):
                if gid not in out and code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF:
                    out[gid] = chr(code)
                gid += 1
            if len(out) > _MAX_GLYPHS:
                break
    return out
