"""Glyph names to Unicode, and the simple-font base encodings.

`glyph_to_unicode` follows the Adobe Glyph List rules: drop a suffix after a
period, split ligature names at underscores, look each part up in a compact
table, else read `uniXXXX` (groups of four hex digits) or `uXXXX[XX]`. The
table is written out for punctuation, symbols and ligatures, and generated
from `unicodedata` for accented Latin, Greek and the Cyrillic `afii` names.
Ligature code points are expanded (fi → "fi") so words are searchable.
"""
from __future__ import annotations

import codecs
import re
import unicodedata
from typing import Dict, List, Optional

_NAMED = """
space 0020 exclam 0021 quotedbl 0022 numbersign 0023 dollar 0024 percent 0025 ampersand 0026
quotesingle 0027 parenleft 0028 parenright 0029 asterisk 002A plus 002B comma 002C hyphen 002D
period 002E slash 002F zero 0030 one 0031 two 0032 three 0033 four 0034 five 0035 six 0036
seven 0037 eight 0038 nine 0039 colon 003A semicolon 003B less 003C equal 003D greater 003E
question 003F at 0040 bracketleft 005B backslash 005C bracketright 005D asciicircum 005E
underscore 005F grave 0060 braceleft 007B bar 007C braceright 007D asciitilde 007E
exclamdown 00A1 cent 00A2 sterling 00A3 currency 00A4 yen 00A5 brokenbar 00A6 section 00A7
dieresis 00A8 copyright 00A9 ordfeminine 00AA guillemotleft 00AB guillemetleft 00AB logicalnot 00AC
sfthyphen 00AD registered 00AE macron 00AF degree 00B0 plusminus 00B1 twosuperior 00B2
threesuperior 00B3 acute 00B4 mu 00B5 paragraph 00B6 periodcentered 00B7 cedilla 00B8
onesuperior 00B9 ordmasculine 00BA guillemotright 00BB guillemetright 00BB onequarter 00BC onehalf 00BD
threequarters 00BE questiondown 00BF AE 00C6 Eth 00D0 multiply 00D7 Oslash 00D8 Thorn 00DE
germandbls 00DF ae 00E6 eth 00F0 divide 00F7 oslash 00F8 thorn 00FE dotlessi 0131 IJ 0132 ij 0133
Lslash 0141 lslash 0142 OE 0152 oe 0153 Dcroat 0110 dcroat 0111 Hbar 0126 hbar 0127 kgreenlandic 0138
Ldot 013F ldot 0140 napostrophe 0149 Eng 014A eng 014B Tbar 0166 tbar 0167 longs 017F florin 0192
dotlessj 0237 circumflex 02C6 caron 02C7 breve 02D8 dotaccent 02D9 ring 02DA ogonek 02DB tilde 02DC
hungarumlaut 02DD endash 2013 emdash 2014 figuredash 2012 quoteleft 2018 quoteright 2019
quotesinglbase 201A quotereversed 201B quotedblleft 201C quotedblright 201D quotedblbase 201E
dagger 2020 daggerdbl 2021 bullet 2022 ellipsis 2026 perthousand 2030 minute 2032 second 2033
guilsinglleft 2039 guilsinglright 203A fraction 2044 Euro 20AC trademark 2122 minus 2212
nbspace 00A0 nonbreakingspace 00A0 middot 00B7 Omega 03A9 Delta 0394 mu1 00B5 Ohm 2126
summation 2211 product 220F integral 222B infinity 221E partialdiff 2202 radical 221A
approxequal 2248 notequal 2260 lessequal 2264 greaterequal 2265 lozenge 25CA dotmath 22C5
arrowleft 2190 arrowup 2191 arrowright 2192 arrowdown 2193 arrowboth 2194 arrowdblright 21D2
arrowdblleft 21D0 arrowdblboth 21D4 element 2208 notelement 2209 suchthat 220B emptyset 2205
gradient 2207 universal 2200 existential 2203 logicaland 2227 logicalor 2228 intersection 2229
union 222A propersubset 2282 propersuperset 2283 reflexsubset 2286 reflexsuperset 2287
similar 223C congruent 2245 equivalence 2261 proportional 221D therefore 2234 angle 2220
perpendicular 22A5 circleplus 2295 circlemultiply 2297 aleph 2135 weierstrass 2118
Ifraktur 2111 Rfraktur 211C degreecentigrade 2103 estimated 212E afii61289 2113 afii61352 2116
openbullet 25E6 blackcircle 25CF whitebullet 25E6 filledbox 25A0 H18533 25CF H18543 25AA H18551 25AB
square 25A1 checkmark 2713 club 2663 diamond 2666 heart 2665 spade 2660 dotlessjmath 0237
commaaccent 0326 grave.cap 0060 quotedblprime 2033 primerev 2035 servicemark 2120 numero 2116
careof 2105 onethird 2153 twothirds 2154 oneeighth 215B threeeighths 215C fiveeighths 215D
seveneighths 215E zerosuperior 2070 foursuperior 2074 fivesuperior 2075 sixsuperior 2076
sevensuperior 2077 eightsuperior 2078 ninesuperior 2079 zeroinferior 2080 oneinferior 2081
twoinferior 2082 threeinferior 2083 Scedilla 015E scedilla 015F Tcedilla 0162 tcedilla 0163
Gcommaaccent 0122 gcommaaccent 0123 Kcommaaccent 0136 kcommaaccent 0137 Lcommaaccent 013B
lcommaaccent 013C Ncommaaccent 0145 ncommaaccent 0146 Rcommaaccent 0156 rcommaaccent 0157
Scommaaccent 0218 scommaaccent 0219 Tcommaaccent 021A tcommaaccent 021B Idotaccent 0130
Gdotaccent 0120 gdotaccent 0121 Edotaccent 0116 edotaccent 0117 Zdotaccent 017B zdotaccent 017C
Cdotaccent 010A cdotaccent 010B Udblacute 0170 udblacute 0171 Odblacute 0150 odblacute 0151
Ohungarumlaut 0150 ohungarumlaut 0151 Uhungarumlaut 0170 uhungarumlaut 0171 tonos 0384
dieresistonos 0385 anoteleia 0387 Alphatonos 0386 Epsilontonos 0388 Etatonos 0389 Iotatonos 038A
Omicrontonos 038C Upsilontonos 038E Omegatonos 038F iotadieresistonos 0390 alphatonos 03AC
epsilontonos 03AD etatonos 03AE iotatonos 03AF upsilondieresistonos 03B0 iotadieresis 03CA
upsilondieresis 03CB omicrontonos 03CC upsilontonos 03CD omegatonos 03CE Iotadieresis 03AA
Upsilondieresis 03AB sigma1 03C2 theta1 03D1 phi1 03D5 omega1 03D6 Upsilon1 03D2 epsilon1 03F5
afii10051 0402 afii10052 0403 afii10053 0404 afii10054 0405 afii10055 0406 afii10056 0407
afii10057 0408 afii10058 0409 afii10059 040A afii10060 040B afii10061 040C afii10062 040E
afii10145 040F afii10099 0452 afii10100 0453 afii10101 0454 afii10102 0455 afii10103 0456
afii10104 0457 afii10105 0458 afii10106 0459 afii10107 045A afii10108 045B afii10109 045C
afii10110 045E afii10193 045F afii10050 0490 afii10098 0491 afii00208 2015 afii57929 02BC
afii64937 02BD arrowdblup 21D1 arrowdbldown 21D3 angleleft 2329 angleright 232A
"""
_GREEK = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho "
          "sigma1 sigma tau upsilon phi chi psi omega").split()
