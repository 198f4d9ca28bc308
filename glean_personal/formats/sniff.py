"""Files whose name does not say what they are: sniffed, and gzip unwrapped.

A file with no extension (`README`, `NEWS`, `copyright`) or one no reader
claims (`README.Debian`, `notes.log`) is read as plain text when its first
8 KB look like text: a byte-order mark, or UTF-16 without one, or no NUL
byte, no signature of a binary format, few control characters, and (when
not UTF-8) few bytes above 127. Names that always mean a binary format
(`.png`, `.zip`, `.so`…) are skipped from the name alone, without opening
the file.

`x.gz` is read as `x` would be, once inflated. Inflation is bounded like a
ZIP member: beyond `max_inflated_bytes` the file is skipped. A text payload
(a changelog, say) is instead read up to `max_bytes`, as much as an
uncompressed text file may hold, and cut there with a warning. A tar archive
(`.tar.gz`), a gzip inside a gzip or a binary payload is skipped with its
reason.
"""
from __future__ import annotations

import re
import zlib
from typing import Optional, Tuple

from ..config import Limits
from ..errors import SkipFile
from .encoding import _MAGIC, bom_encoding

SNIFF_BYTES = 8192
_CHUNK = 65536

# Extensions that always name a binary (or archive) format none of the readers takes.
BINARY_EXTENSIONS = frozenset("""
    .png .jpg .jpeg .gif .bmp .tif .tiff .webp .ico .icns .heic .heif .psd .xcf .svg .svgz .raw
    .cr2 .nef .dng .mp3 .m4a .aac .ogg .oga .opus .flac .wav .aif .aiff .wma .mid .midi
    .mp4 .m4v .mov .avi .mkv .webm .wmv .flv .mpg .mpeg .3gp
    .zip .tar .tgz .tbz .tbz2 .txz .bz2 .xz .lz .lzma .zst .7z .rar .cab .deb .rpm .apk .jar
    .war .ear .whl .egg .dmg .iso .img .pkg .msi .appimage .snap
    .exe .dll .so .dylib .a .o .obj .lib .ko .bin .elf .class .pyc .pyo .pyd .wasm .dex
    .ttf .otf .woff .woff2 .eot .pfb .pfm
    .sqlite .sqlite3 .db .db3 .mdb .accdb .dbf .pdf .ps .eps .dvi .djvu .xps
    .doc .xls .ppt .docm .xlsm .xlsb .pptm .dotx .xltx .potx .ppsx .odt .ods .odp .odg .epub
    .mobi .azw .azw3 .pages .numbers .key .sketch .fig .blend .fbx .stl .3ds .dwg .dxf
    .pkl .pickle .npy .npz .h5 .hdf5 .parquet .feather .arrow .avro .orc .pt .pth .onnx
    .safetensors .ckpt .tflite .gguf .mo .gmo .icc .swf .crx .xpi .vsix .nupkg .gem
""".split())


# Generated indexes of the pages beside them, for a help browser (gtk-doc's
# `libxslt.devhelp2`: a `<keyword name=… link=…/>` per symbol, no sentence; Qt's
# `qtcore.qhp`, a Qt Help project for Qt Assistant: `<keyword name=… ref=…/>`).
INDEX_EXTENSIONS = frozenset({".devhelp", ".devhelp2", ".qhp"})


def name_skip_reason(ext: str) -> Optional[str]:
    """Why a file with this (lower-case) extension is never opened, or None."""
    if ext in BINARY_EXTENSIONS:
        return f"unsupported file type {ext}"
    if ext in INDEX_EXTENSIONS:
        return f"a help browser's index of the pages beside it ({ext})"
    return None


def text_sniff(head: bytes) -> Optional[str]:
    """None when the first bytes of a file look like text, else why not."""
    if not head:
        return None
    name, skip = bom_encoding(head)
    if name:
        return None
    if _utf16_like(head):
        return None
    for magic, what in _MAGIC:
        if head.startswith(magic):
            return f"binary content (looks like a {what})"
    if b"\x00" in head:
        return "binary content (NUL bytes)"
    controls = sum(head.count(bytes([c])) for c in (*range(1, 8), *range(14, 27), *range(28, 32), 127))
    if controls > 0.05 * len(head):
        return "binary content (control characters)"
    try:
        head.decode("utf-8")
        return None
    except UnicodeDecodeError as exc:
        if exc.start >= len(head) - 3 and len(head) >= SNIFF_BYTES:
            return None   # a character cut by the 8 KB sample
    high = sum(1 for b in head if b >= 0x80)
    if high > 0.3 * len(head):
        return "binary content (not UTF-8, mostly bytes above 127)"
    return None


def _utf16_like(head: bytes) -> bool:
    sample = head[:4096]
    if len(sample) < 8:
        return False
    even, odd = sample[0::2], sample[1::2]
    return any(z.count(0) >= 0.6 * len(z) and o.count(0) <= 0.02 * len(o)
               for z, o in ((odd, even), (even, odd)))


def gunzip(data: bytes, limits: Limits, keep: Optional[int] = None) -> Tuple[bytes, bool]:
    """The inflated bytes of a gzip file (all its members), and whether they were cut.

    Beyond max_inflated_bytes the file is skipped; with `keep`, inflation
    stops there instead and the bytes are cut after the last whole line.
    """
    if not data.startswith(b"\x1f\x8b"):
        raise SkipFile("not a gzip file (no gzip signature)")
    cap = limits.max_inflated_bytes if keep is None else min(keep, limits.max_inflated_bytes)
    out = bytearray()
    view = memoryview(data)
    start = 0   # where the next member begins
    while start < len(data):
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        pos = start
        while pos < len(data) and not inflater.eof:
            out += inflater.decompress(view[pos:pos + _CHUNK], cap + 1 - len(out))
            pos += _CHUNK
            while inflater.unconsumed_tail and len(out) <= cap:
                out += inflater.decompress(inflater.unconsumed_tail, cap + 1 - len(out))
            if len(out) > cap:
                if keep is None or cap < keep:
                    raise SkipFile(f"gzip content inflates beyond {cap:,} bytes")
                line_end = out.rfind(b"\n", 0, cap)
                return bytes(out[:line_end + 1 if line_end > 0 else cap]), True
        if not inflater.eof:
            raise SkipFile("damaged gzip file (ends early)")
        # The next member starts where this one's data ended (inside the last chunk read),
        # after any zero padding.
        start = _ZEROS.match(data, min(pos, len(data)) - len(inflater.unused_data)).end()
        if start < len(data) and not data.startswith(b"\x1f\x8b", start):
            break   # trailing garbage after the last member, as gzip itself allows
    return bytes(out), False


_ZEROS = re.compile(b"\\x00*")


__all__ = ["SNIFF_BYTES", "BINARY_EXTENSIONS", "INDEX_EXTENSIONS", "name_skip_reason", "text_sniff", "gunzip"]
