"""Fonts: from the bytes a text operator shows to Unicode text and advances.

The ToUnicode CMap wins where there is one. Otherwise a simple font's codes
go through its `/Encoding` (a base encoding plus `/Differences`, or the
encoding inside an embedded Type 1 program) and the glyph names through the
Adobe Glyph List rules; a composite font with a `Uni…-UCS2` CMap is read as
UTF-16. A font with no road to Unicode yields no text and a warning.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Dict, List, Optional, Tuple

from .cff import builtin_encoding
from .cmap import CMap, parse_cmap
from .glyphs import ENCODINGS, STANDARD, WIN_ANSI, glyph_to_unicode, normalise
from .lexer import Name, Stream
from .truetype import glyph_unicode

# Approximate advance widths (1/1000 em) of the standard fonts for ASCII 32..126,
# used only when a font dictionary leaves its /Widths out.
_HELVETICA = [int(x) for x in (
    "278 278 355 556 556 889 667 222 333 333 389 584 278 333 278 278 556 556 556 556 556 556 556 556 "
    "556 556 278 278 584 584 584 556 1015 667 667 722 722 667 611 778 722 278 500 667 556 833 722 "
    "778 667 778 722 667 611 722 667 944 667 667 611 278 278 278 469 556 222 556 556 500 556 556 "
    "278 556 556 222 222 500 222 833 556 556 556 556 333 500 278 556 500 722 500 500 500 334 260 "
    "334 584").split()]
_TIMES = [int(x) for x in (
    "250 333 408 500 500 833 778 333 333 333 500 564 250 333 250 278 500 500 500 500 500 500 500 500 "
    "500 500 278 278 564 564 564 444 921 722 667 667 722 611 556 722 722 333 389 722 611 889 722 "
    "722 556 722 667 556 611 722 722 944 722 722 611 333 278 333 469 500 333 444 500 444 500 444 "
    "333 500 500 278 278 500 278 778 500 500 500 500 333 389 278 500 500 722 500 500 444 480 200 "
    "480 541").split()]
_TYPE1_ENCODING = re.compile(rb"dup\s+(\d{1,3})\s*/([^\s/\[\]{}()<>]+)\s+put")


# Decoded strings a font keeps (`Font.decode`): up to this many, of up to this many bytes.
_KEPT_STRINGS = 16384
_KEPT_LENGTH = 32


class Font:
    """What the text interpreter needs from one font resource."""

    def __init__(self) -> None:
        self.two_byte = False
        self.cmap: Optional[CMap] = None          # code splitting for composite fonts
        self.to_unicode: Optional[CMap] = None
        self.table: Optional[Dict[int, str]] = None   # simple fonts: code -> text
        self.widths: Dict[int, float] = {}            # code (simple) or CID -> 1/1000 em
        self.default_width = 500.0
        self.scale = 1.0          # Type 3 glyph space to 1/1000 em
        self.unmapped = False     # no way to Unicode
        self.utf16 = False
        self.cid_text: Optional[Dict[int, str]] = None   # from an embedded TrueType cmap
        self._width_list: Optional[List[float]] = None     # simple fonts: widths by code
        self.vertical = False
        self.name = ""
        self._decoded: Dict[bytes, Tuple[str, float, int, int]] = {}

    def decode(self, raw: bytes) -> Tuple[str, float, int, int]:
        """(text, summed widths in 1/1000 em, glyph count, single-byte spaces).

        A short string's answer is kept: a page set glyph by glyph shows the same
        few strings hundreds of thousands of times, and a font does not change
        once loaded."""
        got = self._decoded.get(raw)
        if got is None:
            got = self._decode(raw)
            if len(raw) <= _KEPT_LENGTH and len(self._decoded) < _KEPT_STRINGS:
                self._decoded[raw] = got
        return got

    def _decode(self, raw: bytes) -> Tuple[str, float, int, int]:
        if not self.two_byte:
            table = self._width_list
            if table is None:
                dw = self.default_width
                table = self._width_list = [self.widths.get(b, dw) for b in range(256)]
            total = sum(map(table.__getitem__, raw)) * self.scale
            if self.unmapped:
                text = ""
            elif self.table is not None:
                text = raw.decode("latin-1").translate(self.table)
            else:
                text = raw.decode("latin-1")
            return text, total, len(raw), raw.count(32)
        assert self.cmap is not None
        codes = self.cmap.split(raw)
        total = 0.0
        widths = self.widths
        dw = self.default_width
        cmap = self.cmap
        for size, code in codes:
            total += widths.get(cmap.cid(size, code), dw)
        spaces = sum(1 for size, code in codes if size == 1 and code == 32)
        if self.to_unicode is not None:
            m = self.to_unicode.to_text
            text = "".join(m.get((size, code), "") for size, code in codes)
        elif self.utf16:
            text = raw.decode("utf-16-be", "ignore")
        elif self.cid_text is not None:
            m2 = self.cid_text
            text = "".join(m2.get(cmap.cid(size, code), "") for size, code in codes)
        else:
            text = ""
        return text, total, len(codes), spaces


def load_font(fontdict: Any, resolve: Callable[[Any], Any], stream_data: Callable[[Stream], Optional[bytes]]) -> Font:
    font = Font()
    if not isinstance(fontdict, dict):
        font.unmapped = True
        return font
    subtype = resolve(fontdict.get("Subtype"))
    font.name = str(resolve(fontdict.get("BaseFont")) or "")
    tu = resolve(fontdict.get("ToUnicode"))
    to_unicode = None
    if isinstance(tu, Stream):
        body = stream_data(tu)
        if body:
            to_unicode = parse_cmap(body)
            if not to_unicode.to_text:
                to_unicode = None
    if subtype == "Type0":
        _composite(font, fontdict, resolve, stream_data, to_unicode)
    else:
        _simple(font, fontdict, resolve, stream_data, to_unicode, subtype)
    return font


def _composite(font: Font, fontdict: dict, resolve, stream_data, to_unicode: Optional[CMap]) -> None:
    font.two_byte = True
    font.default_width = 1000.0
    enc = resolve(fontdict.get("Encoding"))
    cmap = CMap()
    if isinstance(enc, Stream):
        body = stream_data(enc)
        if body:
            cmap = parse_cmap(body)
        if resolve(enc.get("WMode")) == 1:
            font.vertical = True
    elif isinstance(enc, Name):
        if enc.endswith("-V"):
            font.vertical = True
        if enc.startswith("Uni") and ("UCS2" in enc or "UTF16" in enc):
            font.utf16 = True
    if not cmap.ranges:
        if isinstance(enc, Name) and enc.startswith("Identity"):
            cmap.ranges.append((2, 0, 0xFFFF))
        elif to_unicode is not None and to_unicode.ranges:
            cmap.ranges = list(to_unicode.ranges)
        else:
            cmap.ranges.append((2, 0, 0xFFFF))
    font.cmap = cmap
    font.to_unicode = to_unicode
    descendants = resolve(fontdict.get("DescendantFonts"))
    desc = resolve(descendants[0]) if isinstance(descendants, list) and descendants else None
    if isinstance(desc, dict):
        dw = resolve(desc.get("DW"))
        if isinstance(dw, (int, float)):
            font.default_width = float(dw)
        w = resolve(desc.get("W"))
        if isinstance(w, list):
            font.widths = _cid_widths(w, resolve)
    if to_unicode is None and not font.utf16 and isinstance(desc, dict):
        font.cid_text = _truetype_text(desc, resolve, stream_data)
    if to_unicode is None and not font.utf16 and not font.cid_text:
        font.unmapped = True


def _truetype_text(desc: dict, resolve, stream_data) -> Optional[Dict[int, str]]:
    """CID → text through the embedded TrueType program's cmap and the CIDToGIDMap."""
    descriptor = resolve(desc.get("FontDescriptor"))
    program = resolve(descriptor.get("FontFile2")) if isinstance(descriptor, dict) else None
    if not isinstance(program, Stream):
        return None
    body = stream_data(program)
    by_glyph = glyph_unicode(body) if body else {}
    if not by_glyph:
        return None
    to_gid = resolve(desc.get("CIDToGIDMap"))
    if isinstance(to_gid, Stream):
        table = stream_data(to_gid) or b""
        out = {}
        for cid in range(min(len(table) // 2, 65536)):
            text = by_glyph.get((table[2 * cid] << 8) | table[2 * cid + 1])
            if text is not None:
                out[cid] = text
        return out
    return by_glyph


def _cid_widths(w: list, resolve) -> Dict[int, float]:
    out: Dict[int, float] = {}
    i = 0
    n = len(w)
    while i + 1 < n and len(out) < 200_000:
        first = resolve(w[i])
        second = resolve(w[i + 1])
        if not isinstance(first, int):
            i += 1
            continue
        if isinstance(second, list):
            for k, v in enumerate(second):
                v = resolve(v)
                if isinstance(v, (int, float)):
                    out[first + k] = float(v)
            i += 2
        elif isinstance(second, int) and i + 2 < n:
            v = resolve(w[i + 2])
            if isinstance(v, (int, float)) and 0 <= second - first <= 65535:
                for cid in range(first, second + 1):
                    out[cid] = float(v)
            i += 3
        else:
            break
    return out


def _simple(font: Font, fontdict: dict, resolve, stream_data, to_unicode: Optional[CMap], subtype: Any) -> None:
    first = resolve(fontdict.get("FirstChar"))
    widths = resolve(fontdict.get("Widths"))
    descriptor = resolve(fontdict.get("FontDescriptor"))
    if not isinstance(descriptor, dict):
        descriptor = {}
    if subtype == "Type3":
        matrix = resolve(fontdict.get("FontMatrix"))
        if isinstance(matrix, list) and matrix and isinstance(resolve(matrix[0]), (int, float)):
            font.scale = float(resolve(matrix[0])) * 1000.0
    if isinstance(widths, list) and isinstance(first, int):
        for k, v in enumerate(widths[:256]):
            v = resolve(v)
            if isinstance(v, (int, float)):
                font.widths[first + k] = float(v)
        missing = resolve(descriptor.get("MissingWidth"))
        font.default_width = float(missing) if isinstance(missing, (int, float)) and missing else 500.0
    else:
        base = font.name.split("+")[-1]
        if base.startswith("Courier"):
            font.default_width = 600.0
        else:
            table = _TIMES if base.startswith("Times") else _HELVETICA
            font.widths = {32 + k: float(v) for k, v in enumerate(table)}
            font.default_width = 556.0 if table is _HELVETICA else 500.0
    if to_unicode is not None:
        font.table = {code: text for (size, code), text in to_unicode.to_text.items() if size == 1 and code < 256}
        # codes the ToUnicode map leaves out fall back to the encoding
        fallback = _encoding_table(fontdict, resolve, stream_data, descriptor, subtype)
        if fallback is not None:
            for code, text in fallback.items():
                font.table.setdefault(code, text)
        for code in range(256):
            font.table.setdefault(code, "")
        font.table = {k: normalise(v) for k, v in font.table.items()}
        return
    table = _encoding_table(fontdict, resolve, stream_data, descriptor, subtype)
    if table is None:
        font.unmapped = True
        return
    font.table = table


def _encoding_table(fontdict: dict, resolve, stream_data, descriptor: dict, subtype: Any) -> Optional[Dict[int, str]]:
    enc = resolve(fontdict.get("Encoding"))
    base: Optional[List[Optional[str]]] = None
    differences = None
    if isinstance(enc, Name):
        base = ENCODINGS.get(enc)
    elif isinstance(enc, dict):
        name = resolve(enc.get("BaseEncoding"))
        if isinstance(name, Name):
            base = ENCODINGS.get(name)
        differences = resolve(enc.get("Differences"))
    flags = resolve(descriptor.get("Flags"))
    symbolic = isinstance(flags, int) and bool(flags & 4) and not flags & 32
    codes: Dict[int, str] = {}
    builtin = None
    if base is None:
        builtin = _builtin_encoding(descriptor, resolve, stream_data)
        if builtin is not None:
            codes.update(builtin)
        elif subtype == "TrueType" or not symbolic:
            base = STANDARD if subtype != "TrueType" else WIN_ANSI
    if base is not None:
        for code, text in enumerate(base):
            if text is not None:
                codes[code] = text
    bad = 0
    if isinstance(differences, list):
        code = 0
        for item in differences:
            item = resolve(item)
            if isinstance(item, int):
                code = item
            elif isinstance(item, Name):
                if 0 <= code < 256:
                    text = glyph_to_unicode(item)
                    if text is None:
                        bad += 1
                        codes.pop(code, None)
                    else:
                        codes[code] = text
                code += 1
    if not codes:
        return None
    if bad and bad >= len(codes):
        return None
    table = {code: text for code, text in codes.items()}
    for code in range(256):
        table.setdefault(code, "")
    return table


def _builtin_encoding(descriptor: dict, resolve, stream_data) -> Optional[Dict[int, str]]:
    """The encoding array inside an embedded Type 1 font program."""
    program = resolve(descriptor.get("FontFile"))
    if not isinstance(program, Stream):
        cff = resolve(descriptor.get("FontFile3"))
        if isinstance(cff, Stream) and resolve(cff.get("Subtype")) == "Type1C":
            body = stream_data(cff)
            names = builtin_encoding(body) if body else None
            if names is None:
                return {c: t for c, t in enumerate(STANDARD) if t is not None} if body else None
            found = {}
            for code, glyph in names.items():
                text = glyph_to_unicode(glyph)
                if text is not None:
                    found[code] = text
            return found or None
        return None
    body = stream_data(program)
    if not body:
        return None
    length1 = resolve(program.get("Length1"))
    clear = body[:length1] if isinstance(length1, int) and 0 < length1 <= len(body) else body[:65536]
    if b"/Encoding" in clear and b"StandardEncoding def" in clear:
        return {c: t for c, t in enumerate(STANDARD) if t is not None}
    found: Dict[int, str] = {}
    for m in _TYPE1_ENCODING.finditer(clear):
        text = glyph_to_unicode(m.group(2).decode("latin-1"))
        code = int(m.group(1))
        if text is not None and code < 256:
            found[code] = text
    return found or None