_DIACRITICS = {"ACUTE": "acute", "GRAVE": "grave", "CIRCUMFLEX": "circumflex", "TILDE": "tilde",
               "DIAERESIS": "dieresis", "RING ABOVE": "ring", "CEDILLA": "cedilla", "CARON": "caron",
               "BREVE": "breve", "MACRON": "macron", "OGONEK": "ogonek", "DOT ABOVE": "dotaccent",
               "DOUBLE ACUTE": "hungarumlaut", "STROKE": "slash"}
_LIGATURES = {"ff": "ff", "fi": "fi", "fl": "fl", "ffi": "ffi", "ffl": "ffl", "st": "st", "longst": "st"}


def _build() -> Dict[str, str]:
    table: Dict[str, str] = {}
    words = _NAMED.split()
    for i in range(0, len(words), 2):
        table[words[i]] = chr(int(words[i + 1], 16))
    for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ":
        table[c] = c
    pattern = re.compile(r"LATIN (SMALL|CAPITAL) LETTER ([A-Z]) WITH (.+)$")
    for code in range(0xC0, 0x250):
        m = pattern.match(unicodedata.name(chr(code), ""))
        if m and m.group(3) in _DIACRITICS:
            letter = m.group(2).lower() if m.group(1) == "SMALL" else m.group(2)
            table.setdefault(letter + _DIACRITICS[m.group(3)], chr(code))
    for i, g in enumerate(_GREEK):
        lower = chr(0x3B1 + i)
        table.setdefault(g, lower)
        if g != "sigma1":
            table.setdefault(g[0].upper() + g[1:], chr(0x391 + i))
    for i in range(32):   # Cyrillic capitals and small letters, afii numbering
        cap = 0x401 if i == 6 else 0x410 + (i if i < 6 else i - 1)
        small = 0x451 if i == 6 else 0x430 + (i if i < 6 else i - 1)
        table[f"afii{10017 + i}"] = chr(cap)
        table[f"afii{10065 + i}"] = chr(small)
    table["afii10049"] = "\u042f"
    table["afii10097"] = "\u044f"
    for name, text in _LIGATURES.items():
        table[name] = text
    return table


