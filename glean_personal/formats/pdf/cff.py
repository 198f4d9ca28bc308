"""The built-in encoding of an embedded CFF (Type 1C) font program.

Math and symbol fonts often carry no `/Encoding`: their codes are only
defined inside the font program. This reads just enough of a CFF font (the
Top DICT, the charset and the encoding) to name the glyph behind each code.
Anything malformed yields None; nothing here is executed.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

# Standard strings 0..228 (the ISOAdobe charset order) and 379..390.
_STANDARD = (
    ".notdef space exclam quotedbl numbersign dollar percent ampersand quoteright parenleft "
    "parenright asterisk plus comma hyphen period slash zero one two three four five six seven "
    "eight nine colon semicolon less equal greater question at A B C D E F G H I J K L M N O P Q "
    "R S T U V W X Y Z bracketleft backslash bracketright asciicircum underscore quoteleft a b c "
    "d e f g h i j k l m n o p q r s t u v w x y z braceleft bar braceright asciitilde exclamdown "
    "cent sterling fraction yen florin section currency quotesingle quotedblleft guillemotleft "
    "guilsinglleft guilsinglright fi fl endash dagger daggerdbl periodcentered paragraph bullet "
    "quotesinglbase quotedblbase quotedblright guillemotright ellipsis perthousand questiondown "
    "grave acute circumflex tilde macron breve dotaccent dieresis ring cedilla hungarumlaut ogonek "
    "caron emdash AE ordfeminine Lslash Oslash OE ordmasculine ae dotlessi lslash oslash oe "
    "germandbls onesuperior logicalnot mu trademark Eth onehalf plusminus Thorn onequarter divide "
    "brokenbar degree thorn threequarters twosuperior registered minus eth multiply threesuperior "
    "copyright Aacute Acircumflex Adieresis Agrave Aring Atilde Ccedilla Eacute Ecircumflex "
    "Edieresis Egrave Iacute Icircumflex Idieresis Igrave Ntilde Oacute Ocircumflex Odieresis "
    "Ograve Otilde Scaron Uacute Ucircumflex Udieresis Ugrave Yacute Ydieresis Zcaron aacute "
    "acircumflex adieresis agrave aring atilde ccedilla eacute ecircumflex edieresis egrave iacute "
    "icircumflex idieresis igrave ntilde oacute ocircumflex odieresis ograve otilde scaron uacute "
    "ucircumflex udieresis ugrave yacute ydieresis zcaron").split()
# Expert strings 229..268 (as far as the ff ligatures); the rest stay unnamed.
_EXPERT = ("exclamsmall Hungarumlautsmall dollaroldstyle dollarsuperior ampersandsmall Acutesmall "
           "parenleftsuperior parenrightsuperior twodotenleader onedotenleader zerooldstyle oneoldstyle "
           "twooldstyle threeoldstyle fouroldstyle fiveoldstyle sixoldstyle sevenoldstyle eightoldstyle "
           "nineoldstyle commasuperior threequartersemdash periodsuperior questionsmall asuperior "
           "bsuperior centsuperior dsuperior esuperior isuperior lsuperior msuperior nsuperior osuperior "
           "rsuperior ssuperior tsuperior ff ffi ffl").split()
_STANDARD = _STANDARD + _EXPERT
_LATE = "001.000 001.001 001.002 001.003 Black Bold Book Light Medium Regular Roman Semibold".split()


def _index(data: bytes, pos: int) -> Tuple[List[bytes], int]:
    count = int.from_bytes(data[pos:pos + 2], "big")
    if count == 0:
        return [], pos + 2
    size = data[pos + 2]
    if not 1 <= size <= 4:
        raise ValueError("bad CFF index")
    base = pos + 3
    offsets = [int.from_bytes(data[base + i * size:base + (i + 1) * size], "big") for i in range(count + 1)]
    start = base + (count + 1) * size - 1
    items = [data[start + offsets[i]:start + offsets[i + 1]] for i in range(count)]
    return items, start + offsets[-1]


def _dict(data: bytes) -> Dict[int, List[float]]:
    out: Dict[int, List[float]] = {}
    operands: List[float] = []
    i = 0
    n = len(data)
    while i < n:
        b = data[i]
        if b <= 21:
            op = b
            i += 1
            if b == 12:
                op = 1200 + data[i]
                i += 1
            out[op] = operands
            operands = []
        elif b == 28:
            operands.append(int.from_bytes(data[i + 1:i + 3], "big", signed=True))
            i += 3
        elif b == 29:
            operands.append(int.from_bytes(data[i + 1:i + 5], "big", signed=True))
            i += 5
        elif b == 30:   # real number: skip its nibbles
            i += 1
            while i < n and (data[i] & 0x0F) != 0x0F and (data[i] >> 4) != 0x0F:
                i += 1
            i += 1
            operands.append(0.0)
        elif 32 <= b <= 246:
            operands.append(b - 139)
            i += 1
        elif 247 <= b <= 250:
            operands.append((b - 247) * 256 + data[i + 1] + 108)
            i += 2
        elif 251 <= b <= 254:
            operands.append(-(b - 251) * 256 - data[i + 1] - 108)
            i += 2
        else:
            i += 1
    return out


def builtin_encoding(data: bytes) -> Optional[Dict[int, str]]:
    """Code → glyph name from a CFF font's own encoding; None if unreadable or standard."""
    try:
        return _encoding(data)
    except (ValueError, IndexError, KeyError):
        return None


