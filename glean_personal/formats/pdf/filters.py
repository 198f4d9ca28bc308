"""Stream filters: Flate (with predictors), LZW, ASCIIHex, ASCII85, RunLength.

Every decoder takes an output cap and stops there, so a stream bomb costs at
most the cap. A damaged stream gives what could be decoded before the damage,
as viewers do. Image filters are never decoded: `decode` returns None for
them, and the caller leaves the stream alone.
"""
from __future__ import annotations

import re
import zlib
from typing import Any, List, Optional

IMAGE_FILTERS = frozenset({"DCTDecode", "DCT", "JPXDecode", "JBIG2Decode", "CCITTFaxDecode", "CCF"})
_ABBREV = {"Fl": "FlateDecode", "LZW": "LZWDecode", "AHx": "ASCIIHexDecode",
           "A85": "ASCII85Decode", "RL": "RunLengthDecode"}


class FilterLimit(Exception):
    """A stream inflated past its cap."""


def decode(raw: bytes, filters: Any, parms: Any, cap: int) -> Optional[bytes]:
    """Apply the filter chain; None when an image filter (or an unknown one) is met."""
    if filters is None:
        return raw[:cap]
    if not isinstance(filters, list):
        filters = [filters]
    if not isinstance(parms, list):
        parms = [parms] * len(filters) if parms is not None else []
    data = raw
    for i, name in enumerate(filters):
        name = _ABBREV.get(str(name), str(name))
        parm = parms[i] if i < len(parms) and isinstance(parms[i], dict) else {}
        if name == "FlateDecode":
            data = predict(inflate(data, cap), parm)
        elif name == "LZWDecode":
            data = predict(lzw(data, cap, parm.get("EarlyChange", 1)), parm)
        elif name == "ASCIIHexDecode":
            data = ascii_hex(data)
        elif name == "ASCII85Decode":
            data = ascii85(data)
        elif name == "RunLengthDecode":
            data = run_length(data, cap)
        elif name == "Crypt":
            continue
        else:
            return None
        if len(data) > cap:
            raise FilterLimit()
    return data


def inflate(data: bytes, cap: int) -> bytes:
    out = _inflate(data, cap, zlib.MAX_WBITS)
    if out is None:   # a stream without its zlib header, or damaged at once
        out = _inflate(data, cap, -zlib.MAX_WBITS) or b""
    return out


def _inflate(data: bytes, cap: int, wbits: int) -> Optional[bytes]:
    d = zlib.decompressobj(wbits)
    out = []
    size = 0
    step = 1 << 16
    pos = 0
    try:
        while pos < len(data):
            chunk = d.decompress(data[pos:pos + step], cap + 1 - size)
            pos += step
            while True:
                out.append(chunk)
                size += len(chunk)
                if size > cap:
                    raise FilterLimit()
                if not d.unconsumed_tail:
                    break
                chunk = d.decompress(d.unconsumed_tail, cap + 1 - size)
            if d.eof:
                break
        out.append(d.flush())
    except zlib.error:
        if size == 0:
            return None
    return b"".join(out)


