"""ZIP archives written member by member from precompressed data.

`ZipWriter` lets the tests build bombs (overlapping entries, lying headers)
that `zipfile` refuses to write; `overlapping_block` builds the kernel of an
overlapping bomb.
"""
from __future__ import annotations

import struct
import zlib
from typing import Iterable, List, Optional, Tuple

class ZipWriter:
    """Members from precompressed raw-deflate data; the central directory may lie."""

    def __init__(self) -> None:
        self.body = bytearray()
        self.central: List[bytes] = []

    @staticmethod
    def local_header(name: bytes, crc: int, csize: int, usize: int, method: int = 8) -> bytes:
        return struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 20, 0, method, 0, 0x21,
                           crc, csize, usize, len(name), 0) + name

    def add_raw(self, name: str, data: bytes, crc: int, usize: int, method: int = 8,
                declared_usize: Optional[int] = None) -> None:
        """One member; `declared_usize` puts a different size in both headers."""
        raw = name.encode("utf-8")
        size = usize if declared_usize is None else declared_usize
        self.add_entry(raw, len(self.body), crc, len(data), size, method)
        self.body += self.local_header(raw, crc, len(data), size, method) + data

    def add(self, name: str, content: bytes) -> None:
        c = zlib.compressobj(6, zlib.DEFLATED, -15)
        self.add_raw(name, c.compress(content) + c.flush(), zlib.crc32(content), len(content))

    def add_entry(self, raw_name: bytes, offset: int, crc: int, csize: int, usize: int,
                  method: int = 8) -> None:
        self.central.append(struct.pack(
            "<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", 20, 20, 0, method, 0, 0x21, crc, csize,
            usize, len(raw_name), 0, 0, 0, 0, 0, offset) + raw_name)

    def getvalue(self) -> bytes:
        cd = b"".join(self.central)
        return bytes(self.body) + cd + struct.pack(
            "<4sHHHHIIH", b"PK\x05\x06", 0, 0, len(self.central), len(self.central),
            len(cd), len(self.body), 0)


def crc32_combine(crc1: int, crc2: int, len2: int) -> int:
    """zlib's crc32_combine: the CRC of A+B from crc(A), crc(B) and len(B)."""
    def times(mat: List[int], vec: int) -> int:
        out, i = 0, 0
        while vec:
            if vec & 1:
                out ^= mat[i]
            vec >>= 1
            i += 1
        return out

    def square(mat: List[int]) -> List[int]:
        return [times(mat, mat[n]) for n in range(32)]

    if len2 <= 0:
        return crc1
    odd = [0xEDB88320] + [1 << n for n in range(31)]
    even = square(odd)
    odd = square(even)
    while True:
        even = square(odd)
        if len2 & 1:
            crc1 = times(even, crc1)
        len2 >>= 1
        if not len2:
            break
        odd = square(even)
        if len2 & 1:
            crc1 = times(odd, crc1)
        len2 >>= 1
        if not len2:
            break
    return crc1 ^ crc2


def overlapping_block(names: Iterable[str], kernel_bytes: int) -> Tuple[bytes, List[tuple]]:
    """David Fifield's "better zip bomb": every member's data quotes the next member's
    local header in a stored deflate block, then runs on into the next member's data,
    so all members share one kernel of `kernel_bytes` inflated bytes.

    Returns the block and (raw name, offset in block, crc, csize, usize) per member.
    """
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    kernel = c.compress(b"a" * kernel_bytes) + c.flush()
    crc, usize, csize = zlib.crc32(b"a" * kernel_bytes), kernel_bytes, len(kernel)
    raw_names = [n.encode("utf-8") for n in names]
    headers: List[bytes] = []
    entries: List[list] = []
    for i in range(len(raw_names) - 1, -1, -1):
        header = ZipWriter.local_header(raw_names[i], crc, csize, usize)
        headers.insert(0, header)
        entries.insert(0, [raw_names[i], 0, crc, csize, usize])
        quote = struct.pack("<BHH", 0, len(header), len(header) ^ 0xFFFF)
        crc = crc32_combine(zlib.crc32(header), crc, usize)
        usize += len(header)
        csize += len(quote) + len(header)
    block = bytearray()
    for i, header in enumerate(headers):
        entries[i][1] = len(block)
        block += header
        if i + 1 < len(headers):
            block += struct.pack("<BHH", 0, len(headers[i + 1]), len(headers[i + 1]) ^ 0xFFFF)
    block += kernel
    return bytes(block), [tuple(e) for e in entries]