def _encoding(data: bytes) -> Optional[Dict[int, str]]:
    if len(data) < 4 or data[0] != 1:
        return None
    pos = data[2]
    _, pos = _index(data, pos)                 # names
    tops, pos = _index(data, pos)              # top dicts
    strings, pos = _index(data, pos)           # strings
    if not tops:
        return None
    top = _dict(tops[0])
    if 1230 in top:   # CID-keyed: no simple encoding
        return None
    charstrings = top.get(17)
    if not charstrings:
        return None
    glyphs, _ = _index(data, int(charstrings[0]))
    nglyphs = len(glyphs)

    def sid_name(sid: int) -> str:
        if sid < len(_STANDARD):
            return _STANDARD[sid]
        if 379 <= sid <= 390:
            return _LATE[sid - 379]
        if sid >= 391 and sid - 391 < len(strings):
            return strings[sid - 391].decode("latin-1")
        return ""

    charset_at = int(top.get(15, [0])[0])
    names = [".notdef"]
    if charset_at == 0:
        names = [sid_name(g) for g in range(nglyphs)]
    elif charset_at > 2:
        fmt = data[charset_at]
        p = charset_at + 1
        if fmt == 0:
            for _ in range(nglyphs - 1):
                names.append(sid_name(int.from_bytes(data[p:p + 2], "big")))
                p += 2
        else:
            while len(names) < nglyphs:
                first = int.from_bytes(data[p:p + 2], "big")
                if fmt == 1:
                    left = data[p + 2]
                    p += 3
                else:
                    left = int.from_bytes(data[p + 2:p + 4], "big")
                    p += 4
                for k in range(left + 1):
                    names.append(sid_name(first + k))
    else:
        return None
    enc_at = int(top.get(16, [0])[0])
    if enc_at <= 1:
        return None   # standard or expert encoding
    fmt = data[enc_at]
    p = enc_at + 1
    out: Dict[int, str] = {}
    if fmt & 0x7F == 0:
        count = data[p]
        p += 1
        for gid in range(1, count + 1):
            if gid < len(names):
                out[data[p]] = names[gid]
            p += 1
    elif fmt & 0x7F == 1:
        ranges = data[p]
        p += 1
        gid = 1
        for _ in range(ranges):
            first, left = data[p], data[p + 1]
            p += 2
            for k in range(left + 1):
                if gid < len(names):
                    out[first + k] = names[gid]
                gid += 1
    if fmt & 0x80:
        sups = data[p]
        p += 1
        for _ in range(sups):
            code = data[p]
            sid = int.from_bytes(data[p + 1:p + 3], "big")
            out[code] = sid_name(sid)
            p += 3
    return out