AGL = _build()
_UNI = re.compile(r"uni((?:[0-9A-F]{4})+)$")
_U = re.compile(r"u([0-9A-F]{4,6})$")
_LIGATURE_CHARS = {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl",
                   "\ufb05": "st", "\ufb06": "st"}
_LIG_RE = re.compile("[\ufb00-\ufb06]")


def normalise(text: str) -> str:
    """Ligature code points expanded to their letters."""
    if _LIG_RE.search(text):
        text = _LIG_RE.sub(lambda m: _LIGATURE_CHARS[m.group()], text)
    return text


def glyph_to_unicode(glyph: str) -> Optional[str]:
    """The text a glyph name stands for, or None when the name says nothing."""
    found = AGL.get(glyph)
    if found is not None:
        return found
    base = glyph.split(".", 1)[0]
    if not base:
        return None
    parts = base.split("_")
    out: List[str] = []
    for part in parts:
        text = AGL.get(part)
        if text is None:
            m = _UNI.match(part)
            if m:
                hexes = m.group(1)
                chars = [int(hexes[i:i + 4], 16) for i in range(0, len(hexes), 4)]
                if any(0xD800 <= c <= 0xDFFF for c in chars):
                    return None
                text = "".join(map(chr, chars))
            else:
                m = _U.match(part)
                if m:
                    c = int(m.group(1), 16)
                    if 0xD800 <= c <= 0xDFFF or c > 0x10FFFF:
                        return None
                    text = chr(c)
        if text is None:
            return None
        out.append(text)
    return normalise("".join(out))


# --- base encodings (code -> text) ----------------------------------------

def _from_codec(name: str) -> List[Optional[str]]:
    out: List[Optional[str]] = []
    decoder = codecs.getdecoder(name)
    for code in range(256):
        try:
            out.append(decoder(bytes((code,)))[0])
        except UnicodeDecodeError:
            out.append(None)
    return out


