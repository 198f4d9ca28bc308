"""Bytes to text for the plain formats, and telling text from binary.

Personal folders hold files written by every editor of the last thirty years,
so decoding never fails: a BOM wins, then strict UTF-8, then a single-byte
fallback (cp1252, with latin-1 for the five bytes cp1252 leaves undefined).
Binary files that wear a text extension are refused before they pollute the
index with noise.
"""
from __future__ import annotations

import codecs
import re
from typing import Optional, Tuple

from ..errors import SkipFile

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),   # before UTF-16 LE: it starts the same way
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)

# Signatures of common binary formats that people rename or mislabel.
_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "PNG image"),
    (b"\xff\xd8\xff", "JPEG image"),
    (b"GIF87a", "GIF image"),
    (b"GIF89a", "GIF image"),
    (b"%PDF-", "PDF document"),
    (b"PK\x03\x04", "ZIP archive"),
    (b"\x1f\x8b", "gzip archive"),
    (b"\x7fELF", "program (ELF)"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "legacy Office file"),
    (b"SQLite format 3\x00", "SQLite database"),
)

# C0 controls other than tab, newline, vertical tab, form feed, carriage
# return and escape; DEL; C1 controls; the replacement character.
_NON_TEXT = re.compile("[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f\x80-\x9f\ufffd]")
_SAMPLE_CHARS = 8192
_MAX_NON_TEXT_RATIO = 0.05


def bom_encoding(data: bytes) -> Tuple[Optional[str], int]:
    """The encoding a byte-order mark announces, and the BOM's length."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name, len(bom)
    return None, 0


def decode_text(data: bytes, declared: Optional[str] = None) -> str:
    """Decode a text file's bytes, or raise SkipFile if they are binary.

    `declared` is an encoding the file names for itself (an HTML meta
    charset); it is tried after a BOM and before the guesses.
    """
    if not data:
        raise SkipFile("empty file")
    name, skip = bom_encoding(data)
    if name:
        return _check_text(data[skip:].decode(name, errors="replace"))
    name = _utf16_without_bom(data)
    if name:
        return _check_text(data.decode(name, errors="replace"))
    _refuse_binary(data)
    if declared:
        try:
            return _check_text(data.decode(declared))
        except (UnicodeDecodeError, LookupError):
            pass
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = _not_utf8(data)
    return _check_text(text)


# A byte that is not UTF-8, as `surrogateescape` holds it; any character past ASCII.
_ESCAPED = re.compile("[\udc80-\udcff]+")
_WIDE = re.compile("[^\x00-\x7f]")
_KANA = re.compile("[\u3041-\u30ff]")
_JAPANESE = ("cp932", "euc_jp")   # Shift_JIS as Windows writes it, and EUC-JP
_MIN_KANA = 1   # a kana needs a byte cp1252 text seldom holds (0x82, 0x83; 0xA4, 0xA5 before a letter)


def _not_utf8(data: bytes) -> str:
    """Text that fails strict UTF-8. Mostly UTF-8 with a stray byte or two (a line pasted
    from a cp1252 editor) keeps its UTF-8 and reads each stray byte as cp1252: decoded
    whole as cp1252, every `é` it held became `Ã©`. Japanese saved as Shift_JIS or
    EUC-JP, which decodes strictly and is one part in five kana or more, is read so.
    Anything else is cp1252."""
    text = data.decode("utf-8", errors="surrogateescape")
    stray = sum(len(m) for m in _ESCAPED.findall(text))
    if len(_WIDE.findall(text)) - stray >= stray:   # more UTF-8 characters than stray bytes
        return _ESCAPED.sub(lambda m: single_byte(bytes(ord(c) - 0xDC00 for c in m.group())),
                            text)
    for name in _JAPANESE:
        try:
            text = data.decode(name)
        except UnicodeDecodeError:
            continue
        kana = len(_KANA.findall(text))
        if kana >= _MIN_KANA and kana * 5 >= len(_WIDE.findall(text)):
            return text
    return single_byte(data)


def decode_head(data: bytes, size: int) -> str:
    """`decode_text` of the file's first `size` bytes, less a UTF-8 character the cut
    splits (decoded whole, its bytes would fail UTF-8 and read as cp1252, C1
    controls among them, and the sample look binary)."""
    part = data[:size]
    if len(data) > size and _may_be_utf8(data, part):
        part = part[:len(part) - _split_tail(part)]
    return decode_text(part or data[:size])


def decode_tail(data: bytes, size: int) -> str:
    """`decode_text` of the file's last `size` bytes, less the continuation bytes of a
    UTF-8 character the cut splits."""
    part = data[-size:]
    if len(data) > size and _may_be_utf8(data, part):
        lead = 0
        while lead < 3 and lead < len(part) and 0x80 <= part[lead] <= 0xBF:
            lead += 1
        part = part[lead:] or part
    return decode_text(part)


def _may_be_utf8(data: bytes, part: bytes) -> bool:
    """Not UTF-16 or UTF-32 (a BOM that says so, or NULs): a cut may split a UTF-8 character."""
    return bom_encoding(data)[0] in (None, "utf-8") and b"\x00" not in part


def _split_tail(part: bytes) -> int:
    """How many bytes at the end of `part` begin a UTF-8 character they do not finish."""
    for back in range(1, min(4, len(part)) + 1):
        byte = part[-back]
        if byte < 0x80:
            return 0
        if byte >= 0xC0:   # a lead byte: how long its character is
            need = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            return back if need > back else 0
    return 0


def single_byte(data: bytes) -> str:
    """cp1252, except that its five undefined bytes read as latin-1."""
    return "".join(
        chunk.decode("cp1252", errors="strict") if i % 2 == 0 else chunk.decode("latin-1")
        for i, chunk in enumerate(re.split(rb"([\x81\x8d\x8f\x90\x9d]+)", data))
    )


def _utf16_without_bom(data: bytes) -> Optional[str]:
    """UTF-16 text saved without a byte-order mark: NULs on every other byte."""
    sample = data[:4096]
    if len(sample) < 8 or b"\x00" not in sample:
        return None
    even, odd = sample[0::2], sample[1::2]
    for zeros, other, name in ((odd, even, "utf-16-le"), (even, odd, "utf-16-be")):
        if zeros.count(0) >= 0.6 * len(zeros) and other.count(0) <= 0.02 * len(other):
            return name
    return None


def _refuse_binary(data: bytes) -> None:
    for magic, what in _MAGIC:
        if data.startswith(magic):
            raise SkipFile(f"binary content (looks like a {what})")
    if b"\x00" in data:
        raise SkipFile("binary content (NUL bytes)")


def _check_text(text: str) -> str:
    sample = text[:_SAMPLE_CHARS]
    if sample and len(_NON_TEXT.findall(sample)) > _MAX_NON_TEXT_RATIO * len(sample):
        raise SkipFile("binary content (mostly non-text characters)")
    return text


def normalise_newlines(text: str) -> str:
    """CRLF and lone CR become LF; other separators are left as they are."""
    return text.replace("\r\n", "\n").replace("\r", "\n")