def predict(data: bytes, parm: dict) -> bytes:
    pred = parm.get("Predictor", 1)
    if not isinstance(pred, int) or pred < 2:
        return data
    colors = _int(parm.get("Colors"), 1)
    bpc = _int(parm.get("BitsPerComponent"), 8)
    columns = _int(parm.get("Columns"), 1)
    bpp = max(1, colors * bpc // 8)
    row = (colors * bpc * columns + 7) // 8
    if row <= 0:
        return data
    if pred == 2:
        if bpc != 8:
            return data
        out = bytearray(data)
        for start in range(0, len(out), row):
            for i in range(start + bpp, min(start + row, len(out))):
                out[i] = (out[i] + out[i - bpp]) & 0xFF
        return bytes(out)
    out = bytearray()
    prev = bytearray(row)
    for start in range(0, len(data), row + 1):
        ftype = data[start]
        cur = bytearray(data[start + 1:start + 1 + row])
        if len(cur) < row:
            cur.extend(bytes(row - len(cur)))
        if ftype == 1:
            for i in range(bpp, row):
                cur[i] = (cur[i] + cur[i - bpp]) & 0xFF
        elif ftype == 2:
            cur = bytearray((a + b) & 0xFF for a, b in zip(cur, prev))
        elif ftype == 3:
            for i in range(row):
                left = cur[i - bpp] if i >= bpp else 0
                cur[i] = (cur[i] + ((left + prev[i]) >> 1)) & 0xFF
        elif ftype == 4:
            for i in range(row):
                a = cur[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                cur[i] = (cur[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        out += cur
        prev = cur
    return bytes(out)


def _int(value: Any, default: int) -> int:
    return value if isinstance(value, int) and 0 < value < 1 << 20 else default


def lzw(data: bytes, cap: int, early: Any = 1) -> bytes:
    early = 1 if early not in (0, 1) else early
    out = bytearray()
    table: List[bytes] = [bytes((i,)) for i in range(256)] + [b"", b""]
    width = 9
    bitbuf = 0
    bits = 0
    prev: Optional[bytes] = None
    for byte in data:
        bitbuf = (bitbuf << 8) | byte
        bits += 8
        while bits >= width:
            bits -= width
            code = (bitbuf >> bits) & ((1 << width) - 1)
            bitbuf &= (1 << bits) - 1
            if code == 256:
                table = table[:258]
                width = 9
                prev = None
                continue
            if code == 257:
                return bytes(out)
            if code < len(table):
                entry = table[code]
                if prev is not None:
                    table.append(prev + entry[:1])
            elif prev is not None:
                entry = prev + prev[:1]
                table.append(entry)
            else:
                return bytes(out)
            out += entry
            if len(out) > cap:
                raise FilterLimit()
            prev = entry
            n = len(table) + early
            if n >= 4096:
                width = 12
            elif n >= 2048:
                width = 12
            elif n >= 1024:
                width = 11
            elif n >= 512:
                width = 10
    return bytes(out)


_HEX_KEEP = re.compile(rb"[^0-9A-Fa-f]")


def ascii_hex(data: bytes) -> bytes:
    end = data.find(b">")
    if end >= 0:
        data = data[:end]
    digits = _HEX_KEEP.sub(b"", data)
    if len(digits) % 2:
        digits += b"0"
    return bytes.fromhex(digits.decode("ascii"))


_A85_JUNK = re.compile(rb"[^!-uz]")


def ascii85(data: bytes) -> bytes:
    end = data.find(b"~>")
    if end >= 0:
        data = data[:end]
    if data.startswith(b"<~"):
        data = data[2:]
    data = _A85_JUNK.sub(b"", data)
    out = bytearray()
    group: List[int] = []
    for c in data:
        if c == 0x7A and not group:   # 'z'
            out += b"\0\0\0\0"
            continue
        if c == 0x7A:
            continue
        group.append(c - 33)
        if len(group) == 5:
            v = 0
            for d in group:
                v = v * 85 + d
            out += (v & 0xFFFFFFFF).to_bytes(4, "big")
            group = []
    if len(group) > 1:
        n = len(group)
        group += [84] * (5 - n)
        v = 0
        for d in group:
            v = v * 85 + d
        out += (v & 0xFFFFFFFF).to_bytes(4, "big")[:n - 1]
    return bytes(out)


def run_length(data: bytes, cap: int) -> bytes:
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        length = data[i]
        i += 1
        if length == 128:
            break
        if length < 128:
            out += data[i:i + length + 1]
            i += length + 1
        else:
            if i < n:
                out += bytes((data[i],)) * (257 - length)
            i += 1
        if len(out) > cap:
            raise FilterLimit()
    return bytes(out)