def _standard() -> List[Optional[str]]:
    enc: List[Optional[str]] = [None] * 256
    for code in range(0x20, 0x7F):
        enc[code] = chr(code)
    enc[0x27] = "\u2019"
    enc[0x60] = "\u2018"
    high = ("A1 \u00a1 A2 \u00a2 A3 \u00a3 A4 \u2044 A5 \u00a5 A6 \u0192 A7 \u00a7 A8 \u00a4 A9 ' "
            "AA \u201c AB \u00ab AC \u2039 AD \u203a AE fi AF fl B1 \u2013 B2 \u2020 B3 \u2021 "
            "B4 \u00b7 B6 \u00b6 B7 \u2022 B8 \u201a B9 \u201e BA \u201d BB \u00bb BC \u2026 "
            "BD \u2030 BF \u00bf C1 ` C2 \u00b4 C3 \u02c6 C4 \u02dc C5 \u00af C6 \u02d8 C7 \u02d9 "
            "C8 \u00a8 CA \u02da CB \u00b8 CD \u02dd CE \u02db CF \u02c7 D0 \u2014 E1 \u00c6 "
            "E3 \u00aa E8 \u0141 E9 \u00d8 EA \u0152 EB \u00ba F1 \u00e6 F5 \u0131 F8 \u0142 "
            "F9 \u00f8 FA \u0153 FB \u00df").split()
    for i in range(0, len(high), 2):
        enc[int(high[i], 16)] = high[i + 1]
    return enc


def _win_ansi() -> List[Optional[str]]:
    enc = _from_codec("cp1252")
    for code in range(0x20):
        enc[code] = None
    enc[0x7F] = None
    for code in (0x81, 0x8D, 0x8F, 0x90, 0x9D):
        enc[code] = None
    enc[0xA0] = " "
    enc[0xAD] = "-"
    return enc


def _mac_roman() -> List[Optional[str]]:
    enc = _from_codec("mac_roman")
    for code in range(0x20):
        enc[code] = None
    enc[0x7F] = None
    enc[0xCA] = " "
    enc[0xDB] = "\u00a4"
    return enc


def _pdf_doc() -> List[Optional[str]]:
    enc: List[Optional[str]] = [chr(c) for c in range(256)]
    for code in range(0x18):
        enc[code] = None if code not in (9, 10, 13) else chr(code)
    special = {0x18: 0x02D8, 0x19: 0x02C7, 0x1A: 0x02C6, 0x1B: 0x02D9, 0x1C: 0x02DD, 0x1D: 0x02DB,
               0x1E: 0x02DA, 0x1F: 0x02DC, 0x7F: None, 0x80: 0x2022, 0x81: 0x2020, 0x82: 0x2021,
               0x83: 0x2026, 0x84: 0x2014, 0x85: 0x2013, 0x86: 0x0192, 0x87: 0x2044, 0x88: 0x2039,
               0x89: 0x203A, 0x8A: 0x2212, 0x8B: 0x2030, 0x8C: 0x201E, 0x8D: 0x201C, 0x8E: 0x201D,
               0x8F: 0x2018, 0x90: 0x2019, 0x91: 0x201A, 0x92: 0x2122, 0x93: 0xFB01, 0x94: 0xFB02,
               0x95: 0x0141, 0x96: 0x0152, 0x97: 0x0160, 0x98: 0x0178, 0x99: 0x017D, 0x9A: 0x0131,
               0x9B: 0x0142, 0x9C: 0x0153, 0x9D: 0x0161, 0x9E: 0x017E, 0x9F: None, 0xA0: 0x20AC}
    for code, uni in special.items():
        enc[code] = None if uni is None else chr(uni)
    return enc


STANDARD = _standard()
WIN_ANSI = _win_ansi()
MAC_ROMAN = _mac_roman()
PDF_DOC = _pdf_doc()
ENCODINGS = {"StandardEncoding": STANDARD, "WinAnsiEncoding": WIN_ANSI,
             "MacRomanEncoding": MAC_ROMAN, "PDFDocEncoding": PDF_DOC,
             "MacExpertEncoding": STANDARD}


def decode_text_string(raw: bytes) -> str:
    """A text string (titles, bookmarks, labels): UTF-16 with its BOM, UTF-8 with its BOM, else PDFDocEncoding."""
    if raw.startswith(b"\xfe\xff"):
        return raw[2:].decode("utf-16-be", "replace")
    if raw.startswith(b"\xff\xfe"):
        return raw[2:].decode("utf-16-le", "replace")
    if raw.startswith(b"\xef\xbb\xbf"):
        return raw[3:].decode("utf-8", "replace")
    return "".join(PDF_DOC[b] or "" for b in raw)
